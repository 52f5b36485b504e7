"""Reading the safe export of an RLlib policy: weights in ``safetensors``, everything else in JSON.

An RLlib checkpoint is pickles (``class_and_ctor_args.pkl``, ``module_state.pkl``, …): loading
one runs whatever code it holds. So the RLlib runner also writes, beside every checkpoint, the
learner's :class:`~parlour.agents.rllib_module.MaskedPPOModule` weights as one ``.safetensors``
file (:data:`EXPORT_NAME`) whose header metadata ``{"parlour": "<JSON>"}`` says how to rebuild
the module. Reading it runs no code from the file: the module class is looked up by name in
:data:`MODULE_CLASSES` (never an import path from the file), the model config is checked key by
key against an allow-list, the weights must fit the rebuilt module exactly
(``load_state_dict(strict=True)``) and be finite. No Ray runtime is started.

This module is the reading side (the ``rllib:`` agent, :mod:`parlour.agents.rllib_agent`,
loads with it); the writing side is :mod:`parlour.train.rllib.export` (the RLlib runner).

| name | what |
|---|---|
| :data:`EXPORT_NAME` | the file's name inside a checkpoint folder |
| :func:`is_export` | whether a path names an export (``*.safetensors``) |
| :func:`read_export` | the rebuilt, loaded module and its document (``ValueError`` for anything wrong) |
| :func:`check_document` | ``ValueError`` naming the first key of a document that is not a valid export's |

The document (``FORMAT_NAME`` version ``FORMAT_VERSION``):

| key | value |
|---|---|
| ``format``, ``version`` | ``"parlour-model"``, ``1`` |
| ``kind`` | ``"rllib"`` |
| ``module`` | a name of :data:`MODULE_CLASSES` (``"MaskedPPOModule"``) |
| ``model_config`` | ``{"fcnet_hiddens": [int, …], "fcnet_activation": "tanh" or "relu", "vf_share_layers": bool}`` |
| ``observation`` | ``{"shape": [n], "dtype": "float32"}`` (the flat vector; the mask has ``actions`` entries) |
| ``action`` | ``{"n": actions}`` (a ``Discrete`` space) |
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from typing import Any

import numpy as np

from parlour._files import read_regular_file
from parlour.agents.model_file import header_shapes
from parlour.agents.trust import require_finite
from parlour.limits import (
    MAX_ACTIONS,
    MAX_LAYER_WIDTH,
    MAX_LAYERS,
    MAX_NETWORK_PARAMETERS,
    MAX_OBSERVATION_SIZE,
    network_parameters,
)

#: the safe export's name inside a checkpoint folder
EXPORT_NAME = "policy.safetensors"
#: the header metadata key holding the JSON document
METADATA_KEY = "parlour"
FORMAT_NAME = "parlour-model"
FORMAT_VERSION = 1
KIND = "rllib"
#: the largest export read (a policy of this project is well under 1 MiB)
MAX_EXPORT_BYTES = 256 * 1024 * 1024
#: safetensors' header: an 8-byte little-endian length, then that much JSON
HEADER_LENGTH_BYTES = 8
#: the model config keys of an export (all required, no others)
MODEL_CONFIG_KEYS = frozenset({"fcnet_hiddens", "fcnet_activation", "vf_share_layers"})
#: the activations an export may name
ACTIVATIONS = ("tanh", "relu")
#: the action head's tensors in a module's weights (``n`` rows)
ACTION_HEAD = ("pi.net.mlp.0.weight", "pi.net.mlp.0.bias")
OBS_DTYPE = "float32"


def _module_classes() -> dict[str, type]:
    from parlour.agents.rllib_module import MaskedPPOModule  # (imports ray)

    return {"MaskedPPOModule": MaskedPPOModule}


#: the module classes an export may name (name -> class, resolved on first use)
MODULE_CLASSES = ("MaskedPPOModule",)


def is_export(path: str | os.PathLike) -> bool:
    """Whether ``path`` names a safe export by its name (``*.safetensors``)."""
    return os.fspath(path).endswith(".safetensors")


def _header(data: bytes, where: str) -> dict[str, Any]:
    if len(data) < HEADER_LENGTH_BYTES:
        raise ValueError(f"rllib: {where} is not a safetensors file (too short)")
    size = int.from_bytes(data[:HEADER_LENGTH_BYTES], "little")
    if size > len(data) - HEADER_LENGTH_BYTES:
        raise ValueError(f"rllib: {where} is not a safetensors file (truncated header)")
    try:
        header = json.loads(data[HEADER_LENGTH_BYTES : HEADER_LENGTH_BYTES + size])
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise ValueError(f"rllib: {where} is not a safetensors file (bad header)") from None
    if not isinstance(header, dict):
        raise ValueError(f"rllib: {where} is not a safetensors file (bad header)")
    return header


def _document(header: dict[str, Any], where: str) -> dict[str, Any]:
    metadata = header.get("__metadata__")
    text = metadata.get(METADATA_KEY) if isinstance(metadata, dict) else None
    if not isinstance(text, str):
        raise ValueError(
            f"rllib: {where} has no parlour document (header metadata {METADATA_KEY!r}): not a "
            "model exported by parlour"
        )
    try:
        document = json.loads(text)
    except json.JSONDecodeError:
        raise ValueError(f"rllib: {where}: its parlour document is not JSON") from None
    except RecursionError:
        raise ValueError(f"rllib: {where}: its parlour document is nested too deeply") from None
    check_document(document, where)
    return document


def _positive_int(value: Any, name: str, where: str, limit: int = MAX_LAYER_WIDTH) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= limit:
        raise ValueError(
            f"rllib: {where}: {name} must be an integer in [1, {limit}], got {value!r}"
        )
    return value


def check_document(document: Any, where: str) -> None:
    """``ValueError`` naming the first key of ``document`` that is not a valid export's."""
    if not isinstance(document, Mapping):
        raise ValueError(f"rllib: {where}: the parlour document is not a JSON object")
    if document.get("format") != FORMAT_NAME:
        raise ValueError(
            f"rllib: {where}: format must be {FORMAT_NAME!r}, got {document.get('format')!r}"
        )
    if document.get("version") != FORMAT_VERSION:
        raise ValueError(
            f"rllib: {where}: format version {document.get('version')!r} is not supported "
            f"(this parlour reads version {FORMAT_VERSION})"
        )
    if document.get("kind") != KIND:
        raise ValueError(f"rllib: {where}: kind must be {KIND!r}, got {document.get('kind')!r}")
    if document.get("module") not in MODULE_CLASSES:
        raise ValueError(
            f"rllib: {where}: module must be one of {', '.join(MODULE_CLASSES)}, got "
            f"{document.get('module')!r}"
        )
    config = document.get("model_config")
    if not isinstance(config, Mapping) or set(config) != MODEL_CONFIG_KEYS:
        raise ValueError(
            f"rllib: {where}: model_config must hold exactly {', '.join(sorted(MODEL_CONFIG_KEYS))}"
        )
    if not isinstance(config["vf_share_layers"], bool):
        raise ValueError(f"rllib: {where}: vf_share_layers must be true or false")
    hiddens = config["fcnet_hiddens"]
    if not isinstance(hiddens, list) or not 1 <= len(hiddens) <= MAX_LAYERS:
        raise ValueError(
            f"rllib: {where}: fcnet_hiddens must be a list of 1 to {MAX_LAYERS} widths"
        )
    for width in hiddens:
        _positive_int(width, "fcnet_hiddens", where)
    if config["fcnet_activation"] not in ACTIVATIONS:
        raise ValueError(
            f"rllib: {where}: fcnet_activation must be one of {', '.join(ACTIVATIONS)}, got "
            f"{config['fcnet_activation']!r}"
        )
    obs, action = document.get("observation"), document.get("action")
    if (
        not isinstance(obs, Mapping)
        or obs.get("dtype") != OBS_DTYPE
        or not isinstance(obs.get("shape"), list)
        or len(obs["shape"]) != 1
    ):
        raise ValueError(
            f"rllib: {where}: observation must be {{'shape': [n], 'dtype': {OBS_DTYPE!r}}}"
        )
    _positive_int(obs["shape"][0], "observation shape", where, limit=MAX_OBSERVATION_SIZE)
    if not isinstance(action, Mapping):
        raise ValueError(f"rllib: {where}: action must be {{'n': actions}}")
    _positive_int(action.get("n"), "action n", where, limit=MAX_ACTIONS)
    implied = _implied_parameters(document)
    if implied > MAX_NETWORK_PARAMETERS:
        raise ValueError(
            f"rllib: {where}: fcnet_hiddens {hiddens} on {obs['shape'][0]:,} observation numbers "
            f"and {action['n']:,} actions has {implied:,} weights; the limit is "
            f"{MAX_NETWORK_PARAMETERS:,}"
        )


