"""The solo Gymnasium env ``parlour/AwkwardGuestsSolo-v1``: registration, gymnasium's env
checker, masks, rewards, illegal actions, seeding, and the solo AEC (``num_players=1``)."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import parlour  # noqa: F401  (registers the env)
from parlour.envs import awkward_guests_v1
from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests.solo import AwkwardGuestsSoloEnv

from .game_helpers import SOLUTION, WRONG, generated_case, padded_case, v1, v3


def _cases(level="easy"):
    return [generated_case(level, 71), generated_case(level, 72)]


@pytest.mark.parametrize("level", ["beginner", "medium", "expert"])
def test_passes_gymnasium_env_checker(level):
    check_env(AwkwardGuestsSoloEnv(level=level, cases=_cases(level)), skip_render_check=False)


def test_env_checker_with_generated_cases_and_deduced_mode():
    check_env(AwkwardGuestsSoloEnv(level="hard", observation_mode="deduced"))


def test_env_checker_through_gymnasium_make_checks_the_render_modes():
    env = gymnasium.make("parlour/AwkwardGuestsSolo-v1", cases=_cases(), render_mode="ansi")
    check_env(env.unwrapped)


def test_registered_with_gymnasium_and_masks_reachable_through_wrappers():
    env = gymnasium.make("parlour/AwkwardGuestsSolo-v1", level="medium", cases=_cases("medium"))
    obs, info = env.reset(seed=0)
    assert env.observation_space.shape == (2313,) and env.action_space.n == 95
    assert obs.shape == (2313,) and obs.dtype == np.float32
    masks = env.get_wrapper_attr("action_masks")()
    assert masks.dtype == bool and masks.shape == (95,)
    assert (masks == env.unwrapped.action_masks()).all()
    assert masks.tolist() == (info["action_mask"] == 1).tolist()
    assert masks[: A.NUM_REFS].all() and not masks[A.NUM_REFS :].any()


def test_random_masked_play_ends_with_a_solo_reward():
    env = AwkwardGuestsSoloEnv(level="easy", cases=_cases(), max_rounds=6)
    rng = np.random.default_rng(0)
    results = set()
    for ep in range(12):
        obs, info = env.reset(seed=ep)
        total, done, steps = 0.0, False, 0
        while not done:
            mask = env.action_masks()
            assert mask.any()
            a = int(rng.choice(np.flatnonzero(mask)))
            if env.game.decision == G.D_SOLUTION and rng.random() < 0.8:
                a = A.NO
            obs, r, term, trunc, info = env.step(a)
            assert env.observation_space.contains(obs)
            total += r
            done = term or trunc
            steps += 1
            if not done:
                assert r == 0.0
        results.add(info["result"])
        if info["result"] == "win":
            assert total == pytest.approx(1 - 0.01 * env.game.round)
        elif info["result"] == "loss":
            assert total == -1.0 and term
        else:
            assert info["result"] == "truncated" and trunc and not term and total == 0.0
    assert "truncated" in results and "loss" in results


def _scripted_env(max_rounds=30):
    case = padded_case([v3(1), v1(2)], total=40)
    env = AwkwardGuestsSoloEnv(cases=[case], max_rounds=max_rounds)
    env.reset(seed=0)
    return env


def _skip_to_solution(env):
    while env.game.decision != G.D_SOLUTION:
        mask = env.action_masks()
        a = A.NO if mask[A.NO] else int(np.flatnonzero(mask)[0])
        env.step(a)


def test_solo_win_pays_one_minus_a_hundredth_per_round():
    env = _scripted_env()
    _skip_to_solution(env)
    env.step(A.NO)
    while env.game.decision == G.D_DISCARD:
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    _skip_to_solution(env)
    assert env.game.round == 2
    env.step(A.YES)
    acts = G.accusation_actions(SOLUTION, False)
    for a in acts[:-1]:
        assert env.step(a)[1:3] == (0.0, False)
    obs, r, term, trunc, info = env.step(acts[-1])
    assert r == pytest.approx(0.98) and term and not trunc and info["result"] == "win"
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(A.NO)


def test_solo_wrong_accusation_loses():
    env = _scripted_env()
    _skip_to_solution(env)
    env.step(A.YES)
    acts = G.accusation_actions(WRONG, False)
    for a in acts[:-1]:
        env.step(a)
    obs, r, term, trunc, info = env.step(acts[-1])
    assert (r, term, trunc, info["result"]) == (-1.0, True, False, "loss")


def test_illegal_action_ends_the_episode_with_minus_one():
    env = _scripted_env()
    obs, r, term, trunc, info = env.step(A.YES)  # illegal during the inquiry
    assert (r, term, trunc) == (-1.0, True, False) and info["illegal_action"]
    assert not env.action_masks().any() and not info["action_mask"].any()  # the episode is over
    env.reset(seed=1)
    obs, r, term, trunc, info = env.step("garbage")
    assert (r, term) == (-1.0, True)


def test_truncation_at_the_round_limit():
    env = _scripted_env(max_rounds=1)
    _skip_to_solution(env)
    obs, r, term, trunc, info = env.step(A.NO)
    assert (r, term, trunc, info["result"]) == (0.0, False, True, "truncated")


def test_same_seed_same_episode():
    def run(seed):
        env = AwkwardGuestsSoloEnv(level="medium")
        obs, _ = env.reset(seed=seed)
        out = [obs.tobytes()]
        rng = np.random.default_rng(seed)
        for _ in range(30):
            a = int(rng.choice(np.flatnonzero(env.action_masks())))
            obs, r, term, trunc, _ = env.step(a)
            out.append((obs.tobytes(), r))
            if term or trunc:
                break
        return out

    assert run(3) == run(3)


def test_bad_arguments():
    for kwargs, arg in (
        (dict(level="x"), "level"),
        (dict(cases="x"), "cases"),
        (dict(observation_mode="x"), "observation_mode"),
        (dict(max_rounds=0), "max_rounds"),
        (dict(render_mode="rgb_array_list"), "render_mode"),
    ):
        with pytest.raises(ValueError, match=arg):
            AwkwardGuestsSoloEnv(**kwargs)


def test_render_ansi():
    env = AwkwardGuestsSoloEnv(cases=_cases(), render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "1 player," in text and "inquiry phase" in text


def test_solo_aec_uses_the_same_rules_and_rewards():
    env = awkward_guests_v1.env(num_players=1, cases=_cases(), max_rounds=2)
    env.reset(seed=0)
    assert env.agents == ["player_0"]
    for _agent in env.agent_iter():
        obs, rew, term, trunc, info = env.last()
        if term or trunc:
            final = (rew, term, trunc)
            env.step(None)
            continue
        mask = obs["action_mask"]
        env.step(A.NO if mask[A.NO] else int(np.flatnonzero(mask)[0]))
    assert final == (0.0, False, True)  # truncation pays 0
