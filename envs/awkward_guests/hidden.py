"""Awkward Guests — re-deal what one seat may not see (the conformance suite's leak check).

A seat knows the cards in its notebook (every card it has held, received, drawn or been shown)
and the public table: hand sizes, the bids' values and card counts, the pile sizes, the revealed
pile, the references asked. Hidden from it:

| hidden from ``seat`` | re-dealt by :func:`redeal` |
|---|---|
| the other players' hands (cards it has not seen) | yes |
| the order and content of the deck | yes |
| the content of the discard pile (cards it has not seen) | yes |
| the order of future reshuffles (the game's generator) | yes: re-seeded |
| the cards of a pending bid, payment or solo deck bid | no: kept (their value and count are public) |
| another player's pending accusation | no: kept |
| the solution | no: kept (it must stay the solution of the case's cards) |

Every card the seat has not seen that is not part of a pending bid is **relabelled** by a
uniform random permutation of those cards, everywhere at once: in the other hands (which stay
sorted), the deck, the discard pile and the other players' notebooks (``seen``, ``seen_log``,
``known``). Cards keep their positions; what changes is which card of the case is there. Each
other player's record therefore stays true of the new state (they saw the card now in their
hand), and the seat's notebook, hand, and everything public are untouched: the result agrees
with the seat's observation, its :class:`~parlour.envs.awkward_guests.view.GuestsView` and the
rendered table. (Values of the relabelled cards may change: no hand value is public; the
values that are — the pending bids — are kept with their cards.) The hand-encoding caches are
invalidated (``hand_version``) so that every observation is re-encoded.

``parlour.games`` names this function as Awkward Guests' ``hidden_redeal``; the
conformance suite (``tests/conformance/``) checks that the seat's observation is unchanged by it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parlour.envs.awkward_guests import game as G


def redeal(raw_env: Any, seat: int, rng: np.random.Generator) -> None:
    """Relabel the cards ``seat`` has not seen (other hands, deck, discard pile) and re-seed
    the game's reshuffle generator, in the raw env's game, in place."""
    state: G.GuestsState = raw_env.game
    num = state.tables.num_cards
    kept = np.asarray(state.seen[seat], bool).copy()  # the seat's notebook
    kept[state.revealed] = True  # public
    kept[state.table] = True  # the solo deck's bid (public value and count)
    for selected in state.selected:  # offered, promised or chosen to discard
        kept[list(selected)] = True
    for bid in state.bids:
        kept[bid.cards] = True
        kept[bid.payment] = True
    free = np.flatnonzero(~kept)
    image = np.arange(num)
    image[free] = rng.permutation(free)
    _relabel(state, image)
    state.rng.bit_generator.state = type(state.rng.bit_generator)(int(rng.integers(2**63))).state


def _relabel(state: G.GuestsState, image: np.ndarray) -> None:
    """Rename card index ``k`` to ``image[k]`` everywhere in ``state`` (a permutation)."""
    m = image.tolist()
    state.hands = [sorted(m[k] for k in hand) for hand in state.hands]
    state.deck = [m[k] for k in state.deck]
    state.discard = [m[k] for k in state.discard]
    state.revealed = [m[k] for k in state.revealed]
    state.table = [m[k] for k in state.table]
    state.selected = [{m[k] for k in selected} for selected in state.selected]
    for bid in state.bids:
        bid.cards = [m[k] for k in bid.cards]
        bid.payment = [m[k] for k in bid.payment]
    state.seen_log = [[m[k] for k in log] for log in state.seen_log]
    inverse = np.argsort(image)  # column j of the new arrays is column inverse[j] of the old
    state.seen = state.seen[:, inverse]
    state.known = state.known[:, inverse]
    state.hand_version = [v + 1 for v in state.hand_version]
