"""The multi-game VecEnv (Awkward Guests ``vec_env: batched``): SB3 VecEnv contract, legal and
batched network opponents, unique cases, determinism, the ``parlour train`` hook."""

from __future__ import annotations

import json

import numpy as np
import pytest

from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests.observation import make_layout
from parlour.games import get_game
from parlour.train import multi_game as M
from parlour.train.config import config_from_dict
from parlour.train.train import make_vec_env

EASY = {"level": "easy", "observation_mode": "deduced"}
POOL = {"random": 1.0, "guests.deducer": 1.0}
TINY = {
    "name": "tiny_guests_batched",
    "game": "guests",
    "players": 2,
    "total_timesteps": 512,
    "n_envs": 8,
    "vec_env": "batched",
    "game_options": {**EASY, "accusation_shaping": 0.2, "solution_shaping": 0.2},
    "opponents": {"baselines": POOL, "snapshot_every": 256, "snapshot_weight": 0.5},
    "ppo": {"n_steps": 32, "batch_size": 64, "n_epochs": 1},
    "eval": {"every": 100_000, "games": 4, "agents": ["random"], "final_games": 4},
    "checkpoint_every": 100_000,
}


def _run(env, steps: int, seed: int = 0) -> list:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        masks = np.stack(env.env_method("action_masks"))
        env.step_async(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        out.append(env.step_wait())
    return out


def _env(n: int = 6, pool=POOL, **kw) -> M.MultiGameVecEnv:
    return M.MultiGameVecEnv(get_game("guests"), n, 2, EASY, pool, **kw)


def test_vec_env_contract_and_unique_cases():
    env = _env()
    try:
        env.seed(3)
        obs = env.reset()
        size = make_layout("deduced")
        assert obs.shape == (6, 2384) and obs.dtype == np.float32
        masks = np.stack(env.env_method("action_masks"))
        assert masks.shape == (6, A.NUM_ACTIONS) and masks.dtype == bool and masks.any(1).all()
        assert np.array_equal(masks, env.action_masks())
        ended = 0
        for obs, rewards, dones, infos in _run(env, 80):
            assert obs.shape == (6, 2384) and rewards.dtype == np.float32 and dones.dtype == bool
            assert ((obs >= 0) & (obs <= 1)).all() and len(infos) == 6
            # the learner decides in every game (auto-reset included)
            assert (obs[:, size["pending_decision"]].sum(1) == 1).all()
            for i in np.flatnonzero(dones):
                ended += 1
                terminal = infos[i]["terminal_observation"]
                assert terminal.shape == (2384,) and not np.shares_memory(terminal, obs)
                # the finished game's last observation (no decision pending), not the next one's
                assert terminal[size["pending_decision"]].sum() == 0
                learner = env.games[i].learner  # the new game's seat, as SB3's VecEnvs report it
                assert env.reset_infos[i]["seat"] == int(learner.rsplit("_", 1)[1])
                assert isinstance(infos[i]["is_success"], bool)
                assert set(infos[i]["opponents"].values()) <= set(POOL)
            assert (rewards[~dones] == 0).all()  # (no shaping here: paid at the end only)
        assert ended > 0
        served = env._pool.served  # one case per reset, never twice
        assert len(served) == 6 + ended and len(set(served)) == len(served)
        before = env.action_masks()
        bad = int(np.flatnonzero(~before[2])[0])
        with pytest.raises(ValueError, match="illegal learner action .* in game 2"):
            env.step_async(np.where(np.arange(6) == 2, bad, before.argmax(1)))
            env.step_wait()
        assert np.array_equal(env.action_masks(), before)  # nothing moved
    finally:
        env.close()
    with pytest.raises(ValueError, match="num_envs"):
        M.MultiGameVecEnv(get_game("guests"), 0)


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory):
    """A saved (untrained) Awkward Guests 2p deduced model, as the trainer saves snapshots."""
    cfg = config_from_dict({**TINY, "vec_env": "dummy", "n_envs": 1})
    from parlour.train.model import save_model
    from parlour.train.train import build_model

    venv = make_vec_env(cfg)
    path = tmp_path_factory.mktemp("snap") / "snap.safetensors"
    save_model(build_model(cfg, venv), path)
    venv.close()
    return str(path)


