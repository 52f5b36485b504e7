"""Checkpoints that survive a kill (issue 31): a run killed (SIGKILL) or out of disk while it
writes a checkpoint keeps the checkpoint before it, ``--resume`` falls back to the previous pair
when the newest is truncated, corrupt or mismatched, and SIGTERM stops a run the way Ctrl-C
does (exit 130, everything saved, ``report.md`` says "interrupted")."""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from parlour.safe_stop import stop_signals_interrupt
from parlour.train import checkpoints as C
from parlour.train import train as train_module
from parlour.train.run_folder import RunFolderError

from .helpers import assert_clean_failure, cli_process, files, run_main, tiny, write_config

#: seconds a subprocess may take to reach the point the test waits for / to end
WAIT_S = 120
#: the step at which the in-process test sends SIGTERM (inside the second 64-step rollout)
SIGNAL_AT = 100


def _argv(tmp_path: Path, cfg: dict, *extra: str) -> list[str]:
    path = write_config(tmp_path / "tiny.yaml", cfg)
    return ["train", str(path), "--runs", str(tmp_path / "runs"), "--no-progress", *extra]


def _cli(tmp_path: Path, argv: list[str], **kwargs) -> subprocess.CompletedProcess:
    return cli_process(argv, tmp_path, WAIT_S, **kwargs)


def _signal_at_step(monkeypatch, send) -> None:
    """Make ``parlour train``'s callback call ``send(callback)`` once, at :data:`SIGNAL_AT`."""
    real = train_module._make_callback

    def make(*args, **kwargs):
        cb = real(*args, **kwargs)
        on_step = cb._on_step

        def step() -> bool:
            if cb.num_timesteps >= SIGNAL_AT and not getattr(cb, "sent", False):
                cb.sent = True
                send(cb)
            return on_step()

        cb._on_step = step
        return cb

    monkeypatch.setattr(train_module, "_make_callback", make)


def _report(run: Path) -> dict:
    return json.loads((run / "report.json").read_text())


# -- a full disk (a real write failure, no mock) ---------------------------------------------


@pytest.mark.slow  # (~17 s; fast: test_a_checkpoint_model_whose_save_fails_leaves_the_pairs_...)
def test_a_write_limit_hit_while_a_checkpoint_is_written_keeps_the_last_one(tmp_path, capsys):
    """``ulimit -f``: writing the model of the checkpoint at 384 steps fails (EFBIG, as on a
    full disk); the checkpoint at 256 is left whole and ``--resume`` continues from it (before,
    ``latest.safetensors`` was rewritten in place and left truncated: ``--resume`` was refused)."""
    argv = _argv(tmp_path, tiny())
    assert run_main(argv, capsys)[0] == 0
    run = tmp_path / "runs" / "tiny"
    ckpts = run / "checkpoints"
    before = files(ckpts)
    limit = (ckpts / C.CHECKPOINT_MODEL).stat().st_size // 2  # (config, logs, state: smaller)

    def limit_file_size() -> None:  # (in the child: writes past the limit fail with EFBIG)
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    failed = _cli(tmp_path, [*argv, "--resume", "--timesteps", "512"], preexec_fn=limit_file_size)
    assert_clean_failure((failed.returncode, failed.stdout, failed.stderr), "File too large")
    assert files(ckpts) == before  # the checkpoint pairs are untouched, no temporary file left
    rc, _, err = run_main([*argv, "--resume", "--timesteps", "512"], capsys)
    assert rc == 0, err[-2000:]
    assert "warning" not in err
    assert (run / "logs" / "resume_256").is_dir()  # (resumed from the newest pair, at 256)
    assert _report(run)["timesteps"] == 512


# -- SIGKILL while a checkpoint is written -----------------------------------------------------

