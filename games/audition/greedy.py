"""``audition.greedy``: one-ply greedy Audition player (reads only the player view).

| decision | choice |
|---|---|
| turn | TAKE the slot that raises its score the most, if any raises it; otherwise DRAW (TAKE the best slot when it cannot draw) |
| place | the slot where the card helps itself most minus what it gives the next player to act (if that player took the slot now) |
| ``take_now`` | TAKE when it raises its score, else PASS |
| final phase | TAKE the best slot if it does not lower its score, else PASS |
| ``pass_left`` | the number whose loss costs it least minus what it gives its left neighbour |
| ``discard_one`` | the number whose loss costs it least |
| ``discard_own`` | the number whose loss gains it the most, PASS if none gains |

Ties go to the lowest action id. It never looks ahead and ignores quartet building (a pair
scores 0, so it avoids pairs), which makes it a solid but beatable baseline.

Strength (2 players, ``parlour eval``, seats rotated, paired deals): beats ``random`` 75.5%
(95% CI 72.7–78.1%, 1000 games, mean score 12.3 vs 7.3); loses to ``audition.expert`` 8.0%
(5.0–12.6%, 200 games). No search: a whole 2p game against random takes about 20 ms.

:func:`greedy_action` is the shared core; :func:`greedy_state_action` applies it to a full
engine state (used by ``audition.expert`` inside its own simulations, never on the real game).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from parlour.envs.audition import rules as R

#: points of exactly ``c`` cards of one number (1 → soloist, 4 → quartet), for every count a
#: collection can reach (all the copies of a number plus one more)
PTS: tuple[int, ...] = tuple(R.count_points(c) for c in range(R.MAX_NUMBER + 2))
NUMBERS = range(1, R.MAX_NUMBER + 1)


def gain(coll: Sequence[int], cards: Sequence[int]) -> int:
    """Score change of a collection (counts per number) when ``cards`` are added to it."""
    g = 0
    for v in NUMBERS:
        x = cards[v]
        if x:
            c = coll[v]
            g += PTS[c + x] - PTS[c]
    return g


def _next_untaken(me: int, n: int, taken: Sequence[bool]) -> int:
    for k in range(1, n):
        q = (me + k) % n
        if not taken[q]:
            return q
    return -1


def greedy_action(
    phase: int,
    me: int,
    legal: Sequence[int],
    collections: Sequence[Sequence[int]],
    slots: Sequence[Sequence[int]],
    taken: Sequence[bool],
    drawn: int,
    pending_slot: int,
    choice: Sequence[int],
) -> int:
    """The greedy choice (see the module table) from plain per-number count lists."""
    n = len(collections)
    mine = collections[me]
    if phase == R.PH_TURN or phase == R.PH_FINAL:
        best, best_gain = -1, -(10**9)
        for a in legal:
            if a < R.DRAW:
                g = gain(mine, slots[a])
                if g > best_gain:
                    best, best_gain = a, g
        if phase == R.PH_FINAL:
            return best if best >= 0 and best_gain >= 0 else R.PASS
        if best >= 0 and (best_gain > 0 or R.DRAW not in legal):
            return best
        return R.DRAW
    if phase == R.PH_PLACE:
        nxt = _next_untaken(me, n, taken)
        best, best_val = legal[0], -(10**9)
        for a in legal:
            cards = list(slots[a - R.PLACE_0])
            cards[drawn] += 1
            val = gain(mine, cards) - (gain(collections[nxt], cards) if nxt >= 0 else 0)
            if val > best_val:
                best, best_val = a, val
        return best
    if phase == R.PH_TAKE_NOW:
        return R.TAKE_0 + pending_slot if gain(mine, slots[pending_slot]) > 0 else R.PASS
    if phase in (R.PH_PASS_LEFT, R.PH_DISCARD_ONE, R.PH_DISCARD_OWN):
        left = collections[(me + 1) % n]
        best, best_val = -1, -(10**9)
        for a in legal:
            if a == R.PASS:
                continue
            v = a - R.CHOOSE_0
            val = PTS[mine[v] - 1] - PTS[mine[v]]
            if phase == R.PH_PASS_LEFT:
                val -= PTS[left[v] + 1] - PTS[left[v]]
            if val > best_val:
                best, best_val = a, val
        if phase == R.PH_DISCARD_OWN and best_val <= 0:
            return R.PASS
        return best
    raise ValueError(f"no decision to make in phase {R.PHASES[phase]!r}")


def greedy_state_action(state: R.AuditionState) -> int:
    """:func:`greedy_action` for the player to act in a full engine state (simulations only)."""
    return greedy_action(
        state.phase,
        state.current,
        state.legal_actions(),
        state.collections.tolist(),
        state.slots.tolist(),
        state.taken,
        state.drawn,
        state.pending_slot,
        state.choice.tolist(),
    )


class GreedyAgent:
    """The one-ply greedy player (deterministic; ``reset`` has nothing to re-seed)."""

    def __init__(self, spec: str = "audition.greedy", seed: int | None = None) -> None:
        self.spec = spec

    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, observation: dict[str, np.ndarray] | None, view: Any) -> int:
        return greedy_action(
            R.PHASES.index(view.phase),
            view.seat,
            view.legal_actions,
            view.collections,
            [s.cards for s in view.slots],
            view.taken,
            view.drawn,
            view.pending_slot,
            view.choice,
        )
