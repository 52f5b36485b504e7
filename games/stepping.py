"""Steppers: what plays a tournament's games, under the one driver of :mod:`parlour.eval.tournament`.

The driver (:func:`parlour.eval.tournament.play_games`) owns everything generic — the jobs (deal
× seat arrangement), seeds, workers, progress, limits, the order of the records and the result —
and hands a stepper its jobs ``stepper.batch`` at a time. A stepper plays them and returns one
:class:`GameRecord` per job, in the order given:

| stepper | lives in | plays | chosen when |
|---|---|---|---|
| :class:`PerGameStepper` (``batch`` 1) | here | one env at a time, each seat's agent ``act``-ing (in this process, or one per pool worker) | no hook, the hook declines (``None``), or ``PARLOUR_NO_BATCHED_EVAL=1`` |
| :class:`parlour.eval.lockstep.LockstepStepper` | :mod:`parlour.eval.lockstep` | per-game envs side by side, every round's decisions handed to one ``decide(requests)`` | the hook answers :class:`Lockstep` (Audition: a search agent is seated) |
| Audition's :class:`~parlour.games.audition.batched_tournament.BatchedStepper` | :mod:`parlour.games.audition.batched_tournament` | all games of a batch as arrays on the batched engine | the hook answers a stepper (Audition: every spec batchable, every option known to the engine) |

Every stepper gives the same records on the same jobs (``tests/train/test_steppers.py``): deal
``d`` is ``reset(seed=seed + d)`` and the agent of seat ``s`` (kind ``k``) is seeded with
``SeedSequence([seed, d, s, k])``.

| name | what |
|---|---|
| :data:`Job` | ``(deal, kinds)``: one game, ``kinds[seat]`` the index of the seat's agent spec |
| :class:`GameRecord` | the outcome of one game |
| :class:`Stepper` | the protocol: ``batch: int`` (the most jobs per call) and ``play(jobs: Sequence[Job]) -> list[GameRecord]`` |
| :data:`Decide` | ``decide(requests) -> actions``: the action of each ``(agent, observation, view)`` request |
| :class:`Lockstep` | a hook's answer "play in lockstep, deciding with ``decide``" (the lockstep stepper is generic and lives in ``parlour.eval``, above the games) |
| :func:`game_moves` | one game as a coroutine (yields each decision, is sent the action, returns the record): the per-game and lockstep steppers both play through it |
| :func:`agent_seed` | the seed of a seat's agent in a game |

The game's ``Evaluation.batched_tournament`` hook is
``"module:function(players, specs, seed, game_options, *, trust) -> Stepper | Lockstep | None"``:
the stepper that plays this tournament's games (same records as the per-game path on the same
deals; ``trust``: pickle-bearing model files may load, ``--trust-model``), :class:`Lockstep`, or
``None``: the per-game path. (It used to take the jobs too and return their records.)

This module imports nothing from ``parlour.eval``, ``parlour.train`` or ``parlour.apps``.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

#: ``(deal, kinds)``: deal ``d`` is dealt as ``reset(seed=seed + d)``; ``kinds[seat]`` is the
#: index of the seat's agent spec
Job = tuple[int, tuple[int, ...]]
#: ``decide(requests)``: the action of each ``(agent, observation, view)`` request
Decide = Callable[[Sequence[tuple[Any, Any, Any]]], list[int]]


@dataclass
class GameRecord:
    """The outcome of one game."""

    deal: int
    kinds: tuple[int, ...]  # seat -> kind index
    rewards: list[float]
    scores: list[float | None]
    winners: list[int]
    length: int
    #: per game, the final ``results()``' numbers of the game's ``stats.game_keys`` (e.g. "rounds")
    extras: dict[str, float] = field(default_factory=dict)
    #: per seat, the final ``results()``' numbers of the game's ``stats.seat_keys`` (empty list when
    #: the game reports none), e.g. Awkward Guests' accusations, wrong accusations, solved
    seat_stats: list[dict[str, float]] = field(default_factory=list)


@runtime_checkable
class Stepper(Protocol):
    """Plays tournament games for the driver: at most ``batch`` jobs per :meth:`play` call."""

    #: the most jobs one :meth:`play` call takes (the driver hands them in slices of this many)
    batch: int

    def play(self, jobs: Sequence[Job]) -> list[GameRecord]:
        """The records of ``jobs``, in their order. A stepper that plays many games at once may
        say ``reports_progress = True`` and take ``done``: called with 1 as each game ends (the
        driver's progress bar then moves per game, not per batch)."""
        ...


@dataclass(frozen=True)
class Lockstep:
    """A ``batched_tournament`` hook's answer: play per-game envs side by side and hand every
    round's pending decisions to ``decide`` (:class:`parlour.eval.lockstep.LockstepStepper`)."""

    decide: Decide


def agent_seed(seed: int, deal: int, seat: int, kind: int) -> int:
    """The seed of the agent of kind ``kind`` at ``seat`` in deal ``deal`` (every stepper's)."""
    return int(np.random.SeedSequence([seed, deal, seat, kind]).generate_state(1)[0])


class PerGameStepper:
    """One game at a time on one env, each seat's agent ``act``-ing (``agents``: ``(kind,
    seat)`` → agent, reset for each game; ``stats``: the game's :class:`~parlour.games.parts.Statistics`)."""

    batch = 1

    def __init__(self, env: Any, agents: dict[tuple[int, int], Any], seed: int, stats: Any) -> None:
        self.env, self.agents, self.seed, self.stats = env, agents, seed, stats

    def play(self, jobs: Sequence[Job]) -> list[GameRecord]:
        return [self.play_one(job) for job in jobs]

    def play_one(self, job: Job, record: list[int] | None = None) -> GameRecord:
        """One game (``record``: a list the actions played are appended to, for replays)."""
        moves = game_moves(job, self.env, self.agents, self.seed, self.stats)
        request = next(moves)
        while True:
            agent, obs, view = request
            action = agent.act(obs, view)
            if record is not None:
                record.append(int(action))
            try:
                request = moves.send(action)
            except StopIteration as stop:
                return stop.value


def game_moves(
    job: Job, env: Any, agents: dict, seed: int, stats: Any
) -> Generator[tuple[Any, Any, Any], int, GameRecord]:
    """One game as a coroutine: yields ``(agent, observation, view)`` at each decision, is sent
    the action, returns the :class:`GameRecord` (``agents``: ``(kind, seat)`` → agent, reset
    here for the deal). The per-game and lockstep steppers both play through it."""
    deal, kinds = job
    env.reset(seed=seed + deal)
    names = env.possible_agents
    seat_agents = {}
    for s, k in enumerate(kinds):
        agent = agents[(k, s)]
        agent.reset(agent_seed(seed, deal, s, k))
        seat_agents[names[s]] = agent
    length = 0
    rewards = dict.fromkeys(names, 0.0)
    for name in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        rewards[name] += reward
        if term or trunc:
            env.step(None)
            continue
        action = yield seat_agents[name], obs, env.player_view(name)
        env.step(action)
        length += 1
    return _record(job, env, rewards, length, stats)


def _record(job: Job, env: Any, rewards: dict[str, float], length: int, stats: Any) -> GameRecord:
    """The record of a finished game on ``env`` (from its final ``results()``)."""
    names = env.possible_agents
    final_info = env.unwrapped.results()
    score_map = final_info.get("scores", {})
    winners = [names.index(w) for w in final_info.get("winners", [])]
    extras = {k: float(final_info[k]) for k in stats.game_keys if k in final_info}
    seat_stats = []
    if any(k in final_info for k in stats.seat_keys):
        seat_stats = [
            {k: float(final_info[k][a]) for k in stats.seat_keys if k in final_info} for a in names
        ]
    return GameRecord(
        deal=job[0],
        kinds=job[1],
        rewards=[float(rewards[a]) for a in names],
        scores=[score_map.get(a) for a in names],
        winners=winners,
        length=length,
        extras=extras,
        seat_stats=seat_stats,
    )
