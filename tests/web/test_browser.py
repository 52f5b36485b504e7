"""The ``parlour serve`` page in headless Chromium (Playwright driving the OS's ``chromium``):
a whole Audition game and a whole Awkward Guests game played by clicking, and a replay opened
and stepped through. ``make test`` installs Chromium when it is missing (``make chromium``).

Set ``PARLOUR_SCREENSHOTS=DIR`` to save the screenshots of ``docs/images/`` there.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from tests.web.conftest import Live

CHROMIUM = os.environ.get("PARLOUR_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: clicks allowed for one whole game (a game that does not end is a failure)
MAX_CLICKS = 2000
#: milliseconds to wait for the page to settle after a click
SETTLE_MS = 30_000
SHOTS = os.environ.get("PARLOUR_SCREENSHOTS")
VIEWPORT = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def browser() -> Iterator:
    from playwright.sync_api import sync_playwright

    if shutil.which(CHROMIUM) is None:
        pytest.fail(f"{CHROMIUM} is missing: run `make chromium` (apt-get install -y chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser, live: Live):
    context = browser.new_context(viewport=VIEWPORT)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.goto(f"{live.url}/?frame_ms=0&play_ms=50")
    pg.wait_for_selector("body[data-ready='1']")
    yield pg
    context.close()
    assert errors == [], errors


def shoot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(Path(SHOTS) / name), full_page=False)


def start(page, game: str, players: int, opponents: list[str], seed: int) -> None:
    page.select_option("#game", game)
    page.select_option("#players", str(players))
    for i, spec in enumerate(opponents):
        page.select_option(f"#opponent-{i}", spec)
    page.check("#hints")
    page.fill("#seed", str(seed))
    page.click("#start")


def play_by_clicking(page, seed: int, shot_at: int, shot: str) -> dict[str, int]:
    """Click legal moves (highlighted cards, slots, rooms, or move buttons) until the game
    ends; the number of clicks per kind of target."""
    rng = np.random.default_rng(seed)
    kinds: dict[str, int] = {}
    for click in range(MAX_CLICKS):
        page.wait_for_selector(
            "body[data-phase='mine'], body[data-phase='over']", timeout=SETTLE_MS
        )
        if page.get_attribute("body", "data-phase") == "over":
            return kinds
        if click == shot_at:
            shoot(page, shot)
        choices = page.locator("#table .legal, #moves button.move")
        n = choices.count()
        assert n > 0, "my turn, but nothing to click"
        choice = choices.nth(int(rng.integers(n)))
        target = choice.get_attribute("data-target") or "button"
        kinds[target.split(":")[0]] = kinds.get(target.split(":")[0], 0) + 1
        page.evaluate("document.body.dataset.phase = 'sent'")
        choice.click()
    raise AssertionError(f"the game did not end in {MAX_CLICKS} clicks")


def test_play_a_whole_audition_game(page) -> None:
    start(page, "audition", 3, ["audition.greedy", "random"], seed=21)
    kinds = play_by_clicking(page, seed=1, shot_at=12, shot="web_audition.png")
    assert kinds.get("slot", 0) > 0  # slots were clicked
    final = page.inner_text("#final")
    assert "Final scores" in final and "winner" in final
    assert page.inner_text("#turn") == "Game over."


def test_play_a_whole_awkward_guests_game(page) -> None:
    start(page, "guests", 2, ["guests.deducer"], seed=5)
    kinds = play_by_clicking(page, seed=2, shot_at=1, shot="web_guests.png")
    assert kinds.get("ref", 0) > 0 and kinds.get("card", 0) > 0  # map and hand were clicked
    final = page.inner_text("#final")
    assert "The solution:" in final and "The cards that prove it" in final
    assert page.locator("#final .card").count() > 0
    shoot(page, "web_guests_end.png")


def test_open_a_replay_and_step_through_it(page, live: Live) -> None:
    status, data = live.call("POST", "/api/games", {"game": "guests", "players": 2, "seed": 9})
    key, state = data["id"], data["state"]
    rng = np.random.default_rng(3)
    while not state["over"]:
        move = state["moves"][int(rng.integers(len(state["moves"])))]
        body = {"action": move["action"], "version": state["version"]}
        state = live.call("POST", f"/api/games/{key}/move", body)[1]["state"]
    doc = live.call("GET", f"/api/games/{key}/replay")[1]
    path = live.replays / "guests_replay.json"
    path.write_text(json.dumps(doc))
    steps = len(doc["actions"])

    page.click("#tab-replay")
    page.wait_for_selector(f"#replay-list option[value='{path}']", state="attached")
    page.select_option("#replay-list", str(path))
    page.click("#open-listed")
    page.wait_for_selector("body[data-step='0'][data-view='omniscient']")
    assert page.locator(".seat-view").count() == 2  # omniscient: both seats
    assert "The solution:" in page.inner_text("#final")  # and the hidden truth
    # step with the slider
    page.locator("#step").fill(str(steps // 2))
    page.wait_for_selector(f"body[data-step='{steps // 2}']")
    assert f"step {steps // 2} / {steps}" in page.inner_text("#step-label")
    # a seat's private view: one table, no solution while the game runs
    page.select_option("#replay-view", "player_1")
    page.wait_for_selector("body[data-view='player_1']")
    assert page.locator(".seat-view").count() == 0
    assert "The solution:" not in page.inner_text("#final")
    assert page.locator("#moves button.move").count() == 0 or all(
        b.is_disabled() for b in page.locator("#moves button.move").all()
    )
    shoot(page, "web_replay.png")
    # play to the end
    page.click("#play-pause")
    page.wait_for_selector(f"body[data-step='{steps}']", timeout=SETTLE_MS * 4)
    assert page.inner_text("#turn") == "Game over."
    assert "The solution:" in page.inner_text("#final")
    # a file that is not a replay: a clear error, the open replay stays
    bad = live.replays / "not_a_replay.txt"
    bad.write_text("nothing here")
    page.set_input_files("#replay-file", str(bad))
    page.wait_for_selector("#error:not(.hidden)")
    assert "does not parse as JSON" in page.inner_text("#error")
    assert page.get_attribute("body", "data-step") == str(steps)


def _options(page, select: str) -> list[str]:
    return page.eval_on_selector_all(f"{select} option", "os => os.map(o => o.value)")


def test_shipped_models_are_offered_at_their_own_table(page, tmp_path, monkeypatch) -> None:
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
