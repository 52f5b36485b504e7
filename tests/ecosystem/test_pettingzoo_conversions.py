"""PettingZoo conversions (``docs/ecosystem/pettingzoo_conversions.md``): the page's
``turn_based_aec_to_parallel`` recipe for Audition and Awkward Guests at 2 and 4 players:
PettingZoo's ``parallel_api_test``, random legal games whose totals match the env's
``results()`` (an Awkward Guests 4p knock-out included), and every step of a game checked: all
players present until the end, one player to move, sampled actions inside the action space,
rewards only at the end."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test
from pettingzoo.utils.conversions import aec_to_parallel, turn_based_aec_to_parallel

from .recipes import (
    CONFIG_IDS,
    CONFIGS,
    KeepResults,
    assert_final_rewards,
    results_log,
    run_page,
)

PAGE = "pettingzoo_conversions.md"


def test_the_page_example_plays_four_player_games():
    ns = run_page(PAGE)
    env = ns["env"]
    for totals in ns["play_random_games"](env, games=2, seed=1):
        assert list(totals) == env.possible_agents
        assert_final_rewards(list(totals.values()), 4)


@pytest.mark.parametrize(("name", "make_env", "game", "players"), CONFIGS, ids=CONFIG_IDS)
def test_parallel_api_and_random_games_match_results(name, make_env, game, players):
    play_random_games = run_page(PAGE)["play_random_games"]
    parallel_api_test(turn_based_aec_to_parallel(make_env()), num_cycles=300)
    key = f"conversions-{name}"
    log = results_log(key)
    env = turn_based_aec_to_parallel(KeepResults(make_env(), key))
    finished = play_random_games(env, games=5, seed=11)
    assert len(finished) == 5 and len(log) == 5  # (each game was reset after it ended)
    for totals, results in zip(finished, log, strict=True):
        assert_final_rewards(list(totals.values()), players)
        assert totals == pytest.approx(results["returns"])
    if name == "guests-4p":
        assert any(any(r["out"].values()) for r in log), "no knock-out: pick another seed"


@pytest.mark.parametrize(("name", "make_env", "game", "players"), CONFIGS, ids=CONFIG_IDS)
def test_every_step_has_every_player_and_one_player_to_move(name, make_env, game, players):
    env = turn_based_aec_to_parallel(make_env())
    agents = env.possible_agents
    rng = np.random.default_rng(2)
    for seed in range(3):
        observations, infos = env.reset(seed=seed)
        saw_knock_out = False
        while env.agents:
            assert env.agents == agents and set(observations) == set(agents)
            to_move = [a for a in agents if observations[a]["action_mask"].any()]
            assert len(to_move) == 1
            actions = {}
            for a in agents:
                space = env.action_space(a)
                actions[a] = space.sample(observations[a]["action_mask"])
                assert space.contains(actions[a])
            mask = observations[to_move[0]]["action_mask"]
            actions[to_move[0]] = int(rng.choice(np.flatnonzero(mask)))
            observations, rewards, terms, truncs, infos = env.step(actions)
            done = [terms[a] or truncs[a] for a in agents]
            assert all(done) or not any(done)  # the game ends for everybody at once
            if not any(done):
                assert set(rewards.values()) == {0.0}
                saw_knock_out |= any(env.unwrapped.results().get("out", {}).values())
            else:
                assert_final_rewards([rewards[a] for a in agents], players)
                assert rewards == pytest.approx(env.unwrapped.results()["returns"])
        assert env.agents == []
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(make_env())
    if name == "guests-4p":
        assert saw_knock_out, "no game went on after a knock-out: pick other seeds"
