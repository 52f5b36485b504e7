"""Tournament games of Audition played in batch (the ``Game.batched_tournament`` hook).

:func:`play_batched` plays the jobs of :func:`parlour.eval.tournament.run_tournament` — deal
``d`` dealt as ``reset(seed=seed + d)``, a seat → agent-kind arrangement — all at once on the
batched engine (:mod:`parlour.envs.audition.batched`), and returns the same
:class:`~parlour.games.stepping.GameRecord` list as the per-game path, decision for decision:

| agent spec | decided how | equal to the per-game agent because |
|---|---|---|
| ``random`` | per game, from a generator seeded like the per-game agent's (``SeedSequence([seed, deal, seat, kind])``) | the same draws from the same generators |
| ``audition.greedy`` | vectorized (:func:`~parlour.games.audition.batched_agents.greedy_actions`) | the same decisions (tested against the scalar one) |
| ``ppo:PATH`` | one forward pass per kind and step over the games where it is to move, argmax of the masked logits | the same network on the same observations |
| ``ppo:PATH:sample`` | batched logits, then a draw per game from its seeded generator | as above |

A tournament with a search agent (``audition.expert``, ``audition.search``: :data:`SEARCH_AGENTS`)
is played in lockstep instead (:mod:`parlour.eval.lockstep`: per-game envs side by side,
the search agents' rollouts of all games batched by
:func:`parlour.games.audition.rollouts.decide_many`, the other agents acting per game). Any other
spec returns ``None``: the tournament plays per game. ``tests/train/test_batched_eval.py`` and
``tests/train/test_lockstep_eval.py`` check the equality against the per-game path.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from parlour.envs.audition import rules as R
from parlour.envs.audition.batched import ENV_OPTIONS, BatchedAudition, StepResult
from parlour.games.audition.batched_agents import greedy_actions, policy_logits

#: games stepped together (bigger tournaments are played in chunks of this many)
CHUNK = 4096
#: agents whose tournaments are played in lockstep (their rollouts batched across games)
SEARCH_AGENTS = ("audition.expert", "audition.search")


def _kind_player(spec: str, trust: bool = False) -> tuple[str, Any] | None:
    if spec in ("random", "audition.greedy"):
        return spec, None
    if spec.startswith("ppo:"):
        from parlour.agents.ppo import load_policy

        path, sample = spec[len("ppo:") :], False
        if path.endswith(":sample"):
            path, sample = path[: -len(":sample")], True
        return ("ppo_sample" if sample else "ppo"), load_policy(path, trust=trust)
    return None


def play_batched(
    players: int,
    specs: Sequence[str],
    jobs: Sequence[tuple[int, tuple[int, ...]]],
    seed: int,
    game_options: dict[str, Any],
    *,
    trust: bool = False,
) -> list[Any] | None:
    """The records of ``jobs`` (``(deal, kinds)``), or ``None`` if a spec cannot play batched or
    an env option has no batched counterpart (``seer``, ``render_mode``: the per-game path).
    ``trust``: pickle-bearing model files may load (``--trust-model``)."""
    if any(spec.partition(":")[0] in SEARCH_AGENTS for spec in specs):
        from parlour.eval.lockstep import play_lockstep
        from parlour.games import get_game
        from parlour.games.audition.rollouts import decide_many

        game = get_game("audition")
        return play_lockstep(
            game, players, specs, jobs, seed, game_options, decide_many, trust=trust
        )
    kinds = [_kind_player(s, trust) for s in specs]
    if any(k is None for k in kinds) or not set(game_options) <= set(ENV_OPTIONS):
        return None
    records = []
    for start in range(0, len(jobs), CHUNK):
        records += _play_chunk(players, kinds, jobs[start : start + CHUNK], seed, game_options)
    return records


def _play_chunk(
    players: int,
    kinds: list[Any],
    jobs: Sequence[tuple[int, tuple[int, ...]]],
    seed: int,
    game_options: dict[str, Any],
) -> list[Any]:
    from parlour.games.stepping import GameRecord

    N = len(jobs)
    eng = BatchedAudition(N, players, auto_reset=False, **game_options)
    eng.reset([seed + deal for deal, _ in jobs])
    seat_kind = np.array([k for _, k in jobs], np.int64)  # (N, players)
    rngs = {
        (i, s): np.random.default_rng(
            int(np.random.SeedSequence([seed, deal, s, k]).generate_state(1)[0])
        )
        for i, (deal, ks) in enumerate(jobs)
        for s, k in enumerate(ks)
    }
    total = StepResult.empty(N, players)
    while True:
        live = np.flatnonzero(eng.phase != R.PH_OVER)
        if len(live) == 0:
            break
        actions = np.zeros(N, np.int64)
        acting = seat_kind[live, eng.current[live]]
        for k in np.unique(acting):
            games = live[acting == k]
            actions[games] = _decide(eng, kinds[int(k)], games, rngs)
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
