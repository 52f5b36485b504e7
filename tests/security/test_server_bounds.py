"""Issue 31, ``parlour serve``: a request's body is bounded before it is read (413, nothing
read past the cap), its JSON depth and numbers too (400, never a 500)."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest

from parlour.apps.web.guard import MAX_JSON_DEPTH, MAX_REPLAY_BYTES, MAX_REQUEST_BYTES, json_depth
from tests.security._server_asgi import call, make_app

#: the body of the probe: 400 MB
HUGE = 400 * 1024 * 1024
#: the pieces a streamed body is sent in
CHUNK = 64 * 1024
#: the RSS the server may grow by while refusing the huge body
RSS_SLACK_BYTES = 64 * 1024 * 1024


def zeros(total: int, chunk: int = CHUNK) -> Iterator[bytes]:
    piece = b"0" * chunk
    for _ in range(total // chunk):
        yield piece


@pytest.mark.parametrize(
    ("path", "cap"),
    [("/api/games", MAX_REQUEST_BYTES), ("/api/replays", MAX_REPLAY_BYTES),
     ("/api/games/x/move", MAX_REQUEST_BYTES)],
)  # fmt: skip
def test_a_declared_huge_body_is_refused_before_a_byte_is_read(path, cap) -> None:
    answer = call(
        make_app(), "POST", path, chunks=zeros(HUGE), headers={"content-length": str(HUGE)}
    )
    assert answer.status == 413 and f"larger than {cap} bytes" in answer.error
    assert answer.consumed == 0


@pytest.mark.parametrize(("path", "cap"), [("/api/games", MAX_REQUEST_BYTES),
                                           ("/api/replays", MAX_REPLAY_BYTES)])  # fmt: skip
def test_a_streamed_body_without_length_is_cut_at_the_cap(path, cap) -> None:
    answer = call(make_app(), "POST", path, chunks=zeros(HUGE), headers={"content-length": ""})
    assert answer.status == 413
    assert cap < answer.consumed <= cap + CHUNK  # read up to the cap, not one piece further


def test_a_lying_content_length_is_cut_at_the_cap() -> None:
    answer = call(make_app(), "POST", "/api/games", chunks=zeros(HUGE),
                  headers={"content-length": "10"})  # fmt: skip
    assert answer.status == 413 and answer.consumed <= MAX_REQUEST_BYTES + CHUNK


@pytest.mark.parametrize("length", ["-1", "1e9", "abc", " "])
def test_a_malformed_content_length_is_refused(length) -> None:
    answer = call(make_app(), "POST", "/api/games", raw=b"{}", headers={"content-length": length})
    assert answer.status == 413 and answer.consumed == 0


def _rss() -> int:
    with open("/proc/self/status") as f:
        kb = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    return kb * 1024


def test_a_live_server_answers_413_to_a_400_mb_body_without_reading_it() -> None:
    """Through uvicorn: headers announcing 400 MB and a first piece; the 413 comes at once
    (a server reading the whole body would wait for the rest), and the server (in this
    process) grows by far less than the body."""
    from parlour.apps.web.app import create_app
    from tests.web.conftest import start_server

    app = create_app()
    url, server, thread = start_server(app)
    port = int(url.rsplit(":", 1)[1])
    before = _rss()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            head = (
                f"POST /api/replays HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {HUGE}\r\n\r\n"
            )
            sock.sendall(head.encode() + b"[" * 16 * 1024)  # (the first piece only)
            t0 = time.monotonic()
            answer = sock.recv(4096).decode(errors="replace")
        assert answer.startswith("HTTP/1.1 413"), answer
        assert time.monotonic() - t0 < 10
        assert _rss() - before < RSS_SLACK_BYTES
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b"[" * 5000 + b"]" * 5000, "nested deeper than"),  # RecursionError in json
        (b'{"game": ' + b"[" * 200 + b"]" * 200 + b"}", "nested deeper than"),
        (b'{"game": "audition", "seed": ' + b"9" * 5000 + b"}", "not JSON"),  # too many digits
        (b"\xff\xfe{", "not JSON"),
        (b'{"game": NaN}', "game must be the name"),
    ],
)
def test_deep_or_odd_json_is_a_400_never_a_500(raw, words) -> None:
    app = make_app()
    for path in ("/api/games", "/api/replays"):
        answer = call(app, "POST", path, raw=raw)
        assert answer.status == 400, (path, answer.data)
        assert words in answer.error or path == "/api/replays"


def test_json_nested_100k_deep_is_a_400() -> None:
    """The probe: a replay upload of JSON nested 100,000 deep (a 500 before)."""
    raw = b'{"replay": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    answer = call(make_app(), "POST", "/api/replays", raw=raw)
    assert answer.status == 400 and "nested deeper than" in answer.error


def test_a_key_given_twice_is_refused() -> None:
    """``{"game": "audition", "game": "guests"}`` started a guests game (the last key won; a
    page or proxy reading the first would see another request): refused (found by review)."""
    raw = b'{"game": "audition", "players": 2, "game": "guests"}'
    answer = call(make_app(), "POST", "/api/games", raw=raw)
    assert answer.status == 400 and "names the key 'game' twice" in answer.error
    nested = b'{"game": "audition", "options": {"a": 1, "a": 2}}'
    answer = call(make_app(), "POST", "/api/games", raw=nested)
    assert answer.status == 400 and "names the key 'a' twice" in answer.error


def test_json_depth_counts_without_recursion() -> None:
    assert json_depth(3, 5) == 0 and json_depth([], 5) == 1
    assert json_depth({"a": [1, {"b": []}]}, 5) == 4
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert json_depth(deep, MAX_JSON_DEPTH) == MAX_JSON_DEPTH + 1  # stops past the limit
