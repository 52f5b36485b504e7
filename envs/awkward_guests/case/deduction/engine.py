"""The incremental deduction state :class:`Deduction`, and :func:`solve` / :func:`count_consistent`.

See :mod:`parlour.envs.awkward_guests.case.deduction` for the rules and the factorisation this
state keeps. A ``Deduction`` holds the facts added so far as a few small factors (refuted
motives, who testified, possible weapons, unused passages, the location state, the conspiracy
facts) and combines them into the candidate mask on demand; derived values are cached on the
state until a fact changes them.
"""

from __future__ import annotations

import functools
import zlib
from collections.abc import Iterable

import numpy as np

from ..board import WALTON, Board
from ..facts import validate_fact
from ..memo import cached_by
from ..solution import Solution, candidate_index
from .factors import conspiracy, motive_factors, pair_factor
from .keys import LOCAL_TYPES, semantic_key
from .locations import _ROW_TYPES, _bits_row, _box_bits, _box_row, _solo_row
from .tables import BOARD_CACHE_SIZE, _words, board_tables, route_table

__all__ = ["Deduction", "solve", "count_consistent"]

#: How many single-fact masks of local facts are kept (a board has a few hundred).
LOCAL_MASK_CACHE_SIZE = 4096
#: How many masks of non-local fact sets (card values: one per content of a card's location
#: and route facts) are kept.
OTHERS_MASK_CACHE_SIZE = 20_000

#: derived caches of a Deduction (not pickled: recomputed on demand)
_CACHES = ("_mask", "_cand_grid", "_count", "_j", "_mot", "_pair")
#: the only arrays of a Deduction that are modified in place (``clone`` copies these)
_MUTABLE_ARRAYS = ("_refuted", "_testified", "_weapon_ok")
#: the sets of a Deduction (``clone`` copies these; ``_claims`` maps suspects to sets)
_SETS = ("_keys", "_absent_signs", "_unused_weapons", "_unused_passages", "_alone", "_apart")


