"""A turn's inquiry, offers and exchange (docs/rules/awkward_guests.md): the :class:`Bid`, and the part of
:class:`~.state.GuestsState` that runs them (:class:`ExchangeMixin`).

The active player asks about references (``REF``); every other remaining player holding a
card that names an asked reference may bid (``CARD``… then ``NO``); the active player answers
each bid in seat order (``YES``/``NO``) and pays for an accepted one (``CARD``… until its value
is covered); then all accepted trades happen at once. Solo: the top cards of the deck form the
deck's bid. Nobody bids: the active player draws. Rulings: :mod:`parlour.envs.awkward_guests.game`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from .. import actions as A
from .rules import (
    D_ANSWER,
    D_INQUIRY,
    D_OFFER,
    D_PAY,
    DECK_SEAT,
    MAX_HAND,
    NO_BID_DRAW,
    NO_BID_DRAW_SMALL,
    SOLO_LOOK,
)

if TYPE_CHECKING:
    from .state import GuestsState

__all__ = ["BID_PENDING", "BID_ACCEPTED", "BID_DECLINED", "Bid", "ExchangeMixin"]

#: ``Bid.status``: not answered yet, accepted, declined.
BID_PENDING: Final = 0
BID_ACCEPTED: Final = 1
BID_DECLINED: Final = 2


@dataclass
class Bid:
    """One bid of a turn: ``seat`` (``-1``: the solo deck), its cards (indices), public value
    and count, ``status`` (``BID_PENDING``, ``BID_ACCEPTED``, ``BID_DECLINED``) and the payment
    (indices)."""

    seat: int
    cards: list[int]
    value: int
    count: int
    status: int = BID_PENDING
    payment: list[int] = field(default_factory=list)


class ExchangeMixin:
    """The inquiry, offers and exchange of a turn (mixed into :class:`~.state.GuestsState`,
    whose fields it uses)."""

    def _apply_turn_decision(self: GuestsState, d: int, p: int, a: int) -> None:
        """Apply the legal action ``a`` of seat ``p`` for an inquiry / offer / answer / pay."""
        if d == D_INQUIRY:
            self.asked.append(a - A.REF_0)
            self.asked_bits |= 1 << (a - A.REF_0)
            if len(self.asked) == self.config.refs_per_inquiry:
                self._start_offers()
        elif d == D_OFFER:
            if a == A.NO:
                self._close_offer(p)
            else:
                self.selected[p].add(self.hands[p][a - A.CARD_0])
                self.hand_version[p] += 1
        elif d == D_ANSWER:
            bid = self.bids[self.answering]
            if a == A.YES:
                bid.status = BID_ACCEPTED
                self.owed = bid.value
                self.decision = D_PAY
            else:
                bid.status = BID_DECLINED
                self._next_answer()
        else:  # D_PAY
            c = self.hands[p][a - A.CARD_0]
            self.selected[p].add(c)
            self.hand_version[p] += 1
            self.bids[self.answering].payment.append(c)
            self.owed -= self.tables.values[c]
            if self.owed <= 0:
                self.owed = 0
                self._next_answer()

    def _can_accept(self: GuestsState) -> bool:
        """Whether the active player may accept the bid being answered (see the rulings)."""
        bid = self.bids[self.answering]
        a = self.active
        hand = self.hands[a]
        promised = self.selected[a]
        values = self.tables.values
        avail = sum(values[c] for c in hand if c not in promised)
        if avail < bid.value:
            return False
        if self.config.small:
            return True  # received cards are discarded at once: hands never grow
        received = bid.count + sum(b.count for b in self.bids if b.status == BID_ACCEPTED)
        if len(hand) - len(promised) - 1 + received > MAX_HAND:
            return False
        return len(self.hands[bid.seat]) - bid.count + bid.value <= MAX_HAND

    def _start_offers(self: GuestsState) -> None:
        a = self.active
        am = self.asked_bits
        rm = self.tables.refmask
        if self.config.num_players == 1:
            self._solo_offer(am)
            return
        self.offer_queue = [
            q for q in self.order_from(a, include=False) if any(rm[c] & am for c in self.hands[q])
        ]
        self._next_offerer()

    def _next_offerer(self: GuestsState) -> None:
        if self.offer_queue:
            self.current = self.offer_queue.pop(0)
            self.decision = D_OFFER
        else:
            self._start_exchange()

    def _close_offer(self: GuestsState, p: int) -> None:
        sel = self.selected[p]
        if sel:
            cards = sorted(sel)
            values = self.tables.values
            self.bids.append(Bid(p, cards, sum(values[c] for c in cards), len(cards)))
        self._next_offerer()

    def _solo_offer(self: GuestsState, am: int) -> None:
        """Solo: the top 5 cards of the deck; those naming an asked ref form the deck's bid."""
        rm = self.tables.refmask
        values = self.tables.values
        looked: list[int] = []
        for _ in range(SOLO_LOOK):
            c = self._draw_card()
            if c is None:
                break
            looked.append(c)
        match = [c for c in looked if rm[c] & am]
        rest = [c for c in looked if not rm[c] & am]
        self._to_bottom(rest)
        if match:
            self.table = match
            self.bids.append(
                Bid(DECK_SEAT, sorted(match), sum(values[c] for c in match), len(match))
            )
        self._start_exchange()

    def _to_bottom(self: GuestsState, cards: list[int]) -> None:
        if cards:
            self.deck[:0] = cards[::-1]  # the first of them is drawn first again

    def _start_exchange(self: GuestsState) -> None:
        self.current = self.active
        if not self.bids:
            self._no_offer_draw()
            self._end_turn()
            return
        self.answering = -1
        self._next_answer()

    def _next_answer(self: GuestsState) -> None:
        self.answering += 1
        if self.answering < len(self.bids):
            self.decision = D_ANSWER
            self.current = self.active
        else:
            self._resolve_trades()
            self._end_turn()

    def _resolve_trades(self: GuestsState) -> None:
        a = self.active
        small = self.config.small
        gained_a: list[int] = []
        for bid in self.bids:
            b = bid.seat
            if bid.seat == DECK_SEAT:  # solo
                if bid.status == BID_ACCEPTED:
                    self._see(a, bid.cards)
                    self.discard.extend(bid.cards)
                    self._remove_from_hand(a, bid.payment)
                    self.discard.extend(bid.payment)
                else:
                    self._to_bottom(bid.cards)
                self.table = []
                continue
            if bid.status != BID_ACCEPTED:
                continue
            abit, bbit = 1 << a, 1 << b
            self._remove_from_hand(b, bid.cards)
            self._remove_from_hand(a, bid.payment)
            self._see(a, bid.cards)
            self._see(b, bid.payment)
            for c in bid.cards + bid.payment:
                self.known[a, c] |= bbit | abit
                self.known[b, c] |= abit | bbit
            self.hand_version[a] += 1
            self.hand_version[b] += 1
            if small:
                self.discard.extend(bid.cards)
                self.discard.extend(bid.payment)
            else:
                gained_a.extend(bid.cards)
                self._add_to_hand(b, bid.payment)
        if gained_a:
            self._add_to_hand(a, gained_a)
        for p, s in enumerate(self.selected):
            if s:
                s.clear()
                self.hand_version[p] += 1

    def _no_offer_draw(self: GuestsState) -> None:
        a = self.active
        if self.config.small:
            drawn = []
            for _ in range(NO_BID_DRAW_SMALL):
                c = self._draw_card()
                if c is None:
                    break
                drawn.append(c)
            self._see(a, drawn)
            self.discard.extend(drawn)
        else:
            self._draw_to(a, min(NO_BID_DRAW, MAX_HAND - len(self.hands[a])))
