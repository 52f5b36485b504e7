"""Smoke tests of the benchmark harness (`parlour bench`): figures have the schema of docs/performance.md#targets."""

from __future__ import annotations

import json

import pytest

from parlour.apps.cli import main
from parlour.benchmarks import aec_throughput
from parlour.benchmarks import run as bench

KEYS = {"name", "value", "unit", "peer", "peer_value", "ratio"}


def _check(figs: list[dict]) -> None:
    for f in figs:
        assert set(f) >= KEYS
        assert f["value"] > 0
        if f["peer_value"]:
            assert abs(f["ratio"] - f["value"] / f["peer_value"]) < 1e-9
        else:
            assert f["peer"] is None and f["ratio"] is None


def test_engine_figures_schema_and_ratios():
    figs = bench.engine_figures(steps=2000, repeats=1)
    assert any(f["name"].startswith("engine audition 2p") for f in figs)
    _check(figs)


def test_aec_figures_pair_audition_with_tictactoe(monkeypatch):
    monkeypatch.setattr(
        aec_throughput, "peers", lambda: {"tictactoe_v3": aec_throughput.ours()["audition_v1 2p"]}
    )
    figs = bench.aec_figures(steps=200, repeats=1)
    _check(figs)
    aud = [f for f in figs if f["name"].startswith("AEC audition_v1")]
    assert len(aud) == 5 and all(f["peer"] == "tictactoe_v3" for f in aud)


def test_aec_figures_awkward_guests_also_without_resets(monkeypatch):
    from parlour.envs import awkward_guests_v1

    guests = lambda: awkward_guests_v1.env(num_players=1, level="easy")  # noqa: E731
    stand_in = aec_throughput.ours()["audition_v1 2p"]  # for the hanabi peer (bench extra)
    monkeypatch.setattr(aec_throughput, "peers", lambda: {"hanabi_v5": stand_in})
    monkeypatch.setattr(aec_throughput, "ours", lambda: {"awkward_guests_v1 1p easy": guests})
    figs = bench.aec_figures(steps=60, repeats=1)
    _check(figs)
    by = {f["name"]: f for f in figs}
    main = by["AEC awkward_guests_v1 1p easy"]
    excl = by["AEC awkward_guests_v1 1p easy, resets excluded"]
    peer = by["AEC hanabi_v5, resets excluded"]
    assert main["peer"] == "hanabi_v5"
    assert excl["peer"] == "hanabi_v5, resets excluded"
    assert excl["peer_value"] == peer["value"]
    assert excl["value"] >= main["value"]  # the same runs, with the resets' time left out


def test_aec_rates_leave_out_only_the_resets():
    from parlour.envs import awkward_guests_v1

    rate, no_resets = aec_throughput.aec_rates(
        lambda: awkward_guests_v1.env(num_players=1, level="easy"), steps=60, seed=0
    )
    assert 0 < rate <= no_resets


def test_aec_rates_with_case_workers_serve_the_resets_and_close_the_env():
    from parlour.envs import awkward_guests_v1

    names = aec_throughput.ours()
    worker_names = [n for n in names if "case_workers=" in n]
    assert len(worker_names) == 2 * len(aec_throughput.GUESTS_WORKER_PLAYERS)
    made = []

    def make():
        made.append(awkward_guests_v1.env(num_players=1, level="easy", case_workers=1))
        return made[-1]

    rate, no_resets = aec_throughput.aec_rates(make, steps=300, seed=0)
    assert 0 < rate <= no_resets
    prefetcher = made[0].unwrapped.cases.prefetcher
    assert prefetcher.hits >= 5  # the resets of the timed block came from the worker
    assert prefetcher._procs == []  # aec_rates closed the env: its worker stopped


def test_parlour_bench_writes_json(tmp_path, capsys):
    path = tmp_path / "bench.json"
    args = [
        "bench",
        "--sections",
        "engine",
        "--steps",
        "300",
        "--repeats",
        "1",
        "--json",
        str(path),
    ]
    assert main(args) == 0
    data = json.loads(path.read_text())
    _check(data["figures"])
    assert data["complete"] is True and data["sections"] == ["engine"]
    assert "ratio" in capsys.readouterr().out
    assert main(["bench", "--sections", "nope"]) == 2


