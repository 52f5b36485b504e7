"""Issue 31, ``parlour serve``: only its own page drives it. A foreign ``Host`` (DNS rebinding),
another ``Origin``, a cross-site fetch and a non-JSON POST (a "simple" cross-site request) are
refused before any route runs; ``--host`` off loopback warns."""

from __future__ import annotations

import pytest

from tests.security._server_asgi import OWN_HOST, PORT, call, make_app, new_game
from tests.web.conftest import Live, start_server

GAME = {"game": "audition", "players": 2}


@pytest.mark.parametrize(
    ("headers", "status", "words"),
    [
        ({"host": "evil.example"}, 421, "only requests for its own address"),
        ({"host": f"evil.example:{PORT}"}, 421, "not Host 'evil.example:8000'"),  # rebinding
        ({"host": f"127.0.0.1:{PORT + 1}"}, 421, "with port 8000"),
        ({"host": ""}, 421, "not Host None"),
        ({"origin": "http://evil.example"}, 403, "from another origin"),
        ({"origin": f"http://localhost:{PORT + 1}"}, 403, "from another origin"),
        ({"origin": "null"}, 403, "from another origin"),
        ({"sec-fetch-site": "cross-site", "origin": ""}, 403, "from another site"),
        ({"sec-fetch-site": "same-site", "origin": ""}, 403, "from another site"),
        ({"content-type": "text/plain"}, 415, "must have Content-Type application/json"),
        ({"content-type": "application/x-www-form-urlencoded"}, 415, "application/json"),
        ({"content-type": "multipart/form-data; boundary=x"}, 415, "application/json"),
        ({"content-type": ""}, 415, "got 'none'"),
    ],
)
def test_requests_not_from_the_own_page_are_refused(headers, status, words) -> None:
    app = make_app()
    answer = call(app, "POST", "/api/games", GAME, headers=headers)
    assert answer.status == status and words in answer.error, answer.data
    assert answer.consumed == 0  # refused before the body was read
    assert app.state.games.sessions == {}


def test_a_cross_site_text_plain_post_without_origin_is_refused() -> None:
    """What an old browser (or a `no-cors` fetch) sends: no preflight, text/plain."""
    app = make_app()
    headers = {"content-type": "text/plain;charset=UTF-8", "origin": ""}
    answer = call(app, "POST", "/api/games", GAME, headers=headers)
    assert answer.status == 415 and app.state.games.sessions == {}


@pytest.mark.parametrize("path", ["/", "/api/catalog", "/static/app.js"])
def test_a_foreign_host_gets_not_even_the_page(path) -> None:
    assert call(make_app(), "GET", path, headers={"host": "rebound.example:8000"}).status == 421


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"host": f"localhost:{PORT}", "origin": f"http://localhost:{PORT}"},
        {"host": f"[::1]:{PORT}", "origin": f"http://[::1]:{PORT}"},
        {"sec-fetch-site": "same-origin"},
        {"content-type": "application/json; charset=utf-8"},
        {"origin": ""},  # (no Origin: a same-origin GET, a script of the operator)
    ],
)
def test_the_own_page_is_served(headers) -> None:
    assert new_game(make_app(), seed=1).status == 200
    answer = call(make_app(), "POST", "/api/games", GAME, headers=headers)
    assert answer.status == 200, answer.data


def test_the_page_itself_loads_from_the_bound_address() -> None:
    app = make_app()
    assert call(app, "GET", "/", headers={"host": OWN_HOST}).status == 200
    assert call(app, "GET", "/static/app.js", headers={"sec-fetch-site": "none"}).status == 200


