"""The motive and conspiracy factors of a :class:`~.engine.Deduction` (docs/case_model.md#consistency, conditions (i)–(iii)).

Each factor is a pure function of what it depends on, cached by that content (the generator
and the env evaluate the same few combinations over and over); the results are read-only.

=====================  =================  ===================================================
function               shape              depends on
=====================  =================  ===================================================
:func:`conspiracy`     (S, S) bool        the claims, ``alone`` and ``apart`` facts (iii)
:func:`motive_factors` (S, NM), (S, S)    the refuted boxes (i) and who testified (ii)
                       or (S,)
:func:`pair_factor`    (NM · (NM+1),),    refuted, testified and the conspiracy factor
                       (n,)               (also gathered into the candidate enumeration)
=====================  =================  ===================================================
"""

from __future__ import annotations

import functools

import numpy as np

from ..memo import cached_by
from .tables import _Tables

__all__ = ["conspiracy", "motive_factors", "pair_factor"]

#: Bounds of the factor caches (entries).
CONSPIRACY_CACHE_SIZE = 4096
MOTIVE_CACHE_SIZE = 1024
PAIR_CACHE_SIZE = 2048

#: ``partner`` / ``room`` of a suspect who made no claim
_NO_CLAIM = -1
#: ``partner`` / ``room`` of a suspect whose claims name several partners / rooms
_SEVERAL = -2


@functools.lru_cache(maxsize=CONSPIRACY_CACHE_SIZE)
def conspiracy(
    t: _Tables,
    claims: frozenset[tuple[str, frozenset[tuple[str, tuple[str, ...]]]]],
    alone: frozenset[str],
    apart: frozenset[frozenset[str]],
) -> np.ndarray:
    """consp[M, A] (condition iii; ``A == M``: no accomplice, always True) from the claims
    (``(suspect, {(room, with)})``), ``alone`` and ``apart`` facts (plain Python: 6 × 6)."""
    idx = t.suspect_idx
    S = t.S
    partner = [_NO_CLAIM] * S
    room = [_NO_CLAIM] * S
    for s, made in claims:
        i = idx[s]
        withs = {w for _, w in made}
        rooms = {r for r, _ in made}
        only = next(iter(withs)) if len(withs) == 1 else ()
        partner[i] = idx[only[0]] if len(only) == 1 else _SEVERAL
        room[i] = t.alibi_idx[next(iter(rooms))] if len(rooms) == 1 else _SEVERAL
    is_alone = [False] * S
    for s in alone:
        is_alone[idx[s]] = True
    never = set()
    for pr in apart:
        i, j = (idx[x] for x in pr)
        never.add((i, j))
        never.add((j, i))
    rows = []
    for m in range(S):
        pm, rm = partner[m], room[m]
        ok_m = rm != _SEVERAL and not is_alone[m]
        row = []
        for a in range(S):
            if m == a:
                row.append(True)
                continue
            pa, ra = partner[a], room[a]
            row.append(
                ok_m
                and pm in (_NO_CLAIM, a)
                and pa in (_NO_CLAIM, m)
                and ra != _SEVERAL
                and (ra == _NO_CLAIM or rm in (_NO_CLAIM, ra))
                and not is_alone[a]
                and (m, a) not in never
            )
        rows.append(row)
    consp = np.array(rows, dtype=bool)
    consp.flags.writeable = False
    return consp


def _motive_key(
    t: _Tables, accomplice_possible: bool, refuted: np.ndarray, testified: np.ndarray
) -> tuple:
    return (t, accomplice_possible, refuted.tobytes(), testified.tobytes())


@cached_by(_motive_key, MOTIVE_CACHE_SIZE)
def motive_factors(
    t: _Tables, accomplice_possible: bool, refuted: np.ndarray, testified: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``(okm, nmn)``: okm (S, NM) the murderer's motives not refuted; nmn (S, S) the number
    of (μ, α) choices per (M, A) (with an accomplice possible; ``A == M``: #μ of M) or,
    without, #μ per M (S,). ``refuted`` (NM+1,) and ``testified`` (S, NM+1) as in the state."""
    okm = t.own * ~refuted[:-1]  # (S, NM): M's motives not refuted
    if accomplice_possible:
        free = (~testified[:, :-1]).astype(np.int64)  # (S, NM)
        nmu = okm @ free.T  # [M, A]: μ of M not refuted, not testified by A
        nal = free @ okm.T  # [M, A]: α of A not refuted, not testified by M
        np.fill_diagonal(nal, 1)
        nmn = nmu * nal
    else:
        nmn = okm.sum(axis=1)
    okm.flags.writeable = False
    nmn.flags.writeable = False
    return okm, nmn


def _pair_key(t: _Tables, refuted: np.ndarray, testified: np.ndarray, consp: np.ndarray) -> tuple:
    return (t, refuted.tobytes(), testified.tobytes(), consp.tobytes())


@cached_by(_pair_key, PAIR_CACHE_SIZE)
def pair_factor(
    t: _Tables, refuted: np.ndarray, testified: np.ndarray, consp: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``(pair, by_candidate)``: pair[μ, α] (flat, NM · (NM+1); α == NM: no accomplice) of the
    motive and conspiracy conditions (accomplice possible only), and the same gathered into
    the candidate enumeration (``pair[c_pair]``, one entry per candidate)."""
    ok = ~refuted
    gm, ga = t.g_m, t.g_a
    mus = np.arange(t.NM)[:, None]
    als = np.arange(t.NM + 1)[None, :]
    pair = (
        ok[:-1, None]
        & ok[None, :]
        & consp[gm, ga]
        & ~testified[ga, mus]
        & ~testified[gm, als]
        & t.g_valid
    ).reshape(-1)  # (NM * (NM+1),)
    by_candidate = pair[t.c_pair]
    pair.flags.writeable = False
    by_candidate.flags.writeable = False
    return pair, by_candidate
