"""``tools/generalization.py``: the generalization table of the shipped Awkward Guests models
(``parlour eval --compare case_split=train,test`` per model, and the deducer's control rows)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from parlour.apps.cli import main as parlour_main
from tests.tool_loader import load_tool


def _tool():
    return load_tool("generalization.py")


def _run_tool(tmp_path: Path) -> tuple[Path, dict]:
    out, runs = tmp_path / "gen.md", tmp_path / "runs"
    argv = [str(out), "--games", "2", "--workers", "1", "--runs", str(runs)]
    assert _tool().main([*argv, "--models", "guests-2p-easy"]) == 0
    return out, json.loads(out.with_suffix(".json").read_text())


def test_the_table_has_a_model_row_and_a_control_row_with_their_commands(tmp_path):
    out, data = _run_tool(tmp_path)
    model, control = data["rows"]
    assert (model["role"], control["role"]) == ("model", "control")
    assert model["agent"] == "ppo:guests-2p-easy (vs guests.deducer)"
    assert control["agent"] == "guests.deducer (every seat)"
    # the control plays the model run's deals: 2 games = 1 deal of 2 arrangements
    assert model["compare"]["runs"][0]["deals"] == control["compare"]["runs"][0]["deals"] == 1
    for row in (model, control):
        assert "--option case_bank=easy" in row["command"] and "--compare" in row["command"]
        assert row["command"] in out.read_text()
    md = out.read_text()
    row = "| guests-2p-easy | generated cases | 2 | easy | ppo:guests-2p-easy (vs guests.deducer) | 2 |"
    assert row in md
    assert "rounds to solve (test)" in md and "2 games per split" in md


def test_a_bank_trained_model_is_compared_on_its_bank_without_its_own_split(tmp_path):
    tool = _tool()
    (model,) = tool.guests_models(["guests-2p-easy-bank"])
    assert model.game_options["case_split"] == "train"  # (what its training dealt)
    assert tool.trained_on(model) == "bank easy, train split"
    args = tool.parse_args([str(tmp_path / "gen.md"), "--games", "2"])
    argv = tool.eval_argv(model, ["ppo:guests-2p-easy-bank"], 2, args, tmp_path / "out")
    options = [argv[i + 1] for i, a in enumerate(argv) if a == "--option"]
    assert "case_bank=easy" in options and not any(o.startswith("case_split=") for o in options)
    assert argv[argv.index("--compare") + 1] == "case_split=train,test"


@pytest.mark.slow
def test_the_printed_command_gives_the_rows_numbers(tmp_path):
    _, data = _run_tool(tmp_path)
    for row in data["rows"]:
        again = shlex.split(row["command"])[1:]
        again[again.index("--out") + 1] = str(tmp_path / f"again_{row['role']}")
        assert parlour_main(again) == 0
        rerun = json.loads((tmp_path / f"again_{row['role']}" / "compare.json").read_text())
        assert rerun["rows"][0] == row["row"]
