"""parlour's model file: one ``.safetensors`` file that cannot run code when it loads.

A MaskablePPO policy is saved as one `safetensors <https://huggingface.co/docs/safetensors>`_
file: the tensors are the policy's ``state_dict()`` (a tensor that several names share, such as
the features extractor the actor and critic share, is stored once, under its first name) and,
in a training checkpoint, Adam's state under ``optimizer.state.<param index>.<name>``
(``step``, ``exp_avg``, ``exp_avg_sq``). The header's metadata ``{"parlour": "<JSON>"}`` holds
the document below: everything else, as JSON. Loading parses the JSON, checks every field,
builds the policy from parlour's own classes (a name from :func:`policy_classes` /
:func:`extractor_classes`, never an import path read from the file), loads the tensors with
``load_state_dict(strict=True)`` (each tensor of the shape and dtype the built network has) and
refuses NaN or infinite weights (:func:`parlour.agents.trust.require_finite`). Nothing in the
file is unpickled or imported. Every problem is a ``ValueError`` naming the file and the field.

| document field | type | meaning |
|---|---|---|
| ``format`` | ``"parlour-model"`` | :data:`FORMAT` |
| ``version`` | int | :data:`VERSION` (a later version is refused: upgrade parlour) |
| ``kind`` | ``"ppo"`` | a MaskablePPO policy |
| ``policy.class`` | str | a registered policy: ``MaskableActorCriticPolicy`` (SB3's ``MlpPolicy``), or a game's (``GuestsPolicy``) |
| ``policy.features_extractor`` | str | a registered extractor: ``FlattenExtractor``, or a game's (``AuditionFeatures``, ``GuestsFeatures``) |
| ``policy.features_extractor_kwargs`` | mapping | the extractor's options: constructor parameters, each a bool, int, float or str |
| ``policy.net_arch`` | list of ints, or ``{pi: [...], vf: [...]}`` | the hidden layers |
| ``policy.activation`` | ``tanh`` / ``relu`` | the hidden layers' activation |
| ``policy.ortho_init``, ``share_features_extractor``, ``normalize_images`` | bool | SB3's policy options |
| ``policy.optimizer_kwargs`` | mapping | Adam's options: ``eps`` (number), ``foreach`` (bool), ``weight_decay`` (number) |
| ``observation_space`` | mapping | ``{"type": "Box", "shape": [n], "dtype": "float32", "low": x, "high": y}``; ``low`` / ``high`` a number (uniform) or a list of ``n`` numbers (``"inf"`` / ``"-inf"`` for infinities) |
| ``action_space`` | mapping | ``{"type": "Discrete", "n": n, "start": 0}`` |
| ``training.num_timesteps``, ``training.n_updates`` | int ≥ 0 | the learner steps and PPO updates done (``--resume`` goes on from them) |

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

import inspect
import json
import math
import os
import struct
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from parlour._files import atomic_path, read_regular_file
from parlour.agents.trust import require_finite

#: the document's ``format``
FORMAT = "parlour-model"
#: the document version this parlour writes and reads
VERSION = 1
#: the file suffix of parlour model files
SUFFIX = ".safetensors"
#: the model a ``parlour train`` run writes into its folder (``runs/<name>/model.safetensors``)
RUN_MODEL_FILE = "model" + SUFFIX
#: the safetensors header metadata key holding the document
METADATA_KEY = "parlour"
#: the ``kind`` of a MaskablePPO policy
KIND = "ppo"
#: the largest model file read (the shipped ones are < 10 MB; a big network ~100 MB)
MAX_MODEL_BYTES = 1 << 30
#: the largest safetensors header (JSON: the tensor index and the document) read; ours are a
#: few KB, so a larger one is a damaged or hostile file, refused before it is parsed
MAX_HEADER_BYTES = 1 << 20
#: the prefix of Adam's state tensors
OPTIMIZER_PREFIX = "optimizer.state."
#: the Adam state entries per parameter
ADAM_STATE = ("step", "exp_avg", "exp_avg_sq")
#: the activations a document may name
ACTIVATIONS = ("tanh", "relu")
#: Adam options a document may set, and their JSON types
OPTIMIZER_OPTIONS: dict[str, tuple[type, ...]] = {
    "eps": (int, float),
    "foreach": (bool,),
    "weight_decay": (int, float),
}
#: the value types of ``features_extractor_kwargs``
EXTRACTOR_OPTION_TYPES = (bool, int, float, str)
#: the bytes a zip archive (a Stable-Baselines3 model) starts with
ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
#: the first byte of a pickle (protocol 2 and later)
PICKLE_MAGIC = b"\x80"
_U64 = struct.Struct("<Q")


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


# -- the registered classes ----------------------------------------------------------------------


def policy_classes() -> dict[str, type]:
    """Registered name -> policy class: SB3's MaskablePPO policy and the games' own."""
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    return {"MaskableActorCriticPolicy": MaskableActorCriticPolicy, **_game_classes("policy")}


def extractor_classes() -> dict[str, type]:
    """Registered name -> features extractor class: SB3's flat one and the games' own."""
    from stable_baselines3.common.torch_layers import FlattenExtractor

    return {"FlattenExtractor": FlattenExtractor, **_game_classes("features_extractor")}


def _game_classes(attribute: str) -> dict[str, type]:
    """The classes the registered games' specs name (``GameSpec.policy`` /
    ``features_extractor``), by class name: parlour's own code, never a name from a file."""
    from parlour.train.games import GAMES, get_game, load_object

    get_game("audition")  # (loads the built-in games)
    found: dict[str, type] = {}
    for spec in list(GAMES.values()):
        reference = getattr(spec, attribute)
        if reference is not None:
            cls = load_object(reference)
            found.setdefault(cls.__name__, cls)
    return found


