"""Random draws of the generator (every one from the case's ``np.random.Generator``)."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["pick", "choice_count", "weighted_order"]

#: Weights are floored here so that a zero weight sorts last instead of dividing by zero.
_MIN_WEIGHT = 1e-12


def pick(rng: np.random.Generator, seq: Any) -> Any:
    """A uniformly random element of ``seq``."""
    seq = list(seq)
    return seq[int(rng.integers(len(seq)))]


def choice_count(rng: np.random.Generator, probs: tuple[float, ...]) -> int:
    """1, 2 or 3 with the given probabilities."""
    u = rng.random() * sum(probs)
    acc = 0.0
    for k, p in enumerate(probs, start=1):
        acc += p
        if u < acc:
            return k
    return len(probs)


def weighted_order(rng: np.random.Generator, weights: np.ndarray) -> np.ndarray:
    """A random order in which heavier items tend to come first (exponential race)."""
    keys = rng.exponential(size=len(weights)) / np.maximum(weights, _MIN_WEIGHT)
    return np.argsort(keys, kind="stable")