def test_network_opponents_decide_in_one_forward_pass_and_legally(snapshot, monkeypatch):
    batches = []
    decide = M._decide

    def checked(aecs, requests):
        actions = decide(aecs, requests)
        for aec, (agent, _), a in zip(aecs, requests, actions, strict=True):
            assert aec.agent_selection == agent and aec.action_mask(agent)[a] == 1
        batches.append(len(actions))
        return actions

    monkeypatch.setattr(M, "_decide", checked)
    env = _env(8, {f"ppo:{snapshot}:sample": 1.0, "random": 1.0})
    try:
        env.seed(0)
        env.reset()
        _run(env, 30)
        env.add_snapshot(snapshot)  # (what the trainer calls): the pool grows in every game
        assert all(len(g.pool.snapshots) == 1 for g in env.games)
    finally:
        env.close()
    assert batches and max(batches) > 1  # several games' decisions in one pass


def test_same_seed_same_games():
    def trace(seed):
        env = _env(4)
        try:
            env.seed(seed)
            first = env.reset()
            runs = _run(env, 60)
            again = env.reset()  # (a second reset goes on with the games' own generators)
            return [first] + [r[0] for r in runs] + [r[1] for r in runs] + [again]
        finally:
            env.close()

    a, b, c = trace(1), trace(1), trace(2)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))


def test_fixed_cases_need_no_case_process_and_stay_seeded():
    def two_resets(seed):
        env = M.MultiGameVecEnv(get_game("guests"), 3, 2, {"cases": "classic"}, {"random": 1.0})
        env.seed(seed)
        out = [env.reset(), env.reset()]
        assert env._pool is None  # (classic cases: nothing to generate)
        env.close()
        return out

    a, b = two_resets(4), two_resets(4)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def test_a_case_bank_needs_no_case_process_deals_its_split_and_stays_seeded():
    from parlour.envs.awkward_guests.case.bank import case_bytes, open_bank

    bank = open_bank("easy")
    test_cases = {case_bytes(bank.case(i)) for i in bank.split("test")}

    def run(seed):
        options = {**EASY, "case_bank": "easy", "case_split": "test"}
        env = M.MultiGameVecEnv(get_game("guests"), 3, 2, options, {"random": 1.0})
        try:
            env.seed(seed)
            out = [env.reset(), *(r[0] for r in _run(env, 40)), env.reset()]
            assert env._pool is None  # (the bank is the case source: nothing to generate)
            dealt = {case_bytes(g.aec.game.tables.case) for g in env.games}
            assert dealt <= test_cases
            return out
        finally:
            env.close()

    a, b, c = run(5), run(5), run(6)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))


def test_train_uses_the_multi_game_env_for_guests():
    venv = make_vec_env(config_from_dict(dict(TINY)))
    try:
        assert isinstance(venv.venv, M.MultiGameVecEnv) and venv.num_envs == 8
    finally:
        venv.close()


@pytest.mark.slow
@pytest.mark.parametrize("bank", [{}, {"case_bank": "easy", "case_split": "train"}])
def test_short_batched_guests_training_is_deterministic(tmp_path, bank):
    from parlour.train.train import train

    curves = []
    tiny = {**TINY, "game_options": {**TINY["game_options"], **bank}}
    for k in range(2):
        cfg = config_from_dict(dict(tiny))
        report = train(cfg, tmp_path / f"r{k}", progress=False)
        csv = (tmp_path / f"r{k}" / TINY["name"] / "logs" / "progress.csv").read_text()
        rows = [line.split(",") for line in csv.splitlines()]
        keep = [i for i, h in enumerate(rows[0]) if not h.startswith("time/")]
        curves.append(([[r[i] for i in keep] for r in rows], json.dumps(report["final"])))
        assert report["timesteps"] >= TINY["total_timesteps"]
    assert curves[0] == curves[1]


def test_a_resumed_run_draws_new_cases(tmp_path, monkeypatch):
    """SB3's load seeds the envs with the run's seed again: without a session seed of its own,
    the resumed session would be served the first session's cases in the same order."""
    from parlour.games.guests import case_pool
    from parlour.train.train import session_seed, train

    served: list[int] = []
    take = case_pool.CasePool.next

    def recording(pool):
        case = take(pool)
        served.append(pool.served[-1])
        return case

    monkeypatch.setattr(case_pool.CasePool, "next", recording)
    data = {**TINY, "total_timesteps": 256, "eval": {**TINY["eval"], "final_games": 2}}
    train(config_from_dict(data), tmp_path, progress=False)
    first = list(served)
    served.clear()
    train(config_from_dict({**data, "total_timesteps": 512}), tmp_path, resume=True, progress=False)
    assert first and served and not set(first) & set(served)
    assert session_seed(0, 0) == 0  # a new run keeps its seed
    assert session_seed(0, 256) == session_seed(0, 256) != session_seed(0, 512)
