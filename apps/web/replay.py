"""Replays: a finished (or unfinished) game as JSON, and stepping through it.

A replay document (schema: ``docs/web/replay.schema.json``, described in ``docs/web.md``)::

    {"format": "parlour-replay", "version": 1, "game": "audition", "players": 3,
     "options": {"action_cards": 2}, "seed": 7, "agents": ["human", "random", "audition.greedy"],
     "actions": [6, 9, 2, ...], "results": {...}}

``seed`` is the env's reset seed; ``actions`` are the actions played in order (the steps of
seats that were already done, ``None`` in the AEC loop, are not listed); ``agents`` names who
sat where (for the page only); ``results`` (optional) is the env's ``results()`` at the end,
checked when the replay is loaded. Nothing else is needed: the game replays from the seed.

``parlour eval --save-replays K`` writes the first ``K`` games of a tournament
(:func:`save_tournament_replays`); ``parlour serve --replays PATH`` lists replay files and the
page also opens a replay file picked in the browser. :class:`Replay` validates a document
(every action must be legal when it is replayed) and gives the state after any step, as a seat
sees it, or omniscient once the game has ended: the omniscient view (every hand, the hidden
truth) of a replay whose actions stop before the end is refused, so that a running game cannot be
seen through its own replay. An uploaded document (``options_check``) may set only the game
options the page offers (:meth:`parlour.apps.web.catalog.Catalog.check_replay_options`).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from parlour._files import write_atomic
from parlour.apps.web.sessions import WebError
from parlour.apps.web.views import omniscient_state, seat_state, to_json, to_move

FORMAT = "parlour-replay"
VERSION = 1
#: a copy of the env is kept every this many steps (stepping to any step replays at most this)
CHECKPOINT_EVERY = 32
#: the fields of a replay document, and those it must have
FIELDS = ("format", "version", "game", "players", "options", "seed", "agents", "actions", "results")
REQUIRED = ("format", "version", "game", "players", "seed", "actions")
#: the view of a frame that shows everything
OMNISCIENT = "omniscient"
#: a replay's seed is below this (numpy seeds are non-negative; bigger ones cost)
MAX_REPLAY_SEED = 2**64
#: the largest replay file read (a whole game is some kilobytes)
MAX_REPLAY_FILE_BYTES = 8 * 1024 * 1024


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


def _check_fields(doc: Any) -> None:
    if not isinstance(doc, Mapping):
        raise WebError("a replay must be a JSON object")
    unknown = sorted(set(doc) - set(FIELDS))
    missing = [k for k in REQUIRED if k not in doc]
    if unknown or missing:
        raise WebError(f"replay: unknown fields {unknown}, missing fields {missing}")
    if doc["format"] != FORMAT or doc["version"] != VERSION:
        raise WebError(
            f"replay: format must be {FORMAT!r} version {VERSION}, got "
            f"{doc['format']!r} version {doc['version']!r}"
        )
    if not isinstance(doc["game"], str):
        raise WebError(f"replay: game must be a game name, got {doc['game']!r}")
    for key in ("players", "seed"):
        if isinstance(doc[key], bool) or not isinstance(doc[key], int):
            raise WebError(f"replay: {key} must be an integer, got {doc[key]!r}")
    if not 0 <= doc["seed"] < MAX_REPLAY_SEED:
        raise WebError(f"replay: seed must be in 0..{MAX_REPLAY_SEED - 1}, got {doc['seed']}")
    actions = doc["actions"]
    if not isinstance(actions, list) or not all(
        isinstance(a, int) and not isinstance(a, bool) for a in actions
    ):
        raise WebError("replay: actions must be a list of integers")
    if not isinstance(doc.get("options", {}), Mapping):
        raise WebError("replay: options must be an object")
    agents = doc.get("agents", [])
    if not isinstance(agents, list) or not all(isinstance(a, str) for a in agents):
        raise WebError("replay: agents must be a list of strings")


class Replay:
    """A validated replay document that can show the game after any step; ``options_check``
    (``(spec, options) -> options``, raising :class:`WebError`): the options a document from the
    browser may set (None: any, for the operator's own files)."""

    def __init__(self, doc: Any, options_check: Callable[[Any, Any], Any] | None = None) -> None:
        from parlour.games import get_game, make_raw_env

        _check_fields(doc)
        self.doc = dict(doc)
        try:
            self.spec = get_game(doc["game"]) if ":" not in doc["game"] else None
        except (ValueError, TypeError) as exc:
            raise WebError(f"replay: {exc}") from None
        if self.spec is None or self.spec.terminal is None or self.spec.web is None:
            raise WebError(f"replay: game must be a registered game, got {doc['game']!r}")
        self.ui = self.spec.terminal
        if options_check is not None:
            options_check(self.spec, doc.get("options", {}))
        try:
            env = make_raw_env(self.spec, doc["players"], **dict(doc.get("options", {})))
        except (TypeError, ValueError) as exc:
            raise WebError(f"replay: the game cannot be built: {exc}") from None
        env.reset(seed=doc["seed"])
        self.checkpoints = [copy.deepcopy(env)]
        for i, action in enumerate(doc["actions"]):
            if to_move(env) is None:
                raise WebError(f"replay does not replay: the game ended before action {i}")
            self._skip_done(env)
            mask = env.observe(env.agent_selection)["action_mask"]
            if not 0 <= action < len(mask) or not mask[action]:
                raise WebError(
                    f"replay does not replay: action {i} ({action}) is illegal for "
                    f"{env.agent_selection} there"
                )
            env.step(action)
            if (i + 1) % CHECKPOINT_EVERY == 0:
                self.checkpoints.append(copy.deepcopy(env))
        self._skip_done(env)
        #: whether the actions end the game (only then is the omniscient view shown)
        self.finished = to_move(env) is None
        expected = doc.get("results")
        if expected is not None and to_move(env) is None:
            got = to_json(env.unwrapped.results())
            if got != expected:
                raise WebError("replay does not replay: its results differ from the replayed game")

    @staticmethod
    def _skip_done(env: Any) -> None:
        while to_move(env) is not None and (
            env.terminations[env.agent_selection] or env.truncations[env.agent_selection]
        ):
            env.step(None)

    @property
    def steps(self) -> int:
        return len(self.doc["actions"])

    def env_at(self, step: int) -> Any:
        """A copy of the env after ``step`` actions."""
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= self.steps:
            raise WebError(f"step must be in 0..{self.steps}, got {step!r}")
        env = copy.deepcopy(self.checkpoints[step // CHECKPOINT_EVERY])
        for action in self.doc["actions"][step - step % CHECKPOINT_EVERY : step]:
            self._skip_done(env)
            env.step(action)
        self._skip_done(env)
        return env

    def frame(self, step: int, view: str) -> dict[str, Any]:
        """The game after ``step`` actions as ``view`` sees it: an agent name or omniscient."""
        env = self.env_at(step)
        if view == OMNISCIENT and not self.finished:
            raise WebError(
                "the omniscient view is only for a replay of a finished game (this one's actions "
                "stop before the end); pick a seat's view",
                status=403,
            )
        if view == OMNISCIENT:
            state = omniscient_state(self.spec, env)
        elif view in env.possible_agents:
            state = seat_state(self.spec, env, view, hints=True)
            state["moves"] = []  # a replay is watched, not played
        else:
            raise WebError(
                f"view must be {OMNISCIENT!r} or one of {list(env.possible_agents)}, got {view!r}"
            )
        state.update(step=step, steps=self.steps, version=step)
        return state

    def summary(self) -> dict[str, Any]:
        d = self.doc
        return {
            "game": d["game"],
            "players": d["players"],
            "options": d.get("options", {}),
            "seed": d["seed"],
            "agents": d.get("agents", []),
            "steps": self.steps,
            "finished": self.finished,
            "views": [OMNISCIENT] * self.finished + list(self.checkpoints[0].possible_agents),
        }


def load_replay(path: str | Path) -> Replay:
    """The replay in the file ``path`` (a :class:`WebError` if it is no regular file of at most
    :data:`MAX_REPLAY_FILE_BYTES`, or does not parse or replay)."""
    from parlour._files import read_regular_file

    try:
        raw = read_regular_file(path, max_bytes=MAX_REPLAY_FILE_BYTES, what=f"replay {path}")
        doc = json.loads(raw)
    except RecursionError:
        raise WebError(f"replay {path}: does not parse: nested too deep") from None
    except (OSError, ValueError) as exc:  # JSONDecodeError, UnicodeDecodeError: ValueErrors
        raise WebError(f"replay {path}: does not parse: {exc}") from None
    return Replay(doc)


def save_tournament_replays(
    spec: Any,
    players: int,
    specs: Sequence[str],
    seed: int,
    options: Mapping[str, Any],
    count: int,
    out: Path,
    trust: bool = False,
) -> list[Path]:
    """Replay files ``out/replay_KKKK.json`` of the first ``count`` games of the tournament
    :func:`parlour.eval.tournament.run_tournament` played with these settings (the same deals,
    seats and agent seeds: each game is played again, recording its actions)."""
    from parlour.eval import tournament as T

    if count <= 0:
        return []
    table = T.arrangements(len(specs), players)
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
