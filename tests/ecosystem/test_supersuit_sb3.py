"""SuperSuit + Stable-Baselines3 (``docs/ecosystem/supersuit_sb3.md``): the page's vector env
(``turn_based_aec_to_parallel`` → SuperSuit → ``VecActionMasks`` → ``VecMonitor``) for Audition
and Awkward Guests at 2 and 4 players, stepped by hand with random legal actions (one sub-env per
player, exactly one player to move, rewards only at game ends and equal to the env's
``results()``, a knock-out game included), then a short ``MaskablePPO`` run on each. Also the solo
env's ``action_masks`` through SB3's vector envs."""

from __future__ import annotations

import numpy as np
import pytest

from .recipes import (
    CONFIG_IDS,
    CONFIGS,
    KeepResults,
    assert_final_rewards,
    results_log,
    run_page,
)

PAGE = "supersuit_sb3.md"


def _games(ep_info_buffer, players: int) -> list[list[float]]:
    """VecMonitor's episodes grouped per game (the players' sub-envs end on the same step)."""
    episodes = list(ep_info_buffer)
    assert len(episodes) % players == 0
    games = [episodes[i : i + players] for i in range(0, len(episodes), players)]
    for game in games:
        assert len({e["l"] for e in game}) == 1
    return [[e["r"] for e in game] for game in games]


def test_the_page_example_trains_on_four_player_games():
    ns = run_page(PAGE)
    assert ns["model"].num_timesteps == 2048 and ns["env"].num_envs == 4
    games = _games(ns["model"].ep_info_buffer, 4)
    assert games
    for rewards in games:
        assert_final_rewards(rewards, 4)


@pytest.mark.parametrize(("name", "make_env", "game", "players"), CONFIGS, ids=CONFIG_IDS)
def test_vector_env_steps_and_a_short_maskable_ppo_run(name, make_env, game, players):
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.utils import set_random_seed

    sb3_vec_env = run_page(PAGE)["sb3_vec_env"]
    key = f"supersuit-{name}"
    log = results_log(key)
    env = sb3_vec_env(KeepResults(make_env(), key), seed=7)
    assert env.num_envs == players and is_masking_supported(env)
    rng = np.random.default_rng(7)
    obs = env.reset()
    games = 0
    for _ in range(700 if game == "audition" else 300):
        masks = get_action_masks(env)
        assert masks.shape[0] == players and (masks.sum(axis=1) >= 1).all()
        real = obs["action_mask"].astype(bool)
        assert (real.any(axis=1)).sum() == 1  # exactly one player to move
        np.testing.assert_array_equal(masks[real.any(axis=1)], real[real.any(axis=1)])
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = env.step(actions)
        assert dones.all() or not dones.any()  # all players' episodes end together
        if not dones.any():
            assert (rewards == 0).all()
            continue
        games += 1
        assert_final_rewards(rewards.tolist(), players)
        results = log[-1]  # saved when SuperSuit reset the finished game
        assert len(log) == games and results["over"]
        assert rewards.tolist() == pytest.approx(
            [results["returns"][f"player_{p}"] for p in range(players)]
        )
        assert [info["episode"]["r"] for info in infos] == pytest.approx(rewards.tolist())
    assert games >= 2
    if name == "guests-4p":
        assert any(any(r["out"].values()) for r in log), "no knock-out: pick another seed"

    set_random_seed(7)
    train_env = sb3_vec_env(make_env(), seed=7)
    model = MaskablePPO("MultiInputPolicy", train_env, n_steps=64, batch_size=64, n_epochs=1)
    before = [p.detach().clone() for p in model.policy.parameters()]
    model.learn(total_timesteps=players * 128)
    assert model.num_timesteps == players * 128
    assert any(not (a == b).all() for a, b in zip(before, model.policy.parameters(), strict=True))


def test_solo_env_action_masks_reach_sb3_through_gymnasium_make_and_vector_envs():
    import gymnasium
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv

    import parlour  # noqa: F401  (registers the env)

    solo = gymnasium.make("parlour/AwkwardGuestsSolo-v1")
    assert solo.unwrapped.metadata["name"] == "awkward_guests_solo_v1"
    # what make_vec_env builds (Monitor around gymnasium.make's wrappers, in a DummyVecEnv)
    vec = DummyVecEnv([lambda: Monitor(gymnasium.make("parlour/AwkwardGuestsSolo-v1"))] * 2)
    vec.seed(0)
    vec.reset()
    assert is_masking_supported(vec)
    masks = get_action_masks(vec)
    expected = np.stack([e.unwrapped.action_masks() for e in vec.envs])
    assert masks.shape == (2, 95) and masks.dtype == bool and masks.any(axis=1).all()
    np.testing.assert_array_equal(masks, expected)
