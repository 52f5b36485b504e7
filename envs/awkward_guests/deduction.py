"""The deduction engine: the exact set of solutions consistent with a set of facts.

``solve(facts, accomplice_possible)`` returns every candidate solution consistent with the facts
under the deduction rules 1–8 (spec §3); :class:`Deduction` is the incremental form (add one
card's facts at a time) used inside every env step.

Candidates
----------

A candidate is ``(M, μ, w, A, α)``. The candidates are enumerated once, in a fixed order, and
:meth:`Deduction.candidate_mask` is a bool array over that order:

================  =========  ===============================================================
indices           count      candidates
================  =========  ===============================================================
0 .. 359          360        no accomplice: ``(μ, w)`` in motive order, then weapon order
                             (``index = 20·μ + w``; ``M`` is the owner of ``μ``)
360 .. 5759       5,400      with accomplice: ``(μ, w, α)`` with ``owner(α) ≠ owner(μ)``,
                             lexicographic in (motive index, weapon index, motive index)
================  =========  ===============================================================

With ``accomplice_possible=False`` only the first 360 exist.

Consistency (spec §3, conditions (i)–(iv))
------------------------------------------

A candidate is excluded only when **no** assignment of start rooms (every suspect in an alibi
room), murder-time locations (innocents in their start room, ``M`` in the study, ``A`` in any
room but the study) and murderer's route (from ``M``'s start room through the weapon's room to
the garage, bedroom or shed, then into the study, over passages not known unused; rooms may
repeat) makes every trusted fact true, or when it breaks a motive / conspiracy condition:

=======================  ===================================================================
fact                     constrains
=======================  ===================================================================
sign_absent, weapon_     the weapon (rule 6)
unused
passage_unused           the route (rule 7): the passage is not on it
seen_before              the suspect's start room
seen_at_murder           the suspect's murder-time location (never the murderer's: the
                         murderer was in the study)
guest_count              head count of the room at the murder (berwick counts 2; the
                         murderer is never counted; the accomplice counts where they are)
claim                    by an innocent: they were in that room (their start room) and
                         ``with`` is exactly everyone else there at the murder (which can
                         include the accomplice). By ``M`` or ``A``: untrusted, but with an
                         accomplice condition (iii) applies
testimony, evidence      a refuting box excludes that motive as ``μ`` or ``α`` (i); ``A``
                         never testifies about ``μ`` nor ``M`` about ``α`` (ii)
together                 nothing (may mislead)
apart, alone             with an accomplice: no ``alone`` about ``M``/``A``, no ``apart``
                         about the pair (iii); nothing otherwise
=======================  ===================================================================

Condition (iii): ``A``'s known claims are all "with exactly ``M``", ``M``'s all "with exactly
``A``", and all of them name the same alibi room.

Rulings: ``passage_unused`` constrains only the murderer's route (the accomplice's way from
their start room to their murder-time room is not part of the hidden truth); staff facts about
the murderer are trusted like any other (``seen_at_murder`` of the murderer is false, so it
clears them); a lone murderer's claims constrain nothing.

The derived rules fall out of this definition (see ``tests/awkward_guests/
test_deduction_rules.py``): two suspects who claim to have been together are both innocent or
murderer and accomplice; a suspect whose three motives are refuted is never the murderer nor the
accomplice; a suspect who cannot reach the study is not the murderer.

Factorisation
-------------

===========================  ================  =============================================
factor                       shape             recomputed when a card adds
===========================  ================  =============================================
motive not refuted (i)       (18,)             testimony / evidence that refutes
testified (ii)               (6, 18)           testimony
weapon possible (6)          (20,)             sign_absent / weapon_unused
route ``R[s, w]`` (7)        (4 start, 20)     passage_unused
locations ``F[M, A, l]``     (6, 6, 9) bitsets seen_before / seen_at_murder / guest_count /
                             of 4⁶ starts      claim
conspiracy (iii)             (6, 6)            claim / alone / apart
===========================  ================  =============================================

``F[M, A, l]`` is, for murderer ``M``, accomplice ``A`` (``A == M`` encodes "no accomplice")
and accomplice location ``l`` (one of the 9 rooms other than the study), the set of the
4⁶ = 4,096 start-room assignments under which every location fact holds, packed as a bitset of
64 uint64 words. The start-room tables (who is where, head counts per room) are precomputed
once per board. The joint location/route factor over ``(M, A, w)`` is
"some start room ``s`` of ``M`` with ``F[M, A, ·]`` non-empty on ``start[M] = s`` and
``R[s, w]``". The factors are combined by broadcasting on a (μ, α or none, w) grid and one
gather into the fixed enumeration; :meth:`Deduction.count` multiplies the per-(M, A) factor
counts instead and builds no mask.

Cost (measured on the 2-core development machine): adding one card and counting
≈ 0.1 ms; ``solve`` of a 70-card deck (~120 facts) a few ms; a fresh ``Deduction`` ≈ 15 µs.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from .board import WALTON, Board
from .case import Solution
from .facts import FACT_FIELDS, validate_fact

__all__ = [
    "Deduction",
    "solve",
    "candidate_solutions",
    "candidate_index",
    "count_consistent",
    "semantic_key",
]

_WORD = 64
_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)


def _words(cond: np.ndarray) -> np.ndarray:
    """A bool array as full uint64 words (all ones / zero), with a trailing word axis."""
    return np.where(cond, _ONES, np.uint64(0))[..., None]


def _pack(bits: np.ndarray) -> np.ndarray:
    """Pack a bool array (..., N) along the last axis into uint64 words (..., ceil(N/64))."""
    n = bits.shape[-1]
    pad = (-n) % _WORD
    if pad:
        bits = np.concatenate([bits, np.zeros((*bits.shape[:-1], pad), dtype=bool)], axis=-1)
    packed = np.packbits(bits, axis=-1, bitorder="little")
    return np.ascontiguousarray(packed).view("<u8").astype(np.uint64)


@dataclass(frozen=True, eq=False)
class _Tables:
    """Per-board precomputed tables (built once per board, shared by every Deduction)."""

    S: int  # suspects
    NA: int  # alibi rooms
    NL: int  # rooms other than the crime scene (accomplice locations)
    NW: int  # weapons
    NM: int  # motives
    words: int
    all_bits: np.ndarray  # (words,) valid-assignment mask
    bstart: np.ndarray  # (S, NA, words): start[s] == alibi room a
    cnt: np.ndarray  # (S, S, NA, K+1, words): head count in room a of suspects not M/A == k
    kmax: int
    hc: np.ndarray  # (S,) head counts
    loc_rooms: tuple[str, ...]  # the NL accomplice locations
    loc_alibi: np.ndarray  # (NL,) alibi index of each location or -1
    suspect_idx: dict[str, int]
    alibi_idx: dict[str, int]
    loc_idx: dict[str, int]
    motive_idx: dict[str, int]
    weapon_idx: dict[str, int]
    motive_owner: np.ndarray  # (NM,)
    own: np.ndarray  # (S, NM) int64: 1 where the suspect owns the motive
    weapon_room: tuple[str, ...]
    weapon_signs: tuple[tuple[str, str], ...]
    f_init: np.ndarray  # (S, S, NL, words)
    f_init_solo: np.ndarray  # the same without accomplice configurations
    # candidate enumeration (full, accomplice possible); the first n0 have no accomplice
    n0: int
    c_mu: np.ndarray
    c_w: np.ndarray
    c_al: np.ndarray  # NM for "no accomplice"
    c_m: np.ndarray
    c_a: np.ndarray  # == c_m for "no accomplice"
    solutions: tuple[Solution, ...]
    index: dict[Solution, int]
    # the (motive, accomplice motive or NM, weapon) grid the mask is assembled on
    g_m: np.ndarray  # (NM, NM+1) murderer of each (mu, alpha)
    g_a: np.ndarray  # (NM, NM+1) accomplice (== murderer for alpha == NM)
    g_valid: np.ndarray  # (NM, NM+1) the pair is a candidate (alpha == NM or another owner)
    flat: np.ndarray  # (n,) position of each candidate in the flattened grid
    # broadcasting grids over (M, A, accomplice location)
    mi: np.ndarray  # (S, 1, 1)
    ai: np.ndarray  # (1, S, 1)
    li: np.ndarray  # (1, 1, NL)
    has_a: np.ndarray  # (S, S, 1): A != M
    excl_words: np.ndarray  # (S, S, S, 1): all ones where t == M or t == A
    zero_words: np.ndarray  # (words,)


_TABLES: dict[Board, _Tables] = {}


def _tables(board: Board) -> _Tables:
    t = _TABLES.get(board)
    if t is None:
        t = _build_tables(board)
        _TABLES[board] = t
    return t


def _build_tables(board: Board) -> _Tables:
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
    contrib = onehot * hc[None, :, None]  # (N, S, NA)
    total = contrib.sum(axis=1)  # (N, NA)
    cnt = np.zeros((S, S, NA, kmax + 1, words), dtype=np.uint64)
    ks = np.arange(kmax + 1)
    for m in range(S):
        for a in range(S):
            c = total - contrib[:, m, :] - (contrib[:, a, :] if a != m else 0)  # (N, NA)
            eq = c.T[:, None, :] == ks[None, :, None]  # (NA, K+1, N)
            cnt[m, a] = _pack(eq)
    loc_rooms = tuple(r for r in board.rooms if r != board.crime_scene)
    NL = len(loc_rooms)
    alibi_idx = {r: i for i, r in enumerate(board.alibi_rooms)}
    loc_alibi = np.array([alibi_idx.get(r, -1) for r in loc_rooms], dtype=np.int64)
    suspect_idx = {s: i for i, s in enumerate(board.suspects)}
    NM, NW = len(board.motives), len(board.weapons)
    motive_owner = np.array([suspect_idx[m.owner] for m in board.motives], dtype=np.int64)

    mi = np.arange(S)[:, None, None]
    ai = np.arange(S)[None, :, None]
    li = np.arange(NL)[None, None, :]
    valid_cfg = (mi != ai) | (li == 0)  # (S, S, NL)
    f_init = np.where(valid_cfg[..., None], all_bits, np.uint64(0)).astype(np.uint64)

    c_mu, c_w, c_al = [], [], []
    for mu in range(NM):
        for w in range(NW):
            c_mu.append(mu)
            c_w.append(w)
            c_al.append(NM)
    n0 = len(c_mu)
    for mu in range(NM):
        for w in range(NW):
            for al in range(NM):
                if motive_owner[al] != motive_owner[mu]:
                    c_mu.append(mu)
                    c_w.append(w)
                    c_al.append(al)
    c_mu_a = np.array(c_mu, dtype=np.int64)
    c_w_a = np.array(c_w, dtype=np.int64)
    c_al_a = np.array(c_al, dtype=np.int64)
    owner_ext = np.append(motive_owner, -1)
    c_m = owner_ext[c_mu_a]
    c_a = np.where(c_al_a == NM, c_m, owner_ext[c_al_a])
    sols = []
    for mu, w, al in zip(c_mu, c_w, c_al, strict=True):
        m = board.motives[mu]
        if al == NM:
            sols.append(Solution(m.owner, m.id, board.weapons[w].id, None, None))
        else:
            a = board.motives[al]
            sols.append(Solution(m.owner, m.id, board.weapons[w].id, a.owner, a.id))
    return _Tables(
        S=S,
        NA=NA,
        NL=NL,
        NW=NW,
        NM=NM,
        words=words,
        all_bits=all_bits,
        bstart=bstart,
        cnt=cnt,
        kmax=kmax,
        hc=hc,
        loc_rooms=loc_rooms,
        loc_alibi=loc_alibi,
        suspect_idx=suspect_idx,
        alibi_idx=alibi_idx,
        loc_idx={r: i for i, r in enumerate(loc_rooms)},
        motive_idx={m.id: i for i, m in enumerate(board.motives)},
        weapon_idx={w.id: i for i, w in enumerate(board.weapons)},
        motive_owner=motive_owner,
        own=(motive_owner[None, :] == np.arange(S)[:, None]).astype(np.int64),
        weapon_room=tuple(w.room for w in board.weapons),
        weapon_signs=tuple(w.signs for w in board.weapons),
        f_init=f_init,
        f_init_solo=np.where((mi == ai)[..., None], f_init, np.uint64(0)).astype(np.uint64),
        n0=n0,
        c_mu=c_mu_a,
        c_w=c_w_a,
        c_al=c_al_a,
        c_m=c_m,
        c_a=c_a,
        solutions=tuple(sols),
        index={s: i for i, s in enumerate(sols)},
        g_m=np.broadcast_to(motive_owner[:, None], (NM, NM + 1)).copy(),
        g_a=np.where(np.arange(NM + 1)[None, :] == NM, motive_owner[:, None], owner_ext[None, :]),
        g_valid=(np.arange(NM + 1)[None, :] == NM) | (owner_ext[None, :] != motive_owner[:, None]),
        flat=(c_mu_a * (NM + 1) + c_al_a) * NW + c_w_a,
        mi=mi,
        ai=ai,
        li=li,
        has_a=mi != ai,
        excl_words=_words(
            (np.arange(S)[None, None, :] == np.arange(S)[:, None, None])
            | (np.arange(S)[None, None, :] == np.arange(S)[None, :, None])
        ),
        zero_words=np.zeros(words, dtype=np.uint64),
    )


_ROUTES: dict[tuple[Board, frozenset], np.ndarray] = {}


def _route_table(board: Board, unused: frozenset) -> np.ndarray:
    """R[s, w]: from alibi room ``s`` a walk passes the room of weapon ``w`` and enters the
    crime scene, avoiding the ``unused`` passages (two-way passages both ways; the crime scene
    only at the end). Read-only; cached per set of unused passages."""
    key = (board, unused)
    r = _ROUTES.get(key)
    if r is None:
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
        if len(_ROUTES) > 50_000:
            _ROUTES.clear()
        _ROUTES[key] = r
    return r


def candidate_solutions(accomplice_possible: bool, board: Board = WALTON) -> tuple[Solution, ...]:
    """The fixed candidate enumeration (360 or 5,760 solutions, in mask order)."""
    t = _tables(board)
    return t.solutions if accomplice_possible else t.solutions[: t.n0]


def candidate_index(solution: Solution, board: Board = WALTON) -> int:
    """Position of a solution in the candidate enumeration; ``ValueError`` if it is none."""
    try:
        return _tables(board).index[Solution(*solution)]
    except KeyError:
        raise ValueError(f"not a candidate solution: {solution!r}") from None


_SEMANTIC_FIELDS: dict[str, tuple[str, ...]] = {
    **FACT_FIELDS,
    "evidence": ("motive", "verdict"),  # the room only sets the text
    "alone": ("suspect",),  # the room only sets the text
    "together": (),  # no inference at all
}


def semantic_key(fact: dict) -> tuple:
    """What the engine uses of a (valid) fact: equal keys have the same effect. The speaker
    matters only for testimony (rule 8) and claims; rooms of evidence/alone/together and
    everything of ``together`` do not matter."""
    t = fact["type"]
    out: list = [t, fact["speaker"] if t in ("testimony", "claim") else None]
    for k in _SEMANTIC_FIELDS[t]:
        v = fact[k]
        out.append(tuple(v) if isinstance(v, list) else v)
    return tuple(out)


#: Fact types whose effect is a fixed set of excluded candidates (the factors multiply).
LOCAL_TYPES = frozenset(
    {"sign_absent", "weapon_unused", "testimony", "evidence", "together", "apart", "alone"}
)
_LOCAL_MASKS: dict[tuple[Board, tuple], np.ndarray] = {}


def _local_mask(fact: dict, board: Board) -> np.ndarray:
    """Candidates (accomplice possible) consistent with one local fact; cached."""
    key = (board, semantic_key(fact))
    m = _LOCAL_MASKS.get(key)
    if m is None:
        d = Deduction(True, board)
        d.add_facts((fact,), validate=False)
        m = d.candidate_mask()
        _LOCAL_MASKS[key] = m
    return m


def count_consistent(
    facts: Iterable[dict], accomplice_possible: bool = True, board: Board = WALTON
) -> int:
    """Number of candidates consistent with ``facts`` (valid facts; not re-validated).

    Fast path for sets of local facts (signs, weapons, boxes, sightings of the evening): their
    cached single-fact masks are combined with AND."""
    facts = list(facts)
    if all(f["type"] in LOCAL_TYPES for f in facts):
        n = len(candidate_solutions(accomplice_possible, board))
        mask = np.ones(n, dtype=bool)
        for f in facts:
            mask &= _local_mask(f, board)[:n]
        return int(np.count_nonzero(mask))
    d = Deduction(accomplice_possible, board)
    d.add_facts(facts, validate=False)
    return d.count()


class Deduction:
    """Incremental deduction state: add facts, read the consistent candidates.

    Plain and copyable (``clone()``, ``copy.deepcopy``, ``pickle``). Adding a fact that was
    already added does nothing.
    """

    def __init__(self, accomplice_possible: bool, board: Board = WALTON) -> None:
        self.board = board
        self.accomplice_possible = bool(accomplice_possible)
        t = _tables(board)
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
        self._f = (t.f_init if self.accomplice_possible else t.f_init_solo).copy()
        self._weapon_ok = np.ones(t.NW, dtype=bool)
        self._route = _route_table(board, frozenset())
        self._route_dirty = False
        self._consp = np.ones((t.S, t.S), dtype=bool)
        self._consp_dirty = False
        self._loc = np.ones((t.S, t.S, t.NA), dtype=bool)
        self._loc_dirty = False
        self._mask: np.ndarray | None = None
        self._cand_grid: np.ndarray | None = None
        self._count: int | None = None
        self._j: np.ndarray | None = None

    # -- copying / pickling ----------------------------------------------------------------
    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        del state["_t"]
        # the location bitsets are ~166 KB of very regular words: store them compressed
        state["_f"] = zlib.compress(self._f.tobytes(), 1)
        for k in ("_mask", "_cand_grid", "_count", "_j"):  # caches: recomputed on demand
            state[k] = None
        return state

    def __setstate__(self, state: dict) -> None:
        state = dict(state)
        t = _tables(state["board"])
        f = np.frombuffer(zlib.decompress(state["_f"]), dtype=np.uint64)
        state["_f"] = f.reshape(t.f_init.shape).copy()
        self.__dict__.update(state)
        self._t = t

    def __copy__(self) -> Deduction:
        return self.clone()

    def __deepcopy__(self, memo: dict) -> Deduction:
        return self.clone()

    def clone(self) -> Deduction:
        """An independent copy."""
        new = Deduction.__new__(Deduction)
        d = self.__dict__.copy()
        for k, v in d.items():
            if isinstance(v, np.ndarray):
                d[k] = v.copy()
            elif isinstance(v, set):
                d[k] = set(v)
        d["_claims"] = {s: set(c) for s, c in self._claims.items()}
        new.__dict__.update(d)
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
        if typ == "sign_absent":
            self._absent_signs.add(f["sign"])
            for i, signs in enumerate(t.weapon_signs):
                if f["sign"] in signs:
                    self._weapon_ok[i] = False
        elif typ == "weapon_unused":
            self._unused_weapons.add(f["weapon"])
            self._weapon_ok[t.weapon_idx[f["weapon"]]] = False
        elif typ == "passage_unused":
            self._unused_passages.add((f["from"], f["to"]))
            self._route_dirty = True
        elif typ in ("testimony", "evidence"):
            mu = t.motive_idx[f["motive"]]
            if f["verdict"] == "refutes":
                self._refuted[mu] = True
            if typ == "testimony":
                self._testified[t.suspect_idx[f["speaker"]], mu] = True
        elif typ == "seen_before":
            self._f &= t.bstart[t.suspect_idx[f["suspect"]], t.alibi_idx[f["room"]]]
            self._loc_dirty = True
        elif typ == "seen_at_murder":
            self._add_seen_at_murder(f)
        elif typ == "guest_count":
            self._add_guest_count(f)
        elif typ == "claim":
            self._add_claim(f)
            self._claims.setdefault(f["suspect"], set()).add((f["room"], tuple(f["with"])))
            self._consp_dirty = True
        elif typ == "alone":
            self._alone.add(f["suspect"])
            self._consp_dirty = True
        elif typ == "apart":
            self._apart.add(frozenset(f["suspects"]))
            self._consp_dirty = True
        elif typ == "together":
            pass  # no inference (may mislead)
        else:  # pragma: no cover - validate_fact rejects unknown types
            raise ValueError(f"unknown fact type {typ!r}")
        self._mask = None
        self._cand_grid = None
        self._count = None
        self._j = None

    def _grid(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        t = self._t
        return t.mi, t.ai, t.li, t.has_a

    def _add_seen_at_murder(self, f: dict) -> None:
        t = self._t
        s = t.suspect_idx[f["suspect"]]
        lr = t.loc_idx[f["room"]]
        ra = t.alibi_idx.get(f["room"], -1)
        mi, ai, li, has_a = self._grid()
        base = t.bstart[s, ra] if ra >= 0 else t.zero_words
        is_a = has_a & (ai == s)  # (S, S, 1)
        # innocent s: start room == room; murderer: never; accomplice: location == room
        row = (base & _words(~is_a & (mi != s))) | _words(is_a & (li == lr))
        self._f &= row
        self._loc_dirty = True

    def _add_guest_count(self, f: dict) -> None:
        t = self._t
        ra = t.alibi_idx[f["room"]]
        c = f["count"]
        mi, ai, li, has_a = self._grid()
        a_here = has_a & (t.loc_alibi[li] == ra)  # (S, S, NL)
        need = c - t.hc[ai] * a_here
        ok = (need >= 0) & (need <= t.kmax)
        rows = t.cnt[mi, ai, ra, np.clip(need, 0, t.kmax)]  # (S, S, NL, words)
        self._f &= rows & _words(ok)
        self._loc_dirty = True

    def _add_claim(self, f: dict) -> None:
        t = self._t
        s = t.suspect_idx[f["suspect"]]
        ra = t.alibi_idx[f["room"]]
        in_w = np.zeros(t.S, dtype=bool)
        for x in f["with"]:
            in_w[t.suspect_idx[x]] = True
        b = t.bstart[:, ra]  # (S, words): start[t] == room
        x = b ^ _words(~in_w)  # t in `with`: there; otherwise: not there
        x[s] = b[s]
        p = np.bitwise_and.reduce(x | t.excl_words, axis=2)  # (M, A, words): AND over t != M, A
        mi, ai, li, has_a = self._grid()
        culprit = (mi == s) | (has_a & (ai == s))  # (S, S, 1): the claim is not trusted
        ok = ~in_w[mi] & (~has_a | (in_w[ai] == (t.loc_alibi[li] == ra)))  # (S, S, NL)
        self._f &= (p[:, :, None, :] & _words(ok)) | _words(culprit)
        self._loc_dirty = True

    # -- derived factors ---------------------------------------------------------------------
    def _update_route(self) -> None:
        self._route = _route_table(self.board, frozenset(self._unused_passages))
        self._route_dirty = False

    def _update_consp(self) -> None:
        t = self._t
        idx = t.suspect_idx
        partner = np.full(t.S, -1, dtype=np.int64)  # -1: no claim, -2: not one single partner
        room = np.full(t.S, -1, dtype=np.int64)  # -1: no claim, -2: several rooms
        for s, claims in self._claims.items():
            i = idx[s]
            withs = {w for _, w in claims}
            rooms = {r for r, _ in claims}
            only = next(iter(withs)) if len(withs) == 1 else ()
            partner[i] = idx[only[0]] if len(only) == 1 else -2
            room[i] = t.alibi_idx[next(iter(rooms))] if len(rooms) == 1 else -2
        alone = np.zeros(t.S, dtype=bool)
        for s in self._alone:
            alone[idx[s]] = True
        apart = np.zeros((t.S, t.S), dtype=bool)
        for pr in self._apart:
            i, j = (idx[x] for x in pr)
            apart[i, j] = apart[j, i] = True
        m = np.arange(t.S)[:, None]
        a = np.arange(t.S)[None, :]
        pm, pa = partner[:, None], partner[None, :]
        rm, ra = room[:, None], room[None, :]
        consp = (
            ((pm == -1) | (pm == a))
            & ((pa == -1) | (pa == m))
            & (rm != -2)
            & (ra != -2)
            & ((rm == -1) | (ra == -1) | (rm == ra))
            & ~alone[:, None]
            & ~alone[None, :]
            & ~apart
        )
        consp[m == a] = True
        self._consp = consp
        self._consp_dirty = False

    def _update_loc(self) -> None:
        t = self._t
        g = np.bitwise_or.reduce(self._f, axis=2)  # (S, S, words)
        both = g[:, :, None, :] & t.bstart[:, None, :, :]  # (S, S, NA, words)
        self._loc = both.any(axis=-1)
        self._loc_dirty = False

    def _joint(self) -> np.ndarray:
        """J[M, A, w]: the weapon is possible and some start room of M satisfies every
        location fact (for this M, A) and has a route through the weapon's room."""
        if self._j is None:
            if self._route_dirty:
                self._update_route()
            if self._loc_dirty:
                self._update_loc()
            j = (self._loc.astype(np.uint8) @ self._route.astype(np.uint8)).astype(bool)
            j &= self._weapon_ok
            self._j = j
        return self._j

    def candidate_mask(self) -> np.ndarray:
        """Bool mask over the candidate enumeration (360 or 5,760; see the module docs)."""
        if self._mask is None:
            t = self._t
            j = self._joint()
            ok = ~self._refuted
            if self.accomplice_possible:
                if self._consp_dirty:
                    self._update_consp()
                gm, ga = t.g_m, t.g_a
                mus = np.arange(t.NM)[:, None]
                als = np.arange(t.NM + 1)[None, :]
                pair = (
                    ok[:-1, None]
                    & ok[None, :]
                    & self._consp[gm, ga]
                    & ~self._testified[ga, mus]
                    & ~self._testified[gm, als]
                    & t.g_valid
                )  # (NM, NM+1)
                grid = pair[:, :, None] & j[gm, ga]  # (NM, NM+1, NW)
                mask = grid.reshape(-1)[t.flat]
            else:
                own = t.motive_owner
                grid = (ok[:-1, None] & j[own, own])[:, None, :]  # (NM, 1 = none, NW)
                mask = grid.reshape(-1)
            mask.flags.writeable = False
            self._mask = mask
            self._cand_grid = grid
        return self._mask

    def count(self) -> int:
        """Number of consistent candidates (factored: no mask is built).

        Per (M, A): #weapons(J) × #μ of M (not refuted, not testified by A) × #α of A (not
        refuted, not testified by M), gated by the conspiracy factor; A == M is "no accomplice".
        """
        if self._count is None:
            if self._mask is not None:
                self._count = int(np.count_nonzero(self._mask))
                return self._count
            t = self._t
            nw = self._joint().sum(axis=2)  # (S, S)
            okm = t.own * ~self._refuted[:-1]  # (S, NM): M's motives not refuted
            if self.accomplice_possible:
                if self._consp_dirty:
                    self._update_consp()
                free = (~self._testified[:, :-1]).astype(np.int64)  # (S, NM)
                nmu = okm @ free.T  # [M, A]: μ of M not refuted, not testified by A
                nal = free @ okm.T  # [M, A]: α of A not refuted, not testified by M
                np.fill_diagonal(nal, 1)
                self._count = int((nw * nmu * nal * self._consp).sum())
            else:
                self._count = int((np.diagonal(nw) * okm.sum(axis=1)).sum())
        return self._count

    # -- reading -----------------------------------------------------------------------------
    def candidates(self) -> list[Solution]:
        """The consistent candidates, in enumeration order."""
        sols = self._t.solutions
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
        grid = self._cand_grid
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
