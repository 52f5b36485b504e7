"""The ``parlour serve`` page in headless Chromium (Playwright driving the OS's ``chromium``):
a whole Audition game and a whole Awkward Guests game, at desktop and phone sizes, played by a
script that acts only on what is visible, to an end screen that names the winner from the
player's point of view; "Play again"; an accessibility scan (axe-core) of each screen.
``make test`` installs Chromium when it is missing (``make chromium``); ``make screenshots``
writes the pictures of ``docs/images/`` from these tests.
"""

from __future__ import annotations

import re

import pytest

from tests.web.browser import (
    SETTLE_MS,
    SETTLED,
    axe_violations,
    close_page,
    expected_outcome,
    game_key,
    no_sideways_scroll,
    open_page,
    play_visible,
    seat_names,
    shoot,
    start,
)
from tests.web.conftest import Live

#: (game, players, opponents, deal seed, click seed, the move of the mid-game screenshot)
WHOLE_GAMES = {
    "audition": ("audition", 3, ["audition.greedy", "random"], 21, 1, 12),
    "guests": ("guests", 2, ["guests.deducer"], 5, 2, 3),
}


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("name", list(WHOLE_GAMES))
def test_a_whole_game_by_what_is_visible(browser, live: Live, name: str, size: str) -> None:
    game, players, opponents, seed, clicks, shot_at = WHOLE_GAMES[name]
    page = open_page(browser, live.url, size)
    assert axe_violations(page) == []  # the new-game form
    start(page, game, players, opponents, seed)
    assert axe_violations(page) == []  # the table in play
    if size == "phone":
        no_sideways_scroll(page)
    suffix = "" if size == "desktop" else "_phone"
    kinds = play_visible(page, clicks, shot=(shot_at, f"web_{name}{suffix}.png"))
    final = page.inner_text("#final")
    if game == "audition":
        assert kinds.get("slot", 0) > 0  # slots were clicked
        assert "Final scores" in final and final.count("total") == players  # the breakdowns
    else:
        assert kinds.get("ref", 0) > 0 and kinds.get("card", 0) > 0  # map and hand
        assert "The solution:" in final and "The cards that prove it" in final
        # the end was announced in the log as a public event (who won, or why nobody did)
        events = page.eval_on_selector_all("#log li.event", "ls => ls.map(l => l.textContent)")
        assert events and re.search(r"wins|nobody", events[-1], re.IGNORECASE), events
    assert page.inner_text("#turn") == "Game over."
    key = game_key(page)
    names = seat_names(page)
    assert page.inner_text("#outcome") == expected_outcome(live, key, names)
    assert page.is_visible("#play-again")
    assert "_" not in re.sub(r"player_\d+", "", final)  # (display names, no engine ids)
    if size == "phone":
        no_sideways_scroll(page)
    assert axe_violations(page) == []  # the end screen
    shoot(page, f"web_{name}_end{suffix}.png")
    # Play again: the same table, a new deal
    page.click("#play-again")
    page.wait_for_selector(SETTLED, timeout=SETTLE_MS)
    assert game_key(page) != key
    assert seat_names(page) == names  # (the same seat and opponents)
    again = live.app.state.games.sessions[game_key(page)].settings
    assert (again.players, again.opponent_ids) == (players, opponents)
    assert page.locator("#outcome").count() == 0 or page.inner_text("#turn") == "Game over."
    assert live.app.state.games.sessions.get(key) is None  # the old game was closed
    close_page(page)
