"""The fast wrapper chain of ``parlour.envs.wrappers`` behaves exactly like PettingZoo's classic chain."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.utils import wrappers

from parlour.envs.audition.env import raw_env
from parlour.envs.wrappers import classic_wrappers


def standard(raw):
    e = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


def _run(env, seed: int, illegal_at: int | None) -> list:
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    log = []
    for i, agent in enumerate(env.agent_iter()):
        obs, rew, term, trunc, info = env.last()
        log.append((agent, rew, term, trunc, dict(info), obs["observation"].tobytes()))
        if term or trunc:
            action = None
        elif i == illegal_at:
            action = int(np.flatnonzero(obs["action_mask"] == 0)[0])  # an illegal move
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        log.append((dict(env.rewards), dict(env.terminations), dict(env._cumulative_rewards)))
    return log


@pytest.mark.parametrize("illegal_at", [None, 0, 17])
@pytest.mark.parametrize("seed", [0, 1])
def test_same_trajectories_rewards_and_illegal_move_handling(seed, illegal_at):
    kw = dict(num_players=3, action_cards=2)
    assert _run(classic_wrappers(raw_env(**kw)), seed, illegal_at) == _run(
        standard(raw_env(**kw)), seed, illegal_at
    )


def test_isinstance_and_errors_before_reset():
    env = classic_wrappers(raw_env())
    assert isinstance(env, wrappers.OrderEnforcingWrapper)
    assert isinstance(env.env, wrappers.AssertOutOfBoundsWrapper)
    assert isinstance(env.env.env, wrappers.TerminateIllegalWrapper)
    for name in ("agent_selection", "rewards", "terminations", "agents", "infos"):
        with pytest.raises(AttributeError, match="before reset"):
            getattr(env, name)
    assert env.possible_agents == ["player_0", "player_1"]


@pytest.mark.parametrize("bad", [27, -1, 2.0, "3", np.int64(40), np.array([1])])
def test_out_of_bounds_actions_assert_like_gymnasium(bad):
    env = classic_wrappers(raw_env())
    env.reset(seed=0)
    ref = standard(raw_env())
    ref.reset(seed=0)
    with pytest.raises(AssertionError):
        ref.step(bad)
    with pytest.raises(AssertionError, match="action space"):
        env.step(bad)


def test_numpy_integer_actions_accepted():
    env = classic_wrappers(raw_env())
    env.reset(seed=0)
    env.step(np.int64(6))  # DRAW
    assert env.unwrapped.game.phase == 1


@pytest.mark.parametrize("game", ["audition", "guests"])
def test_zero_d_integer_arrays_play_like_ints(game):
    """``action_space.contains(np.array(a))`` is true: the env plays it as ``a`` (the engines
    refused the array as an illegal action)."""
    from parlour.envs import audition_v1, awkward_guests_v1

    make = audition_v1.env if game == "audition" else awkward_guests_v1.env
    plain, arrays = make(), make()
    for env in (plain, arrays):
        env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(40):
        if not plain.agents:
            break
        obs, _, term, trunc, _ = plain.last()
        if term or trunc:
            plain.step(None)
            arrays.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        plain.step(action)
        arrays.step(np.array(action))
        assert plain.rewards == arrays.rewards and plain.agent_selection == arrays.agent_selection
        assert not any(arrays.unwrapped.infos[a].get("illegal_move") for a in arrays.agents)
