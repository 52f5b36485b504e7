"""Strict outputs (issue 31): reports and results are strict JSON (a number that is not finite is
``null``), every file is written whole or not at all, and ``parlour eval --out`` refuses a
non-empty folder without ``--overwrite`` before any game is played."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from parlour.eval import report as report_module
from parlour.eval import tournament
from parlour.train import train as train_module

from .helpers import assert_clean_failure, files, run_main, tiny, write_config

EVAL = ["eval", "--agents", "random", "audition.greedy", "--games", "2", "--workers", "1"]


def _strict(text: str):
    """``json.loads`` that refuses ``NaN``, ``Infinity`` and ``-Infinity``."""

    def refuse(name: str):
        raise ValueError(f"not strict JSON: {name}")

    return json.loads(text, parse_constant=refuse)


def test_a_nan_metric_is_null_in_report_json_and_state_json(tmp_path, capsys, monkeypatch):
    """A learner summary holding NaN and infinity (e.g. a mean over no games): ``report.json``
    and the checkpoint's ``state.json`` are strict JSON with ``null`` there; ``report.md`` is
    still written."""
    real = train_module.learner_summary

    def with_nan(results, spec=None):
        out = real(results, spec)
        for s in out.values():
            s["mean_reward"] = float("nan")
            s["mean_score"] = np.float32("inf")
        return out

    import parlour.train.run_report as run_report_module

    monkeypatch.setattr(train_module, "learner_summary", with_nan)  # (state.json's history)
    monkeypatch.setattr(run_report_module, "learner_summary", with_nan)  # (report.json)
    cfg = write_config(tmp_path / "tiny.yaml", tiny())
    argv = ["train", str(cfg), "--runs", str(tmp_path / "runs"), "--no-progress"]
    assert run_main(argv, capsys)[0] == 0
    run = tmp_path / "runs" / "tiny"
    report = _strict((run / "report.json").read_text())
    assert report["final"]["random"]["mean_reward"] is None
    assert report["final"]["random"]["mean_score"] is None
    assert report["history"][-1]["results"]["random"]["mean_reward"] is None
    state = _strict((run / "checkpoints" / "state.json").read_text())
    assert state["history"][-1]["results"]["random"]["mean_reward"] is None
    assert "Final evaluation" in (run / "report.md").read_text()


def test_a_nan_in_a_tournament_result_is_null_in_eval_json(tmp_path, capsys, monkeypatch):
    real = tournament.run_tournament

    def with_nan(*args, **kwargs):
        result = real(*args, **kwargs)
        result["agents"][0]["mean_reward"] = float("-inf")
        result["mean_length"] = np.float64("nan")
        return result

    monkeypatch.setattr(tournament, "run_tournament", with_nan)
    out = tmp_path / "out"
    rc, _, err = run_main([*EVAL, "--no-progress", "--out", str(out)], capsys)
    assert rc == 0, err[-2000:]
    result = _strict((out / "eval.json").read_text())
    assert result["agents"][0]["mean_reward"] is None and result["mean_length"] is None


def test_strict_json_converts_every_non_finite_number():
    data = {"a": [1.5, float("nan")], "b": (np.float32(2.0), np.inf), "c": {"d": -np.inf}}
    text = report_module.strict_json(data)
    assert _strict(text) == {"a": [1.5, None], "b": [2.0, None], "c": {"d": None}}


# -- eval --out ---------------------------------------------------------------------------------


@pytest.fixture
def earlier_results(tmp_path: Path) -> Path:
    out = tmp_path / "out"
    out.mkdir()
    (out / "eval.json").write_text('{"earlier": "results"}\n')
    (out / "notes.txt").write_text("precious")
    return out


def test_eval_out_that_is_not_empty_is_refused_before_any_game(
    tmp_path, capsys, monkeypatch, earlier_results
):
    def no_games(*args, **kwargs):
        raise AssertionError("a game was played before --out was checked")

    monkeypatch.setattr(tournament, "run_tournament", no_games)
    before = files(tmp_path)
    result = run_main([*EVAL, "--no-progress", "--out", str(earlier_results)], capsys)
    assert_clean_failure(result, "--out:", before, files(tmp_path))
    assert "not empty; use --overwrite" in result[2]


def test_eval_overwrite_replaces_the_results_and_keeps_other_files(
    tmp_path, capsys, earlier_results
):
    argv = [*EVAL, "--no-progress", "--out", str(earlier_results), "--overwrite"]
    rc, _, err = run_main(argv, capsys)
    assert rc == 0, err[-2000:]
    assert _strict((earlier_results / "eval.json").read_text())["games"] >= 2
    assert (earlier_results / "notes.txt").read_text() == "precious"
    leftovers = [p.name for p in earlier_results.iterdir() if p.name.endswith(".tmp")]
    assert not leftovers


def test_eval_into_an_empty_existing_folder_needs_no_overwrite(tmp_path, capsys):
    out = tmp_path / "empty"
    out.mkdir()
    rc, _, err = run_main([*EVAL, "--no-progress", "--out", str(out)], capsys)
    assert rc == 0, err[-2000:]
    assert sorted(p.name for p in out.iterdir()) == ["eval.json", "eval.md", "eval.png"]


# -- atomic writes ------------------------------------------------------------------------------


def test_a_failing_report_write_leaves_the_earlier_report_whole(tmp_path, monkeypatch):
    """The report is rendered into a temporary file: when rendering fails half-way (here the
    learning curve), the earlier ``learning_curve.png`` is left as it was."""
    (tmp_path / "learning_curve.png").write_bytes(b"the earlier curve")

    def failing_savefig(self, path, **kwargs):
        Path(path).write_bytes(b"half a png")
        raise OSError(28, "No space left on device")

    import matplotlib.figure

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", failing_savefig)
    result = {
        "name": "r",
        "game": "audition",
        "players": 2,
        "history": [],
        "final": {},
    }
    with pytest.raises(OSError):
        report_module.plot_learning_curve(result, tmp_path / "learning_curve.png")
    assert (tmp_path / "learning_curve.png").read_bytes() == b"the earlier curve"
    assert [p.name for p in tmp_path.iterdir()] == ["learning_curve.png"]
