"""Batched determinized rollouts for the Audition search agents (``audition.expert``,
``audition.search``).

A search decision tries every candidate action in every sampled world (a full engine state
consistent with the player's view, :func:`parlour.envs.audition.determinize.sample_hidden`) and
plays each line to the end of the game (or to a :class:`Cut`, then a value estimate). Here all ``worlds × actions`` lines of a decision (or of
several decisions: :func:`rollout_values` takes a list) are one batch of the batched engine
(:class:`parlour.envs.audition.batched.BatchedAudition`: the position loaded with
:meth:`~parlour.envs.audition.batched.BatchedAudition.load_positions`, each world's hidden cards
with :meth:`~parlour.envs.audition.batched.BatchedAudition.load_hidden`), stepped together, every
seat's move chosen for all live lines at once by a vectorized player (:data:`Player`):

| player | decides like |
|---|---|
| :func:`parlour.games.audition.batched_agents.greedy_actions` | ``audition.greedy`` (decision for decision) |
| :func:`policy_player` | a PPO policy: argmax of the masked logits, or a draw from them with a generator |

Search agents split a decision into their ``plan(observation, view)`` (sample the worlds: a
:class:`Plan`, or an action when there is nothing to search) and :attr:`Plan.choose` (the action from the values), so
that :func:`decide_many` can run the rollouts of many games' decisions as one batch (the
tournament's lockstep path, :mod:`parlour.eval.lockstep`): plans with the same ``key`` (the
same rollout player and cut) share one engine, and each decision gets exactly the values it
would get alone.

The value of a line for the searching seat is ``win reward + SCORE_WEIGHT · score reward`` at
the end of the game (:func:`final_values`), computed with the same float operations as the rules engine's
:meth:`~parlour.envs.audition.rules.AuditionState.returns` (so a batched search sums exactly the
numbers the scalar one did).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from parlour.envs.audition import rules as R
from parlour.envs.audition.batched import BatchedAudition
from parlour.envs.audition.determinize import Hidden
from parlour.games.audition.batched_agents import policy_actions

#: weight of the score reward beside the win reward in a line's value (breaks ties between
#: equally winning lines)
SCORE_WEIGHT = 0.1
#: the winners' order: points first, then scoring quartets (fewer than this many)
_TIE = R.MAX_NUMBER + 1

#: a vectorized player: ``play(engine, games)`` → the action of the player to act in each game
Player = Callable[[BatchedAudition, np.ndarray], np.ndarray]


@dataclass
class Decision:
    """One search decision: the sampled worlds (the position ``base`` with each of the
    ``hidden`` card samples, :func:`~parlour.envs.audition.determinize.sample_hidden`), the
    candidate ``actions`` tried in every world, and the searching ``seat``."""

    base: R.AuditionState
    hidden: Sequence[Hidden]
    actions: Sequence[int]
    seat: int


@dataclass
class Plan:
    """A search agent's decision waiting for its rollouts: ``decision`` is played by ``play``
    (with ``cut``); ``choose(values)`` turns its ``(worlds, actions)`` values into the action.
    Plans of one ``key`` may be rolled out in one batch (the same ``play`` and ``cut``)."""

    decision: Decision
    play: Player
    cut: Cut | None
    key: tuple
    choose: Callable[[np.ndarray], int]

    def run(self) -> int:
        """The action, rolled out alone."""
        (values,) = rollout_values([self.decision], self.play, self.cut)
        return self.choose(values)


def decide_many(requests: Sequence[tuple[Any, Any, Any]]) -> list[int]:
    """The actions of ``(agent, observation, view)`` requests (one table): agents with a
    ``plan`` method have their rollouts batched with every other plan of the same key, the
    others ``act``. Each action is the one ``agent.act(observation, view)`` would return."""
    out: list[int] = [0] * len(requests)
    groups: dict[tuple, list[tuple[int, Plan]]] = {}
    for j, (agent, observation, view) in enumerate(requests):
        plan = getattr(agent, "plan", None)
        if plan is None:
            out[j] = int(agent.act(observation, view))
            continue
        p = plan(observation, view)
        if isinstance(p, Plan):
            groups.setdefault(p.key, []).append((j, p))
        else:
            out[j] = int(p)
    for items in groups.values():
        first = items[0][1]
        values = rollout_values([p.decision for _, p in items], first.play, first.cut)
        for (j, p), v in zip(items, values, strict=True):
            out[j] = p.choose(v)
    return out


@dataclass
class Cut:
    """Stop a line early: once ``depth`` decisions have followed the tried action, at the
    searching seat's next decision, and take ``estimate(engine, games, seats)`` (the expected
    final value of each line for its seat) instead of playing on."""

    depth: int
    estimate: Callable[[BatchedAudition, np.ndarray, np.ndarray], np.ndarray]


def rollout_values(
    decisions: Sequence[Decision], play: Player, cut: Cut | None = None
) -> list[np.ndarray]:
    """Per decision a ``(worlds, actions)`` array: the value for its seat of playing action
    ``j`` in world ``w`` and then ``play`` for every seat to the end of the game (or to the
    ``cut``, then its estimate).

    All decisions must be of one player count, uncertain-counts setting and table (mini or not)."""
    bases, first, seat_list = [], [], []
    for d in decisions:
        lines = len(d.hidden) * len(d.actions)
        bases += [d.base] * lines
        first += list(d.actions) * len(d.hidden)  # line w · actions + j: action j in world w
        seat_list += [d.seat] * lines
    if not bases:
        return [np.zeros((len(d.hidden), len(d.actions))) for d in decisions]
    config = bases[0].config
    eng = BatchedAudition(
        len(bases),
        config.num_players,
        uncertain_counts=config.uncertain_counts,
        mini=config.mini,
        auto_reset=False,
        deal=False,  # every game is loaded below
    )
    eng.load_positions(bases)
    at = 0
    for d in decisions:
        lines, per_world = len(d.hidden) * len(d.actions), len(d.actions)
        eng.load_hidden(
            np.arange(at, at + lines),
            np.repeat(np.array([h.deck for h in d.hidden], np.int8), per_world, axis=0),
            np.repeat(np.array([h.removed for h in d.hidden], np.int8), per_world, axis=0),
            np.repeat([h.drawn for h in d.hidden], per_world),
        )
        at += lines
    eng.step(np.asarray(first, np.int64))
    seats = np.asarray(seat_list, np.int64)
    values = np.zeros(eng.N)
    playing = np.ones(eng.N, bool)  # not cut
    actions = np.zeros(eng.N, np.int64)
    steps = 0
    while True:
        over = eng.phase == R.PH_OVER
        if cut is not None and steps >= cut.depth:
            stop = np.flatnonzero(playing & ~over & (eng.current == seats))
            if len(stop):
                values[stop] = cut.estimate(eng, stop, seats[stop])
                playing[stop] = False
        live = np.flatnonzero(playing & ~over)
        if len(live) == 0:
            break
        actions[live] = play(eng, live)
        eng.step(actions, games=live)
        steps += 1
    end = np.flatnonzero(playing)
    values[end] = final_values(eng.points[end], eng.quartets[end], seats[end])
    out, at = [], 0
    for d in decisions:
        size = len(d.hidden) * len(d.actions)
        out.append(values[at : at + size].reshape(len(d.hidden), len(d.actions)))
        at += size
    return out


def final_values(points: np.ndarray, quartets: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """``win + SCORE_WEIGHT · score`` reward of ``seats[i]`` in finished game ``i`` (``points``,
    ``quartets``: ``(m, n)``), by the rules engine's float operations
    (:func:`parlour.envs.audition.rules.win_rewards`, ``returns("score")``)."""
    n = points.shape[1]
    key = points * _TIE + quartets
    winners = key == key.max(axis=1, keepdims=True)
    share = n / (n - 1) / winners.sum(axis=1)
    rows = np.arange(len(seats))
    win = np.where(winners[rows, seats], share, 0.0) - 1.0 / (n - 1)
    mean = points.sum(axis=1) / n
    score = (points[rows, seats] - mean) / 10.0
    return win + SCORE_WEIGHT * score


def policy_player(policy: Any, rng: np.random.Generator | None = None) -> Player:
    """A :data:`Player` of a PPO ``policy``: one forward pass over the games, the most probable
    legal action (or, with ``rng``, one drawn from the masked policy)."""

    def play(eng: BatchedAudition, games: np.ndarray) -> np.ndarray:
        obs = eng.observe(eng.current[games], games)
        return policy_actions(policy, obs, eng.legal_mask()[games], rng)

    return play


def value_estimate(policy: Any) -> Callable[[BatchedAudition, np.ndarray, np.ndarray], np.ndarray]:
    """A :class:`Cut` estimate from a PPO ``policy``'s value head: its value of the seat's
    observation (the expected win reward, for a model trained with ``reward_mode: win``) plus
    ``SCORE_WEIGHT`` × the seat's score reward at that point."""
    import torch

    def estimate(eng: BatchedAudition, games: np.ndarray, seats: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            obs = torch.as_tensor(eng.observe(seats, games), dtype=torch.float32)
            v = policy.predict_values(obs).numpy()[:, 0].astype(np.float64)
        points = eng.points[games]
        mean = points.sum(axis=1) / eng.n
        score = (points[np.arange(len(games)), seats] - mean) / 10.0
        return v + SCORE_WEIGHT * score

    return estimate
