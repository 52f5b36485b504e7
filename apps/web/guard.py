"""Who may drive ``parlour serve``: its own page only (the ``Host``, ``Origin`` and request checks).

| check | refused with | why |
|---|---|---|
| ``Host`` is not the bound address (loopback bind: ``localhost``, ``127.0.0.1``, ``[::1]``; a wildcard bind: any IP literal), with the bound port | 421 | DNS rebinding: a page of ``evil.example`` whose name resolves to 127.0.0.1 sends ``Host: evil.example`` |
| ``Origin`` present and not ``http://<Host>`` | 403 | a page of another origin (another site, another port) posting to the server |
| ``Sec-Fetch-Site`` ``cross-site`` or ``same-site`` on ``/api/`` | 403 | the same, told by the browser itself (also for requests without ``Origin``) |
| a ``POST`` whose ``Content-Type`` is not ``application/json`` | 415 | a cross-site "simple" ``text/plain`` / form POST needs no preflight |
| a body over the route's cap (``Content-Length`` checked first, then counted while it streams) | 413 | nothing is read past the cap |
| JSON nested deeper than :data:`MAX_JSON_DEPTH`, or not JSON | 400 | never a 500 (``RecursionError``, an integer of too many digits) |

Every answer also carries :data:`GUARD_HEADERS`: no other site may frame the page.

:class:`GuardMiddleware` does the header checks for every request; :func:`read_json` reads a
body within its cap. Errors are ``{"error": message}`` as everywhere in the API.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from starlette.requests import Request

#: the largest body of a new game or a move (a handful of fields)
MAX_REQUEST_BYTES = 16 * 1024
#: the largest body of ``POST /api/replays`` (a replay document)
MAX_REPLAY_BYTES = 8 * 1024 * 1024
#: the deepest JSON nesting accepted (a replay document is 3 deep)
MAX_JSON_DEPTH = 16
#: the content type every POST must have
JSON_TYPE = "application/json"
#: host names that reach a loopback-bound server
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
#: ``Sec-Fetch-Site`` values a browser sends for requests of another origin
FOREIGN_FETCH_SITES = ("cross-site", "same-site")
#: headers of every answer: no page of another site may frame this one (clickjacking), no
#: browser may guess another type than the one sent
GUARD_HEADERS = [
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
]
#: the HTTP statuses of the refusals (see the module table)
STATUS_BAD_HOST, STATUS_FOREIGN, STATUS_TOO_LARGE, STATUS_NOT_JSON = 421, 403, 413, 415


class RequestRefused(ValueError):
    """A request refused before it reaches a route (``status``: its HTTP status)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def is_loopback(host: str) -> bool:
    """Whether the bind address ``host`` is reachable only from this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _is_ip_literal(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return name.startswith("[") == (":" in name)  # an IPv6 literal is bracketed in a Host


def _split_host(value: str) -> tuple[str, int | None] | None:
    """``Host`` header → ``(name, port)`` (name lower-cased, IPv6 kept bracketed), or None."""
    name = value.strip().lower()
    if name.endswith("]") or ":" not in name.rpartition("]")[2]:
        return name, None
    name, _, digits = name.rpartition(":")
    if not digits.isdigit():
        return None
    return name, int(digits)


class HostRule:
    """The ``Host`` values the server answers: the bound address and port (see the module table).

    ``port`` None accepts any port (an app embedded in tests, where the port is chosen later)."""

    def __init__(self, host: str, port: int | None) -> None:
        self.host, self.port = host.lower(), port
        if is_loopback(self.host):
            self.names: tuple[str, ...] | None = (*LOOPBACK_NAMES, self._bracketed(self.host))
        elif self.host in ("0.0.0.0", "::", ""):
            self.names = None  # a wildcard bind: every IP literal, and the loopback names
        else:
            self.names = (self._bracketed(self.host), *LOOPBACK_NAMES)

    @staticmethod
    def _bracketed(host: str) -> str:
        return f"[{host}]" if ":" in host and not host.startswith("[") else host

    def allows(self, value: str | None) -> bool:
        split = _split_host(value) if value else None
        if split is None:
            return False
        name, port = split
        if self.port is not None and port != self.port:
            return False
        if self.names is None:
            return name in LOOPBACK_NAMES or _is_ip_literal(name)
        return name in self.names

    def describe(self) -> str:
        names = "any IP address" if self.names is None else ", ".join(self.names)
        port = "" if self.port is None else f" with port {self.port}"
        return f"{names}{port}"


def check_headers(rule: HostRule, method: str, path: str, headers: Any) -> None:
    """Raise :class:`RequestRefused` unless the request's headers are its own page's (module
    table); ``headers``: a case-insensitive mapping."""
    host = headers.get("host")
    if not rule.allows(host):
        raise RequestRefused(
            f"this server answers only requests for its own address ({rule.describe()}), "
            f"not Host {host!r}",
            STATUS_BAD_HOST,
        )
    origin = headers.get("origin")
    if origin is not None and origin.lower() not in (f"http://{host.lower()}",):
        raise RequestRefused(
            f"requests from another origin are refused (Origin {origin!r}, this server is "
            f"http://{host})",
            STATUS_FOREIGN,
        )
    api = path.startswith("/api/")
    if api and headers.get("sec-fetch-site", "").lower() in FOREIGN_FETCH_SITES:
        raise RequestRefused("requests from another site are refused", STATUS_FOREIGN)
    if method == "POST":
        media = headers.get("content-type", "").partition(";")[0].strip().lower()
        if media != JSON_TYPE:
            raise RequestRefused(
                f"a POST must have Content-Type {JSON_TYPE}, got {media or 'none'!r}",
                STATUS_NOT_JSON,
            )


Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]


class GuardMiddleware:
    """ASGI middleware: :func:`check_headers` on every HTTP request (a refusal is answered as
    ``{"error": message}`` and the app never sees the request)."""

    def __init__(self, app: ASGIApp, rule: HostRule) -> None:
        self.app, self.rule = app, rule

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            from starlette.datastructures import Headers
            from starlette.responses import JSONResponse

            async def send_guarded(message: dict[str, Any]) -> None:
                if message["type"] == "http.response.start":
                    message = {**message, "headers": [*message.get("headers", []), *GUARD_HEADERS]}
                await send(message)

            try:
                check_headers(self.rule, scope["method"], scope["path"], Headers(scope=scope))
            except RequestRefused as exc:
                response = JSONResponse({"error": str(exc)}, status_code=exc.status)
                await response(scope, receive, send_guarded)
                return
            await self.app(scope, receive, send_guarded)
            return
        await self.app(scope, receive, send)


def too_large(max_bytes: int) -> RequestRefused:
    return RequestRefused(
        f"the request body is larger than {max_bytes} bytes (the most this request takes)",
        STATUS_TOO_LARGE,
    )


async def read_body(request: Request, max_bytes: int) -> bytes:
    """The body of ``request``, refused (413) when its ``Content-Length`` says it is over
    ``max_bytes`` (before anything is read) or when more than ``max_bytes`` arrive."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.strip().isdigit() or int(declared) > max_bytes):
        raise too_large(max_bytes)
    parts, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > max_bytes:
            raise too_large(max_bytes)
        parts.append(chunk)
    return b"".join(parts)