def _implied_parameters(document: Mapping[str, Any]) -> int:
    """The weights the document implies, a lower bound of the module's: one MLP encoder (the
    module has two unless ``vf_share_layers``), the action head and the value head."""
    hiddens = document["model_config"]["fcnet_hiddens"]
    encoder = network_parameters(hiddens, document["observation"]["shape"][0])
    return (
        encoder
        + network_parameters([document["action"]["n"]], hiddens[-1])
        + network_parameters([1], hiddens[-1])
    )


def _check_weights(header: Mapping[str, Any], document: Mapping[str, Any], where: str) -> None:
    """``ValueError`` naming the file and the tensor unless the header's weights (their shapes,
    read before any tensor) fit the document: the action head has ``n`` rows on the last
    hidden layer, and the weights are at least as many as it implies."""
    shapes = header_shapes(header, f"rllib: {where}", error=ValueError)
    n, last = document["action"]["n"], document["model_config"]["fcnet_hiddens"][-1]
    for name, want in zip(ACTION_HEAD, ([n, last], [n]), strict=True):
        have = list(shapes[name]) if name in shapes else "missing"
        if have != want:
            raise ValueError(
                f"rllib: {where}: tensor {name!r} is {have}, the document "
                f"(action n, fcnet_hiddens) implies {want}"
            )
    held, implied = sum(math.prod(s) for s in shapes.values()), _implied_parameters(document)
    if held < implied:
        raise ValueError(
            f"rllib: {where}: the model config does not match the weights (they hold {held:,} "
            f"numbers, the document implies at least {implied:,})"
        )


