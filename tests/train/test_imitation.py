"""The ``imitation`` warm start (:mod:`parlour.train.imitation`): returns, the fit, the run folder,
refusals before anything is touched, determinism, and the Awkward Guests batched env."""

from __future__ import annotations

import json

import numpy as np
import pytest
import yaml

from parlour.apps.cli import main
from parlour.apps.models import model_card
from parlour.games import get_game
from parlour.train.config import ConfigError, config_from_dict
from parlour.train.imitation import _agreement, _returns, fit, record, teacher_games
from parlour.train.train import build_model, make_vec_env

AUDITION = {
    "name": "imitate",
    "players": 2,
    "seed": 3,
    "total_timesteps": 256,
    "n_envs": 4,
    "vec_env": "dummy",
    "opponents": {"baselines": {"random": 1.0}},
    "ppo": {"n_steps": 64, "batch_size": 128, "n_epochs": 1, "net_arch": [64, 64]},
    "eval": {"every": 256, "games": 4, "final_games": 8, "workers": 1},
    "imitation": {"teacher": "audition.greedy", "steps": 2000, "epochs": 4},
}

GUESTS = {
    "name": "imitate_guests",
    "game": "guests",
    "players": 2,
    "game_options": {"level": "easy", "observation_mode": "deduced"},
    "total_timesteps": 128,
    "n_envs": 4,
    "vec_env": "batched",
    "opponents": {"baselines": {"guests.deducer": 1.0}},
    "ppo": {"n_steps": 32, "batch_size": 64, "n_epochs": 1, "net_arch": []},
    "eval": {"every": 128, "games": 2, "final_games": 4, "workers": 1},
    "imitation": {"teacher": "guests.deducer", "steps": 600, "epochs": 3},
}


def test_returns_are_discounted_to_the_end_of_each_game_and_unfinished_games_dropped():
    rewards = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 0.5], [2.0, 0.0]], np.float32)
    dones = np.array([[False, False], [True, False], [False, True], [False, False]])
    returns, kept = _returns(rewards, dones, 0.5)
    # game 0: an episode ends at t=1 (return 0.5, 1); the next one is still running at t=3
    assert returns[:, 0].tolist() == [0.5, 1.0, 1.0, 2.0]
    assert kept[:, 0].tolist() == [True, True, False, False]
    # game 1: one episode ends at t=2 (0.125, 0.25, 0.5); t=3 starts another
    assert returns[:, 1].tolist() == [0.125, 0.25, 0.5, 0.0]
    assert kept[:, 1].tolist() == [True, True, True, False]


class SpyTeacher:
    """Wraps a teacher: logs what it was given and each reset."""

    def __init__(self, inner, log):
        self.inner, self.log, self.spec = inner, log, inner.spec
        self.reads_view = True

    def reset(self, seed=None):
        self.log["resets"] += 1
        self.inner.reset(seed)

    def act(self, observation, view):
        action = self.inner.act(observation, view)
        self.log["seen"].append(
            (observation["observation"].copy(), observation["action_mask"].astype(bool), action)
        )
        return action


def _record_with_spy(cfg, monkeypatch):
    """Record with every teacher wrapped in :class:`SpyTeacher`; returns (data, log, model)."""
    import parlour.agents.factory as factory

    log = {"resets": 0, "seen": []}
    real = factory.make_agent

    def make(spec, *args, **kwargs):
        agent = real(spec, *args, **kwargs)
        return SpyTeacher(agent, log) if spec == cfg.imitation.teacher else agent

    monkeypatch.setattr(factory, "make_agent", make)
    vec_env = make_vec_env(cfg)
    try:
        model = build_model(cfg, vec_env)
        data = record(cfg, vec_env)
    finally:
        vec_env.close()
    monkeypatch.setattr(factory, "make_agent", real)
    return data, log, model


