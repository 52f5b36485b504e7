"""Awkward Guests — the pure rules engine for a game on one case (no gymnasium / pettingzoo).

This module is the single source of truth for how a game of *Awkward Guests: The Walton Case*
is played (``shared/spec/awkward_guests.md`` §5, with the rulings below). The PettingZoo
adapter (:mod:`parlour.envs.awkward_guests.env`) and the solo Gymnasium env
(:mod:`parlour.envs.awkward_guests.solo`) only encode what this engine exposes.

Model
-----
* :class:`GuestsConfig` — the table: ``num_players`` (1–8) and ``max_rounds`` (default 30).
* :func:`new_game` — deals a game on a :class:`~parlour.envs.awkward_guests.case.Case`: shuffles the
  deck with the caller's ``np.random.Generator`` (or takes a fixed order of card ids, top
  first), deals 6 cards per seat in blocks (seat 0 the top 6, seat 1 the next 6, …) and picks
  the start seat.
* :class:`GuestsState` — a plain, copyable state: ``legal_actions()``, ``legal_mask()``,
  ``apply(action)`` (raises :class:`IllegalActionError` and changes nothing), ``returns()``,
  ``scores()``, ``winners``, ``clone()``; ``copy.deepcopy`` and ``pickle`` work (the case is
  immutable and shared by copies). The state owns the game's ``np.random.Generator`` (used
  only to reshuffle the discard pile), so a copy continues exactly like the original.

Cards are referred to internally by their **index** ``k`` = rank of the card id among the
case's ids (so "sorted by index" is "sorted by id"); :attr:`GuestsState.tables` maps both ways.

Phases and decisions
--------------------

| phase | decision | who | legal actions |
|---|---|---|---|
| ``inquiry`` | ``inquiry`` | the active (turn) player | ``REF r`` not yet asked; 2 refs (4 with 1–2 players) |
| ``offer`` | ``offer`` | each other remaining player holding a card that names an asked ref, in seat order from the active player's next seat | ``CARD i`` (unselected, naming an asked ref), ``NO`` (done; nothing selected = no bid) |
| ``exchange`` | ``answer`` | the active player, once per non-empty bid in seat order | ``YES`` (if affordable, see below), ``NO`` |
| ``exchange`` | ``pay`` | the active player after ``YES`` | ``CARD i`` not yet promised, until the bid's value is covered |
| ``solution`` | ``solution`` | each remaining player, in seat order from the start player | ``YES`` (accuse), ``NO`` (go on) |
| ``solution`` | ``murderer`` → ``motive`` → ``weapon`` | the accuser | ``SUSPECT``, then ``MOTIVE`` of that suspect, then ``WEAPON`` |
| ``solution`` | ``accomplice`` → ``accomplice_motive`` | the accuser (medium and harder only) | ``NO_ACCOMPLICE`` or ``SUSPECT`` ≠ murderer, then that suspect's ``MOTIVE`` |
| ``discard`` | ``discard`` | each remaining player with more than 3 cards, from the start player | ``CARD i`` (unselected) until 3 cards remain |
| ``over`` | ``none`` | nobody | none |

Rulings (decided here where §5 leaves room)
-------------------------------------------

* **Seats.** Everything runs from a player to seat ``i+1 mod n``, skipping players who are out.
  The offer order starts at the active player's next seat; the Solution and Discard phases and
  the refill start at the start player. A round is: every remaining player's turn (from the
  start player), the Solution phase, the Discard phase (then the start player moves to the
  next seat still in and everyone refills to 6, from the new start player on).
* **Hands** are sorted by card id; ``CARD i`` is the i-th card. A hand never holds more than
  32 cards: a bid whose trade could take the active player's or the bidder's hand past 32
  cannot be accepted, and draws stop at 32 (the rest stays in the deck).
* **Offers.** A player with no card naming an asked reference is skipped (no decision). A bid
  (value = sum of card values, card count) is public and final once made; its cards stay in
  the bidder's hand, marked *selected*, until the exchange ends.
* **Exchange.** ``YES`` is legal only if the active player's hand, minus cards already
  promised to earlier accepted bids (never counting cards to be received), is worth at least
  the bid, and neither hand can pass 32 cards (active: ``hand − promised − 1 + received``;
  bidder: ``hand − bid count + bid value``, as a payment stops as soon as it covers the bid,
  so it has at most ``value`` cards). After ``YES`` the active player picks ``CARD``\\ s
  until the bid is covered. When every bid is answered, all accepted trades happen at once.
  If nobody made a bid, the active player draws 3 (2 with 1–2 players, see below).
* **Notebooks.** Every card a player holds, receives, draws or is shown is noted in their
  notebook (``seen``; ``seen_log`` keeps the order) and is never forgotten. Each player also
  knows which other players have seen a card when they watched it happen (``known``): the
  giver and the receiver of a traded card, everyone for a revealed card.
* **Solution phase.** Decisions are taken one after another (seat order from the start
  player) but are hidden: nothing of a pending accusation is visible to anyone else. All
  correct accusers win together (the game ends). Otherwise every wrong accuser is out: their
  hand is shown to every remaining player and put on the public revealed pile, and a new
  Solution phase starts at once for those left. One player left (2+ players) wins. If every
  remaining player accused wrongly in the same phase, the game ends without a winner (a draw
  among them). Nobody accused: the Discard phase follows.
* **Round limit.** After the Solution phase of round ``max_rounds`` the game is truncated
  (no Discard phase).
* **Empty deck.** When a draw finds the deck empty, the discard pile is shuffled (with the
  game's generator) into a new deck whose top 3 cards are revealed to all (revealed pile, every
  remaining notebook); with no cards left anywhere, hands stay short.
* **Two players.** The inquiry names 4 references. Received cards (both directions) are
  read, noted and discarded at once; with no bid the active player draws 2, notes and discards
  them.
* **Solo** (1 player, our design): like two players with the deck as the other player. After
  the inquiry the top 5 cards of the deck are taken; those naming an asked reference form one
  bid (public value and count; the player answers ``YES``/``NO`` as usual), the others go to
  the bottom of the deck (in their order). Declined bid cards go to the bottom too; accepted
  bid cards are read, noted and discarded; the payment goes to the discard pile. No bid: draw
  2, note, discard. The last-player-left rule does not apply; the game ends at the first
  accusation or at the round limit.

Results and rewards
-------------------
``result`` is ``None`` while the game runs, then ``"win"`` (``winners`` non-empty), ``"draw"``
(everyone left accused wrongly together), ``"truncated"`` (round limit) or, solo only,
``"loss"`` (a wrong accusation). :meth:`returns` gives
each seat's total reward over the game, zero-sum for 2+ players (spec §6): a player who is out
gets ``−1/(n−1)``; with winners ``W`` everyone else gets ``−1/(n−1)`` and each winner
``n/((n−1)|W|) − 1/(n−1)``; in a draw or at truncation the ``m`` players still in share what
the ``k`` players out paid: ``k/((n−1)·m)`` each. Solo: ``+1 − 0.01 × rounds`` for a correct
accusation, ``−1`` for a wrong one, ``0`` at truncation.

``accusation_log`` lists every resolved accusation in the order made as ``(round, seat,
correct)`` (also the wrong ones of a phase that a correct accuser ends); it is only read for
statistics (the env's ``results()``), never by the rules.
"""

