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


def _is_legacy(name: str) -> bool:
    return name.partition(".")[0] in LEGACY_PACKAGES


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, module: ModuleType) -> None:
        self.module = module

    def create_module(self, spec) -> ModuleType:
        return self.module

    def exec_module(self, module: ModuleType) -> None:
        return None


class _LegacyFinder(importlib.abc.MetaPathFinder):
    """Resolves ``train.tournament`` to the module object ``parlour.eval.tournament``, and a
    module that :data:`MOVED` emptied (``train.features``) to a view holding the moved names."""

    def find_spec(self, fullname: str, path=None, target=None):
        if not _is_legacy(fullname):
            return None
        module = _legacy_view(fullname)
        is_package = hasattr(module, "__path__")
        return importlib.util.spec_from_loader(
            fullname, _AliasLoader(module), is_package=is_package
        )


def _legacy_view(fullname: str) -> ModuleType:
    """``parlour.<fullname>``, extended with the names :data:`MOVED` took out of it."""
    moved = {name: new for (old, name), new in MOVED.items() if old == fullname}
    try:
        module = importlib.import_module(f"parlour.{fullname}")
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
    """While inside, ``import train.features`` (and so unpickling) reaches parlour's modules."""
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
