"""What a hand card would teach another seat: the ``hand_share`` and ``hand_teach`` pieces of
``observation_mode="deduced_choices"``.

Offering and paying hand over cards, and a card teaches its receiver part of the solution. Two
numbers per hand card say how much, from what the holder may know:

| piece | per hand slot |
|---|---|
| ``hand_share`` | the share of all 5,760 candidate solutions (accomplice possible) the card's facts alone rule out (:func:`~parlour.envs.awkward_guests.case.cards.card_exclusion_share`): what its face is worth to somebody who knows nothing |
| ``hand_teach`` | on the holder's own ``offer`` or ``pay`` decision: the share of the **counterpart's known candidates** the card would rule out (0 on any other decision) |

The counterpart is the active player at ``offer`` (the one who asked) and, at ``pay``, the
bidder whose bid is being answered (the solo deck learns nothing: 0). Its **known candidates**
are those allowed by the cards the holder knows it has seen: the revealed pile (in the holder's
notebook) and the holder's hand cards the counterpart is known to have seen (the env's ``known``
bits, shown per card in the ``hand`` block). A card on the revealed pile teaches 0, and so does a
card the counterpart is known to have seen. This is exactly the measure ``guests.deducer`` uses
to choose what to offer and what to pay with (held to it by a differential test).

:class:`TeachTable` keeps per-game memos (the counterpart's known deduction by known set, and
each card's teach value by known set), so repeated decisions of one exchange cost one lookup.
"""

from __future__ import annotations

import numpy as np

from . import game as G
from .case.cards import card_exclusion_share
from .case.deduction import Deduction

#: per-game memo sizes (cleared when they grow past these)
KNOWN_CACHE_SIZE = 64
TEACH_CACHE_SIZE = 4096


def counterpart(state: G.GuestsState, observer: int) -> int | None:
    """The seat a card of ``observer``'s would go to on its own decision now, or ``None`` (not
    deciding ``offer``/``pay``, or paying the solo deck)."""
    if state.current != observer:
        return None
    if state.decision == G.D_OFFER:
        return state.active
    if state.decision == G.D_PAY:
        seat = state.bids[state.answering].seat
        return None if seat == G.DECK_SEAT else seat
    return None


class TeachTable:
    """Per-game memo behind ``hand_share`` / ``hand_teach`` (call :meth:`reset` per game)."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self._share: dict[int, float] = {}
        self._known: dict[tuple[int, frozenset[int]], Deduction] = {}
        self._teach: dict[tuple[int, frozenset[int], int], float] = {}

    def share(self, state: G.GuestsState, card: int) -> float:
        """``hand_share`` of card index ``card`` (memo per game)."""
        share = self._share.get(card)
        if share is None:
            share = self._share[card] = card_exclusion_share(state.tables.cards[card].facts)
        return share

    def _known_key(self, state: G.GuestsState, observer: int, seat: int) -> frozenset[int]:
        """The cards ``observer`` knows ``seat`` has seen: revealed cards in its notebook and
        its hand cards with ``seat``'s ``known`` bit."""
        seen = state.seen[observer]
        known = state.known[observer]
        bit = 1 << seat
        ids = {c for c in state.revealed if seen[c]}
        ids.update(c for c in state.hands[observer] if known[c] & bit)
        return frozenset(ids)

    def _known_deduction(self, state: G.GuestsState, seat: int, ids: frozenset[int]) -> Deduction:
        key = (seat, ids)
        ded = self._known.get(key)
        if ded is None:
            ded = Deduction(state.tables.accomplice_possible)
            cards = state.tables.cards
            for c in sorted(ids):
                ded.add_facts(cards[c].facts, validate=False)
            if len(self._known) > KNOWN_CACHE_SIZE:
                self._known.clear()
            self._known[key] = ded
        return ded

    def _teach_of(self, state: G.GuestsState, seat: int, ids: frozenset[int], card: int) -> float:
        """The share of ``seat``'s known candidates (those the cards ``ids`` allow) that card
        index ``card`` would rule out (0 for a card in ``ids``: a revealed card in the holder's
        notebook, or one ``seat`` is known to have seen)."""
        key = (seat, ids, card)
        value = self._teach.get(key)
        if value is None:
            known = self._known_deduction(state, seat, ids)
            before = known.count()
            value = 0.0
            if before:
                after = known.clone()
                after.add_facts(state.tables.cards[card].facts, validate=False)
                value = 1.0 - after.count() / before
            if len(self._teach) > TEACH_CACHE_SIZE:
                self._teach.clear()
            self._teach[key] = value
        return value

    def write_share(self, state: G.GuestsState, observer: int, out: np.ndarray) -> None:
        """Write ``hand_share`` of ``observer`` (one entry per hand slot; slots past the hand
        are 0). It depends on the hand only: call it when the hand changed."""
        out.fill(0.0)
        for slot, c in enumerate(state.hands[observer]):
            out[slot] = self.share(state, c)

    def write_teach(self, state: G.GuestsState, observer: int, out: np.ndarray) -> bool:
        """Write ``hand_teach`` of ``observer`` when it is offering or paying (returns True);
        otherwise leave ``out`` alone and return False (the caller keeps it 0)."""
        seat = counterpart(state, observer)
        if seat is None:
            return False
        out.fill(0.0)
        ids = self._known_key(state, observer, seat)
        for slot, c in enumerate(state.hands[observer]):
            out[slot] = self._teach_of(state, seat, ids, c)
        return True
