"""The shipped trained models: ``ppo:NAME`` plays a model that comes with parlour.

This folder installs as ``parlour.models`` (package data). It holds, per model ``NAME``:

| file | what |
|---|---|
| ``NAME.safetensors`` | a MaskablePPO policy in parlour's model format (:mod:`parlour.agents.model_file`: weights in safetensors, the rest in JSON; loading runs no code), written by ``parlour models add`` |
| ``NAME.md`` | its model card: game, players, game options, the config, learner steps, wall time, the final evaluation table (written by ``parlour models add``) |
| ``index.yaml`` | one entry per model (below) |

| index key | meaning |
|---|---|
| ``name`` | the short name (letters, digits, ``_``, ``-``, ``.``; not ending in a model file suffix, :data:`MODEL_SUFFIXES`): ``ppo:NAME`` |
| ``game`` | the registered game it plays |
| ``players`` | the seat count it was trained for |
| ``game_options`` | the game options it was trained with (training-only options left out) |
| ``default`` | ``true``: the strongest shipped agent for that game, player count and options — ``parlour play`` (and the web table) seat it by default; at most one per (game, players, options) |

An agent spec ``ppo:PATH`` reads ``PATH`` as a file path when such a file exists, else as the
name of a shipped model (:func:`resolve_model_path`); a name that is neither raises
``ValueError`` listing the shipped names. A shipped model is refused for another game or another
player count (:func:`check_model_fits`, called by :func:`parlour.agents.factory.make_agent`
and by the agent's check against the env). Options are not checked: a model of one Awkward
Guests level may play another.

A table that seats shipped models takes the game options they were trained with for every key
it leaves unset (:func:`seat_options`; e.g. the observation mode of an Awkward Guests model):
``parlour eval``, ``parlour league``, ``parlour play`` and the web table all do this. Two seated
models that need different values of a key the table leaves unset are refused (give the key).

The folder read is :data:`MODELS_DIR_ENV` (``PARLOUR_MODELS_DIR``) when set, else this package's
own folder: tests point it at a temporary registry. ``parlour models`` lists the models with their
cards' summary lines (:mod:`parlour.apps.models`). Importing this module loads only PyYAML.

It reads agent specs itself (:func:`parse_spec`: ``NAME:key=value,...``, the syntax of
:mod:`parlour.agents.factory`, which imports it from here), so that it imports nothing of
parlour above it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: the environment variable naming another registry folder (tests)
MODELS_DIR_ENV = "PARLOUR_MODELS_DIR"
#: the index file in the registry folder
INDEX_FILE = "index.yaml"
#: a shipped model's short name
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
#: the keys of an index entry (name, game and players are required)
ENTRY_KEYS = ("name", "game", "players", "game_options", "default")
#: the suffix of a shipped model's file (parlour's model format)
MODEL_SUFFIX = ".safetensors"
#: suffixes that make ``ppo:PATH`` a file path, never a short name (parlour's format, SB3 zips)
MODEL_SUFFIXES = (MODEL_SUFFIX, ".zip")


@dataclass(frozen=True)
class ShippedModel:
    """One index entry, with the folder its files are in."""

    name: str
    game: str
    players: int
    folder: Path
    game_options: dict[str, Any] = field(default_factory=dict)
    default: bool = False

    @property
    def path(self) -> Path:
        """The model file, ``NAME.safetensors``."""
        return self.folder / f"{self.name}{MODEL_SUFFIX}"

    @property
    def card(self) -> Path:
        """The model card, ``NAME.md``."""
        return self.folder / f"{self.name}.md"

    def summary(self) -> str:
        """The card's one-line summary: its first line that is not blank or a heading."""
        try:
            lines = self.card.read_text(encoding="utf-8").splitlines()
        except OSError:
            return "(no model card)"
        for line in lines:
            if line.strip() and not line.lstrip().startswith("#"):
                return line.strip()
        return "(empty model card)"

    def describe(self) -> str:
        """``"2-player audition"`` (with its options when it has any)."""
        options = f" with {self.game_options}" if self.game_options else ""
        return f"{self.players}-player {self.game}{options}"