def _name_of(cls: type, registered: dict[str, type], what: str) -> str:
    for name, known in registered.items():
        if known is cls:
            return name
    raise ValueError(
        f"{what} {cls.__module__}.{cls.__qualname__} is not one of parlour's registered classes "
        f"({', '.join(registered)}): it cannot be saved in parlour's model format"
    )


# -- saving -------------------------------------------------------------------------------------


def policy_document(policy: Any) -> dict[str, Any]:
    """The document (module table) describing ``policy``'s network, without ``training``."""
    import torch

    activations = {torch.nn.Tanh: "tanh", torch.nn.ReLU: "relu"}
    if policy.activation_fn not in activations:
        raise ValueError(f"activation {policy.activation_fn} is not one of {ACTIVATIONS}")
    if policy.optimizer_class is not torch.optim.Adam:
        raise ValueError(f"optimizer {policy.optimizer_class} is not Adam")
    net_arch = policy.net_arch
    net_arch = (
        {k: [int(x) for x in v] for k, v in net_arch.items()}
        if isinstance(net_arch, dict)
        else [int(x) for x in net_arch]
    )
    return {
        "format": FORMAT,
        "version": VERSION,
        "kind": KIND,
        "policy": {
            "class": _name_of(type(policy), policy_classes(), "policy"),
            "features_extractor": _name_of(
                policy.features_extractor_class, extractor_classes(), "features extractor"
            ),
            "features_extractor_kwargs": dict(policy.features_extractor_kwargs or {}),
            "net_arch": net_arch,
            "activation": activations[policy.activation_fn],
            "ortho_init": bool(policy.ortho_init),
            "share_features_extractor": bool(policy.share_features_extractor),
            "normalize_images": bool(policy.normalize_images),
            "optimizer_kwargs": dict(policy.optimizer_kwargs or {}),
        },
        "observation_space": _box_document(policy.observation_space),
        "action_space": _discrete_document(policy.action_space),
    }