from __future__ import annotations

import bisect
import copy
import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import numpy as np

from . import actions as A
from .board import WALTON
from .case import Card, Case, Solution

# ----------------------------------------------------------------------------- constants

MIN_PLAYERS: Final = 1
MAX_PLAYERS: Final = 8
MAX_HAND: Final = A.MAX_HAND  # 32
HAND_SIZE: Final = 6
KEEP_AFTER_DISCARD: Final = 3
REVEAL_ON_RESHUFFLE: Final = 3
SOLO_LOOK: Final = 5
DEFAULT_MAX_ROUNDS: Final = 30
SOLO_ROUND_PENALTY: Final = 0.01

PHASES: Final = ("inquiry", "offer", "exchange", "solution", "discard", "over")
PH_INQUIRY, PH_OFFER, PH_EXCHANGE, PH_SOLUTION, PH_DISCARD, PH_OVER = range(len(PHASES))

DECISIONS: Final = (
    "inquiry",
    "offer",
    "answer",
    "pay",
    "solution",
    "murderer",
    "motive",
    "weapon",
    "accomplice",
    "accomplice_motive",
    "discard",
    "none",
)
(
    D_INQUIRY,
    D_OFFER,
    D_ANSWER,
    D_PAY,
    D_SOLUTION,
    D_MURDERER,
    D_MOTIVE,
    D_WEAPON,
    D_ACCOMPLICE,
    D_ACC_MOTIVE,
    D_DISCARD,
    D_NONE,
) = range(len(DECISIONS))

