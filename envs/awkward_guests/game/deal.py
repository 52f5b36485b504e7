"""Setting up a game.

| function | what it does |
|---|---|
| :func:`new_game` | deals a case to a table: shuffles (or takes a fixed deck order), deals 6 cards per seat in blocks, picks the start seat, starts the first turn |
| :func:`resolve_case` | a :class:`Case` from a case object or a (verified) case file |
| :func:`draw_deck_order`, :func:`draw_start` | the deal's two draws from the generator (the case prefetcher repeats them) |
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from parlour.envs._checks import is_int, require_int

from ..case.case import Case
from ..case.verify import verified_case
from . import cards, turns
from .rules import HAND_SIZE, GuestsConfig
from .state import GuestsState
from .tables import case_tables

__all__ = ["draw_deck_order", "draw_start", "new_game", "resolve_case"]


def resolve_case(case: Case | str | Path) -> Case:
    """A :class:`Case` from a case object or a case file path (a file: ``ValueError`` if it is
    malformed, or not sound and unique, as ``parlour case check`` says:
    :func:`~parlour.envs.awkward_guests.case.verify.verified_case`)."""
    if isinstance(case, Case):  # built in Python (e.g. a rule test's synthetic deck): trusted
        return case
    if isinstance(case, str | Path):
        try:
            return verified_case(case)
        except OSError as e:  # (missing, unreadable: a bad option, as cases=[...] reports it)
            raise ValueError(
                f"options['case']: cannot read the case file {str(case)!r} ({e})"
            ) from e
    raise ValueError(f"options['case'] must be a Case or a path to a case file, got {case!r}")


def draw_deck_order(rng: np.random.Generator, num_cards: int) -> list[int]:
    """The deal's shuffle: card indices, top first (the first draw of a deal from ``rng``)."""
    return [int(i) for i in rng.permutation(num_cards)]


def draw_start(rng: np.random.Generator, num_players: int) -> int:
    """The deal's start seat (the draw after the shuffle)."""
    return int(rng.integers(num_players))


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
        order = draw_deck_order(rng, num)
    else:
        if isinstance(deck, str | bytes) or not hasattr(deck, "__iter__"):
            raise ValueError(
                f"options['deck'] must be a list of card ids (top first), got {deck!r}"
            )
        deck = list(deck)
        if not all(is_int(c) for c in deck):
            raise ValueError(f"options['deck'] must hold ints (card ids), got {deck!r}")
        ids = [int(c) for c in deck]
        if sorted(ids) != list(tables.ids):
            raise ValueError(
                f"options['deck'] must be exactly the case's {num} card ids (top first), each once"
            )
        order = [tables.index[c] for c in ids]
    if start is None:
        start = draw_start(rng, n)
    else:
        start = require_int("options['start']", start, 0, n - 1, allowed=f"a seat in 0..{n - 1}")
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
        cards.draw_to(state, p, HAND_SIZE)
    state.turn_queue = state.order_from(start)
    turns.start_turn(state)
    return state