def json_depth(value: Any, limit: int) -> int:
    """The nesting depth of the JSON value ``value`` (scalars 0), counted without recursion and
    no further than ``limit + 1``."""
    if not isinstance(value, dict | list):
        return 0
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth > limit:
            return deepest
        children = item.values() if isinstance(item, dict) else item
        stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))
    return deepest


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's members; a key given twice is refused (which one counts would differ
    between parsers: the page and the server must read the same request)."""
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise RequestRefused(f"the request JSON names the key {twice[:40]!r} twice", 400)
    return value


def parse_json(raw: bytes) -> Any:
    """The JSON value of a body (an empty body is ``{}``); not JSON, nested deeper than
    :data:`MAX_JSON_DEPTH` or naming a key twice: a 400 :class:`RequestRefused`."""
    try:
        value = json.loads(raw or b"{}", object_pairs_hook=_unique_keys)
    except RequestRefused:
        raise
    except RecursionError:
        value = None
        depth_error = True
    except (ValueError, UnicodeDecodeError) as exc:  # JSONDecodeError, too many digits
        raise RequestRefused(f"the request body is not JSON: {exc}", 400) from None
    else:
        depth_error = json_depth(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH
    if depth_error:
        raise RequestRefused(f"the request JSON is nested deeper than {MAX_JSON_DEPTH}", 400)
    return value


async def read_json(request: Request, max_bytes: int = MAX_REQUEST_BYTES) -> Any:
    """The JSON body of ``request`` within ``max_bytes`` (see :func:`read_body`,
    :func:`parse_json`)."""
    return parse_json(await read_body(request, max_bytes))
