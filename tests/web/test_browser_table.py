"""The ``parlour serve`` page for a person, in headless Chromium at desktop and phone sizes: a
prompt for every decision, the rules panel, a log that follows the game, keyboard play, undo
of a half-built choice, a game that survives a reload, and clear states for a game that timed
out, a full server and a slow first deal."""

from __future__ import annotations

import json
import re
import time

import pytest

from parlour.apps.web.sessions import Limits
from tests.web.browser import (
    SETTLE_MS,
    SETTLED,
    axe_violations,
    close_page,
    game_key,
    no_sideways_scroll,
    open_page,
    play_visible,
    seat_names,
    start,
    visible_choices,
)
from tests.web.conftest import Live

SIZES = ["desktop", "phone"]
#: keys pressed at most to reach a move with Tab
MAX_TABS = 400
#: milliseconds the new-game answer is held back in the slow-deal test
SLOW_DEAL_MS = 1500


@pytest.fixture(params=SIZES)
def page(request, browser, live: Live):
    pg = open_page(browser, live.url, request.param)
    pg.size = request.param
    yield pg
    close_page(pg)


def log_lines(page) -> list[str]:
    return page.eval_on_selector_all("#log li", "ls => ls.map(l => l.textContent)")


def test_prompts_rules_and_a_log_that_follows(page) -> None:
    start(page, "guests", 3, ["guests.deducer", "random"], seed=3)
    page.click("#rules summary")
    rules = page.inner_text("#rules-text")
    assert "accus" in rules.lower() and len(rules) > 200
    seen_prompts = set()
    for _ in range(25):
        if page.get_attribute("body", "data-phase") != "mine":
            break
        prompt = page.inner_text("#prompt")
        assert prompt.strip() and "_" not in re.sub(r"player_\d+", "", prompt)
        seen_prompts.add(prompt)
        play_visible(page, seed=len(seen_prompts), until=1)
    assert len(seen_prompts) > 1
    lines = log_lines(page)
    assert len(lines) > 10
    # the newest line is in view inside the log box, and repeated in the bar
    log = page.eval_on_selector(
        "#log", "l => [l.scrollTop + l.clientHeight, l.scrollHeight, l.clientHeight]"
    )
    assert log[0] >= log[1] - 2 and log[2] < log[1]  # (scrolled: more lines than it shows)
    others = [line for line in page.eval_on_selector_all(
        "#log li:not(.mine)", "ls => ls.map(l => l.textContent)")]  # fmt: skip
    assert page.inner_text("#latest") == others[-1]
    # the prompt bar stays on screen when the page is scrolled to its end
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    box = page.locator("#turn").bounding_box()
    assert box is not None and 0 <= box["y"] < page.viewport_size["height"]
    if page.size == "phone":
        no_sideways_scroll(page)


def test_keyboard_play(page) -> None:
    start(page, "audition", 2, ["random"], seed=5)
    before = len(page.eval_on_selector_all("#log li.mine", "ls => ls"))
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        on_move = page.evaluate(
            "(() => { const a = document.activeElement;"
            " return a.matches('#table .legal, #moves button.move:enabled'); })()"
        )
        if on_move:
            break
    else:
        raise AssertionError("no move can be reached with Tab")
    page.keyboard.press("Enter")
    page.wait_for_selector(SETTLED, timeout=SETTLE_MS)
    assert len(page.eval_on_selector_all("#log li.mine", "ls => ls")) == before + 1
    # the focus came back to a move: Enter again plays the next one, no Tab from the top
    for k in range(2, 4):
        if page.get_attribute("body", "data-phase") != "mine":
            break
        assert page.evaluate(
            "document.activeElement.matches('#table .legal, #moves button.move:enabled')"
        )
        page.keyboard.press("Enter")
        page.wait_for_selector(SETTLED, timeout=SETTLE_MS)
        assert len(page.eval_on_selector_all("#log li.mine", "ls => ls")) == before + k


def test_undo_a_half_built_choice(page) -> None:
    start(page, "guests", 1, [], seed=7)
    assert not page.is_visible("#undo")
    refs = page.locator("#table .legal[data-target^='ref:']")
    assert refs.count() > 1  # the first decision: what to ask about
    table_before = page.inner_text("#table")
    first = refs.first.get_attribute("data-target")
    refs.first.click()
    page.wait_for_selector(SETTLED, timeout=SETTLE_MS)
    assert page.is_visible("#undo")
    assert len(page.eval_on_selector_all("#log li.mine", "ls => ls")) == 1
    page.click("#undo")
    page.wait_for_selector("#undo.hidden", state="attached", timeout=SETTLE_MS)
    assert page.inner_text("#table") == table_before
    assert page.locator(f"#table .legal[data-target='{first}']").count() == 1
    page.wait_for_function("document.querySelectorAll('#log li.mine').length === 0")


