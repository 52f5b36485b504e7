"""The ``parlour serve`` ASGI app (Starlette): the page, its static files and the JSON API.

| method and path | body / query | answer |
|---|---|---|
| ``GET /`` | — | the page (``static/index.html``) |
| ``GET /games/{name}.js`` | — | the drawing of an offered game (its ``Game.web.script()``; 404 for any other name) |
| ``GET /api/catalog`` | — | what the page may choose (:class:`~parlour.apps.web.catalog.Catalog`): per game its seats, default players and opponent, its own options (``options``: name, choices, default), ``rules`` (the rules panel's sections: heading, text), ``script`` (whether it has a drawing), ``agents`` (catalog ids at any player count: the scripted agents, the operator's models ``ppo:#K`` and ``audition.search:model=#K`` that fit the game), ``players_of`` (the player counts each operator model id fits), ``labels`` (what the page shows for every id, e.g. "Greedy (scripted)", "Your model: PATH"), ``shipped`` (the shipped models: spec, players, game options, default, summary, label; each as ``ppo:NAME`` and as every search agent on it, offered only at its own player count) |
| ``POST /api/games`` | ``{"game", "players", "seat", "opponents": [catalog id, ...], "options": {name: offered value}, "seed", "hints"}`` | ``{"id", "state", "frames"}``: a new game (``frames``: the agents' opening moves) |
| ``GET /api/games/{id}`` | — | ``{"state", "log", "setup"}``: the game now, its log (``agent``, ``text``, ``mine`` per move the person saw; agent ``""``: a public event) and what the person chose (``game``, ``players``, ``seat``, ``opponents`` as catalog ids, ``options``, ``hints``; ``seed`` once it is over): a reloaded page resumes it |
| ``POST /api/games/{id}/move`` | ``{"action", "version"}`` | ``{"state", "frames"}``: the person's move and the agents' answers, one frame per step |
| ``POST /api/games/{id}/undo`` | ``{"version"}`` | ``{"state", "frames": [], "undone", "log"}``: the person's half-built multi-step choice taken back (409 when there is none: ``state.undo`` says whether there is) |
| ``GET /api/games/{id}/replay`` | — | the finished game as a replay document (409 while it runs) |
| ``DELETE /api/games/{id}`` | — | ``{"closed": true}`` |
| ``GET /api/replays`` | — | the replay files given to ``parlour serve --replays`` (only replay documents: an ``eval.json`` beside them is left out) |
| ``POST /api/replays`` | ``{"name"}`` (a listed file) or ``{"replay": document}`` (its options from the catalog) | ``{"id", "summary"}`` (``summary.views``: ``omniscient`` only for a finished game) |
| ``GET /api/replays/{id}/frame`` | ``?step=K&view=omniscient|player_N`` | the state after ``K`` actions as that view sees it (omniscient: 403 unless the replay's game ends) |
| ``GET /api/replays/{id}/moves`` | ``?view=omniscient|player_N`` | ``{"moves": [{"step", "agent", "text"}, ...]}``: every move as that view saw it (:meth:`Replay.moves <parlour.apps.web.replay.Replay.moves>`; omniscient: 403 unless the replay's game ends) |

A state (:func:`parlour.apps.web.views.seat_state`) holds ``seat``, ``agent``, ``agents``,
``to_move``, ``over``, ``view`` (the game's :meth:`WebUI.view <parlour.games.ui.WebUI.view>`),
``moves`` (``action``, ``name``, ``target``), ``prompt`` (the game's plain sentence for the
person's decision; null when it is not their turn), ``version`` (the person's moves and undos so
far: it never counts the agents' steps), ``undo`` (a half-built choice
can be taken back) and, at the end, ``final``. Errors are
``{"error": message}`` and never change a game:

| status | when |
|---|---|
| 400 | a bad request (an agent or option outside the catalog, an illegal move, not JSON, JSON nested too deep) |
| 403 | another origin (``Origin``, ``Sec-Fetch-Site``); the omniscient view of an unfinished replay |
| 404 | an unknown game or replay (closed, timed out) |
| 409 | a stale move (the state's ``version`` moved on), an undo with no half-built choice, the replay of a running game |
| 413 | a body over its cap (:data:`~parlour.apps.web.guard.MAX_REQUEST_BYTES`, :data:`~parlour.apps.web.guard.MAX_REPLAY_BYTES`) |
| 415 | a ``POST`` that is not ``application/json`` |
| 421 | a ``Host`` that is not the bound address (DNS rebinding) |
| 429 | new games too fast from one address |
| 503 | too many games open, from one address or in all (:class:`~parlour.apps.web.sessions.Limits`) |

Every request passes :class:`~parlour.apps.web.guard.GuardMiddleware` first.
"""

