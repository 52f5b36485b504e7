"""The JSON document of parlour's model file (:mod:`parlour.agents.model_file`): written from a
policy, and checked field by field before anything is built from it.

The document names classes by a **registered name** (:func:`policy_classes`,
:func:`extractor_classes`: SB3's MaskablePPO policy and flat extractor, and the classes the
installed games' training parts name — parlour's own code, offered by :mod:`parlour.games`
through :func:`add_class_source`), never by an import path, and holds only
JSON values: nothing in it is imported, called or unpickled. :func:`check_document` raises
:class:`ModelFileError` (a ``ValueError``) naming the file and the field for anything else.

| document field | type | meaning |
|---|---|---|
| ``format`` | ``"parlour-model"`` | :data:`FORMAT` |
| ``version`` | int | :data:`VERSION` (a later version is refused: upgrade parlour) |
| ``kind`` | ``"ppo"`` | a MaskablePPO policy |
| ``policy.class`` | str | a registered policy: ``MaskableActorCriticPolicy`` (SB3's ``MlpPolicy``), or a game's (``GuestsPolicy``) |
| ``policy.features_extractor`` | str | a registered extractor: ``FlattenExtractor``, or a game's (``AuditionFeatures``, ``GuestsFeatures``) |
| ``policy.features_extractor_kwargs`` | mapping | the extractor's options: constructor parameters annotated bool, int, float or str (:func:`extractor_options`), each of that type, a number within ±:data:`~parlour.limits.MAX_OPTION_INT`, a str of at most :data:`~parlour.limits.MAX_OPTION_TEXT` characters |
| ``policy.net_arch`` | list of ints, or ``{pi: [...], vf: [...]}`` | the hidden layers: at most ``MAX_LAYERS`` of at most ``MAX_LAYER_WIDTH`` each, at most ``MAX_NETWORK_PARAMETERS`` weights with the heads (:mod:`parlour.limits`) |
| ``policy.activation`` | ``tanh`` / ``relu`` | the hidden layers' activation |
| ``policy.ortho_init``, ``share_features_extractor``, ``normalize_images`` | bool | SB3's policy options |
| ``policy.optimizer_kwargs`` | mapping | Adam's options: ``eps`` (number), ``foreach`` (bool), ``weight_decay`` (number) |
| ``observation_space`` | mapping | ``{"type": "Box", "shape": [n], "dtype": "float32", "low": x, "high": y}``; ``low`` / ``high`` a number (uniform) or a list of ``n`` numbers (``"inf"`` / ``"-inf"`` for infinities) |
| ``action_space`` | mapping | ``{"type": "Discrete", "n": n, "start": 0}``; ``n`` in 1..``MAX_ACTIONS``, ``start`` in 0..``MAX_ACTIONS`` |
| ``training.num_timesteps``, ``training.n_updates`` | int ≥ 0 | the learner steps and PPO updates done (``--resume`` goes on from them) |

| name | what |
|---|---|
| :func:`policy_document` | the document of a policy (its network and spaces) |
| :func:`check_document` | ``ModelFileError`` naming the file and the field unless a document is valid |
| :func:`policy_classes`, :func:`extractor_classes` | registered name -> class |
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

from parlour.limits import (
    MAX_ACTIONS,
    MAX_LAYER_WIDTH,
    MAX_LAYERS,
    MAX_NETWORK_PARAMETERS,
    MAX_OBSERVATION_SIZE,
    MAX_OPTION_INT,
    MAX_OPTION_TEXT,
    network_parameters,
)

#: the document's ``format``
FORMAT = "parlour-model"
#: the document version this parlour writes and reads
VERSION = 1
#: the ``kind`` of a MaskablePPO policy
KIND = "ppo"
#: the activations a document may name
ACTIVATIONS = ("tanh", "relu")
#: Adam options a document may set, and their JSON types
OPTIMIZER_OPTIONS: dict[str, tuple[type, ...]] = {
    "eps": (int, float),
    "foreach": (bool,),
    "weight_decay": (int, float),
}
#: the types of a features extractor's options (``features_extractor_kwargs``): annotation
#: name -> type
EXTRACTOR_OPTION_TYPES: dict[str, type] = {"bool": bool, "int": int, "float": float, "str": str}


class ModelFileError(ValueError):
    """A parlour model file that is damaged, tampered with or of another kind."""


# -- the registered classes ----------------------------------------------------------------------


def policy_classes() -> dict[str, type]:
    """Registered name -> policy class: SB3's MaskablePPO policy and the games' own."""
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    return {"MaskableActorCriticPolicy": MaskableActorCriticPolicy, **_game_classes("policy")}


def extractor_classes() -> dict[str, type]:
    """Registered name -> features extractor class: SB3's flat one and the games' own."""
    from stable_baselines3.common.torch_layers import FlattenExtractor

    return {"FlattenExtractor": FlattenExtractor, **_game_classes("features_extractor")}


#: functions(kind) -> {name: class} for kind "policy" / "features_extractor": the game
#: plug-in layer adds one (:mod:`parlour.games`), so this layer never imports the games
_CLASS_SOURCES: list[Callable[[str], dict[str, type]]] = []


def add_class_source(source: Callable[[str], dict[str, type]]) -> None:
    """Offer more registered classes: ``source(kind)`` gives name -> class for ``kind``
    (``"policy"`` or ``"features_extractor"``). :mod:`parlour.games` adds the games' own."""
    if source not in _CLASS_SOURCES:
        _CLASS_SOURCES.append(source)