def spaces(document: Mapping[str, Any]) -> tuple[Any, Any]:
    """The observation (``{"observation", "action_mask"}``) and action spaces of a document."""
    import gymnasium as gym

    n_obs, n_actions = document["observation"]["shape"][0], document["action"]["n"]
    observation = gym.spaces.Dict(
        {
            "observation": gym.spaces.Box(-np.inf, np.inf, (n_obs,), np.float32),
            "action_mask": gym.spaces.Box(0.0, 1.0, (n_actions,), np.float32),
        }
    )
    return observation, gym.spaces.Discrete(n_actions)


def read_export(path: str | os.PathLike) -> tuple[Any, dict[str, Any]]:
    """The module saved at ``path`` (rebuilt from parlour's class, weights loaded strictly,
    finite, in eval mode on the CPU) and its document. ``ValueError`` for anything wrong."""
    from safetensors.torch import load

    where = repr(os.fspath(path))
    data = read_regular_file(path, max_bytes=MAX_EXPORT_BYTES, what="rllib")
    header = _header(data, where)
    document = _document(header, where)
    _check_weights(header, document, where)
    try:
        tensors = load(data)
    except Exception as exc:  # safetensors' own error type: a corrupt body
        raise ValueError(f"rllib: {where}: cannot read its weights: {exc}") from None
    require_finite(tensors, f"rllib: {where}")
    observation, action = spaces(document)
    cls = _module_classes()[document["module"]]
    module = cls(
        observation_space=observation,
        action_space=action,
        model_config=dict(document["model_config"]),
    )
    try:
        module.load_state_dict(tensors, strict=True)
    except RuntimeError as exc:  # missing/unexpected keys, wrong shapes
        first = " ".join(str(exc).split())[:300]
        raise ValueError(f"rllib: {where}: the weights do not fit the module: {first}") from None
    module.eval()
    return module, document
