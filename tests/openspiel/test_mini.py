"""The mini table (``AuditionConfig(mini=True)``): its OpenSpiel tree is what docs/openspiel.md
says, CFR+ solves it as documented, the agent-policy wrappers of
``tools/mini_exploitability.py`` are policies of what a seat sees, and the env, the batched
engine and ``audition.expert`` play it.
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as os_policy
from open_spiel.python.algorithms import exploitability
from pettingzoo.test import api_test

import parlour.openspiel  # noqa: F401  (registers the games)
from parlour.agents.factory import make_agent
from parlour.envs import audition_v1
from parlour.envs.audition import rules as R
from parlour.envs.audition.batched import BatchedAudition
from parlour.envs.audition.determinize import determinize
from parlour.envs.audition.view import make_view
from parlour.games import get_game
from tests.tool_loader import load_tool

tool = load_tool("mini_exploitability.py")

#: docs/openspiel.md, "Exact solvers on the mini table"
DOCUMENTED_TREE = {
    "states": 1361,
    "terminal": 564,
    "chance": 127,
    "decisions": 670,
    "information_states": {"0": 335, "1": 335},
    "decisions_by_legal_actions": {"1": 202, "2": 384, "3": 84},
    "longest_history": 14,
    "cards": 3,
}
#: the CFR+ iteration documented to pass nash_conv 0.01 first
CFR_PLUS_ITERATIONS = 26
#: nash_conv of the uniform random policy (107/72)
UNIFORM_NASH_CONV = 1.486111


@pytest.fixture(scope="module")
def game() -> pyspiel.Game:
    return tool.load_mini()


def _decision_states(game: pyspiel.Game) -> list[pyspiel.State]:
    out, stack = [], [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if not state.is_chance_node():
            out.append(state)
        stack.extend(state.child(a) for a in state.legal_actions())
    return out


def test_the_mini_tree_is_the_documented_one(game):
    config = game.config
    assert config.mini and config.num_players == 2 and config.num_cards == 3
    assert config.full_deck() == [1, 2, 2]
    assert {config.capacity(k) for k in range(len(R.SLOT_KINDS))} == {R.MINI_SLOT_CAPACITY}
    assert tool.tree_size(game) == DOCUMENTED_TREE
    # every information state is one state: the one hidden card (a drawn one) is placed before
    # the other seat moves again
    states = _decision_states(game)
    keys = {(s.current_player(), s.information_state_string()) for s in states}
    assert len(keys) == len(states) == DOCUMENTED_TREE["decisions"]


def test_cfr_plus_passes_0_01_within_the_documented_iterations(game):
    solver = pyspiel.CFRPlusSolver(game)
    for _ in range(CFR_PLUS_ITERATIONS - 1):
        solver.evaluate_and_update_policy()
    assert pyspiel.nash_conv(game, solver.average_policy()) >= 0.01  # (not one earlier)
    solver.evaluate_and_update_policy()
    assert pyspiel.nash_conv(game, solver.average_policy()) < 0.01


def test_backward_induction_is_an_exact_equilibrium(game):
    """With one state per information state, backward induction solves the game: its policy's
    nash_conv is 0; the game is even, the seat that starts is behind by 1/3."""
    exact = tool.BackwardInductionPolicy(game)
    assert exploitability.nash_conv(game, exact) == pytest.approx(0.0, abs=1e-12)
    root = game.new_initial_state()
    assert exact.values[root.history_str()] == pytest.approx(0.0, abs=1e-12)
    assert exact.values[root.child(0).history_str()] == pytest.approx(-1 / 3)


def test_uniform_random_nash_conv_is_the_documented_value(game):
    assert exploitability.nash_conv(game, tool.uniform_policy(game)) == pytest.approx(
        UNIFORM_NASH_CONV, abs=1e-6
    )
    assert exploitability.nash_conv(game, os_policy.UniformRandomPolicy(game)) == pytest.approx(
        UNIFORM_NASH_CONV, abs=1e-6
    )


@pytest.mark.parametrize(
    "make",
    [
        lambda g: tool.uniform_policy(g),
        lambda g: tool.AgentPolicy(g, "audition.greedy"),
        lambda g: tool.AgentPolicy(g, "audition.expert:sims=20", samples=2, seed=3),
        lambda g: tool.ModelPolicy(g, "ppo:audition-2p"),
        lambda g: tool.ModelPolicy(g, "ppo:audition-2p:sample"),
    ],
    ids=["random", "greedy", "expert", "ppo", "ppo-sample"],
)
def test_agent_policies_are_distributions_over_the_legal_actions(game, make):
    policy = make(game)
    for state in _decision_states(game):
        seat = state.current_player()
        probs = policy.action_probabilities(state, seat)
        assert sorted(probs) == state.legal_actions(seat)
        assert all(p >= 0.0 for p in probs.values())
        assert sum(probs.values()) == pytest.approx(1.0)
        assert policy.action_probabilities(state) == probs  # (the cached answer)
    assert 0.0 <= exploitability.nash_conv(game, policy) <= 2.0 + 1e-9


def test_seeded_agent_policies_depend_on_the_information_state_only(game):
    """The same information state gives the same answer, from a fresh wrapper too."""
    a = tool.AgentPolicy(game, "audition.expert:sims=20", samples=3, seed=5)
    b = tool.AgentPolicy(game, "audition.expert:sims=20", samples=3, seed=5)
    states = _decision_states(game)[::7]
    assert [a.action_probabilities(s) for s in states] == [
        b.action_probabilities(s) for s in reversed(states)
    ][::-1]


def test_agents_see_what_the_env_shows_their_seat(game):
    """Played side by side with ``audition_v1.env(mini=True)``, the observation, mask and view
    an agent is given at each OpenSpiel state are the env's for that seat."""
    for seed in range(6):
        env = audition_v1.raw_env(mini=True)
        env.reset(seed=seed)
        agents = env.possible_agents
        state = game.new_initial_state()
        state.apply_action(env.game.start_player)
        rng = np.random.default_rng(seed)
        card = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(card)
                continue
            seat = state.current_player()
            observation, view = tool.seat_inputs(state, seat)
            expected = env.observe(agents[seat])
            np.testing.assert_array_equal(observation["observation"], expected["observation"])
            np.testing.assert_array_equal(observation["action_mask"], expected["action_mask"])
            env_view = env.player_view(agents[seat])
            assert view.config.mini
            assert view == env_view
            action = int(rng.choice(state.legal_actions()))
            card = env.game.deck[-1] if env.game.deck else 0
            state.apply_action(action)
            env.step(action)
        assert state.returns() == [env.rewards[a] for a in agents]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"num_players": 3},
        {"num_players": 6},
        {"action_cards": 1},
        {"action_cards": ("max_two",)},
        {"uncertain_counts": True},
    ],
)
def test_mini_refuses_other_tables(kwargs):
    with pytest.raises(ValueError, match="mini is the plain 2-player table"):
        R.AuditionConfig(mini=True, **kwargs)
    with pytest.raises(ValueError, match="mini is the plain 2-player table"):
        audition_v1.env(mini=True, **kwargs)
    with pytest.raises(ValueError, match="mini must be True or False"):
        R.AuditionConfig(mini="yes")


