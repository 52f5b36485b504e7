"""parlour environments: ``from envs import audition_v0`` (and, once built, ``awkward_guests_v0``).

Importing this package registers the environments in PettingZoo's registry (PettingZoo 1.27+)
as ``parlour/Audition-v0``; nothing requires the registry to exist.
"""

from __future__ import annotations

import importlib
import warnings

#: registry id -> entry point
REGISTERED: dict[str, str] = {"parlour/Audition-v0": "envs.audition_v0:env"}


def _register() -> None:
    try:
        from pettingzoo import register  # PettingZoo >= 1.27
        from pettingzoo.env_registry.registration import aec_registry
    except ImportError:
        return
    for env_id, entry in REGISTERED.items():
        if env_id not in aec_registry:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                register("aec", env_id, entry_point=entry)


_register()


def __getattr__(name: str):
    if name.endswith("_v0"):
        return importlib.import_module(f"envs.{name}")
    raise AttributeError(name)
