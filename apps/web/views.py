"""JSON of what a seat may see, for :mod:`parlour.apps.web` (the ``parlour serve`` page).

Everything a seat is sent comes from :func:`seat_state`: the game's
:meth:`WebUI.view <parlour.games.ui.WebUI.view>` (built from ``env.player_view(agent)`` only), the
seat's legal moves (the env's own legal actions, named by the game's UI) and, once the game is
over, :meth:`WebUI.reveal <parlour.games.ui.WebUI.reveal>`. :func:`omniscient_state` (every seat's view
and the hidden truth) is only for replays whose game ends (:mod:`parlour.apps.web.replay`
refuses it for the others).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from parlour.eval.replay import to_json
from parlour.games.ui import WebUI

if TYPE_CHECKING:
    from parlour.games import Game

#: the page hooks of a game that has a terminal UI and no web part of its own
DEFAULT_WEB = WebUI()


def web_part(game: Game) -> WebUI | None:
    """The page hooks of ``game``: its web part, else the default hooks when it has a terminal
    UI (the page plays every game ``parlour play`` can), else None (not on the page)."""
    if game.web is not None:
        return game.web
    return DEFAULT_WEB if game.terminal is not None else None


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
        {
            "action": int(m.action),
            "name": m.name,
            "target": web_part(game).target(env, agent, m.action),
        }
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
        "view": to_json(web_part(game).view(env, agent, hints=hints)),
        "moves": legal_moves(game, env, agent),
    }
    state["prompt"] = web_part(game).prompt(env, agent) if state["moves"] else None
    if over:
        state["final"] = to_json(web_part(game).reveal(env, env.unwrapped.results()))
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
        "seats": {a: to_json(web_part(game).view(env, a, hints=True)) for a in env.possible_agents},
        "moves": [],
        "final": to_json(web_part(game).reveal(env, env.unwrapped.results() if over else None)),
    }
