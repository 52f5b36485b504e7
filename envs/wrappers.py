"""PettingZoo's classic wrapper chain with fast attribute forwarding.

``env()`` of every parlour game wraps its raw env exactly as PettingZoo classic does —
``TerminateIllegalWrapper`` → ``AssertOutOfBoundsWrapper`` → ``OrderEnforcingWrapper`` — but
with subclasses of those three classes that behave identically and only remove overhead:

* The hot public attributes (``agent_selection``, ``agents``, ``terminations``, ``truncations``,
  ``rewards``, ``infos``, ``_cumulative_rewards``, ``num_agents``, ``possible_agents``) are
  forwarded to the raw env by a property instead of a chain of ``__getattr__`` fallbacks
  (PettingZoo's ``BaseWrapper.__getattr__`` costs several microseconds per access and a random
  AEC step makes about three dozen such accesses). None of the three wrappers keeps its own copy
  of these attributes, so reading the raw env's value is exactly what the fallback chain did.
  ``OrderEnforcingWrapper``'s "cannot be accessed before reset" errors are kept.
* ``AssertOutOfBoundsWrapper.step`` checks ``Discrete.contains`` semantics inline for a
  ``Discrete`` action space (same accepted values: Python ints — bools included, as gymnasium
  does — and integer numpy scalars within range).

Everything else (illegal-move handling, order enforcement, warnings, ``unwrapped``) is the
inherited PettingZoo code. ``isinstance`` checks against the PettingZoo classes still hold.
``tests/test_wrappers.py`` runs the same games through both chains and compares them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

_HOT = (
    "agent_selection",
    "agents",
    "terminations",
    "truncations",
    "rewards",
    "infos",
    "_cumulative_rewards",
    "num_agents",
    "possible_agents",
)
_NEED_RESET = {
    "rewards",
    "terminations",
    "truncations",
    "infos",
    "agent_selection",
    "num_agents",
    "agents",
}


def _forward(name: str, guard: bool) -> property:
    def fget(self: Any) -> Any:
        if guard and not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._raw, name)

    def fset(self: Any, value: Any) -> None:
        setattr(self._raw, name, value)

    return property(fget, fset)


class _FastForwarding:
    """Mixin: forward the hot attributes straight to the raw env."""

    _raw: AECEnv

    def _init_raw(self) -> None:
        object.__setattr__(self, "_raw", self.env.unwrapped)


for _name in _HOT:
    setattr(_FastForwarding, _name, _forward(_name, guard=False))


class FastTerminateIllegalWrapper(_FastForwarding, wrappers.TerminateIllegalWrapper):
    def __init__(self, env: AECEnv, illegal_reward: float) -> None:
        super().__init__(env, illegal_reward)
        self._init_raw()


class FastAssertOutOfBoundsWrapper(_FastForwarding, wrappers.AssertOutOfBoundsWrapper):
    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._init_raw()

    def step(self, action: Any) -> None:
        raw = self._raw
        agent = raw.agent_selection
        if action is None and (raw.terminations[agent] or raw.truncations[agent]):
            pass
        else:
            space = raw.action_space(agent)
            if type(space) is spaces.Discrete:
                if isinstance(action, int):
                    ok = space.start <= action < space.start + space.n
                elif isinstance(action, np.generic | np.ndarray) and (
                    np.issubdtype(action.dtype, np.integer) and action.shape == ()
                ):
                    ok = space.start <= int(action) < space.start + space.n
                else:
                    ok = False
            else:
                ok = space.contains(action)
            assert ok, "action is not in action space"
        self.env.step(action)


class FastOrderEnforcingWrapper(_FastForwarding, wrappers.OrderEnforcingWrapper):
    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._init_raw()


for _name in _HOT:
    setattr(FastOrderEnforcingWrapper, _name, _forward(_name, guard=_name in _NEED_RESET))


def classic_wrappers(raw: AECEnv, illegal_reward: float = -1) -> AECEnv:
    """Wrap ``raw`` like PettingZoo classic: TerminateIllegal → AssertOutOfBounds → OrderEnforcing."""
    env = FastTerminateIllegalWrapper(raw, illegal_reward=illegal_reward)
    env = FastAssertOutOfBoundsWrapper(env)
    return FastOrderEnforcingWrapper(env)
