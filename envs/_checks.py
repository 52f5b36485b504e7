"""Argument checks shared by the environments: "an int, but not a bool".

``bool`` is a subclass of ``int`` in Python, so ``isinstance(True, int)`` holds; every integer
argument of the envs must reject ``True``/``False`` explicitly. These helpers do that once.

====================  ======================================================================
function              what it does
====================  ======================================================================
``is_int``            whether a value is an int (a NumPy integer too, unless
                      ``numpy=False``) and not a bool
``require_int``       that check plus an inclusive range; returns the value as a plain
                      ``int`` or raises ``ValueError`` naming the argument and the allowed
                      values: ``"<name> must be <allowed>, got <value!r>"``
====================  ======================================================================

``allowed`` defaults to ``"an int"``, ``"an int >= low"``, ``"an int <= high"`` or
``"an int in low..high"`` (from the bounds given); pass it to word the allowed values
differently (``"a seat in 0..3"``).
"""

from __future__ import annotations

from typing import Any

import numpy as np


def is_int(value: Any, *, numpy: bool = True) -> bool:
    """Whether ``value`` is an int and not a bool (NumPy integers count unless ``numpy=False``)."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int | np.integer) if numpy else isinstance(value, int)


def _allowed(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"an int in {low}..{high}"
    if low is not None:
        return f"an int >= {low}"
    if high is not None:
        return f"an int <= {high}"
    return "an int"


def require_int(
    name: str,
    value: Any,
    low: int | None = None,
    high: int | None = None,
    *,
    allowed: str | None = None,
    numpy: bool = True,
) -> int:
    """``value`` as an ``int`` if it is an int (not a bool) in ``low..high`` (inclusive; a
    missing bound is open); otherwise ``ValueError("<name> must be <allowed>, got <value!r>")``."""
    ok = (
        is_int(value, numpy=numpy)
        and (low is None or value >= low)
        and (high is None or value <= high)
    )
    if not ok:
        raise ValueError(f"{name} must be {allowed or _allowed(low, high)}, got {value!r}")
    return int(value)
