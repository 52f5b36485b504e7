"""One-iteration RLlib training runs in a local Ray with two env runners, resume, and the
trained checkpoint as an ``rllib:`` agent in ``parlour eval`` without Ray.

The Ray cluster is started by the module's fixture (``num_cpus=2``) and shut down after it, so
the env runners are real processes. Each run is one ``algo.train()`` iteration of a tiny batch.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import ray
import yaml

from parlour.apps.cli import main
from parlour.train.config import config_from_dict
from parlour.train.rllib.runner import train_rllib

BATCH = 256
CASES = {
    "audition_2p": ("audition", 2, {}, "audition.greedy"),
    "audition_4p": ("audition", 4, {}, "audition.greedy"),
    "guests_2p": ("guests", 2, {"level": "easy"}, "guests.deducer"),
    "guests_4p": ("guests", 4, {"level": "easy"}, "guests.deducer"),
}


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False)
    yield
    ray.shutdown()


def _config(case: str, timesteps: int = BATCH) -> object:
    game, players, options, baseline = CASES[case]
    return config_from_dict(
        {
            "name": f"rllib_{case}",
            "game": game,
            "players": players,
            "game_options": options,
            "backend": "rllib",
            "total_timesteps": timesteps,
            "checkpoint_every": BATCH,
            "seed": 1,
            "opponents": {
                "baselines": {"random": 1.0, baseline: 1.0},
                "snapshot_every": BATCH,
                "snapshot_weight": 0.5,
                "max_snapshots": 2,
            },
            "ppo": {"net_arch": [32]},
            "eval": {
                "every": 10**6,
                "games": 4,
                "final_games": 4,
                "agents": ["random"],
                "workers": 1,  # in-process: no worker start-up in the timing
            },
            "rllib": {
                "num_env_runners": 2,
                "train_batch_size": BATCH,
                "minibatch_size": 64,
                "num_epochs": 1,
                # all-policy tables in 4p Guests: the slots' knock-outs are counted
                "baseline_share": 0.0 if case == "guests_4p" else 0.5,
            },
        }
    )


def _train(case: str, runs: Path, resume: bool = False, timesteps: int = BATCH) -> dict:
    return train_rllib(_config(case, timesteps), runs, resume=resume, progress=False)


def _check_run(report: dict, run_dir: Path, steps: int) -> None:
    assert report["backend"] == "rllib" and report["timesteps"] >= steps
    for name in ("report.md", "report.json", "learning_curve.png", "config.yaml"):
        assert (run_dir / name).is_file(), name
    assert (run_dir / "checkpoint" / "learner_group").is_dir()
    assert (run_dir / "checkpoints" / "latest").is_dir()
    assert list((run_dir / "logs").glob("events.out.tfevents.*"))
    state = json.loads((run_dir / "checkpoints" / "state.json").read_text())
    assert state["timesteps"] == report["timesteps"]
    assert state["snapshots"] and state["snapshots"][0]["slot"] == "snapshot_0"
    assert report["final"]["random"]["games"] >= 4  # (rounded up to whole seatings)


@pytest.fixture(scope="module")
def trained(local_ray, tmp_path_factory):
    """The one-iteration run of a case (trained once per test process)."""
    runs: dict[str, tuple[dict, Path]] = {}

    def get(case: str) -> tuple[dict, Path]:
        if case not in runs:
            folder = tmp_path_factory.mktemp(case)
            runs[case] = (_train(case, folder), folder / f"rllib_{case}")
        return runs[case]

    return get


@pytest.mark.parametrize("case", sorted(CASES))  # ~6-8 s each on 2 idle cores, ~40 s when busy
def test_one_iteration_trains_checkpoints_and_reports(case, trained) -> None:
    report, run_dir = trained(case)
    _check_run(report, run_dir, BATCH)
    if case == "guests_4p":
        assert report["training_knocked_out_slots"] > 0, "the 4p run must contain a knock-out"


def _resume(case: str, trained, runs: Path) -> None:
    """``parlour train CONFIG --resume --trust-model --timesteps N`` on a copy of the case's
    run (an RLlib resume reads pickles: it needs the flag)."""
    first, run_dir = trained(case)
    shutil.copytree(run_dir, runs / run_dir.name)  # resume a copy: the run stays for others
    config = runs / "config.yaml"
    config.write_text(yaml.safe_dump(_config(case).to_dict()))
    steps = first["timesteps"] + BATCH
    argv = ["train", str(config), "--resume", "--trust-model", "--timesteps", str(steps)]
    argv += ["--runs", str(runs)]
    assert main([*argv, "--no-progress"]) == 0
    resumed = json.loads((runs / run_dir.name / "report.json").read_text())
    assert resumed["timesteps"] >= steps
    _check_run(resumed, runs / run_dir.name, steps)
    history = resumed["history"]
    assert [h["timesteps"] for h in history] == [first["timesteps"], resumed["timesteps"]]


def test_checkpoint_restores_and_training_resumes(trained, tmp_path) -> None:
    _resume("guests_4p", trained, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("case", ["audition_2p", "audition_4p", "guests_2p"])
def test_checkpoint_restores_and_training_resumes_every_case(case, trained, tmp_path) -> None:
    _resume(case, trained, tmp_path)


NO_RAY = """
import sys
import numpy as np
from parlour.agents.factory import make_agent
from parlour.games import make_raw_env
from parlour.games import get_game
agent = make_agent(sys.argv[1], get_game("audition"), seed=0)
env = make_raw_env(get_game("audition"), 2)
rng = np.random.default_rng(0)
for game in range(3):
    env.reset(seed=game)
    while env.agents:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"].astype(bool)
        action = agent.act(obs) if env.agent_selection == "player_0" else rng.choice(np.flatnonzero(mask))
        assert mask[action], "illegal action"
        env.step(int(action))
