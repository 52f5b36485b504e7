"""Fault case 6: every user error of ``eval``, ``train``, ``play``, ``demo``, ``bench`` is one line
and a non-zero exit code, never a traceback, and leaves the files as they were."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .helpers import assert_clean_failure, files, run_cli, run_main, tiny, write_config

EVAL = ["eval", "--games", "2", "--workers", "1", "--no-progress"]


def _eval_cases(tmp_path, model):
    (tmp_path / "garbage.zip").write_bytes(b"PK\x03\x04 not really a zip")
    (tmp_path / "adir").mkdir()
    return [
        (["--agents", f"ppo:{tmp_path / 'adir'}", "random"], "is a folder"),
        (["--agents", f"ppo:{tmp_path / 'garbage.zip'}", "random"], "holds pickled data"),
        (
            ["--agents", f"ppo:{tmp_path / 'garbage.zip'}", "random", "--trust-model"],
            "cannot load a MaskablePPO",
        ),
        (["--game", "guests", "--agents", f"ppo:{model}", "random"], "trained on observations"),
        (["--agents", "random", "--players", "0"], "players must be in 2..6"),
        (["--agents", "random", "--option", "foo=1"], "game options ['foo']"),
        (["--agents", "random", "--option", "a=["], "not a YAML value"),
        (["--agents", "random", "--games", "-1"], "--games"),
        (["--agents", "random", "--game", "chess"], "unknown game"),
    ]


def test_eval_user_errors_are_one_line(tmp_path, capsys, tiny_model):
    for argv, message in _eval_cases(tmp_path, tiny_model):
        before = files(tmp_path)
        result = run_main([*EVAL, *argv, "--out", str(tmp_path / "out")], capsys)
        assert_clean_failure(result, message, before, files(tmp_path))


def test_eval_out_that_is_a_file_is_refused_before_the_tournament(tmp_path, capsys):
    (tmp_path / "out").write_text("precious")
    before = files(tmp_path)
    argv = [*EVAL, "--agents", "random", "--games", "100000", "--out", str(tmp_path / "out")]
    result = run_main(argv, capsys)  # (100000 games would take minutes: refused first)
    assert_clean_failure(result, "is a file, not a folder", before, files(tmp_path))


def _train_cases(tmp_path):
    (tmp_path / "cfgdir").mkdir()
    (tmp_path / "latin1.yaml").write_bytes("name: caf\xe9\n".encode("latin-1"))
    (tmp_path / "dup.yaml").write_text("name: a\nname: b\n")
    return [
        ([str(tmp_path / "cfgdir")], "cannot read the config"),
        ([str(tmp_path / "latin1.yaml")], "cannot read the config"),
        ([str(tmp_path / "dup.yaml")], "duplicate key 'name'"),
        ([str(write_config(tmp_path / "clip.yaml", tiny(ppo={"clip_range": -0.2})))], "clip"),
        ([str(write_config(tmp_path / "w.yaml", tiny(eval={"workers": -3})))], "eval.workers"),
        ([str(tmp_path / "missing.yaml")], "no config file"),
        ([str(write_config(tmp_path / "t.yaml", tiny())), "--timesteps", "0"], "--timesteps"),
    ]


def test_train_user_errors_are_one_line(tmp_path, capsys):
    for argv, message in _train_cases(tmp_path):
        before = files(tmp_path)
        result = run_main(["train", *argv, "--runs", str(tmp_path / "runs")], capsys)
        assert_clean_failure(result, message, before, files(tmp_path))
    assert not (tmp_path / "runs").exists()


def test_play_user_errors_are_one_line(tmp_path, capsys, tiny_model):
    cases = [
        (["audition", "--opponents", "ppo:missing.zip"], "no model file"),
        (["guests", "--players", "2", "--opponents", f"ppo:{tiny_model}"], "trained on"),
        (["audition", "--seed", "-1"], "--seed must be >= 0"),
        (["audition", "--level", "hard"], "unrecognized arguments: --level"),
        (["audition", "--seat", "5"], "--seat must be in 0..1"),
    ]
    for argv, message in cases:
        before = files(tmp_path)
        result = run_main(["play", *argv], capsys)
        assert_clean_failure(result, message, before, files(tmp_path))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["demo", "audition", "--players", "0"], "num_players must be an int in 2..6"),
        (["demo", "audition", "--seed", "-1"], "--seed must be an int >= 0"),
        (["demo", "audition", "--action-cards", "-4"], "action_cards"),
        (["demo", "audition", "--players", "x"], "invalid int value"),
        (["bench", "--steps", "-5"], "--steps: must be >= 1"),
        (["bench", "--repeats", "0"], "--repeats: must be >= 1"),
        (["bench", "--sections", "aec", "--json", "."], "--json"),
    ],
)
def test_demo_and_bench_user_errors_are_one_line(tmp_path, capsys, argv, message):
    before = files(tmp_path)
    assert_clean_failure(run_main(argv, capsys), message, before, files(tmp_path))


def test_the_real_command_prints_no_traceback(tmp_path):
    """The same through ``python -m parlour.apps.cli`` in a subprocess (a few cases)."""
    (tmp_path / "cfgdir").mkdir()
    for argv, message in [
        (["train", "cfgdir"], "cannot read the config"),
        (["eval", "--agents", "ppo:cfgdir", "random", "--games", "2"], "is a folder"),
        (["play", "audition", "--opponents", "ppo:missing.zip"], "no model file"),
    ]:
        before = files(tmp_path)
        result = run_cli(argv, tmp_path)
        assert_clean_failure(result, message, before, files(tmp_path))


def test_eval_results_survive_a_failed_write(tmp_path, capsys, monkeypatch):
    import json

    import parlour.eval.report as report

    def fail(*_args, **_kwargs):
        raise OSError("No space left on device")

    monkeypatch.setattr(report, "write_results", fail)
    argv = [*EVAL, "--agents", "random", "--games", "4", "--out", str(tmp_path / "out")]
    code, _, err = run_main(argv, capsys)
    assert code == 0 and "Traceback" not in err
    saved = err.split("results saved in ")[1].strip()
    assert json.loads(Path(saved).read_text())["agents"][0]["games"] >= 4
    shutil.rmtree(Path(saved).parent)
