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

An agent whose ``act`` never reads ``view`` says so with the class attribute ``reads_view =
False`` (``random``, ``ppo:``, ``rllib:``): the training env then passes ``view=None`` and
skips building it. Agents without the attribute are given the view.
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


class MaskedLogitsAgent:
    """A learned agent that acts on masked action logits: the most probable legal action
    (``deterministic``), or a sample from the masked softmax with its own generator.

    Subclasses implement :meth:`raw_logits` (the network's logits for one observation);
    illegal actions get ``-inf`` here, so the agent never returns an illegal action.
    """

    #: the spec prefix named in errors (``ppo``, ``rllib``)
    kind = "model"
    #: acts on the observation alone (see the module docstring)
    reads_view = False

    def __init__(self, spec: str, path: str, seed: int | None, deterministic: bool) -> None:
        self.spec = spec
        self.path = path
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def raw_logits(self, observation: dict[str, np.ndarray], mask: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def logits(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        """Masked action logits (``-inf`` on illegal actions)."""
        mask = np.asarray(observation["action_mask"], bool)
        if not mask.any():
            raise ValueError(f"{self.kind}: act() called with an all-zero action mask")
        logits = np.array(self.raw_logits(observation, mask), dtype=np.float64)
        logits[~mask] = -np.inf
        return logits

    def act(self, observation: dict[str, np.ndarray], view: Any = None) -> int:
        return self.choose(self.logits(observation))

    def choose(self, logits: np.ndarray) -> int:
        """The action for masked logits (``-inf`` on illegal actions; float64): the argmax, or
        a draw with this agent's generator (what a batched env calls after one forward pass
        for many games)."""
        if self.deterministic:
            return int(np.argmax(logits))
        p = np.exp(logits - logits.max())
        p /= p.sum()
        return int(self.rng.choice(p.size, p=p))