def models_dir() -> Path:
    """The registry folder: ``$PARLOUR_MODELS_DIR`` when set, else this package's folder."""
    override = os.environ.get(MODELS_DIR_ENV)
    return Path(override) if override else Path(__file__).resolve().parent


def check_name(name: Any) -> str:
    """``name`` if it is a valid short name, else ``ValueError``."""
    if (
        not isinstance(name, str)
        or not NAME_PATTERN.fullmatch(name)
        or name.endswith(MODEL_SUFFIXES)
    ):
        raise ValueError(
            "a model name is letters, digits, '_', '-' and '.' (not ending in "
            f"{' or '.join(MODEL_SUFFIXES)}), got {name!r}"
        )
    return name


def _entry(raw: Any, folder: Path, index: Path) -> ShippedModel:
    where = f"{index}: entry {raw.get('name') if isinstance(raw, Mapping) else raw!r}"
    if not isinstance(raw, Mapping):
        raise ValueError(f"{where}: expected a mapping with keys {list(ENTRY_KEYS)}")
    unknown = sorted(set(raw) - set(ENTRY_KEYS))
    missing = [k for k in ("name", "game", "players") if k not in raw]
    if unknown or missing:
        wrong = [f"unknown keys {unknown}"] * bool(unknown) + [f"missing keys {missing}"] * bool(
            missing
        )
        raise ValueError(f"{where}: {', '.join(wrong)} (keys: {', '.join(ENTRY_KEYS)})")
    players, options, default = raw["players"], raw.get("game_options") or {}, raw.get("default")
    if isinstance(players, bool) or not isinstance(players, int) or players < 1:
        raise ValueError(f"{where}: players must be an int >= 1, got {players!r}")
    if not isinstance(options, Mapping):
        raise ValueError(f"{where}: game_options must be a mapping, got {options!r}")
    if default is not None and not isinstance(default, bool):
        raise ValueError(f"{where}: default must be true or false, got {default!r}")
    if not isinstance(raw["game"], str) or not raw["game"]:
        raise ValueError(f"{where}: game must be a game name, got {raw['game']!r}")
    try:
        name = check_name(raw["name"])
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None
    return ShippedModel(name, raw["game"], players, folder, dict(options), bool(default))


def read_index(folder: Path | None = None) -> list[ShippedModel]:
    """The models of the registry in ``folder`` (default :func:`models_dir`), in index order.

    A missing index is an empty registry; a malformed one, a repeated name or two defaults for
    one (game, players, options) raise ``ValueError``."""
    import yaml

    folder = Path(folder) if folder is not None else models_dir()
    index = folder / INDEX_FILE
    if not index.is_file():
        return []
    try:
        data = yaml.safe_load(index.read_text(encoding="utf-8")) or {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise ValueError(f"cannot read the model index {index}: {exc}") from None
    entries = data.get("models") if isinstance(data, Mapping) else None
    if not isinstance(entries, list):
        raise ValueError(f"{index}: expected a mapping with a list 'models'")
    models = [_entry(raw, folder, index) for raw in entries]
    names = [m.name for m in models]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"{index}: model names listed twice: {repeated}")
    defaults: dict[tuple[str, int, str], str] = {}
    for m in models:
        if m.default:
            key = (m.game, m.players, repr(sorted(m.game_options.items())))
            if key in defaults:
                raise ValueError(
                    f"{index}: {defaults[key]} and {m.name} are both the default for "
                    f"{m.describe()}; mark one"
                )
            defaults[key] = m.name
    return models


def shipped_models(folder: Path | None = None) -> dict[str, ShippedModel]:
    """Name -> model, for every model of the registry (see :func:`read_index`)."""
    return {m.name: m for m in read_index(folder)}


def find_model(name: str, folder: Path | None = None) -> ShippedModel:
    """The shipped model ``name`` (its file must exist), or ``ValueError`` listing the names."""
    models = shipped_models(folder)
    if name not in models:
        known = ", ".join(models) or "none"
        raise ValueError(
            f"ppo:{name}: no model file {name!r} and no shipped model of that name; shipped "
            f"models: {known} (parlour models lists them)"
        )
    model = models[name]
    if not model.path.is_file():
        raise FileNotFoundError(f"ppo:{name}: the shipped model's file {model.path} is missing")
    return model


