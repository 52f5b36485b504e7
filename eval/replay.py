"""The replay format: a finished (or unfinished) game as JSON, written and read.

A replay document (schema: ``docs/web/replay.schema.json``, described in ``docs/web.md``)::

    {"format": "parlour-replay", "version": 1, "game": "audition", "players": 3,
     "options": {"action_cards": 2}, "seed": 7, "agents": ["human", "random", "audition.greedy"],
     "actions": [6, 9, 2, ...], "results": {...}}

``seed`` is the env's reset seed; ``actions`` are the actions played in order (the steps of
seats that were already done, ``None`` in the AEC loop, are not listed); ``agents`` names who
sat where (for the page only); ``results`` (optional) is the env's ``results()`` at the end,
checked when the replay is loaded. Nothing else is needed: the game replays from the seed.

| name | what |
|---|---|
| :func:`make_replay` | the document of a game |
| :func:`check_fields` | its fields, types and ranges (:class:`ReplayError`) |
| :func:`read_replay_file` | the document in a file (bounded read, parsed, fields checked) |
| :func:`save_tournament_replays` | ``parlour eval --save-replays K``: the first ``K`` games of a tournament |
| :func:`to_json` | any result or view as plain JSON values |

Stepping through a replay (every action must be legal when it is replayed; the state after any
step, as a seat sees it or omniscient) is the web table's: :mod:`parlour.apps.web.replay`,
``parlour serve --replays PATH``.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from parlour._files import read_regular_file, write_atomic
from parlour.eval import tournament as T

FORMAT = "parlour-replay"
VERSION = 1
#: the fields of a replay document, and those it must have
FIELDS = ("format", "version", "game", "players", "options", "seed", "agents", "actions", "results")
REQUIRED = ("format", "version", "game", "players", "seed", "actions")
#: a replay's seed is below this (numpy seeds are non-negative; bigger ones cost)
MAX_REPLAY_SEED = 2**64
#: the largest replay file read (a whole game is some kilobytes)
MAX_REPLAY_FILE_BYTES = 8 * 1024 * 1024


class ReplayError(ValueError):
    """A replay document or file that is not a valid replay (the message names what is wrong)."""


def to_json(x: Any) -> Any:
    """``x`` as plain JSON values: dataclasses (their ``to_json`` if they have one), mappings,
    sequences and numpy values; a non-finite float becomes ``None``."""
    if hasattr(x, "to_json") and callable(x.to_json):
        return to_json(x.to_json())
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return {f.name: to_json(getattr(x, f.name)) for f in dataclasses.fields(x)}
    if isinstance(x, Mapping):
        return {str(k): to_json(v) for k, v in x.items()}
    if isinstance(x, list | tuple | set | frozenset | np.ndarray):
        return [to_json(v) for v in x]
    if isinstance(x, np.generic):
        return to_json(x.item())
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if x is None or isinstance(x, bool | int | float | str):
        return x
    raise TypeError(f"cannot send a {type(x).__name__} as JSON")


def make_replay(
    game: str,
    players: int,
    options: Mapping[str, Any],
    seed: int,
    agents: Sequence[str],
    actions: Sequence[int],
    results: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "game": game,
        "players": players,
        "options": to_json(dict(options)),
        "seed": seed,
        "agents": list(agents),
        "actions": [int(a) for a in actions],
    }
    if results is not None:
        doc["results"] = to_json(results)
    return doc


def check_fields(doc: Any) -> None:
    """:class:`ReplayError` naming the first field of ``doc`` that is not a replay document's
    (the fields, their types and ranges; whether the actions replay is the reader's to check)."""
    if not isinstance(doc, Mapping):
        raise ReplayError("a replay must be a JSON object")
    unknown = sorted(set(doc) - set(FIELDS))
    missing = [k for k in REQUIRED if k not in doc]
    if unknown or missing:
        raise ReplayError(f"replay: unknown fields {unknown}, missing fields {missing}")
    if doc["format"] != FORMAT or doc["version"] != VERSION:
        raise ReplayError(
            f"replay: format must be {FORMAT!r} version {VERSION}, got "
            f"{doc['format']!r} version {doc['version']!r}"
        )
    if not isinstance(doc["game"], str):
        raise ReplayError(f"replay: game must be a game name, got {doc['game']!r}")
    for key in ("players", "seed"):
        if isinstance(doc[key], bool) or not isinstance(doc[key], int):
            raise ReplayError(f"replay: {key} must be an integer, got {doc[key]!r}")
    if not 0 <= doc["seed"] < MAX_REPLAY_SEED:
        raise ReplayError(f"replay: seed must be in 0..{MAX_REPLAY_SEED - 1}, got {doc['seed']}")
    actions = doc["actions"]
    if not isinstance(actions, list) or not all(
        isinstance(a, int) and not isinstance(a, bool) for a in actions
    ):
        raise ReplayError("replay: actions must be a list of integers")
    if not isinstance(doc.get("options", {}), Mapping):
        raise ReplayError("replay: options must be an object")
    agents = doc.get("agents", [])
    if not isinstance(agents, list) or not all(isinstance(a, str) for a in agents):
        raise ReplayError("replay: agents must be a list of strings")


def read_replay_file(path: str | Path) -> dict[str, Any]:
    """The replay document in the file ``path`` (a :class:`ReplayError` if it is no regular file
    of at most :data:`MAX_REPLAY_FILE_BYTES`, or does not parse, or its fields are not a
    replay's)."""
    try:
        raw = read_regular_file(path, max_bytes=MAX_REPLAY_FILE_BYTES, what=f"replay {path}")
        doc = json.loads(raw)
    except RecursionError:
        raise ReplayError(f"replay {path}: does not parse: nested too deep") from None
    except (OSError, ValueError) as exc:  # JSONDecodeError, UnicodeDecodeError: ValueErrors
        raise ReplayError(f"replay {path}: does not parse: {exc}") from None
    check_fields(doc)
    return doc


def save_tournament_replays(
    spec: Any,
    players: int,
    specs: Sequence[str],
    seed: int,
    options: Mapping[str, Any],
    count: int,
    out: Path,
    trust: bool = False,
    table: Sequence[tuple[int, ...]] | None = None,
) -> list[Path]:
    """Replay files ``out/replay_KKKK.json`` of the first ``count`` games of the tournament
    :func:`parlour.eval.tournament.run_tournament` played with these settings (the same deals,
    seats and agent seeds: each game is played again, recording its actions)."""
    if count <= 0:
        return []
    table = list(table) if table is not None else T.arrangements(len(specs), players)
    stepper = T.per_game_stepper(spec, players, dict(options), list(specs), seed, trust)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for k in range(count):
        deal, kinds = k // len(table), table[k % len(table)]
        actions: list[int] = []
        stepper.play_one((deal, kinds), record=actions)
        results = stepper.env.unwrapped.results()
        agents = [specs[i] for i in kinds]
        doc = make_replay(spec.name, players, options, seed + deal, agents, actions, results)
        path = out / f"replay_{k:04d}.json"
        write_atomic(path, json.dumps(doc))
        paths.append(path)
    return paths
