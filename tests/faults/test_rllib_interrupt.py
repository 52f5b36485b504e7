"""Faults of the RLlib backend with a real Ray: Ctrl-C/SIGTERM save the current weights, the
report and exit 130; ``--resume`` continues, falls back to ``checkpoints/previous`` when
``latest`` is corrupt, and ends in one line (exit 2) when no checkpoint loads.

One local Ray (``num_cpus=2``) serves the in-process tests (started by the module fixture);
the SIGTERM test runs ``parlour train`` in a subprocess with its own Ray, after the fixture's is
shut down (pytest finishes a module's fixtures first), so one Ray runs at a time.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from parlour.agents import rllib_agent
from parlour.agents.factory import make_agent
from parlour.apps.cli import main
from parlour.games import get_game
from parlour.train.rllib import runner
from parlour.train.rllib.checkpoints import LATEST, MARKER, PREVIOUS
from parlour.train.rllib.export import EXPORT_NAME

from .helpers import run_main

BATCH = 128
#: seconds the subprocess test waits for the first checkpoint / for the process to end
WAIT_S = 300
#: no periodic checkpoint during these runs
NEVER = 10**6
#: a final_games count no periodic evaluation uses (a test stops the final evaluation by it)
FINAL_GAMES = 3


def _config(total: int, checkpoint_every: int = NEVER) -> dict:
    return {
        "name": "tiny_rllib",
        "game": "audition",
        "players": 2,
        "backend": "rllib",
        "total_timesteps": total,
        "checkpoint_every": checkpoint_every,
        "seed": 1,
        "opponents": {"baselines": {"random": 1.0}},
        "ppo": {"net_arch": [8]},
        "eval": {"every": NEVER, "games": 2, "final_games": 2, "agents": ["random"], "workers": 1},
        "rllib": {
            "num_env_runners": 0,  # the driver samples: no actor start-up
            "train_batch_size": BATCH,
            "minibatch_size": 64,
            "num_epochs": 1,
        },
    }


def _write(path: Path, data: dict) -> Path:
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


@pytest.fixture(scope="module")
def local_ray():
    import ray

    ray.init(num_cpus=2, include_dashboard=False)
    yield
    ray.shutdown()


def _marker_steps(checkpoint: Path) -> int:
    return json.loads((checkpoint / MARKER).read_text())["timesteps"]


@pytest.fixture(scope="module")
def interrupted(local_ray, tmp_path_factory) -> tuple[Path, list[str], int, str]:
    """A run stopped by Ctrl-C at the start of its second iteration (no periodic checkpoint
    yet): its folder, its ``parlour`` argv, the exit code and stderr."""
    real, calls = runner._iteration, []

    def iteration(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    tmp = tmp_path_factory.mktemp("interrupted")
    config = _write(tmp / "tiny.yaml", _config(4 * BATCH))
    argv = ["train", str(config), "--runs", str(tmp / "runs"), "--no-progress"]
    err = io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stderr(err):
        patch.setattr(runner, "_iteration", iteration)
        code = main(argv)
    return tmp / "runs" / "tiny_rllib", argv, code, err.getvalue()


def test_interrupt_saves_the_current_weights_and_the_report(interrupted) -> None:
    run, _, code, err = interrupted
    assert code == 130, err
    lines = [line for line in err.splitlines() if line.startswith("parlour train")]
    assert lines == [lines[0]] and "interrupted at 128 env steps" in lines[0]
    assert lines[0].endswith("continue with --resume --trust-model")
    assert "Traceback" not in err
    report = json.loads((run / "report.json").read_text())
    assert report["interrupted"] is True and report["final"] == {}
    assert report["timesteps"] == BATCH
    assert json.loads((run / "checkpoints" / "state.json").read_text())["timesteps"] == BATCH
    assert _marker_steps(run / "checkpoints" / LATEST) == BATCH
    assert (run / "checkpoints" / LATEST / EXPORT_NAME).is_file()
    rllib_agent._CACHE.clear()
    make_agent(
        f"rllib:{run}", get_game("audition")
    )  # the safe export of checkpoint/, no trust needed


# (~4 s: three algorithm builds without env runners; the module's Ray start is ~20 s)
def test_resume_continues_and_falls_back_to_previous(interrupted, tmp_path, capsys) -> None:
    source, argv, _, _ = interrupted
    runs = tmp_path / "runs"
    run = runs / source.name
    shutil.copytree(source, run)
    argv = [*argv[:2], "--runs", str(runs), "--no-progress"]

    # --resume finishes the run; latest and previous are both whole
    code, _, err = run_main(
        [*argv, "--resume", "--trust-model", "--timesteps", str(2 * BATCH)], capsys
    )
    assert code == 0, err
    assert json.loads((run / "report.json").read_text())["timesteps"] == 2 * BATCH
    assert _marker_steps(run / "checkpoints" / LATEST) == 2 * BATCH
    assert _marker_steps(run / "checkpoints" / PREVIOUS) == BATCH

    # a corrupt latest: --resume goes on from previous, and says so
    for state in (run / "checkpoints" / LATEST).rglob("*.pkl"):
        state.write_bytes(b"\x80\x04corrupt")
    code, out, err = run_main(
        [*argv, "--resume", "--trust-model", "--timesteps", str(3 * BATCH)], capsys
    )
    assert code == 0, err
    assert f"resuming from {run / 'checkpoints' / PREVIOUS}" in out
    history = json.loads((run / "report.json").read_text())["history"]
    assert [h["timesteps"] for h in history] == [3 * BATCH]  # (256 was not resumed)

    # no checkpoint loads: one line, exit 2
    for checkpoint in (LATEST, PREVIOUS):
        for state in (run / "checkpoints" / checkpoint).rglob("*.pkl"):
            state.write_bytes(b"\x80\x04corrupt")
    code, _, err = run_main(
        [*argv, "--resume", "--trust-model", "--timesteps", str(4 * BATCH)], capsys
    )
    assert code == 2, err
    assert err.strip().count("\n") == 0 and "no checkpoint in" in err and "can be loaded" in err


def test_diverged_weights_stop_the_run_in_one_line(local_ray, tmp_path, capsys, monkeypatch):
    """The learner's weights turn NaN after the first iteration: the checkpoint's export
    refuses them, the run ends with one line (exit 2), no checkpoint is rotated in."""
    import numpy as np

    from parlour.train.rllib.league import LEARNER

    real = runner._iteration

    def diverging(algo, *args, **kwargs):
        real(algo, *args, **kwargs)
        weights = algo.learner_group.get_weights(module_ids=[LEARNER])[LEARNER]
        algo.learner_group.set_weights({LEARNER: {k: v * np.nan for k, v in weights.items()}})

    monkeypatch.setattr(runner, "_iteration", diverging)
    config = _write(tmp_path / "tiny.yaml", _config(4 * BATCH, checkpoint_every=BATCH))
    runs = tmp_path / "runs"
    code, _, err = run_main(["train", str(config), "--runs", str(runs), "--no-progress"], capsys)
    assert code == 2, err
    lines = [line for line in err.splitlines() if line.startswith("parlour train")]
    assert len(lines) == 1 and "NaN or infinite" in lines[0], err
    assert not (runs / "tiny_rllib" / "checkpoints" / LATEST).exists()


@pytest.mark.slow  # ~1 min: a Ray of its own in a subprocess
def test_sigterm_saves_the_run_like_ctrl_c(tmp_path) -> None:
    runs = tmp_path / "runs"
    run = runs / "tiny_rllib"
    config = _write(tmp_path / "tiny.yaml", _config(1000 * BATCH, checkpoint_every=BATCH))
    argv = [sys.executable, "-m", "parlour.apps.cli", "train", str(config)]
    proc = subprocess.Popen(
        [*argv, "--runs", str(runs), "--no-progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + WAIT_S
        while not (run / "checkpoints" / LATEST / MARKER).is_file():
            assert proc.poll() is None, proc.communicate()[1][-3000:]
            assert time.monotonic() < deadline, "no checkpoint in time"
            time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=WAIT_S)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err[-3000:]
    assert "Traceback" not in err
    assert [line for line in err.splitlines() if line.startswith("parlour train")][-1].startswith(
        "parlour train: interrupted at"
    )
    report = json.loads((run / "report.json").read_text())
    state = json.loads((run / "checkpoints" / "state.json").read_text())
    assert report["interrupted"] is True and report["timesteps"] == state["timesteps"] >= BATCH
    assert _marker_steps(run / "checkpoints" / LATEST) == state["timesteps"]
    assert (run / "checkpoint" / EXPORT_NAME).is_file()


# (~5 s: one iteration, then a resume that plays only the final evaluation)
def test_sigterm_during_the_final_evaluation_writes_the_report_and_resume_plays_it(
    local_ray, tmp_path, capsys, monkeypatch
) -> None:
    """Training is done and saved when SIGTERM stops the final evaluation: the interrupted
    report (no final table), one line, exit 130; ``--resume`` trains no further step and plays
    the final evaluation."""
    import os

    def unhandled(signum, frame):  # (without the run's handler: fail the test, not pytest)
        raise RuntimeError("SIGTERM reached pytest's handler")

    real = runner.evaluate_checkpoint

    def evaluate(cfg, checkpoint, agents, games, *args, **kwargs):
        if games == FINAL_GAMES:
            os.kill(os.getpid(), signal.SIGTERM)
        return real(cfg, checkpoint, agents, games, *args, **kwargs)

    data = _config(BATCH)
    data["eval"]["final_games"] = FINAL_GAMES
    config = _write(tmp_path / "tiny.yaml", data)
    argv = ["train", str(config), "--runs", str(tmp_path / "runs"), "--no-progress"]
    run = tmp_path / "runs" / "tiny_rllib"
    outer = signal.signal(signal.SIGTERM, unhandled)
    try:
        monkeypatch.setattr(runner, "evaluate_checkpoint", evaluate)
        code, _, err = run_main(argv, capsys)
        assert code == 130, err
        assert "Traceback" not in err
        lines = [line for line in err.splitlines() if line.startswith("parlour train")]
        assert len(lines) == 1 and "interrupted during the final evaluation" in lines[0], err
        assert "--resume --trust-model plays the final evaluation" in lines[0]
        report = json.loads((run / "report.json").read_text())
        assert report["interrupted"] is True and report["interrupted_during"] == "final evaluation"
        assert report["final"] == {} and report["timesteps"] == BATCH
        assert "Interrupted** during the final evaluation" in (run / "report.md").read_text()
        assert _marker_steps(run / "checkpoints" / LATEST) == BATCH
        monkeypatch.undo()
        code, out, err = run_main([*argv, "--resume", "--trust-model"], capsys)
        assert code == 0, err
    finally:
        signal.signal(signal.SIGTERM, outer)
    assert f"training done: {BATCH} env steps" in out
    report = json.loads((run / "report.json").read_text())
    assert "interrupted" not in report and report["final"] and report["timesteps"] == BATCH
    assert "Interrupted" not in (run / "report.md").read_text()
