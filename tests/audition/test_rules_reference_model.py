"""Audition against an independent reference model of the rules (:mod:`tests.audition.rules_reference`):
on random games of many configurations, the acting agent, phase, masks, every observation
block of every agent, views, infos and terminal rewards agree with the model at every step.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from parlour.envs import audition_v1
from tests.audition.driver import ACTION_KINDS, DECK_SIZE, DRAW, spec_deck, spec_win_reward
from tests.audition.rules_reference import Ref

CROSS_CONFIGS = [
    (2, (), False),
    (2, ("take_now", "pass_left"), True),
    (3, 3, False),
    (3, ("pass_left", "discard_one", "discard_own"), False),
    (4, ("discard_own", "draw_one", "discard_one", "max_two"), True),
    (5, 5, False),
    (6, ACTION_KINDS, True),
    (6, (), False),
]


@pytest.mark.parametrize("n,action_cards,uncertain", CROSS_CONFIGS)
def test_random_games_match_reference_model(n, action_cards, uncertain):
    """Masks, acting agent, phase, every observation block, views, infos and terminal rewards
    agree with the reference model on random games."""
    for game in range(4 if n <= 3 else 2):
        rng = random.Random(1000 * n + game)
        cards = spec_deck(n)
        rng.shuffle(cards)
        start = rng.randrange(n)
        env = audition_v1.raw_env(
            num_players=n, action_cards=action_cards, uncertain_counts=uncertain
        )
        env.reset(seed=game, options={"deck": cards, "start": start})
        L = env.observation_layout
        kinds = [s.kind for s in env.player_view("player_0").slots]
        if not isinstance(action_cards, int):
            assert kinds == list(action_cards) + ["conductor"] * (n - len(action_cards))
        ref = Ref(n, kinds, cards, start, uncertain)
        draw_bias = rng.choice([0.5, 0.8, 0.95])
        steps = 0
        while ref.phase != "over":
            agent = f"player_{ref.cur}"
            assert env.agent_selection == agent
            assert env.infos[agent] == {} and env.results()["phase"] == ref.phase
            legal = ref.legal()
            assert legal, "the acting agent always has a legal move"
            for p in range(n):
                ob = env.observe(f"player_{p}")
                m = ob["action_mask"]
                assert m.dtype == np.int8 and m.shape == (27,)
                if p == ref.cur:
                    assert sorted(np.flatnonzero(m).tolist()) == legal, (ref.phase, legal)
                else:
                    assert not m.any()
                o = ob["observation"]
                assert o.dtype == np.float32 and o.shape == (321,)
                assert o.min() >= 0.0 and o.max() <= 1.0
                np.testing.assert_allclose(o, ref.expected_obs(p, L, uncertain), atol=1e-6)
            if steps % 7 == 0:
                v = env.player_view(agent)
                assert v.collections == tuple(tuple(c) for c in ref.coll)
                assert list(v.unseen) == ref.unseen(ref.cur)
                assert tuple(v.legal_actions) == tuple(legal)
                assert v.scores == tuple(pq[0] for pq in ref.points())
            a = DRAW if DRAW in legal and rng.random() < draw_bias else rng.choice(legal)
            env.step(a)
            ref.step(a)
            steps += 1
        assert all(env.terminations.values())
        win = ref.winners()
        exp = spec_win_reward(n, win)
        results = env.results()
        assert results["winners"] == [f"player_{q}" for q in win]
        assert results["scores"] == {f"player_{q}": ref.points()[q][0] for q in range(n)}
        assert results["phase"] == "over" and results["over"]
        for p in range(n):
            a = f"player_{p}"
            assert env._cumulative_rewards[a] == pytest.approx(exp[p])
            assert results["returns"][a] == pytest.approx(exp[p])
            assert env.infos[a] == {}
        # card conservation: every card is somewhere
        total = sum(map(sum, ref.coll)) + sum(ref.discard) + sum(len(s) for s in ref.slots)
        assert total + len(ref.deck) + len(ref.removed) == DECK_SIZE[n]
