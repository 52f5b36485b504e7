"""PettingZoo compliance of ``awkward_guests_v1`` (1–8 players, several levels) and env
behaviour: spaces, layout, rewards, infos and results, render, pickling, views, registry,
options."""

from __future__ import annotations

import contextlib
import copy
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

from parlour.envs import awkward_guests_v1
from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests.case.deduction import Deduction
from parlour.envs.awkward_guests.notebook import NOTEBOOK_SIZE
from parlour.envs.awkward_guests.view import make_view

from .game_helpers import SOLUTION, WRONG, generated_case, padded_case, v1, v3
from .scenario_helpers import (
    CARD0,
    MOT0,
    MOTIVE_IDS,
    NACT,
    NO,
    NOACC,
    REFS,
    SUS0,
    SUSPECTS,
    WEA0,
    WEAPONS,
    YES,
    env_drain_dead,
)

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
    api_test(awkward_guests_v1.env(**_kwargs(cfg)), num_cycles=60)


@pytest.mark.parametrize("cfg", CONFIGS, ids=_id)
def test_seed_test(cfg):
    kw = _kwargs(cfg)
    seed_test(lambda: awkward_guests_v1.env(**kw), num_cycles=60)


def test_raw_env_api_test():
    api_test(awkward_guests_v1.raw_env(num_players=5, cases=_cases("easy")), num_cycles=60)


def test_metadata_and_one_space_object_per_agent_of_one_size():
    env = awkward_guests_v1.env(num_players=4, cases=_cases("easy"))
    assert env.unwrapped.metadata == {
        "name": "awkward_guests_v1",
        "render_modes": ["ansi", "human", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 1,
    }
    assert str(env) == str(env.unwrapped) == "awkward_guests_v1"
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
        awkward_guests_v1.raw_env(num_players=n, level=lv, cases=_cases(lv))
        .observation_space("player_0")["observation"]
        .shape
        for n, lv in LEVEL_OF.items()
    }
    assert sizes == {(2313,)}
    deduced = awkward_guests_v1.raw_env(cases=_cases("easy"), observation_mode="deduced")
    assert deduced.observation_space("player_0")["observation"].shape == (2384,)
    seer = awkward_guests_v1.raw_env(cases=_cases("easy"), seer=True)
    assert seer.observation_space("player_0")["observation"].shape == (2383,)
    doc = awkward_guests_v1.__doc__
    assert "2313" in doc and "2384" in doc  # the documented sizes are the real ones


def test_observation_layout_covers_the_vector_in_order():
    raw = awkward_guests_v1.raw_env(num_players=3, cases=_cases("easy"), seer=True)
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
    env = awkward_guests_v1.env(num_players=n, level="medium", cases=_cases("medium"))
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
    env = awkward_guests_v1.env(num_players=3, cases=[case], max_rounds=max_rounds)
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


