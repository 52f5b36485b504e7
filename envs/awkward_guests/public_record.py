"""Awkward Guests — the public record of every player's most recent turn.

Everything done openly at the table during a turn is public (docs/rules/awkward_guests.md): the arrows on the board
show every player which references were asked; offered cards lie face down under a token with
the bid's value; the chosen trades are carried out at the table, so who bid what, which bids
were accepted and how many cards each accepted bid was paid with are seen by everyone. The
engine's live turn state (``asked``, ``bids``) is cleared as soon as the turn ends, and a
player with no matching card has no decision during somebody else's turn — so without a
record, a player could miss a whole turn. This module keeps that record.

Data
----
:attr:`GuestsState.last_turns <parlour.envs.awkward_guests.game.GuestsState>` is a tuple with
one entry per seat: ``None`` or the :class:`TurnRecord` of that seat's most recent finished
turn — the round and the game's turn number, the asked references (as ``REF`` indices, in the order asked) and one
:class:`BidRecord` per bid in the order made: bidder seat (``-1``: the solo deck), value, card
count, accepted, and the number of cards the accepted bid was paid with (0 when declined).

It holds **only public facts**: never a card, neither of a bid nor of a payment (those stay
known to the two parties of the trade only, through their notebooks).

Life cycle (the engine calls the two hooks below)
-------------------------------------------------
* :func:`on_turn_start` — when a seat's turn starts, its entry is cleared (the turn in
  progress is shown live by the observation's ``players`` and ``asked`` blocks);
* :func:`on_turn_end` — when the turn ends (after the trades, or after the no-bid draw), the
  seat's entry becomes the record of that turn.

So a record stands from the end of a turn until the same seat's next turn starts. Every other
remaining player has a decision in between (at the latest in the Solution phase of that round,
where everyone still in decides), so nobody can miss a turn; a seat that is out keeps its last
record. Records are immutable (frozen dataclasses, tuples) and ``last_turns`` is only ever
replaced, never changed in place, so copies of a state (``clone``, ``copy.copy``, pickle) can
share it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (game imports this module: no run-time import back)
    from .game.state import GuestsState

_ACCEPTED = 1  # Bid.status of an accepted bid (game.Bid: 0 unanswered, 1 accepted, 2 declined)


@dataclass(frozen=True)
class BidRecord:
    """One bid of a finished turn, as the whole table saw it."""

    seat: int  # the bidder (-1: the solo deck)
    value: int
    count: int  # cards in the bid
    accepted: bool
    paid: int  # cards the accepted bid was paid with (0 when declined)


@dataclass(frozen=True)
class TurnRecord:
    """A seat's most recent finished turn (engine form: references as ``REF`` indices)."""

    seat: int
    round: int
    turn: int  # the game's turn number (0 for the first turn of the game)
    asked: tuple[int, ...]
    bids: tuple[BidRecord, ...]


@dataclass(frozen=True)
class PastTurn:
    """A seat's most recent finished turn as :class:`~parlour.envs.awkward_guests.view.GuestsView`
    gives it (references by name)."""

    seat: int
    round: int
    turn: int  # the game's turn number (0 for the first turn of the game)
    asked: tuple[str, ...]
    bids: tuple[BidRecord, ...]


def records(state: GuestsState) -> tuple[TurnRecord | None, ...]:
    """``state.last_turns`` padded to one entry per seat (a fresh state has ``()``)."""
    rec = state.last_turns
    n = state.config.num_players
    if len(rec) == n:
        return rec
    return tuple(rec) + (None,) * (n - len(rec))


def on_turn_start(state: GuestsState) -> None:
    """Hook: ``state.active``'s turn has just started — its previous record is cleared."""
    rec = records(state)
    a = state.active
    if rec[a] is not None:
        state.last_turns = rec[:a] + (None,) + rec[a + 1 :]
    else:
        state.last_turns = rec


def on_turn_end(state: GuestsState) -> None:
    """Hook: ``state.active``'s turn is over (trades done or cards drawn; ``state.asked`` and
    ``state.bids`` still hold the turn) — record it."""
    rec = records(state)
    a = state.active
    turn = TurnRecord(
        seat=a,
        round=state.round,
        turn=state.turns_taken,
        asked=tuple(state.asked),
        bids=tuple(
            BidRecord(
                seat=b.seat,
                value=b.value,
                count=b.count,
                accepted=b.status == _ACCEPTED,
                paid=len(b.payment) if b.status == _ACCEPTED else 0,
            )
            for b in state.bids
        ),
    )
    state.last_turns = rec[:a] + (turn,) + rec[a + 1 :]


def view_records(state: GuestsState, references: tuple[str, ...]) -> tuple[PastTurn | None, ...]:
    """The records for a player view (absolute seats; references named)."""
    return tuple(
        None
        if t is None
        else PastTurn(t.seat, t.round, t.turn, tuple(references[r] for r in t.asked), t.bids)
        for t in records(state)
    )
