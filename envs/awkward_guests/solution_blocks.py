"""The solution-shaped observation blocks of Awkward Guests: ``deduced_*`` (what a deduction
state still allows), ``accusation_*`` (what it allows for the part of an accusation being
named, given the parts named so far), ``accusation_shares`` (how many of the candidates left make
each of those choices), ``accusation_odds`` (the chance of the likeliest candidate left that
makes each, under the case generator's odds) and ``seer_solution`` (the hidden solution, debugging only),
as laid out in :mod:`parlour.envs.awkward_guests.observation`."""

from __future__ import annotations

import functools
import math

import numpy as np

from . import actions as A
from .case.board import WALTON
from .case.deduction import Deduction
from .case.solution import candidate_solutions

N_SUSPECTS = len(WALTON.suspects)
N_MOTIVES = len(WALTON.motives)
N_WEAPONS = len(WALTON.weapons)
#: candidate solutions with an accomplice possible (``deduced_count`` is a log over these)
NUM_CANDIDATES = 5760

_SUSPECT_IDX = {s: i for i, s in enumerate(WALTON.suspects)}
_MOTIVE_IDX = {m.id: i for i, m in enumerate(WALTON.motives)}
_WEAPON_IDX = {w.id: i for i, w in enumerate(WALTON.weapons)}


def deduced_vector(ded: Deduction) -> np.ndarray:
    """The ``deduced_*`` blocks of a deduction state (71 floats)."""
    arrays = getattr(ded, "possible_arrays", None)
    if arrays is not None:
        poss = arrays()
        count = ded.count()
        last = math.log(count) / math.log(NUM_CANDIDATES) if count > 1 else 0.0
        return np.concatenate(
            [
                poss["murderers"],
                poss["motives"],
                poss["weapons"],
                poss["accomplices"],
                poss["accomplice_motives"],
                [last],
            ]
        ).astype(np.float32)
    poss = ded.possible()
    out = np.zeros(
        N_SUSPECTS + N_MOTIVES + N_WEAPONS + N_SUSPECTS + 1 + N_MOTIVES + 1 + 1, np.float32
    )
    o = 0
    for s in poss["murderers"]:
        out[o + _SUSPECT_IDX[s]] = 1.0
    o += N_SUSPECTS
    for m in poss["motives"]:
        out[o + _MOTIVE_IDX[m]] = 1.0
    o += N_MOTIVES
    for w in poss["weapons"]:
        out[o + _WEAPON_IDX[w]] = 1.0
    o += N_WEAPONS
    for a in poss["accomplices"]:
        out[o + (N_SUSPECTS if a is None else _SUSPECT_IDX[a])] = 1.0
    o += N_SUSPECTS + 1
    for m in poss["accomplice_motives"]:
        out[o + (N_MOTIVES if m is None else _MOTIVE_IDX[m])] = 1.0
    o += N_MOTIVES + 1
    count = ded.count()
    out[o] = math.log(count) / math.log(NUM_CANDIDATES) if count > 1 else 0.0
    return out


def solution_vector(solution) -> np.ndarray:
    """One-hot of a solution (the ``seer_solution`` block, 70 floats)."""
    out = np.zeros(N_SUSPECTS + N_MOTIVES + N_WEAPONS + N_SUSPECTS + 1 + N_MOTIVES + 1, np.float32)
    o = 0
    out[o + _SUSPECT_IDX[solution.murderer]] = 1.0
    o += N_SUSPECTS
    out[o + _MOTIVE_IDX[solution.motive]] = 1.0
    o += N_MOTIVES
    out[o + _WEAPON_IDX[solution.weapon]] = 1.0
    o += N_WEAPONS
    a = solution.accomplice
    out[o + (N_SUSPECTS if a is None else _SUSPECT_IDX[a])] = 1.0
    o += N_SUSPECTS + 1
    am = solution.accomplice_motive
    out[o + (N_MOTIVES if am is None else _MOTIVE_IDX[am])] = 1.0
    return out


@functools.cache
def accusation_table(accomplice_possible: bool) -> np.ndarray:
    """(candidates, 5) ints in the engine's accusation order: murderer, motive, weapon,
    accomplice (-1: none), accomplice motive (-1: none), aligned with ``candidate_mask()``."""

    def idx(names: tuple[str, ...], x: str | None) -> int:
        return -1 if x is None else names.index(x)

    rows = [
        (
            idx(A.SUSPECTS, s.murderer),
            idx(A.MOTIVES, s.motive),
            idx(A.WEAPONS, s.weapon),
            idx(A.SUSPECTS, s.accomplice),
            idx(A.MOTIVES, s.accomplice_motive),
        )
        for s in candidate_solutions(accomplice_possible)
    ]
    table = np.array(rows, np.int64)
    table.flags.writeable = False
    return table


