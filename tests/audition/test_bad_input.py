"""Bad input: constructor validation, illegal actions through env() and on the raw engine."""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest

from parlour.envs import audition_v1
from parlour.envs.audition import rules as R
from tests.audition.driver import ACTION_KINDS, TOP, spec_deck


@pytest.mark.parametrize(
    ("kwargs", "argument"),
    [
        (dict(num_players=1), "num_players"),
        (dict(num_players=7), "num_players"),
        (dict(num_players="2"), "num_players"),
        (dict(num_players=True), "num_players"),
        (dict(action_cards=["shuffle"]), "action_cards"),
        (dict(action_cards=["max_two", "max_two"]), "action_cards"),
        (dict(action_cards=["max_two", "pass_left", "take_now"]), "action_cards"),
        (dict(action_cards=3), "action_cards"),
        (dict(action_cards=-1), "action_cards"),
        (dict(action_cards="max_two"), "action_cards"),
        (dict(action_cards=True), "action_cards"),
        (dict(num_players=3, action_cards=-1), "action_cards"),
        (dict(num_players=3, action_cards=["max_two", "max_two"]), "action_cards"),
        (dict(num_players=3, action_cards=["conductor"]), "action_cards"),
        (dict(num_players=3, action_cards=["bogus"]), "action_cards"),
        (dict(uncertain_counts="yes"), "uncertain_counts"),
        (dict(reward_mode="points"), "reward_mode"),
        (dict(render_mode="rgb_array_list"), "render_mode"),
        (dict(seer=1), "seer"),
    ],
)
def test_invalid_constructor_arguments_name_the_argument(kwargs, argument):
    with pytest.raises(ValueError, match=argument):
        audition_v1.env(**kwargs)


def test_error_lists_allowed_kinds():
    with pytest.raises(ValueError, match="take_now"):
        audition_v1.env(action_cards=["bogus"])


def test_invalid_reset_options():
    env = audition_v1.raw_env(num_players=2)
    with pytest.raises(ValueError, match="deck"):
        env.reset(options={"deck": [1, 2, 3]})
    with pytest.raises(ValueError, match="deck"):
        env.reset(options={"deck": R.full_deck(3)})
    with pytest.raises(ValueError, match="start"):
        env.reset(options={"start": 2})


def test_illegal_action_through_env_ends_the_game_via_terminate_illegal_wrapper(caplog):
    env = audition_v1.env(num_players=3)
    env.reset(seed=0)
    offender = env.agent_selection
    env.step(R.TAKE_0)  # slots are empty: taking is illegal
    assert "Illegal move" in caplog.text
    assert all(env.terminations.values())
    assert env._cumulative_rewards[offender] == -1
    assert all(env._cumulative_rewards[a] == 0 for a in env.possible_agents if a != offender)


def test_out_of_bounds_action_is_rejected_by_the_wrapper():
    env = audition_v1.env(num_players=2)
    env.reset(seed=0)
    with pytest.raises(AssertionError):
        env.step(27)


def test_illegal_action_on_the_engine_raises_and_leaves_the_state_unchanged():
    state = R.new_game(R.AuditionConfig(4, 4, True), np.random.default_rng(1))
    rng = np.random.default_rng(2)
    for _ in range(40):
        state.apply(int(rng.choice(state.legal_actions())))
    for bad in [a for a in range(R.NUM_ACTIONS) if a not in state.legal_actions()] + [-1, 27, 99]:
        before = pickle.dumps(state)
        with pytest.raises(R.IllegalActionError, match="illegal action"):
            state.apply(bad)
        assert pickle.dumps(state) == before


def test_illegal_action_on_raw_env_raises_clear_error():
    env = audition_v1.raw_env(num_players=2)
    env.reset(seed=0)
    with pytest.raises(audition_v1.IllegalActionError, match="legal: \\['DRAW'\\]"):
        env.step(R.PASS)
    env.step(R.DRAW)  # still usable afterwards


def test_applying_after_the_end_is_illegal():
    state = R.new_game(R.AuditionConfig(2), np.random.default_rng(0))
    rng = np.random.default_rng(0)
    while not state.is_terminal:
        state.apply(int(rng.choice(state.legal_actions())))
    with pytest.raises(R.IllegalActionError, match="'over'"):
        state.apply(R.DRAW)


@pytest.mark.parametrize("bad", [True, np.bool_(True), 6.0, np.float64(6.0), "6", None])
def test_non_integer_actions_are_illegal_on_the_engine(bad):
    state = R.new_game(R.AuditionConfig(2), np.random.default_rng(0))
    state.apply(R.DRAW)
    state.apply(R.PLACE_0 + 1)  # now TAKE 1 (== True) would be legal
    before = pickle.dumps(state)
    with pytest.raises(R.IllegalActionError):
        state.apply(bad)
    assert pickle.dumps(state) == before


@pytest.mark.parametrize("card", [1.5, "1", True, 1.0])
def test_fixed_deck_entries_must_be_ints(card):
    deck = R.full_deck(2)
    deck[0] = card
    with pytest.raises(ValueError, match="deck"):
        audition_v1.raw_env().reset(options={"deck": deck})


def test_pettingzoo_state_method_is_not_shadowed_by_hidden_state():
    env = audition_v1.env(num_players=2)
    env.reset(seed=0)
    with pytest.raises(NotImplementedError):
        env.state()


def test_infos_are_fresh_empty_dicts_not_mutated_later():
    env = audition_v1.env(num_players=2)
    env.reset(seed=0)
    info = env.last()[4]
    assert info == {} and env.unwrapped.results()["phase"] == "turn"
    info["scribble"] = 1  # what a caller (or a conversion wrapper) writes into an info ...
    env.step(R.DRAW)
    assert env.last()[4] == {}  # ... does not come back on the next step
    assert info == {"scribble": 1}  # and the dict handed out earlier is left alone
    assert env.unwrapped.results()["phase"] == "place"


@pytest.mark.parametrize(
    "bad",
    [
        lambda n: spec_deck(n)[:-1],  # a card missing
        lambda n: spec_deck(n) + [1],  # a card too many
        lambda n: spec_deck(n)[:-1] + [TOP[n] + 1],  # a number not in play
        lambda n: spec_deck(n + 1),  # the deck of another player count
    ],
)
def test_fixed_deck_must_be_exactly_the_games_cards(bad):
    env = audition_v1.raw_env(num_players=2)
    with pytest.raises(ValueError):
        env.reset(options={"deck": bad(2), "start": 0})


def test_every_masked_out_action_is_rejected_and_every_masked_in_accepted():
    rng = random.Random(3)
    cards = spec_deck(3)
    rng.shuffle(cards)
    env = audition_v1.raw_env(num_players=3, action_cards=ACTION_KINDS[:3])
    env.reset(seed=0, options={"deck": cards, "start": 0})
    checked = 0
    while not all(env.terminations.values()):
        mask = env.observe(env.agent_selection)["action_mask"]
        if checked < 20:
            for a in range(27):
                probe = copy.deepcopy(env)
                if mask[a]:
                    probe.step(a)
                else:
                    with pytest.raises(R.IllegalActionError):
                        probe.step(a)
                    # state unchanged after a rejected action
                    assert probe.agent_selection == env.agent_selection
                    np.testing.assert_array_equal(
                        probe.observe(probe.agent_selection)["action_mask"], mask
                    )
            checked += 1
        env.step(int(rng.choice(np.flatnonzero(mask).tolist())))
