"""Bad input leaves the game intact: at points of random play, a masked-out action and
out-of-range actions (``-1``, ``action_space.n``) make the raw env raise ``ValueError`` (the
games' ``IllegalActionError``), and afterwards everything the AEC API shows (every agent's
observation and mask, the agent to act, rewards, terminations, truncations, infos) is as
before — and the game goes on exactly like a twin env (same seed, same actions) that never
saw the bad actions."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conformance.harness import CONFIGS, IDS, Config, is_done, random_action, snapshot

STEPS = 120
EVERY = 10
MAX_GAMES = 20
MIN_PROBES = 3


def _bad_actions(env, rng: np.random.Generator) -> list[int]:
    agent = env.agent_selection
    mask = np.asarray(env.observe(agent)["action_mask"])
    n = int(env.action_space(agent).n)
    illegal = np.flatnonzero(mask == 0)
    bad = [int(rng.choice(illegal))] if illegal.size else []
    return [*bad, -1, n]


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_bad_actions_raise_and_leave_the_state_intact(config: Config) -> None:
    rng = np.random.default_rng(3)
    probes = illegal_probes = steps = 0
    for seed in range(3, 3 + MAX_GAMES):  # short games (a tiny plug-in game) play several
        if steps >= STEPS and probes >= MIN_PROBES:
            break
        env, twin = config.raw_env(), config.raw_env()
        env.reset(seed=seed)
        twin.reset(seed=seed)
        while not is_done(env) and steps < STEPS * MAX_GAMES:
            agent = env.agent_selection
            if steps % EVERY == 0 and not (env.terminations[agent] or env.truncations[agent]):
                for action in _bad_actions(env, rng):
                    before = snapshot(env)
                    with pytest.raises(ValueError):
                        env.step(action)
                    assert snapshot(env) == before, f"a rejected action {action} changed the env"
                    illegal_probes += action not in (-1, env.action_space(agent).n)
                probes += 1
            action = random_action(env, rng)
            env.step(action)
            twin.step(action)
            steps += 1
            assert snapshot(env) == snapshot(twin), "the game went on differently after bad input"
    assert probes >= MIN_PROBES and illegal_probes >= MIN_PROBES
