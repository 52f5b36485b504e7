"""PettingZoo's own checks on every registered game, on the env as users get it (wrapped).

``api_test`` plays random legal games and checks the AEC API (spaces, observations in their
space, ``last()``, agent order, dead steps, rewards and infos); ``seed_test`` builds two envs,
resets both with the same seed and checks that they agree step by step.
"""

from __future__ import annotations

import pytest
from pettingzoo.test import api_test, seed_test

from tests.conformance.harness import CONFIGS, IDS, Config

CYCLES = 300


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_api_test(config: Config) -> None:
    api_test(config.env(), num_cycles=CYCLES)


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_seed_test(config: Config) -> None:
    seed_test(config.env, num_cycles=CYCLES)
