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
    row = f"| {max(first[0], 1)}–{first[0] + 3} | 2 | {twos[first].decisions} | 0% | 100% |"
    assert row in text.splitlines()


def test_by_decision_counts_every_decision_and_finds_the_one_kind_that_differs():
    tool = _tool()
    counts = tool.decision_agreement("guests.deducer", "guests.deducer:p=0.5", games=12, seed=7)
    cells = tool.solution_agreement("guests.deducer", "guests.deducer:p=0.5", games=12, seed=7)
    n, agreed = counts["solution"]
    assert n == sum(c.decisions for c in cells.values())
    assert n - agreed == sum(c.decisions - c.agreed for c in cells.values()) > 0
    # the two deducers differ only in when they accuse: every trade decision agrees
    for kind in ("inquiry", "offer", "answer", "pay", "discard"):
        assert counts[kind][0] > 0 and counts[kind][1] == counts[kind][0], kind
    assert "| solution | " in tool.decision_table(counts)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--games", "0"], "--games must be >= 1, got 0"),
        (["--bucket", "0"], "--bucket must be >= 1, got 0"),
        (["--level", "bogus"], "argument --level: invalid choice: 'bogus'"),
        (["--teacher", "guests.nobody"], "guests.nobody"),
        (["--observation-mode", "notebook"], "argument --observation-mode: invalid choice"),
    ],
)
def test_bad_arguments_are_refused_by_name(capsys, argv, message):
    with pytest.raises(SystemExit):
        _tool().main(["--student", "guests.deducer", *argv])
    assert message in capsys.readouterr().err


def test_by_decline_splits_the_accuse_decisions_of_a_threat_teacher(capsys):
    """A ``threat`` teacher guesses exactly where another player declined every bid and 2..CAP
    candidates are left; a plain student agrees everywhere else, and there never."""
    tool = _tool()
    cells = tool.decline_agreement(
        "guests.deducer", "guests.deducer:threat=8", games=10, seed=100000, cap=8
    )
    assert (True, "2–8") in cells and (False, ">8") in cells, cells.keys()
    for (declined, band), c in cells.items():
        guesses = declined and band == "2–8"
        sure = band == "1"
        assert c.teacher_accused == (c.decisions if guesses or sure else 0), (declined, band)
        assert c.agreed == (0 if guesses else c.decisions), (declined, band)
    text = tool.decline_table(cells).splitlines()
    assert len(text) == 2 + len(cells)
    assert any(line.startswith("| yes | 2–8 |") for line in text)
    with pytest.raises(SystemExit):
        tool.main(["--student", "guests.deducer", "--by-decline", "1"])
    assert "--by-decline must be >= 2, got 1" in capsys.readouterr().err


def test_the_observation_mode_reaches_the_students_table():
    """``--observation-mode deduced_shares``: the student's table deals that observation (a
    student trained on it needs it), and the default stays ``deduced_choices``."""
    from parlour.envs.awkward_guests import observation as GO

    tool = _tool()
    for mode in ("deduced_shares", None):
        kwargs = {} if mode is None else {"mode": mode}
        table, _ = next(
            tool._teacher_decisions("guests.deducer", "guests.deducer", 1, 5, "medium", **kwargs)
        )
        size = GO.layout_size(GO.make_layout(mode or "deduced_choices"))
        assert table.env.observation_space.shape == (size,)
