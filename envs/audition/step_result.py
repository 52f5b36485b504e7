"""What one step of the batched Audition engine returns (:mod:`parlour.envs.audition.batched`):
:class:`StepResult`, the games of the batch that ended in that step and how."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class StepResult:
    """What one batched step returns (see the module docstring)."""

    rewards: np.ndarray  # (N, n) float64: terminal rewards of the games that just ended
    done: np.ndarray  # (N,) bool
    scores: np.ndarray  # (N, n) final points of the games that just ended (else 0)
    quartets: np.ndarray  # (N, n)
    winners: np.ndarray  # (N, n) bool
    lengths: np.ndarray  # (N,) decisions of the games that just ended (else 0)

    @classmethod
    def empty(cls, num_games: int, num_players: int) -> StepResult:
        """A result in which no game ended."""
        N, n = num_games, num_players
        z = np.zeros((N, n), np.int64)
        return cls(np.zeros((N, n)), np.zeros(N, bool), z, z.copy(), z.astype(bool), z[:, 0] * 0)

    def merge(self, later: StepResult) -> None:
        """Add the games that ended in ``later`` (a later step of the same batch)."""
        d = later.done
        for name in ("rewards", "scores", "quartets", "winners", "lengths"):
            getattr(self, name)[d] = getattr(later, name)[d]
        self.done |= d
