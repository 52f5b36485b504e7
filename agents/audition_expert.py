"""``audition.expert``: determinized Monte Carlo search on the engine's state (view only).

For each decision with more than one legal action it samples ``sims // #legal`` worlds
consistent with its player view (:func:`parlour.envs.audition.determinize.determinize`: the unseen cards
are shuffled into deck / removed cards with the agent's own ``np.random.Generator``), and in
every world tries every legal action followed by greedy play (``audition.greedy`` for all seats)
to the end of the game. The same worlds are used for every action (common random numbers). It
picks the action with the best mean of ``win reward + 0.1 · score reward`` for its seat (the
score term breaks ties between equally winning lines).

Options (spec ``audition.expert:sims=200``): ``sims`` — simulations per decision, split over the
legal actions (default 100; at least one world per action).

Strength (2 players, default ``sims=100``, ``parlour eval``, seats rotated, paired deals): beats
``audition.greedy`` 92.0% (95% CI 87.4–95.0%, 200 games, mean score 14.3 vs 7.0).
Cost: about 5 s per 2-player game on one core (a few ms per simulated game).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parlour.agents.audition_greedy import greedy_state_action
from parlour.envs.audition.determinize import determinize

DEFAULT_SIMS = 100


class ExpertAgent:
    """Determinized Monte Carlo search with greedy rollouts (see the module docstring)."""

    def __init__(
        self, spec: str = "audition.expert", seed: int | None = None, sims: int = DEFAULT_SIMS
    ) -> None:
        if isinstance(sims, bool) or not isinstance(sims, int) or sims < 1:
            raise ValueError(f"audition.expert: sims must be a positive int, got {sims!r}")
        self.spec = spec
        self.sims = sims
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: dict[str, np.ndarray] | None, view: Any) -> int:
        legal = list(view.legal_actions)
        if not legal:
            raise ValueError("audition.expert: act() called when it is not this player's turn")
        if len(legal) == 1:
            return legal[0]
        worlds = max(1, self.sims // len(legal))
        totals = np.zeros(len(legal))
        me = view.seat
        for _ in range(worlds):
            world = determinize(view, self.rng)
            for i, a in enumerate(legal):
                state = world.clone() if i < len(legal) - 1 else world
                state.apply(a)
                while not state.is_terminal:
                    state.apply(greedy_state_action(state))
                totals[i] += state.returns("win")[me] + 0.1 * state.returns("score")[me]
        return int(legal[int(np.argmax(totals))])