def test_batched_figures_pair_the_batched_engine_with_the_aec_env():
    from parlour.benchmarks import batched_throughput as B

    figs = B.figures(200, 1, bench._figure, bench._interleaved)
    _check(figs)
    assert figs[0]["peer"] == B.AEC_PEER and figs[0]["value"] > 0
    assert B.batched_rate(2 * 64, batch=64) > 0


def test_a_peer_whose_constructor_fails_is_skipped(monkeypatch, capsys):
    """hanabi_v5 imports without its engine and fails only when built: it is left out."""
    import types

    def failing_env():
        raise ImportError("no hanabi engine")

    real = aec_throughput.importlib.import_module
    monkeypatch.setattr(
        aec_throughput.importlib,
        "import_module",
        lambda name: (
            types.SimpleNamespace(env=failing_env) if name.endswith("hanabi_v5") else real(name)
        ),
    )
    assert "hanabi_v5" not in aec_throughput.peers()
    assert "peer hanabi_v5 unavailable" in capsys.readouterr().out


def test_the_training_bench_finds_its_config_outside_a_checkout(tmp_path, monkeypatch):
    """``parlour bench`` run from any folder: the default config is a shipped name, not a path
    relative to the repository (a relative path failed after the other sections had run)."""
    import inspect

    from parlour.benchmarks import training_throughput as tt
    from parlour.train.config import load_config

    monkeypatch.chdir(tmp_path)
    default = inspect.signature(tt.figures).parameters["config"].default
    assert load_config(default).name == "audition_2p"
    for name in tt.GUESTS_CONFIGS:
        assert load_config(name).name == name


def test_each_section_is_printed_and_saved_as_it_finishes(tmp_path, capsys, monkeypatch):
    """A long bench stopped with Ctrl-C keeps (prints and writes) the sections it finished."""
    path = tmp_path / "bench.json"
    reached: list[str] = []

    def interrupted() -> list[dict]:
        out = capsys.readouterr().out  # the engine section was printed before this one ran
        reached.append(out)
        raise KeyboardInterrupt

    monkeypatch.setattr(bench, "memory_figures", interrupted)
    args = ["bench", "--sections", "engine,memory", "--steps", "300", "--repeats", "1"]
    assert main([*args, "--json", str(path)]) == 130
    assert "[engine:" in reached[0] and "engine audition 2p" in reached[0]
    data = json.loads(path.read_text())
    assert data["sections"] == ["engine"] and data["complete"] is False
    _check(data["figures"])
    assert "interrupted" in capsys.readouterr().err
    assert not (tmp_path / "bench.json.tmp").exists()


def test_the_training_bench_times_the_rollout_phase_apart(tmp_path):
    """``shipped_config_rates``: the whole-training rate and the rollout phases' rate over the
    same steps; the rollout phases are part of the run, so their rate is the higher."""
    import yaml

    from parlour.benchmarks import training_throughput as tt
    from parlour.train.config import load_config

    raw = load_config("audition_2p").to_dict()
    raw.update(name="tiny", n_envs=8, total_timesteps=1000)
    raw["ppo"].update(n_steps=16, batch_size=64, net_arch=[16])
    path = tmp_path / "tiny.yaml"
    path.write_text(yaml.safe_dump(raw))
    whole, rollout = tt.shipped_config_rates(100, 0, str(path))
    assert 0 < whole < rollout


def test_the_rllib_comparison_trains_sb3_on_the_rllib_configs_settings():
    """``rllib_compare`` holds SB3 to the RLlib config (not to ``audition_2p``, which became the
    batched ``make run`` recipe): same steps, opponents, PPO settings, evaluation; the RLlib batch
    over one SubprocVecEnv game per env runner."""
    from parlour.benchmarks.rllib_compare import sb3_twin
    from parlour.train.config import load_config

    rllib = load_config("audition_2p_rllib")
    twin = sb3_twin(rllib)
    assert (twin.backend, twin.vec_env, twin.n_envs) == ("sb3", "subproc", 2)
    assert twin.ppo.n_steps * twin.n_envs == rllib.rllib.train_batch_size
    assert (twin.ppo.batch_size, twin.ppo.n_epochs) == (256, 5)
    assert twin.total_timesteps == rllib.total_timesteps == 60000
    same = ("learning_rate", "gamma", "gae_lambda", "clip_range", "ent_coef", "net_arch")
    assert all(getattr(twin.ppo, k) == getattr(rllib.ppo, k) for k in same)
    assert twin.opponents == rllib.opponents and twin.eval == rllib.eval


