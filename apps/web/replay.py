"""Stepping through a replay on the web table: the game after any step, as a seat sees it.

The replay document (seed, configuration, actions; written by ``parlour eval --save-replays``
and by a finished game on the page) is :mod:`parlour.eval.replay`'s: its format, its fields,
reading a file. ``parlour serve --replays PATH`` lists replay files and the page also opens a
replay file picked in the browser. :class:`Replay` validates a document
(every action must be legal when it is replayed) and gives the state after any step, as a seat
sees it, or omniscient once the game has ended: the omniscient view (every hand, the hidden
truth) of a replay whose actions stop before the end is refused, so that a running game cannot be
seen through its own replay. An uploaded document (``options_check``) may set only the game
options the page offers (:meth:`parlour.apps.web.catalog.Catalog.check_replay_options`).

:meth:`Replay.moves` is the list of moves beside the board (the page's move log), as a view saw
them: for each action ``k`` (``step``: the step after which it has been made) its mover
(``agent``) and ``text``:

| view | the mover's own move | another seat's move |
|---|---|---|
| ``omniscient`` (finished games only) | its name (the terminal UI's :meth:`~parlour.games.ui.TerminalUI.moves`, before the move) | the same |
| a seat (``player_N``) | its name, as the seat's own move buttons said | what the seat saw of it: :meth:`~parlour.games.ui.TerminalUI.describe_other` of the seat's views before and after (the text of a live game's frames); a step it returns None for (e.g. Awkward Guests' hidden accusation steps) is left out, as in a live game |
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from parlour import games  # (a module attribute: tests spy on games.make_raw_env)
from parlour.apps.web.errors import WebError
from parlour.apps.web.views import omniscient_state, seat_state, to_move
from parlour.eval.replay import ReplayError, check_fields, read_replay_file, to_json

#: a copy of the env is kept every this many steps (stepping to any step replays at most this)
CHECKPOINT_EVERY = 32
#: the view of a frame that shows everything
OMNISCIENT = "omniscient"


class Replay:
    """A validated replay document that can show the game after any step; ``options_check``
    (``(spec, options) -> options``, raising :class:`WebError`): the options a document from the
    browser may set (None: any, for the operator's own files)."""

    def __init__(self, doc: Any, options_check: Callable[[Any, Any], Any] | None = None) -> None:
        try:
            check_fields(doc)
        except ReplayError as exc:
            raise WebError(str(exc)) from None
        self.doc = dict(doc)
        try:
            self.spec = games.get_game(doc["game"]) if ":" not in doc["game"] else None
        except (ValueError, TypeError) as exc:
            raise WebError(f"replay: {exc}") from None
        if self.spec is None or self.spec.terminal is None:
            raise WebError(f"replay: game must be a registered game, got {doc['game']!r}")
        self.ui = self.spec.terminal
        if options_check is not None:
            options_check(self.spec, doc.get("options", {}))
        try:
            env = games.make_raw_env(self.spec, doc["players"], **dict(doc.get("options", {})))
        except (TypeError, ValueError) as exc:
            raise WebError(f"replay: the game cannot be built: {exc}") from None
        env.reset(seed=doc["seed"])
        self.checkpoints = [copy.deepcopy(env)]
        #: view -> its list of moves (:meth:`moves`), computed on first use
        self._moves: dict[str, list[dict[str, Any]]] = {}
        self._moves_lock = threading.Lock()
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

    def check_view(self, view: Any) -> None:
        """A :class:`WebError` unless ``view`` is a seat's agent name or, for a finished game,
        omniscient (403 for an unfinished one)."""
        seats = list(self.checkpoints[0].possible_agents)
        if view == OMNISCIENT and not self.finished:
            raise WebError(
                "the omniscient view is only for a replay of a finished game (this one's actions "
                "stop before the end); pick a seat's view",
                status=403,
            )
        if view != OMNISCIENT and view not in seats:
            raise WebError(f"view must be {OMNISCIENT!r} or one of {seats}, got {view!r}")

    def frame(self, step: int, view: str) -> dict[str, Any]:
        """The game after ``step`` actions as ``view`` sees it: an agent name or omniscient."""
        env = self.env_at(step)
        self.check_view(view)
        if view == OMNISCIENT:
            state = omniscient_state(self.spec, env)
        else:
            state = seat_state(self.spec, env, view, hints=True)
            state["moves"] = []  # a replay is watched, not played
            state["prompt"] = None
        state.update(step=step, steps=self.steps, version=step)
        return state

    def moves(self, view: str) -> list[dict[str, Any]]:
        """Every action as ``view`` saw it: ``{"step", "agent", "text"}`` (module docstring);
        computed once per view (the game is replayed once)."""
        self.check_view(view)
        with self._moves_lock:
            if view not in self._moves:
                self._moves[view] = self._replay_moves(view)
            return self._moves[view]

    def _replay_moves(self, view: str) -> list[dict[str, Any]]:
        env = copy.deepcopy(self.checkpoints[0])
        seats = list(env.possible_agents)
        out = []
        for step, action in enumerate(self.doc["actions"], 1):
            self._skip_done(env)
            mover = env.agent_selection
            onlooker = mover if view == OMNISCIENT else view
            before = self.ui.view(env, onlooker)
            own = move_name(self.ui, env, mover, action) if view in (OMNISCIENT, mover) else None
            env.step(action)
            after = self.ui.view(env, onlooker)
            said = self.ui.describe_other(before, after, seats.index(mover), action)
            lines = (said or "").split("\n")
            # (the mover's own name for its move, else what the seat read; then the public
            # events the move set off, each a line of its own, as a live game logs them)
            first = own if own is not None else said and lines[0]
            if first:
                out.append({"step": step, "agent": mover, "text": first})
            out += [{"step": step, "agent": "", "text": line} for line in lines[1:]]
        return out

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


def move_name(ui: Any, env: Any, agent: str, action: int) -> str:
    """The name ``agent``'s own move buttons give ``action`` now (the terminal UI's)."""
    names = {m.action: m.name for m in ui.moves(env, agent)}
    if action not in names:
        raise RuntimeError(f"the UI names no move {action} of {agent} (its moves: {sorted(names)})")
    return names[action]


def load_replay(path: str | Path) -> Replay:
    """The replay in the file ``path`` (a :class:`WebError` if it is no regular file of at most
    :data:`~parlour.eval.replay.MAX_REPLAY_FILE_BYTES`, or does not parse or replay)."""
    try:
        doc = read_replay_file(path)
    except ReplayError as exc:
        raise WebError(str(exc)) from None
    return Replay(doc)
