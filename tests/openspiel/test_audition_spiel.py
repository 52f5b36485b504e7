"""``parlour_audition``: OpenSpiel's own game checks, and the game held to the PettingZoo env.

The differential test deals the OpenSpiel game exactly as ``audition_v1`` dealt a seed (its
chance outcomes are the env's slot kinds, start seat and deck, card by card), plays the same
random moves in both, and compares at every step: the player to act, the legal actions, every
seat's observation, and at the end the returns.
"""

from __future__ import annotations

import pickle
from collections import Counter

import numpy as np
import pyspiel
import pytest

import parlour.openspiel  # noqa: F401  (registers the games)
from parlour.envs import audition_v1
from parlour.envs.audition import rules as R
from parlour.games import get_game
from parlour.openspiel.audition import (
    GAME_NAME,
    AuditionSpielGame,
    AuditionSpielState,
    all_kind_placements,
    params_of_env,
)

#: (OpenSpiel parameters, the env's keyword arguments): every configuration of the game's
#: registry entry (every player count, both variants), and fixed action cards, score rewards
ENV_TABLES = [
    *((n, dict(options)) for n, options in get_game("audition").configurations),
    (6, {"action_cards": R.ACTION_KINDS, "reward_mode": "score"}),
    (3, {"action_cards": 3}),
]
CONFIGS = [
    *((params_of_env(n, options), {"num_players": n, **options}) for n, options in ENV_TABLES),
    ({"players": 2, "variant": "mini"}, None),
]
IDS = [",".join(f"{k}={v}" for k, v in params.items()) for params, _ in CONFIGS]


def _load(params: dict) -> AuditionSpielGame:
    return pyspiel.load_game(GAME_NAME, params)


@pytest.mark.parametrize(("params", "env_kwargs"), CONFIGS, ids=IDS)
def test_openspiel_game_checks(params, env_kwargs):
    """OpenSpiel's random simulation test: legal actions, chance, tensors, strings,
    clone and the serialization round trip at every state of a few games."""
    pyspiel.random_sim_test(_load(params), num_sims=2, serialize=True, verbose=False)


def _deal_like_the_env(state: AuditionSpielState, env_state: R.AuditionState) -> None:
    """The chance nodes of the deal, with the env's outcomes."""
    while state.is_chance_node() and state._g.kind_slot < env_state.num_players:
        state.apply_action(env_state.slot_kinds[state._g.kind_slot])
    assert state.is_chance_node()  # the start seat
    state.apply_action(env_state.start_player)


@pytest.mark.parametrize(
    ("params", "env_kwargs"),
    [c for c in CONFIGS if c[1]],
    ids=[i for i, c in zip(IDS, CONFIGS, strict=True) if c[1]],
)
@pytest.mark.parametrize("seed", [0, 1, 7])
def test_same_game_as_the_pettingzoo_env(params, env_kwargs, seed):
    env = audition_v1.raw_env(**env_kwargs)
    env.reset(seed=seed)
    agents = env.possible_agents
    state = _load(params).new_initial_state()
    _deal_like_the_env(state, env.game)
    rng = np.random.default_rng(seed)
    steps = 0
    card = 0  # the env's top card before its last step: what a chance node now draws
    while True:
        if state.is_chance_node():  # a drawn card: the env's next card
            outcomes = dict(state.chance_outcomes())
            # the cards the env has not shown: its deck, its removed cards and the one drawn
            unseen = Counter([*env.game.deck, *env.game.removed, card])
            total = sum(unseen.values())
            assert outcomes == pytest.approx({v: k / total for v, k in unseen.items()})
            state.apply_action(card)
            continue
        if state.is_terminal():
            break
        player = state.current_player()
        assert player == agents.index(env.agent_selection)
        mask = env.observe(env.agent_selection)["action_mask"]
        assert state.legal_actions() == np.flatnonzero(mask).tolist()
        for seat, agent in enumerate(agents):
            observation = env.observe(agent)["observation"]
            np.testing.assert_array_equal(state.observation_tensor(seat), observation)
        action = int(rng.choice(state.legal_actions()))
        card = env.game.deck[-1] if env.game.deck else 0
        state.apply_action(action)
        env.step(action)
        steps += 1
    assert all(env.terminations.values())
    assert state.returns() == pytest.approx([env.rewards[a] for a in agents])
    assert steps <= state.get_game().max_game_length()


def test_random_action_cards_are_dealt_uniformly():
    """The per-slot chance nodes give every placement of k distinct kinds on k slots the same
    probability, as the env's ``reset`` does."""
    game = _load({"players": 3, "random_action_cards": 2})
    found: dict[tuple[int, ...], float] = {}

    def walk(state: AuditionSpielState, prob: float) -> None:
        if state._g.kind_slot == 3:
            found[tuple(state.engine.slot_kinds)] = found.get(tuple(state.engine.slot_kinds), 0.0)
            found[tuple(state.engine.slot_kinds)] += prob
            return
        for outcome, p in state.chance_outcomes():
            walk(state.child(outcome), prob * p)

    walk(game.new_initial_state(), 1.0)
    placements = all_kind_placements(3, 2)
    assert set(found) == set(placements) and len(placements) == 3 * 6 * 5
    assert all(p == pytest.approx(1.0 / len(placements)) for p in found.values())