def _box_document(space: Any) -> dict[str, Any]:
    import gymnasium as gym
    import numpy as np

    if not isinstance(space, gym.spaces.Box) or len(space.shape) != 1:
        raise ValueError(f"observation space {space} is not a flat Box")
    return {
        "type": "Box",
        "shape": [int(n) for n in space.shape],
        "dtype": str(np.dtype(space.dtype)),
        "low": _bound_document(space.low),
        "high": _bound_document(space.high),
    }


def _bound_document(values: Any) -> Any:
    flat = [float(x) for x in values.reshape(-1)]
    flat = [x if math.isfinite(x) else ("inf" if x > 0 else "-inf") for x in flat]
    return flat[0] if flat and all(x == flat[0] for x in flat) else flat


def _discrete_document(space: Any) -> dict[str, Any]:
    import gymnasium as gym

    if not isinstance(space, gym.spaces.Discrete):
        raise ValueError(f"action space {space} is not Discrete")
    return {"type": "Discrete", "n": int(space.n), "start": int(space.start)}


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


class ModelFileError(ValueError):
    """A parlour model file that is damaged, tampered with or of another kind."""


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
    check_document(doc, name)
    from safetensors.torch import load as load_tensors

    try:
        tensors = load_tensors(data)
    except Exception as exc:  # (safetensors raises its own error type for a damaged file)
        raise ModelFileError(f"model {name!r}: damaged tensors: {exc}") from None
    require_finite(tensors, f"model {name!r}")
    return doc, tensors


def _need(ok: bool, where: str, field: str, message: str) -> None:
    if not ok:
        raise ModelFileError(f"model {where!r}: field {field}: {message}")


def _is_int(value: Any, low: int = 0) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= low


def check_document(doc: Any, where: str) -> None:
    """``ModelFileError`` naming ``where`` and the field unless ``doc`` is a valid document."""
    _need(isinstance(doc, dict), where, "(document)", f"expected a JSON object, got {doc!r:.80}")
    _need(doc.get("format") == FORMAT, where, "format", f"expected {FORMAT!r}")
    version = doc.get("version")
    _need(_is_int(version, 1), where, "version", f"expected an int >= 1, got {version!r}")
    _need(
        version <= VERSION,
        where,
        "version",
        f"{version} is newer than this parlour reads ({VERSION}): upgrade parlour",
    )
    _need(doc.get("kind") == KIND, where, "kind", f"expected {KIND!r}, got {doc.get('kind')!r}")
    known = {"format", "version", "kind", "policy", "observation_space", "action_space", "training"}
    unknown = sorted(set(doc) - known)
    _need(not unknown, where, "(document)", f"unknown fields {unknown}")
    _check_policy(doc.get("policy"), where)
    _check_box(doc.get("observation_space"), where)
    action = doc.get("action_space")
    _need(
        isinstance(action, dict) and set(action) == {"type", "n", "start"},
        where,
        "action_space",
        "expected {type: Discrete, n, start}",
    )
    _need(action["type"] == "Discrete", where, "action_space.type", "expected 'Discrete'")
    _need(_is_int(action["n"], 1), where, "action_space.n", "expected an int >= 1")
    _need(_is_int(action["start"]), where, "action_space.start", "expected an int >= 0")
    training = doc.get("training", {})
    _need(isinstance(training, dict), where, "training", "expected a mapping")
    for key, value in training.items():
        _need(key in ("num_timesteps", "n_updates"), where, f"training.{key}", "unknown field")
        _need(_is_int(value), where, f"training.{key}", f"expected an int >= 0, got {value!r}")


