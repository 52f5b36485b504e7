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
  ``OrderEnforcingWrapper``'s "cannot be accessed before reset" errors are kept, and a ``reset``
  that raises leaves the wrapper as it was (a never-reset env stays "not reset").
* ``AssertOutOfBoundsWrapper.step`` checks ``Discrete.contains`` semantics inline for a
  ``Discrete`` action space (Python ints and integer numpy scalars within range), except that
  a bool is not an action: ``step(True)`` fails the assertion as ``step(1.0)`` does (gymnasium's
  ``contains`` takes ``True`` as ``1``, and PettingZoo's chain then fails inside
  ``TerminateIllegalWrapper``, whose ``mask[True]`` is a boolean index, with an internal
  ``ValueError``).
* ``observe``/``step`` of each wrapper call the next env directly (``self.env.observe``)
  instead of going through ``super()`` and ``BaseWrapper``, and read the raw env's attributes
  directly; ``OrderEnforcingWrapper.last`` and its ``agent_iter`` iterator do the same. The
  statements executed (checks, warnings, errors, ``TerminateIllegalWrapper``'s remembered
  observation / info / mask and its illegal-move ending) are PettingZoo's, in the same order.

``str(env)`` is the env's name (``audition_v1``), as for PettingZoo's own chain. Everything else
(illegal-move handling, order enforcement, warnings, ``unwrapped``) is the inherited PettingZoo
code. ``isinstance`` checks against the PettingZoo classes still hold.
``tests/test_wrappers.py`` runs the same games through both chains and compares them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import order_enforcing

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

    def observe(self, agent: Any) -> Any:
        obs = self.env.observe(agent)
        raw = self._raw
        if agent == raw.agent_selection:
            self._prev_obs = obs
            infos = raw.infos
            self._prev_info = infos.get(agent, {})
        return obs

    def step(self, action: Any) -> None:
        # PettingZoo's TerminateIllegalWrapper.step, reading the raw env's attributes directly
        raw = self._raw
        current_agent = raw.agent_selection
        if self._prev_obs is None:
            self.observe(current_agent)
        prev_obs = self._prev_obs
        if isinstance(prev_obs, dict):
            assert "action_mask" in prev_obs, (
                f"`action_mask` not found in dictionary observation: {prev_obs}. Action mask "
                "must either be in `observation['action_mask']` or `info['action_mask']` to "
                "use TerminateIllegalWrapper."
            )
            prev_mask = prev_obs["action_mask"]
        else:
            assert self._prev_info is not None
            assert "action_mask" in self._prev_info, (
                f"`action_mask` not found in info for non-dictionary observation: "
                f"{self._prev_info}. Action mask must either be in observation['action_mask'] "
                "or info['action_mask'] to use TerminateIllegalWrapper."
            )
            prev_mask = self._prev_info["action_mask"]
        self._prev_obs = None
        self._prev_info = None
        agent = raw.agent_selection
        dead = raw.terminations[agent] or raw.truncations[agent]
        if self._terminated and dead:
            raw._was_dead_step(action)
        elif not dead and not prev_mask[action]:
            EnvLogger.warn_on_illegal_move()
            raw._cumulative_rewards[agent] = 0
            raw.terminations = dict.fromkeys(raw.agents, True)
            raw.truncations = dict.fromkeys(raw.agents, True)
            settle = getattr(raw, "illegal_move_rewards", None)  # (a game's own settlement)
            if settle is not None:
                raw.rewards = settle(current_agent, float(self._illegal_value))
            else:
                raw.rewards = dict.fromkeys(raw.truncations, 0)
                raw.rewards[current_agent] = float(self._illegal_value)
            raw._accumulate_rewards()
            raw._deads_step_first()
            self._terminated = True
        else:
            self.env.step(action)


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
                if isinstance(action, int) and not isinstance(action, bool):
                    ok = space.start <= action < space.start + space.n
                elif isinstance(action, np.generic | np.ndarray) and (
                    np.issubdtype(action.dtype, np.integer) and action.shape == ()
                ):
                    action = int(action)  # (a 0-d array: the engines take Python ints)
                    ok = space.start <= action < space.start + space.n
                else:
                    ok = False
            else:
                ok = space.contains(action)
            assert ok, "action is not in action space"
        self.env.step(action)

    def observe(self, agent: Any) -> Any:
        return self.env.observe(agent)


class FastOrderEnforcingWrapper(_FastForwarding, wrappers.OrderEnforcingWrapper):
    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._init_raw()

    def __str__(self) -> str:
        # PettingZoo's OrderEnforcingWrapper.__str__ gives the bare env name ("audition_v1")
        # only when its class is exactly OrderEnforcingWrapper; this subclass stands in for it
        return str(self.env) if hasattr(self, "metadata") else repr(self)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        # PettingZoo marks the env reset before resetting it; a reset that raises must not
        # leave a never-reset env looking reset (agent_iter() would then yield nothing)
        before = (self._has_reset, self._has_updated)
        try:
            super().reset(seed=seed, options=options)
        except BaseException:
            self._has_reset, self._has_updated = before
            raise

    def observe(self, agent: Any) -> Any:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self._raw.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        # AECEnv.last, reading the raw env's attributes directly
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        raw = self._raw
        agent = raw.agent_selection
        assert agent is not None
        observation = self.observe(agent) if observe else None
        return (
            observation,
            raw._cumulative_rewards[agent],
            raw.terminations[agent],
            raw.truncations[agent],
            raw.infos[agent],
        )

    def agent_iter(self, max_iter: int = 2**63) -> _FastIterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _FastIterable(self, max_iter)


class _FastIterable(order_enforcing.AECOrderEnforcingIterable):
    def __iter__(self) -> _FastIterator:
        return _FastIterator(self.env, self.max_iter)


class _FastIterator(order_enforcing.AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing agent iterator, reading the raw env directly."""

    def __init__(self, env: FastOrderEnforcingWrapper, max_iter: int) -> None:
        super().__init__(env, max_iter)
        self._raw = env._raw

    def __next__(self) -> Any:
        raw = self._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        env = self.env
        assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        env._has_updated = False
        return raw.agent_selection


for _name in _HOT:
    setattr(FastOrderEnforcingWrapper, _name, _forward(_name, guard=_name in _NEED_RESET))


def classic_wrappers(raw: AECEnv, illegal_reward: float = -1) -> AECEnv:
    """Wrap ``raw`` like PettingZoo classic: TerminateIllegal → AssertOutOfBounds → OrderEnforcing."""
    env = FastTerminateIllegalWrapper(raw, illegal_reward=illegal_reward)
    env = FastAssertOutOfBoundsWrapper(env)
    return FastOrderEnforcingWrapper(env)