@pytest.mark.parametrize(
    ("bound", "port", "host", "ok"),
    [
        ("127.0.0.1", 8000, "127.0.0.1:8000", True),
        ("127.0.0.1", 8000, "localhost:8000", True),
        ("127.0.0.1", 8000, "LOCALHOST:8000", True),
        ("127.0.0.1", 8000, "[::1]:8000", True),
        ("127.0.0.1", 8000, "127.0.0.1:8001", False),
        ("127.0.0.1", 8000, "127.0.0.1", False),
        ("127.0.0.1", 8000, "attacker.example:8000", False),
        ("127.0.0.1", 8000, "127.0.0.1:80x", False),
        ("::1", 8000, "[::1]:8000", True),
        ("192.0.2.7", 8000, "192.0.2.7:8000", True),
        ("192.0.2.7", 8000, "192.0.2.8:8000", False),
        ("0.0.0.0", 8000, "192.0.2.8:8000", True),  # a wildcard bind: any IP literal
        ("0.0.0.0", 8000, "[2001:db8::1]:8000", True),
        ("0.0.0.0", 8000, "attacker.example:8000", False),  # but never a name
        ("127.0.0.1", None, "localhost:1234", True),
        ("127.0.0.1", None, "attacker.example:1234", False),
    ],
)
def test_host_rule(bound, port, host, ok) -> None:
    from parlour.apps.web.guard import HostRule

    assert HostRule(bound, port).allows(host) is ok


def test_a_live_server_refuses_a_rebound_host_and_a_cross_origin_post() -> None:
    """Through uvicorn and real sockets: a DNS-rebinding request (``Host`` of another name) and
    a cross-origin ``text/plain`` POST, as a browser sends them."""
    import urllib.error
    import urllib.request

    from parlour.apps.web.app import create_app

    app = create_app(host="127.0.0.1")
    url, server, thread = start_server(app)
    try:
        port = url.rsplit(":", 1)[1]

        def status(headers: dict[str, str], data: bytes | None = None) -> int:
            req = urllib.request.Request(url + "/api/games", data=data, headers=headers)
            try:
                with urllib.request.urlopen(req, timeout=30) as res:
                    return res.status
            except urllib.error.HTTPError as err:
                return err.code

        body = b'{"game": "audition", "players": 2}'
        assert status({"Host": f"rebound.example:{port}", "Content-Type": "application/json"},
                      body) == 421  # fmt: skip
        assert status({"Origin": "http://evil.example", "Content-Type": "text/plain"}, body) in (
            403,
            415,
        )
        assert status({"Content-Type": "text/plain"}, body) == 415
        assert app.state.games.sessions == {}
        assert Live(url, app, None).call("POST", "/api/games", {"game": "audition"})[0] == 200
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def test_serve_warns_when_bound_off_loopback(monkeypatch, capsys) -> None:
    import uvicorn

    from parlour.apps.cli import main

    configs = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self: configs.append(self.config))
    assert main(["serve", "--host", "0.0.0.0", "--port", "8123"]) == 0
    assert configs[0].proxy_headers is False  # a client cannot name its own address
    err = capsys.readouterr().err
    assert "warning: --host 0.0.0.0 is not a loopback address" in err
    assert main(["serve", "--host", "127.0.0.1", "--port", "8123"]) == 0
    assert "warning" not in capsys.readouterr().err


def test_serve_prints_a_working_link_for_an_ipv6_host(monkeypatch, capsys) -> None:
    import uvicorn

    from parlour.apps.cli import main

    monkeypatch.setattr(uvicorn.Server, "run", lambda self: None)
    assert main(["serve", "--host", "::1", "--port", "8123"]) == 0
    assert "open http://[::1]:8123/" in capsys.readouterr().out


@pytest.mark.parametrize("path", ["/", "/api/catalog", "/static/app.js", "/api/games/none"])
def test_no_other_site_may_frame_the_page(path) -> None:
    for headers in ({}, {"host": "evil.example"}):
        answer = call(make_app(), "GET", path, headers=headers)
        assert answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["content-security-policy"] == "frame-ancestors 'none'"
        assert answer.headers["x-content-type-options"] == "nosniff"


def test_another_origin_can_neither_move_nor_close_a_game() -> None:
    app = make_app()
    game = new_game(app, opponents=["random"], seed=3)
    key, state = game.data["id"], game.data["state"]
    foreign = {"origin": "http://evil.example"}
    move = {"action": state["moves"][0]["action"], "version": state["version"]}
    assert call(app, "POST", f"/api/games/{key}/move", move, headers=foreign).status == 403
    assert call(app, "DELETE", f"/api/games/{key}", headers=foreign).status == 403
    assert call(app, "GET", f"/api/games/{key}").data["state"] == state
