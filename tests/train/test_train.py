"""``parlour train``: config validation, shipped configs, a tiny end-to-end run and resume."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from parlour.apps.cli import main
from parlour.games import get_game
from parlour.train.config import ConfigError, config_from_dict, load_config

CONFIGS = sorted((Path(__file__).parents[2] / "configs").glob("*.yaml"))

TINY = {
    "name": "tiny",
    "players": 2,
    "total_timesteps": 1024,
    "n_envs": 2,
    "vec_env": "dummy",
    "opponents": {"baselines": {"random": 1.0, "audition.greedy": 1.0}, "snapshot_every": 512},
    "ppo": {"n_steps": 256, "batch_size": 128, "n_epochs": 1, "net_arch": [32, 32]},
    "eval": {"every": 512, "games": 4, "final_games": 20, "workers": 1},
    "checkpoint_every": 512,
}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": "x", "learning_rate": 1}, "unknown key"),
        ({"name": "x", "ppo": {"lr": 1}}, "unknown key.* in ppo"),
        ({"name": "x", "ppo": {"n_steps": "many"}}, "ppo.n_steps: expected int"),
        ({"name": "x", "total_timesteps": 1.5}, "total_timesteps: expected int"),
        ({"name": "x", "players": 9}, "players: must be in 2..6"),
        ({"name": "x", "game": "chess"}, "unknown game"),
        ({"name": "x", "vec_env": "ray"}, "vec_env"),
        ({"name": "x", "torch_threads": 0}, "torch_threads: must be >= 1, got 0"),
        ({"name": "x", "ppo": {"net_arch": {"pi": [8]}}}, "keys pi and vf, got the keys"),
        ({"name": "x", "ppo": {"net_arch": {"pi": [8], "vf": [0]}}}, "sizes must be >= 1"),
        (
            {"name": "x", "backend": "rllib", "ppo": {"net_arch": {"pi": [8], "vf": [4]}}},
            "set rllib.net_arch",
        ),
        ({"name": "x", "opponents": {"baselines": {"nobody": 1}}}, "unknown agent"),
        ({"name": "x", "opponents": {"baselines": ["random"]}}, "expected a mapping"),
        ({"name": "x", "game_options": {"action_cards": 7}}, "game_options"),
        ({"name": "x", "ppo": {"learning_rate_end": 0.01}}, "learning_rate_end"),
        ({"name": "x", "ppo": {"learning_rate_end": -1e-5}}, "learning_rate_end"),
        ({"name": "x", "ppo": {"learning_rate": 0}}, "ppo.learning_rate: must be > 0"),
        ({"name": "x", "ppo": {"features": "no"}}, "ppo.features: expected true or false"),
        (
            {"name": "x", "ppo": {"features_extractor_kwargs": {"counts": True}}},
            r"unknown option 'counts' of AuditionFeatures; allowed: \['count_indicators'\]",
        ),
        (
            {"name": "x", "ppo": {"features_extractor_kwargs": {"count_indicators": 1}}},
            "features_extractor_kwargs.count_indicators: expected true or false, got 1",
        ),
        (
            {
                "name": "x",
                "ppo": {"features": False, "features_extractor_kwargs": {"count_indicators": True}},
            },
            "features_extractor_kwargs: needs ppo.features: true",
        ),
        (
            {
                "name": "x",
                "backend": "rllib",
                "ppo": {"features_extractor_kwargs": {"count_indicators": True}},
            },
            "features_extractor_kwargs: only with backend: sb3",
        ),
        ({"name": "x", "ppo": {"features_extractor_kwargs": [1]}}, "expected a mapping"),
        (
            {
                "name": "x",
                "game": "guests",
                "game_options": {"level": "easy"},
                "ppo": {"features_extractor_kwargs": {"hidden": [64]}},
            },
            r"unknown option 'hidden' of GuestsFeatures; allowed: \['threat', 'timing'\]",
        ),
        ({"name": "x", "init_from": "runs/x/model.pt"}, "init_from: a model file path"),
        ({"name": "x", "init_from": 3}, "init_from: expected a string"),
        ({"name": "x", "seed": -1}, r"seed: must be in 0..2\*\*32 - 1"),
        ({"name": "x", "seed": 2**32}, r"seed: must be in 0..2\*\*32 - 1"),
        ({"name": "x", "eval": {"agents": []}}, "eval.agents: at least one agent"),
        ({"name": "x", "eval": {"final_agents": []}}, "eval.final_agents: at least one agent"),
        ({"name": "x", 1: 2, "foo": 3}, r"unknown key\(s\): \[1, 'foo'\]"),
        ({"name": "x", "ppo": {"batch_size": 1}}, "ppo.batch_size: must be >= 2, got 1"),
        ({"name": "x", "n_envs": 1, "ppo": {"n_steps": 1}}, "a rollout needs >= 2 steps"),
        (
            {"name": "x", "n_envs": 1, "ppo": {"n_steps": 5, "batch_size": 2}},
            "leaves a last minibatch of one sample",
        ),
        ({"players": 2}, "missing required key 'name'"),
        ([1, 2], "expected a mapping"),
    ],
)
def test_bad_configs_raise_clear_errors(data, message):
    with pytest.raises(ConfigError, match=message):
        config_from_dict(data)


@pytest.mark.parametrize("path", CONFIGS, ids=[p.stem for p in CONFIGS])
def test_shipped_configs_are_valid(path):
    from parlour.games import get_game

    cfg = load_config(path)
    assert cfg.name == path.stem
    assert set(cfg.eval.final_agents) >= set(get_game(cfg.game).eval_baselines)


def test_features_can_be_switched_off():
    assert config_from_dict({"name": "x", "ppo": {"features": False}}).ppo.features is False
    assert config_from_dict({"name": "x"}).ppo.features is True


def test_learning_rate_decays_linearly_when_asked():
    from parlour.train.model import learning_rate_schedule

    assert learning_rate_schedule(3e-4, None) == 3e-4
    schedule = learning_rate_schedule(3e-4, 1e-5)
    # SB3 calls it with the progress remaining: 1 at the start, 0 at the end
    assert schedule(1.0) == pytest.approx(3e-4)
    assert schedule(0.5) == pytest.approx((3e-4 + 1e-5) / 2)
    assert schedule(0.0) == pytest.approx(1e-5)


def test_shipped_configs_cover_every_player_count_and_variant():
    cfgs = [load_config(p) for p in CONFIGS]
    assert {c.players for c in cfgs if c.game == "audition"} == {2, 3, 4, 5, 6}
    assert any(c.game_options.get("action_cards") for c in cfgs)
    assert any(c.game_options.get("uncertain_counts") for c in cfgs)


def test_tiny_training_run_produces_a_loadable_model_and_report(tmp_path, capsys):
    cfg_path = tmp_path / "tiny.yaml"
    cfg_path.write_text(yaml.safe_dump(TINY))
    runs = tmp_path / "runs"
    assert main(["train", str(cfg_path), "--runs", str(runs), "--no-progress"]) == 0
    run = runs / "tiny"
    report = json.loads((run / "report.json").read_text())
    assert report["timesteps"] >= 1024
    # evaluations every 512 steps, except in the last rollout (the final evaluation follows)
    assert [h["timesteps"] for h in report["history"]] == [512, 1024]
    assert report["history"][-1]["final"] and not report["history"][0].get("final")
    for opp in ("random", "audition.greedy"):
        res = report["final"][opp]
        assert res["games"] == 20 and res["ci95"][0] <= res["win_rate"] <= res["ci95"][1]
    assert (run / "learning_curve.png").stat().st_size > 1000
    assert "Final evaluation" in (run / "report.md").read_text()
    assert list((run / "snapshots").glob("*.safetensors"))
    assert (run / "logs" / "progress.csv").read_text().count("\n") >= 2
    assert list((run / "logs").glob("events.out.tfevents.*"))
    assert "audition.greedy" in capsys.readouterr().out

    from parlour.agents.factory import make_agent
    from parlour.agents.model_file import load_policy_file
    from parlour.train.single_seat import SingleSeatEnv

    policy = load_policy_file(run / "model.safetensors")  # (parlour's format: no trust needed)
    env = SingleSeatEnv(get_game("audition"), 2, {}, ["random"])
    obs, _ = env.reset(seed=0)
    action, _ = policy.predict(obs, action_masks=env.action_masks(), deterministic=True)
    assert env.action_masks()[int(action)]
    agent = make_agent(f"ppo:{run / 'model.safetensors'}", get_game("audition"))
    obs_dict = env.aec.observe(env.learner)
    assert obs_dict["action_mask"][agent.act(obs_dict, None)] == 1

    # resume continues from the checkpoint up to the new total
    assert (
        main(
            [
                "train",
                str(cfg_path),
                "--runs",
                str(runs),
                "--resume",
                "--timesteps",
                "1536",
                "--no-progress",
            ]
        )
        == 0
    )
    resumed = json.loads((run / "report.json").read_text())
    assert resumed["timesteps"] >= 1536
    assert [h["timesteps"] for h in resumed["history"]] == [512, 1024, 1536]
    assert resumed["final"]["random"]["games"] == 20
    assert (run / "logs" / "resume_1024" / "progress.csv").exists()
    assert (run / "logs" / "progress.csv").read_text().count("\n") >= 2  # kept

    # a second stage starts from the model's weights, with a step count of its own
    stage2 = dict(
        TINY, name="tiny_stage2", total_timesteps=512, init_from=str(run / "model.safetensors")
    )
    stage2["eval"] = dict(TINY["eval"], every=512)
    cfg2 = tmp_path / "stage2.yaml"
    cfg2.write_text(yaml.safe_dump(stage2))
    assert main(["train", str(cfg2), "--runs", str(runs), "--no-progress"]) == 0
    second = json.loads((runs / "tiny_stage2" / "report.json").read_text())
    assert 512 <= second["timesteps"] < 1536
    assert second["config"]["init_from"] == str(run / "model.safetensors")
    # the weights are really loaded: a network of another shape does not fit
    misfit = dict(stage2, name="tiny_misfit", ppo=dict(TINY["ppo"], net_arch=[16]))
    cfg3 = tmp_path / "misfit.yaml"
    cfg3.write_text(yaml.safe_dump(misfit))
    with pytest.raises(SystemExit, match="does not fit"):
        main(["train", str(cfg3), "--runs", str(runs), "--no-progress"])
    # a run may not start from a model in its own folder (a new run empties it)
    own = dict(stage2, init_from=str(runs / "tiny_stage2" / "model.safetensors"))
    cfg4 = tmp_path / "own.yaml"
    cfg4.write_text(yaml.safe_dump(own))
    with pytest.raises(SystemExit, match="inside this run's folder"):
        main(["train", str(cfg4), "--runs", str(runs), "--no-progress"])
    assert (runs / "tiny_stage2" / "model.safetensors").is_file()


def _tiny_model(seed: int, net_arch: list[int]):
    from parlour.train.train import build_model, make_vec_env

    cfg = config_from_dict(dict(TINY, seed=seed, ppo=dict(TINY["ppo"], net_arch=net_arch)))
    return build_model(cfg, make_vec_env(cfg))


def test_features_extractor_kwargs_reach_the_extractor_and_are_saved_with_the_model(tmp_path):
    from parlour.agents.model_file import load_policy_file
    from parlour.train.model import save_model
    from parlour.train.train import build_model, make_vec_env

    plain = _tiny_model(1, [32, 32])
    ppo = dict(TINY["ppo"], features_extractor_kwargs={"count_indicators": True})
    cfg = config_from_dict(dict(TINY, seed=1, ppo=ppo))
    model = build_model(cfg, make_vec_env(cfg))
    extractor = model.policy.features_extractor
    assert extractor.count_indicators and not plain.policy.features_extractor.count_indicators
    assert extractor.features_dim == plain.policy.features_extractor.features_dim + 6 * 13 * 5
    save_model(model, tmp_path / "model.safetensors")
    loaded = load_policy_file(tmp_path / "model.safetensors").features_extractor
    assert loaded.count_indicators and loaded.features_dim == extractor.features_dim


def test_resume_fills_in_keys_a_run_folder_written_before_them_lacks(tmp_path):
    """A run folder's ``config.yaml`` from before a config key existed resumes with a config
    that leaves the key at its default, and is refused with one that sets it otherwise."""
    from parlour.train.run_folder import RunFolderError, check_resume

    cfg = config_from_dict(dict(TINY))
    saved = cfg.to_dict()
    del saved["ppo"]["features_extractor_kwargs"], saved["torch_threads"]
    (tmp_path / "checkpoints").mkdir()
    (tmp_path / "checkpoints" / "latest.safetensors").write_bytes(b"")
    (tmp_path / "config.yaml").write_text(yaml.safe_dump(saved))
    check_resume(tmp_path, cfg.to_dict())
    ppo = dict(TINY["ppo"], features_extractor_kwargs={"count_indicators": True})
    changed = config_from_dict(dict(TINY, ppo=ppo))
    with pytest.raises(RunFolderError, match="ppo.features_extractor_kwargs"):
        check_resume(tmp_path, changed.to_dict())


def test_init_from_loads_the_weights_and_rejects_a_network_that_does_not_fit(tmp_path):
    import torch

    from parlour.train.model import save_model
    from parlour.train.train import init_weights

    source = _tiny_model(1, [32, 32])
    save_model(source, tmp_path / "source.safetensors")
    target = _tiny_model(2, [32, 32])
    weights = source.policy.state_dict()
    assert not all(torch.equal(v, target.policy.state_dict()[k]) for k, v in weights.items())
    init_weights(target, tmp_path / "source.safetensors")
    for key, value in weights.items():
        assert torch.equal(value, target.policy.state_dict()[key]), key
    with pytest.raises(SystemExit, match="does not fit"):
        init_weights(_tiny_model(2, [16]), tmp_path / "source.safetensors")
    with pytest.raises(SystemExit, match="no model at"):
        init_weights(target, tmp_path / "missing.safetensors")


def test_train_rejects_a_bad_config_file(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nppo: {gamma: fast}\n")
    assert main(["train", str(bad)]) == 2
    assert "ppo.gamma: expected a number" in capsys.readouterr().err


def test_net_arch_mapping_gives_the_policy_and_value_networks_their_own_sizes():
    from parlour.train.train import build_model, make_vec_env

    cfg = config_from_dict(
        {
            "name": "x",
            "n_envs": 1,
            "vec_env": "dummy",
            "ppo": {"net_arch": {"pi": [24], "vf": [8, 8]}},
        }
    )
    model = build_model(cfg, make_vec_env(cfg))
    linear = [
        [m.out_features for m in net if hasattr(m, "out_features")]
        for net in (model.policy.mlp_extractor.policy_net, model.policy.mlp_extractor.value_net)
    ]
    assert linear == [[24], [8, 8]]


def test_adam_options_change_speed_not_results():
    """build_model's multi-tensor Adam step is the per-tensor step bit for bit (on the CPU)."""
    import torch

    from parlour.train.model import ADAM_OPTIONS

    def trained(**options):
        torch.manual_seed(0)
        net = torch.nn.Sequential(torch.nn.Linear(40, 16), torch.nn.Tanh(), torch.nn.Linear(16, 5))
        opt = torch.optim.Adam(net.parameters(), lr=3e-4, **options)
        x = torch.randn(32, 40, generator=torch.Generator().manual_seed(1))
        for _ in range(20):
            opt.zero_grad()
            net(x).pow(2).mean().backward()
            opt.step()
        return [p.detach() for p in net.parameters()]

    default = trained(eps=ADAM_OPTIONS["eps"], foreach=False)
    assert ADAM_OPTIONS["foreach"] is True
    assert all(torch.equal(a, b) for a, b in zip(default, trained(**ADAM_OPTIONS), strict=True))


