"""Call the ``parlour serve`` app in-process as ASGI (no network, any client address, any
headers), counting the body bytes the app actually pulled."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

#: where the test apps are bound (create_app(host=HOST, port=PORT))
HOST, PORT = "127.0.0.1", 8000
#: the Host header of the app's own page
OWN_HOST = f"{HOST}:{PORT}"


@dataclass
class Answer:
    status: int
    data: Any
    consumed: int = 0  # body bytes the app read
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def error(self) -> str:
        return self.data.get("error", "") if isinstance(self.data, dict) else ""


def make_app(**kwargs: Any) -> Any:
    from parlour.apps.web.app import create_app

    return create_app(host=HOST, port=PORT, **kwargs)


def call(
    app: Any,
    method: str,
    path: str,
    body: Any = None,
    *,
    raw: bytes | None = None,
    chunks: Iterator[bytes] | None = None,
    headers: dict[str, str] | None = None,
    client: str = "127.0.0.1",
) -> Answer:
    """One request; ``headers`` are added to (or replace) the page's own: ``Host`` the bound
    address, ``Content-Type: application/json``, ``Origin`` of the page for a POST. A header
    given as ``""`` is left out. ``chunks`` streams a body (pulled lazily)."""
    if raw is None and body is not None:
        raw = json.dumps(body).encode()
    sent = {"host": OWN_HOST, "content-type": "application/json"}
    if method in ("POST", "DELETE"):
        sent["origin"] = f"http://{OWN_HOST}"
    if raw is not None:
        sent["content-length"] = str(len(raw))
    sent.update({k.lower(): v for k, v in (headers or {}).items()})
    sent = {k: v for k, v in sent.items() if v != ""}
    parts: Iterator[bytes] = iter([raw or b""]) if chunks is None else chunks
    path, _, query = path.partition("?")
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(k.encode(), v.encode()) for k, v in sent.items()],
        "client": (client, 50000),
        "server": (HOST, PORT),
    }
    consumed = 0
    messages: list[dict[str, Any]] = []
    pending = next(parts, None)

    async def receive() -> dict[str, Any]:
        nonlocal consumed, pending
        if pending is None:
            await asyncio.sleep(3600)  # the client has nothing more to send
        chunk, pending = pending, next(parts, None)
        consumed += len(chunk)
        return {"type": "http.request", "body": chunk, "more_body": pending is not None}

    async def send(message: dict[str, Any]) -> None:
        messages.append(message)

    asyncio.run(app(scope, receive, send))
    start = next(m for m in messages if m["type"] == "http.response.start")
    payload = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.response.body")
    answer_headers = {k.decode().lower(): v.decode() for k, v in start.get("headers", [])}
    data = json.loads(payload) if "json" in answer_headers.get("content-type", "") else payload
    return Answer(start["status"], data, consumed, answer_headers)


def new_game(app: Any, client: str = "127.0.0.1", **body: Any) -> Answer:
    return call(
        app, "POST", "/api/games", {"game": "audition", "players": 2, **body}, client=client
    )


class Clock:
    """A clock the test moves (``SessionStore(clock=...)``)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def play_to_end(app: Any, key: str, state: dict, pick: Callable[[list], Any] = lambda m: m[0]):
    """Play the first legal move until the game ends; the final state."""
    while not state["over"]:
        move = pick(state["moves"])
        body = {"action": move["action"], "version": state["version"]}
        answer = call(app, "POST", f"/api/games/{key}/move", body)
        assert answer.status == 200, answer.data
        state = answer.data["state"]
    return state