import ray
assert not ray.is_initialized(), "the rllib agent started Ray"
print("ok")
"""


def test_checkpoint_plays_as_rllib_agent_in_parlour_eval_without_ray(trained, tmp_path) -> None:
    _, run_dir = trained("audition_2p")
    ckpt = run_dir / "checkpoint"
    env = {"RAY_ADDRESS": "", "PATH": str(Path(sys.executable).parent)}
    out = tmp_path / "eval"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "parlour.apps.cli",
            "eval",
            "--game",
            "audition",
            "--agents",
            f"rllib:{ckpt}",
            "random",
            "--games",
            "6",
            "--workers",
            "1",
            "--out",
            str(out),
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(next(out.glob("*.json")).read_text())
    assert result["games"] == 6
    # the tournament steps the raw env (illegal actions raise): whole games, only legal actions
    done = subprocess.run(
        [sys.executable, "-c", NO_RAY, f"rllib:{ckpt}"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr[-3000:]


def test_existing_run_is_refused_and_kept(trained, tmp_path) -> None:
    """A new run over a folder that holds a run is refused without ``--overwrite``, and a
    ``--resume`` that changes the model is refused; the folder is left as it was."""
    from parlour.train.run_folder import RunFolderError, RunLock

    _, run_dir = trained("audition_2p")
    copy = tmp_path / run_dir.name
    shutil.copytree(run_dir, copy)
    before = sorted(str(p.relative_to(copy)) for p in copy.rglob("*"))
    with pytest.raises(RunFolderError, match="already holds a run"):
        train_rllib(_config("audition_2p"), tmp_path, progress=False)
    changed = _config("audition_2p")
    changed.ppo.learning_rate *= 2
    with pytest.raises(RunFolderError, match="ppo.learning_rate"):
        train_rllib(changed, tmp_path, resume=True, progress=False)
    with RunLock(copy), pytest.raises(RunFolderError, match="in use"):
        train_rllib(_config("audition_2p"), tmp_path, progress=False, overwrite=True)
    assert sorted(str(p.relative_to(copy)) for p in copy.rglob("*")) == before
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump(_config("audition_2p").to_dict()))
    assert main(["train", str(config), "--runs", str(tmp_path), "--no-progress"]) == 2
    assert sorted(str(p.relative_to(copy)) for p in copy.rglob("*")) == before


def test_resume_without_checkpoint_is_refused(tmp_path) -> None:
    from parlour.train.run_folder import RunFolderError

    with pytest.raises(RunFolderError, match="no checkpoint"):
        train_rllib(_config("audition_2p"), tmp_path, resume=True, progress=False)
