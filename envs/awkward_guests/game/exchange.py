"""A turn's inquiry, offers and exchange (docs/rules/awkward_guests.md): functions over the
game's data.

The active player asks about references (``REF``); every other remaining player holding a
card that names an asked reference may bid (``CARD``… then ``NO``); the active player answers
each bid in seat order (``YES``/``NO``) and pays for an accepted one (``CARD``… until its value
is covered); then all accepted trades happen at once. Solo: the top cards of the deck form the
deck's bid. Nobody bids: the active player draws. Rulings: :mod:`parlour.envs.awkward_guests.game`.

| function | what it does |
|---|---|
| :func:`apply_turn_decision` | applies a legal ``inquiry`` / ``offer`` / ``answer`` / ``pay`` action; ``True`` when the turn's trades (or the no-bid draw) are done and the turn is over |
| :func:`can_accept` | whether the active player may accept the bid being answered (``YES`` is legal) |

The turn's start and end (the public record, the next turn, the Solution phase) are
:mod:`~.turns`'.
"""

from __future__ import annotations

from .. import actions as A
from . import cards
from .data import BID_ACCEPTED, BID_DECLINED, Bid, GuestsData
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

__all__ = ["apply_turn_decision", "can_accept"]


def apply_turn_decision(state: GuestsData, d: int, p: int, a: int) -> bool:
    """Apply the legal action ``a`` of seat ``p`` for an inquiry / offer / answer / pay.
    ``True``: the turn is over (trades made or cards drawn; ``asked`` and ``bids`` still hold
    it)."""
    if d == D_INQUIRY:
        state.asked.append(a - A.REF_0)
        state.asked_bits |= 1 << (a - A.REF_0)
        if len(state.asked) == state.config.refs_per_inquiry:
            return _start_offers(state)
        return False
    if d == D_OFFER:
        if a == A.NO:
            return _close_offer(state, p)
        state.selected[p].add(state.hands[p][a - A.CARD_0])
        state.hand_version[p] += 1
        return False
    if d == D_ANSWER:
        bid = state.bids[state.answering]
        if a == A.YES:
            bid.status = BID_ACCEPTED
            state.owed = bid.value
            state.decision = D_PAY
            return False
        bid.status = BID_DECLINED
        return _next_answer(state)
    # D_PAY
    c = state.hands[p][a - A.CARD_0]
    state.selected[p].add(c)
    state.hand_version[p] += 1
    state.bids[state.answering].payment.append(c)
    state.owed -= state.tables.values[c]
    if state.owed <= 0:
        state.owed = 0
        return _next_answer(state)
    return False


def can_accept(state: GuestsData) -> bool:
    """Whether the active player may accept the bid being answered (see the rulings)."""
    bid = state.bids[state.answering]
    a = state.active
    hand = state.hands[a]
    promised = state.selected[a]
    values = state.tables.values
    avail = sum(values[c] for c in hand if c not in promised)
    if avail < bid.value:
        return False
    if state.config.small:
        return True  # received cards are discarded at once: hands never grow
    received = bid.count + sum(b.count for b in state.bids if b.status == BID_ACCEPTED)
    if len(hand) - len(promised) - 1 + received > MAX_HAND:
        return False
    return len(state.hands[bid.seat]) - bid.count + bid.value <= MAX_HAND


# -- offers -----------------------------------------------------------------------------


def _start_offers(state: GuestsData) -> bool:
    a = state.active
    am = state.asked_bits
    rm = state.tables.refmask
    if state.config.num_players == 1:
        return _solo_offer(state, am)
    state.offer_queue = [
        q for q in state.order_from(a, include=False) if any(rm[c] & am for c in state.hands[q])
    ]
    return _next_offerer(state)


def _next_offerer(state: GuestsData) -> bool:
    if state.offer_queue:
        state.current = state.offer_queue.pop(0)
        state.decision = D_OFFER
        return False
    return _start_exchange(state)


def _close_offer(state: GuestsData, p: int) -> bool:
    sel = state.selected[p]
    if sel:
        chosen = sorted(sel)
        values = state.tables.values
        state.bids.append(Bid(p, chosen, sum(values[c] for c in chosen), len(chosen)))
    return _next_offerer(state)


def _solo_offer(state: GuestsData, am: int) -> bool:
    """Solo: the top 5 cards of the deck; those naming an asked ref form the deck's bid."""
    rm = state.tables.refmask
    values = state.tables.values
    looked: list[int] = []
    for _ in range(SOLO_LOOK):
        c = cards.draw_card(state)
        if c is None:
            break
        looked.append(c)
    match = [c for c in looked if rm[c] & am]
    rest = [c for c in looked if not rm[c] & am]
    cards.to_bottom(state, rest)
    if match:
        state.table = match
        state.bids.append(Bid(DECK_SEAT, sorted(match), sum(values[c] for c in match), len(match)))
    return _start_exchange(state)


# -- exchange ---------------------------------------------------------------------------


def _start_exchange(state: GuestsData) -> bool:
    state.current = state.active
    if not state.bids:
        _no_offer_draw(state)
        return True
    state.answering = -1
    return _next_answer(state)


def _next_answer(state: GuestsData) -> bool:
    state.answering += 1
    if state.answering < len(state.bids):
        state.decision = D_ANSWER
        state.current = state.active
        return False
    _resolve_trades(state)
    return True


def _resolve_trades(state: GuestsData) -> None:
    """Every bid answered: all accepted trades happen at once (solo: the deck's bid)."""
    a = state.active
    small = state.config.small
    gained_a: list[int] = []
    for bid in state.bids:
        b = bid.seat
        if bid.seat == DECK_SEAT:  # solo
            if bid.status == BID_ACCEPTED:
                cards.see(state, a, bid.cards)
                state.discard.extend(bid.cards)
                cards.remove_from_hand(state, a, bid.payment)
                state.discard.extend(bid.payment)
            else:
                cards.to_bottom(state, bid.cards)
            state.table = []
            continue
        if bid.status != BID_ACCEPTED:
            continue
        abit, bbit = 1 << a, 1 << b
        cards.remove_from_hand(state, b, bid.cards)
        cards.remove_from_hand(state, a, bid.payment)
        cards.see(state, a, bid.cards)
        cards.see(state, b, bid.payment)
        for c in bid.cards + bid.payment:
            state.known[a, c] |= bbit | abit
            state.known[b, c] |= abit | bbit
        state.hand_version[a] += 1
        state.hand_version[b] += 1
        if small:
            state.discard.extend(bid.cards)
            state.discard.extend(bid.payment)
        else:
            gained_a.extend(bid.cards)
            cards.add_to_hand(state, b, bid.payment)
    if gained_a:
        cards.add_to_hand(state, a, gained_a)
    for p, s in enumerate(state.selected):
        if s:
            s.clear()
            state.hand_version[p] += 1


def _no_offer_draw(state: GuestsData) -> None:
    a = state.active
    if state.config.small:
        drawn = []
        for _ in range(NO_BID_DRAW_SMALL):
            c = cards.draw_card(state)
            if c is None:
                break
            drawn.append(c)
        cards.see(state, a, drawn)
        state.discard.extend(drawn)
    else:
        cards.draw_to(state, a, min(NO_BID_DRAW, MAX_HAND - len(state.hands[a])))
