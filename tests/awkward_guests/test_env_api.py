"""PettingZoo compliance of ``awkward_guests_v0`` (1–8 players, several levels) and env
behaviour: spaces, layout, rewards, infos and results, render, pickling, views, registry,
options."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

from parlour.envs import awkward_guests_v0
from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests.deduction import Deduction
from parlour.envs.awkward_guests.notebook import NOTEBOOK_SIZE

from .game_helpers import SOLUTION, WRONG, generated_case, padded_case, v1, v3

LEVEL_OF = {
    1: "easy",
    2: "medium",
    3: "expert",
    4: "beginner",
    5: "hard",
    6: "very_easy",
    7: "very_hard",
    8: "medium",
}


def _cases(level: str) -> list:
    return [generated_case(level, 11), generated_case(level, 12)]


CONFIGS = [dict(num_players=n, level=lv, cases=_cases) for n, lv in LEVEL_OF.items()] + [
    dict(num_players=3, level="easy", cases="generated"),
    dict(num_players=1, level="expert", cases="generated"),
    dict(num_players=4, level="expert", cases=_cases, observation_mode="deduced"),
    dict(num_players=2, level="hard", cases=_cases, seer=True, max_rounds=3),
    dict(num_players=8, level="beginner", cases=_cases, max_rounds=2),
]


def _kwargs(cfg: dict) -> dict:
    kw = dict(cfg)
    if callable(kw.get("cases")):
        kw["cases"] = kw["cases"](kw["level"])
    return kw


def _id(cfg: dict) -> str:
    return "-".join(
        f"{k}={v}" if not callable(v) else f"{k}=fixed" for k, v in cfg.items() if k != "cases"
    ) + ("-generated" if cfg.get("cases") == "generated" else "")


@pytest.mark.parametrize("cfg", CONFIGS, ids=_id)
def test_api_test(cfg):
    api_test(awkward_guests_v0.env(**_kwargs(cfg)), num_cycles=60)


@pytest.mark.parametrize("cfg", CONFIGS, ids=_id)
def test_seed_test(cfg):
    kw = _kwargs(cfg)
    seed_test(lambda: awkward_guests_v0.env(**kw), num_cycles=60)


def test_raw_env_api_test():
    api_test(awkward_guests_v0.raw_env(num_players=5, cases=_cases("easy")), num_cycles=60)


def test_metadata_and_one_space_object_per_agent_of_one_size():
    env = awkward_guests_v0.env(num_players=4, cases=_cases("easy"))
    assert env.unwrapped.metadata == {
        "name": "awkward_guests_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
        "render_fps": 1,
    }
    assert str(env) == str(env.unwrapped) == "awkward_guests_v0"
    assert env.possible_agents == [f"player_{i}" for i in range(4)]
    # PettingZoo's convention: a separate (equal) space object per agent, the same one each call
    for get in (env.observation_space, env.action_space):
        spaces_ = [get(a) for a in env.possible_agents]
        assert len({id(sp) for sp in spaces_}) == 4 and all(sp == spaces_[0] for sp in spaces_)
        assert all(get(a) is sp for a, sp in zip(env.possible_agents, spaces_, strict=True))
        with pytest.raises(KeyError):
            get("nobody")
    assert env.action_space("player_1").n == 95
    sizes = {
        awkward_guests_v0.raw_env(num_players=n, level=lv, cases=_cases(lv))
        .observation_space("player_0")["observation"]
        .shape
        for n, lv in LEVEL_OF.items()
    }
    assert sizes == {(1857,)}
    deduced = awkward_guests_v0.raw_env(cases=_cases("easy"), observation_mode="deduced")
    assert deduced.observation_space("player_0")["observation"].shape == (1928,)
    seer = awkward_guests_v0.raw_env(cases=_cases("easy"), seer=True)
    assert seer.observation_space("player_0")["observation"].shape == (1927,)
    doc = awkward_guests_v0.__doc__
    assert "1857" in doc and "1928" in doc  # the documented sizes are the real ones


def test_observation_layout_covers_the_vector_in_order():
    raw = awkward_guests_v0.raw_env(num_players=3, cases=_cases("easy"), seer=True)
    pos = 0
    for sl in raw.observation_layout.values():
        assert sl.start == pos
        pos = sl.stop
    assert pos == raw.observation_space("player_0")["observation"].shape[0]
    L = raw.observation_layout
    assert L["notebook"].stop - L["notebook"].start == NOTEBOOK_SIZE == 364
    assert L["hand"].stop - L["hand"].start == 32 * 40
    assert {"phase", "pending_decision", "players", "asked", "piles", "seer_solution"} <= set(L)


def _play_random(env, rng, policy=None):
    """Random masked play through the wrapped env; returns total rewards and the final
    ``results()``. Checks on the way: infos are ``{}``; a player who is out stays in
    ``env.agents`` with no reward and an all-zero mask, is never selected, and ends with the
    others."""
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, rew, term, trunc, info = env.last()
        total[agent] += rew
        assert info == {}
        results = env.unwrapped.results()
        if term or trunc:
            assert results["over"] and all(
                env.terminations[a] or env.truncations[a] for a in env.agents
            )
            if results["out"][agent]:
                assert term and not trunc  # out: terminated, also at the round limit
            env.step(None)
            continue
        assert not results["over"] and env.agents == env.possible_agents
        assert not results["out"][agent]
        for a, out in results["out"].items():
            assert total[a] == 0.0 and results["returns"][a] == (
                -1 / (env.num_agents - 1) if out else 0.0
            )
        mask = obs["action_mask"]
        assert mask.any() and mask.dtype == np.int8
        for other in env.agents:
            if other != agent:
                assert not env.unwrapped.observe(other)["action_mask"].any()
        a = policy(env, obs) if policy else int(rng.choice(np.flatnonzero(mask)))
        env.step(a)
    return total, env.unwrapped.results()


@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_rewards_are_zero_sum_and_final_results(n):
    env = awkward_guests_v0.env(num_players=n, level="medium", cases=_cases("medium"))
    rng = np.random.default_rng(n)
    seen_results = set()
    knocked_out = 0
    for game in range(6):
        env.reset(seed=100 * n + game)
        total, results = _play_random(env, rng)
        state = env.unwrapped.game
        seen_results.add(state.result)
        assert sum(total.values()) == pytest.approx(0.0)
        assert [total[a] for a in env.possible_agents] == pytest.approx(state.returns())
        assert results["returns"] == pytest.approx(total)
        assert results["result"] == state.result and results["phase"] == "over"
        assert set(results["scores"]) == set(env.possible_agents)
        assert set(results["winners"]) <= set(env.possible_agents)
        assert results["scores"] == {a: int(a in results["winners"]) for a in env.possible_agents}
        for a, out in results["out"].items():
            if out:
                knocked_out += 1
                assert total[a] == pytest.approx(-1 / (n - 1)) and a not in results["winners"]
    assert seen_results & {"win", "draw"}
    if n > 2:
        assert knocked_out  # the out-player path was exercised


def _knock_out_player_0(max_rounds: int):
    """3 players; player_0 accuses wrongly in the Solution phase of round 1, the others go on."""
    case = padded_case([v3(1), v1(2)], total=40)
    env = awkward_guests_v0.env(num_players=3, cases=[case], max_rounds=max_rounds)
    env.reset(seed=0, options={"start": 0})
    raw = env.unwrapped
    while raw.game.decision != G.D_SOLUTION:  # quick round: ask, nobody offers
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[-1]))
    assert env.agent_selection == "player_0"
    env.step(A.YES)
    for a in G.accusation_actions(WRONG, False):
        env.step(a)
    env.step(A.NO)  # player_1
    env.step(A.NO)  # player_2: the phase resolves, player_0 is out
    return env


def test_a_wrong_accuser_stays_in_agents_until_the_end_and_is_paid_its_loss_there():
    env = _knock_out_player_0(max_rounds=5)
    raw = env.unwrapped
    results = raw.results()
    assert results["out"] == {"player_0": True, "player_1": False, "player_2": False}
    assert results["returns"] == pytest.approx({"player_0": -0.5, "player_1": 0, "player_2": 0})
    assert results["accusations"] == {"player_0": 1, "player_1": 0, "player_2": 0}
    assert results["wrong_accusations"] == results["accusations"]
    assert not results["over"] and results["winners"] == [] and results["result"] is None
    # still in, not terminated, no reward yet, never selected: the new Solution phase goes on
    assert env.agents == ["player_0", "player_1", "player_2"]
    assert not any(env.terminations.values()) and not any(env.truncations.values())
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0, "player_2": 0.0}
    assert env.infos == {"player_0": {}, "player_1": {}, "player_2": {}}
    assert env.agent_selection == "player_1"
    assert raw.game.decision == G.D_SOLUTION
    assert not env.observe("player_0")["action_mask"].any()
    env.step(A.YES)
    for a in G.accusation_actions(SOLUTION, False):
        assert env.agent_selection == "player_1"
        assert not env.observe("player_0")["action_mask"].any()
        env.step(a)
    env.step(A.NO)
    assert env.terminations == {"player_0": True, "player_1": True, "player_2": True}
    rewards = {}
    for agent in env.agent_iter():
        obs, rew, term, trunc, info = env.last()
        rewards[agent] = rew
        assert term and not trunc and info == {}
        env.step(None)
    # everybody is paid at the end, the player who went out included
    assert rewards == pytest.approx({"player_0": -0.5, "player_1": 1.0, "player_2": -0.5})
    results = raw.results()
    assert results["winners"] == ["player_1"] and results["result"] == "win"
    assert results["returns"] == pytest.approx(rewards)
    assert results["solved"] == {"player_0": False, "player_1": True, "player_2": False}


def test_a_player_who_is_out_terminates_while_the_others_are_truncated_at_the_round_limit():
    env = _knock_out_player_0(max_rounds=1)
    assert env.agents == ["player_0", "player_1", "player_2"]
    assert env.agent_selection == "player_1"
    env.step(A.NO)  # player_1
    env.step(A.NO)  # player_2: nobody accused in the last round -> round limit
    assert env.terminations == {"player_0": True, "player_1": False, "player_2": False}
    assert env.truncations == {"player_0": False, "player_1": True, "player_2": True}
    # k = 1 player out pays 1/(n-1) = 1/2, shared by the m = 2 players still in
    assert env.rewards == pytest.approx({"player_0": -0.5, "player_1": 0.25, "player_2": 0.25})
    assert env.unwrapped.results()["result"] == "truncated"
    for _ in env.agent_iter():
        env.step(None)
    assert env.agents == []


def test_truncation_sets_truncations_and_pays_the_draw():
    env = awkward_guests_v0.env(num_players=4, cases=_cases("easy"), max_rounds=1)
    env.reset(seed=3)

    def never_accuse(env_, obs):
        mask = obs["action_mask"]
        return A.NO if mask[A.NO] else int(np.flatnonzero(mask)[0])

    total, results = _play_random(env, None, never_accuse)
    assert env.unwrapped.game.result == "truncated"
    assert total == {a: 0.0 for a in env.possible_agents}
    assert results["winners"] == [] and results["result"] == "truncated"
    assert results["rounds"] == 1 and not any(results["out"].values())


def test_render_ansi_shows_the_public_table_only():
    case = padded_case([v3(1), v1(2)], total=40)
    env = awkward_guests_v0.env(num_players=3, cases=[case], render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "player_0" in text and "round 1/30" in text
    for card in case.cards:  # no hand card text is shown
        assert card.text not in text
    env2 = awkward_guests_v0.env(num_players=3, cases=[case])
    env2.reset(seed=1)
    with pytest.warns(UserWarning):
        assert env2.render() is None


def test_pickle_and_deepcopy_of_env_mid_game_continue_identically():
    env = awkward_guests_v0.raw_env(num_players=4, level="medium", cases=_cases("medium"))
    env.reset(seed=4)
    rng = np.random.default_rng(4)

    def act():
        mask = env.observe(env.agent_selection)["action_mask"]
        if not mask.any():
            return None
        if mask[A.NO] and mask[A.YES] and env.game.decision == G.D_SOLUTION:
            return A.NO  # keep the game going
        return int(rng.choice(np.flatnonzero(mask)))

    for _ in range(60):
        env.step(act())
    clones = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    actions = []
    for _ in range(200):
        if not env.agents:
            break
        a = act()
        actions.append(a)
        env.step(a)
    for c in clones:
        for a in actions:
            c.step(a)
        assert c.rewards == env.rewards and c.agents == env.agents
        for agent in env.agents:
            np.testing.assert_array_equal(
                c.observe(agent)["observation"], env.observe(agent)["observation"]
            )


def test_player_view_matches_the_observation_for_its_agent():
    env = awkward_guests_v0.raw_env(num_players=3, cases=_cases("easy"))
    env.reset(seed=2)
    cur = env.agent_selection
    v = env.player_view(cur)
    seat = env.agent_name_mapping[cur]
    assert v.is_my_turn and v.decision == "inquiry" and v.legal_actions == tuple(range(16))
    assert v.hand_ids == tuple(env.game.hand_ids(seat))
    assert {c.id for c in v.notebook} == set(v.hand_ids)
    obs = env.observe(cur)["observation"]
    nb = obs[env.observation_layout["notebook"]]
    np.testing.assert_array_equal(nb, env.notebook(cur))
    other = next(a for a in env.possible_agents if a != cur)
    vo = env.player_view(other)
    assert vo.decision == "none" and vo.legal_actions == () and not vo.is_my_turn
    assert set(vo.hand_ids).isdisjoint(v.hand_ids)
    with pytest.raises(AttributeError):
        v.seat = 2  # read-only


def test_deduced_mode_matches_the_deduction_engine_over_the_notebook():
    env = awkward_guests_v0.raw_env(
        num_players=2, level="medium", cases=_cases("medium"), observation_mode="deduced"
    )
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    L = env.observation_layout
    for _ in range(40):
        if not env.agents or env.terminations[env.agent_selection]:
            break
        for agent in env.possible_agents:
            seat = env.agent_name_mapping[agent]
            obs = env.observe(agent)["observation"]
            d = Deduction(True)
            for k in env.game.seen_log[seat]:
                d.add_facts(env.game.tables.cards[k].facts)
            poss = d.possible()
            murderers = obs[L["deduced_murderers"]]
            assert {A.SUSPECTS[i] for i in np.flatnonzero(murderers)} == poss["murderers"]
            weapons = obs[L["deduced_weapons"]]
            assert {A.WEAPONS[i] for i in np.flatnonzero(weapons)} == poss["weapons"]
            acc = obs[L["deduced_accomplices"]]
            got = {None if i == 6 else A.SUSPECTS[i] for i in np.flatnonzero(acc)}
            assert got == poss["accomplices"]
            count = obs[L["deduced_count"]][0]
            c = d.count()
            assert count == pytest.approx(0.0 if c == 1 else np.log(c) / np.log(5760), abs=1e-6)
        mask = env.observe(env.agent_selection)["action_mask"]
        a = A.NO if mask[A.NO] and env.game.decision == G.D_SOLUTION else None
        env.step(a if a is not None else int(rng.choice(np.flatnonzero(mask))))


def test_seer_appends_the_solution():
    env = awkward_guests_v0.raw_env(
        num_players=2, cases=_cases("medium"), level="medium", seer=True
    )
    env.reset(seed=0)
    sol = env.game.case.solution
    v = env.observe("player_0")["observation"][env.observation_layout["seer_solution"]]
    assert A.SUSPECTS[int(np.flatnonzero(v[:6])[0])] == sol.murderer
    assert A.MOTIVES[int(np.flatnonzero(v[6:24])[0])] == sol.motive
    assert A.WEAPONS[int(np.flatnonzero(v[24:44])[0])] == sol.weapon
    assert v.sum() == 5


def test_reset_options_case_path_deck_and_start(tmp_path):
    from parlour.envs.awkward_guests import save_case

    case = generated_case("hard", 3)
    path = tmp_path / "c.json"
    save_case(case, path)
    env = awkward_guests_v0.raw_env(num_players=3)
    deck = [c.id for c in case.cards][::-1]
    env.reset(seed=0, options={"case": str(path), "deck": deck, "start": 2})
    assert env.game.case.level == "hard" and env.agent_selection == "player_2"
    assert env.game.hand_ids(0) == sorted(deck[:6])
    assert env.game.hand_ids(1) == sorted(deck[6:12])
    env.reset(seed=0, options={"case": case, "junk": 1})
    assert env.game.case is case
    with pytest.raises(ValueError, match="deck"):
        env.reset(options={"case": case, "deck": deck[:-1]})
    with pytest.raises(ValueError, match="start"):
        env.reset(options={"case": case, "start": 3})
    with pytest.raises(ValueError, match="case"):
        env.reset(options={"case": 42})


def test_generated_cases_follow_the_seed_and_the_level():
    e1 = awkward_guests_v0.raw_env(num_players=2, level="very_hard")
    e2 = awkward_guests_v0.raw_env(num_players=2, level="very_hard")
    e1.reset(seed=7)
    e2.reset(seed=7)
    assert e1.game.case.to_json() == e2.game.case.to_json()
    assert e1.game.case.level == "very_hard"
    e1.reset()
    assert e1.game.case.to_json() != e2.game.case.to_json()  # a fresh case per reset


def test_classic_cases():
    from parlour.envs.awkward_guests.classic import classic_case_paths

    if not all(p.exists() for p in classic_case_paths()):
        pytest.skip("the classic case files are not there yet")
    env = awkward_guests_v0.raw_env(num_players=2, level="expert", cases="classic")
    env.reset(seed=0)
    assert env.game.case.level == "expert"


def test_registered_in_pettingzoo_registry():
    import pettingzoo

    e = pettingzoo.make("aec", "parlour/AwkwardGuests-v0", num_players=5, cases=_cases("easy"))
    e.reset(seed=0)
    assert e.unwrapped.config.num_players == 5


# -- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "argument"),
    [
        (dict(num_players=0), "num_players"),
        (dict(num_players=9), "num_players"),
        (dict(num_players="2"), "num_players"),
        (dict(num_players=True), "num_players"),
        (dict(level="impossible"), "level"),
        (dict(cases="everything"), "cases"),
        (dict(cases=[]), "cases"),
        (dict(cases=[42]), "cases"),
        (dict(cases=3), "cases"),
        (dict(observation_mode="pixels"), "observation_mode"),
        (dict(deck_size=10), "deck_size"),
        (dict(deck_size="70"), "deck_size"),
        (dict(max_rounds=0), "max_rounds"),
        (dict(render_mode="rgb_array"), "render_mode"),
        (dict(seer=1), "seer"),
    ],
)
def test_invalid_constructor_arguments_name_the_argument(kwargs, argument):
    with pytest.raises(ValueError, match=argument):
        awkward_guests_v0.env(**kwargs)


def test_error_lists_the_allowed_values():
    with pytest.raises(ValueError, match="very_hard"):
        awkward_guests_v0.env(level="nightmare")
    with pytest.raises(ValueError, match="classic"):
        awkward_guests_v0.env(cases="all")


def test_malformed_case_file_raises_in_the_constructor(tmp_path):
    import json

    good = tmp_path / "good.json"
    good.write_text(json.dumps(generated_case("easy", 11).to_json()))
    bad = tmp_path / "bad.json"
    d = generated_case("easy", 11).to_json()
    d["cards"][0]["value"] = 7
    bad.write_text(json.dumps(d))
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    env = awkward_guests_v0.env(cases=[str(good)])
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"cases\[1\].*value"):
        awkward_guests_v0.env(cases=[str(good), str(bad)])
    with pytest.raises(ValueError, match=r"cases\[0\].*JSON"):
        awkward_guests_v0.env(cases=[str(broken)])
    with pytest.raises(ValueError, match=r"cases\[0\].*cannot read"):
        awkward_guests_v0.env(cases=[str(tmp_path / "missing.json")])


def test_illegal_action_through_env_ends_the_game_via_terminate_illegal_wrapper(caplog):
    env = awkward_guests_v0.env(num_players=3, cases=_cases("easy"))
    env.reset(seed=0)
    offender = env.agent_selection
    env.step(A.YES)  # illegal in the inquiry
    assert "Illegal move" in caplog.text
    assert all(env.terminations.values())
    assert env._cumulative_rewards[offender] == -1
    assert all(env._cumulative_rewards[a] == 0 for a in env.possible_agents if a != offender)


def test_out_of_bounds_action_is_rejected_by_the_wrapper():
    env = awkward_guests_v0.env(num_players=2, cases=_cases("easy"))
    env.reset(seed=0)
    with pytest.raises(AssertionError):
        env.step(95)


def test_illegal_action_on_raw_env_raises_clear_error_and_changes_nothing():
    env = awkward_guests_v0.raw_env(num_players=2, cases=_cases("easy"))
    env.reset(seed=0)
    before = pickle.dumps(env.game)
    with pytest.raises(awkward_guests_v0.IllegalActionError, match="'inquiry'"):
        env.step(A.NO)
    assert pickle.dumps(env.game) == before
    env.step(A.REF_0)  # still usable afterwards


@settings(max_examples=12)
@given(
    n=st.integers(2, 8),
    level=st.sampled_from(["easy", "medium", "expert"]),
    p_accuse=st.sampled_from([0.05, 0.5]),
    seed=st.integers(0, 2**31),
)
def test_rewards_sum_to_zero_over_random_games_with_eliminations(n, level, p_accuse, seed):
    env = awkward_guests_v0.env(num_players=n, level=level, cases=_cases(level), max_rounds=6)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, rew, term, trunc, info = env.last()
        total[agent] += rew
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        if mask[A.YES] and env.unwrapped.game.decision == G.D_SOLUTION:
            env.step(A.YES if rng.random() < p_accuse else A.NO)
        else:
            env.step(int(rng.choice(np.flatnonzero(mask))))
    assert sum(total.values()) == pytest.approx(0.0)
    assert env.unwrapped.game.is_terminal


def test_notebook_cells_of_every_fact_of_real_cases_are_distinct_names():
    from parlour.envs.awkward_guests.notebook import card_cells, cell_name, fact_cells

    names = {cell_name(i) for i in range(NOTEBOOK_SIZE)}
    assert len(names) == NOTEBOOK_SIZE  # every cell has its own readable name
    for level in ("beginner", "medium", "expert"):
        for card in generated_case(level, 11).cards:
            cells = card_cells(card)
            assert cells and all(0 <= c < NOTEBOOK_SIZE for c in cells)
            for f in card.facts:
                for c in fact_cells(f):
                    name = cell_name(c)
                    assert name.split("[")[0] in {
                        "signs_absent",
                        "weapons_unused",
                        "passages_unused",
                        "seen_before",
                        "seen_at_murder",
                        "guest_counts",
                        "claims",
                        "boxes",
                        "together",
                        "apart",
                        "alone",
                    }


def test_pettingzoo_state_method_is_not_shadowed_by_the_hidden_game():
    env = awkward_guests_v0.env(num_players=3)
    env.reset(seed=0)
    with pytest.raises(NotImplementedError):
        env.state()
    assert env.unwrapped.game.case is not None  # the engine state has its own name


def test_human_render_prints_once_per_finished_decision(capsys):
    env = awkward_guests_v0.raw_env(num_players=2, render_mode="human")
    env.reset(seed=1)
    deciders = []
    for _ in range(12):
        mask = env.observe(env.agent_selection)["action_mask"]
        before = env.game.current_player
        env.step(int(np.flatnonzero(mask)[0]))
        deciders.append(before != env.game.current_player or env.game.is_terminal)
        if env.game.is_terminal:
            break
    assert capsys.readouterr().out.count("Awkward Guests —") == sum(deciders)