def test_an_illegal_move_after_a_knock_out_still_pays_the_player_who_went_out():
    env = _knock_out_player_0(max_rounds=5)
    assert env.agent_selection == "player_1"
    illegal = int(np.flatnonzero(env.observe("player_1")["action_mask"] == 0)[0])
    env.step(illegal)  # env() ends the game: player_1 gets -1
    paid = {}
    for agent in env.agent_iter():
        paid[agent] = env.last()[1]
        env.step(None)
    # player_0 is paid the loss it was due at the end (-1/(n-1)), as results() says
    assert paid == pytest.approx({"player_0": -0.5, "player_1": -1.0, "player_2": 0.0})
    assert env.unwrapped.results()["returns"]["player_0"] == pytest.approx(-0.5)


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
    env = awkward_guests_v1.env(num_players=4, cases=_cases("easy"), max_rounds=1)
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
    env = awkward_guests_v1.env(num_players=3, cases=[case], render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "player_0" in text and "round 1/30" in text
    for card in case.cards:  # no hand card text is shown
        assert card.text not in text
    env2 = awkward_guests_v1.env(num_players=3, cases=[case])
    env2.reset(seed=1)
    with pytest.warns(UserWarning):
        assert env2.render() is None


def test_player_view_matches_the_observation_for_its_agent():
    env = awkward_guests_v1.raw_env(num_players=3, cases=_cases("easy"))
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
    env = awkward_guests_v1.raw_env(
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
    env = awkward_guests_v1.raw_env(
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
    env = awkward_guests_v1.raw_env(num_players=3)
    deck = [c.id for c in case.cards][::-1]
    env.reset(seed=0, options={"case": str(path), "deck": deck, "start": 2})
    assert env.game.case.level == "hard" and env.agent_selection == "player_2"
    assert env.game.hand_ids(0) == sorted(deck[:6])
    assert env.game.hand_ids(1) == sorted(deck[6:12])
    env.reset(seed=0, options={"case": case})
    assert env.game.case is case
    with pytest.raises(ValueError, match="unknown key 'junk'"):  # (issue 31: was ignored)
        env.reset(seed=0, options={"case": case, "junk": 1})
    assert env.game.case is case
    with pytest.raises(ValueError, match="deck"):
        env.reset(options={"case": case, "deck": deck[:-1]})
    with pytest.raises(ValueError, match="start"):
        env.reset(options={"case": case, "start": 3})
    with pytest.raises(ValueError, match="case"):
        env.reset(options={"case": 42})


def test_generated_cases_follow_the_seed_and_the_level():
    e1 = awkward_guests_v1.raw_env(num_players=2, level="very_hard")
    e2 = awkward_guests_v1.raw_env(num_players=2, level="very_hard")
    e1.reset(seed=7)
    e2.reset(seed=7)
    assert e1.game.case.to_json() == e2.game.case.to_json()
    assert e1.game.case.level == "very_hard"
    e1.reset()
    assert e1.game.case.to_json() != e2.game.case.to_json()  # a fresh case per reset


def test_registered_in_pettingzoo_registry():
    import pettingzoo

    e = pettingzoo.make("aec", "parlour/AwkwardGuests-v1", num_players=5, cases=_cases("easy"))
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
        (dict(render_mode="rgb_array_list"), "render_mode"),
        (dict(seer=1), "seer"),
    ],
)
def test_invalid_constructor_arguments_name_the_argument(kwargs, argument):
    with pytest.raises(ValueError, match=argument):
        awkward_guests_v1.env(**kwargs)


def test_error_lists_the_allowed_values():
    with pytest.raises(ValueError, match="very_hard"):
        awkward_guests_v1.env(level="nightmare")
    with pytest.raises(ValueError, match="classic"):
        awkward_guests_v1.env(cases="all")


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
    env = awkward_guests_v1.env(cases=[str(good)])
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"cases\[1\].*value"):
        awkward_guests_v1.env(cases=[str(good), str(bad)])
    with pytest.raises(ValueError, match=r"cases\[0\].*JSON"):
        awkward_guests_v1.env(cases=[str(broken)])
    with pytest.raises(ValueError, match=r"cases\[0\].*cannot read"):
        awkward_guests_v1.env(cases=[str(tmp_path / "missing.json")])


def test_illegal_action_through_env_ends_the_game_via_terminate_illegal_wrapper(caplog):
    env = awkward_guests_v1.env(num_players=3, cases=_cases("easy"))
    env.reset(seed=0)
    offender = env.agent_selection
    env.step(A.YES)  # illegal in the inquiry
    assert "Illegal move" in caplog.text
    assert all(env.terminations.values())
    assert env._cumulative_rewards[offender] == -1
    assert all(env._cumulative_rewards[a] == 0 for a in env.possible_agents if a != offender)


def test_out_of_bounds_action_is_rejected_by_the_wrapper():
    env = awkward_guests_v1.env(num_players=2, cases=_cases("easy"))
    env.reset(seed=0)
    with pytest.raises(AssertionError):
        env.step(95)