def test_a_reload_resumes_the_game(page, live: Live) -> None:
    start(page, "audition", 3, ["audition.greedy", "random"], seed=8)
    play_visible(page, seed=4, until=4)
    key, lines, table = game_key(page), log_lines(page), page.inner_text("#table")
    assert key and len(lines) >= 4
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector(SETTLED, timeout=SETTLE_MS)
    assert game_key(page) == key
    assert log_lines(page) == lines
    assert page.inner_text("#table") == table
    assert "Opponent" not in page.inner_text("#log")
    names = page.evaluate("window.parlourGameNames()")
    assert "random" in " ".join(names.values()).lower()  # the opponents' names came back too
    play_visible(page, seed=5, until=1)  # and it goes on
    assert len(log_lines(page)) > len(lines)


def test_a_game_that_timed_out_says_so(page, live: Live) -> None:
    start(page, "audition", 2, ["random"], seed=9)
    mine = len(page.eval_on_selector_all("#log li.mine", "ls => ls"))
    key = game_key(page)
    assert live.app.state.games.drop(key)  # (what the timeout does)
    visible_choices(page).first.click()
    page.wait_for_selector("body[data-phase='gone']", timeout=SETTLE_MS)
    assert "timed out" in page.inner_text("#turn")
    assert "Your turn" not in page.inner_text("#bar")
    assert page.inner_text("#status") == "game closed"
    assert page.is_visible("#error")
    assert len(page.eval_on_selector_all("#log li.mine", "ls => ls")) == mine  # not played
    assert visible_choices(page).count() == 0
    assert page.is_visible("#new-game-button")
    assert game_key(page) is None  # (the address no longer names it)
    # the closed game's address (a bookmark, another tab) says it is gone
    page.goto(f"{live.url}/?frame_ms=0#game={key}")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert "no longer on the server" in page.inner_text("#error")


def test_a_full_server_says_so(page, live: Live) -> None:
    store = live.app.state.games
    kept = store.limits
    live.call("POST", "/api/games", {"game": "audition", "players": 2})  # (at least one open)
    store.limits = Limits(total=len(store.sessions), timeout=kept.timeout)
    try:
        page.click("#start")
        page.wait_for_selector("body[data-phase='refused']", timeout=SETTLE_MS)
        assert page.inner_text("#status") == "server full"
        assert "the server is full" in page.inner_text("#error")
        assert page.is_enabled("#start")  # (try again later)
    finally:
        store.limits = kept


def test_a_slow_first_deal_says_why(page) -> None:
    page.evaluate(
        "window.__statuses = [];"
        "new MutationObserver(() => window.__statuses.push("
        "document.getElementById('status').textContent))"
        ".observe(document.getElementById('status'), {childList: true, subtree: true,"
        " characterData: true});"
    )

    def slow(route) -> None:
        time.sleep(SLOW_DEAL_MS / 1000)
        route.continue_()

    page.route("**/api/games", slow)
    start(page, "audition", 2, ["random"], seed=10)
    statuses = page.evaluate("window.__statuses")
    assert any("loading the opponents" in s for s in statuses), statuses
    assert page.get_attribute("body", "data-phase") == "mine"


def test_the_new_game_form_names_agents_and_passes_axe(page) -> None:
    page.select_option("#game", "audition")
    page.select_option("#players", "2")
    labels = page.eval_on_selector_all(
        "#opponent-0 option", "os => os.map(o => [o.value, o.textContent])"
    )
    shown = dict(labels)
    assert shown["random"] != "random" and shown["audition.expert"] != "audition.expert"
    assert all(not text.startswith("ppo:") for text in shown.values())
    assert axe_violations(page) == []
    if page.size == "phone":
        no_sideways_scroll(page)


def _options(page, select: str) -> list[str]:
    return page.eval_on_selector_all(f"{select} option", "os => os.map(o => o.value)")


