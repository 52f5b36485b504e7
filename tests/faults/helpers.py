"""Helpers of the fault-injection suite: run ``parlour`` like a user, check what it left behind.

Every fault test asserts four things (:func:`assert_clean_failure`): the exit code, the one-line
error naming the problem, that no traceback was printed, and that every file that existed before
still exists with the same content.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from parlour.apps.cli import main

#: a tiny Audition training config (in-process envs, small rollouts)
TINY: dict[str, Any] = {
    "name": "tiny",
    "players": 2,
    "total_timesteps": 256,
    "n_envs": 1,
    "vec_env": "dummy",
    "opponents": {"baselines": {"random": 1.0}},
    "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 1, "net_arch": [8]},
    "eval": {"every": 100000, "games": 2, "final_games": 2, "workers": 1, "agents": ["random"]},
    "checkpoint_every": 128,
}
CLASSIC = Path(__file__).resolve().parents[2] / "envs/awkward_guests/case/classic/01-beginner.json"


def tiny(**changes: Any) -> dict[str, Any]:
    cfg = copy.deepcopy(TINY)
    for key, value in changes.items():
        if isinstance(value, dict) and isinstance(cfg.get(key), dict):
            cfg[key].update(value)
        else:
            cfg[key] = value
    return cfg


def write_config(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def files(root: Path) -> dict[str, str]:
    """Every file under ``root`` (relative path -> content hash)."""
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_file() and not p.name.endswith(".lock"):
            out[str(p.relative_to(root))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def run_main(argv: list[str], capsys: Any) -> tuple[int, str, str]:
    """``parlour ARGV`` in this process: (exit code, stdout, stderr)."""
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse errors and the SystemExit(message) convention
        code = exc.code if isinstance(exc.code, int) else 1
        if isinstance(exc.code, str):
            print(exc.code, file=sys.stderr)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def cli_process(
    argv: list[str], cwd: Path, timeout: float = 120, stdin: str = "", **popen_kwargs: Any
) -> subprocess.CompletedProcess:
    """``parlour ARGV`` in a subprocess (``popen_kwargs``: e.g. ``preexec_fn``)."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    env.pop("PARLOUR_TRACEBACK", None)
    return subprocess.run(
        [sys.executable, "-m", "parlour.apps.cli", *argv],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        **popen_kwargs,
    )


def run_cli(
    argv: list[str], cwd: Path, stdin: str = "", timeout: float = 120
) -> tuple[int, str, str]:
    """``parlour ARGV`` in a subprocess: (exit code, stdout, stderr)."""
    proc = cli_process(argv, cwd, timeout, stdin)
    return proc.returncode, proc.stdout, proc.stderr


def assert_clean_failure(
    result: tuple[int, str, str],
    message: str,
    before: dict[str, str] | None = None,
    after: dict[str, str] | None = None,
    code: int = 2,
) -> None:
    """Exit code ``code``, ``message`` in one error line, no traceback, no file lost or changed."""
    rc, out, err = result
    assert rc == code, (rc, out[-2000:], err[-2000:])
    assert "Traceback" not in out + err, err[-3000:]
    lines = [line for line in err.splitlines() if line.startswith("parlour") and message in line]
    assert lines, f"no 'parlour ...: {message}' line in stderr: {err[-2000:]!r}"
    if before is not None:
        assert after is not None
        lost = sorted(set(before) - set(after))
        changed = sorted(k for k in before if k in after and before[k] != after[k])
        assert not lost and not changed, (lost, changed)


def classic_case_json() -> dict[str, Any]:
    return json.loads(CLASSIC.read_text())
