"""Bounded memoisation keyed by content, for arguments ``functools.lru_cache`` cannot hash.

The case engine computes many things once per *content* (a fact's effect on the deduction
state, a card's value, the motive factors of a set of refutations) from arguments that are not
hashable themselves (fact dicts, NumPy arrays). :func:`cached_by` memoises such a function
under a hashable key computed from its arguments, least recently used first out, at most
``maxsize`` entries. Where the arguments are hashable the engine uses ``functools.lru_cache``.

Cached values are shared between callers: the engine only caches read-only arrays and immutable
values.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


def cached_by(
    key: Callable[P, Hashable], maxsize: int
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Memoise a function under ``key(*args, **kwargs)`` (LRU, at most ``maxsize`` entries).

    The wrapped function gets ``cache_clear()`` and ``cache_len()`` for tests and diagnostics.
    """
    if maxsize < 1:
        raise ValueError(f"maxsize must be >= 1, got {maxsize!r}")

    def decorate(func: Callable[P, R]) -> Callable[P, R]:
        entries: OrderedDict[Hashable, Any] = OrderedDict()

        @functools.wraps(func)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            k = key(*args, **kwargs)
            try:
                entries.move_to_end(k)
                return entries[k]
            except KeyError:
                pass
            value = func(*args, **kwargs)
            entries[k] = value
            if len(entries) > maxsize:
                entries.popitem(last=False)
            return value

        wrapper.cache_clear = entries.clear  # type: ignore[attr-defined]
        wrapper.cache_len = entries.__len__  # type: ignore[attr-defined]
        return wrapper

    return decorate
