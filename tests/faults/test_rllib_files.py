"""Faults of the RLlib backend without Ray: checkpoint rotation and fallback, run state files,
stop signals, and the ``rllib:`` agent's cache, fit check and finite weights."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import numpy as np
import pytest
import torch

from parlour.agents import rllib_agent
from parlour.agents.factory import make_agent
from parlour.games import get_game, make_raw_env
from parlour.safe_stop import held_stop_signals, stop_signals_interrupt
from parlour.train.rllib.checkpoints import (
    LATEST,
    MARKER,
    PREVIOUS,
    load_first,
    read_state,
    resume_candidates,
    resumed_state,
    save_checkpoint,
)
from parlour.train.run_folder import RunFolderError

STATE = {"timesteps": 0, "history": [], "snapshots": [], "wall_time": 0.0}


def _writer(text: str):
    def write(folder: Path) -> None:
        (folder / "weights").write_text(text)
        (folder / "sub").mkdir()
        (folder / "sub" / "more").write_text(text)

    return write


def _state(steps: int) -> dict:
    return {**STATE, "timesteps": steps}


def test_checkpoint_rotation_keeps_the_previous_one(tmp_path: Path) -> None:
    for steps in (1, 2, 3):
        save_checkpoint(tmp_path, LATEST, _writer(f"w{steps}"), _state(steps))
    assert (tmp_path / LATEST / "weights").read_text() == "w3"
    assert (tmp_path / PREVIOUS / "weights").read_text() == "w2"
    assert json.loads((tmp_path / LATEST / MARKER).read_text())["timesteps"] == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == [LATEST, PREVIOUS]  # no leftovers
    assert resume_candidates(tmp_path) == [tmp_path / LATEST, tmp_path / PREVIOUS]


def test_a_checkpoint_cut_short_leaves_the_last_one_whole(tmp_path: Path) -> None:
    """A save that dies half-way (here: raises after one file) changes neither checkpoint."""
    save_checkpoint(tmp_path, LATEST, _writer("w1"), _state(1))
    save_checkpoint(tmp_path, LATEST, _writer("w2"), _state(2))

    def dies(folder: Path) -> None:
        (folder / "weights").write_text("half")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        save_checkpoint(tmp_path, LATEST, dies, _state(3))
    assert (tmp_path / LATEST / "weights").read_text() == "w2"
    assert (tmp_path / PREVIOUS / "weights").read_text() == "w1"
    assert resume_candidates(tmp_path)[0] == tmp_path / LATEST
    save_checkpoint(tmp_path, LATEST, _writer("w3"), _state(3))  # the leftover is cleared
    assert (tmp_path / LATEST / "weights").read_text() == "w3"
    assert not (tmp_path / f".{LATEST}.new").exists()


def test_resume_falls_back_to_previous_and_names_every_failure(tmp_path: Path) -> None:
    save_checkpoint(tmp_path, LATEST, _writer("w1"), _state(1))
    save_checkpoint(tmp_path, LATEST, _writer("w2"), _state(2))

    def load(path: Path) -> str:
        text = (path / "weights").read_text()
        if text == "corrupt":
            raise RuntimeError("unpickling stack underflow")
        return text

    (tmp_path / LATEST / "weights").write_text("corrupt")
    path, loaded = load_first(resume_candidates(tmp_path), load, tmp_path)
    assert (path.name, loaded) == (PREVIOUS, "w1")
    (tmp_path / PREVIOUS / "weights").write_text("corrupt")
    with pytest.raises(RunFolderError, match="latest: unpickling.*previous: unpickling"):
        load_first(resume_candidates(tmp_path), load, tmp_path)
    # a latest that a kill left without its marker is passed over for a complete previous
    (tmp_path / LATEST / MARKER).unlink()
    assert resume_candidates(tmp_path) == [tmp_path / PREVIOUS, tmp_path / LATEST]
    with pytest.raises(RunFolderError, match="no complete checkpoint"):
        load_first([], load, tmp_path)


def test_resumed_state_is_the_checkpoints_own(tmp_path: Path) -> None:
    save_checkpoint(tmp_path, LATEST, _writer("w"), _state(256))
    state_file = tmp_path / "state.json"
    newer = {**_state(512), "history": [{"timesteps": 512}]}
    state_file.write_text(json.dumps(newer))
    assert resumed_state(tmp_path / LATEST, state_file)["timesteps"] == 256  # not 512
    same = {**_state(256), "history": [{"timesteps": 256, "final": True}]}
    state_file.write_text(json.dumps(same))
    assert resumed_state(tmp_path / LATEST, state_file)["history"] == same["history"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"timesteps": 25', "cannot read the run state"),
        (b"\xff\xfe", "cannot read the run state"),
        (b"[1, 2]", "not a run state"),
        (b'{"timesteps": "many"}', "'timesteps' has the wrong type"),
        (b'{"timesteps": -5}', "negative"),
        (b'{"timesteps": 5, "history": [3]}', "malformed"),
    ],
)
def test_a_corrupt_run_state_is_a_clear_error(tmp_path: Path, content: bytes, message) -> None:
    path = tmp_path / "state.json"
    path.write_bytes(content)
    with pytest.raises(RunFolderError, match=message):
        read_state(path)


def test_a_fifo_run_state_is_refused_without_blocking(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    os.mkfifo(path)
    with pytest.raises(RunFolderError, match="not a regular file"):
        read_state(path)


def test_sigterm_is_an_interrupt_and_saves_are_not_cut(tmp_path: Path) -> None:
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt), stop_signals_interrupt():
        os.kill(os.getpid(), signal.SIGTERM)
    assert signal.getsignal(signal.SIGTERM) is before
    done = []
    with pytest.raises(KeyboardInterrupt), stop_signals_interrupt(), held_stop_signals():
        os.kill(os.getpid(), signal.SIGTERM)
        done.append("saved")  # the block runs on to its end
    assert done == ["saved"]
    with held_stop_signals() as received:  # a stop the caller drops
        os.kill(os.getpid(), signal.SIGINT)
        received.clear()


# -- the rllib: agent --------------------------------------------------------------------------


def _export(path: Path, seed: int = 0, *, game: str = "audition", nan: bool = False) -> Path:
    from parlour.agents.rllib_module import MaskedPPOModule
    from parlour.train.rllib.env import adapted_space
    from parlour.train.rllib.export import export_document, module_model_config, write_export

    aec = make_raw_env(get_game(game), 2)
    config = module_model_config([8], "tanh")
    torch.manual_seed(seed)
    space, actions = adapted_space(aec), aec.action_space("player_0")
    module = MaskedPPOModule(observation_space=space, action_space=actions, model_config=config)
    weights = module.state_dict()
    if nan:
        next(iter(weights.values()))[0] = float("nan")
    doc = export_document(config, space["observation"].shape[0], actions.n)
    write_export(path, weights, doc)
    return path


def test_agent_cache_is_bounded_and_follows_rewrites(tmp_path: Path) -> None:
    rllib_agent._CACHE.clear()
    paths = [_export(tmp_path / f"p{i}.safetensors", i) for i in range(12)]
    for path in paths:
        make_agent(f"rllib:{path}", get_game("audition"))
    assert len(rllib_agent._CACHE) == rllib_agent.MAX_CACHED_MODELS
    first = rllib_agent.load_module(paths[-1])
    _export(paths[-1], seed=99)
    os.utime(paths[-1], ns=(1, 1))  # (a rewrite within the clock's resolution: size/mtime key)
    assert rllib_agent.load_module(paths[-1]) is not first


def test_agent_of_another_game_is_refused_naming_both(tmp_path: Path) -> None:
    agent = make_agent(f"rllib:{_export(tmp_path / 'a.safetensors')}", get_game("guests"))
    guests = make_raw_env(get_game("guests"), 2)
    with pytest.raises(ValueError, match=r"trained on observations of shape \(\d+,\) with \d+ "):
        agent.check_fits(guests)
    agent.check_fits(make_raw_env(get_game("audition"), 2))


def test_nan_weights_are_refused_at_export_and_at_load(tmp_path: Path) -> None:
    from safetensors.torch import load, save

    path = tmp_path / "nan.safetensors"
    with pytest.raises(ValueError, match="NaN or infinite"):
        _export(path, nan=True)
    assert not path.exists()
    good = _export(tmp_path / "good.safetensors")
    data = good.read_bytes()
    size = int.from_bytes(data[:8], "little")
    metadata = json.loads(data[8 : 8 + size])["__metadata__"]
    tensors = load(data)
    name = next(iter(tensors))
    tensors[name] = torch.full_like(tensors[name], np.inf)
    path.write_bytes(save(tensors, metadata=metadata))
    rllib_agent._CACHE.clear()
    with pytest.raises(ValueError, match=f"{name}.*NaN or infinite"):
        make_agent(f"rllib:{path}", get_game("audition"))


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p.write_bytes(b"\x00" * 3), "too short"),
        (lambda p: p.write_bytes((10**6).to_bytes(8, "little") + b"{}"), "truncated header"),
        (lambda p: p.write_bytes((2).to_bytes(8, "little") + b"[]"), "bad header"),
        (lambda p: p.write_bytes((2).to_bytes(8, "little") + b"{}"), "no parlour document"),
    ],
)
def test_a_corrupt_export_is_a_clear_error(tmp_path: Path, make, message) -> None:
    path = tmp_path / "bad.safetensors"
    make(path)
    with pytest.raises(ValueError, match=message):
        make_agent(f"rllib:{path}", get_game("audition"))


def test_rllib_paths_that_are_not_policies_are_clear_errors(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(ValueError, match="not a .safetensors export"):
        make_agent(f"rllib:{tmp_path / 'notes.txt'}", get_game("audition"))
    with pytest.raises(FileNotFoundError, match="neither an RLlib run checkpoint"):
        make_agent(f"rllib:{tmp_path}", get_game("audition"))
    with pytest.raises(FileNotFoundError, match="no export file"):
        make_agent(f"rllib:{tmp_path / 'missing.safetensors'}", get_game("audition"))
    os.mkfifo(tmp_path / "fifo.safetensors")
    with pytest.raises(ValueError, match="not a regular file"):
        make_agent(f"rllib:{tmp_path / 'fifo.safetensors'}", get_game("audition"))


def test_a_corrupt_trusted_checkpoint_is_a_clear_error(tmp_path: Path) -> None:
    from parlour.agents.rllib_module import MaskedPPOModule
    from parlour.train.rllib.env import adapted_space
    from parlour.train.rllib.export import module_model_config

    aec = make_raw_env(get_game("audition"), 2)
    module = MaskedPPOModule(
        observation_space=adapted_space(aec),
        action_space=aec.action_space("player_0"),
        model_config=module_model_config([8], "tanh"),
    )
    module.save_to_path(tmp_path / "ckpt")
    (tmp_path / "ckpt" / "module_state.pkl").write_bytes(b"\x80\x04truncated")
    rllib_agent._CACHE.clear()
    with pytest.raises(ValueError, match="cannot load the RLlib checkpoint"):
        make_agent(f"rllib:{tmp_path / 'ckpt'}", get_game("audition"), trust=True)


def test_resume_of_an_rllib_run_without_its_state_names_the_missing_state(tmp_path):
    """With ``checkpoints/state.json`` deleted, ``--resume`` said "no checkpoint at …/latest"
    although ``latest/`` was there (found by the attack review): it names the missing file."""
    from parlour.train.run_folder import RunFolderError, check_resume

    (tmp_path / "checkpoints" / "latest").mkdir(parents=True)
    with pytest.raises(RunFolderError, match=r"state\.json is missing .* cannot resume it"):
        check_resume(tmp_path, {}, checkpoint="latest")
    (tmp_path / "checkpoints" / "latest").rmdir()
    with pytest.raises(RunFolderError, match="no checkpoint at"):
        check_resume(tmp_path, {}, checkpoint="latest")
