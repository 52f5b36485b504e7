"""``parlour serve``: play the games against agents and watch replays in the browser.

```
parlour serve [--host 127.0.0.1] [--port 8000] [--model PATH ...] [--replays PATH ...] [--timeout S]
parlour serve --replays runs/eval/audition_2p_20260101-120000/replays
```

Starts a local web server (Starlette + uvicorn, :mod:`parlour.apps.web`) and prints its
address. In the page a person picks a game, the player count, the game's options, their seat and
the opponents from the server's catalog (every scripted agent that plays the game, the shipped
models of that game and player count, and each ``--model`` file and each
``runs/*/model.safetensors`` found under the current folder that fits the game, by a catalog
id: the browser never sends a file name; an operator's model is labelled with the path the
operator gave), then plays by clicking. The server answers only its own page (``Host`` and
``Origin`` checked) and bounds what a request may cost (:mod:`parlour.apps.web.guard`,
:mod:`parlour.apps.web.sessions`); ``--host`` other than a loopback address prints a warning:
anyone who reaches the address may play and use the server's CPU. Model files are loaded
untrusted (no pickle).
Each browser tab is its own game; a game untouched for ``--timeout`` seconds is dropped.
``--replays`` lists replay files (or folders of them, e.g. written by
``parlour eval --save-replays K``) on the page; a replay file can also be opened from the
browser. See ``docs/web.md``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from parlour.apps.web.sessions import DEFAULT_TIMEOUT_S

#: printed when ``--host`` is not a loopback address
EXPOSED_WARNING = (
    "parlour serve: warning: --host {host} is not a loopback address: anyone who can reach "
    "this machine may start games on it (bounded per address, see docs/web.md). Use the "
    "default --host 127.0.0.1 unless you mean it."
)
HELP = "play the games against agents and watch replays in the browser"
DEFAULT_PORT = 8000
#: where ``parlour train`` leaves its models (offered as opponents when found)
MODEL_GLOB = "runs/*/model.safetensors"  # (the models parlour train writes)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})"
    )
    parser.add_argument(
        "--model",
        nargs="+",
        default=[],
        help="PPO model files offered as opponents (the page names them by id)",
    )
    parser.add_argument(
        "--replays", nargs="+", default=[], help="replay files or folders to list on the page"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT_S,
        help=f"seconds an untouched game is kept (default {DEFAULT_TIMEOUT_S})",
    )


def model_problem(path: str) -> str | None:
    """Why the model file ``path`` cannot be offered (it does not load as parlour's format:
    the server never trusts a pickle), or None; without the ``train`` extra nothing is checked
    (the page then offers no models at all)."""
    import importlib.util

    if importlib.util.find_spec("torch") is None:
        return None
    from parlour.agents.ppo import load_policy

    try:
        load_policy(path)  # (cached: the games that seat it load it once)
    except (ValueError, OSError) as exc:
        return str(exc)
    return None


def warm_up() -> list[str]:
    """Load the shipped default models of each game's default player count (the opponents the
    page offers first) into the process's model cache, so that the first game does not wait for
    torch and its model (a few seconds): run in a thread beside the server. Best effort: a model
    that fails here fails again, with its reason, in the game that seats it. The names of the
    models loaded."""
    import importlib.util

    if importlib.util.find_spec("torch") is None:
        return []
    from parlour.agents.ppo import load_policy
    from parlour.games import all_games
    from parlour.models import read_index

    first = {g.name: g.terminal.default_players for g in all_games() if g.terminal is not None}
    loaded = []
    for m in read_index():
        if m.default and first.get(m.game) == m.players and m.path.is_file():
            try:
                load_policy(str(m.path))
            except (ValueError, OSError):
                continue
            loaded.append(m.name)
    return loaded


def run(args: argparse.Namespace) -> int:
    import threading

    import uvicorn

    from parlour.apps.web.app import create_app
    from parlour.apps.web.guard import is_loopback

    for m in args.model:
        if not Path(m).is_file():
            print(f"parlour serve: --model {m}: no such file")
            return 2
        problem = model_problem(m)
        if problem is not None:  # (the page would offer it, and every game with it would fail)
            print(f"parlour serve: --model {m}: {problem}")
            return 2
    models = list(args.model)
    for found in sorted(Path().glob(MODEL_GLOB)):
        problem = model_problem(str(found))
        if problem is None:
            models.append(str(found))
        else:
            print(f"parlour serve: warning: leaving out {found}: {problem}", file=sys.stderr)
    for r in args.replays:
        if not Path(r).exists():
            print(f"parlour serve: --replays {r}: no such file or folder")
            return 2
    if not args.timeout > 0:  # (NaN too)
        print(f"parlour serve: --timeout must be > 0, got {args.timeout}")
        return 2
    if not is_loopback(args.host):
        print(EXPOSED_WARNING.format(host=args.host), file=sys.stderr, flush=True)
    app = create_app(
        models=models,
        replays=args.replays,
        timeout=args.timeout,
        host=args.host,
        port=args.port or None,  # (--port 0: the system picks one; any port is the bound one)
    )
    # proxy_headers off: a client is its socket's address, never an X-Forwarded-For it sends
    # (the bounds per client count addresses)
    config = uvicorn.Config(
        app, host=args.host, port=args.port, log_level="warning", proxy_headers=False
    )
    server = uvicorn.Server(config)
    threading.Thread(target=warm_up, name="warm-up", daemon=True).start()
    host = f"[{args.host}]" if ":" in args.host else args.host  # (an IPv6 address in a URL)
    print(f"parlour serve: open http://{host}:{args.port}/ (Ctrl-C stops)", flush=True)
    server.run()
    return 0