#: offset of each accusation part (engine order) inside a 70-float solution-shaped vector:
#: murderer (6), motive (18), weapon (20), accomplice (6 + none), accomplice motive (18 + none)
PART_OFFSETS = (
    0,
    N_SUSPECTS,
    N_SUSPECTS + N_MOTIVES,
    N_SUSPECTS + N_MOTIVES + N_WEAPONS,
    N_SUSPECTS + N_MOTIVES + N_WEAPONS + N_SUSPECTS + 1,
)
#: the "none" entry of the two accomplice parts (relative to their offsets)
PART_NONE = (None, None, None, N_SUSPECTS, N_MOTIVES)
SOLUTION_SIZE = PART_OFFSETS[-1] + N_MOTIVES + 1  # 70


def _matching(ded: Deduction, named: tuple[int, ...] | list[int]) -> np.ndarray:
    """Indices of the candidates left by ``ded`` that match every part named so far."""
    table = accusation_table(ded.accomplice_possible)
    ok = ded.candidate_mask().copy()
    for i, value in enumerate(named):
        ok &= table[:, i] == value
    return np.flatnonzero(ok)


def _next_part_counts(
    ded: Deduction, named: tuple[int, ...] | list[int]
) -> tuple[np.ndarray, np.ndarray]:
    """The choices (engine order, -1: none) of the part after ``named`` that some candidate left
    by ``ded`` makes while matching every part named so far, sorted, and how many such
    candidates make each; both empty when no candidate matches (or every part is named)."""
    part = len(named)
    if part >= len(PART_OFFSETS):
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    table = accusation_table(ded.accomplice_possible)
    return np.unique(table[_matching(ded, named), part], return_counts=True)


def next_part_choices(ded: Deduction, named: tuple[int, ...] | list[int]) -> list[int]:
    """The choices (engine order, -1: none) of the part after ``named`` (the accusation so far)
    that some candidate left by ``ded`` makes while matching every part named so far, sorted;
    empty when no candidate matches (or every part is named)."""
    return _next_part_counts(ded, named)[0].tolist()


def _part_vector(part: int, values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    out = np.zeros(SOLUTION_SIZE, np.float32)
    for value, weight in zip(values.tolist(), weights.tolist(), strict=True):
        none = PART_NONE[part]
        out[PART_OFFSETS[part] + (none if value < 0 else value)] = weight
    return out


def accusation_blocks(
    ded: Deduction, named: tuple[int, ...] | list[int]
) -> tuple[np.ndarray, np.ndarray]:
    """The ``accusation_*`` blocks and the ``accusation_shares`` block (70 floats each, from one
    pass over the candidates): 1 for each of :func:`next_part_choices` in the block of the part
    after ``named``, and for each of them the share of the candidates matching ``named`` that
    make it (the shares of a part sum to 1); the other parts are 0."""
    values, counts = _next_part_counts(ded, named)
    part = len(named)
    total = max(int(counts.sum()), 1)
    return _part_vector(part, values, np.ones(len(values))), _part_vector(
        part, values, counts / total
    )


def accusation_odds(
    ded: Deduction, named: tuple[int, ...] | list[int], log_weights: np.ndarray
) -> np.ndarray:
    """The ``accusation_odds`` block (70 floats, laid out as the ``accusation_*`` blocks): for
    each of :func:`next_part_choices`, the probability of the likeliest candidate that makes it,
    among the candidates matching ``named`` weighed by ``exp(log_weights)``
    (:func:`~parlour.envs.awkward_guests.case.generator.odds.candidate_log_weights`,
    normalised over them; equal weights where the model rules them all out); the other parts
    are 0. With nothing named, the largest entry (in the murderer block) is the probability of
    the likeliest candidate left."""
    part = len(named)
    if part >= len(PART_OFFSETS):
        return np.zeros(SOLUTION_SIZE, np.float32)
    idx = _matching(ded, named)
    if len(idx) == 0:
        return np.zeros(SOLUTION_SIZE, np.float32)
    weights = log_weights[idx]
    top = weights.max()
    chance = np.exp(weights - top) if np.isfinite(top) else np.ones(len(idx))
    chance /= chance.sum()
    values, inverse = np.unique(
        accusation_table(ded.accomplice_possible)[idx, part], return_inverse=True
    )
    best = np.zeros(len(values))
    np.maximum.at(best, inverse, chance)
    return _part_vector(part, values, best)