#: The public phase of each decision (an accusation in progress looks like "solution").
DECISION_PHASE: Final = (
    PH_INQUIRY,
    PH_OFFER,
    PH_EXCHANGE,
    PH_EXCHANGE,
    PH_SOLUTION,
    PH_SOLUTION,
    PH_SOLUTION,
    PH_SOLUTION,
    PH_SOLUTION,
    PH_SOLUTION,
    PH_DISCARD,
    PH_OVER,
)

RESULTS: Final = ("win", "draw", "truncated", "loss")

DECK_SEAT: Final = -1  # the "bidder" seat of the solo deck bid

_SUSPECTS = WALTON.suspects
_MOTIVES = tuple(m.id for m in WALTON.motives)
_WEAPONS = tuple(w.id for w in WALTON.weapons)
#: motive indices of each suspect (by suspect index)
MOTIVES_OF: Final = tuple(
    tuple(i for i, m in enumerate(WALTON.motives) if m.owner == s) for s in _SUSPECTS
)
_REF_INDEX = {r: i for i, r in enumerate(A.REFERENCES)}


def _const_mask(actions: list[int]) -> np.ndarray:
    m = np.zeros(A.NUM_ACTIONS, np.int8)
    m[actions] = 1
    m.flags.writeable = False
    return m


_MASK_YES_NO = _const_mask([A.YES, A.NO])
_MASK_SUSPECTS = _const_mask([A.SUSPECT_0 + s for s in range(len(_SUSPECTS))])
_MASK_WEAPONS = _const_mask([A.WEAPON_0 + w for w in range(len(_WEAPONS))])
_MASK_MOTIVES_OF = tuple(_const_mask([A.MOTIVE_0 + m for m in ms]) for ms in MOTIVES_OF)
_MASK_ACCOMPLICE = tuple(
    _const_mask([A.SUSPECT_0 + s for s in range(len(_SUSPECTS)) if s != m] + [A.NO_ACCOMPLICE])
    for m in range(len(_SUSPECTS))
)


class IllegalActionError(ValueError):
    """An action that is not legal in the current state (the state is left unchanged)."""


# ----------------------------------------------------------------------------- configuration


@dataclass(frozen=True)
class GuestsConfig:
    """The table's setup. Invalid values raise ``ValueError`` naming the argument."""

    num_players: int = 2
    max_rounds: int = DEFAULT_MAX_ROUNDS

    def __post_init__(self) -> None:
        n = self.num_players
        if (
            isinstance(n, bool)
            or not isinstance(n, int | np.integer)
            or not MIN_PLAYERS <= n <= MAX_PLAYERS
        ):
            raise ValueError(
                f"num_players must be an int in {MIN_PLAYERS}..{MAX_PLAYERS}, got {n!r}"
            )
        object.__setattr__(self, "num_players", int(n))
        r = self.max_rounds
        if isinstance(r, bool) or not isinstance(r, int | np.integer) or r < 1:
            raise ValueError(f"max_rounds must be an int >= 1, got {r!r}")
        object.__setattr__(self, "max_rounds", int(r))

    @property
    def refs_per_inquiry(self) -> int:
        return 4 if self.num_players <= 2 else 2

    @property
    def small(self) -> bool:
        """1–2 players: received cards are read, noted and discarded."""
        return self.num_players <= 2