from __future__ import annotations

import ipaddress
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from parlour.apps.web.catalog import Catalog
from parlour.apps.web.errors import WebError
from parlour.apps.web.guard import (
    MAX_REPLAY_BYTES,
    GuardMiddleware,
    HostRule,
    RequestRefused,
    read_json,
)
from parlour.apps.web.replay import OMNISCIENT, Replay, load_replay
from parlour.apps.web.sessions import DEFAULT_TIMEOUT_S, Limits, SessionStore
from parlour.eval.replay import ReplayError, read_replay_file

STATIC = Path(__file__).parent / "static"
#: a frame's ``step`` query: ASCII digits, few enough for an int (``"²"`` is a str.isdigit)
STEP_PATTERN = re.compile(r"[0-9]{1,9}")
#: IPv6 clients are counted by their network of this prefix length (a host's usual share)
IPV6_CLIENT_PREFIX = 64
IPV6 = 6
#: the address ``create_app`` answers by default (``parlour serve``'s default bind)
DEFAULT_HOST = "127.0.0.1"


#: (path, size, modification time) -> whether the file is a replay (each file is read once)
_REPLAY_FILES: dict[tuple[str, int, int], bool] = {}
#: files remembered by :func:`is_replay_file` at most (the oldest are forgotten)
MAX_REMEMBERED_FILES = 4096


def is_replay_file(path: Path) -> bool:
    """Whether ``path`` holds a replay document (bounded read, its fields checked: an
    ``eval.json`` beside the replays is not one); remembered per path, size and modification
    time, so listing the replays again reads only new or changed files."""
    try:
        info = path.stat()
    except OSError:
        return False
    key = (str(path), info.st_size, info.st_mtime_ns)
    if key not in _REPLAY_FILES:
        try:
            read_replay_file(path)
            _REPLAY_FILES[key] = True
        except ReplayError:
            _REPLAY_FILES[key] = False
        while len(_REPLAY_FILES) > MAX_REMEMBERED_FILES:
            del _REPLAY_FILES[next(iter(_REPLAY_FILES))]
    return _REPLAY_FILES[key]


def find_replays(paths: list[str]) -> dict[str, Path]:
    """Replay files: each path a ``.json`` file or a folder searched for them (recursively);
    other files (another JSON document, one that does not parse, too large) are left out."""
    found: dict[str, Path] = {}
    for p in map(Path, paths):
        files = sorted(p.rglob("*.json")) if p.is_dir() else [p]
        for f in files:
            if is_replay_file(f):
                found[str(f)] = f
    return found


def client_of(request: Request) -> str:
    """The client a game is counted against: its address (all tabs of a machine share it); an
    IPv6 address by its /64 network (one host may hold a whole /64)."""
    host = request.client.host if request.client is not None else ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if address.version == IPV6:
        return str(ipaddress.ip_network(f"{address}/{IPV6_CLIENT_PREFIX}", strict=False))
    return host


