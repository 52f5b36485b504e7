"""A live ``parlour serve`` app (uvicorn in a thread, a free localhost port) and a JSON client."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.web.browser import browser  # noqa: F401  (the fixture of every browser test)

#: seconds to wait for the server to start
START_TIMEOUT_S = 20


@dataclass
class Live:
    url: str
    app: Any
    replays: Path

    def call(self, method: str, path: str, body: Any = None, raw: bytes | None = None):
        """``(status, JSON answer)`` of a request (errors included)."""
        data = raw if raw is not None else None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=60) as res:
                return res.status, json.loads(res.read())
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read())


def start_server(app: Any) -> tuple[str, Any, threading.Thread]:
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + START_TIMEOUT_S
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    return f"http://127.0.0.1:{port}", server, thread


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    from parlour.apps.web.app import create_app

    replays = tmp_path_factory.mktemp("replays")
    app = create_app(replays=[str(replays)])
    url, server, thread = start_server(app)
    yield Live(url, app, replays)
    server.should_exit = True
    thread.join(timeout=10)