# ----------------------------------------------------------------------------- case tables


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
        return tuple(copy.deepcopy(c) for c in self.cards)

    def __deepcopy__(self, memo: dict) -> CaseTables:
        return self  # immutable

    def __getstate__(self) -> dict:
        return {"case": self.case}

    def __setstate__(self, state: dict) -> None:
        self.__init__(state["case"])


_TABLES_CACHE: dict[int, CaseTables] = {}


def case_tables(case: Case) -> CaseTables:
    """The :class:`CaseTables` of a case (cached per case object)."""
    t = _TABLES_CACHE.get(id(case))
    if t is None or t.case is not case:
        t = CaseTables(case)
        if len(_TABLES_CACHE) > 256:
            _TABLES_CACHE.clear()
        _TABLES_CACHE[id(case)] = t
    return t


# ----------------------------------------------------------------------------- state


@dataclass
class Bid:
    """One bid of a turn: ``seat`` (``-1``: the solo deck), its cards (indices), public value
    and count, ``status`` (0 unanswered, 1 accepted, 2 declined) and the payment (indices)."""

    seat: int
    cards: list[int]
    value: int
    count: int
    status: int = 0
    payment: list[int] = field(default_factory=list)


@dataclass
class GuestsState:
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

    # -- copying ------------------------------------------------------------------------

    def clone(self) -> GuestsState:
        """An independent copy (the case and its tables are shared: they are immutable)."""
        new = copy.copy(self)
        new.rng = copy.deepcopy(self.rng)
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
        return new

    def __deepcopy__(self, memo: dict) -> GuestsState:
        return self.clone()

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

    @property
    def asked_mask(self) -> int:
        """Bitmask of the asked references (bit ``r`` for ``REF r``)."""
        return self.asked_bits

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
            return [A.SUSPECT_0 + s for s in range(len(_SUSPECTS))]
        if d == D_MOTIVE:
            return [A.MOTIVE_0 + m for m in MOTIVES_OF[self.accusations[self.current][0]]]
        if d == D_WEAPON:
            return [A.WEAPON_0 + w for w in range(len(_WEAPONS))]
        if d == D_ACCOMPLICE:
            m = self.accusations[self.current][0]
            return [A.SUSPECT_0 + s for s in range(len(_SUSPECTS)) if s != m] + [A.NO_ACCOMPLICE]
        if d == D_ACC_MOTIVE:
            return [A.MOTIVE_0 + m for m in MOTIVES_OF[self.accusations[self.current][3]]]
        return []

    def legal_mask(self, out: np.ndarray | None = None) -> np.ndarray:
        """Legal actions as an ``int8`` mask of length 95 (written into ``out`` if given)."""
        d = self.decision
        const = None
        if d == D_SOLUTION:
            const = _MASK_YES_NO
        elif d == D_MURDERER:
            const = _MASK_SUSPECTS
        elif d == D_WEAPON:
            const = _MASK_WEAPONS
        elif d == D_MOTIVE:
            const = _MASK_MOTIVES_OF[self.accusations[self.current][0]]
        elif d == D_ACCOMPLICE:
            const = _MASK_ACCOMPLICE[self.accusations[self.current][0]]
        elif d == D_ACC_MOTIVE:
            const = _MASK_MOTIVES_OF[self.accusations[self.current][3]]
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

    def _can_accept(self) -> bool:
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
        received = bid.count + sum(b.count for b in self.bids if b.status == 1)
        if len(hand) - len(promised) - 1 + received > MAX_HAND:
            return False
        return len(self.hands[bid.seat]) - bid.count + bid.value <= MAX_HAND

    # -- transitions --------------------------------------------------------------------

    def apply(self, action: int) -> None:
        """Apply ``action`` for :attr:`current_player`.

        Raises :class:`IllegalActionError` (and changes nothing) if it is not legal.
        """
        legal = self.legal_actions()
        ok = isinstance(action, int | np.integer) and not isinstance(action, bool)
        if not ok or int(action) not in legal:
            raise IllegalActionError(
                f"illegal action {action!r} ({A.action_name(action)}) for seat {self.current} "
                f"in phase {self.phase_name!r} (decision {self.decision_name!r}); "
                f"legal: {[A.action_name(a) for a in legal]}"
            )
        a = int(action)
        self.num_moves += 1
        self.newly_out = []
        d = self.decision
        p = self.current
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
                bid.status = 1
                self.owed = bid.value
                self.decision = D_PAY
            else:
                bid.status = 2
                self._next_answer()
        elif d == D_PAY:
            c = self.hands[p][a - A.CARD_0]
            self.selected[p].add(c)
            self.hand_version[p] += 1
            self.bids[self.answering].payment.append(c)
            self.owed -= self.tables.values[c]
            if self.owed <= 0:
                self.owed = 0
                self._next_answer()
        elif d == D_SOLUTION:
            if a == A.YES:
                self.accusations[p] = []
                self.decision = D_MURDERER
            else:
                self._next_solution_decider()
        elif d == D_MURDERER:
            self.accusations[p].append(a - A.SUSPECT_0)
            self.decision = D_MOTIVE
        elif d == D_MOTIVE:
            self.accusations[p].append(a - A.MOTIVE_0)
            self.decision = D_WEAPON
        elif d == D_WEAPON:
            self.accusations[p].append(a - A.WEAPON_0)
            if self.tables.accomplice_possible:
                self.decision = D_ACCOMPLICE
            else:
                self.accusations[p] += [-1, -1]
                self._next_solution_decider()
        elif d == D_ACCOMPLICE:
            if a == A.NO_ACCOMPLICE:
                self.accusations[p] += [-1, -1]
                self._next_solution_decider()
            else:
                self.accusations[p].append(a - A.SUSPECT_0)
                self.decision = D_ACC_MOTIVE
        elif d == D_ACC_MOTIVE:
            self.accusations[p].append(a - A.MOTIVE_0)
            self._next_solution_decider()
        elif d == D_DISCARD:
            sel = self.selected[p]
            sel.add(self.hands[p][a - A.CARD_0])
            self.hand_version[p] += 1
            if len(self.hands[p]) - len(sel) <= KEEP_AFTER_DISCARD:
                self.discard.extend(sorted(sel))
                self.hands[p] = [c for c in self.hands[p] if c not in sel]
                sel.clear()
                self.hand_version[p] += 1
                self._next_discarder()

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

    # -- turns --------------------------------------------------------------------------

    def _start_turn(self) -> None:
        self.active = self.turn_queue.pop(0)
        self.current = self.active
        self.asked = []
        self.asked_bits = 0
        self.bids = []
        self.answering = -1
        self.decision = D_INQUIRY

    def _start_offers(self) -> None:
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

    def _next_offerer(self) -> None:
        if self.offer_queue:
            self.current = self.offer_queue.pop(0)
            self.decision = D_OFFER
        else:
            self._start_exchange()

    def _close_offer(self, p: int) -> None:
        sel = self.selected[p]
        if sel:
            cards = sorted(sel)
            values = self.tables.values
            self.bids.append(Bid(p, cards, sum(values[c] for c in cards), len(cards)))
        self._next_offerer()

    def _solo_offer(self, am: int) -> None:
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

    def _to_bottom(self, cards: list[int]) -> None:
        if cards:
            self.deck[:0] = cards[::-1]  # the first of them is drawn first again

    def _start_exchange(self) -> None:
        self.current = self.active
        if not self.bids:
            self._no_offer_draw()
            self._end_turn()
            return
        self.answering = -1
        self._next_answer()

    def _next_answer(self) -> None:
        self.answering += 1
        if self.answering < len(self.bids):
            self.decision = D_ANSWER
            self.current = self.active
        else:
            self._resolve_trades()
            self._end_turn()

    def _resolve_trades(self) -> None:
        a = self.active
        small = self.config.small
        gained_a: list[int] = []
        for bid in self.bids:
            b = bid.seat
            if bid.seat == DECK_SEAT:  # solo
                if bid.status == 1:
                    self._see(a, bid.cards)
                    self.discard.extend(bid.cards)
                    self._remove_from_hand(a, bid.payment)
                    self.discard.extend(bid.payment)
                else:
                    self._to_bottom(bid.cards)
                self.table = []
                continue
            if bid.status != 1:
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

    def _no_offer_draw(self) -> None:
        a = self.active
        if self.config.small:
            drawn = []
            for _ in range(2):
                c = self._draw_card()
                if c is None:
                    break
                drawn.append(c)
            self._see(a, drawn)
            self.discard.extend(drawn)
        else:
            self._draw_to(a, min(3, MAX_HAND - len(self.hands[a])))

    def _end_turn(self) -> None:
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

    # -- Solution phase -----------------------------------------------------------------

    def _start_solution_phase(self) -> None:
        self.accusations = {}
        self.solution_queue = self.order_from(self.start)
        self._next_solution_decider()

    def _next_solution_decider(self) -> None:
        if self.solution_queue:
            self.current = self.solution_queue.pop(0)
            self.decision = D_SOLUTION
        else:
            self._resolve_solution()

    def accusation_solution(self, acc: list[int]) -> Solution:
        m, mu, w, a, al = acc
        return Solution(
            _SUSPECTS[m],
            _MOTIVES[mu],
            _WEAPONS[w],
            None if a < 0 else _SUSPECTS[a],
            None if al < 0 else _MOTIVES[al],
        )

    def _resolve_solution(self) -> None:
        truth = tuple(self.case.solution)
        accs = self.accusations
        self.accusations = {}
        correct = [p for p, acc in accs.items() if tuple(self.accusation_solution(acc)) == truth]
        wrong = sorted(p for p in accs if p not in correct)
        self.accusation_log.extend((self.round, p, p in correct) for p in accs)
        n = self.config.num_players
        if correct:
            self._finish("win", sorted(correct))
            return
        if wrong:
            if n == 1:
                self._finish("loss", [])
                return
            if len(wrong) == len(self.remaining):
                self._finish("draw", [])
                return
            for p in wrong:
                self.out[p] = True
                self.newly_out.append(p)
            for p in wrong:
                hand = self.hands[p]
                self.hands[p] = []
                self.selected[p].clear()
                self.hand_version[p] += 1
                self.revealed.extend(hand)
                self._reveal(hand)
            left = self.remaining
            if len(left) == 1:
                self._finish("win", left)
                return
            self._start_solution_phase()
            return
        if self.round >= self.config.max_rounds:
            self._finish("truncated", [])
            return
        self._start_discard_phase()

    def _finish(self, result: str, winners: list[int]) -> None:
        self.result = result
        self.winners = winners
        self.decision = D_NONE
        self.current = -1
        self.solution_queue = []
        self.discard_queue = []

    # -- Discard phase and the next round ----------------------------------------------

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

    # -- results ------------------------------------------------------------------------

    def returns(self) -> list[float]:
        """Each seat's total reward over the game (all zeros while it runs; see module docs)."""
        n = self.config.num_players
        if self.result is None:
            out = [0.0] * n
            if n > 1:
                for p in range(n):
                    if self.out[p]:
                        out[p] = -1.0 / (n - 1)
            return out
        if n == 1:
            if self.result == "win":
                return [1.0 - SOLO_ROUND_PENALTY * self.round]
            if self.result == "loss":  # wrong accusation
                return [-1.0]
            return [0.0]
        lose = -1.0 / (n - 1)
        if self.winners:
            share = n / (n - 1) / len(self.winners)
            return [share + lose if p in self.winners else lose for p in range(n)]
        k = sum(self.out)
        m = n - k
        return [lose if self.out[p] else k / ((n - 1) * m) for p in range(n)]

    def elimination_reward(self) -> float:
        """The reward a player gets when they are out (``−1/(n−1)``; 0 solo)."""
        n = self.config.num_players
        return -1.0 / (n - 1) if n > 1 else 0.0

    def scores(self) -> list[int]:
        """1 for a winner, 0 otherwise."""
        return [1 if p in self.winners else 0 for p in range(self.config.num_players)]

    @property
    def truncated(self) -> bool:
        return self.result == "truncated"

    # -- public bookkeeping used by observers --------------------------------------------

    def pending_accusation(self, seat: int) -> list[int] | None:
        """The partial accusation of ``seat`` while they are making it (hidden from others)."""
        if self.current == seat and D_MURDERER <= self.decision <= D_ACC_MOTIVE:
            return self.accusations.get(seat)
        return None


