"""Awkward Guests case engine and reset figures (wall-clock ``time.perf_counter``).

* case generation + verification per level: median and p95 over seeds;
* the deduction engine: adding one card's facts (+ ``count()``), and ``solve`` from all 70
  cards, median and p95 over the cards of generated decks in a seeded random order;
* ``reset()`` of ``awkward_guests_v1`` with a freshly generated case (4 players), median/p95.

Targets (``docs/performance.md#targets``): generation + verification and ``reset()`` < 50 ms median; adding
a card < 1 ms median.
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from parlour.benchmarks.figures import figure as _figure


def _p95(xs: list[float]) -> float:
    return float(np.percentile(xs, 95))


def figures(quick: bool = False) -> list[dict]:
    from parlour.envs import awkward_guests_v1
    from parlour.envs.awkward_guests import LEVELS, Deduction, generate_case, solve

    seeds = 8 if quick else 40
    figs: list[dict] = []
    decks = []
    generate_case("easy", 10_000)  # build the engine's per-board tables once, outside timing
    for level in LEVELS:
        times = []
        for seed in range(seeds):
            t0 = time.perf_counter()
            case = generate_case(level, seed)
            times.append((time.perf_counter() - t0) * 1e3)
            if seed < 3:
                decks.append(case)
        figs.append(
            _figure(f"case generation {level} median", statistics.median(times), "ms", seeds=seeds)
        )
        figs.append(_figure(f"case generation {level} p95", _p95(times), "ms", seeds=seeds))

    rng = np.random.default_rng(0)
    add_ms, solve_ms = [], []
    for case in decks:
        ded = Deduction(case.accomplice_possible)
        for i in rng.permutation(len(case.cards)):
            t0 = time.perf_counter()
            ded.add_facts(case.cards[i].facts)
            ded.count()
            add_ms.append((time.perf_counter() - t0) * 1e3)
        facts = [f for card in case.cards for f in card.facts]
        t0 = time.perf_counter()
        solve(facts, case.accomplice_possible)
        solve_ms.append((time.perf_counter() - t0) * 1e3)
    n = len(add_ms)
    figs.append(
        _figure("deduction add one card + count, median", statistics.median(add_ms), "ms", cards=n)
    )
    figs.append(_figure("deduction add one card + count, p95", _p95(add_ms), "ms", cards=n))
    figs.append(
        _figure(
            "deduction solve from all 70 cards, median",
            statistics.median(solve_ms),
            "ms",
            decks=len(decks),
        )
    )

    env = awkward_guests_v1.env(num_players=4, level="medium")
    env.reset(seed=0)
    resets = []
    for seed in range(1, (10 if quick else 60) + 1):
        t0 = time.perf_counter()
        env.reset(seed=seed)
        resets.append((time.perf_counter() - t0) * 1e3)
    figs.append(
        _figure(
            "reset() 4p medium (generated case), median",
            statistics.median(resets),
            "ms",
            resets=len(resets),
        )
    )
    figs.append(
        _figure("reset() 4p medium (generated case), p95", _p95(resets), "ms", resets=len(resets))
    )
    return figs
