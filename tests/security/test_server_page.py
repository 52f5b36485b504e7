"""Issue 31, ``parlour serve`` in the browser (the OS's Chromium): the page offers the
operator's models by catalog id under their names, plays with one, and shows a full server's
503 message."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

from parlour.apps.web.sessions import Limits
from tests.web.browser import CHROMIUM, CHROMIUM_ARGS, SIZES
from tests.web.conftest import Live, start_server

#: games one address may keep in this test's server
PER_CLIENT = 3


@pytest.fixture(scope="module")
def live_limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    from parlour.apps.web.app import create_app
    from parlour.models import find_model

    models = tmp_path_factory.mktemp("models")
    shutil.copyfile(find_model("audition-2p").path, models / "mine.safetensors")
    app = create_app(
        models=[str(models / "mine.safetensors")], limits=Limits(per_client=PER_CLIENT)
    )
    url, server, thread = start_server(app)
    yield Live(url, app, models)
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def page(live_limited: Live) -> Iterator:
    from playwright.sync_api import sync_playwright

    if shutil.which(CHROMIUM) is None:
        pytest.fail(f"{CHROMIUM} is missing: run `make chromium` (apt-get install -y chromium)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        pg = browser.new_context(**SIZES["desktop"]).new_page()
        pg.goto(f"{live_limited.url}/?frame_ms=0")
        pg.wait_for_selector("body[data-ready='1']")
        yield pg
        browser.close()


def test_the_page_offers_models_by_id_and_shows_a_full_server(page, live_limited: Live) -> None:
    path = live_limited.replays / "mine.safetensors"
    page.select_option("#game", "audition")
    page.select_option("#players", "2")
    labels = page.eval_on_selector_all(
        "#opponent-0 option", "os => Object.fromEntries(os.map(o => [o.value, o.textContent]))"
    )
    assert labels["ppo:#1"] == f"Your model: {path}"  # the page shows the name, sends the id
    assert not any(str(path) in value for value in labels)
    page.select_option("#opponent-0", "ppo:#1")
    page.click("#start")
    page.wait_for_selector("#board:not(.hidden)")
    (session,) = live_limited.app.state.games.sessions.values()
    assert session.settings.opponents == [f"ppo:{path}"]  # the server built ppo:PATH
    for _ in range(PER_CLIENT - 1):
        assert live_limited.call("POST", "/api/games", {"game": "audition", "opponents":
                                                        ["random"]})[0] == 200  # fmt: skip
    page.goto(f"{live_limited.url}/?frame_ms=0")  # (a fresh form: no #game=ID to resume)
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#game", "audition")
    page.select_option("#players", "2")
    page.select_option("#opponent-0", "random")
    page.click("#start")
    page.wait_for_function(
        "document.getElementById('error').textContent.includes('too many games')"
    )
    assert f"at most {PER_CLIENT} per client" in page.inner_text("#error")
