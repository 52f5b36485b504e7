"""Seeding: two raw envs reset with the same seed and driven by the same seeded random masked
actions play the same game (everything the AEC API shows agrees at every step); envs reset with
different seeds (same actions generator) differ somewhere."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conformance.harness import CONFIGS, IDS, Config, is_done, random_action, snapshot

STEPS = 150


def _trajectory(config: Config, env_seed: int, action_seed: int) -> list[object]:
    env = config.raw_env()
    env.reset(seed=env_seed)
    rng = np.random.default_rng(action_seed)
    out = [snapshot(env)]
    for _ in range(STEPS):
        if is_done(env):
            break
        env.step(random_action(env, rng))
        out.append(snapshot(env))
    return out


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_same_seed_same_trajectory(config: Config) -> None:
    first = _trajectory(config, 11, 5)
    second = _trajectory(config, 11, 5)
    assert len(first) == len(second)
    for step, (a, b) in enumerate(zip(first, second, strict=True)):
        assert a == b, f"same seed, different games at step {step}"


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_different_seeds_different_trajectories(config: Config) -> None:
    assert _trajectory(config, 11, 5) != _trajectory(config, 12, 5)
