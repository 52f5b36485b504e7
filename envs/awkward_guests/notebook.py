"""Awkward Guests — the notebook grid: every fact a player knows, as fixed 0/1 cells.

A player's notebook (the investigation sheet) is the union of the facts on every card they
have seen. Each fact sets one or more cells of a fixed grid of ``NOTEBOOK_SIZE`` (364) cells;
cells are only ever set, never cleared (knowledge is never lost). The grid is the
``notebook`` block of the observation (:mod:`parlour.envs.awkward_guests.observation`).

| block | shape | a cell is 1 when the player has seen … |
|---|---|---|
| ``signs_absent`` | 10 | ``sign_absent``: the body shows no such sign (sign order) |
| ``weapons_unused`` | 20 | ``weapon_unused``: the weapon was not used (weapon order) |
| ``passages_unused`` | 14 | ``passage_unused``: nobody used the passage (board passage order) |
| ``seen_before`` | 6 × 4 | ``seen_before``: suspect × alibi room, shortly before the murder |
| ``seen_at_murder`` | 6 × 9 | ``seen_at_murder``: suspect × room (every room but the study) |
| ``guest_counts`` | 4 × 8 | ``guest_count``: alibi room × head count 0..7 |
| ``claims`` | 6 × 11 | ``claim`` by the suspect: [claimed, alibi room (4), with (6 suspects)] |
| ``boxes`` | 18 × 3 × 2 | ``testimony`` / ``evidence``: motive × box (its 1st testifier, its 2nd testifier, evidence) × verdict (confirms, refutes) |
| ``together`` | 15 | ``together``: the suspect pair (pairs ``(i, j)``, ``i < j``, in order) |
| ``apart`` | 15 | ``apart``: the suspect pair |
| ``alone`` | 6 | ``alone``: the suspect |

Rulings: a suspect with two different known claims gets the union of both in their row (the
``claimed`` flag is set by any claim; a claim "alone" sets only ``claimed`` and the room). The
room of ``together`` / ``alone`` / ``evidence`` constrains nothing (docs/case_model.md#facts) and has no cell.
"""

from __future__ import annotations

from typing import Final

from .case.board import WALTON, Board
from .case.cards import Card

_B: Board = WALTON
_SUSPECTS = _B.suspects
_S = {s: i for i, s in enumerate(_SUSPECTS)}
_ALIBI = {r: i for i, r in enumerate(_B.alibi_rooms)}
_NON_STUDY = tuple(r for r in _B.rooms if r != _B.crime_scene)
_NS = {r: i for i, r in enumerate(_NON_STUDY)}
_SIGNS = {s: i for i, s in enumerate(_B.signs)}
_WEAPONS = {w.id: i for i, w in enumerate(_B.weapons)}
_PASSAGES = {(p.frm, p.to): i for i, p in enumerate(_B.passages)}
_MOTIVES = {m.id: i for i, m in enumerate(_B.motives)}
_PAIRS = tuple(
    (a, b) for i, a in enumerate(_SUSPECTS) for b in _SUSPECTS[i + 1 :]
)  # 15 pairs in order
_PAIR = {frozenset(p): i for i, p in enumerate(_PAIRS)}
MAX_HEADS: Final = sum(_B.head_count.values())  # 7
CLAIM_FEATURES: Final = 1 + len(_ALIBI) + len(_SUSPECTS)  # 11

#: (name, shape) of each notebook block, in order.
NOTEBOOK_BLOCKS: Final[tuple[tuple[str, tuple[int, ...]], ...]] = (
    ("signs_absent", (len(_SIGNS),)),
    ("weapons_unused", (len(_WEAPONS),)),
    ("passages_unused", (len(_PASSAGES),)),
    ("seen_before", (len(_SUSPECTS), len(_ALIBI))),
    ("seen_at_murder", (len(_SUSPECTS), len(_NON_STUDY))),
    ("guest_counts", (len(_ALIBI), MAX_HEADS + 1)),
    ("claims", (len(_SUSPECTS), CLAIM_FEATURES)),
    ("boxes", (len(_MOTIVES), 3, 2)),
    ("together", (len(_PAIRS),)),
    ("apart", (len(_PAIRS),)),
    ("alone", (len(_SUSPECTS),)),
)


def _layout() -> dict[str, slice]:
    out: dict[str, slice] = {}
    pos = 0
    for name, shape in NOTEBOOK_BLOCKS:
        size = 1
        for d in shape:
            size *= d
        out[name] = slice(pos, pos + size)
        pos += size
    return out


