"""Audition — the pure rules engine (no gymnasium / pettingzoo import).

This module is the single source of truth for the rules of Audition (999 Games, Robert
Brouwer) as written in ``docs/rules/audition.md``. The PettingZoo adapter
(:mod:`parlour.envs.audition.env`) only encodes what this engine exposes.

Model
-----
* :mod:`parlour.envs.audition.constants` — the vocabulary: numbers and the deck, scoring, slot
  kinds, action ids, phases (``PH_*``), :class:`IllegalActionError`, :func:`action_name`,
  :func:`win_rewards` and the config below. Every name there is re-exported here, so
  ``from parlour.envs.audition.rules import X`` (or ``rules as R``) is the one import needed.
  This module holds the game flow: the state, its legality and transitions, and the deal.
* :class:`AuditionConfig` (in ``constants``) — the table: player count (2–6), action cards (variant 1),
  uncertain counts (variant 2). Validated on construction (``ValueError`` naming the argument).
* :func:`new_game` — deals a game: shuffles the deck with the caller's ``np.random.Generator``
  (or takes a fixed deck order), removes 5 cards in variant 2, picks the start seat.
* :class:`AuditionState` — a plain, copyable state (Python lists + small numpy arrays):
  ``legal_actions()``, ``legal_mask()``, ``apply(action)``, ``scores()``, ``winners()``,
  ``returns()``, ``clone()``. It supports ``copy.deepcopy`` and ``pickle``. No randomness is
  used after :func:`new_game`: the whole future of a game is fixed by its deck order and
  the actions taken.

Actions (``Discrete(27)``, the same for every player count)
------------------------------------------------------------

| ids | name | meaning |
|---|---|---|
| 0–5 | ``TAKE s`` | take slot ``s`` with its musicians (or accept ``take_now``) |
| 6 | ``DRAW`` | draw the top card; the same player then places it |
| 7–12 | ``PLACE s`` | place the drawn card on slot ``s`` |
| 13 | ``PASS`` | take nothing in the final phase; decline ``discard_own`` / ``take_now`` |
| 14–26 | ``CHOOSE v`` | the musician number ``v = id − 13`` to pass left / discard |

Decisions and phases
--------------------

| phase | who acts | legal actions |
|---|---|---|
| ``turn`` | the next seat of the round that has not taken a slot | ``TAKE s`` (untaken, non-empty), ``DRAW`` (deck non-empty and an untaken slot has room) |
| ``place`` | the drawer | ``PLACE s`` (untaken slot with room) |
| ``take_now`` | the player who just placed on ``take_now`` | ``TAKE`` that slot, ``PASS`` |
| ``pass_left`` | the taker of ``pass_left`` | ``CHOOSE v`` for a number that came with the card |
| ``discard_one`` | the taker of ``discard_one`` | ``CHOOSE v`` for a number that came with the card |
| ``discard_own`` | the taker of ``discard_own`` (only if their collection was non-empty before) | ``CHOOSE v`` for a number held *before* the take, ``PASS`` |
| ``final`` | each player who had not taken a slot when the deck emptied, in order | ``TAKE s`` (untaken, non-empty), ``PASS`` |
| ``over`` | nobody | none |

Rulings (docs/rules/audition.md#rulings; decided where the published rules leave room)
--------------------------------------------------

* The drawn card is seen only by its drawer until it is placed face up (the other players'
  views count it as unseen meanwhile). Collections, slots and the discard row are public.
* In the final phase a player with no non-empty untaken slot is still asked (only ``PASS``
  is legal), as the rules say every such player "chooses once".
* ``draw_one`` puts the drawn card face up into the taker's collection (public).
* ``discard_own`` may discard a number the player held before the take even if the take
  brought more of the same number (cards of one number are identical).
* A round that ends with an empty deck ends the game (no final phase: nobody is left
  without a slot). Musicians left on slots at the end are not scored.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Final

import numpy as np

from parlour.envs.audition import constants

# every name of constants.__all__ is re-exported (the star); the engine's own uses, explicitly:
from parlour.envs.audition.constants import *  # noqa: F403
from parlour.envs.audition.constants import (
    ACTION_KINDS,
    CHOOSE_0,
    DRAW,
    K_CONDUCTOR,
    K_DISCARD_ONE,
    K_DISCARD_OWN,
    K_DRAW_ONE,
    K_PASS_LEFT,
    K_TAKE_NOW,
    MAX_NUMBER,
    NUM_ACTIONS,
    NUM_REMOVED_UNCERTAIN,
    PASS,
    PH_DISCARD_ONE,
    PH_DISCARD_OWN,
    PH_FINAL,
    PH_OVER,
    PH_PASS_LEFT,
    PH_PLACE,
    PH_TAKE_NOW,
    PH_TURN,
    PHASES,
    PLACE_0,
    SLOT_KINDS,
    TAKE_0,
    AuditionConfig,
    IllegalActionError,
    action_name,
    score_counts,
    win_rewards,
)

#: the engine's public names: the state and the deal (here), and every name of
#: :mod:`parlour.envs.audition.constants` (re-exported above: ``rules`` is the one import)
__all__ = ["AuditionState", "new_game", *constants.__all__]

_BOOLS: Final = (bool, np.bool_)
_INTS: Final = (int, np.integer)

# ----------------------------------------------------------------------------- state


@dataclass
class AuditionState:
    """A plain, copyable game state. Build one with :func:`new_game`.

    Card counts are numpy ``int16`` arrays indexed by musician number (index 0 unused).
    ``deck`` keeps the top card at the *end* of the list.
    """

    config: AuditionConfig
    slot_kinds: list[int]
    deck: list[int]
    removed: list[int]
    slots: np.ndarray  # (n, 14) musicians on each slot
    slot_size: list[int]
    slot_taken: list[bool]
    collections: np.ndarray  # (n, 14)
    discard: np.ndarray  # (14,)
    taken: list[bool]  # took a slot this round
    current: int
    start_player: int
    phase: int = PH_TURN
    drawn: int = 0  # the drawn card while placing, 0 otherwise
    pending_slot: int = -1  # slot of a take_now decision
    choice: np.ndarray = field(default_factory=lambda: np.zeros(MAX_NUMBER + 1, np.int16))
    final_queue: list[int] = field(default_factory=list)
    deck_emptied: bool = False  # the deck ran out during the current action
    in_final: bool = False  # the final phase has started
    emptied_by: int = -1
    last_taker: int = -1
    round: int = 1
    num_moves: int = 0
    # Derived caches, kept up to date by apply() (call refresh() after editing a state by hand):
    points: list[int] = field(default_factory=list)  # current points per seat
    quartet_counts: list[int] = field(default_factory=list)  # scoring quartets per seat
    public_unseen: np.ndarray = field(  # composition minus all face-up cards, per number
        default_factory=lambda: np.zeros(MAX_NUMBER + 1, np.int16)
    )
    capacities: tuple[int, ...] = ()  # musicians each slot holds (follows slot_kinds)
    _legal: list[int] | None = field(default=None, repr=False, compare=False)
    # Change stamps for incremental observers (the observation encoder): not game state.
    #: per slot, bumped whenever that slot's musicians, size or taken flag change
    slot_ver: list[int] = field(default_factory=list, repr=False, compare=False)
    #: per seat, bumped whenever that seat's collection (and so its points) changes
    coll_ver: list[int] = field(default_factory=list, repr=False, compare=False)
    #: bumped whenever ``public_unseen`` or ``discard`` changes
    pile_ver: int = field(default=0, repr=False, compare=False)
    #: bumped by every ``refresh()`` (a new state, or one edited by hand): everything changed
    epoch: int = field(default=0, repr=False, compare=False)

    def refresh(self) -> None:
        """Recompute the derived caches from the state (after building a state by hand)."""
        n = self.config.num_players
        self.epoch += 1
        if len(self.slot_ver) != n:
            self.slot_ver = [0] * n
            self.coll_ver = [0] * n
        sq = [score_counts(self.collections[p]) for p in range(n)]
        self.points = [x[0] for x in sq]
        self.quartet_counts = [x[1] for x in sq]
        face_up = self.collections.sum(axis=0) + self.slots.sum(axis=0) + self.discard
        self.public_unseen = (self.config.composition() - face_up).astype(np.int16)
        self.capacities = tuple(self.config.capacity(k) for k in self.slot_kinds)
        self._legal = None

    def _rescore(self, p: int) -> None:
        self.points[p], self.quartet_counts[p] = score_counts(self.collections[p].tolist())

    # -- basic queries ------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return self.config.num_players

    @property
    def is_terminal(self) -> bool:
        return self.phase == PH_OVER

    @property
    def current_player(self) -> int:
        """The seat to act, or ``-1`` once the game is over."""
        return -1 if self.phase == PH_OVER else self.current

    def slot_capacity(self, s: int) -> int:
        return self.capacities[s]

    def room_left(self, s: int) -> int:
        return self.slot_capacity(s) - self.slot_size[s]

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_legal"] = None  # a cache: not part of the game state
        return state

    def clone(self) -> AuditionState:
        """An independent copy (faster than ``copy.deepcopy``; same result)."""
        new = copy.copy(self)  # immutable fields (config, ints, bools) are shared safely
        for name in _LIST_FIELDS:
            setattr(new, name, list(getattr(self, name)))
        for name in _ARRAY_FIELDS:
            setattr(new, name, getattr(self, name).copy())
        return new

    # -- legality -----------------------------------------------------------------------

    def legal_mask(self, out: np.ndarray | None = None) -> np.ndarray:
        """Legal actions as an ``int8`` mask of length 27 (written into ``out`` if given)."""
        legal = tuple(self._legal_list())
        mask = _MASKS.get(legal)
        if mask is None:
            mask = np.zeros(NUM_ACTIONS, np.int8)
            mask[list(legal)] = 1
            mask.flags.writeable = False
            if len(_MASKS) < _MAX_MASKS:
                _MASKS[legal] = mask
        if out is None:
            return mask.copy()
        out[:] = mask
        return out

    def legal_actions(self) -> list[int]:
        """Legal action ids in ascending order (empty once the game is over)."""
        return list(self._legal_list())

    def _legal_list(self) -> list[int]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def _compute_legal(self) -> list[int]:
        ph = self.phase
        n = self.config.num_players
        taken, size, cap = self.slot_taken, self.slot_size, self.capacities
        if ph in (PH_TURN, PH_FINAL):
            acts = [s for s in range(n) if not taken[s] and size[s] > 0]
            if ph == PH_FINAL:
                acts.append(PASS)
            elif self.deck:
                for s in range(n):  # some untaken slot has room: DRAW
                    if not taken[s] and size[s] < cap[s]:
                        acts.append(DRAW)
                        break
            return acts
        if ph == PH_PLACE:
            return [PLACE_0 + s for s in range(n) if not taken[s] and size[s] < cap[s]]
        if ph == PH_TAKE_NOW:
            return [TAKE_0 + self.pending_slot, PASS]
        if ph in (PH_PASS_LEFT, PH_DISCARD_ONE, PH_DISCARD_OWN):
            acts = [CHOOSE_0 + v for v in range(1, MAX_NUMBER + 1) if self.choice[v] > 0]
            if ph == PH_DISCARD_OWN:
                acts.insert(0, PASS)
            return acts
        return []

    # -- transitions --------------------------------------------------------------------

    def apply(self, action: int) -> None:
        """Apply ``action`` for :attr:`current_player`.

        Raises :class:`IllegalActionError` (and changes nothing) if it is not legal.
        """
        legal = self._legal_list()
        not_int = type(action) is not int and (
            isinstance(action, _BOOLS) or not isinstance(action, _INTS)
        )
        if not_int:
            legal = ()  # not an int (a bool, a float, a string): never legal
        if action not in legal:
            legal = self._legal_list()
            name = "not an int" if not_int else action_name(int(action))
            raise IllegalActionError(
                f"illegal action {action!r} ({name}) "
                f"for seat {self.current} in phase {PHASES[self.phase]!r}; "
                f"legal: {[action_name(a) for a in legal]}"
            )
        action = int(action)
        self._legal = None  # the cached legal actions are stale from here on
        self.num_moves += 1
        ph = self.phase
        if ph in (PH_TURN, PH_FINAL):
            if action == DRAW:
                self.drawn = self.deck.pop()
                if not self.deck:
                    self._mark_deck_empty()
                self.phase = PH_PLACE
            elif action == PASS:  # final phase: take none
                self._end_action()
            else:
                self._take(action - TAKE_0)
        elif ph == PH_PLACE:
            s = action - PLACE_0
            self.slots[s, self.drawn] += 1
            self.slot_size[s] += 1
            self.public_unseen[self.drawn] -= 1
            self.slot_ver[s] += 1
            self.pile_ver += 1
            self.drawn = 0
            if self.slot_kinds[s] == K_TAKE_NOW:
                self.phase = PH_TAKE_NOW
                self.pending_slot = s
            else:
                self._end_action()
        elif ph == PH_TAKE_NOW:
            s = self.pending_slot
            self.pending_slot = -1
            if action == PASS:
                self._end_action()
            else:
                self._take(s)
        elif ph == PH_PASS_LEFT:
            v = action - CHOOSE_0
            left = (self.current + 1) % self.config.num_players
            self.collections[self.current, v] -= 1
            self.collections[left, v] += 1
            self._rescore(self.current)
            self._rescore(left)
            self.coll_ver[self.current] += 1
            self.coll_ver[left] += 1
            self.choice.fill(0)
            self._end_action()
        elif ph in (PH_DISCARD_ONE, PH_DISCARD_OWN):
            if action != PASS:
                v = action - CHOOSE_0
                self.collections[self.current, v] -= 1
                self.discard[v] += 1
                self._rescore(self.current)
                self.coll_ver[self.current] += 1
                self.pile_ver += 1
            self.choice.fill(0)
            self._end_action()

    def _mark_deck_empty(self) -> None:
        self.deck_emptied = True
        self.emptied_by = self.current

    def _take(self, s: int) -> None:
        p = self.current
        kind = self.slot_kinds[s]
        came = self.slots[s].copy()
        if kind == K_DISCARD_OWN:
            before = self.collections[p].copy()
        self.collections[p] += came
        self._rescore(p)
        self.slots[s].fill(0)
        self.slot_size[s] = 0
        self.slot_taken[s] = True
        self.slot_ver[s] += 1
        self.coll_ver[p] += 1
        self.taken[p] = True
        self.last_taker = p
        if kind == K_PASS_LEFT:
            self.phase = PH_PASS_LEFT
            self.choice[:] = came
            return
        if kind == K_DISCARD_ONE:
            self.phase = PH_DISCARD_ONE
            self.choice[:] = came
            return
        if kind == K_DISCARD_OWN and before.any():
            self.phase = PH_DISCARD_OWN
            self.choice[:] = before
            return
        if kind == K_DRAW_ONE and self.deck:
            card = self.deck.pop()
            self.collections[p, card] += 1
            self.public_unseen[card] -= 1
            self._rescore(p)
            self.pile_ver += 1
            if not self.deck:
                self._mark_deck_empty()
        self._end_action()

    def _end_action(self) -> None:
        """The current player's action (with its follow-up decisions) is complete."""
        n = self.config.num_players
        if self.in_final:  # a final-phase choice (and its follow-ups) is complete
            self._next_final()
            return
        if self.deck_emptied:
            self.deck_emptied = False
            self.in_final = True
            e = self.emptied_by
            self.final_queue = [(e + k) % n for k in range(1, n + 1) if not self.taken[(e + k) % n]]
            self._next_final()
            return
        if all(self.taken):
            self._new_round()
            return
        p = self.current
        for k in range(1, n + 1):
            q = (p + k) % n
            if not self.taken[q]:
                self.current = q
                break
        self.phase = PH_TURN

    def _next_final(self) -> None:
        if self.final_queue:
            self.current = self.final_queue.pop(0)
            self.phase = PH_FINAL
        else:
            self.phase = PH_OVER

    def _new_round(self) -> None:
        n = self.config.num_players
        if not self.deck:
            self.phase = PH_OVER
            return
        self.round += 1
        self.slots.fill(0)
        self.slot_size = [0] * n
        self.slot_taken = [False] * n
        self.slot_ver = [v + 1 for v in self.slot_ver]
        self.taken = [False] * n
        self.current = self.last_taker
        self.phase = PH_TURN

    # -- results ------------------------------------------------------------------------

    def scores(self) -> list[int]:
        """Current points of every seat (final once the game is over)."""
        return list(self.points)

    def quartets(self) -> list[int]:
        """Scoring quartets (exactly 4 of a number) of every seat."""
        return list(self.quartet_counts)

    def winners(self) -> list[int]:
        """Seats with the most points; ties broken by most scoring quartets; then shared."""
        pts = list(zip(self.points, self.quartet_counts, strict=True))
        best = max(pts)
        return [p for p, sq in enumerate(pts) if sq == best]

    def returns(self, mode: str = "win") -> list[float]:
        """Terminal rewards: ``"win"`` (zero-sum win reward) or ``"score"``."""
        if mode == "win":
            return win_rewards(self.config.num_players, self.winners())
        if mode == "score":
            s = self.scores()
            mean = sum(s) / len(s)
            return [(x - mean) / 10.0 for x in s]
        raise ValueError(f"reward mode must be 'win' or 'score', got {mode!r}")

    # -- derived public information ---------------------------------------------------

    def unseen_counts(self, observer: int) -> np.ndarray:
        """Initial composition minus everything ``observer`` can see (the face-up cards and,
        for the drawer, the drawn card): the deck, the removed cards and others' drawn card."""
        unseen = self.public_unseen.copy()
        if self.drawn and self.current == observer:
            unseen[self.drawn] -= 1
        return unseen

    def card_total(self) -> int:
        """All cards in the game, wherever they are (for conservation checks)."""
        return int(
            self.collections.sum()
            + self.slots.sum()
            + self.discard.sum()
            + len(self.deck)
            + len(self.removed)
            + (1 if self.drawn else 0)
        )


