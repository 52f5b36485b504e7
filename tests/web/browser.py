"""Driving the ``parlour serve`` page in headless Chromium (Playwright on the OS's ``chromium``):
the browser, pages at desktop and phone sizes, a player that acts only on what it can see, the
accessibility scan (axe-core, from ``axe-playwright-python``) and the screenshots of
``docs/images/`` (``PARLOUR_SCREENSHOTS=DIR``; ``make screenshots``)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

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
#: the two screen sizes every page test runs at
SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "has_touch": True,
        "device_scale_factor": 2,
    },
}
#: axe-core impacts a page must not have
BLOCKING_IMPACTS = ("serious", "critical")
#: what the page waits on: its own turn or the end
SETTLED = "body[data-phase='mine'], body[data-phase='over'], body[data-phase='gone']"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    if shutil.which(CHROMIUM) is None:
        pytest.fail(f"{CHROMIUM} is missing: run `make chromium` (apt-get install -y chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


def open_page(browser: Any, url: str, size: str = "desktop", query: str = "?frame_ms=0&play_ms=50"):
    """A new page (its own context) at ``size``, loaded and ready; its JavaScript errors are
    collected in ``page.errors``."""
    context = browser.new_context(**SIZES[size])
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.goto(f"{url}/{query}")
    page.wait_for_selector("body[data-ready='1']")
    return page


def close_page(page) -> None:
    errors = page.errors
    page.context.close()
    assert errors == [], errors


def shoot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(Path(SHOTS) / name), full_page=False)


def start(page, game: str, players: int, opponents: list[str], seed: int, hints: bool = True):
    page.select_option("#game", game)
    page.select_option("#players", str(players))
    for i, spec in enumerate(opponents):
        page.select_option(f"#opponent-{i}", spec)
    page.set_checked("#hints", hints)
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector(SETTLED, timeout=SETTLE_MS)


def game_key(page) -> str:
    """The id of the page's live game (kept in the address: ``#game=<id>``)."""
    return page.evaluate("new URLSearchParams(location.hash.slice(1)).get('game')")


def visible_choices(page):
    """What a person can act on now: the outlined targets of the table and the move buttons
    that are on the screen and enabled."""
    return page.locator("#table .legal:visible, #moves button.move:visible:enabled")


def play_visible(page, seed: int, until: int = MAX_CLICKS, shot: tuple[int, str] | None = None):
    """Act only on what is visible (a random outlined target or move button) until the game
    ends or ``until`` moves; the number of moves per kind of target."""
    rng = np.random.default_rng(seed)
    kinds: dict[str, int] = {}
    for click in range(until):
        page.wait_for_selector(SETTLED, timeout=SETTLE_MS)
        if page.get_attribute("body", "data-phase") != "mine":
            return kinds
        if shot is not None and click == shot[0]:
            shoot(page, shot[1])
        choices = visible_choices(page)
        n = choices.count()
        assert n > 0, "my turn, but nothing visible to act on"
        choice = choices.nth(int(rng.integers(n)))
        target = choice.get_attribute("data-target") or "button"
        kinds[target.split(":")[0]] = kinds.get(target.split(":")[0], 0) + 1
        choice.scroll_into_view_if_needed()
        choice.click()
    if until == MAX_CLICKS:
        raise AssertionError(f"the game did not end in {MAX_CLICKS} clicks")
    page.wait_for_selector(SETTLED, timeout=SETTLE_MS)
    return kinds


def expected_outcome(live, key: str, names: dict[str, str]) -> str:
    """The end headline the person must read, from the server's own results."""
    session = live.app.state.games.sessions[key]
    winners = session.env.unwrapped.results()["winners"]
    if not winners:
        return "Nobody won."
    if session.human in winners:
        others = [names[w] for w in winners if w != session.human]
        return f"You won, tied with {', '.join(others)}!" if others else "You won!"
    return f"You lost: {', '.join(names[w] for w in winners)} won."


def seat_names(page) -> dict[str, str]:
    """The seats' names as the page shows them (the person's: "You")."""
    return page.evaluate("window.parlourGameNames()")


def axe_violations(page, context: str | None = None) -> list[str]:
    """The serious and critical axe-core violations of the page as it is now (rule, impact and
    the elements)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, context=context).response
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:5]]}"
        for v in results["violations"]
        if v["impact"] in BLOCKING_IMPACTS
    ]


def no_sideways_scroll(page) -> None:
    """Nothing wider than the screen (the phone layout)."""
    width, layout = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    screen = page.viewport_size["width"]
    assert width <= screen, f"the page is {width} px wide on a {screen} px screen"
    assert layout <= screen, f"the phone zoomed out to a {layout} px wide layout"
