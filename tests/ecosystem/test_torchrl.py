"""TorchRL (``docs/ecosystem/torchrl.md``): the page's ``PettingZooWrapper`` recipe for Audition
and Awkward Guests at 2 and 4 players: ``check_env_specs``, then rollouts with TorchRL's random
(masked) actions. Exactly one player moves per step and its action is legal; rewards are paid
only when a game ends, to every player, and match the env's ``results()``; an Awkward Guests 4p
game with a knock-out is among them."""

from __future__ import annotations

import pytest
import torch

from .recipes import (
    CONFIG_IDS,
    CONFIGS,
    KeepResults,
    assert_final_rewards,
    results_log,
    run_page,
)

PAGE = "torchrl.md"


def _check_rollout(rollout, players: int) -> list[list[float]]:
    """Per-step checks; returns the final rewards of every game that ended."""
    mask = rollout["agents", "mask"]
    assert mask.shape[1] == players and (mask.sum(-1) == 1).all()  # one player to move
    acting = mask.float().argmax(-1)
    steps = torch.arange(mask.shape[0])
    action = rollout["agents", "action"][steps, acting]
    legal = rollout["agents", "action_mask"][steps, acting]
    assert legal.any(-1).all()  # the player to move always has a legal move ...
    assert legal[steps, action].all()  # ... and TorchRL's random action is one of them
    reward = rollout["next", "agents", "reward"].squeeze(-1)
    over = rollout["next", "done"].squeeze(-1)
    assert (reward[~over] == 0).all()  # paid once, at the end
    agents_done = rollout["next", "agents", "done"].squeeze(-1)
    assert (agents_done.all(-1) == over).all()  # everybody ends together
    finished = reward[over].tolist()
    for row in finished:
        assert_final_rewards(row, players)
    return finished


def test_the_page_example_checks_specs_and_rolls_out_four_player_games():
    ns = run_page(PAGE)
    finished = _check_rollout(ns["rollout"], 4)
    assert finished and ns["rollout"].batch_size == torch.Size([300])


@pytest.mark.parametrize(("name", "make_env", "game", "players"), CONFIGS, ids=CONFIG_IDS)
def test_spec_check_and_masked_random_rollouts(name, make_env, game, players):
    torchrl_env = run_page(PAGE)["torchrl_env"]
    from torchrl.envs.utils import check_env_specs

    key = f"torchrl-{name}"
    log = results_log(key)
    env = torchrl_env(KeepResults(make_env(), key), seed=5)
    check_env_specs(env)
    assert env.group_map == {"agents": [f"player_{p}" for p in range(players)]}
    log.clear()
    torch.manual_seed(5)
    steps = 400 if game == "audition" else 250
    finished = _check_rollout(env.rollout(steps, break_when_any_done=False), players)
    assert finished, "no game finished: roll out longer"
    # every finished game was reset (the last one perhaps not yet) and matches its results()
    assert len(finished) - 1 <= len(log) <= len(finished)
    for row, results in zip(finished, log, strict=False):
        assert row == pytest.approx([results["returns"][f"player_{p}"] for p in range(players)])
    if name == "guests-4p":
        assert any(any(r["out"].values()) for r in log), "no knock-out: pick another seed"
