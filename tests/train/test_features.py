"""The Audition PPO feature extractor computes score arithmetic that matches the engine."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from parlour.agents.audition_greedy import PTS, gain
from parlour.envs import audition_v1
from parlour.train.games.audition import AuditionFeatures


@pytest.mark.parametrize(("players", "kw"), [(2, {}), (4, {"action_cards": 2}), (6, {})])
def test_take_place_and_choose_features_match_the_engine(players, kw):
    env = audition_v1.raw_env(num_players=players, **kw)
    env.reset(seed=players)
    space = env.observation_space("player_0")["observation"]
    extractor = AuditionFeatures(space)
    rng = np.random.default_rng(0)
    placing = 0
    for step in range(250):
        game = env.game
        if game.is_terminal:
            env.reset(seed=step)
            continue
        me = game.current_player
        obs = env.observe(env.agent_selection)["observation"]
        out = extractor(torch.as_tensor(obs[None]))[0].numpy()
        assert out.shape == (extractor.features_dim,)
        np.testing.assert_array_equal(out[: obs.size], obs)
        feats = out[obs.size :] * 5.0
        take = feats[:36].reshape(6, 6)
        place = feats[36:72].reshape(6, 6)
        lose, give = feats[72:85], feats[85:98]
        for k in range(players):
            p = (me + k) % players  # egocentric player blocks
            coll = game.collections[p].tolist()
            for s in range(players):
                assert take[k, s] == pytest.approx(gain(coll, game.slots[s].tolist()))
                cards = game.slots[s].tolist()
                if game.drawn:
                    cards[game.drawn] += 1
                    assert place[k, s] == pytest.approx(gain(coll, cards))
                else:
                    assert place[k, s] == 0
        mine = game.collections[me].tolist()
        left = game.collections[(me + 1) % players].tolist()
        for v in range(1, 14):
            assert lose[v - 1] == pytest.approx(PTS[mine[v] - 1] - PTS[mine[v]] if mine[v] else 0)
            assert give[v - 1] == pytest.approx(PTS[left[v] + 1] - PTS[left[v]])
        assert not take[players:].any() and not take[:, players:].any()
        placing += bool(game.drawn)
        legal = game.legal_actions()
        env.step(legal[rng.integers(len(legal))])
    assert placing > 20
