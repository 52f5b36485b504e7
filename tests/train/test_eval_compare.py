"""``parlour eval --compare KEY=V1,V2``: one tournament per value of a game option, side by side
(:mod:`parlour.eval.compare`), and the 95% intervals behind its columns
(:mod:`parlour.games.intervals`, ``Statistics.agent_estimates``)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from parlour.apps.cli import main
from parlour.errors import UserError
from parlour.eval.compare import comparison_headers, parse_compare
from parlour.games import get_game
from parlour.games.intervals import Z95, mean_estimate, share_estimate, wilson_interval
from tests.train.test_guests_eval import _rec

#: a fast Awkward Guests tournament on the shipped easy bank (the compared option added)
GUESTS_2P = ["eval", "--game", "guests", "--players", "2", "--agents", "random", "guests.deducer"]
GUESTS_SOLO = ["eval", "--game", "guests", "--players", "1", "--agents", "guests.deducer"]
FAST = ["--games", "4", "--seed", "3", "--workers", "1", "--no-progress"]
BANK = ["--option", "case_bank=easy"]


def _eval(argv: list[str]) -> int:
    return main([*argv, *FAST])


def _json(path: Path) -> dict:
    return json.loads(path.read_text())


# -- intervals ---------------------------------------------------------------------------------


def test_share_and_mean_estimates_have_known_intervals():
    assert share_estimate(3, 10) == {"value": 0.3, "ci95": list(wilson_interval(3, 10)), "n": 10}
    assert share_estimate(0, 0) == {"value": None, "ci95": None, "n": 0}
    est = mean_estimate([1.0, 2.0, 3.0])  # sd 1
    half = Z95 / math.sqrt(3)
    assert est["value"] == 2.0 and est["n"] == 3
    assert est["ci95"] == pytest.approx([2.0 - half, 2.0 + half])
    assert mean_estimate([4.0]) == {"value": 4.0, "ci95": None, "n": 1}  # no spread to measure
    assert mean_estimate([]) == {"value": None, "ci95": None, "n": 0}


def test_guests_estimates_of_known_records():
    records = [
        _rec(0, (0, 1), [0], 3, [(1, 0, 1), (1, 1, 0)]),  # kind 0 solves in round 3
        _rec(0, (1, 0), [0], 5, [(1, 0, 1), (0, 0, 0)]),  # kind 1 solves in round 5
        _rec(1, (0, 1), [1], 7, [(0, 0, 0), (1, 0, 1)]),  # kind 1 solves in round 7
        _rec(1, (1, 0), [1], 2, [(1, 1, 0), (0, 0, 0)]),  # kind 1 accuses wrongly
    ]
    stats = get_game("guests").evaluation.statistics
    a, b = (stats.agent_estimates(records, k) for k in (0, 1))
    assert a["solved"] == share_estimate(1, 4) and b["solved"] == share_estimate(2, 4)
    assert a["mean_rounds"] == {"value": 3.0, "ci95": None, "n": 1}
    # rounds 5 and 7: mean 6, sd √2, so 6 ± Z95·√2/√2
    assert b["mean_rounds"]["value"] == 6.0 and b["mean_rounds"]["n"] == 2
    assert b["mean_rounds"]["ci95"] == pytest.approx([6.0 - Z95, 6.0 + Z95])
    assert a["wrong_accusations"] == share_estimate(0, 1)
    assert b["wrong_accusations"] == share_estimate(2, 4)
    for kind, est in enumerate((a, b)):  # the same numbers as the table's columns
        plain = stats.agent_stats(records, kind)
        for key in ("solved", "mean_rounds", "wrong_accusations"):
            assert est[key]["value"] == pytest.approx(plain[key])
    assert [e.key for e in stats.estimates] == ["solved", "mean_rounds", "wrong_accusations"]


# -- the comparison --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "players"), [(GUESTS_2P, 2), (GUESTS_SOLO, 1)], ids=["2p", "solo"]
)
def test_each_value_is_the_separate_run(tmp_path, capsys, argv, players):
    """The differential test: each value's numbers are those of ``parlour eval --option KEY=V``
    with the same seed, in its folder, in compare.json and in the printed table."""
    out = tmp_path / "cmp"
    assert _eval([*argv, *BANK, "--compare", "case_split=train,test", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    compared = _json(out / "compare.json")
    assert compared["key"] == "case_split" and compared["values"] == ["train", "test"]
    assert [r["folder"] for r in compared["runs"]] == ["case_split=train", "case_split=test"]
    for split in ("train", "test"):
        alone = tmp_path / f"alone_{split}"
        option = ["--option", f"case_split={split}"]
        assert _eval([*argv, *BANK, *option, "--out", str(alone)]) == 0
        separate = _json(alone / "eval.json")
        inside = _json(out / f"case_split={split}" / "eval.json")
        assert inside["agents"] == separate["agents"]
        assert inside["game_options"] == separate["game_options"]
        assert separate["game_options"] == {"case_bank": "easy", "case_split": split}
        for entry, row in zip(separate["agents"], compared["rows"], strict=True):
            cell = row["by_value"][split]
            assert row["spec"] == entry["spec"] and cell["win_rate"] == entry["win_rate"]
            assert cell["ci95"] == entry["ci95"] and cell["games"] == entry["games"]
            assert cell["estimates"] == entry["estimates"]
        for name in ("eval.md", "eval.png"):
            assert (out / f"case_split={split}" / name).stat().st_size > 0
    md = (out / "compare.md").read_text()
    header = "| " + " | ".join(comparison_headers(compared, get_game("guests"))) + " |"
    assert header in md and "solved: share" in md
    solved = [h for h in header.split(" | ") if h.startswith("solved")]
    assert len(solved) == (0 if players == 1 else 2)  # solo: the solve rate is the first column
    assert "rounds to solve (test)" in header and "wrong acc. (train)" in header
    assert "guests.deducer" in printed and "rounds to solve (train)" in printed


def test_audition_compares_without_statistics(tmp_path):
    out = tmp_path / "cmp"
    argv = ["eval", "--game", "audition", "--agents", "audition.greedy", "random"]
    compare = ["--compare", "action_cards=0,2", "--save-replays", "1", "--out", str(out)]
    assert _eval([*argv, *compare]) == 0
    for value in ("0", "2"):  # each run's replays in its folder
        replay = _json(out / f"action_cards={value}" / "replays" / "replay_0000.json")
        assert replay["options"]["action_cards"] == int(value)
    compared = _json(out / "compare.json")
    assert [r["option"] for r in compared["runs"]] == [0, 2]  # read as YAML
    assert comparison_headers(compared, get_game("audition")) == [
        "agent",
        "seat-games",
        "win rate (0)",
        "win rate (2)",
    ]
    assert _eval([*argv, "--option", "action_cards=2", "--out", str(tmp_path / "two")]) == 0
    separate = _json(tmp_path / "two" / "eval.json")
    assert _json(out / "action_cards=2" / "eval.json")["agents"] == separate["agents"]
    greedy = compared["rows"][0]["by_value"]["2"]
    assert greedy["win_rate"] == separate["agents"][0]["win_rate"]
    assert "estimates" not in greedy


@pytest.mark.parametrize(
    ("compare", "message"),
    [
        ("case_split", "takes KEY=V1,V2"),
        ("=train,test", "takes KEY=V1,V2"),
        ("case_split=train", "at least 2 values"),
        ("case_split=train,train", "the same value"),
        ("case_split=train,", "is not a value"),
        ("case_split=train,a/b", "is not a value"),
        ("case_split=train,[", "not a YAML value"),
        ("case_bank=easy,medium", "also given as --option case_bank"),
        ("case_split=train,nosuch", "with case_split=nosuch: case bank"),
        ("level=easy,medium", "with level=medium:"),
    ],
)
def test_bad_compare_arguments_are_refused_before_any_game(tmp_path, capsys, compare, message):
    out = tmp_path / "cmp"
    assert _eval([*GUESTS_2P, *BANK, "--compare", compare, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("parlour eval: error: ") and message in err
    assert not out.exists()


def test_parse_compare_reads_yaml_values_and_keeps_their_text():
    c = parse_compare("action_cards=0,2,3", {"level": "easy"})
    assert c.key == "action_cards" and c.labels == ("0", "2", "3") and c.values == (0, 2, 3)
    assert [opts for _, opts in c.runs({"x": 1})][1] == {"x": 1, "action_cards": 2}
    assert c.folder("2") == "action_cards=2"
    with pytest.raises(UserError, match="same value"):
        parse_compare("action_cards=2,02", {})  # (two spellings of one value)
    assert parse_compare("flag=1,true", {}).values == (1, True)  # (different options)


def test_a_non_empty_out_is_refused_unless_overwrite(tmp_path, capsys):
    out = tmp_path / "cmp"
    out.mkdir()
    (out / "keep.txt").write_text("x")
    argv = [*GUESTS_SOLO, *BANK, "--compare", "case_split=train,test", "--out", str(out)]
    assert _eval(argv) == 2 and "not empty" in capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == ["keep.txt"]
    assert _eval([*argv, "--overwrite"]) == 0
    assert (out / "compare.md").exists() and (out / "keep.txt").exists()
