"""A raw env copied mid-game (``pickle`` round trip, ``copy.deepcopy``) continues exactly like
the original under the same actions: every agent's observation and mask, the agent to act,
rewards, terminations, truncations and infos agree at every step, to the end of the game."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from tests.conformance.harness import CONFIGS, IDS, Config, is_done, random_action, snapshot

CUTS = (0, 1, 4, 9, 20, 45)  # steps after which copies are made (those the game reaches)
STEPS = 400  # at most


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_copies_made_mid_game_continue_identically(config: Config) -> None:
    env = config.raw_env()
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    copies: list[tuple[int, object]] = []
    for step in range(STEPS):
        if is_done(env):
            break
        if step in CUTS:
            for c in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
                assert snapshot(c) == snapshot(env)
                copies.append((step, c))
        action = random_action(env, rng)
        env.step(action)
        expected = snapshot(env)
        for cut, c in copies:
            c.step(action)
            assert snapshot(c) == expected, f"a copy made at step {cut} differs at {step + 1}"
    assert len({cut for cut, _ in copies}) >= 3, "the game ended too early to copy it"
