"""Probe: an ``rllib:`` checkpoint whose pickles carry a payload.

An RLlib checkpoint is pickles; before issue 31, ``parlour eval --agents rllib:PATH`` ran any
code planted in them. Now ``rllib:`` loads parlour's safe export (safetensors + a JSON document)
and refuses a raw RLlib checkpoint unless trusted. The checkpoint here is one RLModule saved with
``save_to_path`` (no training, no Ray runtime), with ``class_and_ctor_args.pkl`` replaced by a
pickle that writes a marker file and then returns the original contents (so a trusted load still
works and proves the payload ran).
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import numpy as np
import pytest
import torch
from ray.rllib.core.columns import Columns

from parlour.agents import rllib_agent
from parlour.agents.factory import make_agent
from parlour.agents.rllib_agent import RLlibAgent, load_module
from parlour.agents.rllib_export import EXPORT_NAME, read_export
from parlour.agents.rllib_module import MaskedPPOModule
from parlour.agents.trust import TRUST_FLAG, UntrustedModelError
from parlour.games import get_game, make_raw_env
from parlour.train.rllib.env import adapted_space
from parlour.train.rllib.export import (
    export_checkpoint,
    export_document,
    module_model_config,
    write_export,
)

CONFIG = module_model_config([16], "tanh")
#: observations compared between the export and the module it came from
SAMPLES = 64


class _Payload:
    """Unpickles to ``original`` after writing ``marker`` (what an attacker's file would do)."""

    def __init__(self, marker: Path, original: bytes) -> None:
        self.marker, self.original = marker, original

    def __reduce__(self):
        code = (
            f"(__import__('pathlib').Path({str(self.marker)!r}).write_text('ran'), "
            f"__import__('pickle').loads({self.original!r}))[1]"
        )
        return (eval, (code,))


def _sizes() -> tuple[int, int]:
    aec = make_raw_env(get_game("audition"), 2)
    return aec.observation_space("player_0")["observation"].shape[0], aec.action_space("player_0").n


def _module() -> MaskedPPOModule:
    aec = make_raw_env(get_game("audition"), 2)
    torch.manual_seed(0)
    return MaskedPPOModule(
        observation_space=adapted_space(aec),
        action_space=aec.action_space(aec.possible_agents[0]),
        model_config=CONFIG,
    )


@pytest.fixture
def planted(tmp_path: Path) -> tuple[Path, Path, MaskedPPOModule]:
    """An RLModule checkpoint with a payload in its ``class_and_ctor_args.pkl``."""
    module = _module()
    folder = tmp_path / "checkpoint"
    module.save_to_path(folder)
    pkl = folder / "class_and_ctor_args.pkl"
    marker = tmp_path / "payload_ran"
    pkl.write_bytes(pickle.dumps(_Payload(marker, pkl.read_bytes())))
    rllib_agent._CACHE.clear()
    return folder, marker, module


def test_planted_checkpoint_is_refused_without_trust(planted) -> None:
    folder, marker, _ = planted
    with pytest.raises(UntrustedModelError, match=TRUST_FLAG) as err:
        make_agent(f"rllib:{folder}", get_game("audition"), seed=0)
    assert "pickled data" in str(err.value) and "RLlib checkpoint" in str(err.value)
    with pytest.raises(UntrustedModelError):
        load_module(folder)
    with pytest.raises(UntrustedModelError):
        RLlibAgent(f"rllib:{folder}", str(folder))
    assert not marker.exists(), "the payload ran without trust"


def test_planted_checkpoint_runs_its_payload_with_trust(planted) -> None:
    """The probe is real: with trust the checkpoint loads, and its payload runs."""
    folder, marker, module = planted
    agent = make_agent(f"rllib:{folder}", get_game("audition"), seed=0, trust=True)
    assert marker.read_text() == "ran"
    env = make_raw_env(get_game("audition"), 2)
    agent.check_fits(env)
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    assert obs["action_mask"][agent.act(obs)]
    # a cached trusted load does not let an untrusted one through
    with pytest.raises(UntrustedModelError):
        make_agent(f"rllib:{folder}", get_game("audition"), seed=0)


def _logits(module: MaskedPPOModule, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    batch = {Columns.OBS: {"observation": obs, "action_mask": mask}}
    with torch.no_grad():
        return module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]


def test_safe_export_loads_without_trust_and_gives_the_same_logits(tmp_path, planted) -> None:
    folder, marker, module = planted
    aec = make_raw_env(get_game("audition"), 2)
    n_obs, n_act = _sizes()
    write_export(folder / EXPORT_NAME, module.state_dict(), export_document(CONFIG, n_obs, n_act))
    rng = np.random.default_rng(0)
    obs = torch.as_tensor(rng.normal(size=(SAMPLES, n_obs)), dtype=torch.float32)
    mask = torch.as_tensor(rng.random((SAMPLES, n_act)) < 0.5, dtype=torch.float32)
    mask[:, 0] = 1.0
    # the folder now holds an export: rllib:FOLDER loads it, never the pickles
    for path in (folder, folder / EXPORT_NAME):
        loaded = load_module(path)
        assert torch.equal(_logits(loaded, obs, mask), _logits(module, obs, mask))
    assert not marker.exists(), "loading the export ran the checkpoint's pickles"
    agent = make_agent(f"rllib:{folder}", get_game("audition"), seed=0)
    agent.check_fits(aec)


def test_parlour_eval_refuses_the_planted_checkpoint_in_one_line(tmp_path, planted, capsys) -> None:
    from parlour.apps.cli import main

    folder, marker, _ = planted
    argv = ["eval", "--game", "audition", "--agents", f"rllib:{folder}", "random"]
    argv += ["--games", "2", "--workers", "1", "--out", str(tmp_path / "eval"), "--no-progress"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("parlour eval:") and "\n" not in err
    assert TRUST_FLAG in err and "pickled data" in err
    assert not marker.exists() and not (tmp_path / "eval").exists()


def test_an_old_checkpoint_is_converted_once_with_trust(tmp_path, planted) -> None:
    folder, marker, module = planted
    out = tmp_path / "converted.safetensors"
    with pytest.raises(UntrustedModelError):
        export_checkpoint(folder, out)
    assert not marker.exists() and not out.exists()
    assert export_checkpoint(folder, out, trust=True) == out
    obs = torch.zeros(1, _sizes()[0])
    mask = torch.ones(1, _sizes()[1])
    rllib_agent._CACHE.clear()
    assert torch.equal(_logits(load_module(out), obs, mask), _logits(module, obs, mask))


def _tamper(path: Path, change) -> None:
    """Rewrite the parlour document of the export at ``path`` with ``change(document)``."""
    from safetensors.torch import load, save

    data = path.read_bytes()
    size = int.from_bytes(data[:8], "little")
    document = json.loads(json.loads(data[8 : 8 + size])["__metadata__"]["parlour"])
    change(document)
    path.write_bytes(save(load(data), metadata={"parlour": json.dumps(document)}))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(module="os.system"), "module must be one of MaskedPPOModule"),
        (lambda d: d.update(version=99), "version 99 is not supported"),
        (lambda d: d.update(kind="sb3"), "kind must be 'rllib'"),
        (lambda d: d["model_config"].update(fcnet_hiddens=[10**9]), "fcnet_hiddens"),
        (lambda d: d["model_config"].update(encoder_kernel="x"), "model_config must hold"),
        (
            lambda d: d["model_config"].update(fcnet_hiddens=[60000] * 8),
            r"fcnet_hiddens must be an integer in \[1, 4096\]",
        ),
        (
            lambda d: d["model_config"].update(fcnet_hiddens=[4096] * 4),
            "has 51,777,564 weights; the limit is 50,000,000",
        ),
        (lambda d: d["model_config"].update(fcnet_hiddens=[8]), "'pi.net.mlp.0.weight' is"),
        (lambda d: d["model_config"].update(fcnet_hiddens=[16, 16]), "do not fit the module"),
        (lambda d: d["action"].update(n=3), r"'pi.net.mlp.0.weight' is \[27, 16\]"),
        # review: a 408-byte file with n = 2**31 - 1 tried to allocate 16 GiB
        (lambda d: d["action"].update(n=2**31 - 1), r"action n must be an integer in \[1, 65536\]"),
        (lambda d: d["action"].update(n=60000), r"implies \[60000, 16\]"),
        (lambda d: d["observation"].update(shape=[10**9]), "observation shape"),
    ],
)
def test_tampered_export_document_is_refused(tmp_path, change, message) -> None:
    path = tmp_path / EXPORT_NAME
    module = _module()
    write_export(path, module.state_dict(), export_document(CONFIG, *_sizes()))
    _tamper(path, change)
    with pytest.raises(ValueError, match=message):
        read_export(path)


def test_a_deeply_nested_export_document_is_refused_naming_the_file(tmp_path) -> None:
    from safetensors.torch import save

    path = tmp_path / EXPORT_NAME
    depth = 200_000
    path.write_bytes(save({}, metadata={"parlour": "[" * depth + "]" * depth}))
    with pytest.raises(ValueError, match=f"rllib: '{path}'.*nested too deeply"):
        read_export(path)
