"""JSON of what a seat may see, for :mod:`parlour.apps.web` (the ``parlour serve`` page).

Everything a seat is sent comes from :func:`seat_state`: the game's
:meth:`WebUI.view <parlour.games.ui.WebUI.view>` (built from ``env.player_view(agent)`` only), the
seat's legal moves (the env's own legal actions, named by the game's UI) and, once the game is
over, :meth:`WebUI.reveal <parlour.games.ui.WebUI.reveal>`. :func:`omniscient_state` (every seat's view
and the hidden truth) is only for replays whose game ends (:mod:`parlour.apps.web.replay`
refuses it for the others).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from parlour.games import Game


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


def is_over(env: Any) -> bool:
    return not env.agents or all(env.terminations[a] or env.truncations[a] for a in env.agents)


def to_move(env: Any) -> str | None:
    """The agent who decides now (None: the game is over)."""
    return None if is_over(env) else env.agent_selection


def legal_moves(game: Game, env: Any, agent: str) -> list[dict[str, Any]]:
    """The seat's legal moves (empty unless it decides now), each with the page element it is
    clicked on (``target``; None: a button)."""
    if to_move(env) != agent or env.terminations[agent] or env.truncations[agent]:
        return []
    mask = np.asarray(env.observe(agent)["action_mask"], dtype=bool)
    moves = game.terminal.moves(env, agent)
    if sorted(m.action for m in moves) != [int(a) for a in np.flatnonzero(mask)]:
        raise RuntimeError("the UI's moves differ from the env's legal-action mask")
    return [
        {"action": int(m.action), "name": m.name, "target": game.web.target(env, agent, m.action)}
        for m in moves
    ]


def seat_state(game: Game, env: Any, agent: str, hints: bool = False) -> dict[str, Any]:
    """What ``agent``'s seat sees now (nothing any other seat alone may know)."""
    over = is_over(env)
    state: dict[str, Any] = {
        "seat": env.possible_agents.index(agent),
        "agent": agent,
        "agents": list(env.possible_agents),
        "to_move": to_move(env),
        "over": over,
        "view": to_json(game.web.view(env, agent, hints=hints)),
        "moves": legal_moves(game, env, agent),
    }
    if over:
        state["final"] = to_json(game.web.reveal(env, env.unwrapped.results()))
    return state


def omniscient_state(game: Game, env: Any) -> dict[str, Any]:
    """Every seat's view and the hidden truth (replays of finished games only)."""
    over = is_over(env)
    return {
        "seat": None,
        "agent": None,
        "agents": list(env.possible_agents),
        "to_move": to_move(env),
        "over": over,
        "seats": {a: to_json(game.web.view(env, a, hints=True)) for a in env.possible_agents},
        "moves": [],
        "final": to_json(game.web.reveal(env, env.unwrapped.results() if over else None)),
    }