def test_a_json_path_that_cannot_be_written_is_refused_before_measuring(
    tmp_path, capsys, monkeypatch
):
    def measured(*args, **kwargs):
        raise AssertionError("a section ran")

    monkeypatch.setattr(bench, "_measure", measured)
    missing = tmp_path / "no" / "bench.json"
    assert main(["bench", "--sections", "engine", "--json", str(missing)]) == 2
    assert "does not exist" in capsys.readouterr().err and not missing.parent.exists()
    assert main(["bench", "--sections", "engine", "--json", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err


def test_an_interrupted_bench_without_json_names_the_sections_printed(capsys, monkeypatch):
    def interrupted() -> list[dict]:
        raise KeyboardInterrupt

    monkeypatch.setattr(bench, "memory_figures", interrupted)
    args = ["bench", "--sections", "engine,memory", "--steps", "300", "--repeats", "1"]
    assert main(args) == 130
    err = capsys.readouterr().err
    assert "interrupted after engine (printed above)" in err and "None" not in err


def _tiny_banks_section(monkeypatch):
    """The banks section at its smallest: 2-step blocks, 10-case builds, an Audition env standing
    in for ``hanabi_v5`` (the bench extra)."""
    from parlour.benchmarks import banks

    stand_in = aec_throughput.ours()["audition_v1 2p"]
    monkeypatch.setattr(banks, "peers", lambda names: {"hanabi_v5": stand_in})
    monkeypatch.setattr(banks, "GAME_STEPS", dict.fromkeys(banks.PLAYERS, 2))
    monkeypatch.setattr(banks, "BUILD_CASES", (10, 10))  # (the fewest the default splits take)
    monkeypatch.setattr(banks, "OPEN_COPIES", (2, 2))
    monkeypatch.setattr(banks, "RESETS", (2, 2))
    return banks


def test_the_banks_section_measures_every_player_count_level_and_source(
    tmp_path, capsys, monkeypatch
):
    """``parlour bench --sections banks``: the AEC env at 1-8 players and the solo env, every
    level, from the bank and generated, each with its ratio to the run's ``hanabi_v5``; the
    builds at 1 and 2 workers (2 vs 1); bank open, proof and reset times; the targets printed."""
    from parlour.envs.awkward_guests import LEVELS

    banks = _tiny_banks_section(monkeypatch)
    path = tmp_path / "bench.json"
    args = ["bench", "--sections", "banks", "--steps", "500", "--repeats", "1"]
    assert main([*args, "--json", str(path)]) == 0
    figs = json.loads(path.read_text())["figures"]
    _check(figs)
    by = {f["name"]: f for f in figs}
    peer = by["banks: AEC hanabi_v5"]
    assert peer["blocks"] == len(banks.PLAYERS)  # sampled once per player count in the repeat
    rates = []
    for level in LEVELS:
        for source in ("bank", "generated"):
            rates += [f"banks: AEC awkward_guests_v1 {n}p {level}, {source}" for n in range(1, 9)]
            rates.append(f"banks: solo {level}, {source}")
    for name in rates:
        f = by[name]
        assert f["unit"] == "steps/s" and f["peer"] == "hanabi_v5"
        assert f["peer_value"] == peer["value"] and f["repeats"] == 1
    assert len([f for f in figs if f["unit"] == "steps/s"]) == len(rates) + 1
    assert by["banks: AEC awkward_guests_v1 8p expert, bank"]["steps"] == 2
    one, two = (by[f"banks: build medium, 10 cases, {w}"] for w in ("1 worker", "2 workers"))
    assert one["unit"] == two["unit"] == "cases/s" and one["peer"] is None
    assert two["peer"] == "build, 1 worker" and two["peer_value"] == one["value"]
    for f in (one, two):  # CPU time per case, and the cores: cases/s x CPU seconds per case
        assert f["cpu_ms_per_case"] > 0
        assert f["cores"] == pytest.approx(f["value"] * f["cpu_ms_per_case"] / 1e3)
    for name in (
        "open a proven medium bank, median",
        "open a proven medium bank, p95",
        "reset() 4p medium, bank, median",
        "reset() 4p medium, bank, p95",
        "reset() 4p medium, generated, median",
        "reset() 4p medium, generated, p95",
    ):
        assert by[f"banks: {name}"]["unit"] == "ms"
    assert by["banks: prove the medium bank (its first open on a machine)"]["cases"] == 300
    out = capsys.readouterr().out
    assert "target: awkward_guests_v1 from a bank >= 2x hanabi_v5" in out
    assert "target: the solo env from a bank >= 2x hanabi_v5" in out
    assert "target: build 2 vs 1 workers >= 1.8x" in out


def test_the_banks_targets_name_the_configurations_below_them():
    from parlour.benchmarks import banks
    from parlour.benchmarks.figures import figure

    def rate(name, env, source, value):
        return figure(
            f"banks: {name}", value, "steps/s", "hanabi_v5", 1000.0, env=env, source=source
        )

    figs = [
        rate("AEC awkward_guests_v1 1p expert, bank", "aec", "bank", 1500.0),
        rate("AEC awkward_guests_v1 2p expert, bank", "aec", "bank", 2500.0),
        rate("AEC awkward_guests_v1 1p expert, generated", "aec", "generated", 500.0),
        rate("solo expert, bank", "solo", "bank", 2100.0),
        figure(
            "banks: build, 2 workers",
            70.0,
            "cases/s",
            "build, 1 worker",
            40.0,
            workers=2,
            cores=0.9,
            cpu_ms_per_case=13.0,
        ),
    ]
    aec, solo, build = banks.target_lines(figs)
    assert "MISSED at 1/2" in aec and "1.50x, AEC awkward_guests_v1 1p expert, bank" in aec
    assert "met" in solo and "2.10x" in solo
    assert "build 2 vs 1 workers >= 1.8x: MISSED (1.75x; it ran on 0.9 cores" in build
    figs[-1]["ratio"] = 1.9
    assert ": met (1.90x" in banks.target_lines(figs)[-1]
    no_peer = [figure("banks: solo easy, bank", 9.0, "steps/s", env="solo", source="bank")]
    assert "not measured" in banks.target_lines(no_peer)[1]


def test_the_banks_blocks_are_whole_games_and_the_solo_loop_counts_its_resets():
    """``--steps`` sets the games per block (bank 20,000/500 = 40, generated 20; --quick 6 and
    3), each game as long as a random game of that player count; the solo loop resets."""
    import gymnasium

    from parlour.benchmarks import banks

    default, quick = banks.Settings.of(20000, 5, False), banks.Settings.of(3000, 3, True)
    assert (default.bank_games, default.generated_games, default.repeats) == (40, 20, 5)
    assert (quick.bank_games, quick.generated_games, quick.repeats) == (6, 3, 3)
    assert (default.build_cases, quick.build_cases) == banks.BUILD_CASES
    assert default.steps("bank", 8) == 40 * banks.GAME_STEPS[8]
    assert quick.steps("generated", 1) == 3 * banks.GAME_STEPS[1]

    resets = []

    class Counting(gymnasium.Wrapper):
        def reset(self, **kwargs):
            resets.append(kwargs)
            return super().reset(**kwargs)

    make = lambda: Counting(gymnasium.make(banks.SOLO_ID, case_bank="easy"))  # noqa: E731
    assert banks.solo_steps_per_second(make, 10 * banks.GAME_STEPS[1], seed=0) > 0
    assert resets[0] == {"seed": 0} and len(resets) >= 3  # games ended and were reset, unseeded
    assert all(r == {} for r in resets[1:])
