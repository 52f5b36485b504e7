"""Fault case 9: a ``reset()`` that raises leaves the env as it was (or clearly not reset)."""

from __future__ import annotations

import pickle

import pytest

from parlour.envs import audition_v1, awkward_guests_v1
from parlour.envs.awkward_guests.solo import AwkwardGuestsSoloEnv


@pytest.mark.parametrize(
    ("make", "bad"),
    [
        (lambda: audition_v1.env(num_players=2), {"deck": [1.5]}),
        (lambda: awkward_guests_v1.env(num_players=2), {"deck": ["x"]}),
        (lambda: awkward_guests_v1.env(num_players=2), {"case": "/no/such/case.json"}),
    ],
)
def test_a_failed_first_reset_leaves_the_env_not_reset(make, bad):
    env = make()
    with pytest.raises((ValueError, OSError)):
        env.reset(seed=0, options=bad)
    with pytest.raises(AttributeError, match="before reset"):
        env.agents  # noqa: B018
    with pytest.raises(Exception, match="reset"):
        list(env.agent_iter())
    env.reset(seed=0)  # a good reset works afterwards
    assert env.agents


def test_a_failed_guests_reset_does_not_advance_the_game_in_progress():
    env = awkward_guests_v1.env(num_players=2)
    env.reset(seed=4)
    env.step(int(env.last()[0]["action_mask"].nonzero()[0][0]))
    raw = env.unwrapped
    before = pickle.dumps((raw.game, raw._np_random, raw.agent_selection))
    for bad in ({"deck": [0.5]}, {"start": 7}, {"case": 3}):
        with pytest.raises(ValueError):
            env.reset(options=bad)
        assert pickle.dumps((raw.game, raw._np_random, raw.agent_selection)) == before
    # and the next good reset is the one an undisturbed env would have made
    twin = awkward_guests_v1.env(num_players=2)
    twin.reset(seed=4)
    twin.step(int(twin.last()[0]["action_mask"].nonzero()[0][0]))
    env.reset()
    twin.reset()
    assert pickle.dumps(env.unwrapped.game) == pickle.dumps(twin.unwrapped.game)


def test_a_failed_solo_reset_keeps_the_generator_and_the_game():
    env = AwkwardGuestsSoloEnv()
    env.reset(seed=2)
    before = pickle.dumps((env.game, env.np_random.bit_generator.state))
    for seed in (None, 9):
        with pytest.raises(ValueError):
            env.reset(seed=seed, options={"deck": [1.0]})
        assert pickle.dumps((env.game, env.np_random.bit_generator.state)) == before


def test_a_failed_audition_reset_keeps_the_game_and_the_generator():
    env = audition_v1.env(num_players=3)
    env.reset(seed=5)
    raw = env.unwrapped
    before = pickle.dumps((raw.game, raw._np_random))
    for seed in (None, 11):
        for bad in ({"deck": [1.5]}, {"start": 9}):
            with pytest.raises(ValueError):
                env.reset(seed=seed, options=bad)
            assert pickle.dumps((raw.game, raw._np_random)) == before
