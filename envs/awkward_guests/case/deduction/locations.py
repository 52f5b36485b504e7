"""Location facts: what a ``seen_at_murder``, ``claim`` or ``guest_count`` fact ANDs into the
location state of a :class:`~.engine.Deduction` (``seen_before`` is a single bitset AND).

Until the first head count (``guest_count``) every location fact restricts each suspect's start
room on its own, so for every (M, A) the allowed start assignments are a product set: one
allowed-room mask per suspect, ``box[M, A, t]`` (a bitmask over the NA alibi rooms). The bitset
``H[M, A]`` is that product set; a head count needs the bitsets, so the first one expands the
box into ``H`` (:func:`_box_bits`) and the state continues on bitsets. Without an accomplice
possible only the configurations ``M == A`` exist (:func:`_solo_row`).

A fact's row does not depend on the state, and the generator adds the same few location facts
to many states: the rows are cached by (tables, semantic key), at most ``ROW_CACHE_SIZE`` of
each kind, and are read-only.
"""

from __future__ import annotations

import numpy as np

from ..memo import cached_by
from .keys import semantic_key
from .tables import _Tables, _words

#: The fact types whose effect is a row ANDed into the location state.
_ROW_TYPES = frozenset({"seen_at_murder", "guest_count", "claim"})
#: How many rows of each kind (box, bits, solo) are kept.
ROW_CACHE_SIZE = 256


def _row_key(t: _Tables, f: dict) -> tuple:
    return (t, semantic_key(f))


@cached_by(_row_key, ROW_CACHE_SIZE)
def _box_row(t: _Tables, f: dict) -> tuple[np.ndarray, np.ndarray]:
    """``(brow, gate)`` of a ``seen_at_murder`` / ``claim`` fact: ``brow`` (S, S, S) uint8
    ANDs into ``box``, ``gate`` (S, S, NL) bool into the gate (read-only, cached)."""
    brow, gate = (_claim_box if f["type"] == "claim" else _seen_at_murder_box)(t, f)
    brow.flags.writeable = False
    gate.flags.writeable = False
    return brow, gate


@cached_by(_row_key, ROW_CACHE_SIZE)
def _bits_row(t: _Tables, f: dict) -> tuple[np.ndarray, np.ndarray | None]:
    """``(h, gate)`` of a location fact for a state on bitsets: ``h`` ANDs into ``H``
    (``(S, S, 1, words)``, or ``(S, S, NC, words)`` for a head count), ``gate`` (or None) into
    the gate. Together: ``F[M, A, l] &= h[M, A, class(l)] & gate[M, A, l]``."""
    if f["type"] == "guest_count":
        h, gate = _guest_count_row(t, f)
    else:
        brow, gate = _box_row(t, f)
        h = _box_bits(t, brow)[:, :, None, :]
    h.flags.writeable = False
    return h, gate


@cached_by(_row_key, ROW_CACHE_SIZE)
def _solo_row(t: _Tables, f: dict) -> np.ndarray:
    """The (S, words) row of a location fact for the configurations ``M == A, l == 0`` (no
    accomplice possible)."""
    ar = np.arange(t.S)
    if f["type"] == "guest_count":
        h, _ = _bits_row(t, f)
        r = np.ascontiguousarray(h[ar, ar, int(t.loc_class[0])])
    else:
        brow, gate = _box_row(t, f)
        r = _box_bits(t, brow[ar, ar][:, None, :])[:, 0, :]
        r = np.where(gate[ar, ar, 0][:, None], r, np.uint64(0))
    r.flags.writeable = False
    return r


def _box_bits(t: _Tables, box: np.ndarray) -> np.ndarray:
    """The bitsets (X, Y, words) of the product sets ``box`` (X, Y, S) of allowed rooms."""
    return np.bitwise_and.reduce(t.digit_bits[np.arange(t.S), box], axis=2)


def _seen_at_murder_box(t: _Tables, f: dict) -> tuple[np.ndarray, np.ndarray]:
    s = t.suspect_idx[f["suspect"]]
    lr = t.loc_idx[f["room"]]
    ra = t.alibi_idx.get(f["room"], -1)
    mi, ai, li, has_a = t.mi, t.ai, t.li, t.has_a
    is_a = (has_a & (ai == s))[:, :, 0]  # (S, S)
    # innocent s: start room == room (none if the room is no alibi room); murderer: never;
    # accomplice: location == room (the gate)
    brow = t.box_init.copy()
    brow[:, :, s] = np.where(is_a, t.room_all, np.where(mi[:, :, 0] != s, _room_bit(ra), 0))
    return brow, ~is_a[:, :, None] | (li == lr)


def _claim_box(t: _Tables, f: dict) -> tuple[np.ndarray, np.ndarray]:
    s = t.suspect_idx[f["suspect"]]
    ra = t.alibi_idx[f["room"]]
    in_w = np.zeros(t.S, dtype=bool)
    for x in f["with"]:
        in_w[t.suspect_idx[x]] = True
    there = in_w.copy()
    there[s] = True  # the claimant and everyone named were in the room, nobody else
    per_t = np.where(there, _room_bit(ra), t.room_all & ~_room_bit(ra)).astype(np.uint8)
    mi, ai, li, has_a = t.mi, t.ai, t.li, t.has_a
    culprit = (mi == s) | (has_a & (ai == s))  # (S, S, 1): the claim is not trusted
    ti = np.arange(t.S)[None, None, :]
    free = culprit | (ti == mi) | (ti == ai)  # (S, S, S): no constraint on t
    brow = np.where(free, np.uint8(t.room_all), per_t[None, None, :]).astype(np.uint8)
    ok = ~in_w[mi] & (~has_a | (in_w[ai] == (t.loc_alibi[li] == ra)))  # (S, S, NL)
    return brow, culprit | ok


def _room_bit(ra: int) -> int:
    return 1 << ra if ra >= 0 else 0


def _guest_count_row(t: _Tables, f: dict) -> tuple[np.ndarray, None]:
    ra = t.alibi_idx[f["room"]]
    c = f["count"]
    mi, ai, has_a = t.mi, t.ai, t.has_a
    ki = np.arange(t.NC)[None, None, :]  # location classes (NA: not an alibi room)
    a_here = has_a & (ki == ra)  # (S, S, NC)
    need = c - t.hc[ai] * a_here
    ok = (need >= 0) & (need <= t.kmax)
    rows = t.cnt[mi, ai, ra, np.clip(need, 0, t.kmax)]  # (S, S, NC, words)
    return rows & _words(ok), None