def _check_policy(policy: Any, where: str) -> None:
    keys = {
        "class",
        "features_extractor",
        "features_extractor_kwargs",
        "net_arch",
        "activation",
        "ortho_init",
        "share_features_extractor",
        "normalize_images",
        "optimizer_kwargs",
    }
    _need(isinstance(policy, dict), where, "policy", "expected a mapping")
    _need(set(policy) == keys, where, "policy", f"expected the fields {sorted(keys)}")
    for field, registered in (
        ("class", policy_classes()),
        ("features_extractor", extractor_classes()),
    ):
        value = policy[field]
        _need(
            isinstance(value, str) and value in registered,
            where,
            f"policy.{field}",
            f"{value!r:.80} is not one of parlour's registered classes ({', '.join(registered)})",
        )
    kwargs = policy["features_extractor_kwargs"]
    _need(isinstance(kwargs, dict), where, "policy.features_extractor_kwargs", "expected a mapping")
    params = inspect.signature(extractor_classes()[policy["features_extractor"]]).parameters
    for key, value in kwargs.items():
        _need(
            key in params and key != "observation_space",
            where,
            f"policy.features_extractor_kwargs.{key}",
            f"not an option of {policy['features_extractor']}",
        )
        _need(
            isinstance(value, EXTRACTOR_OPTION_TYPES),
            where,
            f"policy.features_extractor_kwargs.{key}",
            f"expected a bool, int, float or str, got {value!r:.80}",
        )
    arch = policy["net_arch"]
    layers = arch
    if isinstance(arch, dict):
        _need(set(arch) == {"pi", "vf"}, where, "policy.net_arch", "expected the keys pi and vf")
        layers = (
            [*arch["pi"], *arch["vf"]] if all(isinstance(v, list) for v in arch.values()) else None
        )
    _need(
        isinstance(layers, list) and all(_is_int(n, 1) for n in layers),
        where,
        "policy.net_arch",
        f"expected layer sizes >= 1, got {arch!r:.80}",
    )
    _need(policy["activation"] in ACTIVATIONS, where, "policy.activation", f"one of {ACTIVATIONS}")
    for key in ("ortho_init", "share_features_extractor", "normalize_images"):
        _need(isinstance(policy[key], bool), where, f"policy.{key}", "expected true or false")
    options = policy["optimizer_kwargs"]
    _need(isinstance(options, dict), where, "policy.optimizer_kwargs", "expected a mapping")
    for key, value in options.items():
        types = OPTIMIZER_OPTIONS.get(key)
        _need(
            types is not None
            and isinstance(value, types)
            and (bool in types or not isinstance(value, bool)),
            where,
            f"policy.optimizer_kwargs.{key}",
            f"expected one of {sorted(OPTIMIZER_OPTIONS)} with a value of its type",
        )


def _check_box(space: Any, where: str) -> None:
    field = "observation_space"
    _need(
        isinstance(space, dict) and set(space) == {"type", "shape", "dtype", "low", "high"},
        where,
        field,
        "expected {type: Box, shape, dtype, low, high}",
    )
    _need(space["type"] == "Box", where, f"{field}.type", "expected 'Box'")
    shape = space["shape"]
    _need(
        isinstance(shape, list) and len(shape) == 1 and _is_int(shape[0], 1),
        where,
        f"{field}.shape",
        f"expected [n] with n >= 1, got {shape!r:.80}",
    )
    _need(space["dtype"] == "float32", where, f"{field}.dtype", "expected 'float32'")
    for key in ("low", "high"):
        value = space[key]
        values = value if isinstance(value, list) else [value]
        _need(
            (not isinstance(value, list) or len(value) == shape[0])
            and all(_is_bound(v) for v in values),
            where,
            f"{field}.{key}",
            f"expected a number, 'inf' / '-inf', or a list of {shape[0]} of them",
        )


def _is_bound(value: Any) -> bool:
    if value in ("inf", "-inf"):
        return True
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


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
    observation, action = _spaces(doc)
    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[p["activation"]]
    try:
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
    except (ValueError, TypeError, RuntimeError) as exc:
        raise ModelFileError(f"model {where!r}: cannot build its network: {exc}") from None


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


def is_model_file(path: str | os.PathLike) -> bool:
    """Whether ``path`` is a regular file in parlour's format (by its first bytes)."""
    p = Path(path)
    try:
        return p.is_file() and sniff(p) == "parlour"
    except OSError:
        return False
