"""Tournament games played in lockstep, so that search agents decide for many games at once.

A search agent (``audition.expert``, ``audition.search``) spends its time in rollouts, and a
batch of rollouts costs far less per line when it is large. :func:`play_lockstep` plays a
chunk of :data:`LOCKSTEP_GAMES` tournament games side by side, each on its own env with its
own agents (the per-game path's coroutine :func:`parlour.eval.tournament.game_moves`: the same
deals, seeds and records), and hands every round's pending decisions — one per live game — to
the game's ``decide(requests) -> actions`` (Audition:
:func:`parlour.games.audition.rollouts.decide_many`, which batches the search agents' rollouts
and lets every other agent ``act``). Each agent makes the decision it makes in the per-game path
(``tests/train/test_lockstep_eval.py``): its own generator is drawn in the same order, and a
decision's rollout values do not depend on the others in its batch (for a learned rollout
policy up to float rounding of a bigger batched forward pass, as in
:mod:`parlour.games.audition.batched_tournament`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from parlour.games import Game
    from parlour.games.stepping import GameRecord

#: games played side by side (a tournament is played in chunks of this many)
LOCKSTEP_GAMES = 256

#: ``decide(requests)``: the action of each ``(agent, observation, view)`` request
Decide = Callable[[Sequence[tuple[Any, Any, Any]]], list[int]]


def play_lockstep(
    game: Game,
    players: int,
    specs: Sequence[str],
    jobs: Sequence[tuple[int, tuple[int, ...]]],
    seed: int,
    game_options: dict[str, Any],
    decide: Decide,
    chunk: int = LOCKSTEP_GAMES,
    *,
    trust: bool = False,
) -> list[GameRecord]:
    """The records of ``jobs`` (``(deal, kinds)``), in order, played ``chunk`` games at a time
    (``trust``: pickle-bearing model files may load, ``--trust-model``)."""
    records: list[GameRecord] = []
    for start in range(0, len(jobs), chunk):
        part = jobs[start : start + chunk]
        records += _play_chunk(game, players, specs, part, seed, game_options, decide, trust)
    return records


def _play_chunk(
    game: Game,
    players: int,
    specs: Sequence[str],
    jobs: Sequence[tuple[int, tuple[int, ...]]],
    seed: int,
    game_options: dict[str, Any],
    decide: Decide,
    trust: bool = False,
) -> list[GameRecord]:
    from parlour.agents.factory import make_agent
    from parlour.eval.tournament import game_moves
    from parlour.games import make_raw_env

    games = []
    for job in jobs:
        env = make_raw_env(game, players, **game_options)
        agents = {(k, s): make_agent(specs[k], game, trust=trust) for s, k in enumerate(job[1])}
        games.append(game_moves(job, env, agents, seed, game.evaluation.statistics))
    pending = {i: next(g) for i, g in enumerate(games)}
    done: dict[int, GameRecord] = {}
    while pending:
        live = list(pending)
        actions = decide([pending[i] for i in live])
        for i, action in zip(live, actions, strict=True):
            try:
                pending[i] = games[i].send(action)
            except StopIteration as stop:
                done[i] = stop.value
                del pending[i]
    return [done[i] for i in range(len(jobs))]
