"""Writing the safe export of an RLlib policy: weights in ``safetensors``, everything else in JSON.

The RLlib runner writes, beside every checkpoint, the learner's
:class:`~parlour.agents.rllib_module.MaskedPPOModule` weights as one ``.safetensors`` file
(:data:`~parlour.agents.rllib_export.EXPORT_NAME`) whose header metadata
``{"parlour": "<JSON>"}`` says how to rebuild the module. The format, its document and its
reader are :mod:`parlour.agents.rllib_export` (the ``rllib:`` agent reads exports below the
training layer); this module writes them.

| name | what |
|---|---|
| :func:`write_export` | write weights + document atomically (NaN/inf refused) |
| :func:`module_model_config` | the allow-listed model config of a training config |
| :func:`export_document` | the JSON document of an export |
| :func:`export_path` | the safe export inside a checkpoint folder |
| :func:`export_checkpoint` | convert an RLlib checkpoint (a run made before parlour wrote safe exports) into a safe export, once, trusting it |
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from parlour._files import write_atomic
from parlour.agents.rllib_agent import checkpoint_module_dir, load_pickled
from parlour.agents.rllib_export import (
    EXPORT_NAME,
    FORMAT_NAME,
    FORMAT_VERSION,
    KIND,
    METADATA_KEY,
    OBS_DTYPE,
    check_document,
)
from parlour.agents.trust import refuse_untrusted, require_finite


def module_model_config(
    net_arch: list[int], activation: str, vf_share_layers: bool = False
) -> dict[str, Any]:
    """The RLModule ``model_config`` of a run (the only keys an export may hold; RLlib's PPO
    gives the value function its own layers unless ``vf_share_layers``)."""
    return {
        "fcnet_hiddens": [int(w) for w in net_arch],
        "fcnet_activation": activation,
        "vf_share_layers": bool(vf_share_layers),
    }


def export_document(
    model_config: Mapping[str, Any], obs_size: int, actions: int, module: str = "MaskedPPOModule"
) -> dict[str, Any]:
    """The JSON document of an export (see the module docstring)."""
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "kind": KIND,
        "module": module,
        "model_config": dict(model_config),
        "observation": {"shape": [int(obs_size)], "dtype": OBS_DTYPE},
        "action": {"n": int(actions)},
    }


def write_export(
    path: str | os.PathLike, weights: Mapping[str, Any], document: Mapping[str, Any]
) -> None:
    """Write ``weights`` (name -> torch tensor or NumPy array) and ``document`` to ``path``
    atomically; weights with NaN or infinity are refused (``ValueError``), nothing written."""
    import torch
    from safetensors.torch import save

    check_document(document, str(path))
    tensors = {
        name: torch.as_tensor(np.asarray(value) if not torch.is_tensor(value) else value)
        .detach()
        .cpu()
        .contiguous()
        .clone()
        for name, value in weights.items()
    }
    require_finite(tensors, f"rllib export {os.fspath(path)!r}")
    data = save(tensors, metadata={METADATA_KEY: json.dumps(dict(document), sort_keys=True)})
    write_atomic(path, data)


def export_path(folder: str | os.PathLike) -> Path:
    """The safe export inside a checkpoint folder."""
    return Path(folder) / EXPORT_NAME


def export_checkpoint(
    path: str | os.PathLike, out: str | os.PathLike, *, trust: bool = False
) -> Path:
    """Convert the RLlib checkpoint at ``path`` (a run made before parlour wrote safe exports)
    into the safe export ``out`` (a ``.safetensors`` file; a folder gets ``policy.safetensors``),
    once, trusting it (``trust=True``: it unpickles). Returns the file written."""
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig

    folder = checkpoint_module_dir(Path(path))
    if not trust:
        refuse_untrusted(path, "an RLlib checkpoint")
    loaded = load_pickled(folder)
    config, defaults = dict(loaded.module.model_config or {}), DefaultModelConfig()
    model_config = module_model_config(
        config.get("fcnet_hiddens", defaults.fcnet_hiddens),
        config.get("fcnet_activation", defaults.fcnet_activation),
        config.get("vf_share_layers", defaults.vf_share_layers),
    )
    target = Path(out)
    if target.is_dir():
        target = target / EXPORT_NAME
    document = export_document(model_config, loaded.obs_shape[0], loaded.actions)
    write_export(target, loaded.module.state_dict(), document)
    return target
