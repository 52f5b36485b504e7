"""``random``: uniform over the legal actions of the mask (every game).

The floor every other agent is measured against. It reads only ``observation["action_mask"]``
and draws with its own ``np.random.Generator`` (seeded by ``reset(seed)``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parlour.agents.base import legal_from_mask


class RandomAgent:
    """Uniform random legal play."""

    #: reads only the mask (see :mod:`parlour.agents.base`)
    reads_view = False

    def __init__(self, spec: str = "random", seed: int | None = None) -> None:
        self.spec = spec
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: dict[str, np.ndarray], view: Any = None) -> int:
        legal = legal_from_mask(observation)
        return int(legal[self.rng.integers(legal.size)])