#: a small Audition model (parlour's format; tests/data/legacy_audition_model.zip converted)
SMALL_MODEL = Path(__file__).parents[1] / "data" / "small_audition_model.safetensors"


def test_a_model_of_another_game_is_refused_by_the_config():
    guests = {"name": "x", "game": "guests", "game_options": {"level": "easy"}}
    for key in ("eval", "opponents"):
        section = (
            {"agents": [f"ppo:{SMALL_MODEL}"]}
            if key == "eval"
            else {"baselines": {f"ppo:{SMALL_MODEL}": 1.0}}
        )
        with pytest.raises(ConfigError, match="trained on observations of shape"):
            config_from_dict({**guests, key: section})


def test_a_new_run_refuses_an_agent_whose_model_it_would_delete(tmp_path):
    import shutil

    run = tmp_path / "runs" / "tiny"
    (run / "checkpoints").mkdir(parents=True)
    model = run / "model.safetensors"
    shutil.copy(SMALL_MODEL, model)
    (run / "report.json").write_text("{}")
    before = sorted(p.name for p in run.rglob("*"))
    cfg = tmp_path / "tiny.yaml"
    cfg.write_text(yaml.safe_dump({**TINY, "eval": {**TINY["eval"], "agents": [f"ppo:{model}"]}}))
    argv = ["train", str(cfg), "--runs", str(tmp_path / "runs"), "--overwrite", "--no-progress"]
    with pytest.raises(SystemExit, match="eval.agents: .* plays a model inside this run's folder"):
        main(argv)
    assert sorted(p.name for p in run.rglob("*")) == before  # nothing deleted
    from parlour.train.rllib.runner import _check_run_dir  # the RLlib backend checks it too

    data = {**TINY, "backend": "rllib", "eval": {**TINY["eval"], "agents": [f"ppo:{model}"]}}
    with pytest.raises(SystemExit, match="plays a model inside this run's folder"):
        _check_run_dir(config_from_dict(data), run, resume=False, overwrite=True)
    assert sorted(p.name for p in run.rglob("*")) == before


