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
locations ``F[M, A, l]``     (6, 6, 9) sets    seen_before / seen_at_murder / guest_count /
                             of 4⁶ starts      claim
conspiracy (iii)             (6, 6)            claim / alone / apart
===========================  ================  =============================================

``F[M, A, l]`` is, for murderer ``M``, accomplice ``A`` (``A == M`` encodes "no accomplice")
and accomplice location ``l`` (one of the 9 rooms other than the study), the set of the
4⁶ = 4,096 start-room assignments under which every location fact holds. It is kept factored,
``F[M, A, l] = H[M, A, class(l)] & gate[M, A, l]``: the gate (bool) holds what only depends on
where the accomplice is, and ``class(l)`` (the alibi room ``l`` is, or "none") is all a head
count needs to know of ``l``. Until the first head count every location fact restricts each
suspect's start room on its own, so ``H[M, A]`` is a product set, kept as one allowed-room mask
per suspect (``box``, (6, 6, 6) bytes); the first head count expands it into bitsets of 64
uint64 words (``H``: (6, 6, 5, 64)). Without an accomplice only ``F[M, M, 0]`` exists ((6, 64)
words). The start-room tables (who is where, head counts per room) are precomputed once per
board. The joint location/route factor over ``(M, A, w)`` is "some start room ``s`` of ``M``
with ``F[M, A, ·]`` non-empty on ``start[M] = s`` and ``R[s, w]``". The factors are combined by
one gather into the fixed enumeration; :meth:`Deduction.count` multiplies the per-(M, A) factor
counts instead and builds no mask. What a fact does to the location state does not depend on the
state, so it is computed once per fact content (bounded caches), as are the motive, (μ, α) pair
and conspiracy factors per content of what they depend on; clones share every array that is
only ever replaced, and :meth:`Deduction.merged` combines two states (the generator's "all
facts but one" states).

Cost (measured on the 2-core development machine): adding one card and counting
≈ 0.05 ms; ``solve`` of a 70-card deck (~120 facts) a few ms; a fresh ``Deduction`` ≈ 6 µs.
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
    gate_init: np.ndarray  # (S, S, NL): the valid (M, A, l) configurations
    NC: int  # location classes: the NA alibi rooms, then "not an alibi room"
    room_all: int  # the room-set mask of every alibi room ((1 << NA) - 1)
    digit_bits: np.ndarray  # (S, 2**NA, words): assignments with start[t] in room set m
    mask_rooms: np.ndarray  # (2**NA, NA) bool: the rooms of a room-set mask
    box_init: np.ndarray  # (S, S, S) uint8: every start room allowed
    loc_class: np.ndarray  # (NL,) class of each accomplice location
    class_onehot: np.ndarray  # (NL, NC) uint8
    f_init_solo: np.ndarray  # (S, words): only the configurations M == A, l == 0 (no accomplice)
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
    c_pair: np.ndarray  # (n,) position of each candidate's (μ, α) in the flattened pair grid
    c_jidx: np.ndarray  # (n,) position of each candidate's (M, A, w) in the flattened J
    # broadcasting grids over (M, A, accomplice location)
    mi: np.ndarray  # (S, 1, 1)
    ai: np.ndarray  # (1, S, 1)
    li: np.ndarray  # (1, 1, NL)
    has_a: np.ndarray  # (S, S, 1): A != M
    zero_words: np.ndarray  # (words,)


_TABLES: dict[Board, _Tables] = {}


def _readonly(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


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
        gate_init=_readonly(valid_cfg.copy()),
        NC=NA + 1,
        room_all=(1 << NA) - 1,
        digit_bits=_readonly(
            np.stack(
                [
                    np.bitwise_or.reduce(
                        np.where(
                            ((np.arange(1 << NA)[:, None] >> np.arange(NA)[None, :]) & 1)[
                                :, :, None
                            ].astype(bool),
                            bstart[t][None, :, :],
                            np.uint64(0),
                        ),
                        axis=1,
                    )
                    for t in range(S)
                ]
            )
        ),
        mask_rooms=_readonly(((np.arange(1 << NA)[:, None] >> np.arange(NA)[None, :]) & 1) == 1),
        box_init=_readonly(np.full((S, S, S), (1 << NA) - 1, dtype=np.uint8)),
        loc_class=_readonly(np.where(loc_alibi >= 0, loc_alibi, NA)),
        class_onehot=_readonly(
            (np.where(loc_alibi >= 0, loc_alibi, NA)[:, None] == np.arange(NA + 1)[None, :]).astype(
                np.uint8
            )
        ),
        f_init_solo=_readonly(np.broadcast_to(all_bits, (S, words)).copy()),
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
        c_pair=c_mu_a * (NM + 1) + c_al_a,
        c_jidx=(c_m * S + c_a) * NW + c_w_a,
        mi=mi,
        ai=ai,
        li=li,
        has_a=mi != ai,
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


# -- location facts: what they AND into the location state ---------------------------------
#
# Until the first head count (``guest_count``) every location fact restricts each suspect's
# start room on its own, so for every (M, A) the allowed start assignments are a product set:
# one allowed-room mask per suspect, ``box[M, A, t]`` (a bitmask over the NA alibi rooms). The
# bitset ``H[M, A]`` is that product set; a head count needs the bitsets, so the first one
# expands the box into ``H`` (``_box_bits``) and the state continues on bitsets.

_ROW_TYPES = frozenset({"seen_at_murder", "guest_count", "claim"})
#: rows by (board, kind, semantic key): a fact's row does not depend on the state, and the
#: generator adds the same few location facts to many states. Bounded; read-only.
_ROWS: dict[tuple, object] = {}
_ROWS_MAX = 256


def _cached_row(key: tuple, make) -> object:
    row = _ROWS.get(key)
    if row is None:
        row = make()
        if len(_ROWS) >= _ROWS_MAX:
            _ROWS.clear()
        _ROWS[key] = row
    return row


def _box_row(t: _Tables, f: dict) -> tuple[np.ndarray, np.ndarray]:
    """``(brow, gate)`` of a ``seen_at_murder`` / ``claim`` fact: ``brow`` (S, S, S) uint8
    ANDs into ``box``, ``gate`` (S, S, NL) bool into the gate (read-only, cached)."""

    def make() -> tuple[np.ndarray, np.ndarray]:
        brow, gate = (_claim_box if f["type"] == "claim" else _seen_at_murder_box)(t, f)
        brow.flags.writeable = False
        gate.flags.writeable = False
        return brow, gate

    return _cached_row((t, "box", semantic_key(f)), make)


def _bits_row(t: _Tables, f: dict) -> tuple[np.ndarray, np.ndarray | None]:
    """``(h, gate)`` of a location fact for a state on bitsets: ``h`` ANDs into ``H``
    (``(S, S, 1, words)``, or ``(S, S, NC, words)`` for a head count), ``gate`` (or None) into
    the gate. Together: ``F[M, A, l] &= h[M, A, class(l)] & gate[M, A, l]``."""

    def make() -> tuple[np.ndarray, np.ndarray | None]:
        if f["type"] == "guest_count":
            h, gate = _guest_count_row(t, f)
        else:
            brow, gate = _box_row(t, f)
            h = _box_bits(t, brow)[:, :, None, :]
        h.flags.writeable = False
        return h, gate

    return _cached_row((t, "bits", semantic_key(f)), make)


def _solo_row(t: _Tables, f: dict) -> np.ndarray:
    """The (S, words) row of a location fact for the configurations ``M == A, l == 0`` (no
    accomplice possible)."""

    def make() -> np.ndarray:
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

    return _cached_row((t, "solo", semantic_key(f)), make)


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


#: conspiracy factors by (tables, claims, alone, apart) content (read-only)
_CONSP: dict[tuple, np.ndarray] = {}
#: motive factors by (tables, accomplice possible, refuted, testified) content (read-only)
_MOTS: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
#: (μ, α) pair factors by (tables, refuted, testified, conspiracy) content (read-only, flat)
_PAIRS: dict[tuple, np.ndarray] = {}

#: an empty Deduction per (board, accomplice possible), copied by ``Deduction()``
_PROTOTYPES: dict[tuple[Board, bool], Deduction] = {}

#: derived caches of a Deduction (not pickled: recomputed on demand)
_CACHES = ("_mask", "_cand_grid", "_count", "_j", "_mot", "_pair")
#: the only arrays of a Deduction that are modified in place (``clone`` copies these)
_MUTABLE_ARRAYS = ("_refuted", "_testified", "_weapon_ok")


class Deduction:
    """Incremental deduction state: add facts, read the consistent candidates.

    Plain and copyable (``clone()``, ``copy.deepcopy``, ``pickle``). Adding a fact that was
    already added does nothing.
    """

    def __init__(self, accomplice_possible: bool, board: Board = WALTON) -> None:
        proto = _PROTOTYPES.get((board, bool(accomplice_possible)))
        if proto is not None:  # a copy of the empty state (faster than building it)
            self.__dict__.update(proto.clone().__dict__)
            return
        self._setup(accomplice_possible, board)
        _PROTOTYPES[(board, self.accomplice_possible)] = self.clone()

    def _setup(self, accomplice_possible: bool, board: Board) -> None:
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
        self._mot: tuple[np.ndarray, np.ndarray] | None = None
        self._pair: np.ndarray | None = None

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
        t = _tables(state["board"])
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
        for k, v in d.items():
            if isinstance(v, set):
                d[k] = set(v)
        d["_claims"] = {s: set(c) for s, c in self._claims.items()}
        new.__dict__.update(d)
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
        self._route = _route_table(self.board, frozenset(self._unused_passages))
        self._route_dirty = False

    def _update_consp(self) -> None:
        """consp[M, A] (condition iii; ``A == M``: no accomplice, always True), from the
        claims, ``alone`` and ``apart`` facts (plain Python: a 6 × 6 table)."""
        t = self._t
        key = (
            t,
            frozenset((s, frozenset(c)) for s, c in self._claims.items()),
            frozenset(self._alone),
            frozenset(self._apart),
        )
        consp = _CONSP.get(key)
        if consp is None:
            consp = self._conspiracy()
            consp.flags.writeable = False
            if len(_CONSP) >= 4096:
                _CONSP.clear()
            _CONSP[key] = consp
        self._consp = consp
        self._consp_dirty = False

    def _conspiracy(self) -> np.ndarray:
        t = self._t
        idx = t.suspect_idx
        S = t.S
        partner = [-1] * S  # -1: no claim, -2: not one single partner
        room = [-1] * S  # -1: no claim, -2: several rooms
        for s, claims in self._claims.items():
            i = idx[s]
            withs = {w for _, w in claims}
            rooms = {r for r, _ in claims}
            only = next(iter(withs)) if len(withs) == 1 else ()
            partner[i] = idx[only[0]] if len(only) == 1 else -2
            room[i] = t.alibi_idx[next(iter(rooms))] if len(rooms) == 1 else -2
        alone = [False] * S
        for s in self._alone:
            alone[idx[s]] = True
        apart = set()
        for pr in self._apart:
            i, j = (idx[x] for x in pr)
            apart.add((i, j))
            apart.add((j, i))
        rows = []
        for m in range(S):
            pm, rm = partner[m], room[m]
            ok_m = rm != -2 and not alone[m]
            row = []
            for a in range(S):
                if m == a:
                    row.append(True)
                    continue
                pa, ra = partner[a], room[a]
                row.append(
                    ok_m
                    and (pm == -1 or pm == a)
                    and (pa == -1 or pa == m)
                    and ra != -2
                    and (rm == -1 or ra == -1 or rm == ra)
                    and not alone[a]
                    and (m, a) not in apart
                )
            rows.append(row)
        return np.array(rows, dtype=bool)

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
        """Motive factors (cached until a testimony / evidence is added): ``(okm, nmn)`` —
        okm (S, NM) the murderer's motives not refuted; nmn (S, S) the number of (μ, α)
        choices per (M, A) (with an accomplice possible; ``A == M``: #μ of M) or, without,
        #μ per M on the diagonal's place (S,)."""
        if self._mot is None:
            t = self._t
            key = (t, self.accomplice_possible, self._refuted.tobytes(), self._testified.tobytes())
            mot = _MOTS.get(key)
            if mot is not None:
                self._mot = mot
                return mot
            okm = t.own * ~self._refuted[:-1]  # (S, NM): M's motives not refuted
            if self.accomplice_possible:
                free = (~self._testified[:, :-1]).astype(np.int64)  # (S, NM)
                nmu = okm @ free.T  # [M, A]: μ of M not refuted, not testified by A
                nal = free @ okm.T  # [M, A]: α of A not refuted, not testified by M
                np.fill_diagonal(nal, 1)
                nmn = nmu * nal
            else:
                nmn = okm.sum(axis=1)
            okm.flags.writeable = False
            nmn.flags.writeable = False
            self._mot = (okm, nmn)
            if len(_MOTS) >= 1024:
                _MOTS.clear()
            _MOTS[key] = self._mot
        return self._mot

    def _pair_factor(self) -> np.ndarray:
        """pair[μ, α] (NM, NM+1; α == NM: no accomplice) of the motive and conspiracy
        conditions (accomplice possible only; cached until they change, and by content)."""
        if self._pair is None:
            t = self._t
            if self._consp_dirty:
                self._update_consp()
            key = (t, self._refuted.tobytes(), self._testified.tobytes(), self._consp.tobytes())
            pair = _PAIRS.get(key)
            if pair is None:
                ok = ~self._refuted
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
                ).reshape(-1)  # (NM * (NM+1),)
                pair.flags.writeable = False
                if len(_PAIRS) >= 2048:
                    _PAIRS.clear()
                _PAIRS[key] = pair
            self._pair = pair
        return self._pair

    def candidate_mask(self) -> np.ndarray:
        """Bool mask over the candidate enumeration (360 or 5,760; see the module docs)."""
        if self._mask is None:
            t = self._t
            j = self._joint()
            if self.accomplice_possible:
                pair = self._pair_factor()
                # == (pair[:, :, None] & j[g_m, g_a]).reshape(-1)[flat], gathered directly
                mask = pair[t.c_pair] & j.reshape(-1)[t.c_jidx]
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
                pair = self._pair_factor().reshape(t.NM, t.NM + 1)
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
