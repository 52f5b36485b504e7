"""Audition — build a full engine state from one player's view (determinization).

Search agents (``audition.expert``) may only use what their player knows: the
:class:`~parlour.envs.audition.view.AuditionView`. :func:`determinize` turns such a view into an
:class:`~parlour.envs.audition.rules.AuditionState` that agrees with everything the view shows and fills
in what it hides by sampling, with the caller's ``np.random.Generator``:

| hidden in the view | filled in by |
|---|---|
| the deck order | a uniform shuffle of the unseen cards (``view.unseen``) |
| the variant-2 removed cards | the first ``view.num_removed`` cards of the same shuffle |
| the card another player has drawn and not yet placed | the next card of that shuffle |
| another player's pending ``CHOOSE`` | not filled: ``ValueError`` (use the view of the player to act) |

The one gap: while another player chooses (``pass_left``, ``discard_one``, ``discard_own``), the
numbers they may name — what came with the slot, or their collection before the take — were
public when the slot was taken, but no view holds them (like the observation, a view shows a
pending choice to the chooser only), so no world is built rather than a wrong one. Search agents
determinize only on their own turn, where this never happens.

Everything else is public and copied from the view, so a world's public part is the state's
exactly (``tests/audition/test_determinize.py``: its viewer's observation bit for bit, view and
legal actions, and — with the true hidden cards — the same game to the end): the table's setup
(``view.config``), slots, collections, discard row, who has taken a slot, the final-phase order
still to choose (``view.final_queue``), who took the last slot (``view.last_taker``, the next
round's starter), who began (``view.start_player``), who emptied the deck (``view.emptied_by``),
the round and the move count. Two engine fields are derived, exactly: ``deck_emptied`` (the deck
ran out during the action being made: the deck is empty, the final phase has not started and the
game is not over — the engine starts the final phase, or ends the game, as soon as that action
is complete) and ``pending_slot`` (a ``take_now`` decision is on the one ``take_now`` slot). Once
the game is over nobody acts: the view says ``current_player == -1`` and the world's ``current``
is 0 (the engine keeps the last actor there; nothing reads it). The result is a fresh state: the
view is never changed and the sampled state shares nothing with it. :func:`determinize_many`
samples several worlds of one view (the same draws as that many :func:`determinize` calls);
:func:`sample_hidden` gives the view's state once and only the hidden cards (:class:`Hidden`) of
each sample, for searches that load them into the batched engine.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from parlour.envs.audition import rules as R
from parlour.envs.audition.view import AuditionView


@dataclass(frozen=True)
class Hidden:
    """One sample of the cards a view hides: the deck (top card last, as the engine keeps it),
    the variant-2 removed cards, the card being placed (the viewer's own, or a sampled one)."""

    deck: list[int]
    removed: list[int]
    drawn: int


def determinize(view: AuditionView, rng: np.random.Generator) -> R.AuditionState:
    """A full engine state consistent with ``view``, the hidden cards drawn from ``rng``."""
    return determinize_many(view, rng, 1)[0]


def determinize_many(
    view: AuditionView, rng: np.random.Generator, count: int
) -> list[R.AuditionState]:
    """``count`` states consistent with ``view``: the same draws from ``rng`` as ``count`` calls
    of :func:`determinize`."""
    base, hidden = sample_hidden(view, rng, count)
    worlds = []
    for h in hidden:
        world = base.clone()
        world.deck, world.removed, world.drawn = list(h.deck), list(h.removed), h.drawn
        world._legal = None  # (DRAW depends on the deck: never the base's cached actions)
        worlds.append(world)
    return worlds


def sample_hidden(
    view: AuditionView, rng: np.random.Generator, count: int
) -> tuple[R.AuditionState, list[Hidden]]:
    """The state of ``view`` with its hidden cards left out (an empty deck), and ``count``
    samples of them, each one shuffle of the unseen cards: the same draws from ``rng`` as
    ``count`` calls of :func:`determinize` (a search that loads one state and many decks)."""
    phase = R.PHASES.index(view.phase)
    current = view.current_player if view.current_player >= 0 else 0
    if phase in (R.PH_PASS_LEFT, R.PH_DISCARD_ONE, R.PH_DISCARD_OWN) and current != view.seat:
        raise ValueError("cannot determinize another player's pending CHOOSE (not in the view)")
    unseen = [v for v in range(1, R.MAX_NUMBER + 1) for _ in range(view.unseen[v])]
    others_drawn = phase == R.PH_PLACE and current != view.seat
    expected = view.deck_size + view.num_removed + (1 if others_drawn else 0)
    if len(unseen) != expected:
        raise ValueError(
            f"view is inconsistent: {len(unseen)} unseen cards, expected {expected} "
            f"(deck {view.deck_size} + removed {view.num_removed} + drawn {int(others_drawn)})"
        )
    hidden = []
    for _ in range(count):
        cards = list(unseen)
        rng.shuffle(cards)
        drawn = int(cards.pop()) if others_drawn else view.drawn
        hidden.append(Hidden(cards[view.num_removed :], cards[: view.num_removed], drawn))
    return _state(view, phase, current), hidden


def public_state(view: AuditionView) -> R.AuditionState:
    """The engine state of ``view`` with its hidden cards left out: an empty deck, no removed
    cards, the viewer's own drawn card (else 0) — :func:`sample_hidden`'s state, no sample
    drawn. The view must be of the seat to act (another seat's drawn card is hidden)."""
    if view.current_player != view.seat:
        raise ValueError(f"public_state: the view of seat {view.seat} is not of the seat to act")
    return _state(view, R.PHASES.index(view.phase), view.current_player)


def _state(view: AuditionView, phase: int, current: int) -> R.AuditionState:
    """The engine state of ``view`` (see the module table) with an empty deck and no removed
    cards; the drawn card is the viewer's own (else 0)."""
    kinds = [R.SLOT_KINDS.index(s.kind) for s in view.slots]
    if view.choice and view.current_player == view.seat:
        choice = np.array(view.choice, np.int16)
    else:
        choice = np.zeros(R.MAX_NUMBER + 1, np.int16)
    state = R.AuditionState(
        config=view.config,
        slot_kinds=kinds,
        deck=[],
        removed=[],
        slots=np.array([s.cards for s in view.slots], np.int16),
        slot_size=[s.size for s in view.slots],
        slot_taken=[s.taken for s in view.slots],
        collections=np.array(view.collections, np.int16),
        discard=np.array(view.discard, np.int16),
        taken=list(view.taken),
        current=current,
        start_player=view.start_player,
        phase=phase,
        drawn=view.drawn,
        pending_slot=kinds.index(R.K_TAKE_NOW) if phase == R.PH_TAKE_NOW else -1,
        choice=choice,
        final_queue=list(view.final_queue),
        deck_emptied=view.deck_size == 0 and not view.in_final and phase != R.PH_OVER,
        in_final=view.in_final,
        emptied_by=view.emptied_by,
        last_taker=view.last_taker,
        round=view.round,
        num_moves=view.num_moves,
    )
    state.refresh()
    return state