class Deduction:
    """Incremental deduction state: add facts, read the consistent candidates.

    Plain and copyable (``clone()``, ``copy.deepcopy``, ``pickle``). Adding a fact that was
    already added does nothing.
    """

    def __init__(self, accomplice_possible: bool, board: Board = WALTON) -> None:
        # a copy of the empty state (faster than building it)
        self.__dict__.update(_empty_state(board, bool(accomplice_possible)).clone().__dict__)

    def _setup(self, accomplice_possible: bool, board: Board) -> None:
        self.board = board
        self.accomplice_possible = bool(accomplice_possible)
        t = board_tables(board)
        self._t = t
        self._keys: set[tuple] = set()
        self._refuted = np.zeros(t.NM + 1, dtype=bool)  # index NM: "no motive"
        self._testified = np.zeros((t.S, t.NM + 1), dtype=bool)
        self._absent_signs: set[str] = set()
        self._unused_weapons: set[str] = set()
        self._unused_passages: set[tuple[str, str]] = set()
        self._claims: dict[str, set[tuple[str, tuple[str, ...]]]] = {}
        self._alone: set[str] = set()
        self._apart: set[frozenset[str]] = set()
        # The location state, factored: F[M, A, l] = H[M, A, class(l)] & gate[M, A, l], gate
        # (S, S, NL) bool; H is the product set ``box`` (S, S, S) of allowed rooms per suspect
        # until the first head count (``_h`` None), then bitsets (1|S, 1|S, 1|NC, words) that
        # grow by broadcasting (``_box`` None). Without an accomplice only F[M, M, 0] exists:
        # ``_h`` is that (S, words) row from the start. Never modified in place
        # (``self._h = self._h & row``), so clones share them.
        if self.accomplice_possible:
            self._box = t.box_init
            self._h = None
            self._gate = t.gate_init
        else:
            self._box = None
            self._h = t.f_init_solo
            self._gate = None
        self._weapon_ok = np.ones(t.NW, dtype=bool)
        self._route = route_table(board, frozenset())
        self._route_dirty = False
        self._consp = np.ones((t.S, t.S), dtype=bool)
        self._consp_dirty = False
        self._loc = np.ones((t.S, t.S, t.NA), dtype=bool)
        self._loc_dirty = False
        self._mask: np.ndarray | None = None
        self._cand_grid: np.ndarray | None = None
        self._count: int | None = None
        self._j: np.ndarray | None = None
        self._mot: tuple[np.ndarray, np.ndarray] | None = None
        self._pair: tuple[np.ndarray, np.ndarray] | None = None

    # -- copying / pickling ----------------------------------------------------------------
    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        del state["_t"]
        # the location bitsets (up to ~92 KB of very regular words): store them compressed
        if self._h is not None:
            state["_h"] = (self._h.shape, zlib.compress(self._h.tobytes(), 1))
        for k in _CACHES:  # recomputed on demand
            state[k] = None
        return state

    def __setstate__(self, state: dict) -> None:
        state = dict(state)
        t = board_tables(state["board"])
        if state["_h"] is not None:
            shape, data = state["_h"]
            h = np.frombuffer(zlib.decompress(data), dtype=np.uint64).reshape(shape).copy()
            h.flags.writeable = False
            state["_h"] = h
        for k in _CACHES:
            state.setdefault(k, None)
        self.__dict__.update(state)
        self._t = t

    def __copy__(self) -> Deduction:
        return self.clone()

    def __deepcopy__(self, memo: dict) -> Deduction:
        return self.clone()

    def clone(self) -> Deduction:
        """An independent copy (arrays that are only ever replaced, never modified in place —
        the location bitsets, the route table, the derived caches — are shared)."""
        new = Deduction.__new__(Deduction)
        d = self.__dict__.copy()
        for k in _MUTABLE_ARRAYS:
            d[k] = d[k].copy()
        for k in _SETS:
            d[k] = set(d[k])
        d["_claims"] = {s: set(c) for s, c in self._claims.items()}
        new.__dict__ = d
        return new

    def merged(self, other: Deduction) -> Deduction:
        """A new state holding the facts of both (the same as adding ``other``'s facts to a
        copy of this one: every part of the state is a union / AND over the facts)."""
        if other.board is not self.board or other.accomplice_possible != self.accomplice_possible:
            raise ValueError("merged: the states differ in board or accomplice_possible")
        t = self._t
        new = self.clone()
        new._keys |= other._keys
        new._refuted |= other._refuted
        new._testified |= other._testified
        new._weapon_ok &= other._weapon_ok
        new._absent_signs |= other._absent_signs
        new._unused_weapons |= other._unused_weapons
        if not other._unused_passages <= new._unused_passages:
            new._unused_passages |= other._unused_passages
            new._route_dirty = True
        for who, claims in other._claims.items():
            new._claims.setdefault(who, set()).update(claims)
        new._alone |= other._alone
        new._apart |= other._apart
        new._consp_dirty = True
        if not self.accomplice_possible:
            new._h = self._h & other._h
        else:
            if self._box is not None and other._box is not None:
                new._box = self._box & other._box
            else:
                mine = self._h if self._box is None else _box_bits(t, self._box)[:, :, None, :]
                theirs = other._h if other._box is None else _box_bits(t, other._box)[:, :, None, :]
                new._box = None
                new._h = mine & theirs
            new._gate = self._gate & other._gate
        new._loc_dirty = True
        for k in _CACHES:
            setattr(new, k, None)
        return new

    # -- adding facts ------------------------------------------------------------------------
    def add_facts(self, facts: Iterable[dict], validate: bool = True) -> None:
        """Add facts (typically one card's). Facts already known are skipped."""
        for fact in facts:
            if validate:
                validate_fact(fact, self.board)
            key = semantic_key(fact)
            if key in self._keys:
                continue
            self._keys.add(key)
            self._add(fact)

    def add_fact(self, fact: dict, validate: bool = True) -> None:
        self.add_facts((fact,), validate)

    def _add(self, f: dict) -> None:
        t = self._t
        typ = f["type"]
        # which derived caches the fact invalidates: the joint location/route/weapon factor
        # (``_j``), the motive factors (``_mot``) and the conspiracy factor (``_consp``); the
        # (μ, α) pair factor ``_pair`` depends on both of the last two
        if typ == "sign_absent":
            self._absent_signs.add(f["sign"])
            for i, signs in enumerate(t.weapon_signs):
                if f["sign"] in signs:
                    self._weapon_ok[i] = False
            self._j = None
        elif typ == "weapon_unused":
            self._unused_weapons.add(f["weapon"])
            self._weapon_ok[t.weapon_idx[f["weapon"]]] = False
            self._j = None
        elif typ == "passage_unused":
            self._unused_passages.add((f["from"], f["to"]))
            self._route_dirty = True
            self._j = None
        elif typ in ("testimony", "evidence"):
            mu = t.motive_idx[f["motive"]]
            if f["verdict"] == "refutes":
                self._refuted[mu] = True
            if typ == "testimony":
                self._testified[t.suspect_idx[f["speaker"]], mu] = True
            self._mot = None
            self._pair = None
        elif typ == "seen_before":
            si, ra = t.suspect_idx[f["suspect"]], t.alibi_idx[f["room"]]
            if self._box is not None:
                box = self._box.copy()
                box[:, :, si] &= np.uint8(1 << ra)
                box.flags.writeable = False
                self._box = box
            else:
                self._h = self._h & t.bstart[si, ra]
            self._loc_dirty = True
            self._j = None
        elif typ in _ROW_TYPES:
            if not self.accomplice_possible:
                self._h = self._h & _solo_row(t, f)
            elif self._box is not None and typ != "guest_count":
                brow, gate = _box_row(t, f)
                self._box = self._box & brow
                self._gate = self._gate & gate
            else:
                if self._box is not None:  # a head count: continue on bitsets
                    self._h = _box_bits(t, self._box)[:, :, None, :]
                    self._box = None
                h, gate = _bits_row(t, f)
                self._h = self._h & h
                if gate is not None:
                    self._gate = self._gate & gate
            self._loc_dirty = True
            self._j = None
            if typ == "claim":
                self._claims.setdefault(f["suspect"], set()).add((f["room"], tuple(f["with"])))
                self._consp_dirty = True
                self._pair = None
        elif typ == "alone":
            self._alone.add(f["suspect"])
            self._consp_dirty = True
            self._pair = None
        elif typ == "apart":
            self._apart.add(frozenset(f["suspects"]))
            self._consp_dirty = True
            self._pair = None
        elif typ == "together":
            pass  # no inference (may mislead)
        else:  # pragma: no cover - validate_fact rejects unknown types
            raise ValueError(f"unknown fact type {typ!r}")
        self._mask = None
        self._cand_grid = None
        self._count = None

    # -- derived factors ---------------------------------------------------------------------
    def _update_route(self) -> None:
        self._route = route_table(self.board, frozenset(self._unused_passages))
        self._route_dirty = False

    def _update_consp(self) -> None:
        """consp[M, A] (condition iii), from the claims, ``alone`` and ``apart`` facts."""
        self._consp = conspiracy(
            self._t,
            frozenset((s, frozenset(c)) for s, c in self._claims.items()),
            frozenset(self._alone),
            frozenset(self._apart),
        )
        self._consp_dirty = False

    def _update_loc(self) -> None:
        t = self._t
        if self._box is not None:
            # H[M, A] is a product set: it meets start[M] == s iff no suspect's room set is
            # empty and s is in M's
            box = self._box
            alive = (box != 0).all(axis=2) & self._gate.any(axis=2)  # (S, S)
            own = box[t.mi[:, :, 0], t.ai[:, :, 0], t.mi[:, :, 0]]  # box[M, A, M]
            self._loc = alive[:, :, None] & t.mask_rooms[own]
        elif self.accomplice_possible:
            # g[M, A] = OR_l F[M, A, l] = OR over classes c of H[M, A, c] where some l of
            # class c passes the gate
            h = self._h
            if h.shape[2] == 1:
                g = h[:, :, 0, :] & _words(self._gate.any(axis=2))  # (S, S, words)
            else:
                open_c = (self._gate.view(np.uint8) @ t.class_onehot) != 0  # (S, S, NC)
                g = np.bitwise_or.reduce(h & _words(open_c), axis=2)
            both = g[:, :, None, :] & t.bstart[:, None, :, :]  # (S, S, NA, words)
            self._loc = np.bitwise_or.reduce(both, axis=-1) != 0
        else:  # only M == A (l == 0) can hold: F is (S, words)
            both = self._h[:, None, :] & t.bstart  # (S, NA, words)
            loc = np.zeros((t.S, t.S, t.NA), dtype=bool)
            ar = np.arange(t.S)
            loc[ar, ar] = np.bitwise_or.reduce(both, axis=-1) != 0
            self._loc = loc
        self._loc_dirty = False

    def _joint(self) -> np.ndarray:
        """J[M, A, w]: the weapon is possible and some start room of M satisfies every
        location fact (for this M, A) and has a route through the weapon's room."""
        if self._j is None:
            if self._route_dirty:
                self._update_route()
            if self._loc_dirty:
                self._update_loc()
            # bool arrays viewed as 0/1 bytes: at most NA (4) ones per sum, no overflow
            j = (self._loc.view(np.uint8) @ self._route.view(np.uint8)) != 0
            j &= self._weapon_ok
            self._j = j
        return self._j

    def _motives(self) -> tuple[np.ndarray, np.ndarray]:
        """Motive factors ``(okm, nmn)`` (cached until a testimony / evidence is added; see
        :func:`~.factors.motive_factors`)."""
        if self._mot is None:
            self._mot = motive_factors(
                self._t, self.accomplice_possible, self._refuted, self._testified
            )
        return self._mot

    def _pair_factor(self) -> tuple[np.ndarray, np.ndarray]:
        """``(pair[μ, α] flat, pair per candidate)`` (accomplice possible only; cached until the
        motive or conspiracy facts change; see :func:`~.factors.pair_factor`)."""
        if self._pair is None:
            if self._consp_dirty:
                self._update_consp()
            self._pair = pair_factor(self._t, self._refuted, self._testified, self._consp)
        return self._pair

    def candidate_mask(self) -> np.ndarray:
        """Bool mask over the candidate enumeration (360 or 5,760; see the module docs)."""
        if self._mask is None:
            t = self._t
            j = self._joint()
            if self.accomplice_possible:
                # == (pair[:, :, None] & j[g_m, g_a]).reshape(-1)[flat], gathered directly
                mask = self._pair_factor()[1] & j.reshape(-1)[t.c_jidx]
            else:
                ok = ~self._refuted
                own = t.motive_owner
                grid = (ok[:-1, None] & j[own, own])[:, None, :]  # (NM, 1 = none, NW)
                mask = grid.reshape(-1)
                self._cand_grid = grid
            mask.flags.writeable = False
            self._mask = mask
        return self._mask

    def _grid_of_candidates(self) -> np.ndarray:
        """The candidate mask on the (μ, α or none, w) grid."""
        if self._cand_grid is None:
            t = self._t
            self.candidate_mask()
            if self._cand_grid is None:  # accomplice possible: built on demand
                pair = self._pair_factor()[0].reshape(t.NM, t.NM + 1)
                self._cand_grid = pair[:, :, None] & self._joint()[t.g_m, t.g_a]
        return self._cand_grid

    def count(self) -> int:
        """Number of consistent candidates (factored: no mask is built).

        Per (M, A): #weapons(J) × #μ of M (not refuted, not testified by A) × #α of A (not
        refuted, not testified by M), gated by the conspiracy factor; A == M is "no accomplice".
        """
        if self._count is None:
            if self._mask is not None:
                self._count = int(np.count_nonzero(self._mask))
                return self._count
            nw = self._joint().sum(axis=2)  # (S, S)
            _, nmn = self._motives()
            if self.accomplice_possible:
                if self._consp_dirty:
                    self._update_consp()
                self._count = int((nw * nmn * self._consp).sum())
            else:
                self._count = int((np.diagonal(nw) * nmn).sum())
        return self._count

    # -- reading -----------------------------------------------------------------------------
    def candidates(self) -> list[Solution]:
        """The consistent candidates, in enumeration order."""
        sols = self._t.cand.solutions
        return [sols[i] for i in np.flatnonzero(self.candidate_mask())]

    def is_consistent(self, solution: Solution) -> bool:
        """Whether ``solution`` is still consistent (False if it is not a candidate here)."""
        i = candidate_index(solution, self.board)
        mask = self.candidate_mask()
        return bool(i < mask.size and mask[i])

    def possible_arrays(self) -> dict[str, np.ndarray]:
        """As :meth:`possible`, as bool arrays in board order: ``murderers`` (6),
        ``motives`` (18), ``weapons`` (20), ``accomplices`` (7: the suspects, then "none")
        and ``accomplice_motives`` (19: the motives, then "none")."""
        t = self._t
        self.candidate_mask()
        grid = self._grid_of_candidates()
        mus = grid.any(axis=(1, 2))
        ws = grid.any(axis=(0, 1))
        if self.accomplice_possible:
            als = grid.any(axis=(0, 2))
        else:
            als = np.zeros(t.NM + 1, dtype=bool)
            als[t.NM] = bool(grid.any())
        murderers = np.zeros(t.S, dtype=bool)
        murderers[t.motive_owner[mus]] = True
        accs = np.zeros(t.S + 1, dtype=bool)
        accs[t.motive_owner[als[:-1]]] = True
        accs[t.S] = als[t.NM]
        return {
            "murderers": murderers,
            "motives": mus,
            "weapons": ws,
            "accomplices": accs,
            "accomplice_motives": als,
        }

    def possible(self) -> dict[str, set]:
        """Which murderers, motives, weapons, accomplices (``None`` = no accomplice) and
        accomplice motives (``None`` likewise) appear in some consistent candidate."""
        b = self.board
        a = self.possible_arrays()
        ms = [m.id for m in b.motives]
        return {
            "murderers": {s for s, ok in zip(b.suspects, a["murderers"], strict=True) if ok},
            "motives": {m for m, ok in zip(ms, a["motives"], strict=True) if ok},
            "weapons": {w.id for w, ok in zip(b.weapons, a["weapons"], strict=True) if ok},
            "accomplices": {
                s for s, ok in zip((*b.suspects, None), a["accomplices"], strict=True) if ok
            },
            "accomplice_motives": {
                m for m, ok in zip((*ms, None), a["accomplice_motives"], strict=True) if ok
            },
        }


