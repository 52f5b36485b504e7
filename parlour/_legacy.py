"""Loading files saved before parlour moved under one install namespace.

Models saved by parlour 0.1 (the packages were installed as top-level ``envs``, ``agents``,
``train`` and ``benchmarks``) pickle class paths such as ``train.features.AuditionFeatures``.
:func:`legacy_module_paths` makes those names resolve to ``parlour.<name>`` while a file is
loaded, and puts ``sys.modules`` back as it was afterwards, so a user's own ``train.py`` or
``agents/`` neither shadows parlour during the load nor is disturbed by it.

:data:`MOVED` lists names that left the module they were pickled from: ``(old module, name) ->
new module``:

| pickled as | now in |
|---|---|
| ``train.features.AuditionFeatures`` | :mod:`parlour.games.audition.training` |
| ``train.features.GuestsFeatures``, ``GuestsPolicy``, ``PriorHead`` | :mod:`parlour.games.guests.policy` |

:data:`RENAMED` lists whole modules that moved when parlour was split into layers (the game
plug-ins left ``parlour.train.games``); models saved before pickle their classes by the old
path, e.g. ``parlour.train.games.audition.AuditionFeatures``, which resolves to the module's new
home while a file is loaded:

| pickled from | now |
|---|---|
| ``parlour.train.games`` | :mod:`parlour.games` |
| ``parlour.train.games.audition`` | :mod:`parlour.games.audition.training` (the class a model pickled from it) |
| ``parlour.train.games.guests`` | :mod:`parlour.games.guests.policy` (the classes a model pickled from it) |
| ``parlour.train.games.guests_policy`` | :mod:`parlour.games.guests.policy` |
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

#: the top-level packages of parlour 0.1
LEGACY_PACKAGES: tuple[str, ...] = ("envs", "agents", "train", "benchmarks")

#: (module a class was pickled from, class name) -> the module that holds it now. Models pickle
#: their features extractor (``policy_kwargs``) and policy class (``policy_class``); the game
#: plug-ins took them out of ``train.features`` (now gone) into one module per game.
MOVED: dict[tuple[str, str], str] = {
    ("train.features", "AuditionFeatures"): "parlour.games.audition.training",
    ("train.features", "GuestsFeatures"): "parlour.games.guests.policy",
    ("train.features", "GuestsPolicy"): "parlour.games.guests.policy",
    ("train.features", "PriorHead"): "parlour.games.guests.policy",
}


#: a module that moved as a whole -> its new home (classes pickled by the old module path)
RENAMED: dict[str, str] = {
    "parlour.train.games": "parlour.games",
    "parlour.train.games.audition": "parlour.games.audition.training",
    "parlour.train.games.guests": "parlour.games.guests.policy",
    "parlour.train.games.guests_policy": "parlour.games.guests.policy",
}


def _is_renamed(name: str) -> bool:
    return name in RENAMED


def _is_legacy(name: str) -> bool:
    return name.partition(".")[0] in LEGACY_PACKAGES or _is_renamed(name)


def _new_name(fullname: str) -> str:
    """The module an old name imports now: ``train.x`` -> ``parlour.train.x``, then
    :data:`RENAMED`."""
    name = fullname if _is_renamed(fullname) else f"parlour.{fullname}"
    return RENAMED.get(name, name)


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, module: ModuleType) -> None:
        self.module = module
        self.spec = getattr(module, "__spec__", None)

    def create_module(self, spec) -> ModuleType:
        return self.module

    def exec_module(self, module: ModuleType) -> None:
        # (the import set the alias's spec on the module: it keeps its own, it is only aliased)
        module.__spec__ = self.spec


class _LegacyFinder(importlib.abc.MetaPathFinder):
    """Resolves ``train.opponents`` to the module object ``parlour.train.opponents``, a module
    of :data:`RENAMED` (``parlour.train.games.audition``) to its new home, and a module that
    :data:`MOVED` emptied (``train.features``) to a view holding the moved names."""

    def find_spec(self, fullname: str, path=None, target=None):
        if not _is_legacy(fullname):
            return None
        module = _legacy_view(fullname)
        is_package = hasattr(module, "__path__")
        return importlib.util.spec_from_loader(
            fullname, _AliasLoader(module), is_package=is_package
        )


def _legacy_view(fullname: str) -> ModuleType:
    """``parlour.<fullname>`` (or its :data:`RENAMED` home), extended with the names
    :data:`MOVED` took out of it."""
    moved = {name: new for (old, name), new in MOVED.items() if old == fullname}
    try:
        module = importlib.import_module(_new_name(fullname))
    except ModuleNotFoundError:
        if not moved:
            raise
        module = ModuleType(fullname)
    if not moved:
        return module
    view = ModuleType(fullname)
    view.__dict__.update({k: v for k, v in vars(module).items() if not k.startswith("__")})
    for name, new_module in moved.items():
        setattr(view, name, getattr(importlib.import_module(new_module), name))
    return view


@contextmanager
def legacy_module_paths() -> Iterator[None]:
    """While inside, ``import train.features`` and ``import parlour.train.games.audition`` (and
    so unpickling) reach parlour's modules."""
    saved = {name: mod for name, mod in sys.modules.items() if _is_legacy(name)}
    for name in saved:
        del sys.modules[name]
    finder = _LegacyFinder()
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
        for name in [n for n in sys.modules if _is_legacy(n)]:
            del sys.modules[name]
        sys.modules.update(saved)
        # (importing parlour.train.games set it as an attribute of parlour.train: take it back)
        train = sys.modules.get("parlour.train")
        if train is not None and "parlour.train.games" not in saved:
            train.__dict__.pop("games", None)