_LIST_FIELDS = (
    "slot_kinds",
    "deck",
    "removed",
    "slot_size",
    "slot_taken",
    "taken",
    "final_queue",
    "points",
    "quartet_counts",
    "slot_ver",
    "coll_ver",
)
_ARRAY_FIELDS = ("slots", "collections", "discard", "choice", "public_unseen")


#: read-only legal masks by legal-action tuple (``legal_mask`` hands out copies); bounded
_MASKS: dict[tuple[int, ...], np.ndarray] = {}
_MAX_MASKS = 8192

# ----------------------------------------------------------------------------- setup


def new_game(
    config: AuditionConfig,
    rng: np.random.Generator,
    deck: list[int] | None = None,
    start: int | None = None,
) -> AuditionState:
    """Deal a new game.

    ``deck`` (top card first) fixes the card order; it must be exactly the game's cards. With
    variant 2 the last 5 cards of that order are the removed ones. ``start`` fixes the start
    seat. Otherwise both are drawn from ``rng`` (the game's only source of randomness), as is
    the placement of a random number of action cards.
    """
    n = config.num_players
    ac = config.action_cards
    kinds = [K_CONDUCTOR] * n
    if isinstance(ac, int):
        if ac:
            chosen = rng.choice(len(ACTION_KINDS), size=ac, replace=False)
            where = rng.choice(n, size=ac, replace=False)
            for k, s in zip(chosen, where, strict=True):
                kinds[int(s)] = 1 + int(k)
    else:
        for s, k in enumerate(ac):
            kinds[s] = SLOT_KINDS.index(k)

    if deck is None:
        order = config.full_deck()
        perm = rng.permutation(len(order))
        cards = [order[i] for i in perm]
    else:
        if isinstance(deck, str | bytes) or not hasattr(deck, "__iter__"):
            raise ValueError(
                f"options['deck'] must be a list of musician numbers (top first), got {deck!r}"
            )
        cards = list(deck)
        if any(
            isinstance(c, bool | np.bool_) or not isinstance(c, int | np.integer) for c in cards
        ):
            raise ValueError(f"options['deck'] must hold ints (musician numbers), got {deck!r}")
        cards = [int(c) for c in cards]
        if sorted(cards) != config.full_deck():
            raise ValueError(
                f"options['deck'] must be exactly the {config.num_players}-player cards "
                f"(numbers 1..{config.top_number}, number k k times, {config.num_cards} cards)"
            )
    if start is None:
        start = int(rng.integers(n))
    elif isinstance(start, bool) or not isinstance(start, int | np.integer) or not 0 <= start < n:
        raise ValueError(f"options['start'] must be a seat in 0..{n - 1}, got {start!r}")

    removed: list[int] = []
    if config.uncertain_counts:
        removed = cards[-NUM_REMOVED_UNCERTAIN:]
        cards = cards[:-NUM_REMOVED_UNCERTAIN]
    cards.reverse()  # the top card is popped from the end
    state = AuditionState(
        config=config,
        slot_kinds=kinds,
        deck=cards,
        removed=removed,
        slots=np.zeros((n, MAX_NUMBER + 1), np.int16),
        slot_size=[0] * n,
        slot_taken=[False] * n,
        collections=np.zeros((n, MAX_NUMBER + 1), np.int16),
        discard=np.zeros(MAX_NUMBER + 1, np.int16),
        taken=[False] * n,
        current=int(start),
        start_player=int(start),
    )
    state.refresh()
    return state
