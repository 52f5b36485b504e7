"""``openspiel.ismcts`` / ``openspiel.mcts``: the states they search agree with what their
player sees, the ISMCTS resampler keeps the player's information state, and they play."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import parlour.openspiel  # noqa: F401  (registers the games)
from parlour.agents.factory import make_agent
from parlour.envs import audition_v1
from parlour.eval.tournament import run_tournament
from parlour.games import get_game
from parlour.openspiel.audition import (
    GAME_NAME,
    EngineRolloutEvaluator,
    params_of_env,
    resample,
    state_from_view,
)

AUDITION = get_game("audition")
#: the env's tables (players, options) the searched states are checked at
TABLES = [
    (2, {}),
    (2, {"action_cards": 0}),
    (4, {"action_cards": 3}),
    (3, {"uncertain_counts": True}),
    (6, {"action_cards": 6}),
    (2, {"mini": True}),
]


def _positions(env_kwargs: dict, seed: int):
    """(env, agent) at every decision of a random game."""
    env = audition_v1.raw_env(**env_kwargs)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while not all(env.terminations.values()):
        agent = env.agent_selection
        yield env, agent
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_the_searched_state_shows_the_players_observation(players, options):
    """At every decision of random games, the state built from the player's view gives that
    player the env's observation and legal actions, bit for bit."""
    game = pyspiel.load_game(GAME_NAME, params_of_env(players, options))
    for seed in (0, 1):
        for env, agent in _positions({"num_players": players, **options}, seed):
            seat = env.possible_agents.index(agent)
            state = state_from_view(game, env.player_view(agent))
            observation = env.observe(agent)
            np.testing.assert_array_equal(
                state.observation_tensor(seat), observation["observation"]
            )
            assert state.legal_actions() == np.flatnonzero(observation["action_mask"]).tolist()


def test_resampled_worlds_keep_the_players_information_state():
    """Every world the ISMCTS resampler draws gives the player the same information state and
    observation; a world for another player redraws the card being placed."""
    game = pyspiel.load_game(GAME_NAME, {"players": 3})
    rng = np.random.default_rng(4)
    redrawn = 0
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        for player in range(3):
            for _ in range(3):
                world = resample(state, player, rng)
                assert world.information_state_string(player) == state.information_state_string(
                    player
                )
                assert world.observation_tensor(player) == state.observation_tensor(player)
                assert world.legal_actions() == state.legal_actions()
                redrawn += world.engine.drawn != state.engine.drawn
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert redrawn > 0  # another seat's drawn card is resampled


def test_engine_rollouts_end_the_game_with_its_returns():
    game = pyspiel.load_game(GAME_NAME, {"players": 2, "uncertain_counts": True})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    values = EngineRolloutEvaluator(8, np.random.default_rng(0)).evaluate(state)
    assert values.shape == (2,) and abs(values.sum()) < 1e-9 and -1 <= values.min() <= 1


@pytest.mark.parametrize("spec", ["openspiel.ismcts:sims=16", "openspiel.mcts:sims=16"])
def test_the_bots_play_whole_games_in_a_tournament(spec):
    """In worker processes (the game and its agents go there by pickle)."""
    result = run_tournament(
        AUDITION, 2, [spec, "audition.greedy"], games=2, seed=1, workers=2, progress=False
    )
    assert [row["games"] for row in result["agents"]] == [2, 2]
    assert sum(row["wins"] for row in result["agents"]) == pytest.approx(2.0)


@pytest.mark.parametrize(
    ("spec", "named"),
    [
        ("openspiel.ismcts:sims=0", "sims and rollouts must be positive"),
        ("openspiel.mcts:uct=-1", "uct must be a positive number"),
        ("openspiel.ismcts:rollouts=x", "option rollouts must be an int"),
        ("openspiel.ismcts:depth=3", "depth"),
    ],
)
def test_bad_options_are_refused_by_name(spec, named):
    with pytest.raises(ValueError, match=named):
        make_agent(spec, AUDITION, seed=0)


def test_the_other_game_says_it_has_no_openspiel_bots():
    with pytest.raises(ValueError, match="openspiel.ismcts") as raised:
        make_agent("openspiel.ismcts", get_game("guests"), seed=0)
    assert "offers no OpenSpiel bots" in str(raised.value)


def test_a_view_of_another_table_is_refused():
    env = audition_v1.raw_env(num_players=2, action_cards=("max_two",))
    env.reset(seed=0)
    game = pyspiel.load_game(GAME_NAME, {"players": 2})
    with pytest.raises(ValueError, match="is not this game's"):
        state_from_view(game, env.player_view(env.agent_selection))