def test_illegal_action_on_raw_env_raises_clear_error_and_changes_nothing():
    env = awkward_guests_v1.raw_env(num_players=2, cases=_cases("easy"))
    env.reset(seed=0)
    before = pickle.dumps(env.game)
    with pytest.raises(awkward_guests_v1.IllegalActionError, match="'inquiry'"):
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
    env = awkward_guests_v1.env(num_players=n, level=level, cases=_cases(level), max_rounds=6)
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
    env = awkward_guests_v1.env(num_players=3)
    env.reset(seed=0)
    with pytest.raises(NotImplementedError):
        env.state()
    assert env.unwrapped.game.case is not None  # the engine state has its own name


def test_human_render_prints_once_per_finished_decision(capsys):
    env = awkward_guests_v1.raw_env(num_players=2, render_mode="human")
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
    alone = awkward_guests_v1.raw_env(num_players=1, render_mode="human")
    alone.reset(seed=1)
    capsys.readouterr()
    for _ in range(5):  # (the decider never changes: it printed only at the end)
        alone.step(int(np.flatnonzero(alone.observe("player_0")["action_mask"])[0]))
        assert capsys.readouterr().out.count("Awkward Guests —") == 1


def test_action_layout_matches_spec():
    assert A.NUM_ACTIONS == NACT
    assert list(A.REFERENCES) == REFS
    assert list(A.SUSPECTS) == SUSPECTS
    assert list(A.MOTIVES) == MOTIVE_IDS
    assert list(A.WEAPONS) == WEAPONS
    assert (A.CARD_0, A.YES, A.NO, A.SUSPECT_0, A.MOTIVE_0, A.WEAPON_0, A.NO_ACCOMPLICE) == (
        CARD0,
        YES,
        NO,
        SUS0,
        MOT0,
        WEA0,
        NOACC,
    )
    assert A.MAX_HAND == 32
    env = awkward_guests_v1.raw_env(num_players=3)
    assert env.action_space("player_0").n == NACT


