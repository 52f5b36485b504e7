"""The vectorized Audition players make their scalar counterparts' decisions on the same states."""

from __future__ import annotations

import numpy as np
import pytest

from parlour.envs.audition import rules as R
from parlour.envs.audition.batched import BatchedAudition
from parlour.games.audition.batched_agents import greedy_actions, random_actions
from parlour.games.audition.greedy import greedy_state_action

CONFIGS = [
    (2, (), False),
    (3, R.ACTION_KINDS[:3], True),
    (4, 4, False),
    (5, R.ACTION_KINDS[-5:], False),
    (6, 6, True),
]


@pytest.mark.parametrize("n,ac,unc", CONFIGS)
def test_greedy_matches_scalar_greedy(n: int, ac: object, unc: bool) -> None:
    seeds = list(range(100 * n, 100 * n + 24))
    eng = BatchedAudition(len(seeds), num_players=n, action_cards=ac, uncertain_counts=unc)
    eng.reset(seeds)
    states = [R.new_game(eng.config, np.random.default_rng(s)) for s in seeds]
    rng = np.random.default_rng(n)
    decisions = 0
    while not all(st.is_terminal for st in states):
        live = np.flatnonzero([not st.is_terminal for st in states])
        ours = greedy_actions(eng, live)
        for j, i in enumerate(live):
            assert ours[j] == greedy_state_action(states[i]), (i, R.PHASES[states[i].phase])
        decisions += len(live)
        # play a mix of greedy and random moves so that every phase is reached
        mask = eng.legal_mask()
        actions = np.zeros(eng.N, np.int64)
        actions[live] = np.where(rng.random(len(live)) < 0.5, ours, random_actions(mask[live], rng))
        eng.step(actions, games=live)
        for i in live:
            states[i].apply(int(actions[i]))
    assert decisions > 1000


def test_random_actions_are_legal_and_uniform() -> None:
    mask = np.zeros((30000, R.NUM_ACTIONS), bool)
    mask[:, [0, 6, 13]] = True
    acts = random_actions(mask, np.random.default_rng(0))
    assert set(np.unique(acts)) == {0, 6, 13}
    counts = np.bincount(acts, minlength=R.NUM_ACTIONS)[[0, 6, 13]]
    assert np.all(np.abs(counts - 10000) < 400)
    with pytest.raises(ValueError, match="no legal action"):
        random_actions(np.zeros((2, R.NUM_ACTIONS), bool), np.random.default_rng(0))