def create_app(
    models: list[str] | None = None,
    replays: list[str] | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,
    *,
    host: str = DEFAULT_HOST,
    port: int | None = None,
    limits: Limits | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Starlette:
    """The app (see the module docstring); ``models``: the operator's PPO model files offered as
    opponents (by catalog id); ``replays``: replay files or folders listed on the page;
    ``timeout``: seconds an untouched game or replay is kept; ``host``, ``port``: the bound
    address, the only ``Host`` answered (``port`` None: any port); ``limits``: the stores'
    bounds (default :class:`~parlour.apps.web.sessions.Limits` with ``timeout``); ``clock``:
    the stores' time (tests)."""
    limits = limits or Limits(timeout=timeout)
    games = SessionStore(limits, what="game", clock=clock)
    opened = SessionStore(limits, what="replay", clock=clock)
    catalog = Catalog(list(models or []))
    replay_paths = list(replays or [])

    async def index(request: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    async def game_script(request: Request) -> Response:
        text = await run_in_threadpool(catalog.script, request.path_params["name"])
        if text is None:
            raise WebError("no such game script", status=404)
        return Response(text, media_type="text/javascript")

    async def get_catalog(request: Request) -> JSONResponse:
        return JSONResponse({"games": await run_in_threadpool(catalog.games)})

    async def new_game(request: Request) -> JSONResponse:
        data = await read_json(request)
        key, session = await run_in_threadpool(games.create, data, client_of(request), catalog)
        return JSONResponse({"id": key, "state": session.state(), "frames": session.opening})

    def locked(session: Any, what: Any) -> Any:
        with session.lock:  # (in a worker thread: an agent may be thinking in another)
            return what()

    async def get_game(request: Request) -> JSONResponse:
        session = games.get(request.path_params["id"])
        state, log, setup = await run_in_threadpool(
            locked, session, lambda: (session.state(), session.log_entries(), session.setup())
        )
        return JSONResponse({"state": state, "log": log, "setup": setup})

    async def undo(request: Request) -> JSONResponse:
        data = await read_json(request)
        if not isinstance(data, dict) or set(data) != {"version"}:
            raise WebError('an undo is {"version": <int>}')
        session = games.get(request.path_params["id"])
        answer = await run_in_threadpool(locked, session, lambda: session.undo(data["version"]))
        return JSONResponse(answer)

    async def move(request: Request) -> JSONResponse:
        data = await read_json(request)
        if not isinstance(data, dict) or set(data) != {"action", "version"}:
            raise WebError('a move is {"action": <int>, "version": <int>}')
        session = games.get(request.path_params["id"])
        answer = await run_in_threadpool(
            locked, session, lambda: session.move(data["action"], data["version"])
        )
        return JSONResponse(answer)

    async def game_replay(request: Request) -> JSONResponse:
        session = games.get(request.path_params["id"])
        return JSONResponse(await run_in_threadpool(locked, session, session.replay))

    async def close_game(request: Request) -> JSONResponse:
        if not games.drop(request.path_params["id"]):
            raise WebError(f"no game {request.path_params['id']!r}", 404)
        return JSONResponse({"closed": True})

    async def list_replays(request: Request) -> JSONResponse:
        return JSONResponse(
            {"replays": sorted(await run_in_threadpool(find_replays, replay_paths))}
        )

    async def open_replay(request: Request) -> JSONResponse:
        data = await read_json(request, MAX_REPLAY_BYTES)
        if not isinstance(data, dict) or len(data) != 1 or not {"name", "replay"} & set(data):
            raise WebError('open a replay with {"name": <a listed file>} or {"replay": <document>}')
        client = client_of(request)
        opened.admit(client)
        if "name" in data:
            path = (await run_in_threadpool(find_replays, replay_paths)).get(data["name"])
            if path is None:
                raise WebError(f"no replay file {data['name']!r} is listed", 404)
            replay = await run_in_threadpool(load_replay, path)
        else:
            doc, check = data["replay"], catalog.check_replay_options
            replay = await run_in_threadpool(Replay, doc, check)
        return JSONResponse({"id": opened.add(replay, client), "summary": replay.summary()})

    async def replay_frame(request: Request) -> JSONResponse:
        replay = opened.get(request.path_params["id"])
        step_text = request.query_params.get("step", "0")
        if not STEP_PATTERN.fullmatch(step_text):
            raise WebError(f"step must be an integer in 0..{replay.steps}, got {step_text!r}")
        view = request.query_params.get("view", OMNISCIENT)
        return JSONResponse(await run_in_threadpool(replay.frame, int(step_text), view))

    async def replay_moves(request: Request) -> JSONResponse:
        replay = opened.get(request.path_params["id"])
        view = request.query_params.get("view", OMNISCIENT)
        return JSONResponse({"moves": await run_in_threadpool(replay.moves, view)})

    async def on_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, WebError | RequestRefused)
        return JSONResponse({"error": str(exc)}, status_code=exc.status)

    routes = [
        Route("/", index),
        Route("/api/catalog", get_catalog),
        Route("/games/{name}.js", game_script),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{id}", get_game, methods=["GET"]),
        Route("/api/games/{id}", close_game, methods=["DELETE"]),
        Route("/api/games/{id}/move", move, methods=["POST"]),
        Route("/api/games/{id}/undo", undo, methods=["POST"]),
        Route("/api/games/{id}/replay", game_replay),
        Route("/api/replays", list_replays, methods=["GET"]),
        Route("/api/replays", open_replay, methods=["POST"]),
        Route("/api/replays/{id}/frame", replay_frame),
        Route("/api/replays/{id}/moves", replay_moves),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={WebError: on_error, RequestRefused: on_error},
        middleware=[Middleware(GuardMiddleware, rule=HostRule(host, port))],
    )
    app.state.games, app.state.replays, app.state.catalog = games, opened, catalog
    return app
