"""parlour's model file: one ``.safetensors`` file that cannot run code when it loads.

A MaskablePPO policy is saved as one `safetensors <https://huggingface.co/docs/safetensors>`_
file: the tensors are the policy's ``state_dict()`` (a tensor that several names share, such as
the features extractor the actor and critic share, is stored once, under its first name) and,
in a training checkpoint, Adam's state under ``optimizer.state.<param index>.<name>``
(``step``, ``exp_avg``, ``exp_avg_sq``). The header's metadata ``{"parlour": "<JSON>"}`` holds
everything else, as JSON: the document of :mod:`parlour.agents.model_document` (its fields are
tabled there). Loading bounds the header, checks every field of the document, builds the policy
from parlour's own classes (a registered name, never an import path read from the file), loads
the tensors with ``load_state_dict(strict=True)`` (each tensor of the shape and dtype the built
network has) and refuses NaN or infinite weights (:func:`parlour.agents.trust.require_finite`). Nothing in the
file is unpickled or imported. Every problem is a ``ValueError`` naming the file and the field.

| name | what |
|---|---|
| :data:`SUFFIX` | ``.safetensors`` |
| :func:`file_format` | ``"parlour"``, ``"zip"`` (a Stable-Baselines3 / parlour 0.1 model: pickles), ``"pickle"`` or ``"unknown"``, from the file's first bytes |
| :func:`save_policy` | write a policy (and, with ``model``, Adam's state and the step counts) atomically; NaN / infinite weights are refused |
| :func:`load_policy_file` | the policy network of a model file, built from parlour's classes |
| :func:`load_into_model` | a saved policy (and Adam's state when the file has it) into a MaskablePPO model built from a config (``--resume``, ``init_from``) |
| :func:`read_model_file` | the checked document and tensors of a model file |
| :func:`without_optimizer` | a copy of a model file without Adam's state (the shipped models) |

torch, SB3 and safetensors are imported when a function needs them (``parlour eval`` of
scripted agents never does).
"""

from __future__ import annotations

import json
import math
import os
import struct
from collections.abc import Mapping
from typing import Any

from parlour._files import atomic_path, read_regular_file
from parlour.agents.model_document import (  # (re-exported: the format's one entry point)
    ModelFileError,
    check_document,
    extractor_classes,
    implied_parameters,
    network_layers,
    policy_classes,
    policy_document,
)
from parlour.agents.trust import require_finite

#: the file suffix of parlour model files
SUFFIX = ".safetensors"
#: the model a ``parlour train`` run writes into its folder (``runs/<name>/model.safetensors``)
RUN_MODEL_FILE = "model" + SUFFIX
#: the safetensors header metadata key holding the document
METADATA_KEY = "parlour"
#: the largest model file read (the shipped ones are < 10 MB; a big network ~100 MB)
MAX_MODEL_BYTES = 1 << 30
#: the largest safetensors header (JSON: the tensor index and the document) read; ours are a
#: few KB, so a larger one is a damaged or hostile file, refused before it is parsed
MAX_HEADER_BYTES = 1 << 20
#: the prefix of Adam's state tensors
OPTIMIZER_PREFIX = "optimizer.state."
#: the Adam state entries per parameter
ADAM_STATE = ("step", "exp_avg", "exp_avg_sq")
#: the bytes a zip archive (a Stable-Baselines3 model) starts with
ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
#: the first byte of a pickle (protocol 2 and later)
PICKLE_MAGIC = b"\x80"
_U64 = struct.Struct("<Q")
#: the errors building a network from a checked document may still raise, each turned into
#: ``ModelFileError`` naming the file (never an internal error)
BUILD_ERRORS = (
    ValueError,
    TypeError,
    RuntimeError,
    IndexError,
    KeyError,
    OverflowError,
    MemoryError,
    RecursionError,
)


def file_format(data: bytes) -> str:
    """What the first bytes of a file say it is: ``"parlour"`` (a safetensors file), ``"zip"``
    (an archive: a Stable-Baselines3 model, pickles inside), ``"pickle"`` or ``"unknown"``."""
    if data[:4] in ZIP_MAGIC:
        return "zip"
    if len(data) > _U64.size and data[_U64.size : _U64.size + 1] == b"{":
        return "parlour"
    if data[:1] == PICKLE_MAGIC:
        return "pickle"
    return "unknown"


def sniff(path: str | os.PathLike) -> str:
    """:func:`file_format` of the file at ``path`` (only its first bytes are read)."""
    with open(path, "rb") as f:
        return file_format(f.read(_U64.size + 1))


# -- saving -------------------------------------------------------------------------------------


