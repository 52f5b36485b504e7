"""What a card needs of one fact, checked and computed once per fact content: :func:`fact_info`.

A deck of 70 cards holds ~120 facts, and a generated case (or a loaded case file) asks the same
few questions of each: is it valid (:func:`~.facts.validate_fact`), its canonical key
(:func:`~.facts.fact_key`, duplicates on a card), its semantic key (the card value's cache key),
its references and its English text. A board has a few thousand distinct facts, so the answers
are kept per exact content (:class:`FactInfo`, at most ``FACT_INFO_CACHE_SIZE``; the memo is
emptied when full).

The exact content key holds every key of the dict with the class and value of each value (the
classes and values of list elements too), so two facts share an entry only if validation cannot
tell them apart (``1`` and ``True`` differ; an extra key differs). A fact that is not a plain
dict or holds unhashable values is never memoised: it is validated every time, as before.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .board import Board
from .deduction.keys import semantic_key
from .facts import fact_key, fact_refs, fact_text, validate_fact

__all__ = ["FACT_INFO_CACHE_SIZE", "FactInfo", "fact_info"]

#: How many facts' checked properties are kept (a board has a few thousand distinct facts).
FACT_INFO_CACHE_SIZE = 50_000


@dataclass(frozen=True, slots=True)
class FactInfo:
    """A valid fact's canonical key, semantic key, references and English text."""

    key: tuple
    semantic: tuple
    refs: frozenset[str]
    text: str


_INFOS: dict[tuple, FactInfo] = {}


def _exact_key(fact: Any, board: Board) -> tuple | None:
    """A hashable key equal only for facts validation cannot tell apart (None: not memoisable)."""
    if fact.__class__ is not dict:
        return None
    out: list = [board]
    for k, v in fact.items():
        if v.__class__ is list:
            out.append((k, list, tuple((x.__class__, x) for x in v)))
        else:
            out.append((k, v.__class__, v))
    key = tuple(out)
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _build(fact: dict, board: Board) -> FactInfo:
    validate_fact(fact, board)
    return FactInfo(
        key=fact_key(fact),
        semantic=semantic_key(fact),
        refs=frozenset(fact_refs(fact, board)),
        text=fact_text(fact, board),
    )


def fact_info(fact: Any, board: Board) -> FactInfo:
    """The :class:`FactInfo` of a fact; ``ValueError`` (from :func:`~.facts.validate_fact`)
    if it is not a valid fact of ``board``."""
    key = _exact_key(fact, board)
    if key is None:
        return _build(fact, board)
    info = _INFOS.get(key)
    if info is None:
        info = _build(fact, board)
        if len(_INFOS) >= FACT_INFO_CACHE_SIZE:
            _INFOS.clear()
        _INFOS[key] = info
    return info