def test_the_history_table_lists_every_opponent_when_the_final_evaluation_has_fewer():
    from parlour.eval.report import _history_lines

    def res(rate: float) -> dict:
        return {"win_rate": rate}

    report = {
        "players": 2,
        "history": [
            {
                "timesteps": 512,
                "wall_time_s": 3,
                "results": {"random": res(0.5), "greedy": res(0.25)},
            },
            {"timesteps": 1024, "wall_time_s": 6, "final": True, "results": {"random": res(0.75)}},
        ],
    }  # (eval.final_agents: [random]; a KeyError before)
    lines = _history_lines(report, ())
    assert lines[0] == "| steps | wall time | vs random | vs greedy |"
    assert lines[2].startswith("| 512 | 3 s |") and lines[3].endswith("| — |")


def test_periodic_evaluations_see_the_model_after_exactly_their_steps(tmp_path, monkeypatch):
    """The evaluation labelled 512 plays the weights trained on 512 steps: those of a run that
    stops at 512 (it played the weights of the update before, mid-rollout)."""
    import torch

    from parlour.agents.ppo import load_policy
    from parlour.train import train as T

    seen = {}
    evaluate = T.evaluate_agent

    def recording(cfg, learner, *args):
        seen[args[-1]] = {k: v.clone() for k, v in load_policy(learner[4:]).state_dict().items()}
        return evaluate(cfg, learner, *args)

    monkeypatch.setattr(T, "evaluate_agent", recording)
    T.train(config_from_dict(TINY), tmp_path / "long", progress=False)  # evaluates at 512
    T.train(config_from_dict({**TINY, "total_timesteps": 512}), tmp_path / "short", progress=False)
    short = load_policy(str(tmp_path / "short" / "tiny" / "model.safetensors")).state_dict()
    assert all(torch.equal(seen[512][k], v) for k, v in short.items())