def test_the_mini_env_passes_the_api_test_and_plays():
    api_test(audition_v1.env(mini=True), num_cycles=200)
    env = audition_v1.env(mini=True)
    env.reset(seed=3)
    assert sorted(env.unwrapped.game.deck) == [1, 2, 2]
    view = env.unwrapped.player_view(env.agent_selection)
    assert [s.capacity for s in view.slots] == [2, 2]
    assert view.composition[:3] == (0, 1, 2) and not any(view.composition[3:])
    rng = np.random.default_rng(3)
    for _agent in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        over = termination or truncation
        env.step(None if over else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    results = env.unwrapped.results()
    assert results["over"] and sum(results["returns"].values()) == pytest.approx(0.0)
    assert sum(env.unwrapped.game.collections.sum(axis=1)) + env.unwrapped.game.discard.sum() == 3


def test_determinized_worlds_of_a_mini_game_are_mini_games():
    rng = np.random.default_rng(0)
    state = R.new_game(R.AuditionConfig(mini=True), rng)
    state.apply(R.DRAW)
    state.apply(R.PLACE_0)
    for seat in (0, 1):
        world = determinize(make_view(state, seat), rng)
        assert world.config.mini and world.config.num_players == 2
        assert sorted(world.deck) == sorted(state.deck)
        assert world.slot_capacity(0) == R.MINI_SLOT_CAPACITY
    full = R.new_game(R.AuditionConfig(2), rng)
    assert not determinize(make_view(full, full.current), rng).config.mini


def test_expert_and_the_batched_engine_play_the_mini_table():
    eng = BatchedAudition(8, mini=True, seed=0)
    assert eng.C == 3 and (eng.dlen == 3).all()
    with pytest.raises(ValueError, match="mini table exactly when the engine is"):
        BatchedAudition(1, deal=False).load_positions(
            [R.new_game(R.AuditionConfig(mini=True), np.random.default_rng(0))]
        )
    audition = get_game("audition")
    for seed in range(4):
        expert = make_agent("audition.expert:sims=20", audition, seed=seed)
        env = audition_v1.raw_env(mini=True)
        env.reset(seed=seed)
        for agent in env.agent_iter():
            _, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(expert.act(env.observe(agent), env.player_view(agent)))
        assert env.results()["over"]
