"""Fixtures of the fault-injection suite: a tiny saved model, a fabricated finished run."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from .helpers import TINY


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A saved (untrained) MaskablePPO model of 2-player Audition."""
    from parlour.train.config import config_from_dict
    from parlour.train.model import save_model
    from parlour.train.train import build_model, make_vec_env

    cfg = config_from_dict(dict(TINY))
    vec_env = make_vec_env(cfg)
    path = tmp_path_factory.mktemp("model") / "audition_2p.safetensors"
    save_model(build_model(cfg, vec_env), path)
    vec_env.close()
    return path


@pytest.fixture
def finished_run(tmp_path: Path) -> Path:
    """``runs/tiny`` holding what a finished run leaves (config, model, report, checkpoint)."""
    from parlour.train.config import config_from_dict

    run = tmp_path / "runs" / "tiny"
    (run / "checkpoints").mkdir(parents=True)
    (run / "config.yaml").write_text(yaml.safe_dump(config_from_dict(dict(TINY)).to_dict()))
    (run / "model.safetensors").write_bytes(b"the finished model")
    (run / "report.json").write_text('{"timesteps": 256}\n')
    (run / "checkpoints" / "latest.safetensors").write_bytes(b"the last checkpoint")
    (run / "checkpoints" / "state.json").write_text(
        '{"timesteps": 256, "history": [], "snapshots": [], "wall_time": 1.0}'
    )
    (tmp_path / "keep.txt").write_text("a file beside the runs folder")
    return run
