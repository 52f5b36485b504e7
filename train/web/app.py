"""The ``parlour serve`` ASGI app (Starlette): the page, its static files and the JSON API.

| method and path | body / query | answer |
|---|---|---|
| ``GET /`` | — | the page (``static/index.html``) |
| ``GET /api/catalog`` | — | the games: seats, default players and opponent, the game's own options, agent specs (with the models given to ``parlour serve``), the game's shipped models (``shipped``: spec, players, game options, default, summary; each model as ``ppo:NAME`` and as every search agent on it, e.g. ``audition.search:model=NAME``; the page offers each only at its own seat count and selects the default one whose options are the form's) |
| ``POST /api/games`` | ``{"game", "players", "seat", "opponents": [spec, ...], "options": {...}, "seed", "hints"}`` | ``{"id", "state", "frames"}``: a new game (``frames``: the agents' opening moves) |
| ``GET /api/games/{id}`` | — | ``{"state"}`` |
| ``POST /api/games/{id}/move`` | ``{"action", "version"}`` | ``{"state", "frames"}``: the person's move and the agents' answers, one frame per step |
| ``GET /api/games/{id}/replay`` | — | the game so far as a replay document |
| ``DELETE /api/games/{id}`` | — | ``{"closed": true}`` |
| ``GET /api/replays`` | — | the replay files given to ``parlour serve --replays`` |
| ``POST /api/replays`` | ``{"name"}`` (a listed file) or ``{"replay": document}`` | ``{"id", "summary"}`` |
| ``GET /api/replays/{id}/frame`` | ``?step=K&view=omniscient|player_N`` | the state after ``K`` actions as that view sees it |

A state (:func:`parlour.train.web.views.seat_state`) holds ``seat``, ``agent``, ``agents``,
``to_move``, ``over``, ``view`` (the game's :meth:`~parlour.train.play.PlayUI.web_view`),
``moves`` (``action``, ``name``, ``target``), ``version`` and, at the end, ``final``. Errors are
``{"error": message}`` with status 400 (bad request, illegal move), 404 (unknown game or
replay), 409 (stale move: the state's ``version`` moved on) or 503 (too many games); they never
change a game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from parlour.train.web.replay import Replay, load_replay
from parlour.train.web.sessions import DEFAULT_TIMEOUT_S, SessionStore, WebError

STATIC = Path(__file__).parent / "static"
#: the largest request body read (a replay document)
MAX_BODY_BYTES = 8 * 1024 * 1024


def catalog(models: list[str]) -> list[dict[str, Any]]:
    """Every game with a UI, its seats, its own options and the agent specs that play it."""
    from parlour.agents.factory import known_agents, model_agents
    from parlour.train.games import all_games

    games = []
    for spec in all_games():
        if spec.play_ui is None:
            continue
        ui = spec.play_ui()
        games.append(
            {
                "name": spec.name,
                "min_players": spec.min_players,
                "max_players": spec.max_players,
                "default_players": ui.default_players,
                "default_opponent": ui.default_opponent,
                "options": ui.web_options(),
                "agents": known_agents(spec)
                + [f"ppo:{m}" for m in models]
                + [f"{name}:model={m}" for name in model_agents(spec) for m in models],
                "shipped": shipped_for_page(spec),
            }
        )
    return games


def shipped_for_page(spec: Any) -> list[dict[str, Any]]:
    """The shipped models of the game ``spec`` (:mod:`parlour.models`) with their seat count, game
    options, ``default`` flag and card summary — each as ``ppo:NAME`` and as every search agent
    built on a model (``audition.search:model=NAME``, never a default); none without the
    ``train`` extra (torch) to play them."""
    import importlib.util

    from parlour.agents.factory import model_agents
    from parlour.models import read_index

    if importlib.util.find_spec("sb3_contrib") is None:
        return []
    out: list[dict[str, Any]] = []
    for m in read_index():
        if m.game != spec.name or not m.path.is_file():
            continue
        entry = {"players": m.players, "game_options": m.game_options, "summary": m.summary()}
        out.append({"spec": f"ppo:{m.name}", "default": m.default, **entry})
        for agent in model_agents(spec):
            summary = f"{agent} on ppo:{m.name}: {m.summary()}"
            out.append(
                {**entry, "spec": f"{agent}:model={m.name}", "default": False, "summary": summary}
            )
    return out


def find_replays(paths: list[str]) -> dict[str, Path]:
    """Replay files: each path a ``.json`` file or a folder searched for them (recursively)."""
    found: dict[str, Path] = {}
    for p in map(Path, paths):
        files = sorted(p.rglob("*.json")) if p.is_dir() else [p]
        for f in files:
            found[str(f)] = f
    return found


def create_app(
    models: list[str] | None = None,
    replays: list[str] | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,
) -> Starlette:
    """The app (see the module docstring); ``models``: PPO model files offered as opponents;
    ``replays``: replay files or folders listed on the page; ``timeout``: seconds an
    untouched game or replay is kept."""
    games = SessionStore(timeout=timeout, what="game")
    opened = SessionStore(timeout=timeout, what="replay")
    models = list(models or [])
    replay_paths = list(replays or [])

    async def body(request: Request) -> Any:
        raw = await request.body()
        if len(raw) > MAX_BODY_BYTES:
            raise WebError(f"request body larger than {MAX_BODY_BYTES} bytes")
        try:
            return json.loads(raw or b"{}")
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise WebError(f"the request body is not JSON: {exc}") from None

    async def index(request: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    async def get_catalog(request: Request) -> JSONResponse:
        return JSONResponse({"games": await run_in_threadpool(catalog, models)})

    async def new_game(request: Request) -> JSONResponse:
        data = await body(request)
        key, session = await run_in_threadpool(games.create, data)
        return JSONResponse({"id": key, "state": session.state(), "frames": session.opening})

    def locked(session: Any, what: Any) -> Any:
        with session.lock:  # (in a worker thread: an agent may be thinking in another)
            return what()

    async def get_game(request: Request) -> JSONResponse:
        session = games.get(request.path_params["id"])
        state = await run_in_threadpool(locked, session, session.state)
        return JSONResponse({"state": state})

    async def move(request: Request) -> JSONResponse:
        data = await body(request)
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
        return JSONResponse({"replays": sorted(find_replays(replay_paths))})

    async def open_replay(request: Request) -> JSONResponse:
        data = await body(request)
        if not isinstance(data, dict) or len(data) != 1 or not {"name", "replay"} & set(data):
            raise WebError('open a replay with {"name": <a listed file>} or {"replay": <document>}')
        if "name" in data:
            path = find_replays(replay_paths).get(data["name"])
            if path is None:
                raise WebError(f"no replay file {data['name']!r} is listed", 404)
            replay = await run_in_threadpool(load_replay, path)
        else:
            replay = await run_in_threadpool(Replay, data["replay"])
        return JSONResponse({"id": opened.add(replay), "summary": replay.summary()})

    async def replay_frame(request: Request) -> JSONResponse:
        replay = opened.get(request.path_params["id"])
        step_text = request.query_params.get("step", "0")
        if not step_text.isdigit():
            raise WebError(f"step must be an integer in 0..{replay.steps}, got {step_text!r}")
        view = request.query_params.get("view", "omniscient")
        return JSONResponse(await run_in_threadpool(replay.frame, int(step_text), view))

    async def on_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, WebError)
        return JSONResponse({"error": str(exc)}, status_code=exc.status)

    routes = [
        Route("/", index),
        Route("/api/catalog", get_catalog),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{id}", get_game, methods=["GET"]),
        Route("/api/games/{id}", close_game, methods=["DELETE"]),
        Route("/api/games/{id}/move", move, methods=["POST"]),
        Route("/api/games/{id}/replay", game_replay),
        Route("/api/replays", list_replays, methods=["GET"]),
        Route("/api/replays", open_replay, methods=["POST"]),
        Route("/api/replays/{id}/frame", replay_frame),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={WebError: on_error})
    app.state.games, app.state.replays = games, opened
    return app
