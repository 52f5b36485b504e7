"""Per-case lookups of a game: :class:`CaseTables` (by card index) and :func:`case_tables`.

Cards are referred to by their **index** ``k`` = rank of the card id among the case's ids, so
"sorted by index" is "sorted by id". The tables are immutable and shared by every copy of a
state; :func:`case_tables` builds them once per case object (bounded LRU cache).
"""

from __future__ import annotations

import functools

from .. import actions as A
from ..case.cards import Card, copy_fact
from ..case.case import Case
from ..case.memo import cached_by

__all__ = ["CaseTables", "case_tables"]

#: How many cases' tables are kept.
CASE_TABLES_CACHE_SIZE = 256

_REF_INDEX = {r: i for i, r in enumerate(A.REFERENCES)}


class CaseTables:
    """Per-case lookups by card index (immutable; shared between copies of a state)."""

    def __init__(self, case: Case) -> None:
        cards = sorted(case.cards, key=lambda c: c.id)
        ids = [c.id for c in cards]
        if len(set(ids)) != len(ids):
            raise ValueError("case: duplicate card ids")
        self.case = case
        self.cards = tuple(cards)
        self.ids: tuple[int, ...] = tuple(ids)
        self.index: dict[int, int] = {cid: k for k, cid in enumerate(ids)}
        self.values: tuple[int, ...] = tuple(int(c.value) for c in cards)
        self.refmask: tuple[int, ...] = tuple(
            sum(1 << _REF_INDEX[r] for r in c.refs) for c in cards
        )
        self.num_cards = len(cards)
        self.accomplice_possible = case.accomplice_possible
        self.level = case.level

    @functools.cached_property
    def view_cards(self) -> tuple[Card, ...]:
        """What player views hand out: copies, so that an agent writing into a view's fact
        dicts can never reach the hidden case the engine plays (made on first use: an env
        that nobody asks for views never pays for the copies)."""
        return tuple(
            Card(c.id, c.speaker, tuple(copy_fact(f) for f in c.facts), c.refs, c.value, c.text)
            for c in self.cards
        )  # (a deep copy: facts are flat dicts whose only nested values are lists of ids)

    def __deepcopy__(self, memo: dict) -> CaseTables:
        return self  # immutable

    def __getstate__(self) -> dict:
        return {"case": self.case}

    def __setstate__(self, state: dict) -> None:
        self.__init__(state["case"])


# The key is the case object's identity: the cached tables hold the case, so the id cannot be
# reused by another case while the entry lives.
@cached_by(id, CASE_TABLES_CACHE_SIZE)
def case_tables(case: Case) -> CaseTables:
    """The :class:`CaseTables` of a case (cached per case object)."""
    return CaseTables(case)
