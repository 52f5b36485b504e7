"""The game state of Awkward Guests: :class:`GuestsState` (rules: :mod:`parlour.envs.awkward_guests.game`).

A plain, copyable dataclass: the hands, deck, piles, notebooks and the decision being taken.
This module holds the state's fields, copying, queries, legality, :meth:`GuestsState.apply`
(which dispatches each decision), the notebooks (``_see``, ``_reveal``), the card moves
(drawing, reshuffling, hands) and the flow of turns and rounds (start and end of a turn, the
Discard phase, the next round). The inquiry/offer/exchange decisions come from
:class:`~.exchange.ExchangeMixin`, the Solution phase and the results from
:class:`~.accusation.AccusationMixin`.
"""

from __future__ import annotations

import bisect
import copy
from dataclasses import dataclass, field

import numpy as np

from parlour.envs._checks import is_int

from .. import actions as A
from .. import public_record  # public record: the last turn of every seat
from ..case.case import Case
from .accusation import AccusationMixin
from .exchange import Bid, ExchangeMixin
from .rules import (
    D_ACC_MOTIVE,
    D_ACCOMPLICE,
    D_ANSWER,
    D_DISCARD,
    D_INQUIRY,
    D_MOTIVE,
    D_MURDERER,
    D_NONE,
    D_OFFER,
    D_PAY,
    D_SOLUTION,
    D_WEAPON,
    DECISION_PHASE,
    DECISIONS,
    HAND_SIZE,
    KEEP_AFTER_DISCARD,
    MASK_ACCOMPLICE,
    MASK_MOTIVES_OF,
    MASK_SUSPECTS,
    MASK_WEAPONS,
    MASK_YES_NO,
    MOTIVES_OF,
    PHASES,
    REVEAL_ON_RESHUFFLE,
    GuestsConfig,
    IllegalActionError,
)
from .tables import CaseTables

__all__ = ["GuestsState", "TURN_DECISIONS"]

#: The decisions of a turn's inquiry, offers and exchange (:class:`~.exchange.ExchangeMixin`).
TURN_DECISIONS = frozenset({D_INQUIRY, D_OFFER, D_ANSWER, D_PAY})