#: name -> slice of the notebook block (relative to the block's start).
NOTEBOOK_LAYOUT: Final[dict[str, slice]] = _layout()
NOTEBOOK_SIZE: Final = max(s.stop for s in NOTEBOOK_LAYOUT.values())  # 364
_O = {name: sl.start for name, sl in NOTEBOOK_LAYOUT.items()}
PAIRS: Final = _PAIRS
NON_STUDY_ROOMS: Final = _NON_STUDY


def fact_cells(fact: dict) -> tuple[int, ...]:
    """The notebook cells (indices into the notebook block) a fact sets."""
    t = fact["type"]
    if t == "sign_absent":
        return (_O["signs_absent"] + _SIGNS[fact["sign"]],)
    if t == "weapon_unused":
        return (_O["weapons_unused"] + _WEAPONS[fact["weapon"]],)
    if t == "passage_unused":
        return (_O["passages_unused"] + _PASSAGES[(fact["from"], fact["to"])],)
    if t == "seen_before":
        return (_O["seen_before"] + _S[fact["suspect"]] * len(_ALIBI) + _ALIBI[fact["room"]],)
    if t == "seen_at_murder":
        return (_O["seen_at_murder"] + _S[fact["suspect"]] * len(_NON_STUDY) + _NS[fact["room"]],)
    if t == "guest_count":
        return (_O["guest_counts"] + _ALIBI[fact["room"]] * (MAX_HEADS + 1) + int(fact["count"]),)
    if t == "claim":
        base = _O["claims"] + _S[fact["suspect"]] * CLAIM_FEATURES
        cells = [base, base + 1 + _ALIBI[fact["room"]]]
        cells += [base + 1 + len(_ALIBI) + _S[w] for w in fact["with"]]
        return tuple(cells)
    if t in ("testimony", "evidence"):
        mot = _B.motive(fact["motive"])
        box = 2 if t == "evidence" else mot.testifiers.index(fact["speaker"])
        verdict = 0 if fact["verdict"] == "confirms" else 1
        return (_O["boxes"] + _MOTIVES[mot.id] * 6 + box * 2 + verdict,)
    if t == "together":
        return (_O["together"] + _PAIR[frozenset(fact["suspects"])],)
    if t == "apart":
        return (_O["apart"] + _PAIR[frozenset(fact["suspects"])],)
    if t == "alone":
        return (_O["alone"] + _S[fact["suspect"]],)
    raise ValueError(f"unknown fact type {t!r}")


def card_cells(card: Card) -> tuple[int, ...]:
    """The notebook cells a card's facts set (sorted, without duplicates)."""
    cells: set[int] = set()
    for f in card.facts:
        cells.update(fact_cells(f))
    return tuple(sorted(cells))


def cell_name(cell: int) -> str:
    """A readable name of a notebook cell (``"boxes[poisoned_chalice, evidence, refutes]"``)."""
    for name, sl in NOTEBOOK_LAYOUT.items():
        if sl.start <= cell < sl.stop:
            i = cell - sl.start
            if name == "signs_absent":
                return f"{name}[{_B.signs[i]}]"
            if name == "weapons_unused":
                return f"{name}[{_B.weapons[i].id}]"
            if name == "passages_unused":
                p = _B.passages[i]
                return f"{name}[{p.frm}-{p.to}]"
            if name == "seen_before":
                return f"{name}[{_SUSPECTS[i // 4]}, {_B.alibi_rooms[i % 4]}]"
            if name == "seen_at_murder":
                k = len(_NON_STUDY)
                return f"{name}[{_SUSPECTS[i // k]}, {_NON_STUDY[i % k]}]"
            if name == "guest_counts":
                k = MAX_HEADS + 1
                return f"{name}[{_B.alibi_rooms[i // k]}, {i % k}]"
            if name == "claims":
                s, j = divmod(i, CLAIM_FEATURES)
                what = (
                    "claimed"
                    if j == 0
                    else (
                        _B.alibi_rooms[j - 1]
                        if j <= len(_ALIBI)
                        else f"with {_SUSPECTS[j - 1 - len(_ALIBI)]}"
                    )
                )
                return f"{name}[{_SUSPECTS[s]}, {what}]"
            if name == "boxes":
                m, r = divmod(i, 6)
                box, verdict = divmod(r, 2)
                mot = _B.motives[m]
                who = "evidence" if box == 2 else mot.testifiers[box]
                return f"{name}[{mot.id}, {who}, {('confirms', 'refutes')[verdict]}]"
            if name in ("together", "apart"):
                a, b = _PAIRS[i]
                return f"{name}[{a}, {b}]"
            return f"{name}[{_SUSPECTS[i]}]"
    raise ValueError(f"notebook cell {cell} out of range 0..{NOTEBOOK_SIZE - 1}")
