"""``parlour train NAME``: a config named without a path is the one shipped with parlour."""

from __future__ import annotations

import importlib.resources
from pathlib import Path

import pytest

from parlour.apps.cli import main
from parlour.train import train as train_module
from parlour.train.config import ConfigError, load_config, resolve_config_path, shipped_configs

SHIPPED = sorted(p.stem for p in (Path(__file__).parents[2] / "configs").glob("*.yaml"))


def test_the_shipped_names_are_the_package_data():
    assert shipped_configs() == SHIPPED and "audition_2p" in SHIPPED
    path = resolve_config_path("audition_2p")
    assert path == importlib.resources.files("parlour.configs") / "audition_2p.yaml"
    assert (
        path.read_text() == (Path(__file__).parents[2] / "configs" / "audition_2p.yaml").read_text()
    )


@pytest.mark.parametrize("name", ["audition_2p", "guests_solo_easy"])
def test_a_shipped_config_loads_by_name_from_any_folder(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg = load_config(name)
    assert cfg.name == name and cfg.game_spec.name == cfg.game


def test_a_file_wins_over_a_shipped_name_and_paths_stay_paths(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "audition_2p").write_text("name: mine\n")
    assert load_config("audition_2p").name == "mine"
    with pytest.raises(ConfigError, match="no config file at 'configs/nothing.yaml'"):
        load_config("configs/nothing.yaml")


def test_an_unknown_name_lists_the_shipped_configs():
    with pytest.raises(ConfigError, match="no config file or shipped config named 'audition_9p'"):
        load_config("audition_9p")
    with pytest.raises(ConfigError, match="shipped configs: " + ", ".join(SHIPPED)):
        load_config("audition_9p")


def test_parlour_train_takes_a_config_name(monkeypatch, tmp_path, capsys):
    seen = {}

    def fake_train(
        cfg, runs, resume, progress, overwrite=False
    ):  # (the name is what is tested, not training)
        seen.update(cfg=cfg, runs=runs)
        return {"name": cfg.name}

    monkeypatch.setattr(train_module, "train", fake_train)
    assert main(["train", "audition_2p", "--runs", str(tmp_path), "--timesteps", "7"]) == 0
    assert seen["cfg"].name == "audition_2p" and seen["cfg"].total_timesteps == 7
    assert main(["train", "audition_9p"]) == 2
    out = capsys.readouterr().err
    assert "audition_9p" in out and "shipped configs: audition_2p" in out
