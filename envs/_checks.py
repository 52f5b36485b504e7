"""Argument checks shared by the environments: "an int, but not a bool", reset options.

``bool`` is a subclass of ``int`` in Python, so ``isinstance(True, int)`` holds; every integer
argument of the envs must reject ``True``/``False`` explicitly. These helpers do that once.

| function | what it does |
|---|---|
| ``is_int`` | whether a value is an int (a NumPy integer too, unless ``numpy=False``) and not a bool |
| ``require_int`` | that check plus an inclusive range; returns the value as a plain ``int`` or raises ``ValueError`` naming the argument and the allowed values: ``"<name> must be <allowed>, got <value!r>"`` |
| ``check_reset_options`` | ``reset(options=...)``: ``None`` or a mapping whose keys are the env's reset options; returns a ``dict``, or raises ``ValueError`` naming ``options`` and its type, or the unknown key and the allowed keys |
| ``require_reset`` | ``RuntimeError("call reset() before <what>()")`` while an env has no game |

``allowed`` defaults to ``"an int"``, ``"an int >= low"``, ``"an int <= high"`` or
``"an int in low..high"`` (from the bounds given); pass it to word the allowed values
differently (``"a seat in 0..3"``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

#: the one key PettingZoo's ``api_test`` passes to see that ``reset`` takes options
#: (``reset(seed=0, options={"options": 1})``): accepted and ignored by every env
API_TEST_OPTION = "options"
#: the longest value shown in an error (a huge or deeply nested options value is cut)
SHOWN_CHARS = 80


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


def check_reset_options(options: Any, allowed: Sequence[str]) -> dict[str, Any]:
    """``options`` of a ``reset`` as a ``dict``: ``None`` is ``{}``; anything but a mapping, or
    a key not in ``allowed`` (but :data:`API_TEST_OPTION`), is a ``ValueError`` naming it (an
    option is never ignored silently: ``{"dekc": ...}`` is a typo, not a deal)."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        shown = repr(options)
        shown = shown if len(shown) <= SHOWN_CHARS else shown[:SHOWN_CHARS] + "..."
        raise ValueError(
            f"options must be a dict with the keys {list(allowed)} (or None), got "
            f"{type(options).__name__} {shown}"
        )
    for key in options:
        if key not in allowed and key != API_TEST_OPTION:
            raise ValueError(f"options: unknown key {key!r}; allowed: {list(allowed)}")
    return dict(options)


def check_seed(seed: Any) -> None:
    """``ValueError`` unless ``seed`` is ``None`` or a non-negative int (Python or NumPy; not a
    bool, a float or a string: NumPy's ``default_rng`` would take ``True`` as 1 silently and
    fail on ``1.5`` with its own ``TypeError``)."""
    if seed is not None and not (is_int(seed) and seed >= 0):
        shown = repr(seed)
        shown = shown if len(shown) <= SHOWN_CHARS else shown[:SHOWN_CHARS] + "..."
        raise ValueError(f"seed must be None or an int >= 0, got {type(seed).__name__} {shown}")


def require_reset(game: Any, what: str) -> None:
    """``RuntimeError`` while ``game`` is ``None`` (an env that was never reset)."""
    if game is None:
        raise RuntimeError(f"call reset() before {what}()")