#: the entry-point group of the game plug-ins: loading one offers the games' classes
GAME_PLUGINS = "parlour.games"


def _load_game_plugins() -> None:
    """Load the installed game plug-ins (their entry points) when no class source was added yet:
    a model file read through this layer alone (``parlour.agents.ppo.load_policy``) needs the
    games' classes as much as one read by a command that resolved its game first."""
    for ep in entry_points(group=GAME_PLUGINS):
        try:
            ep.load()
        except (ImportError, AttributeError):  # (a broken plug-in: its classes stay unknown)
            continue


def _game_classes(kind: str) -> dict[str, type]:
    if not _CLASS_SOURCES:
        _load_game_plugins()
    found: dict[str, type] = {}
    for source in _CLASS_SOURCES:
        for name, cls in source(kind).items():
            found.setdefault(name, cls)
    return found


def extractor_options(extractor: type) -> dict[str, type]:
    """The options of a features extractor a config or a model file may set: its constructor's
    parameters after ``observation_space`` annotated ``bool``, ``int``, ``float`` or ``str``,
    name -> type (an option of another type, such as a tuple, keeps its default)."""
    out: dict[str, type] = {}
    params = list(inspect.signature(extractor.__init__).parameters.values())
    for param in params[2:]:  # (self, observation_space, ...)
        tp = param.annotation
        if isinstance(tp, str):  # postponed annotations: resolve the plain builtin names
            tp = EXTRACTOR_OPTION_TYPES.get(tp)
        if tp in EXTRACTOR_OPTION_TYPES.values():
            out[param.name] = tp
    return out


def _name_of(cls: type, registered: dict[str, type], what: str) -> str:
    for name, known in registered.items():
        if known is cls:
            return name
    raise ValueError(
        f"{what} {cls.__module__}.{cls.__qualname__} is not one of parlour's registered classes "
        f"({', '.join(registered)}): it cannot be saved in parlour's model format"
    )


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


