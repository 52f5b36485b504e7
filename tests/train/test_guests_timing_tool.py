"""``tools/guests_timing.py``: a student's "accuse now?" decisions next to its teacher's, by
round and candidates left."""

from __future__ import annotations

import pytest

from tests.tool_loader import load_tool


def _tool():
    return load_tool("guests_timing.py")


def test_a_teacher_agrees_with_itself_and_accuses_by_its_rule():
    tool = _tool()
    teacher = "guests.deducer:p=0.5,start=12"
    cells = tool.solution_agreement(teacher, teacher, games=8, seed=40)
    assert sum(c.decisions for c in cells.values()) > 50
    for (first, left), c in cells.items():
        assert c.agreed == c.decisions, (first, left)
        accuses = left == 1 or (left == 2 and first >= 12)  # (buckets of 4: 12 starts one)
        assert c.teacher_accused == (c.decisions if accuses else 0), (first, left)
    assert any(left == 1 for _, left in cells) and any(left == 4 for _, left in cells)


def test_a_careful_student_differs_from_a_guessing_teacher_only_at_two_candidates():
    tool = _tool()
    cells = tool.solution_agreement("guests.deducer", "guests.deducer:p=0.5", games=12, seed=7)
    twos = {k: c for k, c in cells.items() if k[1] == 2}
    assert twos, "no decision with two candidates left: choose another seed"
    for key, c in cells.items():
        assert c.agreed == (0 if key[1] == 2 else c.decisions), key
    text = tool.table(cells, 4)
    first = min(twos)
    row = f"| {first[0]}–{first[0] + 3} | 2 | {twos[first].decisions} | 0% | 100% |"
    assert row in text.splitlines()


def test_bad_arguments_are_refused_by_name(capsys):
    with pytest.raises(SystemExit):
        _tool().main(["--student", "guests.deducer", "--games", "0"])
    assert "--games and --bucket must be >= 1" in capsys.readouterr().err
