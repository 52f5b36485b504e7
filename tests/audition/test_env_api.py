"""PettingZoo compliance of ``audition_v0`` for every configuration we ship, and env behaviour."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from parlour.envs import audition_v0
from parlour.envs.audition import rules as R
from tests.audition.helpers import deck_with_top

CONFIGS = [
    dict(num_players=n, action_cards=ac, uncertain_counts=uc)
    for n in range(2, 7)
    for ac, uc in (((), False), (n, False), ((), True), (n, True))
] + [
    dict(num_players=3, action_cards=["pass_left", "discard_own", "take_now"]),
    dict(num_players=2, action_cards=["max_two", "draw_one"], uncertain_counts=True),
    dict(num_players=4, reward_mode="score"),
]


def _id(cfg: dict) -> str:
    return "-".join(f"{k}={v}" for k, v in cfg.items())


@pytest.mark.parametrize("cfg", CONFIGS, ids=_id)
def test_api_test(cfg):
    api_test(audition_v0.env(**cfg), num_cycles=300)


@pytest.mark.parametrize("cfg", CONFIGS, ids=_id)
def test_seed_test(cfg):
    seed_test(lambda: audition_v0.env(**cfg), num_cycles=300)


def test_raw_env_api_test():
    api_test(audition_v0.raw_env(num_players=5, action_cards=2), num_cycles=300)


def test_metadata_and_one_space_object_per_agent():
    env = audition_v0.env(num_players=4)
    raw = env.unwrapped
    assert raw.metadata == {
        "name": "audition_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
        "render_fps": 1,
    }
    assert str(env) == str(raw) == "audition_v0"
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    # PettingZoo's convention: a separate (equal) space object per agent, the same one each call
    for get in (env.observation_space, env.action_space):
        spaces_ = [get(a) for a in env.possible_agents]
        assert len({id(sp) for sp in spaces_}) == 4 and all(sp == spaces_[0] for sp in spaces_)
        assert all(get(a) is sp for a, sp in zip(env.possible_agents, spaces_, strict=True))
        with pytest.raises(KeyError):
            get("nobody")
        with pytest.raises(KeyError):
            get("player_4")
    assert raw.observation_spaces["player_2"] is env.observation_space("player_2")
    assert raw.action_spaces["player_2"] is env.action_space("player_2")
    p0, p1 = env.action_space("player_0"), env.action_space("player_1")
    p0.seed(1)  # seeding (and sampling) one agent's space leaves the others alone
    p1.seed(2)
    interleaved = [(p0.sample(), p1.sample()) for _ in range(20)]
    p0.seed(1)
    assert [p0.sample() for _ in range(20)] == [a for a, _ in interleaved]
    assert env.action_space("player_1").n == 27
    # one size for every player count
    sizes = {
        audition_v0.raw_env(num_players=n).observation_space("player_0")["observation"].shape
        for n in range(2, 7)
    }
    assert sizes == {(321,)}


def test_observation_layout_covers_the_vector_in_order():
    raw = audition_v0.raw_env(num_players=3)
    layout = raw.observation_layout
    pos = 0
    for sl in layout.values():
        assert sl.start == pos
        pos = sl.stop
    assert pos == raw.observation_space("player_0")["observation"].shape[0]
    assert {"phase", "drawn_card", "slots", "players", "unseen", "deck_size", "discard"} <= set(
        layout
    )
    seer = audition_v0.raw_env(num_players=3, seer=True)
    assert "seer_next" in seer.observation_layout
    assert seer.observation_space("player_0")["observation"].shape[0] == pos + 39


def test_observation_contents_are_egocentric_and_in_range():
    env = audition_v0.raw_env(num_players=3)
    env.reset(options={"deck": deck_with_top(3, [5]), "start": 1})
    L = env.observation_layout
    env.step(R.DRAW)  # player_1 holds the 5
    o1 = env.observe("player_1")["observation"]
    o0 = env.observe("player_0")["observation"]
    assert o1[L["drawn_card"]][4] == 1.0 and o0[L["drawn_card"]].sum() == 0.0
    # the drawer does not count the 5 as unseen; the others still do
    assert o1[L["unseen"]][4] * 13 == pytest.approx(4)
    assert o0[L["unseen"]][4] * 13 == pytest.approx(5)
    env.step(R.PLACE_0 + 2)
    env.step(R.DRAW)
    env.step(R.PLACE_0 + 2)  # player_2
    env.step(R.TAKE_0 + 2)  # player_0 takes slot 2 (the 5 and another card)
    for agent, seat in (("player_0", 0), ("player_1", 1), ("player_2", 2)):
        obs = env.observe(agent)["observation"]
        assert obs.dtype == np.float32 and obs.min() >= 0.0 and obs.max() <= 1.0
        players = obs[L["players"]].reshape(6, 19)
        # block k is seat (seat + k) % 3; player_0's collection sits in block (0 - seat) % 3
        k = (0 - seat) % 3
        assert players[k, 4 + 4] * 13 == pytest.approx(1)  # one 5
        assert players[k, 2] == 1.0  # taken this round
        assert players[:3, 0].tolist() == [1.0, 1.0, 1.0] and not players[3:].any()
    slots = env.observe("player_2")["observation"][L["slots"]].reshape(6, 23)
    assert slots[2, 8] == 1.0  # slot 2 taken flag
    assert slots[0, 0] == 1.0 and slots[:3, 7].tolist() == [1.0, 1.0, 1.0]


def test_masks_zero_for_others_and_rewards_zero_sum_with_results():
    env = audition_v0.env(num_players=4, action_cards=4)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, rew, term, trunc, info = env.last()
        total[agent] += rew
        assert info == {}  # infos carry nothing: results() has the outcome
        results = env.unwrapped.results()
        assert results["over"] == (results["phase"] == "over") == term
        if term or trunc:
            assert set(results["scores"]) == set(env.possible_agents)
            assert results["winners"] and set(results["winners"]) <= set(env.possible_agents)
            assert results["returns"] == pytest.approx(
                dict(zip(env.possible_agents, env.unwrapped.game.returns(), strict=True))
            )
            env.step(None)
            continue
        assert results["winners"] == [] and set(results["returns"].values()) == {0.0}
        for other in env.possible_agents:
            if other != agent:
                assert not env.unwrapped.observe(other)["action_mask"].any()
        mask = obs["action_mask"]
        assert mask.any()
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert sum(total.values()) == pytest.approx(0.0)
    assert max(total.values()) > 0


def test_score_reward_mode_pays_points_minus_mean():
    env = audition_v0.raw_env(num_players=3, reward_mode="score")
    env.reset(seed=9)
    rng = np.random.default_rng(1)
    while not all(env.terminations.values()):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    scores = env.game.scores()
    mean = sum(scores) / 3
    assert [env.rewards[f"player_{i}"] for i in range(3)] == pytest.approx(
        [(s - mean) / 10 for s in scores]
    )
    assert env.results()["scores"] == {f"player_{i}": scores[i] for i in range(3)}
    assert env.results()["returns"] == {f"player_{i}": env.rewards[f"player_{i}"] for i in range(3)}


def test_render_ansi_shows_the_public_table_only():
    env = audition_v0.env(num_players=2, render_mode="ansi")
    env.reset(options={"deck": deck_with_top(2, [9]), "start": 0})
    env.step(R.DRAW)  # player_0 holds the 9 (no other 9 is visible anywhere yet)
    text = env.render()
    assert isinstance(text, str) and "player_0" in text and "slot 1" in text
    assert "9" not in text.replace("player", "").split("\n", 1)[1].split("places")[0]
    env.step(R.PLACE_0 + 1)
    assert "9" in env.render().split("\n")[2]  # slot 1 line now shows the 9


def test_pickle_and_deepcopy_of_env_mid_game_continue_identically():
    import copy

    env = audition_v0.raw_env(num_players=3, action_cards=3, uncertain_counts=True)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(25):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    clones = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    actions = []
    while not all(env.terminations.values()):
        a = int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])))
        actions.append(a)
        env.step(a)
    for c in clones:
        for a in actions:
            assert not all(c.terminations.values())
            c.step(a)
        assert c.rewards == env.rewards and c.infos == env.infos
        assert c.results() == env.results()
        for agent in env.possible_agents:
            np.testing.assert_array_equal(
                c.observe(agent)["observation"], env.observe(agent)["observation"]
            )


def test_player_view_matches_the_state_for_its_agent():
    env = audition_v0.raw_env(num_players=3, action_cards=["pass_left"])
    env.reset(seed=2)
    env.step(R.DRAW)
    cur = env.agent_selection
    v = env.player_view(cur)
    assert v.is_my_turn and v.drawn == env.game.drawn and v.legal_actions
    other = next(a for a in env.possible_agents if a != cur)
    vo = env.player_view(other)
    assert vo.drawn == 0 and vo.legal_actions == () and not vo.is_my_turn
    assert sum(vo.unseen) == sum(v.unseen) + 1  # the drawn card is unseen for the others
    with pytest.raises(AttributeError):
        v.seat = 2  # read-only


def test_registered_in_pettingzoo_registry():
    import pettingzoo

    e = pettingzoo.make("aec", "parlour/Audition-v0", num_players=5)
    e.reset(seed=0)
    assert e.unwrapped.config.num_players == 5
