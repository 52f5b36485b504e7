"""Countdown — the pure rules of a tiny card game (no gymnasium / pettingzoo import).

A test game: small enough to read in a minute, with what a plug-in must handle — 2–3 seats,
hidden information (the other hands and the deck order) and shared wins.

| rule | |
|---|---|
| cards | values 1–4, :data:`COPIES` of each (16 cards), shuffled |
| setup | every seat is dealt ``hand_size`` cards (hidden from the others); the counter is ``start``; seat 0 begins |
| a turn | play one card from your hand face up: the counter drops by its value; then draw the top card (while the deck lasts) |
| exactly 0 | you win alone |
| below 0 | you bust: every other seat wins (a shared win) |
| empty hand | the seat to act has no card left: the game is a draw (nobody wins). It cannot happen while ``start`` is at most the deck's total value (the seat to act has the largest hand, so all hands are empty only once every card is played); the rule keeps a seat from ever having no move |

Actions: ``a`` plays a card of value ``VALUES[a]`` (legal when the hand holds one). Rewards are
zero-sum: winners share ``n/(n-1)``, everybody pays ``1/(n-1)``; a draw pays 0.

The state is a plain, copyable dataclass; everything random is drawn by :func:`new_game` (and
:func:`redeal_hidden`) from the caller's ``np.random.Generator``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

import numpy as np

VALUES: tuple[int, ...] = (1, 2, 3, 4)
COPIES = 4
MIN_PLAYERS, MAX_PLAYERS = 2, 3
#: hand sizes allowed (every seat is dealt this many cards)
MIN_HAND, MAX_HAND = 1, 4
DEFAULT_START = 21
DEFAULT_HAND = 3
#: the counter may start anywhere up to the value of the whole deck
MAX_START = COPIES * sum(VALUES)
NUM_ACTIONS = len(VALUES)
DECK_SIZE = COPIES * len(VALUES)


class IllegalActionError(ValueError):
    """An action that is not legal now (the state is left unchanged)."""


@dataclass
class CountdownState:
    """One game: the counter, the hands (card values per seat), the deck (top last)."""

    num_players: int
    start: int
    counter: int
    hands: list[list[int]]
    deck: list[int]
    played: list[int] = field(default_factory=list)
    current: int = 0  # the seat to act; -1 once the game is over
    winners: list[int] = field(default_factory=list)
    busted: int = -1  # the seat that went below 0, -1 if none

    @property
    def is_over(self) -> bool:
        return self.current < 0

    def legal_actions(self) -> list[int]:
        if self.is_over:
            return []
        hand = self.hands[self.current]
        return [a for a, v in enumerate(VALUES) if v in hand]

    def apply(self, action: int) -> None:
        """Play the card of ``VALUES[action]`` for the seat to act."""
        if action not in self.legal_actions():
            raise IllegalActionError(
                f"action {action!r} is not legal now; legal: {self.legal_actions()}"
            )
        seat, value = self.current, VALUES[action]
        self.hands[seat].remove(value)
        self.played.append(value)
        self.counter -= value
        if self.deck:
            self.hands[seat].append(self.deck.pop())
            self.hands[seat].sort()
        if self.counter == 0:
            self._end([seat])
        elif self.counter < 0:
            self.busted = seat
            self._end([p for p in range(self.num_players) if p != seat])
        else:
            self.current = (seat + 1) % self.num_players
            if not self.hands[self.current]:
                self._end([])  # nobody can go on: a draw

    def _end(self, winners: list[int]) -> None:
        self.winners = winners
        self.current = -1

    def rewards(self) -> list[float]:
        """The zero-sum final rewards (all 0 for a draw)."""
        n = self.num_players
        if not self.winners:
            return [0.0] * n
        share = n / (n - 1) / len(self.winners)
        return [(share if p in self.winners else 0.0) - 1.0 / (n - 1) for p in range(n)]

    def clone(self) -> CountdownState:
        return copy.deepcopy(self)


def check_config(num_players: int, start: int, hand_size: int) -> None:
    """``ValueError`` naming the first bad argument and its allowed values."""
    for name, value, lo, hi in (
        ("num_players", num_players, MIN_PLAYERS, MAX_PLAYERS),
        ("start", start, 1, MAX_START),
        ("hand_size", hand_size, MIN_HAND, MAX_HAND),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise ValueError(f"{name} must be an int in {lo}..{hi}, got {value!r}")


def new_game(
    num_players: int, start: int, hand_size: int, rng: np.random.Generator
) -> CountdownState:
    """A shuffled deal."""
    check_config(num_players, start, hand_size)
    deck = [v for v in VALUES for _ in range(COPIES)]
    rng.shuffle(deck)
    hands = [sorted(deck.pop() for _ in range(hand_size)) for _ in range(num_players)]
    return CountdownState(num_players, start, start, hands, deck)


def redeal_hidden(state: CountdownState, seat: int, rng: np.random.Generator) -> None:
    """Shuffle what ``seat`` cannot see — the other hands and the deck — among the same places
    (every hand keeps its size, the deck its size)."""
    others = [p for p in range(state.num_players) if p != seat]
    hidden = [v for p in others for v in state.hands[p]] + state.deck
    rng.shuffle(hidden)
    for p in others:
        size = len(state.hands[p])
        state.hands[p] = sorted(hidden[:size])
        hidden = hidden[size:]
    state.deck = hidden
