"""Helpers for Audition tests: fixed decks and scripted play on the engine."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from parlour.envs.audition import rules as R


def deck_with_top(num_players: int, top: list[int]) -> list[int]:
    """A full deck (top first) that starts with ``top``; the rest in ascending order."""
    rest = R.full_deck(num_players)
    for c in top:
        rest.remove(c)
    return list(top) + rest


def game(
    num_players: int = 2,
    top: list[int] | None = None,
    start: int = 0,
    action_cards=(),
    uncertain: bool = False,
    deck: list[int] | None = None,
) -> R.AuditionState:
    cfg = R.AuditionConfig(num_players, action_cards, uncertain)
    if deck is None:
        deck = deck_with_top(num_players, top or [])
    return R.new_game(cfg, np.random.default_rng(0), deck=deck, start=start)


def draw_place(state: R.AuditionState, slot: int) -> int:
    """The current player draws and places on ``slot``; returns the card."""
    state.apply(R.DRAW)
    card = state.drawn
    state.apply(R.PLACE_0 + slot)
    return card


def take(state: R.AuditionState, slot: int) -> None:
    state.apply(R.TAKE_0 + slot)


def choose(v: int) -> int:
    return R.CHOOSE_0 + v


def counts(*cards: int) -> list[int]:
    c = [0] * (R.MAX_NUMBER + 1)
    for x in cards:
        c[x] += 1
    return c


def simple_policy(state: R.AuditionState) -> int:
    """Deterministic play: draw and place on the first slot with room; take when forced;
    choose the smallest number; pass in the final phase and on optional decisions."""
    legal = state.legal_actions()
    if R.DRAW in legal:
        return R.DRAW
    place = [a for a in legal if R.PLACE_0 <= a < R.PASS]
    if place:
        return place[0]
    if R.PASS in legal:
        return R.PASS
    return legal[0]


@st.composite
def configs(draw, with_mini: bool = False) -> R.AuditionConfig:
    """A hypothesis strategy of tables: 2–6 players, action cards none / a count / a list,
    uncertain counts or not, and (``with_mini``) sometimes the mini table."""
    n = draw(st.integers(2, 6))
    ac = draw(
        st.one_of(
            st.just(()),
            st.integers(0, n),
            st.lists(st.sampled_from(R.ACTION_KINDS), unique=True, max_size=n).map(tuple),
        )
    )
    uncertain = draw(st.booleans())
    if with_mini and n == R.MIN_PLAYERS and not ac and not uncertain and draw(st.booleans()):
        return R.AuditionConfig(n, mini=True)
    return R.AuditionConfig(n, ac, uncertain)