def solve(
    facts: Iterable[dict], accomplice_possible: bool, board: Board = WALTON
) -> list[Solution]:
    """Every candidate solution consistent with ``facts`` (JSON fact objects)."""
    d = Deduction(accomplice_possible, board)
    d.add_facts(facts)
    return d.candidates()


@functools.lru_cache(maxsize=BOARD_CACHE_SIZE)
def _empty_state(board: Board, accomplice_possible: bool) -> Deduction:
    """The empty state of ``(board, accomplice_possible)``, which ``Deduction()`` copies."""
    d = Deduction.__new__(Deduction)
    d._setup(accomplice_possible, board)
    return d


def _bits(mask: np.ndarray) -> int:
    """A bool mask as a Python int (bit ``i`` = ``mask[i]``): ANDs and counts in a few µs."""
    return int.from_bytes(np.packbits(mask, bitorder="little").tobytes(), "little")


@cached_by(lambda fact, board: (board, semantic_key(fact)), LOCAL_MASK_CACHE_SIZE)
def _local_bits(fact: dict, board: Board) -> int:
    """Candidates (accomplice possible) consistent with one local fact, as bits; cached."""
    d = Deduction(True, board)
    d.add_facts((fact,), validate=False)
    return _bits(d.candidate_mask())


def _others_key(keys: tuple, others: list[dict], acc: bool, board: Board) -> tuple:
    return (board, acc, keys)


@cached_by(_others_key, OTHERS_MASK_CACHE_SIZE)
def _others_bits(keys: tuple, others: list[dict], acc: bool, board: Board) -> int:
    """Candidates (``acc``: accomplice possible) consistent with the non-local facts
    ``others`` (``keys``: their sorted semantic keys), as bits; cached."""
    d = Deduction(acc, board)
    d.add_facts(others, validate=False)
    return _bits(d.candidate_mask())


def count_consistent(
    facts: Iterable[dict], accomplice_possible: bool = True, board: Board = WALTON
) -> int:
    """Number of candidates consistent with ``facts`` (valid facts; not re-validated).

    A local fact excludes the same candidates whatever else is known, so the candidates of
    the non-local facts (one engine state per content of them, cached) are ANDed with the
    cached single-fact masks of the local ones (the first 360 candidates, those without an
    accomplice, are the same with and without an accomplice possible)."""
    local, others = [], []
    for f in facts:
        (local if f["type"] in LOCAL_TYPES else others).append(f)
    keys = tuple(sorted(semantic_key(f) for f in others))
    bits = _others_bits(keys, others, bool(accomplice_possible), board)
    for f in local:
        bits &= _local_bits(f, board)
    return bits.bit_count()