def _state_after(game, moves: int, seed: int) -> AuditionSpielState:
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    for _ in range(moves):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def _finish(state: AuditionSpielState, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    seen = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            seen.append(state.information_state_string())
            state.apply_action(int(rng.choice(state.legal_actions())))
    return [*seen, str(state.returns())]


@pytest.mark.parametrize("params", [{"players": 3, "random_action_cards": 3}, {"players": 2}])
def test_clone_and_serialization_continue_identically(params):
    game = _load(params)
    state = _state_after(game, 40, seed=3)
    copy = state.clone()
    game2, restored = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state)
    )
    pickled = pickle.loads(pickle.dumps(state))
    expected = _finish(state, seed=11)
    assert _finish(copy, seed=11) == expected
    assert _finish(restored, seed=11) == expected
    assert _finish(pickled, seed=11) == expected


def test_another_seats_drawn_card_is_hidden_until_placed():
    """Two worlds that differ only in the card seat 1 has just drawn: seat 0's information
    state and observation are the same in both, seat 1's differ; after the PLACE all differ."""
    game = _load({"players": 2})
    state = game.new_initial_state()
    state.apply_action(1)  # seat 1 starts
    state.apply_action(R.DRAW)
    worlds = [state.child(card) for card in (3, 7)]
    for view in (
        AuditionSpielState.information_state_string,
        AuditionSpielState.observation_string,
    ):
        assert view(worlds[0], 0) == view(worlds[1], 0)
        assert view(worlds[0], 1) != view(worlds[1], 1)
    for tensor in (
        AuditionSpielState.information_state_tensor,
        AuditionSpielState.observation_tensor,
    ):
        assert tensor(worlds[0], 0) == tensor(worlds[1], 0)
        assert tensor(worlds[0], 1) != tensor(worlds[1], 1)
    placed = [w.child(R.PLACE_0) for w in worlds]
    assert placed[0].information_state_string(0) != placed[1].information_state_string(0)


def test_information_states_have_perfect_recall():
    """A seat's information state never repeats along a game (its own moves are in it)."""
    state = _state_after(_load({"players": 3}), 0, seed=0)
    rng = np.random.default_rng(5)
    seen: dict[int, set[str]] = {0: set(), 1: set(), 2: set()}
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        player = state.current_player()
        key = state.information_state_string(player)
        assert key not in seen[player]
        seen[player].add(key)
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_observer_has_the_env_observations_named_pieces():
    from open_spiel.python.observation import make_observation

    game = _load({"players": 4})
    observation = make_observation(game)
    state = _state_after(game, 30, seed=2)
    observation.set_from(state, 2)
    assert observation.dict["slots"].shape == (R.MAX_PLAYERS, 23)
    assert observation.dict["players"].shape == (R.MAX_PLAYERS, 19)
    np.testing.assert_array_equal(observation.tensor, state.observation_tensor(2))


@pytest.mark.parametrize(
    ("params", "named"),
    [
        ({"variant": "huge"}, "variant must be one of ['standard', 'mini']"),
        ({"reward_mode": "points"}, "reward_mode must be one of ['win', 'score']"),
        ({"players": 7}, "parlour_audition: players must be in 2..6"),
        ({"random_action_cards": 3}, "random_action_cards must be in 0..players=2"),
        ({"action_cards": "pass_left+dance"}, "unknown kind 'dance'"),
        ({"action_cards": "pass_left", "random_action_cards": 1}, "not both"),
        ({"variant": "mini", "players": 3}, "variant=mini is the plain 2-player table"),
        ({"variant": "mini", "uncertain_counts": True}, "variant=mini is the plain 2-player"),
    ],
)
def test_bad_parameters_name_the_parameter(params, named):
    with pytest.raises(Exception, match=None) as raised:
        _load(params)
    assert named in str(raised.value)


def test_illegal_actions_are_refused_and_change_nothing():
    state = _state_after(_load({"players": 2}), 5, seed=1)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    before = state.information_state_string()
    illegal = next(a for a in range(R.NUM_ACTIONS) if a not in state.legal_actions())
    with pytest.raises(Exception, match="illegal action"):
        state.apply_action(illegal)
    assert state.information_state_string() == before


def test_every_dealt_action_card_shows_at_once():
    """While the action cards are dealt slot by slot, the table shown is the one dealt so far
    (a reused observer and a fresh state agree; a max_two slot holds 2)."""
    from open_spiel.python.observation import make_observation

    game = _load({"players": 3, "random_action_cards": 3})
    observation = make_observation(game)
    state = game.new_initial_state()
    observation.set_from(state, 0)
    state.apply_action(R.K_MAX_TWO)
    observation.set_from(state, 0)
    fresh = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    np.testing.assert_array_equal(observation.tensor, fresh.observation_tensor(0))
    assert "0/2" in state.observation_string(0).splitlines()[2]
