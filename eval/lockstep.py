"""The lockstep stepper: tournament games side by side, so search agents decide for many at once.

A search agent (``audition.expert``, ``audition.search``) spends its time in rollouts, and a
batch of rollouts costs far less per line when it is large. :class:`LockstepStepper` (a
:class:`~parlour.games.stepping.Stepper` of the tournament driver,
:func:`parlour.eval.tournament.play_games`) plays a batch of :data:`LOCKSTEP_GAMES` tournament
games side by side, each on its own env with its own agents (the per-game stepper's coroutine
:func:`parlour.games.stepping.game_moves`: the same deals, seeds and records), and hands every
round's pending decisions — one per live game — to the game's ``decide(requests) -> actions``
(the :class:`~parlour.games.stepping.Lockstep` answer of its ``batched_tournament`` hook;
Audition: :func:`parlour.games.audition.rollouts.decide_many`, which batches the search agents'
rollouts and lets every other agent ``act``). Each agent makes the decision it makes in the
per-game path (``tests/train/test_lockstep_eval.py``): its own generator is drawn in the same
order, and a decision's rollout values do not depend on the others in its batch (for a learned
rollout policy up to float rounding of a bigger batched forward pass, as in
:mod:`parlour.games.audition.batched_tournament`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from parlour.agents.factory import make_agent
from parlour.games import Game, make_raw_env
from parlour.games.stepping import Decide, GameRecord, Job, game_moves

#: games played side by side (the driver hands the stepper batches of this many)
LOCKSTEP_GAMES = 256


class LockstepStepper:
    """Plays ``batch`` games at a time side by side, every round's decisions through ``decide``
    (``trust``: pickle-bearing model files may load, ``--trust-model``)."""

    def __init__(
        self,
        game: Game,
        players: int,
        specs: Sequence[str],
        seed: int,
        game_options: dict[str, Any],
        decide: Decide,
        batch: int = LOCKSTEP_GAMES,
        *,
        trust: bool = False,
    ) -> None:
        self.game, self.players, self.specs, self.seed = game, players, list(specs), seed
        self.game_options, self.decide, self.batch, self.trust = game_options, decide, batch, trust

    #: ``play`` calls ``done(1)`` as each game ends (the progress bar moves per game)
    reports_progress = True

    def play(
        self, jobs: Sequence[Job], done: Callable[[int], Any] | None = None
    ) -> list[GameRecord]:
        """The records of ``jobs``, in order: fresh envs and agents for each game; ``done(1)``
        as each one ends."""
        game = self.game
        games = []
        for job in jobs:
            env = make_raw_env(game, self.players, **self.game_options)
            agents = {
                (k, s): make_agent(self.specs[k], game, trust=self.trust)
                for s, k in enumerate(job[1])
            }
            games.append(game_moves(job, env, agents, self.seed, game.evaluation.statistics))
        pending = {i: next(g) for i, g in enumerate(games)}
        ended: dict[int, GameRecord] = {}
        while pending:
            live = list(pending)
            actions = self.decide([pending[i] for i in live])
            for i, action in zip(live, actions, strict=True):
                try:
                    pending[i] = games[i].send(action)
                except StopIteration as stop:
                    ended[i] = stop.value
                    del pending[i]
                    if done is not None:
                        done(1)
        return [ended[i] for i in range(len(jobs))]