#: the wrapper: ``parlour train`` whose second checkpoint write stops half-way (the model file
#: half written), says so in a marker file and waits to be killed
KILLED_WRITER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from parlour.train import train as T
    from parlour.apps.cli import main

    real, calls = T._save_model, []

    def save(model, path):
        path = Path(path)
        if path.parent.name == "checkpoints" and not path.name.startswith("eval_"):
            calls.append(path)
            if len(calls) == 2:
                real(model, path.with_name("whole.safetensors"))
                data = path.with_name("whole.safetensors").read_bytes()
                with open(path, "wb") as f:  # the writer is half-way when the kill comes
                    f.write(data[: len(data) // 2])
                    f.flush()
                    Path(sys.argv[1]).write_text(str(path))
                    time.sleep(600)
        return real(model, path)

    T._save_model = save
    sys.exit(main(sys.argv[2:]))
    """
)


def test_sigkill_while_a_checkpoint_is_written_then_resume(tmp_path, capsys):
    """A real ``parlour train`` process killed with SIGKILL half-way through writing its second
    checkpoint (256 steps): the first (128) is whole and ``--resume`` finishes the run."""
    cfg = tiny(total_timesteps=512)
    argv = _argv(tmp_path, cfg)
    (tmp_path / "wrapper.py").write_text(KILLED_WRITER)
    marker = tmp_path / "writing"
    proc = subprocess.Popen(
        [sys.executable, str(tmp_path / "wrapper.py"), str(marker), *argv],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + WAIT_S
    while not marker.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert marker.exists(), proc.communicate(timeout=WAIT_S)[1][-3000:]
    proc.kill()
    proc.communicate(timeout=WAIT_S)
    ckpts = tmp_path / "runs" / "tiny" / "checkpoints"
    assert json.loads((ckpts / C.STATE_FILE).read_text())["timesteps"] == 128
    assert C.find_checkpoints(ckpts)[0].newest
    assert list(ckpts.glob(".*.tmp"))  # the half-written model, under its temporary name
    rc, _, err = run_main([*argv, "--resume"], capsys)
    assert rc == 0 and "warning" not in err, err[-3000:]
    run = tmp_path / "runs" / "tiny"
    assert (run / "logs" / "resume_128").is_dir()
    assert _report(run)["timesteps"] == 512
    assert not list(ckpts.glob(".*.tmp"))  # (the half-written file is gone)


# -- --resume falls back to the previous pair --------------------------------------------------


@pytest.fixture
def two_checkpoints(tmp_path, capsys) -> list[str]:
    """A finished tiny run: ``latest.safetensors`` at 256 steps, ``previous.safetensors`` at 128. Returns its
    ``parlour train`` arguments."""
    argv = _argv(tmp_path, tiny())
    assert run_main(argv, capsys)[0] == 0
    ckpts = tmp_path / "runs" / "tiny" / "checkpoints"
    assert json.loads((ckpts / C.PREVIOUS_STATE).read_text())["timesteps"] == 128
    return argv


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _resume_from_previous(tmp_path, capsys, argv) -> str:
    rc, _, err = run_main([*argv, "--resume", "--timesteps", "384"], capsys)
    assert rc == 0, err[-2000:]
    warnings = [line for line in err.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "128 steps" in warnings[0], err[-2000:]
    run = tmp_path / "runs" / "tiny"
    assert (run / "logs" / "resume_128").is_dir() and _report(run)["timesteps"] == 384
    return warnings[0]


def test_a_truncated_latest_checkpoint_falls_back_to_the_previous_one(
    tmp_path, capsys, two_checkpoints
):
    _truncate(tmp_path / "runs" / "tiny" / "checkpoints" / C.CHECKPOINT_MODEL)
    line = _resume_from_previous(tmp_path, capsys, two_checkpoints)
    assert C.PREVIOUS_MODEL in line


def test_a_mismatched_pair_falls_back_to_the_state_of_the_model_file(
    tmp_path, capsys, two_checkpoints
):
    """``latest.safetensors`` replaced by another whole model (the 128-step one): ``state.json`` (256)
    does not describe it, so the 128-step state is used with it."""
    ckpts = tmp_path / "runs" / "tiny" / "checkpoints"
    shutil.copy(ckpts / C.PREVIOUS_MODEL, ckpts / C.CHECKPOINT_MODEL)
    _resume_from_previous(tmp_path, capsys, two_checkpoints)


@pytest.mark.parametrize("damage", ["missing", "corrupt"])
def test_a_missing_or_corrupt_state_falls_back_to_the_previous_pair(
    tmp_path, capsys, two_checkpoints, damage
):
    state = tmp_path / "runs" / "tiny" / "checkpoints" / C.STATE_FILE
    if damage == "missing":
        state.unlink()
    else:
        state.write_text('{"timesteps": 256, "history": [')
    _resume_from_previous(tmp_path, capsys, two_checkpoints)


def test_no_usable_checkpoint_is_refused_and_nothing_changes(tmp_path, capsys, two_checkpoints):
    ckpts = tmp_path / "runs" / "tiny" / "checkpoints"
    _truncate(ckpts / C.CHECKPOINT_MODEL)
    _truncate(ckpts / C.PREVIOUS_MODEL)
    before = files(tmp_path)
    result = run_main([*two_checkpoints, "--resume"], capsys)
    assert_clean_failure(result, "no usable checkpoint", before, files(tmp_path))
    assert "no model file matches" in result[2]


def test_resume_without_state_json_is_refused_naming_it(tmp_path, capsys, finished_run, tiny_model):
    """A checkpoint model without its ``state.json`` (and no previous pair): refused, naming
    the file (before, the run resumed with an empty history, silently)."""
    shutil.copy(tiny_model, finished_run / "checkpoints" / C.CHECKPOINT_MODEL)
    (finished_run / "checkpoints" / C.STATE_FILE).unlink()
    before = files(tmp_path)
    result = run_main(_argv(tmp_path, tiny(), "--resume"), capsys)
    assert_clean_failure(result, "state.json is missing", before, files(tmp_path))


# -- a kill between the moves of a rotation ----------------------------------------------------


def _fake_pair(folder: Path, steps: int) -> None:
    state = {"timesteps": steps, "history": [], "snapshots": [], "wall_time": 1.0}
    C.write_checkpoint(folder, lambda p: Path(p).write_bytes(b"model %d" % steps), state)


@pytest.mark.parametrize("moves_done", [0, 1, 2, 3])
def test_a_kill_between_the_moves_of_a_rotation_leaves_a_usable_pair(
    tmp_path, monkeypatch, moves_done
):
    """The new pair (300 steps) replaces the newest (200), which becomes the previous one; the
    process dies after ``moves_done`` of the four renames: a consistent pair is found."""
    _fake_pair(tmp_path, 100)
    _fake_pair(tmp_path, 200)
    real, done = os.replace, []

    def replace(src, dst):
        if Path(src).name in (C.NEW_MODEL, C.NEW_STATE, C.STATE_FILE, C.CHECKPOINT_MODEL):
            if len(done) == moves_done:
                raise KeyboardInterrupt("killed")
            done.append(dst)
        real(src, dst)

    monkeypatch.setattr(C.os, "replace", replace)
    with pytest.raises(KeyboardInterrupt):
        _fake_pair(tmp_path, 300)
    monkeypatch.undo()
    found = C.find_checkpoints(tmp_path)
    assert found and all(c.model.read_bytes() == b"model %d" % c.timesteps for c in found)
    assert found[0].timesteps == 200
    assert found[0].newest == (moves_done == 0)


def test_a_checkpoint_model_whose_save_fails_leaves_the_pairs_as_they_were(tmp_path):
    _fake_pair(tmp_path, 100)
    _fake_pair(tmp_path, 200)
    before = files(tmp_path)

    def failing(path: Path) -> None:
        Path(path).write_bytes(b"half a mo")
        raise OSError(27, "File too large")

    with pytest.raises(OSError):
        C.write_checkpoint(tmp_path, failing, {"timesteps": 300})
    assert files(tmp_path) == before


def test_states_are_read_with_a_size_cap(tmp_path, monkeypatch):
    _fake_pair(tmp_path, 100)
    monkeypatch.setattr(C, "MAX_STATE_BYTES", 10)
    with pytest.raises(RunFolderError, match="limit is 10"):
        C.find_checkpoints(tmp_path)


# -- SIGTERM: as Ctrl-C ---------------------------------------------------------------------


def _check_interrupted(run: Path, result, steps: int) -> None:
    assert_clean_failure(result, f"interrupted at {steps} steps", code=130)
    report = _report(run)
    assert report["interrupted"] is True and report["timesteps"] == steps
    assert f"Interrupted** at {steps} learner steps" in (run / "report.md").read_text()
    assert json.loads((run / "checkpoints" / C.STATE_FILE).read_text())["timesteps"] == steps


def test_sigterm_saves_the_run_like_ctrl_c_and_resume_finishes_it(tmp_path, capsys, monkeypatch):
    """SIGTERM (in-process, at step 100) takes Ctrl-C's path: the model at its last finished
    rollout (64), a checkpoint and the report are saved, exit code 130; the handler is removed
    after the run."""

    def unhandled(signum, frame):  # (without the handler: fail the test, not kill pytest)
        raise RuntimeError("SIGTERM reached pytest's handler")

    outer = signal.signal(signal.SIGTERM, unhandled)
    try:
        _signal_at_step(monkeypatch, lambda cb: os.kill(os.getpid(), signal.SIGTERM))
        argv = _argv(tmp_path, tiny())
        run = tmp_path / "runs" / "tiny"
        _check_interrupted(run, run_main(argv, capsys), 64)
        assert signal.getsignal(signal.SIGTERM) is unhandled
        monkeypatch.undo()
        assert run_main([*argv, "--resume"], capsys)[0] == 0
    finally:
        signal.signal(signal.SIGTERM, outer)
    report = _report(run)
    assert report["timesteps"] == 256 and "interrupted" not in report
    assert "Interrupted" not in (run / "report.md").read_text()


@pytest.mark.slow
def test_sigterm_to_a_real_training_process_then_resume(tmp_path):
    data = tiny(total_timesteps=6144, ppo={"n_steps": 256}, checkpoint_every=256)
    argv = _argv(tmp_path, data)
    run = tmp_path / "runs" / "tiny"
    proc = subprocess.Popen(
        [sys.executable, "-m", "parlour.apps.cli", *argv],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    deadline = time.monotonic() + WAIT_S
    while not (run / "checkpoints" / C.STATE_FILE).exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, "the run ended before it could be stopped"
    proc.terminate()  # SIGTERM
    out, err = proc.communicate(timeout=WAIT_S)
    steps = _report(run)["timesteps"]
    assert 0 < steps < data["total_timesteps"] and steps % 256 == 0
    _check_interrupted(run, (proc.returncode, out, err), steps)
    done = _cli(tmp_path, [*argv, "--resume"])
    assert done.returncode == 0, done.stderr[-3000:]
    assert _report(run)["timesteps"] == data["total_timesteps"]


def test_stop_signals_interrupt_makes_sigterm_a_keyboard_interrupt_and_restores_the_handler():
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt), stop_signals_interrupt():
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(1)  # (the handler runs at the next bytecode)
    assert signal.getsignal(signal.SIGTERM) == before


def test_a_signal_during_the_renames_of_a_checkpoint_waits_for_them(tmp_path, monkeypatch):
    """SIGTERM arriving between two renames of a rotation is delivered after the last one: the
    new pair is complete (``latest``) and the one before it whole (``previous``)."""
    _fake_pair(tmp_path, 100)
    _fake_pair(tmp_path, 200)
    real = os.replace

    def replace(src, dst):
        real(src, dst)
        if Path(dst).name == C.PREVIOUS_STATE:  # (the first rename of the rotation)
            os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(C.os, "replace", replace)
    with pytest.raises(KeyboardInterrupt), stop_signals_interrupt():
        _fake_pair(tmp_path, 300)
    monkeypatch.undo()
    assert [c.timesteps for c in C.find_checkpoints(tmp_path)] == [300, 200]
    assert C.find_checkpoints(tmp_path)[0].newest


@pytest.mark.slow  # (~10 s: two env worker processes start)
def test_sigterm_to_every_process_of_a_subproc_run_still_saves_it(tmp_path, capsys, monkeypatch):
    """SLURM signals every process of a job: the env workers die of SIGTERM while the main
    process takes the save-and-exit path; closing the dead workers does not stop it."""

    def terminate_all(cb) -> None:
        for proc in cb.training_env.unwrapped.processes:
            os.kill(proc.pid, signal.SIGTERM)
            proc.join(WAIT_S)
        os.kill(os.getpid(), signal.SIGTERM)

    _signal_at_step(monkeypatch, terminate_all)
    cfg = tiny(n_envs=2, vec_env="subproc", ppo={"n_steps": 32})
    _check_interrupted(tmp_path / "runs" / "tiny", run_main(_argv(tmp_path, cfg), capsys), 64)
