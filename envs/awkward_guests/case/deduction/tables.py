"""Per-board precomputed tables of the deduction engine, and the murderer's route table.

:func:`board_tables` builds, once per board, everything a :class:`~.engine.Deduction` reads
but never changes: index lookups, the start-room assignment bitsets (all ``NA ** S``
assignments of the suspects to the alibi rooms, packed into uint64 words), the head-count
bitsets, the initial location state and the candidate grid (the enumeration of
:mod:`parlour.envs.awkward_guests.case.solution` laid out on ``(μ, α or none, w)``).
:func:`route_table` answers "from which start room can the murderer pass the weapon's room and
enter the crime scene" for a set of unused passages. Both are cached
(``functools.lru_cache``); every array is read-only.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from ..board import Board
from ..solution import CandidateTable, candidate_table

#: Bits per bitset word.
WORD_BITS = 64
_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)
#: How many boards' tables are kept (there is one board, Walton; tests build others).
BOARD_CACHE_SIZE = 8
#: How many route tables (one per board and set of unused passages) are kept.
ROUTE_CACHE_SIZE = 50_000


def _words(cond: np.ndarray) -> np.ndarray:
    """A bool array as full uint64 words (all ones / zero), with a trailing word axis."""
    return np.where(cond, _ONES, np.uint64(0))[..., None]


def _pack(bits: np.ndarray) -> np.ndarray:
    """Pack a bool array (..., N) along the last axis into uint64 words (..., ceil(N/64))."""
    n = bits.shape[-1]
    pad = (-n) % WORD_BITS
    if pad:
        bits = np.concatenate([bits, np.zeros((*bits.shape[:-1], pad), dtype=bool)], axis=-1)
    packed = np.packbits(bits, axis=-1, bitorder="little")
    return np.ascontiguousarray(packed).view("<u8").astype(np.uint64)


def _readonly(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


@dataclass(frozen=True, eq=False)
class _Tables:
    """Per-board precomputed tables (built once per board, shared by every Deduction)."""

    S: int  # suspects
    NA: int  # alibi rooms
    NW: int  # weapons
    NM: int  # motives
    bstart: np.ndarray  # (S, NA, words): start[s] == alibi room a
    cnt: np.ndarray  # (S, S, NA, K+1, words): head count in room a of suspects not M/A == k
    kmax: int
    hc: np.ndarray  # (S,) head counts
    loc_alibi: np.ndarray  # (NL,) alibi index of each accomplice location or -1
    suspect_idx: dict[str, int]
    alibi_idx: dict[str, int]
    loc_idx: dict[str, int]
    motive_idx: dict[str, int]
    weapon_idx: dict[str, int]
    motive_owner: np.ndarray  # (NM,)
    own: np.ndarray  # (S, NM) int64: 1 where the suspect owns the motive
    weapon_signs: tuple[tuple[str, str], ...]
    gate_init: np.ndarray  # (S, S, NL): the valid (M, A, l) configurations
    NC: int  # location classes: the NA alibi rooms, then "not an alibi room"
    room_all: int  # the room-set mask of every alibi room ((1 << NA) - 1)
    digit_bits: np.ndarray  # (S, 2**NA, words): assignments with start[t] in room set m
    mask_rooms: np.ndarray  # (2**NA, NA) bool: the rooms of a room-set mask
    box_init: np.ndarray  # (S, S, S) uint8: every start room allowed
    loc_class: np.ndarray  # (NL,) class of each accomplice location
    class_onehot: np.ndarray  # (NL, NC) uint8
    f_init_solo: np.ndarray  # (S, words): only the configurations M == A, l == 0 (no accomplice)
    cand: CandidateTable  # the candidate enumeration (accomplice possible; first n0: none)
    # the (motive, accomplice motive or NM, weapon) grid the mask is assembled on
    g_m: np.ndarray  # (NM, NM+1) murderer of each (mu, alpha)
    g_a: np.ndarray  # (NM, NM+1) accomplice (== murderer for alpha == NM)
    g_valid: np.ndarray  # (NM, NM+1) the pair is a candidate (alpha == NM or another owner)
    c_pair: np.ndarray  # (n,) position of each candidate's (μ, α) in the flattened pair grid
    c_jidx: np.ndarray  # (n,) position of each candidate's (M, A, w) in the flattened J
    # broadcasting grids over (M, A, accomplice location)
    mi: np.ndarray  # (S, 1, 1)
    ai: np.ndarray  # (1, S, 1)
    li: np.ndarray  # (1, 1, NL)
    has_a: np.ndarray  # (S, S, 1): A != M


@functools.lru_cache(maxsize=BOARD_CACHE_SIZE)
def board_tables(board: Board) -> _Tables:
    """The tables of ``board`` (built on first use)."""
    S, NA = len(board.suspects), len(board.alibi_rooms)
    N = NA**S
    ids = np.arange(N)
    starts = np.stack([(ids // NA**s) % NA for s in range(S)], axis=1)  # (N, S)
    onehot = starts[:, :, None] == np.arange(NA)[None, None, :]  # (N, S, NA)
    bstart = _pack(np.transpose(onehot, (1, 2, 0)))  # (S, NA, words)
    words = bstart.shape[-1]
    all_bits = _pack(np.ones(N, dtype=bool))
    hc = np.array([board.head_count[s] for s in board.suspects], dtype=np.int64)
    kmax = int(hc.sum())
    loc_rooms = tuple(r for r in board.rooms if r != board.crime_scene)
    NL = len(loc_rooms)
    alibi_idx = {r: i for i, r in enumerate(board.alibi_rooms)}
    loc_alibi = np.array([alibi_idx.get(r, -1) for r in loc_rooms], dtype=np.int64)
    NM, NW = len(board.motives), len(board.weapons)
    cand = candidate_table(board)
    motive_owner = cand.motive_owner
    owner_ext = np.append(motive_owner, -1)

    mi = np.arange(S)[:, None, None]
    ai = np.arange(S)[None, :, None]
    li = np.arange(NL)[None, None, :]
    valid_cfg = (mi != ai) | (li == 0)  # (S, S, NL)
    loc_class = np.where(loc_alibi >= 0, loc_alibi, NA)
    return _Tables(
        S=S,
        NA=NA,
        NW=NW,
        NM=NM,
        bstart=bstart,
        cnt=_head_count_bits(onehot, hc, words),
        kmax=kmax,
        hc=hc,
        loc_alibi=loc_alibi,
        suspect_idx={s: i for i, s in enumerate(board.suspects)},
        alibi_idx=alibi_idx,
        loc_idx={r: i for i, r in enumerate(loc_rooms)},
        motive_idx={m.id: i for i, m in enumerate(board.motives)},
        weapon_idx={w.id: i for i, w in enumerate(board.weapons)},
        motive_owner=motive_owner,
        own=(motive_owner[None, :] == np.arange(S)[:, None]).astype(np.int64),
        weapon_signs=tuple(w.signs for w in board.weapons),
        gate_init=_readonly(valid_cfg.copy()),
        NC=NA + 1,
        room_all=(1 << NA) - 1,
        digit_bits=_readonly(_digit_bits(bstart, NA)),
        mask_rooms=_readonly(((np.arange(1 << NA)[:, None] >> np.arange(NA)[None, :]) & 1) == 1),
        box_init=_readonly(np.full((S, S, S), (1 << NA) - 1, dtype=np.uint8)),
        loc_class=_readonly(loc_class),
        class_onehot=_readonly((loc_class[:, None] == np.arange(NA + 1)[None, :]).astype(np.uint8)),
        f_init_solo=_readonly(np.broadcast_to(all_bits, (S, words)).copy()),
        cand=cand,
        g_m=np.broadcast_to(motive_owner[:, None], (NM, NM + 1)).copy(),
        g_a=np.where(np.arange(NM + 1)[None, :] == NM, motive_owner[:, None], owner_ext[None, :]),
        g_valid=(np.arange(NM + 1)[None, :] == NM) | (owner_ext[None, :] != motive_owner[:, None]),
        c_pair=cand.motive * (NM + 1) + cand.alpha,
        c_jidx=(cand.murderer * S + cand.accomplice) * NW + cand.weapon,
        mi=mi,
        ai=ai,
        li=li,
        has_a=mi != ai,
    )


def _head_count_bits(onehot: np.ndarray, hc: np.ndarray, words: int) -> np.ndarray:
    """``cnt[M, A, a, k]``: the assignments under which the suspects other than ``M`` and
    ``A`` put exactly ``k`` heads in alibi room ``a`` (bitsets; ``onehot`` is (N, S, NA))."""
    S, NA = onehot.shape[1], onehot.shape[2]
    kmax = int(hc.sum())
    contrib = onehot * hc[None, :, None]  # (N, S, NA)
    total = contrib.sum(axis=1)  # (N, NA)
    cnt = np.zeros((S, S, NA, kmax + 1, words), dtype=np.uint64)
    ks = np.arange(kmax + 1)
    for m in range(S):
        for a in range(S):
            c = total - contrib[:, m, :] - (contrib[:, a, :] if a != m else 0)  # (N, NA)
            eq = c.T[:, None, :] == ks[None, :, None]  # (NA, K+1, N)
            cnt[m, a] = _pack(eq)
    return cnt


def _digit_bits(bstart: np.ndarray, NA: int) -> np.ndarray:
    """``digit_bits[t, m]``: the assignments with suspect ``t``'s start room in the room set
    ``m`` (a bitmask over the alibi rooms), as bitsets."""
    in_set = ((np.arange(1 << NA)[:, None] >> np.arange(NA)[None, :]) & 1).astype(bool)
    return np.stack(
        [
            np.bitwise_or.reduce(
                np.where(in_set[:, :, None], bstart[t][None, :, :], np.uint64(0)), axis=1
            )
            for t in range(bstart.shape[0])
        ]
    )


@functools.lru_cache(maxsize=ROUTE_CACHE_SIZE)
def route_table(board: Board, unused: frozenset) -> np.ndarray:
    """R[s, w]: from alibi room ``s`` a walk passes the room of weapon ``w`` and enters the
    crime scene, avoiding the ``unused`` passages (two-way passages both ways; the crime scene
    only at the end). Read-only; cached per set of unused passages."""
    parent = {x: x for x in board.rooms if x != board.crime_scene}

    def find(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for p in board.passages:
        if not p.one_way and (p.frm, p.to) not in unused:
            parent[find(p.frm)] = find(p.to)
    exits = {
        find(p.frm)
        for p in board.passages
        if p.one_way and p.to == board.crime_scene and (p.frm, p.to) not in unused
    }
    comp_w = [find(w.room) for w in board.weapons]
    r = np.array(
        [[find(s) == cw and cw in exits for cw in comp_w] for s in board.alibi_rooms],
        dtype=bool,
    )
    r.flags.writeable = False
    return r