def _unique_tensors(state: Mapping[str, Any]) -> dict[str, Any]:
    """``state`` with each tensor once: a name that shares another's memory (same storage,
    offset, shape and strides) is dropped for the first name holding it."""
    seen: set[tuple] = set()
    out = {}
    for name, tensor in state.items():
        key = (
            tensor.untyped_storage().data_ptr(),
            tensor.storage_offset(),
            tuple(tensor.shape),
            tuple(tensor.stride()),
            tensor.dtype,
        )
        if tensor.numel() and key in seen:
            continue
        seen.add(key)
        out[name] = tensor.detach().cpu().contiguous().clone()
    return out


def save_policy(
    policy: Any, path: str | os.PathLike, model: Any = None, *, optimizer: bool = False
) -> None:
    """Write ``policy`` to ``path`` in parlour's format, atomically (a kill leaves the old file).

    ``model`` (the MaskablePPO model owning it) adds its step counts; ``optimizer`` also
    Adam's state (a training checkpoint, or a run's model that ``init_from`` may continue). A
    NaN or infinite weight is refused: nothing is written."""
    doc = policy_document(policy)
    doc["training"] = {
        "num_timesteps": int(getattr(model, "num_timesteps", 0) or 0),
        "n_updates": int(getattr(model, "_n_updates", 0) or 0),
    }
    tensors = _unique_tensors(policy.state_dict())
    if optimizer:
        tensors.update(_optimizer_tensors(policy.optimizer))
    write_model_file(doc, tensors, path)


def write_model_file(
    doc: dict[str, Any], tensors: Mapping[str, Any], path: str | os.PathLike
) -> None:
    """Write a document and its tensors to ``path`` atomically (NaN / infinity refused)."""
    from safetensors.torch import save

    check_document(doc, os.fspath(path))
    require_finite(tensors, f"model {os.fspath(path)!r}")
    metadata = {METADATA_KEY: json.dumps(doc, sort_keys=True)}
    data = save(dict(tensors), metadata=metadata)  # (bytes: the file gets the usual permissions)
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def without_optimizer(src: str | os.PathLike, dst: str | os.PathLike) -> None:
    """Copy the model file ``src`` to ``dst`` without Adam's state: the same document and
    weights, bit for bit (the shipped models: fine-tuning from one starts Adam afresh)."""
    doc, tensors = read_model_file(src)
    kept = {k: v for k, v in tensors.items() if not k.startswith(OPTIMIZER_PREFIX)}
    write_model_file(doc, kept, dst)


def _optimizer_tensors(optimizer: Any) -> dict[str, Any]:
    out = {}
    for index, entry in optimizer.state_dict()["state"].items():
        for key in ADAM_STATE:
            if key in entry:
                value = entry[key]
                import torch

                tensor = value if torch.is_tensor(value) else torch.tensor(float(value))
                out[f"{OPTIMIZER_PREFIX}{index}.{key}"] = tensor.detach().cpu().contiguous().clone()
    return out


# -- reading ------------------------------------------------------------------------------------


def read_model_file(path: str | os.PathLike) -> tuple[dict[str, Any], dict[str, Any]]:
    """The checked document and the tensors (name -> torch tensor) of the model file ``path``."""
    name = os.fspath(path)
    data = read_regular_file(path, max_bytes=MAX_MODEL_BYTES, what="model")
    if file_format(data) != "parlour":
        raise ModelFileError(f"model {name!r}: not a parlour model file (safetensors)")
    (size,) = _U64.unpack_from(data)
    if size > MAX_HEADER_BYTES or _U64.size + size > len(data):
        raise ModelFileError(
            f"model {name!r}: header of {size} bytes (at most {MAX_HEADER_BYTES} in a file of "
            f"{len(data)}): damaged or not a parlour model; refused"
        )
    try:
        header = json.loads(data[_U64.size : _U64.size + size])
        doc = json.loads(header["__metadata__"][METADATA_KEY])
    except (ValueError, KeyError, TypeError) as exc:
        raise ModelFileError(
            f"model {name!r}: no parlour document in the safetensors header ({exc})"
        ) from None
    except RecursionError:
        raise ModelFileError(
            f"model {name!r}: its safetensors header is nested too deeply: damaged or not a "
            "parlour model; refused"
        ) from None
    check_document(doc, name)
    check_header_shapes(doc, header, name)
    from safetensors.torch import load as load_tensors

    try:
        tensors = load_tensors(data)
    except Exception as exc:  # (safetensors raises its own error type for a damaged file)
        raise ModelFileError(f"model {name!r}: damaged tensors: {exc}") from None
    require_finite(tensors, f"model {name!r}")
    return doc, tensors