def test_the_recording_is_what_the_teacher_saw_and_did(monkeypatch):
    cfg = config_from_dict(AUDITION)
    data, log, _ = _record_with_spy(cfg, monkeypatch)
    seen = log["seen"]
    n_games = cfg.n_envs
    # one row per decision, in time-major order: row t * n_games + i is game i at step t
    assert data["obs"].shape[0] == len(seen) == 2000
    for row in range(0, 2000, 97):
        assert np.array_equal(data["obs"][row], seen[row][0])
    # the kept decisions: those of games that ended before recording stopped
    dones_per_game = data["stats"]["teacher_games"]
    n = len(data["actions"])
    assert dones_per_game > 0 and n < 2000
    for k, row in enumerate(data["rows"][::13]):
        k *= 13
        assert np.array_equal(data["masks"][k], seen[row][1])
        assert data["actions"][k] == seen[row][2]
    assert data["masks"][np.arange(n), data["actions"]].all()  # the teacher plays legal actions
    # each teacher is reset at the start and after each of its games
    assert log["resets"] == n_games + dones_per_game
    # win/loss returns (gamma 1 in AUDITION's default ppo): every kept return is a game result
    assert set(np.unique(data["returns"])) <= {-1.0, 0.0, 1.0}
    assert 0 < data["stats"]["teacher_win_rate"] < 1
    # per game, the kept decisions are a prefix in time (up to its last finished game)
    for i in range(n_games):
        times = [int(r) // n_games for r in data["rows"] if int(r) % n_games == i]
        assert times == list(range(len(times)))


def test_the_fit_makes_the_network_agree_with_its_teacher_and_predict_the_returns(monkeypatch):
    import torch

    cfg = config_from_dict(AUDITION)
    data, _, model = _record_with_spy(cfg, monkeypatch)
    tensors = [torch.as_tensor(data[k]) for k in ("obs", "rows", "masks", "actions")]
    before = _agreement(model.policy, *tensors)
    epochs = fit(cfg, model, data)
    after = _agreement(model.policy, *tensors)
    assert epochs[-1]["agreement"] == pytest.approx(after, abs=1e-4)
    assert epochs[-1]["policy_loss"] < epochs[0]["policy_loss"]
    assert epochs[-1]["value_loss"] < epochs[0]["value_loss"]
    assert after > before + 0.1 and after > 0.75
    # the value head follows the returns: higher where the teacher went on to win
    with torch.no_grad():
        values = model.policy.predict_values(tensors[0][tensors[1]]).flatten().numpy()
    won, lost = data["returns"] > 0, data["returns"] < 0
    assert values[won].mean() > values[lost].mean() + 0.2


def test_parlour_train_imitates_first_and_is_deterministic(tmp_path):
    cfg_path = tmp_path / "imitate.yaml"
    cfg_path.write_text(yaml.safe_dump(AUDITION))
    summaries, weights = [], []
    for runs in (tmp_path / "a", tmp_path / "b"):
        assert main(["train", str(cfg_path), "--runs", str(runs), "--no-progress"]) == 0
        summary = json.loads((runs / "imitate" / "imitation.json").read_text())
        assert summary["teacher"] == "audition.greedy" and len(summary["epochs"]) == 4
        summaries.append({k: v for k, v in summary.items() if not k.endswith("wall_time_s")})
        report = json.loads((runs / "imitate" / "report.json").read_text())
        assert report["imitation"] == summary
        assert "imitation of `audition.greedy`" in (runs / "imitate" / "report.md").read_text()
        card = model_card("imitate-2p", report, get_game("audition"))
        assert "| first stage | imitation of `audition.greedy`: " in card
        from parlour.agents.model_file import load_policy_file

        policy = load_policy_file(runs / "imitate" / "model.safetensors")
        weights.append({k: v.clone() for k, v in policy.state_dict().items()})
    assert summaries[0] == summaries[1]
    import torch

    assert all(torch.equal(weights[0][k], weights[1][k]) for k in weights[0])


def test_guests_batched_training_imitates_the_deducer(tmp_path):
    cfg = config_from_dict(GUESTS)
    vec_env = make_vec_env(cfg)
    try:
        assert len(teacher_games(vec_env)) == 4
        data = record(cfg, vec_env)
    finally:
        vec_env.close()
    n = len(data["actions"])
    assert n >= 300 and data["masks"][np.arange(n), data["actions"]].all()
    assert data["stats"]["teacher_games"] >= 4
    cfg_path = tmp_path / "g.yaml"
    cfg_path.write_text(yaml.safe_dump(GUESTS))
    assert main(["train", str(cfg_path), "--runs", str(tmp_path / "runs"), "--no-progress"]) == 0
    assert (tmp_path / "runs" / "imitate_guests" / "imitation.json").is_file()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"imitation": {"teacher": "nobody"}}, "imitation.teacher: .*unknown agent"),
        ({"imitation": {"teacher": "guests.deducer"}}, "imitation.teacher: .*guests"),
        ({"vec_env": "subproc"}, "imitation: vec_env: dummy or batched"),
        ({"imitation": {"teacher": "random", "steps": 0}}, "imitation.steps: must be >= 1"),
        ({"imitation": {"teacher": "random", "epochs": 0}}, "imitation.epochs: must be >= 1"),
        ({"imitation": {"teacher": "random", "learning_rate": 0}}, "imitation.learning_rate"),
        ({"imitation": {"teacher": "random", "batch_size": 0}}, "imitation.batch_size: must be"),
        ({"backend": "rllib"}, "imitation: only with backend: sb3, got backend: rllib"),
        ({"init_from": "x.zip"}, "not with init_from"),
        ({"imitation": {"teacher": "random", "lr": 1}}, "unknown key"),
    ],
)
def test_bad_imitation_settings_raise_clear_errors(change, message):
    data = {**AUDITION, **change}
    if "imitation" in change:
        data["imitation"] = {**AUDITION["imitation"], **change["imitation"]}
    with pytest.raises(ConfigError, match=message):
        config_from_dict(data)


