"""Is a case playable: sound (every card's facts true of the hidden world) and unique (the deck
leaves exactly the true solution)? The one check ``parlour case check`` prints and the envs
apply to the cases a user gives them.

=======================  =====================================================================
name                     what it does
=======================  =====================================================================
``check(case)``          ``(ok, report lines)``: the hidden world's violations, the false facts,
                         "the true solution is inconsistent with the deck", "the deck leaves N
                         solutions, not exactly one"
``verified_case(case)``  the case (a :class:`Case` or a case file path) if it passes ``check``,
                         else ``ValueError("<source>: NOT sound and unique: <lines>")``; files
                         are checked once per path, size and modification time, case objects
                         once per object (both caches bounded)
=======================  =====================================================================

Generated cases are verified by the generator itself; the envs call :func:`verified_case` for the
case files a user gives (``cases=[paths]``, ``reset(options={"case": path})``), when they load
them. A :class:`Case` object built in Python is passed through as given (rule tests deal
deliberately synthetic decks); call :func:`verified_case` on it to check it.
"""

from __future__ import annotations

import json
import os
from collections import OrderedDict
from pathlib import Path

from .case import Case, load_case
from .deduction import Deduction
from .truth import unsound_facts, world_violations

#: verified cases remembered per process (files by path/size/mtime, objects by identity)
MAX_VERIFIED = 256
_FILES: OrderedDict[tuple[str, int, int], Case] = OrderedDict()
_OBJECTS: OrderedDict[int, Case] = OrderedDict()


def check(case: Case) -> tuple[bool, list[str]]:
    """(ok, report lines): sound (every fact true, world valid) and unique."""
    lines: list[str] = []
    for v in world_violations(case.solution, case.world):
        lines.append(f"hidden world: {v}")
    for cid, fact in unsound_facts(case):
        lines.append(f"card {cid}: false fact {json.dumps(fact)}")
    ded = Deduction(case.accomplice_possible)
    ded.add_facts(case.facts())
    cands = ded.candidates()
    if case.solution not in cands:
        lines.append("the true solution is inconsistent with the deck")
    if len(cands) != 1:
        lines.append(f"the deck leaves {len(cands)} solutions, not exactly one")
    return (not lines), lines


def _require(case: Case, source: str) -> Case:
    ok, lines = check(case)
    if not ok:
        raise ValueError(f"{source}: NOT sound and unique: {'; '.join(lines)}")
    return case


def _remember(cache: OrderedDict, key: object, case: Case) -> Case:
    cache[key] = case
    while len(cache) > MAX_VERIFIED:
        cache.popitem(last=False)
    return case


def verified_case(case: Case | str | Path) -> Case:
    """The case (loaded if a path) if it is sound and unique, else ``ValueError`` (see above)."""
    if isinstance(case, Case):
        if id(case) in _OBJECTS and _OBJECTS[id(case)] is case:
            return case
        return _remember(_OBJECTS, id(case), _require(case, "case"))
    path = Path(case)
    st = os.stat(path)
    key = (str(path.resolve()), st.st_size, st.st_mtime_ns)
    if key in _FILES:
        _FILES.move_to_end(key)
        return _FILES[key]
    return _remember(_FILES, key, _require(load_case(path), f"case file {path}"))