@dataclass
class GuestsState(ExchangeMixin, AccusationMixin):
    """A plain, copyable game state. Build one with :func:`new_game`.

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
    turns_taken: int = 0
    num_moves: int = 0
    #: per seat, bumped whenever that seat's hand, selection or ``known`` row changes
    #: (observers use it to cache the hand encoding)
    hand_version: list[int] = field(default_factory=list)
    #: public record: per seat, its most recent finished turn (immutable; see public_record)
    last_turns: tuple[public_record.TurnRecord | None, ...] = ()

    # -- copying ------------------------------------------------------------------------

    def clone(self, memo: dict | None = None) -> GuestsState:
        """An independent copy (the case and its tables are shared: they are immutable).
        ``memo``: a ``copy.deepcopy`` memo, so that a generator the state shares with its
        holder (the env's) stays shared in the holder's copy."""
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
        new.hand_version = list(self.hand_version)
        new.last_turns = self.last_turns  # public record: immutable, so copies share it
        return new

    def __deepcopy__(self, memo: dict) -> GuestsState:
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

    # -- legality -----------------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        """Legal action ids in ascending order (empty once the game is over)."""
        d = self.decision
        if d == D_INQUIRY:
            asked = self.asked
            return [A.REF_0 + r for r in range(A.NUM_REFS) if r not in asked]
        if d == D_OFFER:
            am = self.asked_bits
            sel = self.selected[self.current]
            rm = self.tables.refmask
            acts = [
                A.CARD_0 + i
                for i, c in enumerate(self.hands[self.current])
                if rm[c] & am and c not in sel
            ]
            acts.append(A.NO)
            return acts
        if d == D_ANSWER:
            return [A.YES, A.NO] if self._can_accept() else [A.NO]
        if d in (D_PAY, D_DISCARD):
            sel = self.selected[self.current]
            return [A.CARD_0 + i for i, c in enumerate(self.hands[self.current]) if c not in sel]
        if d == D_SOLUTION:
            return [A.YES, A.NO]
        if d == D_MURDERER:
            return [A.SUSPECT_0 + s for s in range(len(A.SUSPECTS))]
        if d == D_MOTIVE:
            return [A.MOTIVE_0 + m for m in MOTIVES_OF[self.accusations[self.current][0]]]
        if d == D_WEAPON:
            return [A.WEAPON_0 + w for w in range(len(A.WEAPONS))]
        if d == D_ACCOMPLICE:
            m = self.accusations[self.current][0]
            return [A.SUSPECT_0 + s for s in range(len(A.SUSPECTS)) if s != m] + [A.NO_ACCOMPLICE]
        if d == D_ACC_MOTIVE:
            return [A.MOTIVE_0 + m for m in MOTIVES_OF[self.accusations[self.current][3]]]
        return []

    def legal_mask(self, out: np.ndarray | None = None) -> np.ndarray:
        """Legal actions as an ``int8`` mask of length 95 (written into ``out`` if given)."""
        d = self.decision
        const = None
        if d == D_SOLUTION:
            const = MASK_YES_NO
        elif d == D_MURDERER:
            const = MASK_SUSPECTS
        elif d == D_WEAPON:
            const = MASK_WEAPONS
        elif d == D_MOTIVE:
            const = MASK_MOTIVES_OF[self.accusations[self.current][0]]
        elif d == D_ACCOMPLICE:
            const = MASK_ACCOMPLICE[self.accusations[self.current][0]]
        elif d == D_ACC_MOTIVE:
            const = MASK_MOTIVES_OF[self.accusations[self.current][3]]
        if const is not None:
            if out is None:
                return const.copy()
            np.copyto(out, const)
            return out
        if out is None:
            mask = np.zeros(A.NUM_ACTIONS, np.int8)
        else:
            mask = out
            mask.fill(0)
        legal = self.legal_actions()
        if legal:
            mask[legal] = 1
        return mask

    # -- transitions --------------------------------------------------------------------

    def apply(self, action: int) -> None:
        """Apply ``action`` for :attr:`current_player`.

        Raises :class:`IllegalActionError` (and changes nothing) if it is not legal.
        """
        legal = self.legal_actions()
        if not is_int(action) or int(action) not in legal:
            name = A.action_name(action) if is_int(action) else "not an int"
            raise IllegalActionError(
                f"illegal action {action!r} ({name}) for seat {self.current} "
                f"in phase {self.phase_name!r} (decision {self.decision_name!r}); "
                f"legal: {[A.action_name(a) for a in legal]}"
            )
        a = int(action)
        self.num_moves += 1
        self.newly_out = []
        d = self.decision
        if d in TURN_DECISIONS:
            self._apply_turn_decision(d, self.current, a)
        elif d == D_DISCARD:
            self._apply_discard(self.current, a)
        else:
            self._apply_accusation_decision(d, self.current, a)

    # -- knowledge ----------------------------------------------------------------------

    def _see(self, p: int, cards: list[int]) -> None:
        self.hand_version[p] += 1
        seen = self.seen[p]
        log = self.seen_log[p]
        known = self.known[p]
        bit = 1 << p
        for c in cards:
            if not seen[c]:
                seen[c] = True
                log.append(c)
            known[c] |= bit

    def _reveal(self, cards: list[int]) -> None:
        """Cards shown to every remaining player (and everyone knows it)."""
        allbits = (1 << self.config.num_players) - 1
        for p in self.remaining:
            self._see(p, cards)
            for c in cards:
                self.known[p, c] = allbits

    # -- turns and rounds ---------------------------------------------------------------

    def _start_turn(self) -> None:
        self.active = self.turn_queue.pop(0)
        self.current = self.active
        self.asked = []
        self.asked_bits = 0
        self.bids = []
        self.answering = -1
        self.decision = D_INQUIRY
        public_record.on_turn_start(self)  # public record: clear the new active seat's record

    def _end_turn(self) -> None:
        public_record.on_turn_end(self)  # public record: the turn (asks, bids, trades) is over
        self.turns_taken += 1
        self.bids = []
        self.answering = -1
        self.owed = 0
        if self.turn_queue:
            self._start_turn()
        else:
            self.asked = []
            self.asked_bits = 0
            self._start_solution_phase()

    def _start_discard_phase(self) -> None:
        self.discard_queue = [
            p for p in self.order_from(self.start) if len(self.hands[p]) > KEEP_AFTER_DISCARD
        ]
        self._next_discarder()

    def _next_discarder(self) -> None:
        if self.discard_queue:
            self.current = self.discard_queue.pop(0)
            self.decision = D_DISCARD
        else:
            self._new_round()

    def _new_round(self) -> None:
        self.start = (self.order_from(self.start, include=False) or [self.start])[0]
        for p in self.order_from(self.start):
            self._draw_to(p, HAND_SIZE - len(self.hands[p]))
        self.round += 1
        self.turn_queue = self.order_from(self.start)
        self._start_turn()

    def _apply_discard(self, p: int, a: int) -> None:
        """Seat ``p`` picks one more card to discard; once only the cards to keep are left
        unpicked, the picked ones go to the discard pile."""
        sel = self.selected[p]
        sel.add(self.hands[p][a - A.CARD_0])
        self.hand_version[p] += 1
        if len(self.hands[p]) - len(sel) <= KEEP_AFTER_DISCARD:
            self.discard.extend(sorted(sel))
            self.hands[p] = [c for c in self.hands[p] if c not in sel]
            sel.clear()
            self.hand_version[p] += 1
            self._next_discarder()

    # -- drawing ------------------------------------------------------------------------

    def _draw_card(self) -> int | None:
        if not self.deck:
            self._reshuffle()
            if not self.deck:
                return None
        return self.deck.pop()

    def _draw_to(self, p: int, k: int) -> None:
        got = []
        for _ in range(max(0, k)):
            c = self._draw_card()
            if c is None:
                break
            got.append(c)
        if got:
            self._see(p, got)
            self._add_to_hand(p, got)

    def _reshuffle(self) -> None:
        """The discard pile becomes the deck; its top 3 cards are revealed to all."""
        if not self.discard:
            return
        pile = self.discard
        perm = self.rng.permutation(len(pile))
        order = [pile[int(i)] for i in perm]  # top first
        self.discard = []
        shown = order[:REVEAL_ON_RESHUFFLE]
        self.revealed.extend(shown)
        self._reveal(shown)
        rest = order[REVEAL_ON_RESHUFFLE:]
        rest.reverse()
        self.deck = rest

    def _add_to_hand(self, p: int, cards: list[int]) -> None:
        self.hand_version[p] += 1
        h = self.hands[p]
        for c in cards:
            bisect.insort(h, c)

    def _remove_from_hand(self, p: int, cards: list[int]) -> None:
        if cards:
            self.hand_version[p] += 1
            drop = set(cards)
            self.hands[p] = [c for c in self.hands[p] if c not in drop]
