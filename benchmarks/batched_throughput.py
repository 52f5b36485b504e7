"""Batched Audition throughput: ``N`` games stepped as arrays, masks and observations included.

Ours: :class:`parlour.envs.audition.batched.BatchedAudition` at batch 4,096, 2 players, random
legal play (:func:`parlour.games.audition.batched_agents.random_actions`): per step the legal masks,
the acting players' observations and one batched step (auto-reset included), counting one step
per game. Peers, timed in the same run: the ``audition_v1`` AEC env (masked random play through
``env()``, as the ``aec`` section measures it) and OpenSpiel's C++ ``kuhn_poker`` (the
``engine`` section's loop; needs the ``bench`` extra).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

#: games stepped together in the batched figure (the target's batch)
BATCH = 4096
CPP_PEER = "kuhn_poker"
AEC_PEER = "audition_v1 2p (AEC env)"


def batched_rate(steps: int, seed: int = 0, batch: int = BATCH, num_players: int = 2) -> float:
    """Game steps/s of the batched engine (each batched step moves ``batch`` games)."""
    from parlour.envs.audition.batched import BatchedAudition
    from parlour.games.audition.batched_agents import random_actions

    eng = BatchedAudition(batch, num_players, seed=seed)
    rng = np.random.default_rng(seed)
    rounds = max(1, steps // batch)
    t0 = time.perf_counter()
    for _ in range(rounds):
        mask = eng.legal_mask()
        eng.observe(eng.current)
        eng.step(random_actions(mask, rng))
    return rounds * batch / (time.perf_counter() - t0)


def cases(steps: int) -> dict[str, Callable[[int], float]]:
    from parlour.benchmarks import aec_throughput as A
    from parlour.benchmarks import engine_throughput as E

    out: dict[str, Callable[[int], float]] = {
        "batched audition 2p": lambda s: batched_rate(steps * 50, s),
        AEC_PEER: lambda s: A.aec_steps_per_second(A.ours()["audition_v1 2p"], steps, seed=s),
    }
    try:
        E.openspiel_rate(CPP_PEER, 10, 0)
        out[CPP_PEER] = lambda s: E.openspiel_rate(CPP_PEER, steps * 5, s)
    except ImportError as exc:
        print(f"OpenSpiel peer unavailable (install the bench extra): {exc}")
    return out


def figures(steps: int, repeats: int, figure: Callable[..., dict[str, Any]], interleaved) -> list:
    """The section's figures (``figure`` and ``interleaved`` are ``parlour bench``'s helpers)."""
    rates = interleaved(cases(steps), repeats)
    ours = rates["batched audition 2p"]
    name = f"batched audition 2p, batch {BATCH}, masks + observations"
    figs = [figure(name, ours, "steps/s", AEC_PEER, rates[AEC_PEER], repeats=repeats)]
    if CPP_PEER in rates:
        figs.append(figure(name, ours, "steps/s", CPP_PEER, rates[CPP_PEER], repeats=repeats))
    return figs