# -- checking --------------------------------------------------------------------------------------


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
    for key, low in (("n", 1), ("start", 0)):
        value = action[key]
        _need(
            _is_int(value, low) and value <= MAX_ACTIONS,
            where,
            f"action_space.{key}",
            f"expected an int in {low}..{MAX_ACTIONS:,}, got {value!r:.80}",
        )
    _check_size(doc, where)
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
    options = extractor_options(extractor_classes()[policy["features_extractor"]])
    for key, value in kwargs.items():
        field = f"policy.features_extractor_kwargs.{key!s:.80}"
        _need(
            key in options,
            where,
            field,
            f"not an option of {policy['features_extractor']} (options: "
            f"{', '.join(sorted(options)) or 'none'})",
        )
        _need(
            is_extractor_option(value, options[key]),
            where,
            field,
            extractor_option_rule(options[key], value),
        )
    arch = policy["net_arch"]
    nets = arch if isinstance(arch, dict) else {"": arch}
    if isinstance(arch, dict):
        _need(set(arch) == {"pi", "vf"}, where, "policy.net_arch", "expected the keys pi and vf")
    for net, layers in nets.items():
        field = f"policy.net_arch{'.' + net if net else ''}"
        _need(
            isinstance(layers, list)
            and len(layers) <= MAX_LAYERS
            and all(_is_int(n, 1) and n <= MAX_LAYER_WIDTH for n in layers),
            where,
            field,
            f"expected at most {MAX_LAYERS} layer sizes in 1..{MAX_LAYER_WIDTH:,}, "
            f"got {layers!r:.80}",
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
        isinstance(shape, list)
        and len(shape) == 1
        and _is_int(shape[0], 1)
        and shape[0] <= MAX_OBSERVATION_SIZE,
        where,
        f"{field}.shape",
        f"expected [n] with n in 1..{MAX_OBSERVATION_SIZE:,}, got {shape!r:.80}",
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


def is_extractor_option(value: Any, tp: type) -> bool:
    """Whether ``value`` is a valid extractor option of type ``tp`` (bounded in size)."""
    if tp is bool or isinstance(value, bool):
        return tp is bool and isinstance(value, bool)
    if tp is str:
        return isinstance(value, str) and 0 < len(value) <= MAX_OPTION_TEXT
    numeric = isinstance(value, int) if tp is int else isinstance(value, int | float)
    return numeric and math.isfinite(value) and abs(value) <= MAX_OPTION_INT


def extractor_option_rule(tp: type, value: Any) -> str:
    rule = {
        bool: "true or false",
        str: f"a non-empty string of at most {MAX_OPTION_TEXT} characters",
    }.get(tp, f"{'an int' if tp is int else 'a number'} in -{MAX_OPTION_INT:,}..{MAX_OPTION_INT:,}")
    return f"expected {rule}, got {value!r:.80}"


def network_layers(doc: dict[str, Any]) -> tuple[list[int], list[int]]:
    """The hidden layers of the policy (``pi``) and value (``vf``) networks of a checked document."""
    arch = doc["policy"]["net_arch"]
    return (arch["pi"], arch["vf"]) if isinstance(arch, dict) else (arch, arch)


def implied_parameters(doc: dict[str, Any]) -> int:
    """A lower bound of the weights of the network a checked document describes: its policy and
    value networks and heads on the observation (an extractor's features are at least as many
    as the observation's numbers), without the extractor's own weights."""
    inputs, actions = doc["observation_space"]["shape"][0], doc["action_space"]["n"]
    pi, vf = network_layers(doc)
    last_pi, last_vf = (pi or [inputs])[-1], (vf or [inputs])[-1]
    return (
        network_parameters(pi, inputs)
        + network_parameters(vf, inputs)
        + network_parameters([actions], last_pi)
        + network_parameters([1], last_vf)
    )


def _check_size(doc: dict[str, Any], where: str) -> None:
    total = implied_parameters(doc)
    _need(
        total <= MAX_NETWORK_PARAMETERS,
        where,
        "policy.net_arch",
        f"the network on {doc['observation_space']['shape'][0]:,} observation numbers and "
        f"{doc['action_space']['n']:,} actions has at least {total:,} weights; the limit is "
        f"{MAX_NETWORK_PARAMETERS:,}",
    )