def header_shapes(
    header: Mapping[str, Any],
    label: str,
    *,
    skip: tuple[str, ...] = (),
    error: type[ValueError] = ModelFileError,
) -> dict[str, tuple[int, ...]]:
    """Name -> shape of the tensors a safetensors header lists (not its ``__metadata__``, nor a
    name starting with a prefix of ``skip``): ``error("<label>: tensor <name> has no valid
    shape")`` for an entry without a list of non-negative ints. parlour's model files and the
    RLlib export (:mod:`parlour.agents.rllib_export`) both read their shapes with it."""
    shapes = {}
    for name, entry in header.items():
        if name == "__metadata__" or name.startswith(skip):
            continue
        shape = entry.get("shape") if isinstance(entry, dict) else None
        if not (
            isinstance(shape, list)
            and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape)
        ):
            raise error(f"{label}: tensor {name!r:.80} has no valid shape")
        shapes[name] = tuple(shape)
    return shapes


def implied_shapes(doc: dict[str, Any]) -> list[tuple[tuple[str, ...], tuple[int | None, ...]]]:
    """The tensors a checked document implies, before any network is built: (the names the
    tensor may have, its shape; ``None`` for the extractor's feature count, known only once
    built): each hidden layer of the policy and value networks, the action head (a game
    policy may wrap it: ``action_net.linear``) and the value head."""
    actions = doc["action_space"]["n"]
    pi, vf = network_layers(doc)
    out: list[tuple[tuple[str, ...], tuple[int | None, ...]]] = []
    for net, layers in (("policy_net", pi), ("value_net", vf)):
        inputs: int | None = None
        for i, width in enumerate(layers):
            prefix = f"mlp_extractor.{net}.{2 * i}"  # (Linear, activation, Linear, ...)
            out += [((f"{prefix}.weight",), (width, inputs)), ((f"{prefix}.bias",), (width,))]
            inputs = width
    last_pi, last_vf = (pi or [None])[-1], (vf or [None])[-1]
    heads = ("action_net", "action_net.linear")
    out += [
        (tuple(f"{h}.weight" for h in heads), (actions, last_pi)),
        (tuple(f"{h}.bias" for h in heads), (actions,)),
        (("value_net.weight",), (1, last_vf)),
        (("value_net.bias",), (1,)),
    ]
    return out


def check_header_shapes(doc: dict[str, Any], header: Mapping[str, Any], where: str) -> None:
    """``ModelFileError`` naming the file and the tensor unless the tensors a safetensors header
    lists have the shapes the document implies (:func:`implied_shapes`) and at least the weights
    it implies: checked from the header alone, before any tensor is read or network built."""
    shapes = header_shapes(header, f"model {where!r}", skip=(OPTIMIZER_PREFIX,))
    for names, want in implied_shapes(doc):
        name = next((n for n in names if n in shapes), names[0])
        have = shapes.get(name)
        fits = have is not None and len(have) == len(want)
        if not fits or any(w is not None and w != h for w, h in zip(want, have, strict=True)):
            shown = "(" + ", ".join("*" if w is None else str(w) for w in want) + ")"
            raise ModelFileError(
                f"model {where!r}: tensor {name!r} is {have if have is not None else 'missing'}, "
                f"the document (policy.net_arch, observation_space, action_space) implies {shown}"
            )
    held, implied = sum(math.prod(s) for s in shapes.values()), implied_parameters(doc)
    if held < implied:
        raise ModelFileError(
            f"model {where!r}: its tensors hold {held:,} weights, the document (policy.net_arch, "
            f"observation_space, action_space) implies at least {implied:,}"
        )


# -- building -----------------------------------------------------------------------------------


def _spaces(doc: dict[str, Any]) -> tuple[Any, Any]:
    import gymnasium as gym
    import numpy as np

    box = doc["observation_space"]
    shape = tuple(box["shape"])

    def bound(value: Any) -> Any:
        values = value if isinstance(value, list) else [value] * shape[0]
        return np.array([float(v) for v in values], np.float32).reshape(shape)

    observation = gym.spaces.Box(bound(box["low"]), bound(box["high"]), shape, np.float32)
    action = doc["action_space"]
    return observation, gym.spaces.Discrete(action["n"], start=action["start"])


def build_policy(doc: dict[str, Any], where: str) -> Any:
    """A fresh policy network as a checked document describes it (its weights are random)."""
    import torch

    p = doc["policy"]
    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[p["activation"]]
    try:
        observation, action = _spaces(doc)
        return policy_classes()[p["class"]](
            observation,
            action,
            lambda _: 0.0,  # (the learning rate: set by the trainer before every update)
            net_arch=p["net_arch"],
            activation_fn=activation,
            ortho_init=p["ortho_init"],
            features_extractor_class=extractor_classes()[p["features_extractor"]],
            features_extractor_kwargs=dict(p["features_extractor_kwargs"]),
            share_features_extractor=p["share_features_extractor"],
            normalize_images=p["normalize_images"],
            optimizer_kwargs=dict(p["optimizer_kwargs"]),
        )
    except BUILD_ERRORS as exc:  # (the document is checked: a bug, or a file past the checks)
        raise ModelFileError(
            f"model {where!r}: cannot build its network: {type(exc).__name__}: {exc}"
        ) from None


