"""The 30 bundled classic cases: they load, are sound and unique, and match the generator."""

from __future__ import annotations

from collections import Counter

import pytest

from parlour.envs.awkward_guests import LEVELS, load_classic, solve
from parlour.envs.awkward_guests.case.classic import (
    CLASSIC_CASES,
    classic_case_paths,
    classic_json,
    classic_path,
)
from parlour.envs.awkward_guests.case.truth import unsound_facts, world_violations

NUMBERS = [n for n, _, _ in CLASSIC_CASES]


def test_thirty_files_spread_over_every_level() -> None:
    paths = classic_case_paths()
    assert len(paths) == 30
    assert all(p.is_file() for p in paths)
    per_level = Counter(level for _, level, _ in CLASSIC_CASES)
    assert set(per_level) == set(LEVELS)
    assert per_level == {
        "beginner": 5,
        "very_easy": 5,
        "easy": 4,
        "medium": 4,
        "hard": 4,
        "very_hard": 4,
        "expert": 4,
    }
    assert len({seed for _, _, seed in CLASSIC_CASES}) == 30


@pytest.mark.parametrize("number", NUMBERS)
def test_classic_case_loads_sound_unique_and_matches_the_generator(number: int) -> None:
    _, level, seed = CLASSIC_CASES[number - 1]
    case = load_classic(number)
    assert (case.level, case.seed) == (level, seed)
    assert world_violations(case.solution, case.world) == []
    assert unsound_facts(case) == []
    assert solve(case.facts(), case.accomplice_possible) == [case.solution]
    # the committed file is exactly what the generator makes from its level and seed
    assert classic_path(number).read_text(encoding="utf-8") == classic_json(number)


def test_classic_names() -> None:
    assert classic_path(7) == classic_path("classic:7") == classic_path("07-very_easy")
    assert classic_path("07-very_easy.json").name == "07-very_easy.json"
    assert load_classic("classic:30").level == "expert"
    for bad in (0, 31, "classic:99", "nope", True, 2.0):
        with pytest.raises(ValueError):
            classic_path(bad)