def test_shipped_models_are_offered_at_their_own_table(page, tmp_path, monkeypatch) -> None:
    """Each shipped model at its own game, player count and options only (the default one
    chosen first)."""
    entries = [
        {"name": "web-2p", "game": "audition", "players": 2, "default": True},
        {"name": "web-3p", "game": "audition", "players": 3},
        {"name": "web-g", "game": "guests", "players": 2, "default": True,
         "game_options": {"level": "medium", "observation_mode": "deduced"}},
    ]  # fmt: skip
    for e in entries:
        (tmp_path / f"{e['name']}.safetensors").write_bytes(b"(only listed, never played here)")
    (tmp_path / "index.yaml").write_text(json.dumps({"models": entries}))
    monkeypatch.setenv("PARLOUR_MODELS_DIR", str(tmp_path))
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#game", "audition")
    page.select_option("#players", "2")
    assert "ppo:web-2p" in _options(page, "#opponent-0")
    assert not {"ppo:web-3p", "ppo:web-g"} & set(_options(page, "#opponent-0"))
    assert page.input_value("#opponent-0") == "ppo:web-2p"  # the default for 2 players
    assert "audition.search:model=web-2p" in _options(page, "#opponent-0")  # search on it
    assert "audition.search:model=web-3p" not in _options(page, "#opponent-0")
    page.select_option("#option-action_cards", "2")  # another variant: not its table
    assert page.input_value("#opponent-0") == "audition.greedy"
    page.select_option("#players", "3")
    assert "ppo:web-3p" in _options(page, "#opponent-1")
    assert "ppo:web-2p" not in _options(page, "#opponent-1")
    assert page.input_value("#opponent-1") == "audition.greedy"  # web-3p is no default
    page.select_option("#game", "guests")
    page.select_option("#players", "2")
    assert "ppo:web-g" in _options(page, "#opponent-0")
    assert page.input_value("#opponent-0") == "guests.deducer"  # level easy: not its table
    page.select_option("#option-level", "medium")
    assert page.input_value("#opponent-0") == "ppo:web-g"


def test_a_new_game_during_the_agents_moves_is_not_mixed_with_the_old(browser, live: Live) -> None:
    """Start pressed while the old game's agents are still being shown: the new game's log,
    state and first move are its own."""
    page = open_page(browser, live.url, query="?frame_ms=1500&play_ms=50")
    start(page, "audition", 2, ["random"], seed=11)
    old = game_key(page)
    for _ in range(10):  # (until a move of mine is answered by the agents)
        visible_choices(page).first.click()
        page.wait_for_selector(
            "body[data-phase='agents'], body[data-phase='mine']",
            state="attached",
            timeout=SETTLE_MS,
        )
        if page.get_attribute("body", "data-phase") == "agents":
            break
    assert page.get_attribute("body", "data-phase") == "agents"
    page.click("#setup summary")
    page.click("#start")
    page.wait_for_function(f"!location.hash.includes('{old}') && location.hash.includes('game=')")
    page.wait_for_selector("body[data-phase='mine']", timeout=SETTLE_MS * 2)
    time.sleep(2)  # (the old frames would have come in by now)
    assert live.app.state.games.sessions.get(old) is None
    assert page.locator("#log li.mine").count() == 0  # (the old game's move is not in it)
    mine = page.locator("#log li").count()
    play_visible(page, seed=1, until=1)
    assert page.is_hidden("#error")  # (no "stale move")
    assert page.locator("#log li").count() > mine
    close_page(page)


def test_the_address_opened_in_another_tab_resumes_the_game(browser, live: Live) -> None:
    """A new browser (no storage of the first one) opening the game's address: the same game,
    log and seat names."""
    first = open_page(browser, live.url)
    start(first, "guests", 3, ["guests.deducer", "random"], seed=14)
    play_visible(first, seed=2, until=3)
    key, lines, names = game_key(first), log_lines(first), seat_names(first)
    second = open_page(browser, live.url, query=f"?frame_ms=0#game={key}")
    second.wait_for_selector(SETTLED, timeout=SETTLE_MS)
    assert game_key(second) == key
    assert log_lines(second) == lines
    assert seat_names(second) == names
    assert "Deducer" in " ".join(names.values())
    assert second.inner_text("#table") == first.inner_text("#table")
    for bad in ("../catalog", "0" * 31, "x" * 32):
        third = open_page(browser, live.url, query=f"?frame_ms=0#game={bad}")
        assert "no longer on the server" in third.inner_text("#error")
        close_page(third)
    close_page(second)
    close_page(first)
