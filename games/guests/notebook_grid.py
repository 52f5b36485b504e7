"""The investigation sheet as a grid for the ``parlour serve`` page (built from the seat's own
notebook only), and the candidates its deduction still allows.

:func:`notebook_grid` gives ``{"sections": [...], "notes": [...]}``; each section is
``{"id", "title", "columns", "rows"}`` and each row ``{"key", "name", "cells"}`` with cells
``{"text", "state"}`` (``state``: ``"yes"`` a confirmed box, ``"no"`` refuted / ruled out,
``""`` nothing known). Row keys (``suspect:greg``, ``motive:stolen_recipe``, ``weapon:rope``,
``room:kitchen``) are where the page keeps the player's own marks.

| section | rows | columns (the sheet's) |
|---|---|---|
| ``suspects`` | the 6 suspects | seen before the murder in; seen at the murder in; their own claim; seen alone in |
| ``motives`` | the 18 motives (with their owner) | the two testifiers' boxes, the evidence box |
| ``weapons`` | the 20 weapons | kept in; the two signs it leaves (a missing one marked); ruled out |
| ``rooms`` | the 10 rooms | guests counted there at the murder; passages from it nobody used |

``notes``: the conspiracy facts (together, apart), in words. :func:`remaining` gives what the
deduction engine still allows per part of the solution, in display names.
"""

from __future__ import annotations

from typing import Any

from parlour.envs.awkward_guests.case.board import WALTON as B
from parlour.envs.awkward_guests.case.facts import fact_text
from parlour.envs.awkward_guests.moves import motive_boxes
from parlour.envs.awkward_guests.view import GuestsView

#: fact types written as notes below the grid
NOTE_TYPES = ("together", "apart")
#: the verdicts of a proof box
VERDICT_STATE = {"confirms": "yes", "refutes": "no"}


def _cell(text: str = "", state: str = "") -> dict[str, str]:
    return {"text": text, "state": state}


def _section(key: str, title: str, columns: list[str], rows: list[dict]) -> dict[str, Any]:
    return {"id": key, "title": title, "columns": columns, "rows": rows}


def _join(items: list[str]) -> str:
    return ", ".join(dict.fromkeys(items))


def _suspects(facts: list[dict]) -> dict[str, Any]:
    rows = []
    for s in B.suspects:
        mine = [f for f in facts if f.get("suspect") == s]
        before = [B.display(f["room"]) for f in mine if f["type"] == "seen_before"]
        at = [B.display(f["room"]) for f in mine if f["type"] == "seen_at_murder"]
        alone = [B.display(f["room"]) for f in mine if f["type"] == "alone"]
        claims = []
        for f in mine:
            if f["type"] == "claim":
                who = " with " + _join([B.display(w) for w in f["with"]]) if f["with"] else " alone"
                claims.append(B.display(f["room"]) + who)
        rows.append(
            {
                "key": f"suspect:{s}",
                "name": B.display(s),
                "cells": [_cell(_join(x)) for x in (before, at, claims, alone)],
            }
        )
    return _section(
        "suspects",
        "Suspects",
        [
            "seen before the murder in",
            "seen at the murder in",
            "says they were in",
            "seen alone in",
        ],
        rows,
    )


def _motives(facts: list[dict]) -> dict[str, Any]:
    boxes = {box: VERDICT_STATE[verdict] for box, verdict in motive_boxes(facts).items()}
    rows = []
    for m in B.motives:
        cells = []
        for k in (*m.testifiers, "evidence"):
            state = boxes.get((m.id, k), "")
            who = "the police" if k == "evidence" else B.display(k)
            cells.append(_cell(who, state))
        rows.append(
            {"key": f"motive:{m.id}", "name": f"{m.name} ({B.display(m.owner)})", "cells": cells}
        )
    return _section("motives", "Motives", ["first witness", "second witness", "evidence"], rows)


def _weapons(facts: list[dict]) -> dict[str, Any]:
    absent = {f["sign"] for f in facts if f["type"] == "sign_absent"}
    unused = {f["weapon"] for f in facts if f["type"] == "weapon_unused"}
    rows = []
    for w in B.weapons:
        signs = [B.display(s) + (" (missing)" if s in absent else "") for s in w.signs]
        why = []
        if w.id in unused:
            why.append("not used")
        if absent & set(w.signs):
            why.append("a sign is missing")
        rows.append(
            {
                "key": f"weapon:{w.id}",
                "name": B.display(w.id),
                "cells": [
                    _cell(B.display(w.room)),
                    _cell(", ".join(signs), "no" if absent & set(w.signs) else ""),
                    _cell(", ".join(why), "no" if why else ""),
                ],
            }
        )
    return _section("weapons", "Weapons", ["kept in", "signs it leaves", "ruled out"], rows)


def _rooms(facts: list[dict]) -> dict[str, Any]:
    rows = []
    for r in B.rooms:
        counts = [str(f["count"]) for f in facts if f["type"] == "guest_count" and f["room"] == r]
        crossed = [
            B.display(f["to"] if f["from"] == r else f["from"])
            for f in facts
            if f["type"] == "passage_unused" and r in (f["from"], f["to"])
        ]
        rows.append(
            {
                "key": f"room:{r}",
                "name": B.display(r),
                "cells": [_cell(_join(counts)), _cell(_join(crossed), "no" if crossed else "")],
            }
        )
    return _section(
        "rooms", "Rooms", ["guests there at the murder", "nobody used the passage to"], rows
    )


def notebook_grid(view: GuestsView) -> dict[str, Any]:
    """The viewer's investigation sheet as a grid (the module table), from its notebook only."""
    facts = list(view.facts)
    return {
        "sections": [_suspects(facts), _motives(facts), _weapons(facts), _rooms(facts)],
        "notes": list(dict.fromkeys(fact_text(f) for f in facts if f["type"] in NOTE_TYPES)),
    }


def remaining(ded: Any, accomplice_possible: bool) -> dict[str, list[str]]:
    """What the deduction ``ded`` still allows, per part of the solution, in display names
    (board order): ``murderers``, ``motives``, ``weapons`` and, when an accomplice is
    possible, ``accomplices`` ("no accomplice" included) and ``accomplice_motives``."""
    a = ded.possible_arrays()
    motives = [f"{m.name} ({B.display(m.owner)})" for m in B.motives]
    out = {
        "murderers": [B.display(s) for s, ok in zip(B.suspects, a["murderers"], strict=True) if ok],
        "motives": [m for m, ok in zip(motives, a["motives"], strict=True) if ok],
        "weapons": [B.display(w.id) for w, ok in zip(B.weapons, a["weapons"], strict=True) if ok],
    }
    if accomplice_possible:
        names = [*(B.display(s) for s in B.suspects), "no accomplice"]
        out["accomplices"] = [x for x, ok in zip(names, a["accomplices"], strict=True) if ok]
        out["accomplice_motives"] = [
            m for m, ok in zip(motives, a["accomplice_motives"][:-1], strict=True) if ok
        ]
    return out
