"""Scripted agents: legality over many games, the factory, greedy decisions, expert view-only."""

from __future__ import annotations

import numpy as np
import pytest

from parlour.agents.factory import make_agent
from parlour.agents.random_agent import RandomAgent
from parlour.envs import audition_v1
from parlour.envs.audition import rules as R
from parlour.envs.audition.view import make_view
from parlour.games import get_game
from parlour.games.audition.expert import ExpertAgent
from parlour.games.audition.greedy import GreedyAgent

VARIANTS = [
    {},
    {"action_cards": 99},  # replaced by num_players below: every action card in play
    {"uncertain_counts": True},
    {"action_cards": 2, "uncertain_counts": True},
]


def _play(env, agents, seed):
    """One game; every agent's action is checked against the engine's legal actions."""
    env.reset(seed=seed)
    for i, a in enumerate(agents):
        a.reset(seed * 7 + i)
    moves = 0
    for name in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        seat = env.agent_name_mapping[name]
        action = agents[seat].act(obs, env.player_view(name))
        legal = env.game.legal_actions()
        assert isinstance(action, int)
        assert action in legal, f"{agents[seat].spec} chose {action}, legal {legal}"
        assert obs["action_mask"][action] == 1
        env.step(action)
        moves += 1
    return moves


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_scripted_agents_only_play_legal_actions(players, variant):
    opts = dict(VARIANTS[variant])
    if opts.get("action_cards") == 99:
        opts["action_cards"] = players
    env = audition_v1.raw_env(num_players=players, **opts)
    for g in range(8):  # full games: random and greedy in every seat
        agents = [[RandomAgent(), GreedyAgent()][(s + g) % 2] for s in range(players)]
        assert _play(env, agents, seed=100 * players + g) > 0
    # the expert (whole games are slow): decisions at many points of random games
    expert = ExpertAgent(sims=4, seed=players)
    rng = np.random.default_rng(variant)
    decisions = 0
    for g in range(4):
        env.reset(seed=1000 + g)
        while not env.game.is_terminal:
            seat = env.game.current_player
            legal = env.game.legal_actions()
            if len(legal) > 1 and rng.random() < 0.25:
                action = expert.act(None, env.player_view(env.agent_selection))
                assert action in legal, f"expert chose {action}, legal {legal}"
                decisions += 1
            else:
                action = legal[rng.integers(len(legal))]
            env.step(action)
            assert seat >= 0
    assert decisions > 10


def test_factory_builds_known_specs_and_rejects_unknown():
    assert make_agent("random", get_game("audition")).spec == "random"
    assert isinstance(make_agent("audition.greedy", get_game("audition")), GreedyAgent)
    expert = make_agent("audition.expert:sims=33", get_game("audition"))
    assert isinstance(expert, ExpertAgent) and expert.sims == 33
    with pytest.raises(ValueError, match="known agents: random, audition.greedy"):
        make_agent("audition.genius", get_game("audition"))
    with pytest.raises(ValueError, match="does not take options"):
        make_agent("audition.greedy:depth=2", get_game("audition"))
    with pytest.raises(ValueError, match="sims must be an int"):
        make_agent("audition.expert:sims=many", get_game("audition"))
    with pytest.raises(ValueError, match="sims must be a positive int"):
        make_agent("audition.expert:sims=0", get_game("audition"))
    with pytest.raises(ValueError, match="plays audition, not 'guests'"):
        make_agent("audition.greedy", get_game("guests"))
    with pytest.raises(FileNotFoundError):
        make_agent("ppo:/nonexistent/model.zip", get_game("audition"))


def _state_after(moves, players=2, seed=0, **kw):
    state = R.new_game(R.AuditionConfig(players, **kw), np.random.default_rng(seed))
    rng = np.random.default_rng(seed + 1)
    for _ in range(moves):
        if state.is_terminal:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
    return state


def test_greedy_takes_the_slot_that_raises_its_score_most_else_draws():
    state = _state_after(0, players=3)
    state.current = 0
    state.collections[0, 5] = 3  # a fourth 5 makes a quartet (+5)
    state.slots[1, 5] = 1
    state.slots[2, 7] = 1  # a soloist (+1)
    state.slot_size = [0, 1, 1]
    state.refresh()
    view = make_view(state, 0)
    assert GreedyAgent().act(None, view) == R.TAKE_0 + 1
    state.collections[0, 5] = 1  # now the 5 would make a pair (-1), the 7 still +1
    state.collections[0, 7] = 1  # and the 7 a pair too: nothing raises the score
    state.refresh()
    assert GreedyAgent().act(None, make_view(state, 0)) == R.DRAW