def _policy_tensors(policy: Any, tensors: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The full ``state_dict`` for ``policy`` from a file's tensors: each tensor of the built
    network present once (shared names filled in), of its shape and dtype, nothing else."""
    state = policy.state_dict()
    stored = _unique_tensors(state)
    given = {k: v for k, v in tensors.items() if not k.startswith(OPTIMIZER_PREFIX)}
    missing = sorted(set(stored) - set(given))
    extra = sorted(set(given) - set(stored))
    if missing or extra:
        raise ModelFileError(
            f"model {where!r}: its tensors do not fit the network it describes "
            f"(missing {missing[:5]}, unexpected {extra[:5]})"
        )
    for name, tensor in sorted(given.items()):  # (sorted: the same error every time)
        want = stored[name]
        if tuple(tensor.shape) != tuple(want.shape) or tensor.dtype != want.dtype:
            raise ModelFileError(
                f"model {where!r}: tensor {name!r} is {tuple(tensor.shape)} {tensor.dtype}, the "
                f"network has {tuple(want.shape)} {want.dtype}"
            )
    full = {}
    by_storage = {}
    for name, tensor in state.items():
        key = (tensor.untyped_storage().data_ptr(), tensor.storage_offset(), tuple(tensor.shape))
        if name in given:
            by_storage.setdefault(key, name)
            full[name] = given[name]
        else:
            full[name] = given[by_storage[key]]
    return full


def load_policy_file(path: str | os.PathLike) -> Any:
    """The policy network saved in the parlour model file ``path`` (evaluation mode)."""
    where = os.fspath(path)
    doc, tensors = read_model_file(path)
    policy = build_policy(doc, where)
    policy.load_state_dict(_policy_tensors(policy, tensors, where), strict=True)
    policy.set_training_mode(False)
    return policy


def load_into_model(model: Any, path: str | os.PathLike, *, counts: bool) -> dict[str, Any]:
    """Load the policy weights (and Adam's state when the file has it) of ``path`` into
    ``model``, a MaskablePPO model whose network must be the one the file describes
    (``ModelFileError`` otherwise); ``counts``: also its step and update counts (``--resume``).
    Returns the document."""
    where = os.fspath(path)
    doc, tensors = read_model_file(path)
    mine, theirs = _network_fields(policy_document(model.policy)), _network_fields(doc)
    if theirs != mine:
        differ = sorted(k for k in mine if theirs.get(k) != mine[k])
        raise ModelFileError(
            f"model {where!r} does not fit this config's network (game, players, observation, "
            f"net_arch and features must match): {', '.join(differ)} differ"
        )
    policy = model.policy
    policy.load_state_dict(_policy_tensors(policy, tensors, where), strict=True)
    state = _adam_state(policy, tensors, where)
    if state:
        optimizer_state = policy.optimizer.state_dict()
        optimizer_state["state"] = state
        policy.optimizer.load_state_dict(optimizer_state)
    if counts:
        training = doc.get("training", {})
        model.num_timesteps = int(training.get("num_timesteps", 0))
        model._n_updates = int(training.get("n_updates", 0))
    return doc


def _network_fields(doc: dict[str, Any]) -> dict[str, Any]:
    """The fields of a document that shape the network (``policy.*`` but Adam's options, and
    the spaces), flattened to ``policy.net_arch`` etc."""
    out = {f"policy.{k}": v for k, v in doc["policy"].items() if k != "optimizer_kwargs"}
    return {
        **out,
        "observation_space": doc["observation_space"],
        "action_space": doc["action_space"],
    }


def _adam_state(policy: Any, tensors: Mapping[str, Any], where: str) -> dict[int, dict]:
    params = list(policy.parameters())
    state: dict[int, dict[str, Any]] = {}
    for name, tensor in tensors.items():
        if not name.startswith(OPTIMIZER_PREFIX):
            continue
        index, _, key = name[len(OPTIMIZER_PREFIX) :].partition(".")
        ok = index.isdigit() and int(index) < len(params) and key in ADAM_STATE
        if ok:
            want = () if key == "step" else tuple(params[int(index)].shape)
            ok = tuple(tensor.shape) == want and tensor.dtype == params[int(index)].dtype
        if not ok:
            raise ModelFileError(f"model {where!r}: optimizer tensor {name!r} fits no parameter")
        state.setdefault(int(index), {})[key] = tensor
    for index, entry in state.items():
        if set(entry) != set(ADAM_STATE):
            raise ModelFileError(
                f"model {where!r}: optimizer state of parameter {index} lacks "
                f"{sorted(set(ADAM_STATE) - set(entry))}"
            )
    return state
