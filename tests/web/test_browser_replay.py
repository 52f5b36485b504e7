"""Replays on the ``parlour serve`` page, in headless Chromium at desktop and phone sizes: only
replay files are listed, the move list follows the slider and jumps to a move, the omniscient
view shows one seat at a time (seat tabs, no "you"), a seat's view hides the truth until the
end, and the screen passes the accessibility scan."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from tests.web.browser import (
    SETTLE_MS,
    axe_violations,
    close_page,
    no_sideways_scroll,
    open_page,
    shoot,
)
from tests.web.conftest import Live

#: the omniscient view of a 4-player Awkward Guests game fits in this many pixels (desktop)
MAX_OMNISCIENT_HEIGHT = 3000


def finished_game(live: Live, game: str, players: int, seed: int) -> dict:
    """The replay document of a game played to its end with random moves through the API."""
    status, data = live.call("POST", "/api/games", {"game": game, "players": players, "seed": seed})
    assert status == 200, data
    key, state = data["id"], data["state"]
    rng = np.random.default_rng(seed)
    while not state["over"]:
        move = state["moves"][int(rng.integers(len(state["moves"])))]
        body = {"action": move["action"], "version": state["version"]}
        state = live.call("POST", f"/api/games/{key}/move", body)[1]["state"]
    return live.call("GET", f"/api/games/{key}/replay")[1]


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_replay_with_its_move_list_and_seat_tabs(browser, live: Live, size: str) -> None:
    doc = finished_game(live, "guests", 4, seed=9)
    path = live.replays / f"guests_4p_{size}.json"
    path.write_text(json.dumps(doc))
    (live.replays / "eval.json").write_text(json.dumps({"games": 4, "agents": ["random"]}))
    steps = len(doc["actions"])
    page = open_page(browser, live.url, size)
    page.click("#tab-replay")
    page.wait_for_selector(f"#replay-list option[value='{path}']", state="attached")
    if size == "phone":
        no_sideways_scroll(page)  # (a long file name too)
    listed = page.eval_on_selector_all("#replay-list option", "os => os.map(o => o.value)")
    assert not any(v.endswith("eval.json") for v in listed)  # not a replay: not listed
    page.select_option("#replay-list", str(path))
    page.click("#open-listed")
    page.wait_for_selector("body[data-step='0'][data-view='omniscient']")
    # one seat at a time, chosen by its tab; never "you" for anyone
    tabs = page.locator("#seat-tabs [role='tab']")
    assert tabs.count() == 4
    assert page.get_attribute("body", "data-seat") == "player_0"
    tabs.nth(2).click()
    page.wait_for_selector("body[data-seat='player_2']")
    assert tabs.nth(2).get_attribute("aria-selected") == "true"
    assert not re.search(r"\byou\b", page.inner_text("#table"), re.IGNORECASE)
    if size == "desktop":
        height = page.evaluate("document.documentElement.scrollHeight")
        assert height < MAX_OMNISCIENT_HEIGHT, height
    # the move list: one entry per move that was seen, a click jumps to it
    jumps = page.locator("#log button.jump")
    assert jumps.count() >= steps // 2
    target = jumps.nth(5)
    step = int(target.inner_text().split(".")[0])
    target.click()
    page.wait_for_selector(f"body[data-step='{step}']")
    assert page.input_value("#step") == str(step)
    assert page.locator("#log li.current").count() == 1
    assert page.inner_text("#log li.current").startswith(f"{step}.")
    assert axe_violations(page) == []
    if size == "phone":
        no_sideways_scroll(page)
    shoot(page, f"web_replay{'' if size == 'desktop' else '_phone'}.png")
    # a seat's own view: its moves by name, no hidden truth while the game runs
    page.select_option("#replay-view", "player_1")
    page.wait_for_selector("body[data-view='player_1']")
    assert page.is_hidden("#seat-tabs")
    assert "solution" not in page.inner_text("#final").lower()
    page.click("#play-pause")
    page.wait_for_selector(f"body[data-step='{steps}']", timeout=SETTLE_MS * 4)
    assert page.inner_text("#turn") == "Game over."
    assert page.inner_text("#outcome")
    close_page(page)


def test_a_file_that_is_no_replay_is_refused_and_the_open_one_stays(browser, live: Live) -> None:
    doc = finished_game(live, "audition", 2, seed=3)
    path = live.replays / "audition_2p.json"
    path.write_text(json.dumps(doc))
    page = open_page(browser, live.url)
    page.click("#tab-replay")
    page.wait_for_selector(f"#replay-list option[value='{path}']", state="attached")
    page.select_option("#replay-list", str(path))
    page.click("#open-listed")
    page.wait_for_selector("body[data-step='0']")
    bad = live.replays / "not_a_replay.txt"
    bad.write_text("nothing here")
    page.set_input_files("#replay-file", str(bad))
    page.wait_for_selector("#error:not(.hidden)")
    assert "does not parse as JSON" in page.inner_text("#error")
    assert page.get_attribute("body", "data-step") == "0"
    close_page(page)
