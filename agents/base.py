"""The agent protocol shared by every player, scripted or learned.

An agent is built from a spec string (:func:`parlour.agents.factory.make_agent`) and plays one seat:

| method | when | what |
|---|---|---|
| ``reset(seed)`` | before every game | re-seed the agent's own ``np.random.Generator``, forget the last game |
| ``act(observation, view)`` | on each of its turns | return a legal action id |

``observation`` is the env's ``{"observation": float32 vector, "action_mask": int8 vector}`` for
the agent's own seat and ``view`` is ``env.unwrapped.player_view(agent_id)`` (a structured,
read-only view of what that player may know). Scripted agents read the view; learned agents read
the observation. Neither ever sees more than its player may know.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Agent(Protocol):
    """What every agent provides (see the module docstring)."""

    spec: str

    def reset(self, seed: int | None = None) -> None: ...

    def act(self, observation: dict[str, np.ndarray], view: Any) -> int: ...


def legal_from_mask(observation: dict[str, np.ndarray]) -> np.ndarray:
    """The legal action ids of an observation's ``action_mask`` (never empty on a turn)."""
    legal = np.flatnonzero(observation["action_mask"])
    if legal.size == 0:
        raise ValueError("act() called with an all-zero action mask (not this agent's turn)")
    return legal
