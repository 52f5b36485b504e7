"""The player view of one game of the batched engine: what ``player_view`` gives for the AEC env.

Scripted agents (``audition.greedy``, ``audition.expert``, ``audition.search``) read an
:class:`~parlour.envs.audition.view.AuditionView`, never an engine state. :func:`batched_view`
builds that view for one game of a :class:`~parlour.envs.audition.batched.BatchedAudition` from
its arrays, so such an agent can play a seat of a batched game (the batched self-play env's
``audition.expert`` opponents, :mod:`parlour.games.audition.selfplay`). It equals
:func:`~parlour.envs.audition.view.make_view` of the rules engine in the same position, field for
field (``tests/audition/test_batched_differential.py`` compares every seat's view at every step
of every configuration).

| view field | read from |
|---|---|
| ``legal_actions`` | the engine's legal mask (the viewer's, when it is to act) |
| ``drawn``, ``pending_slot``, ``choice`` | the game's pending decision, for the seat to act only |
| ``final_queue`` | the seats still to choose, in the order the rules call them: cyclically after the seat choosing now |
| ``unseen`` | the public unseen counts, minus the viewer's own drawn card |
| ``deck_size``, ``num_removed`` | cards left in the draw pile; the removed cards held (uncertain counts) |
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from parlour.envs.audition import rules as R
from parlour.envs.audition.view import AuditionView, SlotView

if TYPE_CHECKING:
    from parlour.envs.audition.batched import BatchedAudition


def _ints(row: np.ndarray) -> tuple[int, ...]:
    return tuple(int(x) for x in row)


def batched_view(
    eng: BatchedAudition, game: int, seat: int, legal_mask: np.ndarray | None = None
) -> AuditionView:
    """The view of ``seat`` in game ``game`` of ``eng`` (see the module docstring).
    ``legal_mask``: ``eng.legal_mask()`` when the caller already holds it (views of many games:
    one copy of the mask, not one per game)."""
    n = eng.n
    if not 0 <= seat < n:
        raise ValueError(f"seat must be in 0..{n - 1}, got {seat!r}")
    if not 0 <= game < eng.N:
        raise ValueError(f"game must be in 0..{eng.N - 1}, got {game!r}")
    phase = int(eng.phase[game])
    over = phase == R.PH_OVER
    current = -1 if over else int(eng.current[game])
    mine = current == seat
    if mine and legal_mask is None:
        legal_mask = eng.legal_mask()
    legal = tuple(int(a) for a in np.flatnonzero(legal_mask[game])) if mine else ()
    drawn = int(eng.drawn[game])
    unseen = eng.unseen[game].copy()
    if drawn and mine:
        unseen[drawn] -= 1
    queue = tuple(
        (current + k) % n for k in range(1, n + 1) if eng.to_choose[game, (current + k) % n]
    )
    kinds = eng.kinds[game]
    return AuditionView(
        seat=seat,
        num_players=n,
        config=eng.config,
        phase=R.PHASES[phase],
        current_player=current,
        legal_actions=legal,
        drawn=drawn if mine else 0,
        pending_slot=int(eng.pending[game]) if mine else -1,
        choice=_ints(eng.choice[game]) if mine else (0,) * (R.MAX_NUMBER + 1),
        in_final=bool(eng.in_final[game]),
        slots=tuple(
            SlotView(
                kind=R.SLOT_KINDS[kinds[s]],
                taken=bool(eng.slot_taken[game, s]),
                capacity=eng.config.capacity(int(kinds[s])),
                cards=_ints(eng.slots[game, s]),
            )
            for s in range(n)
        ),
        collections=tuple(_ints(eng.coll[game, p]) for p in range(n)),
        taken=tuple(bool(x) for x in eng.taken[game]),
        final_queue=queue if not over else (),
        last_taker=int(eng.last_taker[game]),
        start_player=int(eng.start[game]),
        emptied_by=int(eng.emptied_by[game]),
        num_moves=int(eng.moves[game]),
        scores=_ints(eng.points[game]),
        quartets=_ints(eng.quartets[game]),
        discard=_ints(eng.discard[game]),
        unseen=_ints(unseen),
        deck_size=int(eng.dlen[game] - eng.dpos[game]),
        num_removed=int(np.count_nonzero(eng.removed[game])),
        round=int(eng.round[game]),
        composition=_ints(eng.config.composition()),
    )