@pytest.mark.parametrize("n,level", [(2, "easy"), (3, "medium"), (5, "easy"), (8, "hard")])
def test_wrapped_env_masks_and_zero_sum_over_random_games(n, level):
    env = awkward_guests_v1.env(num_players=n, level=level, max_rounds=6, deck_size=40)
    for game_seed in range(2):
        env.reset(seed=game_seed)
        rng = np.random.default_rng(game_seed)
        tot = {a: 0.0 for a in env.possible_agents}
        notebooks: dict[str, np.ndarray] = {}
        nb = env.unwrapped.observation_layout["notebook"]
        k = 0
        for agent in env.agent_iter(max_iter=20000):
            obs, rew, term, trunc, info = env.last()
            tot[agent] += rew
            assert info == {}
            if term or trunc:
                env.step(None)
                continue
            assert not env.unwrapped.results()["out"][agent]  # out: never selected again
            grid = obs["observation"][nb]
            if agent in notebooks:  # the notebook only grows
                assert np.all(grid >= notebooks[agent])
            notebooks[agent] = grid
            mask = obs["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (NACT,) and mask.sum() > 0
            if k % 5 == 0:
                for other in env.agents:
                    if other != agent:
                        assert env.observe(other)["action_mask"].sum() == 0
                assert env.observation_space(agent).contains(obs)
            k += 1
            legal_ = np.flatnonzero(mask)
            a = int(rng.choice(legal_))
            u = env.unwrapped
            if u.game.decision_name == "solution":
                a = YES if rng.random() < 0.05 else NO
            env.step(a)
        assert sum(tot.values()) == pytest.approx(0.0, abs=1e-9)


def test_player_view_is_read_only_cannot_reach_the_case():
    # docs/index.md#conventions: player_view is "a structured, read-only view". The facts it hands out are
    # the engine's own fact dicts: writing to them rewrites the hidden case (and the deduction
    # and notebook of every player). A read-only view must not allow that.
    case = generated_case("easy", 321, 40)
    env = awkward_guests_v1.raw_env(num_players=2)
    env.reset(seed=0, options={"case": case})
    view = env.player_view("player_0")
    card = view.hand[0].card
    fact = card.facts[0]
    original = dict(fact)
    engine_fact = env.game.tables.cards[env.game.hands[0][0]].facts[0]
    try:
        with contextlib.suppress(TypeError):
            fact["type"] = "tampered"
        assert engine_fact == original, "mutating a player_view fact changed the engine's case"
    finally:  # undo the damage (the generated case is cached for other tests)
        if engine_fact != original:
            engine_fact.clear()
            engine_fact.update(original)


def test_constructor_bad_arguments_raise_value_error_naming_them():
    bad = {
        "num_players": [0, 9, "3", True, 2.5],
        "level": ["impossible", 3],  # (None: the default, easy, or a case bank's level)
        "cases": ["nope", 3, []],
        "observation_mode": ["full"],
        "deck_size": [5, 1000, "70"],
        "max_rounds": [0, -1, 1.5],
        "render_mode": ["rgb_array_list"],
        "seer": ["yes", 1],
    }
    for arg, values in bad.items():
        for v in values:
            with pytest.raises(ValueError, match=arg):
                awkward_guests_v1.raw_env(**{arg: v})
    env = awkward_guests_v1.raw_env(num_players=3)
    assert env.config.max_rounds == 30  # default round limit
    case = generated_case("easy", 1, 40)
    with pytest.raises(ValueError):
        env.reset(seed=0, options={"case": case, "deck": [c.id for c in case.cards][:-1]})
    with pytest.raises(ValueError):
        env.reset(seed=0, options={"case": case, "start": 3})


def test_metadata_spaces_per_agent_and_wrapper_chain():
    from pettingzoo.utils import wrappers

    e = awkward_guests_v1.env(num_players=4)
    assert isinstance(e, wrappers.OrderEnforcingWrapper)
    assert isinstance(e.env, wrappers.AssertOutOfBoundsWrapper)
    assert isinstance(e.env.env, wrappers.TerminateIllegalWrapper)
    assert isinstance(e.env.env.env, awkward_guests_v1.raw_env)
    u = e.unwrapped
    assert u.metadata == {
        "name": "awkward_guests_v1",
        "render_modes": ["ansi", "human", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 1,
    }
    assert u.possible_agents == [f"player_{i}" for i in range(4)]
    # one space object per agent (PettingZoo's convention), built once, all equal
    assert u.observation_space("player_0") is not u.observation_space("player_3")
    assert u.observation_space("player_0") == u.observation_space("player_3")
    assert u.observation_space("player_1") is u.observation_space("player_1")
    assert u.action_space("player_0") is not u.action_space("player_2")
    assert u.action_space("player_0") == u.action_space("player_2")
    with pytest.raises(KeyError):
        u.action_space("player_4")
    sp = u.observation_space("player_0")
    assert sp["action_mask"].dtype == np.int8 and sp["action_mask"].shape == (NACT,)
    assert sp["observation"].dtype == np.float32


def _trajectory(seed, n=3, steps=400, noise=None):
    import random

    if noise is not None:
        np.random.seed(noise)  # noqa: NPY002
        random.seed(noise)
    e = awkward_guests_v1.raw_env(num_players=n, level="medium", max_rounds=4, deck_size=30)
    e.reset(seed=seed)
    rng = np.random.default_rng(0)
    out = []
    for _ in range(steps):
        st = e.game
        if st.is_terminal:
            break
        lg = st.legal_actions()
        a = NO if st.decision_name == "solution" else int(rng.choice(lg))
        e.step(a)
        env_drain_dead(e)
        if e.agents:
            out.append(e.observe(e.agent_selection)["observation"])
    return out


def test_same_seed_same_trajectory_and_no_global_rng_use():
    import random

    t1 = _trajectory(5, noise=1)
    t2 = _trajectory(5, noise=2)
    assert len(t1) == len(t2) and all(np.array_equal(a, b) for a, b in zip(t1, t2, strict=True))
    np.random.seed(123)  # noqa: NPY002
    random.seed(123)
    g0 = np.random.get_state()[1].copy()  # noqa: NPY002
    r0 = random.getstate()
    _trajectory(6)
    g1 = np.random.get_state()[1]  # noqa: NPY002
    assert np.array_equal(g1, g0) and random.getstate() == r0


def test_mid_game_checkpoints_pickle_deepcopy_clone_continue_identically():
    import pickle

    case = generated_case("medium", 44, 24)  # small deck: reshuffles (the state's generator) happen
    e = awkward_guests_v1.raw_env(num_players=3, level="medium", max_rounds=10)
    e.reset(seed=8, options={"case": case})
    rng = np.random.default_rng(8)

    def pick(st):
        lg = st.legal_actions()
        return NO if st.decision_name == "solution" else int(rng.choice(lg))

    for _ in range(60):
        e.step(pick(e.game))
        env_drain_dead(e)
    e2 = pickle.loads(pickle.dumps(e))
    e3 = copy.deepcopy(e)
    s_clone = e.game.clone()
    snap = make_view(e.game, 0)
    s_clone.apply(s_clone.legal_actions()[0])
    assert make_view(e.game, 0) == snap  # the clone is independent
    revealed_before = len(e.game.revealed)
    for _ in range(400):
        if e.game.is_terminal:
            break
        a = pick(e.game)
        for x in (e, e2, e3):
            x.step(a)
            env_drain_dead(x)
        if e.agents:
            ag = e.agent_selection
            o = e.observe(ag)["observation"]
            assert np.array_equal(o, e2.observe(ag)["observation"])
            assert np.array_equal(o, e3.observe(ag)["observation"])
        assert [e.game.hand_ids(p) for p in range(3)] == [e2.game.hand_ids(p) for p in range(3)]
        assert e.game.deck == e2.game.deck == e3.game.deck
    assert len(e.game.revealed) > revealed_before  # a reshuffle happened after the checkpoint
    # the env and its game share one generator in every copy, so the next unseeded reset (its
    # case and deal come from that generator, which the reshuffles moved) is the same too
    assert all(x._np_random is x.game.rng for x in (e, e2, e3))
    for x in (e, e2, e3):
        x.reset()
    first = [
        (x.game.case.to_json(), x.observe(x.agent_selection)["observation"]) for x in (e, e2, e3)
    ]
    assert all(c == first[0][0] and np.array_equal(o, first[0][1]) for c, o in first)


def test_classic_cases_and_case_files_play_at_their_own_level(tmp_path):
    from parlour.envs.awkward_guests import save_case

    for level in ["beginner", "very_easy", "easy", "medium", "hard", "very_hard", "expert"]:
        e = awkward_guests_v1.raw_env(num_players=2, level=level, cases="classic")
        e.reset(seed=0)
        assert e.game.case.level == level
    case = generated_case("medium", 12, 40)
    path = tmp_path / "case.json"
    save_case(case, path)
    e = awkward_guests_v1.raw_env(num_players=3, level="easy", cases=[path])
    e.reset(seed=0)
    assert e.game.case.solution == case.solution and e.game.case.accomplice_possible
    e = awkward_guests_v1.raw_env(num_players=3, level="easy")
    e.reset(seed=0, options={"case": str(path)})
    assert e.game.case.solution == case.solution


def test_pettingzoo_api_test():
    from pettingzoo.test import api_test

    api_test(awkward_guests_v1.env(num_players=3, max_rounds=3, deck_size=30), num_cycles=300)


def test_pettingzoo_and_gymnasium_registry_entries():
    import gymnasium
    import pettingzoo

    import parlour  # noqa: F401

    e = pettingzoo.make("aec", "parlour/AwkwardGuests-v1", num_players=3)
    e.reset(seed=0)
    assert e.unwrapped.possible_agents == ["player_0", "player_1", "player_2"]
    g = gymnasium.make("parlour/AwkwardGuestsSolo-v1")
    g.reset(seed=0)
    assert g.unwrapped.game.num_players == 1
