"""Awkward Guests — the structured, read-only view of what one player may know.

``env.unwrapped.player_view(agent)`` returns a :class:`GuestsView`: exactly the information the
observation vector encodes for that agent, as immutable tuples in **absolute seats**
(``view.seat`` is the viewer): their hand (with each card's facts), their notebook (every card
they have seen, in the order they first saw it), the public table (with the public record of
every seat's last turn, ``last_turns``), and their own pending decision. It never holds another
player's hand, the deck order, the solution, or anyone else's pending accusation. Scripted
agents read it; they never read the engine state.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from . import actions as A
from . import game as G
from .case.cards import Card
from .game.record import BidRecord, padded

BID_STATUS = ("pending", "accepted", "declined")


@dataclass(frozen=True)
class HandCard:
    """A card in the viewer's hand: ``slot`` is its ``CARD`` index."""

    slot: int
    card: Card
    selected: bool  # offered / promised as payment / chosen to discard
    seen_by: tuple[int, ...]  # other seats the viewer knows have seen it

    @property
    def id(self) -> int:
        return self.card.id

    @property
    def value(self) -> int:
        return self.card.value

    @property
    def refs(self) -> tuple[str, ...]:
        return self.card.refs


@dataclass(frozen=True)
class BidView:
    seat: int  # -1: the solo deck
    value: int
    count: int
    status: str  # "pending", "accepted", "declined"
    answering: bool  # the active player is answering (or paying for) this bid now


@dataclass(frozen=True)
class PastTurn:
    """A seat's most recent finished turn (:class:`~parlour.envs.awkward_guests.game.record.TurnRecord`)
    as the view gives it: references by name."""

    seat: int
    round: int
    turn: int  # the game's turn number (0 for the first turn of the game)
    asked: tuple[str, ...]
    bids: tuple[BidRecord, ...]


@dataclass(frozen=True)
class PendingAccusation:
    """The viewer's own accusation in progress (``None`` fields: not chosen yet;
    ``accomplice == "none"``: no accomplice named)."""

    murderer: str | None
    motive: str | None
    weapon: str | None
    accomplice: str | None


@dataclass(frozen=True)
class GuestsView:
    seat: int
    num_players: int
    level: str
    accomplice_possible: bool
    round: int
    max_rounds: int
    phase: str
    decision: str  # the viewer's own pending decision, "none" when someone else decides
    current_player: int  # who decides now (-1 once the game is over)
    active_player: int  # whose turn it is (-1 outside the turns)
    start_player: int
    legal_actions: tuple[int, ...]  # the viewer's legal actions (empty when not deciding)
    hand: tuple[HandCard, ...]
    notebook: tuple[Card, ...]  # every card the viewer has seen, in the order first seen
    asked: tuple[str, ...]  # references asked this turn
    bids: tuple[BidView, ...]
    hand_sizes: tuple[int, ...]
    out: tuple[bool, ...]
    deck_size: int
    discard_size: int
    revealed: tuple[int, ...]  # card ids on the public revealed pile
    owed: int  # value still to pay (viewer paying), else 0
    to_discard: int  # cards still to choose (viewer discarding), else 0
    pending_accusation: PendingAccusation | None
    result: str | None
    winners: tuple[int, ...]
    #: per seat (absolute), the public record of its most recent finished turn (``None``: no
    #: record — no turn yet, or its turn is in progress): asked references and per bid the
    #: bidder, value, count, accepted and cards paid, never which cards
    last_turns: tuple[PastTurn | None, ...] = ()

    @property
    def is_my_turn(self) -> bool:
        return self.current_player == self.seat

    @property
    def hand_ids(self) -> tuple[int, ...]:
        return tuple(h.card.id for h in self.hand)

    @property
    def facts(self) -> tuple[dict, ...]:
        """Every fact in the notebook (card by card, in the order seen)."""
        return tuple(f for c in self.notebook for f in c.facts)


def _pending(state: G.GuestsState, seat: int) -> PendingAccusation | None:
    part = state.pending_accusation(seat)
    if part is None:
        return None
    names: list[str | None] = [None, None, None, None]
    tables = (A.SUSPECTS, A.MOTIVES, A.WEAPONS, A.SUSPECTS)
    for j, v in enumerate(part[:4]):
        names[j] = "none" if (j == 3 and v < 0) else tables[j][v]
    return PendingAccusation(*names)


def _past_turns(state: G.GuestsState) -> tuple[PastTurn | None, ...]:
    """The public record of every seat's last turn (absolute seats; references named)."""
    return tuple(
        None
        if t is None
        else PastTurn(t.seat, t.round, t.turn, tuple(A.REFERENCES[r] for r in t.asked), t.bids)
        for t in padded(state.last_turns, state.num_players)
    )


@functools.cache
def _seen_by(n: int, seat: int) -> tuple[tuple[int, ...], ...]:
    """``table[bits]``: the other seats set in a ``known`` bitmask (one bit per seat)."""
    return tuple(
        tuple(q for q in range(n) if q != seat and bits >> q & 1)
        for bits in range(1 << G.MAX_PLAYERS)
    )


def make_view(state: G.GuestsState, seat: int) -> GuestsView:
    n = state.num_players
    t = state.tables
    mine = state.current_player == seat
    d = state.decision
    sel = state.selected[seat]
    known = state.known[seat].tolist()
    seen_by = _seen_by(n, seat)
    cards = t.view_cards
    hand = tuple(
        HandCard(slot=i, card=cards[c], selected=c in sel, seen_by=seen_by[known[c]])
        for i, c in enumerate(state.hands[seat])
    )
    in_turn = d < G.D_SOLUTION
    bids = tuple(
        BidView(
            seat=b.seat,
            value=b.value,
            count=b.count,
            status=BID_STATUS[b.status],
            answering=k == state.answering and d in (G.D_ANSWER, G.D_PAY),
        )
        for k, b in enumerate(state.bids)
    )
    return GuestsView(
        seat=seat,
        num_players=n,
        level=t.level,
        accomplice_possible=t.accomplice_possible,
        round=state.round,
        max_rounds=state.config.max_rounds,
        phase=state.phase_name,
        decision=G.DECISIONS[d] if mine else "none",
        current_player=state.current_player,
        active_player=state.active if in_turn else -1,
        start_player=state.start,
        legal_actions=tuple(state.legal_actions()) if mine else (),
        hand=hand,
        notebook=tuple(t.view_cards[c] for c in state.seen_log[seat]),
        asked=tuple(A.REFERENCES[r] for r in state.asked),
        bids=bids,
        hand_sizes=tuple(len(h) for h in state.hands),
        out=tuple(state.out),
        deck_size=len(state.deck),
        discard_size=len(state.discard),
        revealed=tuple(t.ids[c] for c in state.revealed),
        owed=state.owed if mine and d == G.D_PAY else 0,
        to_discard=(len(state.hands[seat]) - len(sel) - G.KEEP_AFTER_DISCARD)
        if mine and d == G.D_DISCARD
        else 0,
        pending_accusation=_pending(state, seat),
        result=state.result,
        winners=tuple(state.winners),
        last_turns=_past_turns(state),
    )
