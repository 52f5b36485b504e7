"""The opponent pool: who plays the other seats of the single-seat training env.

A pool holds baseline agent specs with weights and, once self-play starts, frozen snapshots of
the learner (``ppo:PATH:sample`` specs: saved to disk by the trainer and loaded by path in every
worker, so it works unchanged inside ``SubprocVecEnv``). For every episode and every opponent
seat one spec is drawn:

| with probability | drawn from |
|---|---|
| ``snapshot_weight`` (once a snapshot exists) | the snapshots, uniformly |
| otherwise | the baselines, proportionally to their weights |

At most ``max_snapshots`` snapshots are kept (the oldest is dropped). Built agents are cached
per (spec, seat), so a snapshot's network is loaded once per worker.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from parlour.agents.base import Agent
from parlour.agents.factory import make_agent
from parlour.games import Game, require_game


class OpponentPool:
    """Baselines with weights plus learner snapshots (see the module docstring)."""

    def __init__(
        self,
        game: Game,
        baselines: Mapping[str, float] | None = None,
        snapshot_weight: float = 0.0,
        max_snapshots: int = 5,
        trust: bool = False,
    ) -> None:
        baselines = dict(baselines or {"random": 1.0})
        if not baselines:
            raise ValueError("the opponent pool needs at least one baseline")
        if any(w < 0 for w in baselines.values()) or sum(baselines.values()) <= 0:
            raise ValueError(f"baseline weights must be >= 0 with a positive sum, got {baselines}")
        if not 0.0 <= snapshot_weight <= 1.0:
            raise ValueError(f"snapshot_weight must be in [0, 1], got {snapshot_weight}")
        if max_snapshots < 1:
            raise ValueError(f"max_snapshots must be >= 1, got {max_snapshots}")
        self.game = require_game(game, "OpponentPool")
        #: whether pickle-bearing model files may load (``--trust-model``)
        self.trust = bool(trust)
        self.baselines = baselines
        self._specs = list(baselines)
        w = np.array([baselines[s] for s in self._specs], float)
        self._p = w / w.sum()
        self.snapshot_weight = float(snapshot_weight)
        self.max_snapshots = int(max_snapshots)
        self.snapshots: list[str] = []
        self._agents: dict[tuple[str, str], Agent] = {}
        for spec in self._specs:  # fail early on a bad spec, not in the middle of training
            make_agent(spec, self.game, trust=self.trust)

    def add_snapshot(self, path: str) -> None:
        """Add a saved learner model (a model file path) to the pool."""
        spec = f"ppo:{path}:sample"
        make_agent(spec, self.game, trust=self.trust)  # loads (and caches) the network now
        if spec not in self.snapshots:
            self.snapshots.append(spec)
        while len(self.snapshots) > self.max_snapshots:
            old = self.snapshots.pop(0)
            for key in [k for k in self._agents if k[0] == old]:
                del self._agents[key]

    def sample(self, rng: np.random.Generator) -> str:
        """One opponent spec for one seat of one episode."""
        if self.snapshots and rng.random() < self.snapshot_weight:
            return self.snapshots[int(rng.integers(len(self.snapshots)))]
        return self._specs[int(rng.choice(len(self._specs), p=self._p))]

    def agent(self, spec: str, seat: str) -> Agent:
        """The (cached) agent for ``spec`` playing ``seat``."""
        key = (spec, seat)
        if key not in self._agents:
            self._agents[key] = make_agent(spec, self.game, trust=self.trust)
        return self._agents[key]