def is_model_name(path: str) -> bool:
    """Whether ``path`` can only be a short name (no folder part, no model file suffix)."""
    return bool(NAME_PATTERN.fullmatch(path)) and not path.endswith(MODEL_SUFFIXES)


def lookup(path: str, folder: Path | None = None) -> ShippedModel | None:
    """The shipped model ``ppo:PATH`` names, or None when ``PATH`` is a file path.

    An existing file wins over a name; a name-like ``PATH`` (no folder part, no model suffix) that is
    neither shipped nor an existing folder raises ``ValueError`` listing the shipped names (a
    folder is left to the loader, which says it is not a model file)."""
    if os.path.isfile(path) or not is_model_name(path):
        return None
    if os.path.isdir(path) and path not in shipped_models(folder):
        return None
    return find_model(path, folder)


def resolve_model_path(path: str, folder: Path | None = None) -> str:
    """The file ``ppo:PATH`` loads: ``PATH`` itself, or a shipped model's file."""
    model = lookup(path, folder)
    return path if model is None else str(model.path)


def check_model_fits(
    model: ShippedModel, game: str, players: int | None, spec: str | None = None
) -> None:
    """``ValueError`` unless ``model`` plays ``game`` with ``players`` seats (None: unknown)."""
    if model.game != game or (players is not None and players != model.players):
        table = game if players is None else f"{players}-player {game}"
        raise ValueError(
            f"{spec or 'ppo:' + model.name} is a model of {model.describe()}; it cannot play "
            f"{table} (parlour models lists the shipped models)"
        )


def default_model(
    game: str, players: int, same_options: Any = None, folder: Path | None = None
) -> ShippedModel | None:
    """The registry's default model for ``game`` and ``players`` (None: there is none).

    ``same_options(model_options) -> bool`` tells whether a model's game options are the
    table's (None: any options match); a model whose file is missing is skipped."""
    for m in read_index(folder):
        fits = m.default and m.game == game and m.players == players and m.path.is_file()
        if fits and (same_options is None or same_options(m.game_options)):
            return m
    return None


def shipped_in(specs: Any, folder: Path | None = None) -> list[tuple[str, ShippedModel]]:
    """``(spec, model)`` for each agent spec in ``specs`` that names a shipped model."""
    found = []
    for spec in specs:
        name = _model_name(spec) if isinstance(spec, str) else None
        model = lookup(name, folder) if name else None
        if model is not None:
            found.append((spec, model))
    return found


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"audition.expert:sims=200"`` → ``("audition.expert", {"sims": "200"})``."""
    name, _, rest = spec.partition(":")
    options: dict[str, str] = {}
    if rest:
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            if not eq or not key:
                raise ValueError(f"agent spec {spec!r}: options are key=value, got {item!r}")
            options[key.strip()] = value.strip()
    return name, options


def _model_name(spec: str) -> str | None:
    """The model an agent spec plays: ``ppo:NAME[:sample]`` or ``AGENT:model=NAME[,...]``."""
    if spec.startswith("ppo:"):
        return spec[len("ppo:") :].removesuffix(":sample")
    try:
        return parse_spec(spec)[1].get("model")
    except ValueError:  # options that are not key=value (``rllib:PATH``): no shipped model
        return None


def seat_options(
    specs: Any, options: Mapping[str, Any], folder: Path | None = None
) -> dict[str, Any]:
    """``options`` plus, for every key they leave unset, the game option the shipped models
    among ``specs`` were trained with (``ValueError`` if two of them differ on such a key)."""
    table = dict(options)
    source: dict[str, str] = {}
    for spec, model in shipped_in(specs, folder):
        for key, value in model.game_options.items():
            if key in options:
                continue
            if key in table and table[key] != value:
                raise ValueError(
                    f"{source[key]} was trained with {key}={table[key]!r} and {spec} with "
                    f"{key}={value!r}; give the game option {key} explicitly"
                )
            table[key], source[key] = value, spec
    return table
