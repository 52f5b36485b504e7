"""The plain data of an Awkward Guests game: :class:`GuestsData` (the fields of
:class:`~parlour.envs.awkward_guests.game.state.GuestsState`) and :class:`Bid`.

| name | what it is |
|---|---|
| :class:`GuestsData` | a dataclass of plain lists, sets, ints and two numpy arrays: hands, deck, piles, notebooks, the decision being taken, the turn in progress, the result; copying (``clone``, ``copy.deepcopy``, pickle) and read-only queries (seat order, hand values, card counts, the pending accusation) |
| :class:`Bid` | one bid of the turn in progress: bidder, cards, public value and count, status, payment |
| ``BID_PENDING``, ``BID_ACCEPTED``, ``BID_DECLINED`` | ``Bid.status`` |

Nothing here changes the game: the rules are functions over a :class:`GuestsData` in
:mod:`~.cards`, :mod:`~.exchange`, :mod:`~.accusation` and :mod:`~.turns`, and
:class:`~.state.GuestsState` is this data with the public methods (legality, ``apply``,
results).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Final, Self

import numpy as np

from ..case.case import Case
from .record import Records
from .rules import (
    D_ACC_MOTIVE,
    D_INQUIRY,
    D_MURDERER,
    D_NONE,
    DECISION_PHASE,
    DECISIONS,
    PHASES,
    GuestsConfig,
)
from .tables import CaseTables

__all__ = ["BID_PENDING", "BID_ACCEPTED", "BID_DECLINED", "Bid", "GuestsData"]

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


@dataclass
class GuestsData:
    """The fields of a game state (build a state with :func:`~.deal.new_game`).

    ``deck`` keeps the top card at the *end* of the list. ``hands[p]`` is sorted. ``seen`` is
    a ``(n, N)`` bool array (the notebooks), ``seen_log[p]`` the cards in the order ``p`` first
    saw them; ``known[p, c]`` is a bitmask of the seats ``p`` knows have seen card ``c``.
    """

    config: GuestsConfig
    tables: CaseTables
    rng: np.random.Generator
    hands: list[list[int]]
    deck: list[int]
    discard: list[int] = field(default_factory=list)
    revealed: list[int] = field(default_factory=list)
    table: list[int] = field(default_factory=list)  # solo: the deck's bid cards on the table
    out: list[bool] = field(default_factory=list)
    seen: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), bool))
    seen_log: list[list[int]] = field(default_factory=list)
    known: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.uint8))
    round: int = 1
    start: int = 0
    active: int = 0
    current: int = 0
    decision: int = D_INQUIRY
    turn_queue: list[int] = field(default_factory=list)
    asked: list[int] = field(default_factory=list)
    asked_bits: int = 0
    offer_queue: list[int] = field(default_factory=list)
    bids: list[Bid] = field(default_factory=list)
    answering: int = -1  # index into bids of the bid being answered / paid
    owed: int = 0  # value still to pay for the accepted bid
    selected: list[set[int]] = field(default_factory=list)
    solution_queue: list[int] = field(default_factory=list)
    accusations: dict[int, list[int]] = field(default_factory=dict)  # hidden
    discard_queue: list[int] = field(default_factory=list)
    result: str | None = None
    winners: list[int] = field(default_factory=list)
    newly_out: list[int] = field(default_factory=list)  # seats out in the last apply()
    #: every resolved accusation, in the order made: ``(round, seat, correct)`` (statistics;
    #: while the game runs it only holds wrong ones, i.e. who is out since when)
    accusation_log: list[tuple[int, int, bool]] = field(default_factory=list)
    #: what each entry of ``accusation_log`` named (the five indices of ``accusations``, the
    #: same order; hidden while the game runs: the web page shows them once it is over)
    accused: list[tuple[int, ...]] = field(default_factory=list)
    turns_taken: int = 0
    num_moves: int = 0
    #: per seat, bumped whenever that seat's hand, selection or ``known`` row changes
    #: (observers use it to cache the hand encoding)
    hand_version: list[int] = field(default_factory=list)
    #: public record: per seat, its most recent finished turn (immutable; see :mod:`~.record`)
    last_turns: Records = ()

    # -- copying ------------------------------------------------------------------------

    def clone(self, memo: dict | None = None) -> Self:
        """An independent copy of the same class (the case and its tables are shared: they
        are immutable). ``memo``: a ``copy.deepcopy`` memo, so that a generator the state
        shares with its holder (the env's) stays shared in the holder's copy."""
        new = copy.copy(self)
        new.rng = copy.deepcopy(self.rng, memo)
        new.hands = [list(h) for h in self.hands]
        new.deck = list(self.deck)
        new.discard = list(self.discard)
        new.revealed = list(self.revealed)
        new.table = list(self.table)
        new.out = list(self.out)
        new.seen = self.seen.copy()
        new.seen_log = [list(x) for x in self.seen_log]
        new.known = self.known.copy()
        new.turn_queue = list(self.turn_queue)
        new.asked = list(self.asked)
        new.offer_queue = list(self.offer_queue)
        new.bids = [
            Bid(b.seat, list(b.cards), b.value, b.count, b.status, list(b.payment))
            for b in self.bids
        ]
        new.selected = [set(s) for s in self.selected]
        new.solution_queue = list(self.solution_queue)
        new.accusations = {p: list(a) for p, a in self.accusations.items()}
        new.discard_queue = list(self.discard_queue)
        new.winners = list(self.winners)
        new.newly_out = list(self.newly_out)
        new.accusation_log = list(self.accusation_log)  # (tuples are immutable)
        new.accused = list(self.accused)
        new.hand_version = list(self.hand_version)
        new.last_turns = self.last_turns  # public record: immutable, so copies share it
        return new

    def __deepcopy__(self, memo: dict) -> Self:
        new = self.clone(memo)
        memo[id(self)] = new
        return new

    # -- basic queries ------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return self.config.num_players

    @property
    def case(self) -> Case:
        return self.tables.case

    @property
    def phase(self) -> int:
        """The public phase (index into :data:`PHASES`)."""
        return DECISION_PHASE[self.decision]

    @property
    def phase_name(self) -> str:
        return PHASES[DECISION_PHASE[self.decision]]

    @property
    def decision_name(self) -> str:
        return DECISIONS[self.decision]

    @property
    def is_terminal(self) -> bool:
        return self.decision == D_NONE

    @property
    def current_player(self) -> int:
        """The seat to decide, or ``-1`` once the game is over."""
        return -1 if self.decision == D_NONE else self.current

    @property
    def remaining(self) -> list[int]:
        return [p for p in range(self.config.num_players) if not self.out[p]]

    @property
    def truncated(self) -> bool:
        return self.result == "truncated"

    def order_from(self, seat: int, include: bool = True) -> list[int]:
        """Remaining seats in play order starting at ``seat`` (or after it, without it)."""
        n = self.config.num_players
        first = 0 if include else 1
        return [(seat + k) % n for k in range(first, n) if not self.out[(seat + k) % n]]

    def card_id(self, k: int) -> int:
        return self.tables.ids[k]

    def hand_ids(self, seat: int) -> list[int]:
        ids = self.tables.ids
        return [ids[k] for k in self.hands[seat]]

    def hand_value(self, seat: int) -> int:
        v = self.tables.values
        return sum(v[k] for k in self.hands[seat])

    def card_total(self) -> int:
        """All cards wherever they are (hands, deck, discard, revealed, table)."""
        return (
            sum(len(h) for h in self.hands)
            + len(self.deck)
            + len(self.discard)
            + len(self.revealed)
            + len(self.table)
        )

    def pending_accusation(self, seat: int) -> list[int] | None:
        """The partial accusation of ``seat`` while they are making it (hidden from others)."""
        if self.current == seat and D_MURDERER <= self.decision <= D_ACC_MOTIVE:
            return self.accusations.get(seat)
        return None
