"""Fault case 10: Ctrl-C during ``parlour train`` saves the model, a checkpoint and the report,
exits with one line, and ``--resume`` continues to the same final step count."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from parlour.train import train as train_module

from .helpers import assert_clean_failure, files, run_main, tiny, write_config

#: the step at which the in-process test presses Ctrl-C (inside the second 64-step rollout)
INTERRUPT_AT = 100
#: seconds the subprocess test waits for the first checkpoint / for the process to end
WAIT_S = 120


def _interrupting_callback(monkeypatch, at: int) -> None:
    real = train_module._make_callback

    def make(*args, **kwargs):
        cb = real(*args, **kwargs)
        on_step = cb._on_step

        def step() -> bool:
            if cb.num_timesteps >= at:
                raise KeyboardInterrupt
            return on_step()

        cb._on_step = step
        return cb

    monkeypatch.setattr(train_module, "_make_callback", make)


def _check_interrupted_run(run, result, before, tmp_path, rollout):
    assert_clean_failure(result, "interrupted at", before, files(tmp_path), code=130)
    assert "--resume" in result[2]
    report = json.loads((run / "report.json").read_text())
    assert report["interrupted"] is True and report["final"] == {}
    steps = report["timesteps"]
    assert steps > 0 and steps % rollout == 0  # rolled back to the last finished rollout
    state = json.loads((run / "checkpoints" / "state.json").read_text())
    assert state["timesteps"] == steps
    assert (run / "model.safetensors").is_file()
    assert (run / "checkpoints" / "latest.safetensors").is_file()
    return steps


def test_ctrl_c_saves_the_run_and_resume_finishes_it(tmp_path, capsys, monkeypatch):
    cfg = write_config(tmp_path / "tiny.yaml", tiny())
    argv = ["train", str(cfg), "--runs", str(tmp_path / "runs"), "--no-progress"]
    run = tmp_path / "runs" / "tiny"
    _interrupting_callback(monkeypatch, INTERRUPT_AT)
    before = files(tmp_path)
    result = run_main(argv, capsys)
    steps = _check_interrupted_run(run, result, before, tmp_path, rollout=64)
    assert steps == 64
    monkeypatch.undo()
    assert run_main([*argv, "--resume"], capsys)[0] == 0
    report = json.loads((run / "report.json").read_text())
    assert report["timesteps"] == tiny()["total_timesteps"] and "interrupted" not in report
    assert report["final"]["random"]["games"] >= 2


@pytest.mark.slow
def test_sigint_to_a_real_training_process_then_resume(tmp_path):
    data = tiny(total_timesteps=6144, ppo={"n_steps": 256}, checkpoint_every=256)
    cfg = write_config(tmp_path / "tiny.yaml", data)
    run = tmp_path / "runs" / "tiny"
    cmd = [sys.executable, "-m", "parlour.apps.cli", "train", str(cfg), "--runs", "runs"]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [*cmd, "--no-progress"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    deadline = time.monotonic() + WAIT_S
    while not (run / "checkpoints" / "state.json").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, "the run ended before it could be interrupted"
    before = files(tmp_path)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=WAIT_S)
    before = {k: v for k, v in before.items() if not k.startswith("runs/tiny/")}  # (rewritten)
    steps = _check_interrupted_run(run, (proc.returncode, out, err), before, tmp_path, 256)
    assert steps < data["total_timesteps"]
    done = subprocess.run(
        [*cmd, "--resume", "--no-progress"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=WAIT_S,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads((run / "report.json").read_text())
    assert report["timesteps"] == data["total_timesteps"]  # what an uninterrupted run reaches
