"""``tools/generalization.py``: the generalization table of the shipped Awkward Guests models
(``parlour eval --compare case_split=train,test`` per model, and the deducer's control rows)."""

from __future__ import annotations

import importlib.util
import json
import shlex
import sys
from pathlib import Path

import pytest

from parlour.apps.cli import main as parlour_main

ROOT = Path(__file__).resolve().parents[2]


def _tool():
    name = "generalization_tool"
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools/generalization.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


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
    assert "| guests-2p-easy | 2 | easy | ppo:guests-2p-easy (vs guests.deducer) | 2 |" in md
    assert "rounds to solve (test)" in md and "2 games per split" in md


@pytest.mark.slow
def test_the_printed_command_gives_the_rows_numbers(tmp_path):
    _, data = _run_tool(tmp_path)
    for row in data["rows"]:
        again = shlex.split(row["command"])[1:]
        again[again.index("--out") + 1] = str(tmp_path / f"again_{row['role']}")
        assert parlour_main(again) == 0
        rerun = json.loads((tmp_path / f"again_{row['role']}" / "compare.json").read_text())
        assert rerun["rows"][0] == row["row"]
