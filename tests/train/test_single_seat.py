"""The single-seat Gymnasium wrapper: rewards per seat, masks, opponents' own masks, episodes."""

from __future__ import annotations

import numpy as np
import pytest

from parlour.envs.audition import rules as R
from parlour.games import get_game
from parlour.train.opponents import OpponentPool
from parlour.train.single_seat import SingleSeatEnv


class SpyAgent:
    """An opponent that checks it is given its own seat's observation and view."""

    spec = "spy"

    def __init__(self, env_ref: list, seat_name: str) -> None:
        self.env_ref = env_ref
        self.seat_name = seat_name
        self.rng = np.random.default_rng(0)
        self.calls = 0

    def reset(self, seed=None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation, view) -> int:
        env: SingleSeatEnv = self.env_ref[0]
        game = env.aec.game
        seat = env.aec.agent_name_mapping[self.seat_name]
        assert env.aec.agent_selection == self.seat_name != env.learner
        assert view.seat == seat == game.current_player
        np.testing.assert_array_equal(observation["action_mask"], game.legal_mask())
        learner_seat = env.aec.agent_name_mapping[env.learner]
        np.testing.assert_array_equal(
            observation["observation"], env.aec.observe(self.seat_name)["observation"]
        )
        assert (
            not np.array_equal(
                observation["observation"], env.aec.observe(env.learner)["observation"]
            )
            or learner_seat == seat
        )
        self.calls += 1
        legal = np.flatnonzero(observation["action_mask"])
        return int(legal[self.rng.integers(legal.size)])


class SpyPool(OpponentPool):
    def __init__(self, env_ref: list) -> None:
        super().__init__(get_game("audition"), {"random": 1.0})
        self.env_ref = env_ref
        self.spies: dict[str, SpyAgent] = {}

    def agent(self, spec, seat):
        return self.spies.setdefault(seat, SpyAgent(self.env_ref, seat))


def _run_episode(env: SingleSeatEnv, rng: np.random.Generator, check_masks: bool = True):
    obs, info = env.reset()
    seat = env.aec.agent_name_mapping[env.learner]
    total, steps, ended_on_opponent = 0.0, 0, False
    while True:
        mask = env.action_masks()
        game = env.aec.game
        if check_masks:
            assert game.current_player == seat
            np.testing.assert_array_equal(mask, game.legal_mask().astype(bool))
            np.testing.assert_array_equal(obs, env.aec.observe(env.learner)["observation"])
        legal = np.flatnonzero(mask)
        before = game.num_moves
        obs, reward, term, trunc, info = env.step(int(legal[rng.integers(legal.size)]))
        steps += 1
        total += reward
        assert not trunc
        if term:
            ended_on_opponent = game.num_moves > before + 1
            return seat, reward, total, info, ended_on_opponent, steps
        assert reward == 0.0


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_learner_gets_its_seat_final_zero_sum_reward(players):
    ref: list = []
    env = SingleSeatEnv(get_game("audition"), players, {"action_cards": 1}, SpyPool(ref))
    ref.append(env)
    env.reset(seed=players)
    rng = np.random.default_rng(players)
    seats, outcomes, endings = set(), set(), set()
    for _ in range(8 * players):
        seat, reward, total, info, on_opp, _ = _run_episode(env, rng)
        game = env.aec.game
        expected = R.win_rewards(players, game.winners())[seat]
        assert reward == pytest.approx(expected) and total == pytest.approx(expected)
        assert info["seat"] == seat and info["is_success"] == (seat in game.winners())
        seats.add(seat)
        outcomes.add("win" if reward > 0 else "loss" if reward < 0 else "tie")
        endings.add(on_opp)
    assert seats == set(range(players))  # the learner's seat is drawn per episode
    assert {"win", "loss"} <= outcomes  # losing seats are paid too
    assert endings == {True, False}  # games ending on the learner's and on an opponent's move
    assert sum(s.calls for s in env.pool.spies.values()) > 0


def test_score_reward_mode_is_passed_through():
    env = SingleSeatEnv(get_game("audition"), 3, {"reward_mode": "score"}, ["audition.greedy"])
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(5):
        seat, reward, *_ = _run_episode(env, rng, check_masks=False)
        assert reward == pytest.approx(env.aec.game.returns("score")[seat])


def test_episodes_end_cleanly_and_are_reproducible():
    env = SingleSeatEnv(get_game("audition"), 2, {}, ["random", "audition.greedy"])
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    obs, _ = env.reset(seed=11)
    assert env.observation_space.contains(obs)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(ValueError, match="illegal learner action"):
        env.step(illegal)
    rng = np.random.default_rng(1)
    _run_episode(env, rng)
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)

    def trajectory(seed):
        e = SingleSeatEnv(get_game("audition"), 2, {}, ["random", "audition.greedy"])
        o, _ = e.reset(seed=seed)
        r = np.random.default_rng(0)
        out = [o]
        for _ in range(3):
            while True:
                legal = np.flatnonzero(e.action_masks())
                o, rew, term, _, _ = e.step(int(legal[r.integers(legal.size)]))
                out.append(o)
                if term:
                    out.append(rew)
                    o, _ = e.reset()
                    break
        return out, e.opponent_specs

    a, specs_a = trajectory(5)
    b, specs_b = trajectory(5)
    assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert specs_a == specs_b


def test_opponent_pool_samples_by_weight_and_snapshots(tmp_path):
    pool = OpponentPool(
        get_game("audition"), {"random": 1.0, "audition.greedy": 3.0}, snapshot_weight=0.5
    )
    rng = np.random.default_rng(0)
    draws = [pool.sample(rng) for _ in range(4000)]
    assert 0.70 < draws.count("audition.greedy") / len(draws) < 0.80
    with pytest.raises(ValueError):
        OpponentPool(get_game("audition"), {"random": -1.0})
    with pytest.raises(ValueError, match="unknown agent"):
        OpponentPool(get_game("audition"), {"nobody": 1.0})
    with pytest.raises(FileNotFoundError):
        pool.add_snapshot(str(tmp_path / "missing.zip"))
