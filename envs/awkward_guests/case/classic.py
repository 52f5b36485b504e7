"""The 30 classic cases: fixed, bundled case files for comparable evaluation.

Each classic case is a JSON case file in ``classic/`` beside this module, named
``NN-<level>.json`` (``NN`` = 01..30). They were produced by the generator from the fixed
``(level, seed)`` pairs of :data:`CLASSIC_CASES` and are committed as files; the test suite
regenerates each one and checks it is byte-for-byte the same JSON, so the files never silently
drift from the generator. After a deliberate generator change, rewrite them with
``parlour case classic --write`` (:func:`write_classic_cases`).

=======  ==========  ========
numbers  level       cases
=======  ==========  ========
01–05    beginner    5
06–10    very_easy   5
11–14    easy        4
15–18    medium      4
19–22    hard        4
23–26    very_hard   4
27–30    expert      4
=======  ==========  ========

``load_classic(n)`` takes the number ``n`` (1..30), the file stem (``"07-very_easy"``) or
``"classic:n"``.
"""

from __future__ import annotations

import json
from pathlib import Path

from parlour.envs._checks import is_int

from .case import Case, case_from_json, load_case
from .generator import generate_case

__all__ = [
    "CLASSIC_DIR",
    "CLASSIC_CASES",
    "classic_case_paths",
    "classic_path",
    "load_classic",
    "classic_json",
    "write_classic_cases",
]

CLASSIC_DIR = Path(__file__).with_name("classic")

_PER_LEVEL = (
    ("beginner", 5),
    ("very_easy", 5),
    ("easy", 4),
    ("medium", 4),
    ("hard", 4),
    ("very_hard", 4),
    ("expert", 4),
)

#: (number, level, seed) of every classic case; seed = 1000 + number
CLASSIC_CASES: tuple[tuple[int, str, int], ...] = tuple(
    (n, level, 1000 + n)
    for n, level in enumerate((lv for lv, k in _PER_LEVEL for _ in range(k)), start=1)
)


def _name(number: int, level: str) -> str:
    return f"{number:02d}-{level}"


def classic_case_paths() -> list[Path]:
    """The paths of the 30 classic case files, in number order."""
    return [CLASSIC_DIR / f"{_name(n, lv)}.json" for n, lv, _ in CLASSIC_CASES]


def classic_path(which: int | str) -> Path:
    """The file of one classic case: its number (1..30), file stem or ``"classic:N"``."""
    if isinstance(which, str):
        key = which.removeprefix("classic:")
        if key.isdigit():
            which = int(key)
        else:
            for n, lv, _ in CLASSIC_CASES:
                if key in (_name(n, lv), f"{_name(n, lv)}.json"):
                    return CLASSIC_DIR / f"{_name(n, lv)}.json"
            raise ValueError(f"no classic case named {which!r} (use 1..{len(CLASSIC_CASES)})")
    if not is_int(which, numpy=False):
        raise ValueError(f"a classic case is a number 1..{len(CLASSIC_CASES)}, got {which!r}")
    if not 1 <= which <= len(CLASSIC_CASES):
        raise ValueError(f"classic case number must be 1..{len(CLASSIC_CASES)}, got {which}")
    n, lv, _ = CLASSIC_CASES[which - 1]
    return CLASSIC_DIR / f"{_name(n, lv)}.json"


def load_classic(which: int | str) -> Case:
    """Load and validate one classic case (see :func:`classic_path` for ``which``)."""
    return load_case(classic_path(which))


def classic_json(number: int) -> str:
    """The exact file text of classic case ``number``, regenerated from its level and seed."""
    _, level, seed = CLASSIC_CASES[number - 1]
    case = generate_case(level, seed)
    return json.dumps(case.to_json(), indent=1, ensure_ascii=False) + "\n"


def write_classic_cases() -> list[Path]:
    """Regenerate every classic case file (after a deliberate generator change)."""
    CLASSIC_DIR.mkdir(exist_ok=True)
    paths = []
    for (n, _, _), path in zip(CLASSIC_CASES, classic_case_paths(), strict=True):
        text = classic_json(n)
        case_from_json(json.loads(text))  # never write a file that does not load
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths
