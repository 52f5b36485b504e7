"""The level table: what the generator's levels are like, measured over many seeds.

``level_table(seeds)`` generates ``seeds`` cases per level (seeds ``0..seeds-1``) and measures,
per level:

=====================  ==========================================================================
column                 meaning
=====================  ==========================================================================
``share_mean/median``  share of the deck, dealt in a random order, read until the deduction
                       engine leaves exactly one solution (one seeded order per case)
``cards_mean/median``  the same in cards
``accomplice``         share of cases with an accomplice
``categories``         share of facts per category: motive (testimony, evidence), alibi
                       (seen_before, seen_at_murder, guest_count, claim), weapon (sign_absent,
                       weapon_unused), movement (passage_unused), conspiracy (together, apart,
                       alone)
``direct``             share of facts that give a piece of the answer directly (weapon_unused,
                       seen_at_murder)
``red_herrings``       mean red-herring facts per case: confirming boxes of motives that are not
                       the crime's, ``together`` sightings that are not of the culprit pair
``values``             share of cards of value 1 / 2 / 3
``removes``            mean share of the candidates (360, or 5,760 from ``medium`` on) a single
                       card removes on its own
``gen_ms``             generation + verification time per case, median and 95th percentile, as
                       process CPU time (``time.process_time``: other jobs on a busy machine
                       do not inflate it)
=====================  ==========================================================================

:func:`format_table` prints it as plain text; the dict is JSON-ready (``parlour case stats
--json PATH``).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from .board import WALTON, Board
from .case import LEVELS, Case
from .deduction import Deduction
from .generator import generate_case

__all__ = [
    "CATEGORIES",
    "cards_until_unique",
    "case_stats",
    "level_stats",
    "level_table",
    "format_table",
]

#: fact type -> category
CATEGORIES: dict[str, str] = {
    "testimony": "motive",
    "evidence": "motive",
    "seen_before": "alibi",
    "seen_at_murder": "alibi",
    "guest_count": "alibi",
    "claim": "alibi",
    "sign_absent": "weapon",
    "weapon_unused": "weapon",
    "passage_unused": "movement",
    "together": "conspiracy",
    "apart": "conspiracy",
    "alone": "conspiracy",
}
CATEGORY_NAMES = ("motive", "alibi", "weapon", "movement", "conspiracy")
DIRECT_TYPES = ("weapon_unused", "seen_at_murder")


def cards_until_unique(case: Case, order: list[int] | np.ndarray, board: Board = WALTON) -> int:
    """How many cards, read in ``order`` (indices into ``case.cards``), until exactly one
    solution is left (``len(order) + 1`` if never)."""
    d = Deduction(case.accomplice_possible, board)
    for n, i in enumerate(order, start=1):
        d.add_facts(case.cards[int(i)].facts, validate=False)
        if d.count() == 1:
            return n
    return len(order) + 1


def _red_herring(fact: dict, case: Case) -> bool:
    s = case.solution
    if fact["type"] in ("testimony", "evidence"):
        return fact["verdict"] == "confirms" and fact["motive"] not in (
            s.motive,
            s.accomplice_motive,
        )
    if fact["type"] == "together":
        return set(fact["suspects"]) != {s.murderer, s.accomplice}
    return False


def case_stats(case: Case, rng: np.random.Generator, board: Board = WALTON) -> dict[str, Any]:
    """Measurements of one case (one random reading order drawn from ``rng``)."""
    n = len(case.cards)
    until = cards_until_unique(case, rng.permutation(n), board)
    facts = case.facts()
    cats = dict.fromkeys(CATEGORY_NAMES, 0)
    for f in facts:
        cats[CATEGORIES[f["type"]]] += 1
    total = Deduction(case.accomplice_possible, board).count()
    removes = []
    for c in case.cards:
        d = Deduction(case.accomplice_possible, board)
        d.add_facts(c.facts, validate=False)
        removes.append(1.0 - d.count() / total)
    return {
        "cards": n,
        "until": until,
        "share": until / n,
        "accomplice": case.solution.accomplice is not None,
        "categories": cats,
        "facts": len(facts),
        "direct": sum(f["type"] in DIRECT_TYPES for f in facts),
        "red_herrings": sum(_red_herring(f, case) for f in facts),
        "values": [sum(c.value == v for c in case.cards) for v in (1, 2, 3)],
        "removes": float(np.mean(removes)),
    }


def level_stats(
    level: str, seeds: int, deck_size: int = 70, board: Board = WALTON
) -> dict[str, Any]:
    """The level-table row of ``level`` over seeds ``0..seeds-1``."""
    rows, times = [], []
    for seed in range(seeds):
        t0 = time.process_time()
        case = generate_case(level, seed, deck_size, board)
        times.append(time.process_time() - t0)
        rows.append(case_stats(case, np.random.default_rng([7, seed]), board))
    shares = np.array([r["share"] for r in rows])
    until = np.array([r["until"] for r in rows])
    nfacts = sum(r["facts"] for r in rows)
    ncards = sum(r["cards"] for r in rows)
    ms = np.array(times) * 1e3
    return {
        "level": level,
        "cases": seeds,
        "share_mean": float(shares.mean()),
        "share_median": float(np.median(shares)),
        "cards_mean": float(until.mean()),
        "cards_median": float(np.median(until)),
        "accomplice": float(np.mean([r["accomplice"] for r in rows])),
        "categories": {c: sum(r["categories"][c] for r in rows) / nfacts for c in CATEGORY_NAMES},
        "direct": sum(r["direct"] for r in rows) / nfacts,
        "red_herrings": float(np.mean([r["red_herrings"] for r in rows])),
        "facts_per_card": nfacts / ncards,
        "values": [sum(r["values"][v] for r in rows) / ncards for v in range(3)],
        "removes": float(np.mean([r["removes"] for r in rows])),
        "gen_ms_median": float(np.median(ms)),
        "gen_ms_p95": float(np.percentile(ms, 95)),
    }


def level_table(
    seeds: int = 50, deck_size: int = 70, levels: tuple[str, ...] = LEVELS, board: Board = WALTON
) -> dict[str, Any]:
    """The level table for every level (JSON-ready)."""
    return {
        "seeds": seeds,
        "deck_size": deck_size,
        "levels": [level_stats(lv, seeds, deck_size, board) for lv in levels],
    }


def format_table(table: dict[str, Any]) -> str:
    """The level table as plain text."""
    head = (
        f"{'level':<10} {'share mean':>10} {'median':>6} {'cards':>6} {'acc':>5} "
        f"{'motive':>6} {'alibi':>6} {'weapon':>6} {'move':>6} {'consp':>6} {'direct':>6} "
        f"{'herr':>5} {'f/card':>6} {'v1':>5} {'v2':>5} {'v3':>5} {'removes':>7} "
        f"{'ms med':>6} {'ms p95':>6}"
    )
    lines = [
        f"Awkward Guests level table: {table['seeds']} cases per level, "
        f"{table['deck_size']} cards, one random reading order per case",
        head,
        "-" * len(head),
    ]
    for r in table["levels"]:
        c = r["categories"]
        v = r["values"]
        lines.append(
            f"{r['level']:<10} {r['share_mean']:>10.1%} {r['share_median']:>6.1%} "
            f"{r['cards_mean']:>6.1f} {r['accomplice']:>5.0%} "
            f"{c['motive']:>6.0%} {c['alibi']:>6.0%} {c['weapon']:>6.0%} {c['movement']:>6.0%} "
            f"{c['conspiracy']:>6.0%} {r['direct']:>6.0%} {r['red_herrings']:>5.1f} "
            f"{r['facts_per_card']:>6.2f} {v[0]:>5.0%} {v[1]:>5.0%} {v[2]:>5.0%} "
            f"{r['removes']:>7.1%} {r['gen_ms_median']:>6.1f} {r['gen_ms_p95']:>6.1f}"
        )
    lines.append(
        "share = part of the deck read (random order) until the solution is unique; "
        "acc = cases with an accomplice; motive..consp = fact categories; direct = "
        "weapon_unused/seen_at_murder facts; herr = red-herring facts per case; "
        "v1..v3 = card values; removes = candidates one card removes alone"
    )
    return "\n".join(lines)
