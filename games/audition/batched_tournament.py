"""Audition's batched stepper (what the ``Evaluation.batched_tournament`` hook answers).

:func:`play_batched` is the hook (:mod:`parlour.games.stepping`): for a tournament of
:func:`parlour.eval.tournament.run_tournament` it answers :class:`BatchedStepper`, which plays the
driver's jobs — deal ``d`` dealt as ``reset(seed=seed + d)``, a seat → agent-kind arrangement —
:data:`CHUNK` at a time on the batched engine (:mod:`parlour.envs.audition.batched`), and returns
the same :class:`~parlour.games.stepping.GameRecord` list as the per-game stepper, decision for
decision:

| agent spec | decided how | equal to the per-game agent because |
|---|---|---|
| ``random`` | per game, from a generator seeded like the per-game agent's (``SeedSequence([seed, deal, seat, kind])``) | the same draws from the same generators |
| ``audition.greedy`` | vectorized (:func:`~parlour.games.audition.batched_agents.greedy_actions`) | the same decisions (tested against the scalar one) |
| ``ppo:PATH`` | one forward pass per kind and step over the games where it is to move, argmax of the masked logits | the same network on the same observations |
| ``ppo:PATH:sample`` | batched logits, then a draw per game from its seeded generator | as above |

| the tournament's agents and options | the hook answers | so the games are played |
|---|---|---|
| a search agent (``audition.expert``, ``audition.search``: :data:`SEARCH_AGENTS`) | :class:`~parlour.games.stepping.Lockstep` of :func:`~parlour.games.audition.rollouts.decide_many` | in lockstep (:mod:`parlour.eval.lockstep`: per-game envs side by side, the search agents' rollouts of all games batched, the other agents acting per game) |
| every spec in the table above, every env option known to the engine | :class:`BatchedStepper` | batched |
| anything else (another spec, ``seer``, ``render_mode``) | ``None`` | per game |

``tests/train/test_batched_eval.py``, ``tests/train/test_lockstep_eval.py`` and
``tests/train/test_steppers.py`` check the equality against the per-game stepper.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from parlour.agents.ppo import load_policy, policy_logits
from parlour.envs.audition import rules as R
from parlour.envs.audition.batched import ENV_OPTIONS, BatchedAudition
from parlour.envs.audition.step_result import StepResult
from parlour.games.audition.batched_agents import greedy_actions
from parlour.games.audition.rollouts import decide_many
from parlour.games.stepping import GameRecord, Job, Lockstep, agent_seed

#: games stepped together (the driver hands the stepper batches of this many)
CHUNK = 4096
#: agents whose tournaments are played in lockstep (their rollouts batched across games)
SEARCH_AGENTS = ("audition.expert", "audition.search")


def _kind_player(spec: str, trust: bool = False) -> tuple[str, Any] | None:
    if spec in ("random", "audition.greedy"):
        return spec, None
    if spec.startswith("ppo:"):
        path, sample = spec[len("ppo:") :], False
        if path.endswith(":sample"):
            path, sample = path[: -len(":sample")], True
        return ("ppo_sample" if sample else "ppo"), load_policy(path, trust=trust)
    return None


def play_batched(
    players: int,
    specs: Sequence[str],
    seed: int,
    game_options: dict[str, Any],
    *,
    trust: bool = False,
) -> BatchedStepper | Lockstep | None:
    """The hook: how this tournament's games are played (the table above); ``None`` if a spec
    cannot play batched or an env option has no batched counterpart (``seer``, ``render_mode``:
    the per-game path). ``trust``: pickle-bearing model files may load (``--trust-model``)."""
    if any(spec.partition(":")[0] in SEARCH_AGENTS for spec in specs):
        return Lockstep(decide_many)
    kinds = [_kind_player(s, trust) for s in specs]
    if any(k is None for k in kinds) or not set(game_options) <= set(ENV_OPTIONS):
        return None
    return BatchedStepper(players, kinds, seed, game_options)


class BatchedStepper:
    """Plays up to :data:`CHUNK` games at once on one batched engine (``kinds``: per agent spec,
    ``(name, policy)`` from :func:`_kind_player`)."""

    batch = CHUNK
    #: ``play`` calls ``done(k)`` as ``k`` games end (the progress bar moves per game)
    reports_progress = True

    def __init__(
        self, players: int, kinds: list[Any], seed: int, game_options: dict[str, Any]
    ) -> None:
        self.players, self.kinds, self.seed, self.game_options = players, kinds, seed, game_options

    def play(
        self, jobs: Sequence[Job], done: Callable[[int], Any] | None = None
    ) -> list[GameRecord]:
        """The records of ``jobs``, in order; ``done(k)`` as ``k`` more of them end."""
        N, seed = len(jobs), self.seed
        eng = BatchedAudition(N, self.players, auto_reset=False, **self.game_options)
        eng.reset([seed + deal for deal, _ in jobs])
        seat_kind = np.array([k for _, k in jobs], np.int64)  # (N, players)
        rngs = {
            (i, s): np.random.default_rng(agent_seed(seed, deal, s, k))
            for i, (deal, ks) in enumerate(jobs)
            for s, k in enumerate(ks)
        }
        total = StepResult.empty(N, self.players)
        running = N
        while True:
            live = np.flatnonzero(eng.phase != R.PH_OVER)
            if done is not None and len(live) < running:
                done(running - len(live))
            running = len(live)
            if len(live) == 0:
                break
            actions = np.zeros(N, np.int64)
            acting = seat_kind[live, eng.current[live]]
            for k in np.unique(acting):
                games = live[acting == k]
                actions[games] = _decide(eng, self.kinds[int(k)], games, rngs)
            total.merge(eng.step(actions, games=live))
        return [
            GameRecord(
                deal=deal,
                kinds=tuple(ks),
                rewards=[float(r) for r in total.rewards[i]],
                scores=[int(x) for x in total.scores[i]],
                winners=[int(p) for p in np.flatnonzero(total.winners[i])],
                length=int(total.lengths[i]),
            )
            for i, (deal, ks) in enumerate(jobs)
        ]


def _decide(eng: BatchedAudition, kind: tuple[str, Any], games: np.ndarray, rngs: dict) -> Any:
    name, policy = kind
    if name == "audition.greedy":
        return greedy_actions(eng, games)
    mask = eng.legal_mask()[games]
    seats = eng.current[games]
    if name == "random":
        out = []
        for j, i in enumerate(games):
            legal = np.flatnonzero(mask[j])
            out.append(legal[rngs[(int(i), int(seats[j]))].integers(legal.size)])
        return np.array(out, np.int64)
    logits = policy_logits(policy, eng.observe(seats, games), mask)
    if name == "ppo":
        return logits.argmax(axis=1)
    out = []
    for j, i in enumerate(games):
        p = np.exp(logits[j] - logits[j].max())
        p /= p.sum()
        out.append(rngs[(int(i), int(seats[j]))].choice(p.size, p=p))
    return np.array(out, np.int64)
