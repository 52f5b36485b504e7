"""The batched self-play VecEnv: SB3 VecEnv contract, legal opponents, determinism, the hook."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from parlour.envs.audition import rules as R
from parlour.envs.audition.batched_view import batched_view
from parlour.games.audition import selfplay as B
from parlour.games.audition.batched_agents import random_actions
from parlour.train.config import config_from_dict
from parlour.train.train import make_vec_env

TINY = {
    "name": "tiny_batched",
    "players": 2,
    "total_timesteps": 1024,
    "n_envs": 16,
    "vec_env": "batched",
    "opponents": {"baselines": {"random": 1.0, "audition.greedy": 1.0}, "snapshot_every": 512},
    "ppo": {"n_steps": 32, "batch_size": 128, "n_epochs": 1, "net_arch": [32, 32]},
    "eval": {"every": 512, "games": 8, "final_games": 20, "workers": 1},
    "checkpoint_every": 512,
}


def _run(env: B.BatchedSelfPlayVecEnv, steps: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        masks = np.stack(env.env_method("action_masks"))
        env.step_async(random_actions(masks, rng))
        out.append(env.step_wait())
    return out


@pytest.mark.parametrize(
    "players,options",
    [(2, {}), (4, {"action_cards": 4}), (3, {"uncertain_counts": True, "reward_mode": "score"})],
)
def test_vec_env_contract(players, options):
    env = B.BatchedSelfPlayVecEnv(8, players, options, {"random": 1, "audition.greedy": 1}, seed=3)
    env.seed(3)
    obs = env.reset()
    assert obs.shape == (8, *env.observation_space.shape) and obs.dtype == np.float32
    assert env.observation_space.contains(obs[0]) and env.action_space.n == R.NUM_ACTIONS
    masks = np.stack(env.env_method("action_masks"))
    assert masks.shape == (8, R.NUM_ACTIONS) and masks.dtype == bool and masks.any(axis=1).all()
    ended = 0
    for obs, rewards, dones, infos in _run(env, 300):
        assert obs.shape == (8, 321) and rewards.dtype == np.float32 and dones.dtype == bool
        assert len(infos) == 8 and ((obs >= 0) & (obs <= 1)).all()
        # it is the learner's turn in every game (auto-reset included): acting flag of block 0
        assert (obs[:, 8 + 1 + 13 + 13 + 6 * 23 + 1] == 1).all()
        for i in np.flatnonzero(dones):
            ended += 1
            assert infos[i]["terminal_observation"].shape == (321,)
            assert isinstance(infos[i]["is_success"], bool)
        assert (rewards[~dones] == 0).all()
    assert ended > 0
    with pytest.raises(ValueError, match="illegal learner action"):
        bad = np.flatnonzero(~np.stack(env.env_method("action_masks"))[0])[0]
        env.step_async(np.full(8, bad))
        env.step_wait()


def test_opponents_only_play_legal_actions(monkeypatch):
    seen = []
    decide = B.BatchedSelfPlayVecEnv._decide

    def checked(self, kind, games):
        acts = decide(self, kind, games)
        mask = self.eng.legal_mask()[games]
        assert mask[np.arange(len(games)), acts].all(), self.specs[kind]
        seen.append(self.specs[kind])
        return acts

    monkeypatch.setattr(B.BatchedSelfPlayVecEnv, "_decide", checked)
    env = B.BatchedSelfPlayVecEnv(32, 3, {"action_cards": 3}, {"random": 1, "audition.greedy": 1})
    env.seed(0)
    env.reset()
    _run(env, 200)
    assert {"random", "audition.greedy"} <= set(seen)


@pytest.mark.parametrize(
    "players,options", [(2, {}), pytest.param(3, {"action_cards": 3}, marks=pytest.mark.slow)]
)
def test_expert_opponents_decide_as_the_scalar_expert(monkeypatch, players, options):
    """Each batched search equals the scalar expert's on the rules engine's view of the game
    (a twin with the same generator state deciding the games one by one)."""
    decide = B.BatchedSelfPlayVecEnv._decide
    decided = []

    def checked(self, kind, games):
        if kind not in self._searchers:
            return decide(self, kind, games)
        twin = copy.deepcopy(self._searchers[kind])
        views = [batched_view(self.eng, int(g), int(self.eng.current[g])) for g in games]
        acts = decide(self, kind, games)
        assert acts.tolist() == [twin.act(None, v) for v in views]
        decided.extend(acts.tolist())
        return acts

    monkeypatch.setattr(B.BatchedSelfPlayVecEnv, "_decide", checked)
    env = B.BatchedSelfPlayVecEnv(4, players, options, {"audition.expert:sims=4": 1}, seed=5)
    env.seed(5)
    env.reset()
    results = _run(env, 90)
    assert len(decided) > 90 and sum(int(r[2].sum()) for r in results) > 0


def test_same_seed_same_games_and_bad_input():
    def trace(seed):
        env = B.BatchedSelfPlayVecEnv(8, 2, {}, {"random": 1, "audition.greedy": 1})
        env.seed(seed)
        first = env.reset()
        return [first] + [r[0] for r in _run(env, 100)] + [r[1] for r in _run(env, 50)]

    a, b, c = trace(1), trace(1), trace(2)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))
    with pytest.raises(ValueError, match="cannot play batched"):
        B.BatchedSelfPlayVecEnv(2, 2, {}, {"audition.search:model=audition-2p": 1})
    with pytest.raises(ValueError, match=r"unknown options \['depth'\]; allowed: \['sims'\]"):
        B.BatchedSelfPlayVecEnv(2, 2, {}, {"audition.expert:depth=3": 1})
    with pytest.raises(ValueError, match="sims must be an int"):
        B.BatchedSelfPlayVecEnv(2, 2, {}, {"audition.expert:sims=many": 1})
    with pytest.raises(ValueError, match="game_options: unknown"):
        B.BatchedSelfPlayVecEnv(2, 2, {"seer": True})


def test_train_uses_the_batched_env_when_the_config_allows():
    cfg = config_from_dict(dict(TINY))
    venv = make_vec_env(cfg)
    assert isinstance(venv.venv, B.BatchedSelfPlayVecEnv) and venv.num_envs == 16
    cfg = config_from_dict({**TINY, "opponents": {"baselines": {"audition.expert:sims=2": 1}}})
    venv = make_vec_env(cfg)  # the expert's searches are batched too
    assert isinstance(venv.venv, B.BatchedSelfPlayVecEnv)
    spec = "audition.search:model=audition-2p,sims=2"
    cfg = config_from_dict({**TINY, "opponents": {"baselines": {spec: 1}}})
    venv = make_vec_env(cfg)  # an opponent it cannot batch: the per-game envs
    assert not isinstance(getattr(venv, "venv", None), B.BatchedSelfPlayVecEnv)
    venv.close()


def test_short_batched_training_is_deterministic(tmp_path, monkeypatch):
    """Same seed, same curve, with the shipped config's two torch threads; the thread count is
    the config's during training and the caller's again afterwards."""
    import torch

    from parlour.train.train import train

    counts = []
    learn = B.BatchedSelfPlayVecEnv.step_wait
    monkeypatch.setattr(
        B.BatchedSelfPlayVecEnv,
        "step_wait",
        lambda self: counts.append(torch.get_num_threads()) or learn(self),
    )
    before = torch.get_num_threads()
    curves = []
    for k in range(2):
        cfg = config_from_dict({**TINY, "torch_threads": 2})
        report = train(cfg, tmp_path / f"r{k}", progress=False)
        assert set(counts) == {2} and torch.get_num_threads() == before
        csv = (tmp_path / f"r{k}" / "tiny_batched" / "logs" / "progress.csv").read_text()
        rows = [line.split(",") for line in csv.splitlines()]
        keep = [i for i, h in enumerate(rows[0]) if not h.startswith("time/")]
        curves.append(([[r[i] for i in keep] for r in rows], json.dumps(report["final"])))
        assert report["timesteps"] >= 1024
    assert curves[0] == curves[1]


def test_evicted_snapshots_are_dropped_once_no_game_holds_them():
    from pathlib import Path

    model = str(Path(__file__).parents[1] / "data" / "small_audition_model.safetensors")
    env = B.BatchedSelfPlayVecEnv(8, 2, snapshot_weight=1.0, max_snapshots=1, seed=0)
    env.reset()
    env.add_snapshot(model)
    _run(env, 60)  # (every game has ended since: each opponent is the first snapshot)
    first = env.snapshots[0]
    assert (env.opp == first).any()
    env.add_snapshot(model)  # the first leaves the pool; games that drew it finish with it
    assert env.snapshots == [first + 1] and first in env._policies
    _run(env, 60, seed=1)
    assert not (env.opp == first).any()
    assert set(env._policies) == {first + 1}  # its network is gone, the pool's is kept
