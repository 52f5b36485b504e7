"""The public record of every player's most recent turn (engine form).

Everything done openly at the table during a turn is public (docs/rules/awkward_guests.md): the
arrows on the board show every player which references were asked; offered cards lie face down
under a token with the bid's value; the chosen trades are carried out at the table, so who bid
what, which bids were accepted and how many cards each accepted bid was paid with are seen by
everyone. The engine's live turn state (``asked``, ``bids``) is cleared as soon as the turn
ends, and a player with no matching card has no decision during somebody else's turn — so
without a record, a player could miss a whole turn. This module is that record.

Data
----

| name | what it is |
|---|---|
| ``GuestsState.last_turns`` | a tuple with one entry per seat: ``None`` or the :class:`TurnRecord` of that seat's most recent finished turn |
| :class:`TurnRecord` | seat, round, the game's turn number, the asked references (``REF`` indices, in the order asked), one :class:`BidRecord` per bid in the order made |
| :class:`BidRecord` | bidder seat (``-1``: the solo deck), value, card count, accepted, the number of cards the accepted bid was paid with (0 when declined) |
| :func:`padded` | ``last_turns`` padded to one entry per seat (a state built by hand has ``()``) |
| :func:`cleared`, :func:`recorded` | the record with one seat's entry cleared / replaced |

It holds **only public facts**: never a card, neither of a bid nor of a payment (those stay
known to the two parties of the trade only, through their notebooks).

Life cycle (:mod:`~parlour.envs.awkward_guests.game.turns` keeps it)
-------------------------------------------------------------------
* when a seat's turn starts, its entry is cleared (the turn in progress is shown live by the
  observation's ``players`` and ``asked`` blocks);
* when the turn ends (after the trades, or after the no-bid draw), the seat's entry becomes
  the record of that turn.

So a record stands from the end of a turn until the same seat's next turn starts. Every other
remaining player has a decision in between (at the latest in the Solution phase of that round,
where everyone still in decides), so nobody can miss a turn; a seat that is out keeps its last
record. Records are immutable (frozen dataclasses, tuples) and ``last_turns`` is only ever
replaced, never changed in place, so copies of a state (``clone``, ``copy.copy``, pickle) can
share it. This module depends on nothing else in the engine.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BidRecord", "TurnRecord", "Records", "padded", "cleared", "recorded"]


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


#: ``GuestsState.last_turns``: per seat, ``None`` or its most recent finished turn.
Records = tuple[TurnRecord | None, ...]


def padded(records: Records, num_players: int) -> Records:
    """``records`` padded to one entry per seat (a fresh state has ``()``)."""
    if len(records) == num_players:
        return records
    return tuple(records) + (None,) * (num_players - len(records))


def cleared(records: Records, num_players: int, seat: int) -> Records:
    """The record once ``seat``'s turn has started: its previous entry cleared (the same
    tuple, padded, when it had none)."""
    rec = padded(records, num_players)
    if rec[seat] is not None:
        return rec[:seat] + (None,) + rec[seat + 1 :]
    return rec


def recorded(records: Records, num_players: int, turn: TurnRecord) -> Records:
    """The record once ``turn`` is over: its seat's entry replaced by it."""
    rec = padded(records, num_players)
    a = turn.seat
    return rec[:a] + (turn,) + rec[a + 1 :]
