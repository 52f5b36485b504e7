"""Moving cards and noting them: the deck, the piles, the hands and the notebooks.

| function | what it does |
|---|---|
| :func:`see` | seat ``p`` notes cards in its notebook (``seen``, ``seen_log``) and knows it saw them (``known``) |
| :func:`reveal` | cards shown to every remaining player, and everyone knows it |
| :func:`draw_card` | the top card of the deck (reshuffling the discard pile into a new deck when it is empty), or ``None`` |
| :func:`draw_to` | seat ``p`` draws up to ``k`` cards into its hand and notes them |
| :func:`reshuffle` | the discard pile, shuffled with the game's generator, becomes the deck; its top 3 cards are revealed |
| :func:`add_to_hand`, :func:`remove_from_hand` | a hand stays sorted by card index; ``hand_version`` is bumped |
| :func:`to_bottom` | cards put under the deck (the first of them is drawn first again) |

Rulings: :mod:`parlour.envs.awkward_guests.game` (Notebooks, Empty deck).
"""

from __future__ import annotations

import bisect

from .data import GuestsData
from .rules import REVEAL_ON_RESHUFFLE

__all__ = [
    "see",
    "reveal",
    "draw_card",
    "draw_to",
    "reshuffle",
    "add_to_hand",
    "remove_from_hand",
    "to_bottom",
]


def see(state: GuestsData, p: int, cards: list[int]) -> None:
    """Seat ``p`` notes ``cards`` (and knows it has seen them)."""
    state.hand_version[p] += 1
    seen = state.seen[p]
    log = state.seen_log[p]
    known = state.known[p]
    bit = 1 << p
    for c in cards:
        if not seen[c]:
            seen[c] = True
            log.append(c)
        known[c] |= bit


def reveal(state: GuestsData, cards: list[int]) -> None:
    """Cards shown to every remaining player (and everyone knows it)."""
    allbits = (1 << state.config.num_players) - 1
    for p in state.remaining:
        see(state, p, cards)
        for c in cards:
            state.known[p, c] = allbits


def draw_card(state: GuestsData) -> int | None:
    """The top card of the deck (after a reshuffle if it is empty); ``None``: no card left."""
    if not state.deck:
        reshuffle(state)
        if not state.deck:
            return None
    return state.deck.pop()


def draw_to(state: GuestsData, p: int, k: int) -> None:
    """Seat ``p`` draws up to ``k`` cards into its hand (fewer when no card is left)."""
    got = []
    for _ in range(max(0, k)):
        c = draw_card(state)
        if c is None:
            break
        got.append(c)
    if got:
        see(state, p, got)
        add_to_hand(state, p, got)


def reshuffle(state: GuestsData) -> None:
    """The discard pile becomes the deck; its top 3 cards are revealed to all."""
    if not state.discard:
        return
    pile = state.discard
    perm = state.rng.permutation(len(pile))
    order = [pile[int(i)] for i in perm]  # top first
    state.discard = []
    shown = order[:REVEAL_ON_RESHUFFLE]
    state.revealed.extend(shown)
    reveal(state, shown)
    rest = order[REVEAL_ON_RESHUFFLE:]
    rest.reverse()
    state.deck = rest


def add_to_hand(state: GuestsData, p: int, cards: list[int]) -> None:
    state.hand_version[p] += 1
    h = state.hands[p]
    for c in cards:
        bisect.insort(h, c)


def remove_from_hand(state: GuestsData, p: int, cards: list[int]) -> None:
    if cards:
        state.hand_version[p] += 1
        drop = set(cards)
        state.hands[p] = [c for c in state.hands[p] if c not in drop]


def to_bottom(state: GuestsData, cards: list[int]) -> None:
    """``cards`` go under the deck, in their order (the first of them is drawn first again)."""
    if cards:
        state.deck[:0] = cards[::-1]
