"""The scalar ``audition.expert`` search, as it was before the batched rollouts: the reference
that ``tests/agents/test_audition_search.py`` holds the batched one to, decision for decision.

One world at a time from the agent's generator, every legal action tried in it (on a clone,
the last on the world itself), each line played by ``audition.greedy`` for all seats on the rules
engine to the end, ``win + 0.1 · score`` summed per action, world by world.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parlour.envs.audition.determinize import determinize
from parlour.games.audition.greedy import greedy_state_action


def scalar_expert_act(view: Any, rng: np.random.Generator, sims: int) -> int:
    """The action the scalar expert picks (drawing its worlds from ``rng``)."""
    legal = list(view.legal_actions)
    if len(legal) == 1:
        return legal[0]
    worlds = max(1, sims // len(legal))
    totals = np.zeros(len(legal))
    me = view.seat
    for _ in range(worlds):
        world = determinize(view, rng)
        for i, a in enumerate(legal):
            state = world.clone() if i < len(legal) - 1 else world
            state.apply(a)
            while not state.is_terminal:
                state.apply(greedy_state_action(state))
            totals[i] += state.returns("win")[me] + 0.1 * state.returns("score")[me]
    return int(legal[int(np.argmax(totals))])
