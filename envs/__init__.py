"""parlour environments: ``from envs import audition_v0`` (and, once built, ``awkward_guests_v0``).

Importing this package registers the environments in PettingZoo's registry (PettingZoo 1.27+)
as ``parlour/Audition-v0`` and ``parlour/AwkwardGuests-v0``, and the solo Awkward Guests env in
Gymnasium's registry as ``parlour/AwkwardGuestsSolo-v0``; nothing requires a registry to exist.
"""

from __future__ import annotations

import importlib
import warnings

#: registry id -> entry point
REGISTERED: dict[str, str] = {
    "parlour/Audition-v0": "envs.audition_v0:env",
    "parlour/AwkwardGuests-v0": "envs.awkward_guests_v0:env",
}

#: Gymnasium registry id -> entry point (single-agent envs)
GYM_REGISTERED: dict[str, str] = {
    "parlour/AwkwardGuestsSolo-v0": "envs.awkward_guests.solo:AwkwardGuestsSoloEnv",
}


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


def _register_gymnasium() -> None:
    try:
        import gymnasium

        for env_id, entry in GYM_REGISTERED.items():
            if env_id not in gymnasium.registry:
                gymnasium.register(env_id, entry_point=entry)
    except Exception:  # never fail the import over a registry
        return


_register()
_register_gymnasium()


def __getattr__(name: str):
    if name.endswith("_v0"):
        return importlib.import_module(f"envs.{name}")
    raise AttributeError(name)