def test_an_engine_without_whole_games_is_refused_before_the_run_folder_is_touched(
    tmp_path, capsys
):
    runs = tmp_path / "runs"
    old = runs / "imitate"
    old.mkdir(parents=True)
    (old / "model.safetensors").write_bytes(b"an earlier run")
    cfg_path = tmp_path / "imitate.yaml"
    cfg_path.write_text(yaml.safe_dump({**AUDITION, "vec_env": "batched", "n_envs": 8}))
    args = ["train", str(cfg_path), "--runs", str(runs), "--no-progress", "--overwrite"]
    assert main(args) == 2
    assert "imitation: the teacher plays whole games in this process" in capsys.readouterr().err
    assert [p.name for p in old.iterdir()] == ["model.safetensors"]
    assert (old / "model.safetensors").read_bytes() == b"an earlier run"


def test_ctrl_c_during_imitation_exits_with_a_message_not_a_traceback(
    tmp_path, capsys, monkeypatch
):
    import parlour.train.imitation as imitation
    from parlour.errors import EXIT_INTERRUPTED

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(imitation, "fit", interrupted)
    cfg_path = tmp_path / "imitate.yaml"
    cfg_path.write_text(yaml.safe_dump(AUDITION))
    runs = tmp_path / "runs"
    with pytest.raises(SystemExit) as stop:
        main(["train", str(cfg_path), "--runs", str(runs), "--no-progress"])
    assert stop.value.code == EXIT_INTERRUPTED
    assert "interrupted during imitation" in capsys.readouterr().err
    assert not (runs / "imitate" / "checkpoints" / "latest.safetensors").exists()
    from parlour.train.run_folder import RunLock

    with RunLock(runs / "imitate"):  # (the run's lock was released: this does not block)
        pass