def test_greedy_places_where_it_helps_itself_and_not_the_next_player():
    state = _state_after(0, players=2)
    state.current = 0
    state.apply(R.DRAW)
    card = state.drawn
    state.collections[1, card] = 3  # the next player would complete a quartet
    state.slots[0, card] = 0
    state.refresh()
    action = GreedyAgent().act(None, make_view(state, 0))
    assert action in state.legal_actions() and action in (R.PLACE_0, R.PLACE_0 + 1)
    # both slots are empty: either gives the opponent its quartet; put a card of the same
    # number on slot 1 so that placing there makes a pair for the opponent instead
    state.slots[1, card] = 1
    state.slot_size[1] = 1
    state.refresh()
    assert GreedyAgent().act(None, make_view(state, 0)) == R.PLACE_0 + 1


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("kw", [{}, {"action_cards": 2, "uncertain_counts": True}])
def test_determinized_state_shows_the_same_view(players, kw):
    from parlour.envs.audition.determinize import determinize

    for moves in (0, 5, 17, 40, 80):
        state = _state_after(moves, players=players, seed=moves, **kw)
        if state.is_terminal:
            continue
        seat = state.current_player
        view = make_view(state, seat)
        rng = np.random.default_rng(moves)
        worlds = [determinize(view, rng) for _ in range(5)]
        for w in worlds:
            assert make_view(w, seat) == view
            assert w.card_total() == state.card_total()
            assert sorted(w.deck + w.removed) == sorted(state.deck + state.removed)
        if len(state.deck) > 3:
            assert len({tuple(w.deck) for w in worlds}) > 1  # the hidden order is sampled


def test_expert_decides_from_the_view_only():
    """Two games that differ only in hidden cards look the same to the expert."""
    for moves in (3, 20, 50):
        a = _state_after(moves, players=3, seed=moves, uncertain_counts=True)
        b = a.clone()
        hidden = b.deck + b.removed
        np.random.default_rng(99).shuffle(hidden)
        b.removed, b.deck = hidden[:5], hidden[5:]
        assert b.deck != a.deck
        seat = a.current_player
        va, vb = make_view(a, seat), make_view(b, seat)
        assert va == vb
        e1, e2 = ExpertAgent(sims=30, seed=5), ExpertAgent(sims=30, seed=5)
        assert e1.act(None, va) == e2.act(None, vb)


def test_greedy_beats_random_fast():
    from parlour.eval.tournament import run_tournament

    r = run_tournament(
        get_game("audition"), 2, ["audition.greedy", "random"], 200, workers=1, progress=False
    )
    greedy = r["agents"][0]
    assert greedy["ci95"][0] > 0.5, greedy


@pytest.mark.slow
def test_greedy_beats_random_and_expert_beats_greedy():
    from parlour.eval.tournament import run_tournament

    r = run_tournament(
        get_game("audition"), 2, ["audition.greedy", "random"], 1000, seed=1, progress=False
    )
    assert r["agents"][0]["ci95"][0] > 0.5, r["agents"][0]
    r = run_tournament(
        get_game("audition"), 2, ["audition.expert", "audition.greedy"], 200, seed=2, progress=False
    )
    assert r["agents"][0]["ci95"][0] > 0.5, r["agents"][0]


def test_loading_a_model_leaves_the_global_random_streams_alone(tmp_path):
    """SB3's load seeds Python's, NumPy's and torch's global generators with the saved seed: a
    trainer that loads a snapshot or evaluates its learner would restart its own streams."""
    import random
    import shutil
    from pathlib import Path

    import torch

    from parlour.agents.ppo import load_policy

    def draws() -> tuple:
        return random.random(), np.random.random(), float(torch.rand(1))  # noqa: NPY002

    data = Path(__file__).parents[1] / "data"
    # (an SB3 zip, trusted: SB3's load seeds them; parlour's format: building draws weights)
    for name in ("legacy_audition_model.zip", "small_audition_model.safetensors"):
        model = tmp_path / name  # (a fresh path: not served from the policy cache)
        shutil.copy(data / name, model)
        random.seed(7), np.random.seed(7), torch.manual_seed(7)  # noqa: NPY002
        expected = draws()
        random.seed(7), np.random.seed(7), torch.manual_seed(7)  # noqa: NPY002
        load_policy(str(model), trust=True)
        assert draws() == expected, name
