"""``audition_v1`` as an env: PettingZoo compliance of the option combinations the conformance
suite does not run, metadata and spaces, rewards and infos, render, ``player_view``, the
action-id layout and the registry.

``tests/conformance/`` runs ``api_test``, ``seed_test``, seeding, pickling, leak and bad-input
checks on every configuration in Audition's ``Game.configurations``; the API tests here run
the other option combinations (``_registry_configuration`` leaves those out).
"""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from parlour.envs import audition_v1
from parlour.envs.audition import rules as R
from parlour.games import get_game
from tests.audition.driver import DRAW, PLACE, Table
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


def _table(env) -> tuple:
    return (env.config, env.reward_mode, env.seer, env.render_mode)


def _registry_configuration(cfg: dict) -> bool:
    """Whether ``cfg`` builds the same table as a configuration the conformance suite runs."""
    mine = _table(audition_v1.raw_env(**cfg))
    spec = get_game("audition")
    return any(
        _table(spec.make_env(**{spec.players_option: n}, **options)) == mine
        for n, options in spec.configurations
    )


CONFIGS = [cfg for cfg in CONFIGS if not _registry_configuration(cfg)]


def _id(cfg: dict) -> str:
    return "-".join(f"{k}={v}" for k, v in cfg.items())


@pytest.mark.parametrize("cfg", CONFIGS, ids=_id)
def test_api_test(cfg):
    api_test(audition_v1.env(**cfg), num_cycles=300)


@pytest.mark.parametrize("cfg", CONFIGS, ids=_id)
def test_seed_test(cfg):
    seed_test(lambda: audition_v1.env(**cfg), num_cycles=300)


def test_raw_env_api_test():
    api_test(audition_v1.raw_env(num_players=5, action_cards=2), num_cycles=300)


def test_metadata_and_one_space_object_per_agent():
    env = audition_v1.env(num_players=4)
    raw = env.unwrapped
    assert raw.metadata == {
        "name": "audition_v1",
        "render_modes": ["ansi", "human", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 1,
    }
    assert str(env) == str(raw) == "audition_v1"
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
        audition_v1.raw_env(num_players=n).observation_space("player_0")["observation"].shape
        for n in range(2, 7)
    }
    assert sizes == {(321,)}


def test_masks_zero_for_others_and_rewards_zero_sum_with_results():
    env = audition_v1.env(num_players=4, action_cards=4)
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
    env = audition_v1.raw_env(num_players=3, reward_mode="score")
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
    env = audition_v1.env(num_players=2, render_mode="ansi")
    env.reset(options={"deck": deck_with_top(2, [9]), "start": 0})
    env.step(R.DRAW)  # player_0 holds the 9 (no other 9 is visible anywhere yet)
    text = env.render()
    assert isinstance(text, str) and "player_0" in text and "slot 1" in text
    assert "9" not in text.replace("player", "").split("\n", 1)[1].split("places")[0]
    env.step(R.PLACE_0 + 1)
    assert "9" in env.render().split("\n")[2]  # slot 1 line now shows the 9


def test_player_view_matches_the_state_for_its_agent():
    env = audition_v1.raw_env(num_players=3, action_cards=["pass_left"])
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

    e = pettingzoo.make("aec", "parlour/Audition-v1", num_players=5)
    e.reset(seed=0)
    assert e.unwrapped.config.num_players == 5


def test_infos_are_empty_and_results_carry_the_phase_and_winners_only_at_the_end():
    g = Table(n=2, action_cards=["take_now"], start=0)
    g.step(DRAW)
    assert all(g.env.infos[a] == {} for a in g.env.agents)
    assert g.env.results()["phase"] == "place"
    g.step(PLACE(0))
    assert all(g.env.infos[a] == {} for a in g.env.agents)
    res = g.env.results()
    assert res["phase"] == "take_now" and not res["over"] and res["winners"] == []
    assert res["returns"] == {"player_0": 0.0, "player_1": 0.0}
    assert res["scores"] == {"player_0": 0, "player_1": 0}  # current points: nothing scores yet
    g.pass_()
    assert g.env.results()["phase"] == "turn"


def test_action_id_layout_extremes_6p():
    """TAKE 5 = id 5, PLACE 5 = id 12, CHOOSE 13 = id 26 (6 players, number 13 in play)."""
    kinds = ["max_two", "take_now", "discard_one", "discard_own", "draw_one", "pass_left"]
    g = Table(n=6, action_cards=kinds, top=[13, 1], start=0)
    g.step(DRAW)
    assert g.legal() == {7, 8, 9, 10, 11, 12}
    g.step(12)  # PLACE on slot 5 (pass_left)
    assert g.cur == 1 and 5 in g.legal()
    g.step(5)  # TAKE slot 5
    assert g.phase() == "pass_left" and g.legal() == {26}
    g.step(26)  # CHOOSE 13
    assert g.coll(2)[13] == 1 and g.coll(1)[13] == 0
