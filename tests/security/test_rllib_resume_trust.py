"""``parlour train --resume`` of an RLlib run reads RLlib checkpoints, whose learner, optimizer
and env-runner state are pickles: without ``--trust-model`` it is refused in one line (exit 2)
before Ray starts or ``Algorithm.from_checkpoint`` unpickles anything (issue 31 review)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

pytest.importorskip("ray.rllib")

from ray.rllib.algorithms.algorithm import Algorithm  # noqa: E402

from parlour.agents.trust import TRUST_FLAG, UntrustedModelError  # noqa: E402
from parlour.train.config import config_from_dict  # noqa: E402
from parlour.train.rllib import runner  # noqa: E402
from parlour.train.rllib.checkpoints import LATEST  # noqa: E402

from ..faults.helpers import assert_clean_failure, files, run_main  # noqa: E402

CONFIG = {
    "name": "received",
    "game": "audition",
    "players": 2,
    "backend": "rllib",
    "total_timesteps": 256,
    "opponents": {"baselines": {"random": 1.0}},
    "ppo": {"net_arch": [8]},
    "rllib": {"num_env_runners": 0},
}


def _received_run(tmp_path: Path) -> Path:
    """A run folder from someone else: its config, state and a ``checkpoints/latest`` whose
    pickle would run code."""
    run = tmp_path / "runs" / CONFIG["name"]
    latest = run / "checkpoints" / LATEST
    latest.mkdir(parents=True)
    (latest / "class_and_ctor_args.pkl").write_bytes(b"\x80\x04payload")
    state = {"timesteps": 128, "history": [], "snapshots": [], "wall_time": 1.0}
    (run / "checkpoints" / "state.json").write_text(json.dumps(state))
    (run / "config.yaml").write_text(yaml.safe_dump(config_from_dict(CONFIG).to_dict()))
    return run


@pytest.fixture
def from_checkpoint(monkeypatch) -> list[str]:
    """``Algorithm.from_checkpoint`` replaced: records the paths it was asked to unpickle."""
    calls: list[str] = []

    def record(cls, path, *args, **kwargs):
        calls.append(path)
        return "ALGO"

    monkeypatch.setattr(Algorithm, "from_checkpoint", classmethod(record))
    return calls


def test_resume_without_trust_is_refused_before_anything_is_unpickled(
    tmp_path, capsys, monkeypatch, from_checkpoint
) -> None:
    run = _received_run(tmp_path)
    ray_started: list[object] = []
    monkeypatch.setattr(runner, "init_ray", lambda *a: ray_started.append(a) or "local")
    config = tmp_path / "received.yaml"
    config.write_text(yaml.safe_dump(CONFIG))
    argv = ["train", str(config), "--runs", str(tmp_path / "runs"), "--resume", "--no-progress"]
    before = files(run)
    result = run_main(argv, capsys)
    assert_clean_failure(result, "holds RLlib checkpoints", before, files(run))
    assert TRUST_FLAG in result[2] and "pickled data" in result[2]
    assert from_checkpoint == [] and ray_started == []


def test_resume_algorithm_refuses_without_trust_and_loads_with_it(tmp_path, from_checkpoint):
    run = _received_run(tmp_path)
    with pytest.raises(UntrustedModelError, match="--trust-model"):
        runner._resume_algorithm(run)
    assert from_checkpoint == []
    algo, state = runner._resume_algorithm(run, trust=True)
    assert algo == "ALGO" and state["timesteps"] == 128
    assert from_checkpoint == [str((run / "checkpoints" / LATEST).resolve())]