# ----------------------------------------------------------------------------- setup


def resolve_case(case: Case | str | Path) -> Case:
    """A :class:`Case` from a case object or a case file path (``ValueError`` if invalid)."""
    if isinstance(case, Case):
        return case
    if isinstance(case, str | Path):
        from .case import load_case

        return load_case(case)
    raise ValueError(f"options['case'] must be a Case or a path to a case file, got {case!r}")


def new_game(
    config: GuestsConfig,
    case: Case,
    rng: np.random.Generator,
    deck: list[int] | None = None,
    start: int | None = None,
) -> GuestsState:
    """Deal a new game on ``case``.

    ``deck`` (card ids, top first) fixes the deck order; it must be exactly the case's card
    ids. ``start`` fixes the start seat. Otherwise both are drawn from ``rng``, which the state
    keeps (for reshuffles).
    """
    tables = case_tables(case)
    n = config.num_players
    num = tables.num_cards
    if deck is None:
        order = [int(i) for i in rng.permutation(num)]  # indices, top first
    else:
        try:
            ids = [int(c) for c in deck]
        except (TypeError, ValueError):
            raise ValueError("options['deck'] must be a list of card ids (top first)") from None
        if sorted(ids) != list(tables.ids):
            raise ValueError(
                f"options['deck'] must be exactly the case's {num} card ids (top first), each once"
            )
        order = [tables.index[c] for c in ids]
    if start is None:
        start = int(rng.integers(n))
    elif isinstance(start, bool) or not isinstance(start, int | np.integer) or not 0 <= start < n:
        raise ValueError(f"options['start'] must be a seat in 0..{n - 1}, got {start!r}")
    start = int(start)
    order.reverse()  # top card at the end
    state = GuestsState(
        config=config,
        tables=tables,
        rng=rng,
        hands=[[] for _ in range(n)],
        deck=order,
        out=[False] * n,
        seen=np.zeros((n, num), bool),
        seen_log=[[] for _ in range(n)],
        known=np.zeros((n, num), np.uint8),
        selected=[set() for _ in range(n)],
        start=start,
        hand_version=[0] * n,
    )
    for p in range(n):
        state._draw_to(p, HAND_SIZE)
    state.turn_queue = state.order_from(start)
    state._start_turn()
    return state


def accusation_actions(solution: Solution, accomplice_possible: bool) -> list[int]:
    """The action ids of a full accusation of ``solution`` (after ``YES``)."""
    acts = [
        A.SUSPECT_0 + _SUSPECTS.index(solution.murderer),
        A.MOTIVE_0 + _MOTIVES.index(solution.motive),
        A.WEAPON_0 + _WEAPONS.index(solution.weapon),
    ]
    if accomplice_possible:
        if solution.accomplice is None:
            acts.append(A.NO_ACCOMPLICE)
        else:
            acts.append(A.SUSPECT_0 + _SUSPECTS.index(solution.accomplice))
            acts.append(A.MOTIVE_0 + _MOTIVES.index(solution.accomplice_motive))
    return acts
