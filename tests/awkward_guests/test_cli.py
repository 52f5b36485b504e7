"""``parlour case``: generate / show / check / stats / classic, called in-process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parlour.apps.cli import main
from parlour.envs.awkward_guests import Case, generate_case, save_case
from parlour.envs.awkward_guests.case.board import WALTON
from parlour.envs.awkward_guests.case.cards import make_card


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["case", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_generate_to_stdout_is_the_case_json(capsys) -> None:
    code, out, _ = run(capsys, "generate", "--level", "hard", "--seed", "4")
    assert code == 0
    d = json.loads(out)
    assert d == generate_case("hard", 4).to_json()
    assert Case.from_json(d).level == "hard"


def test_generate_to_file_then_check_and_show(tmp_path: Path, capsys) -> None:
    path = tmp_path / "case.json"
    code, out, _ = run(
        capsys, "generate", "--level", "medium", "--seed", "2", "--deck-size", "40", "-o", str(path)
    )
    assert code == 0 and path.is_file()
    case = Case.from_json(json.loads(path.read_text()))
    assert len(case.cards) == 40

    code, out, _ = run(capsys, "check", str(path))
    assert code == 0
    assert "sound and unique" in out

    code, out, _ = run(capsys, "show", str(path))
    assert code == 0
    lines = out.splitlines()
    card_lines = [i for i, line in enumerate(lines) if line.startswith("Card ")]
    assert [int(lines[i].split()[1]) for i in card_lines] == list(range(40))
    sep = next(i for i, line in enumerate(lines) if "SOLUTION" in line)
    assert sep > card_lines[-1]  # the solution comes last
    m = WALTON.display(case.solution.murderer)
    assert m in "\n".join(lines[sep:])
    assert f"Murderer:   {m}" not in "\n".join(lines[:sep])
    first = case.card(0)
    assert f"value {first.value}" in lines[card_lines[0]]
    assert WALTON.display(first.speaker) in lines[card_lines[0]]


def test_show_and_check_a_classic_case(capsys) -> None:
    code, out, _ = run(capsys, "show", "classic:3")
    assert code == 0 and "level beginner" in out and "SOLUTION" in out
    code, out, _ = run(capsys, "check", "classic:29")
    assert code == 0 and "sound and unique" in out
    code, out, _ = run(capsys, "classic")
    assert code == 0 and len(out.splitlines()) == 30


def _never_together(case: Case) -> list[str]:
    seen = [set(g["suspects"]) for g in case.world.sightings]
    sus = WALTON.suspects
    return next([a, b] for a in sus for b in sus if a < b and not any({a, b} <= g for g in seen))


@pytest.mark.parametrize("kind", ["harmless", "contradicting"])
def test_check_reports_false_facts(tmp_path: Path, capsys, kind: str) -> None:
    case = generate_case("easy", 5)
    sol = case.solution
    if kind == "harmless":  # false, yet the true solution stays consistent (no inference)
        fact = {
            "type": "together",
            "speaker": "butler",
            "suspects": _never_together(case),
            "room": "garage",
        }
    else:  # false and contradicting the solution
        fact = {"type": "weapon_unused", "speaker": "butler", "weapon": sol.weapon}
    lie = make_card(len(case.cards), "butler", [fact])
    path = tmp_path / "lie.json"
    save_case(Case(case.level, case.seed, sol, case.world, (*case.cards, lie)), path)
    code, out, _ = run(capsys, "check", str(path))
    assert code == 1
    assert "NOT sound and unique" in out
    assert f"card {lie.id}: false fact" in out and json.dumps(fact) in out
    if kind == "contradicting":
        assert "the true solution is inconsistent with the deck" in out


def test_check_reports_an_ambiguous_deck(tmp_path: Path, capsys) -> None:
    case = generate_case("expert", 5)
    path = tmp_path / "short.json"
    save_case(Case(case.level, case.seed, case.solution, case.world, case.cards[:5]), path)
    code, out, _ = run(capsys, "check", str(path))
    assert code == 1
    assert "solutions, not exactly one" in out
    assert "false fact" not in out


@pytest.mark.parametrize(
    "content",
    [
        "this is not json",
        "[1, 2, 3]",
        '{"format": "parlour.awkward_guests.case/1"}',
    ],
)
def test_malformed_file_is_a_one_line_error_with_exit_2(
    tmp_path: Path, capsys, content: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    for action in ("check", "show"):
        code, out, err = run(capsys, action, str(path))
        assert code == 2
        assert out == ""
        assert len(err.strip().splitlines()) == 1
        assert "error" in err and "Traceback" not in err


def test_inconsistent_case_file_is_exit_2(tmp_path: Path, capsys) -> None:
    d = generate_case("medium", 6).to_json()
    d["cards"][0]["value"] = 4  # values come from content only
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(d))
    code, _, err = run(capsys, "check", str(path))
    assert code == 2 and "value" in err and len(err.strip().splitlines()) == 1


def test_missing_file_and_bad_arguments(tmp_path: Path, capsys) -> None:
    code, _, err = run(capsys, "show", str(tmp_path / "nope.json"))
    assert code == 2 and "no such case file" in err
    code, _, err = run(capsys, "show", "classic:77")
    assert code == 2 and "classic case number" in err
    code, _, err = run(capsys, "generate", "--level", "easy", "--seed", "-3")
    assert code == 2 and "seed" in err
    code, _, err = run(capsys, "generate", "--level", "easy", "--seed", "1", "--deck-size", "5")
    assert code == 2 and "deck_size" in err
    code, _, err = run(capsys)
    assert code == 2


def test_stats_prints_the_level_table_and_writes_json(tmp_path: Path, capsys) -> None:
    path = tmp_path / "table.json"
    code, out, _ = run(capsys, "stats", "--seeds", "1", "--json", str(path))
    assert code == 0
    for level in ("beginner", "very_easy", "easy", "medium", "hard", "very_hard", "expert"):
        assert level in out
    table = json.loads(path.read_text())
    assert [r["level"] for r in table["levels"]][0] == "beginner"
    row = table["levels"][0]
    assert 0 < row["share_mean"] <= 1
    assert abs(sum(row["values"]) - 1) < 1e-9
    assert abs(sum(row["categories"].values()) - 1) < 1e-9
