"""The search agents: the batched ``audition.expert`` makes the scalar expert's decisions
(``tests/agents/expert_reference.py``), and ``audition.search`` plays legal, reproducible games
and refuses bad options."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from parlour.agents.factory import make_agent
from parlour.envs.audition import rules as R
from parlour.envs.audition.env import raw_env
from parlour.games import get_game
from parlour.games.audition.expert import ExpertAgent

from .expert_reference import scalar_expert_act

MODEL = Path(__file__).parents[1] / "data" / "small_audition_model.safetensors"

#: (players, env options, sims): full games with an expert in every seat; the default run plays
#: 2 and 3 players, the slow run every row with at least 60 sims, on 6 deals
EXPERT_GAMES = [
    (2, {}, 40),
    (3, {"action_cards": 3, "uncertain_counts": True}, 10),
    (4, {"uncertain_counts": True}, 8),
    (5, {"action_cards": R.ACTION_KINDS[:5], "uncertain_counts": True}, 5),
    (6, {"action_cards": 6}, 4),
]


def expert_game_against_reference(players: int, options: dict, sims: int, seed: int) -> int:
    """One full game, every seat a batched expert checked against the scalar expert drawing
    from a generator seeded alike; returns the decisions compared."""
    env = raw_env(num_players=players, **options)
    env.reset(seed=seed)
    experts = [ExpertAgent(seed=seed * 10 + s, sims=sims) for s in range(players)]
    references = [np.random.default_rng(seed * 10 + s) for s in range(players)]
    decisions = 0
    while not env.game.is_terminal:
        seat = env.game.current_player
        view = env.player_view(env.agent_selection)
        ours = experts[seat].act(None, view)
        theirs = scalar_expert_act(view, references[seat], sims)
        assert ours == theirs, (players, options, seed, decisions, R.PHASES[env.game.phase])
        assert experts[seat].rng.bit_generator.state == references[seat].bit_generator.state
        decisions += len(view.legal_actions) > 1
        env.step(ours)
    return decisions


@pytest.mark.parametrize("players,options,sims", EXPERT_GAMES[:2])
def test_batched_expert_makes_the_scalar_experts_decisions(players, options, sims):
    assert expert_game_against_reference(players, options, sims, seed=players) > 20


@pytest.mark.slow
@pytest.mark.parametrize("players,options,sims", EXPERT_GAMES)
def test_batched_expert_makes_the_scalar_experts_decisions_many_games(players, options, sims):
    for seed in range(100, 106):
        expert_game_against_reference(players, options, max(sims, 60), seed)


def _search_game(spec: str, players: int, options: dict, seed: int) -> list[int]:
    """One full game: ``spec`` in seat 0, ``audition.greedy`` elsewhere; the actions played."""
    env = raw_env(num_players=players, **options)
    env.reset(seed=seed)
    agents = [make_agent(spec, get_game("audition"), seed=seed)] + [
        make_agent("audition.greedy", get_game("audition")) for _ in range(players - 1)
    ]
    actions = []
    for name in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        view = env.player_view(name)
        action = agents[env.agent_name_mapping[name]].act(obs, view)
        assert action in view.legal_actions, (spec, action, view.legal_actions)
        actions.append(int(action))
        env.step(action)
    return actions


#: (options, players, env options): the default run cuts policy rollouts short (``depth``) or
#: plays them greedily; the slow run also plays policy rollouts to the end
SEARCH_GAMES = [
    ("sims=4,depth=6", 2, {}),
    ("sims=8,top=3,depth=4", 3, {"action_cards": 3}),
    ("sims=5,rollout=greedy,depth=0", 4, {"uncertain_counts": True}),
    ("sims=4,sample=1,top=2,depth=8", 5, {"action_cards": R.ACTION_KINDS[:5]}),
]
SLOW_SEARCH_GAMES = [
    ("sims=6,depth=0", 2, {}),
    ("sims=4,sample=1,depth=0", 3, {"uncertain_counts": True}),
    ("sims=12,top=4", 6, {"action_cards": 6}),
]


def _check_search_games(options, players, env_options):
    spec = f"audition.search:model={MODEL},{options}"
    first = _search_game(spec, players, env_options, seed=3)
    assert len(first) > 50
    assert _search_game(spec, players, env_options, seed=3) == first  # same seed, same game


@pytest.mark.parametrize("options,players,env_options", SEARCH_GAMES)
def test_search_plays_legal_reproducible_games(options, players, env_options):
    _check_search_games(options, players, env_options)


@pytest.mark.slow
@pytest.mark.parametrize("options,players,env_options", SLOW_SEARCH_GAMES)
def test_search_plays_legal_reproducible_games_with_full_rollouts(options, players, env_options):
    _check_search_games(options, players, env_options)


def test_search_prunes_to_the_policys_top_actions():
    agent = make_agent(f"audition.search:model={MODEL},sims=6,top=2", get_game("audition"), seed=0)
    env = raw_env(num_players=4)
    env.reset(seed=5)
    while len(env.player_view(env.agent_selection).legal_actions) < 3:
        env.step(env.player_view(env.agent_selection).legal_actions[0])
    obs, view = env.observe(env.agent_selection), env.player_view(env.agent_selection)
    logits = agent._ppo.logits(obs)
    top = sorted(view.legal_actions, key=lambda a: -logits[a])[:2]
    assert agent.candidates(obs, list(view.legal_actions)) == top
    assert agent.act(obs, view) in top


def test_search_rejects_bad_options(tmp_path):
    m = f"model={MODEL}"
    cases = [
        ("audition.search", "option model=PATH is required"),
        (f"audition.search:model={tmp_path / 'none.zip'}", "no model file at"),
        (f"audition.search:{m},sims=0", "sims must be an int >= 1, got 0"),
        (f"audition.search:{m},sims=lots", "option sims must be an int, got 'lots'"),
        (f"audition.search:{m},top=-1", "top must be an int >= 0"),
        (f"audition.search:{m},depth=x", "option depth must be an int"),
        (f"audition.search:{m},rollout=random", r"rollout must be one of \['policy', 'greedy'\]"),
        (f"audition.search:{m},sample=2", "sample must be 0 or 1, got 2"),
        (f"audition.search:{m},width=3", "does not take options"),
    ]
    for spec, message in cases:
        with pytest.raises((ValueError, FileNotFoundError), match=message):
            make_agent(spec, get_game("audition"))
    with pytest.raises(ValueError, match="plays audition, not 'guests'"):
        make_agent(f"audition.search:{m}", get_game("guests"))


def test_search_refuses_a_model_of_another_player_count(tmp_path):
    run = tmp_path / "runs" / "three"
    run.mkdir(parents=True)
    shutil.copy(MODEL, run / "model.safetensors")
    (run / "config.yaml").write_text("name: three\nplayers: 3\n")
    agent = make_agent(f"audition.search:model={run},sims=4", get_game("audition"), seed=0)
    assert agent.path == str(run / "model.safetensors") and agent.players == 3
    env = raw_env(num_players=2)
    with pytest.raises(ValueError, match="trained for 3 players .* this game has 2"):
        agent.check_fits(env)
    env.reset(seed=0)
    obs, view = env.observe(env.agent_selection), env.player_view(env.agent_selection)
    with pytest.raises(ValueError, match="trained for 3 players"):
        agent.act(obs, view)
    agent.check_fits(raw_env(num_players=3))  # fits


def test_search_is_offered_with_each_model_only():
    from parlour.agents.factory import known_agents, model_agents
    from parlour.apps.web.catalog import Catalog

    assert "audition.search" not in known_agents(get_game("audition"))
    assert model_agents(get_game("audition")) == ["audition.search"]
    assert model_agents(get_game("guests")) == []
    from parlour.models import find_model

    path = str(find_model("audition-3p").path)
    games = {g["name"]: g for g in Catalog([path]).games()}
    agents = {name: g["agents"] for name, g in games.items()}
    # the operator's model is offered by id; the label the page shows names its path
    assert "audition.search:model=#1" in agents["audition"]
    label = games["audition"]["labels"]["audition.search:model=#1"]
    assert label == f"Search on your model: {path}"
    assert not any(a.startswith("audition.search") for a in agents["guests"])


def test_search_takes_a_shipped_models_short_name_and_its_player_count():
    from parlour.models import find_model

    agent = make_agent("audition.search:model=audition-3p,sims=4", get_game("audition"), seed=0)
    assert agent.path == str(find_model("audition-3p").path) and agent.players == 3
    with pytest.raises(ValueError, match="trained for 3 players"):
        agent.check_fits(raw_env(num_players=2))
    agent.check_fits(raw_env(num_players=3))
    with pytest.raises(ValueError, match="no shipped model of that name"):
        make_agent("audition.search:model=audition-9p", get_game("audition"))
