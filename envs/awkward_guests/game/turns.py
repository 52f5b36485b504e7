"""The flow of play: turns, the Discard phase and rounds, and which phase's rules an action
goes to.

| function | what it does |
|---|---|
| :func:`apply_action` | applies a legal action of the current player: to :mod:`~.exchange` (inquiry, offers, exchange), the Discard phase, or :mod:`~.accusation` (Solution phase); then moves the game on |
| :func:`start_turn` | the next seat of ``turn_queue`` starts its turn (its public record is cleared) |
| :func:`end_turn` | the turn is recorded (:mod:`~.record`); the next turn, or the Solution phase |
| :func:`start_discard_phase` | every remaining player with more than 3 cards discards, from the start player |
| :func:`new_round` | the start player moves on, everyone refills to 6, the first turn starts |

A round is: every remaining player's turn (from the start player), the Solution phase, the
Discard phase, then the next round. Rulings: :mod:`parlour.envs.awkward_guests.game`.
"""

from __future__ import annotations

from .. import actions as A
from . import accusation, cards, exchange, record
from .data import BID_ACCEPTED, GuestsData
from .rules import D_DISCARD, D_INQUIRY, HAND_SIZE, KEEP_AFTER_DISCARD, TURN_DECISIONS

__all__ = ["apply_action", "start_turn", "end_turn", "start_discard_phase", "new_round"]


def apply_action(state: GuestsData, a: int) -> None:
    """Apply the action ``a`` of :attr:`~.data.GuestsData.current_player` (it must be legal:
    :meth:`~.state.GuestsState.apply` checks)."""
    state.num_moves += 1
    state.newly_out = []
    d = state.decision
    p = state.current
    if d in TURN_DECISIONS:
        if exchange.apply_turn_decision(state, d, p, a):
            end_turn(state)
    elif d == D_DISCARD:
        _apply_discard(state, p, a)
    elif accusation.apply_accusation_decision(state, d, p, a):
        start_discard_phase(state)


def start_turn(state: GuestsData) -> None:
    state.active = state.turn_queue.pop(0)
    state.current = state.active
    state.asked = []
    state.asked_bits = 0
    state.bids = []
    state.answering = -1
    state.decision = D_INQUIRY
    state.last_turns = record.cleared(state.last_turns, state.num_players, state.active)


def end_turn(state: GuestsData) -> None:
    """The active player's turn is over (``asked`` and ``bids`` still hold it)."""
    state.last_turns = record.recorded(state.last_turns, state.num_players, _turn_record(state))
    state.turns_taken += 1
    state.bids = []
    state.answering = -1
    state.owed = 0
    if state.turn_queue:
        start_turn(state)
        return
    state.asked = []
    state.asked_bits = 0
    if accusation.start_solution_phase(state):
        start_discard_phase(state)


def _turn_record(state: GuestsData) -> record.TurnRecord:
    """The public record of the turn that is ending."""
    return record.TurnRecord(
        seat=state.active,
        round=state.round,
        turn=state.turns_taken,
        asked=tuple(state.asked),
        bids=tuple(
            record.BidRecord(
                seat=b.seat,
                value=b.value,
                count=b.count,
                accepted=b.status == BID_ACCEPTED,
                paid=len(b.payment) if b.status == BID_ACCEPTED else 0,
            )
            for b in state.bids
        ),
    )


def start_discard_phase(state: GuestsData) -> None:
    state.discard_queue = [
        p for p in state.order_from(state.start) if len(state.hands[p]) > KEEP_AFTER_DISCARD
    ]
    _next_discarder(state)


def _next_discarder(state: GuestsData) -> None:
    if state.discard_queue:
        state.current = state.discard_queue.pop(0)
        state.decision = D_DISCARD
    else:
        new_round(state)


def new_round(state: GuestsData) -> None:
    state.start = (state.order_from(state.start, include=False) or [state.start])[0]
    for p in state.order_from(state.start):
        cards.draw_to(state, p, HAND_SIZE - len(state.hands[p]))
    state.round += 1
    state.turn_queue = state.order_from(state.start)
    start_turn(state)


def _apply_discard(state: GuestsData, p: int, a: int) -> None:
    """Seat ``p`` picks one more card to discard; once only the cards to keep are left
    unpicked, the picked ones go to the discard pile."""
    sel = state.selected[p]
    sel.add(state.hands[p][a - A.CARD_0])
    state.hand_version[p] += 1
    if len(state.hands[p]) - len(sel) <= KEEP_AFTER_DISCARD:
        state.discard.extend(sorted(sel))
        state.hands[p] = [c for c in state.hands[p] if c not in sel]
        sel.clear()
        state.hand_version[p] += 1
        _next_discarder(state)
