"""Registering parlour's environments with PettingZoo and Gymnasium, without importing them.

:func:`install` registers every id of :data:`AEC_ENVS` (PettingZoo) and :data:`GYMNASIUM_ENVS`
(Gymnasium) by entry-point string, so no environment module is imported until an env is made:

- in a registry whose library is already imported, at once;
- otherwise from a post-import hook on ``sys.meta_path``: the moment the library's top-level
  package has finished importing, its registry receives parlour's ids.

This module uses the standard library only, because the installed ``parlour.pth`` imports
``parlour`` (and so this module) whenever Python starts: Gymnasium 1.x has no entry-point plugin
mechanism, and this is how ``gymnasium.make("parlour/AwkwardGuestsSolo-v1")`` works in a fresh
interpreter and in ``SubprocVecEnv`` workers.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from collections.abc import Callable
from types import ModuleType

#: PettingZoo (AEC) registry id -> entry point
AEC_ENVS: dict[str, str] = {
    "parlour/Audition-v1": "parlour.envs.audition_v1:env",
    "parlour/AwkwardGuests-v1": "parlour.envs.awkward_guests_v1:env",
}

#: Gymnasium registry id -> entry point (single-agent envs)
GYMNASIUM_ENVS: dict[str, str] = {
    "parlour/AwkwardGuestsSolo-v1": "parlour.envs.awkward_guests.solo:AwkwardGuestsSoloEnv",
}


def register_pettingzoo(pettingzoo: ModuleType) -> None:
    """Add :data:`AEC_ENVS` to PettingZoo's AEC registry (PettingZoo >= 1.27; older: nothing)."""
    register = getattr(pettingzoo, "register", None)
    registry = getattr(pettingzoo, "aec_registry", None)
    if register is None or registry is None:
        return
    for env_id, entry_point in AEC_ENVS.items():
        if env_id not in registry:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                register("aec", env_id, entry_point=entry_point)


def register_gymnasium(gymnasium: ModuleType) -> None:
    """Add :data:`GYMNASIUM_ENVS` to Gymnasium's registry."""
    for env_id, entry_point in GYMNASIUM_ENVS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=entry_point)


#: top-level package -> what to do once it is imported
HOOKS: dict[str, Callable[[ModuleType], None]] = {
    "gymnasium": register_gymnasium,
    "pettingzoo": register_pettingzoo,
}


class _CallbackLoader(importlib.abc.Loader):
    """Wraps a package's loader and calls a function once the package has executed."""

    def __init__(self, loader: importlib.abc.Loader, callback: Callable[[ModuleType], None]):
        self.loader = loader
        self.callback = callback

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        module.__loader__ = self.loader
        if module.__spec__ is not None:
            module.__spec__.loader = self.loader
        self.loader.exec_module(module)
        _run_hook(self.callback, module)

    def __getattr__(self, name: str):  # get_resource_reader, get_source, … of the real loader
        return getattr(self.loader, name)


class _AfterImportFinder(importlib.abc.MetaPathFinder):
    """Finds :data:`HOOKS`' packages through the other finders and wraps their loaders."""

    def __init__(self) -> None:
        self._finding: set[str] = set()

    def find_spec(self, fullname: str, path=None, target=None):
        callback = HOOKS.get(fullname)
        if callback is None or fullname in self._finding:
            return None
        self._finding.add(fullname)
        try:
            spec = importlib.util.find_spec(fullname)
        finally:
            self._finding.discard(fullname)
        if spec is None or spec.loader is None:
            return None
        spec.loader = _CallbackLoader(spec.loader, callback)
        return spec


def _run_hook(callback: Callable[[ModuleType], None], module: ModuleType) -> None:
    try:
        callback(module)
    except Exception as exc:  # a registry problem must never break the user's import
        warnings.warn(f"parlour could not register its environments: {exc}", stacklevel=2)


def install() -> None:
    """Register now where the library is imported; hook the import of the others (once)."""
    if not any(isinstance(f, _AfterImportFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterImportFinder())
    for name, callback in HOOKS.items():
        module = sys.modules.get(name)
        if module is not None and hasattr(module, "__version__"):
            _run_hook(callback, module)
