"""The Countdown plug-in: how parlour trains, evaluates and plays the test game.

Everything parlour needs to know about Countdown is here — no file of parlour names it:

| part | here |
|---|---|
| game | :data:`GAME` (``countdown``, 2–3 players), registered on import |
| scripted agent | ``countdown.careful`` (:class:`CarefulAgent`, built by :func:`careful_agent`) |
| statistics | :class:`CountdownStatistics`: each agent's bust rate (a "bust rate" column, ``eval/bust_rate_vs_…`` in training) |
| ``parlour play`` | :class:`CountdownUI` |
| hidden information | :func:`redeal`: reshuffles the other hands and the deck (``Game.hidden_redeal``) |

Use it by name once imported (``import tests.games``) or as ``tests.games.countdown.plugin:GAME``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from parlour.games import Game, register_game
from parlour.games.parts import Column, Evaluation, Statistics
from parlour.games.ui import Move, TerminalUI
from tests.games.countdown import rules as R
from tests.games.countdown.env import raw_env

if TYPE_CHECKING:
    from parlour.games.stepping import GameRecord

# -- a scripted agent -------------------------------------------------------------------------------


class CarefulAgent:
    """Hits 0 when it can, else plays its largest card that keeps the counter above 0, else its
    smallest (it reads only its player view)."""

    def __init__(self, spec: str = "countdown.careful") -> None:
        self.spec = spec

    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, observation: Mapping[str, np.ndarray], view: Any) -> int:
        values = [R.VALUES[a] for a in view.legal_actions]
        exact = [v for v in values if v == view.counter]
        safe = [v for v in values if v < view.counter]
        value = exact[0] if exact else max(safe) if safe else min(values)
        return R.VALUES.index(value)


def careful_agent(spec: str, seed: int | None) -> CarefulAgent:
    """The ``countdown.careful`` builder (``Game.agents``); it takes no options."""
    return CarefulAgent(spec)


# -- statistics -------------------------------------------------------------------------------------


def _bust_cell(a: Mapping[str, Any]) -> str:
    return "—" if a["bust_rate"] is None else f"{a['bust_rate']:.1%}"


@dataclass(frozen=True)
class CountdownStatistics(Statistics):
    """How often each agent overshoots (the env's final ``busts``)."""

    seat_keys: tuple[str, ...] = ("busts",)
    agent_keys: tuple[str, ...] = ("bust_rate",)
    log_keys: tuple[str, ...] = ("bust_rate",)
    columns: tuple[Column, ...] = (Column("bust rate", _bust_cell),)
    note: str = "bust rate: share of the agent's games in which it took the counter below 0."

    def agent_stats(self, records: Sequence[GameRecord], kind: int) -> dict[str, Any]:
        seats = [
            rec.seat_stats[s]["busts"]
            for rec in records
            if rec.seat_stats
            for s, k in enumerate(rec.kinds)
            if k == kind
        ]
        return {"bust_rate": sum(seats) / len(seats) if seats else None}


# -- parlour play -----------------------------------------------------------------------------------


class CountdownUI(TerminalUI):
    """``parlour play countdown``: your hand, the counter, who busted."""

    default_players = 2
    default_opponent = "countdown.careful"

    def moves(self, env: Any, agent: str) -> list[Move]:
        view = env.player_view(agent)
        return [
            Move(
                a, f"play a {R.VALUES[a]} (counter {view.counter} -> {view.counter - R.VALUES[a]})"
            )
            for a in view.legal_actions
        ]

    def private(self, env: Any, agent: str) -> str:
        hand = ", ".join(str(v) for v in env.player_view(agent).hand)
        return f"You are {agent}. Your hand: {hand}"

    def describe_other(self, before: Any, after: Any, seat: int, action: int) -> str | None:
        return f"plays a {R.VALUES[action]} (counter {before.counter} -> {after.counter})"

    def final(self, env: Any, results: dict[str, Any]) -> str:
        busted = [a for a, b in results["busts"].items() if b]
        how = f"{busted[0]} took the counter below 0" if busted else "The counter hit 0 exactly"
        return f"{how}. Winner(s): {', '.join(results['winners']) or 'none'}"


# -- hidden information -----------------------------------------------------------------------------


def redeal(raw_env: Any, seat: int, rng: np.random.Generator) -> None:
    """``Game.hidden_redeal``: reshuffle what ``seat`` cannot see (other hands, deck)."""
    R.redeal_hidden(raw_env.game, seat, rng)


GAME = register_game(
    Game(
        name="countdown",
        make_env=raw_env,
        min_players=R.MIN_PLAYERS,
        max_players=R.MAX_PLAYERS,
        baselines=("random", "countdown.careful"),
        agents={"countdown.careful": careful_agent},
        configurations=(
            (2, {}),
            (3, {}),
            (2, {"start": 10, "hand_size": 2}),
            (3, {"start": R.MAX_START, "hand_size": R.MAX_HAND}),
        ),
        hidden_redeal=redeal,
        evaluation=Evaluation(statistics=CountdownStatistics()),
        terminal=CountdownUI(),
    )
)
