"""95% intervals of the numbers tournaments report (below :mod:`parlour.eval`, so that a game's
:class:`~parlour.games.parts.Statistics` computes its own with the same formulas).

| function | interval |
|---|---|
| :func:`wilson_interval` | Wilson score interval of a proportion (win rates, shares) |
| :func:`share_estimate` | a share with its Wilson interval, as an estimate entry |
| :func:`mean_estimate` | a mean with its normal interval, ``mean ± z·sd/√n`` (``sd`` with ``n − 1``), as an estimate entry |

An *estimate entry* is ``{"value": x, "ci95": [lo, hi], "n": n}``: the number, its 95% interval,
and how many observations it is over. ``value`` is ``None`` when there are none (``n = 0``: a
share of no accusations, the mean of no rounds); ``ci95`` is ``None`` then, and for a mean of one
observation (no spread to measure).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

#: the two-sided 95% quantile of the normal distribution
Z95 = 1.959963984540054


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (``successes`` may be fractional)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)  # (exact ends, no rounding)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return (lo, hi)


def share_estimate(successes: float, n: int) -> dict[str, Any]:
    """``successes / n`` with its Wilson 95% interval (an estimate entry)."""
    n = int(n)
    if n <= 0:
        return {"value": None, "ci95": None, "n": 0}
    return {"value": successes / n, "ci95": list(wilson_interval(successes, n)), "n": n}


def mean_estimate(values: Sequence[float]) -> dict[str, Any]:
    """The mean of ``values`` with its 95% interval ``mean ± Z95·sd/√n`` (an estimate entry)."""
    n = len(values)
    if n == 0:
        return {"value": None, "ci95": None, "n": 0}
    mean = math.fsum(values) / n
    if n == 1:
        return {"value": mean, "ci95": None, "n": 1}
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return {"value": mean, "ci95": [mean - half, mean + half], "n": n}
