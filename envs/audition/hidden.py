"""Audition — re-deal what one seat may not see (the conformance suite's leak check).

Everything in Audition is public (slots, collections, the discard row, who took what) except
three things, all of them cards that are face down for the seat:

| hidden from ``seat`` | re-dealt by :func:`redeal` |
|---|---|
| the order of the draw pile | yes: a uniform shuffle of the unseen cards |
| the variant-2 removed cards (which 5 numbers) | yes: drawn from the same shuffle |
| the card another player has drawn and not yet placed | yes: drawn from the same shuffle |

The seat's own drawn card (it sees it) is kept. The unseen cards are pooled — the draw pile, the
removed cards and another player's drawn card — shuffled with the caller's generator and dealt
back into the same places with the same sizes, so the result is a state that agrees with
everything the seat sees (its observation, its :class:`~parlour.envs.audition.view.AuditionView`,
the rendered table) and differs only in what it cannot know, as
:func:`parlour.envs.audition.determinize.determinize` samples it from a view. The state's
derived caches are recomputed (``refresh()``), so the env re-encodes every observation from
scratch.

``parlour.games`` names this function as Audition's ``hidden_redeal``; the conformance
suite (``tests/conformance/``) checks that the seat's observation is unchanged by it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parlour.envs.audition import rules as R


def redeal(raw_env: Any, seat: int, rng: np.random.Generator) -> None:
    """Shuffle the cards ``seat`` cannot see (deck order, removed cards, another player's
    drawn card) in the raw env's game, in place."""
    state: R.AuditionState = raw_env.game
    others_drawn = bool(state.drawn) and state.phase == R.PH_PLACE and state.current != seat
    pool = list(state.deck) + list(state.removed) + ([state.drawn] if others_drawn else [])
    order = [pool[int(i)] for i in rng.permutation(len(pool))]
    if others_drawn:
        state.drawn = order.pop()
    state.removed = order[: len(state.removed)]
    state.deck = order[len(state.removed) :]
    state.refresh()
