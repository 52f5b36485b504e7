"""parlour's environments: ``from parlour.envs import audition_v0, awkward_guests_v0``.

| import | registry id | kind |
|---|---|---|
| ``parlour.envs.audition_v0`` | ``parlour/Audition-v0`` | PettingZoo AEC, 2–6 players |
| ``parlour.envs.awkward_guests_v0`` | ``parlour/AwkwardGuests-v0`` | PettingZoo AEC, 1–8 players |
| ``parlour.envs.awkward_guests.solo`` | ``parlour/AwkwardGuestsSolo-v0`` | Gymnasium, one player |

Registration happens in :mod:`parlour` (``import parlour``); see :mod:`parlour._registration`.
"""

from __future__ import annotations

import importlib
from types import ModuleType

import parlour  # noqa: F401  (registers the environments)

ENV_MODULES: tuple[str, ...] = ("audition_v0", "awkward_guests_v0")


def __getattr__(name: str) -> ModuleType:
    if name in ENV_MODULES:
        return importlib.import_module(f"parlour.envs.{name}")
    raise AttributeError(f"module 'parlour.envs' has no attribute {name!r}")
