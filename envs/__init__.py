"""parlour's environments: ``from parlour.envs import audition_v1, awkward_guests_v1``.

| import | registry id | kind |
|---|---|---|
| ``parlour.envs.audition_v1`` | ``parlour/Audition-v1`` | PettingZoo AEC, 2–6 players |
| ``parlour.envs.awkward_guests_v1`` | ``parlour/AwkwardGuests-v1`` | PettingZoo AEC, 1–8 players |
| ``parlour.envs.awkward_guests.solo`` | ``parlour/AwkwardGuestsSolo-v1`` | Gymnasium, one player |

Registration happens in :mod:`parlour` (``import parlour``); see :mod:`parlour._registration`.

Versions (as PettingZoo does): an env's version moves whenever what it shows changes
(observations, infos, spaces, agents, rewards). An old version's module name raises an
``ImportError`` that says what replaced it and what changed (:data:`DEPRECATED`); Gymnasium and
PettingZoo say the same for an old registry id.
"""

from __future__ import annotations

import importlib
from types import ModuleType

import parlour  # noqa: F401  (registers the environments)

ENV_MODULES: tuple[str, ...] = ("audition_v1", "awkward_guests_v1")

#: old module -> (its replacement, what changed)
DEPRECATED: dict[str, tuple[str, str]] = {
    "audition_v0": (
        "audition_v1",
        "infos are {} (the outcome is env.unwrapped.results()), one space object per agent",
    ),
    "awkward_guests_v0": (
        "awkward_guests_v1",
        "infos are {} (env.unwrapped.results()), knocked-out players stay in env.agents until "
        "the end, the observation gains the last_turns public record (2313 floats), one space "
        "object per agent",
    ),
}


def __getattr__(name: str) -> ModuleType:
    if name in ENV_MODULES:
        return importlib.import_module(f"parlour.envs.{name}")
    if name in DEPRECATED:
        new, what = DEPRECATED[name]
        raise ImportError(
            f"parlour.envs.{name} was replaced by parlour.envs.{new}: {what} "
            f"(docs/envs/, version history)"
        )
    raise AttributeError(f"module 'parlour.envs' has no attribute {name!r}")
