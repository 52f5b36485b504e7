"""Solutions: the full accusation ``Solution`` and the fixed enumeration of candidate solutions.

A candidate is ``(M, μ, w, A, α)``: murderer, motive, weapon, accomplice and accomplice motive
(``A``/``α`` ``None`` without an accomplice; ``M`` is the owner of ``μ``, ``A`` of ``α``). The
candidates of a board are enumerated once, in a fixed order; the deduction engine's
``candidate_mask()`` is a bool array over that order:

================  =========  ===============================================================
indices           count      candidates (Walton board)
================  =========  ===============================================================
0 .. 359          360        no accomplice: ``(μ, w)`` in motive order, then weapon order
                             (``index = 20·μ + w``)
360 .. 5759       5,400      with accomplice: ``(μ, w, α)`` with ``owner(α) ≠ owner(μ)``,
                             lexicographic in (motive index, weapon index, motive index)
================  =========  ===============================================================

With ``accomplice_possible=False`` only the first 360 exist.

Functions: :func:`candidate_solutions` (the enumeration), :func:`candidate_index` (the position
of a solution in it), :func:`candidate_table` (the enumeration as index arrays, per board, for
the deduction engine).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .board import WALTON, Board

__all__ = [
    "Solution",
    "CandidateTable",
    "candidate_table",
    "candidate_solutions",
    "candidate_index",
]

#: How many boards' enumerations are kept (there is one board, Walton; tests build others).
BOARD_CACHE_SIZE = 8


class Solution(NamedTuple):
    """A full accusation: murderer, motive, weapon and the accomplice (or ``None``)."""

    murderer: str
    motive: str
    weapon: str
    accomplice: str | None = None
    accomplice_motive: str | None = None


@dataclass(frozen=True, eq=False)
class CandidateTable:
    """The candidate enumeration of one board as index arrays (one entry per candidate).

    ``alpha`` is the accomplice motive index, or ``NM`` (the number of motives) for "no
    accomplice"; ``accomplice`` equals ``murderer`` then. The first ``n0`` candidates have no
    accomplice.
    """

    n0: int
    motive: np.ndarray  # (n,) motive index μ
    weapon: np.ndarray  # (n,) weapon index w
    alpha: np.ndarray  # (n,) accomplice motive index α, or NM
    murderer: np.ndarray  # (n,) suspect index of M (owner of μ)
    accomplice: np.ndarray  # (n,) suspect index of A (owner of α), or M
    motive_owner: np.ndarray  # (NM,) suspect index of each motive's owner
    solutions: tuple[Solution, ...]
    index: dict[Solution, int]


@functools.lru_cache(maxsize=BOARD_CACHE_SIZE)
def candidate_table(board: Board = WALTON) -> CandidateTable:
    """The candidate enumeration of ``board`` (built once per board)."""
    suspect_idx = {s: i for i, s in enumerate(board.suspects)}
    NM, NW = len(board.motives), len(board.weapons)
    owner = np.array([suspect_idx[m.owner] for m in board.motives], dtype=np.int64)
    mus, ws, als = [], [], []
    for mu in range(NM):
        for w in range(NW):
            mus.append(mu)
            ws.append(w)
            als.append(NM)
    n0 = len(mus)
    for mu in range(NM):
        for w in range(NW):
            for al in range(NM):
                if owner[al] != owner[mu]:
                    mus.append(mu)
                    ws.append(w)
                    als.append(al)
    mu_a = np.array(mus, dtype=np.int64)
    al_a = np.array(als, dtype=np.int64)
    owner_ext = np.append(owner, -1)
    murderer = owner_ext[mu_a]
    sols = []
    for mu, w, al in zip(mus, ws, als, strict=True):
        m = board.motives[mu]
        if al == NM:
            sols.append(Solution(m.owner, m.id, board.weapons[w].id, None, None))
        else:
            a = board.motives[al]
            sols.append(Solution(m.owner, m.id, board.weapons[w].id, a.owner, a.id))
    return CandidateTable(
        n0=n0,
        motive=mu_a,
        weapon=np.array(ws, dtype=np.int64),
        alpha=al_a,
        murderer=murderer,
        accomplice=np.where(al_a == NM, murderer, owner_ext[al_a]),
        motive_owner=owner,
        solutions=tuple(sols),
        index={s: i for i, s in enumerate(sols)},
    )


def candidate_solutions(accomplice_possible: bool, board: Board = WALTON) -> tuple[Solution, ...]:
    """The fixed candidate enumeration (360 or 5,760 solutions, in mask order)."""
    t = candidate_table(board)
    return t.solutions if accomplice_possible else t.solutions[: t.n0]


def candidate_index(solution: Solution, board: Board = WALTON) -> int:
    """Position of a solution in the candidate enumeration; ``ValueError`` if it is none."""
    try:
        return candidate_table(board).index[Solution(*solution)]
    except KeyError:
        raise ValueError(f"not a candidate solution: {solution!r}") from None
