"""No seat's observation depends on what that seat may not see.

At points of random masked play, for every seat still in the game, the game's ``hidden_redeal``
re-deals (on a copy of the raw env) what that seat cannot see — the other seats' hidden cards,
the deck order, whatever the game hides — and the seat's ``observe()`` (observation and action
mask) must be exactly what it was; the public AEC state (agent to act, rewards, terminations,
truncations) must not change either. So that the check can fail, the redeal must change
something hidden at least once per configuration: some observation of the re-dealt copy, now
or when both copies play on with the same actions, differs from the original's.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from tests.conformance.harness import (
    CONFIGS,
    IDS,
    Config,
    diverges,
    freeze,
    is_done,
    observation,
    random_action,
)

GAMES = 3  # games per configuration
STEPS = 60  # steps per game
EVERY = 3  # steps between checks
ROLLOUT = 80  # steps played on to see whether a redeal changed anything


def _public(env) -> object:
    return freeze([env.agent_selection, env.agents, env.rewards, env.terminations, env.truncations])


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_redealing_what_a_seat_cannot_see_leaves_its_observation_unchanged(config: Config) -> None:
    redeal = config.hidden_redeal()
    rng = np.random.default_rng(0)
    checks = 0
    changed = False
    for game in range(GAMES):
        env = config.raw_env()
        env.reset(seed=game)
        for step in range(STEPS):
            if is_done(env):
                break
            if step % EVERY == 0:
                for agent in list(env.agents):
                    seat = env.possible_agents.index(agent)
                    other = copy.deepcopy(env)
                    redeal(other, seat, rng)
                    assert observation(other, agent) == observation(env, agent), (
                        f"{agent}'s observation changed when what it cannot see was re-dealt "
                        f"(game {game}, step {step})"
                    )
                    assert _public(other) == _public(env)
                    checks += 1
                    if not changed:
                        changed = diverges(env, other, np.random.default_rng(step), ROLLOUT)
            env.step(random_action(env, rng))
    assert checks >= 4
    assert changed, "the redeal never changed anything hidden: this check could not fail"
