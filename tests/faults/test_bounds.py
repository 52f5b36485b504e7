"""Issue 31, bounds: values past an upper bound are refused before any work, naming the key and
the range (:mod:`parlour.limits`); tournament jobs are made lazily; config and case files
must be bounded regular files (a FIFO never hangs the reader, ``/dev/zero`` never fills memory)."""

from __future__ import annotations

import os
import time

import pytest

from parlour import limits as L
from parlour.agents.factory import make_agent
from parlour.envs import awkward_guests_v1
from parlour.envs.awkward_guests.case.case import MAX_CASE_FILE_BYTES
from parlour.eval import tournament as T
from parlour.games import get_game
from parlour.train.config import MAX_CONFIG_BYTES, ConfigError, config_from_dict

from .helpers import CLASSIC, assert_clean_failure, files, run_main, tiny, write_config

#: a reader that blocks on a FIFO would hang past this (the tests' own timeout)
NO_HANG_S = 20

# -- config values -----------------------------------------------------------------------------

CONFIG_CASES = [
    ({"n_envs": 100_000}, "n_envs: must be in 1..4,096, got 100,000"),
    ({"vec_env": "subproc", "n_envs": 500}, "n_envs: must be in 1..128"),
    ({"ppo": {"net_arch": [200_000, 200_000]}}, "ppo.net_arch[0]: must be in 1..4,096"),
    ({"ppo": {"net_arch": {"pi": [8], "vf": [8, 9000]}}}, "ppo.net_arch.vf[1]: must be in"),
    ({"ppo": {"net_arch": [8] * 17}}, "ppo.net_arch (layers): must be in 0..16"),
    ({"ppo": {"net_arch": [4096] * 8}}, "the limit is 50,000,000"),  # 8 x 16.8 M weights x 2
    ({"ppo": {"n_steps": 1_000_000}}, "ppo.n_steps x n_envs: must be in 2..262,144"),
    ({"ppo": {"batch_size": 10**7}}, "ppo.batch_size: must be in 2..262,144"),
    ({"ppo": {"n_epochs": 10**6}}, "ppo.n_epochs: must be in 1..1,000"),
    ({"total_timesteps": 10**15}, "total_timesteps: must be in 1..10,000,000,000"),
    ({"torch_threads": 10_000}, "torch_threads: must be in 1..256"),
    ({"opponents": {"max_snapshots": 10_000}}, "opponents.max_snapshots: must be in 1..64"),
    ({"eval": {"games": 10**9}}, "eval.games: must be in 1..1,000,000"),
    ({"eval": {"final_games": 10**9}}, "eval.final_games: must be in 1..1,000,000"),
    ({"eval": {"workers": 10_000}}, "eval.workers: must be in 1..256"),
    ({"imitation": {"steps": 10**9}}, "imitation.steps: must be in 1..1,000,000"),
]


@pytest.mark.parametrize(("change", "message"), CONFIG_CASES)
def test_config_values_past_their_bound_are_refused_naming_the_key(change, message):
    with pytest.raises(ConfigError) as info:
        config_from_dict(tiny(**change))
    assert message in str(info.value)


def test_case_workers_times_n_envs_is_bounded():
    cfg = tiny(game="guests", players=2, n_envs=16, game_options={"case_workers": 4})
    cfg["eval"]["agents"] = ["random"]
    with pytest.raises(ConfigError, match=r"game_options.case_workers x n_envs: must be in 0..32"):
        config_from_dict(cfg)


def test_the_shipped_sizes_are_within_the_bounds():
    cfg = config_from_dict(tiny(n_envs=512, vec_env="batched", ppo={"net_arch": [512, 512]}))
    assert cfg.n_envs == 512


def test_train_refuses_a_huge_network_before_anything_is_written(tmp_path, capsys):
    path = write_config(tmp_path / "big.yaml", tiny(ppo={"net_arch": [200_000, 200_000]}))
    before = files(tmp_path)
    result = run_main(["train", str(path), "--runs", str(tmp_path / "runs")], capsys)
    assert_clean_failure(result, "ppo.net_arch[0]: must be in 1..4,096", before, files(tmp_path))
    assert not (tmp_path / "runs").exists()


# -- config files ------------------------------------------------------------------------------


def _special_files(tmp_path):
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    big = tmp_path / "big.yaml"
    with open(big, "wb") as f:  # (sparse: 100 MB without writing them)
        f.truncate(100 * 2**20)
    (tmp_path / "folder").mkdir()
    return [
        (str(fifo), "not a regular file"),
        ("/dev/zero", "not a regular file"),
        (str(big), f"the limit is {MAX_CONFIG_BYTES:,}"),
        (str(tmp_path / "folder"), "is a folder"),
    ]


@pytest.mark.timeout(NO_HANG_S)
def test_train_refuses_fifo_device_folder_and_huge_config_without_hanging(tmp_path, capsys):
    for path, message in _special_files(tmp_path):
        before = files(tmp_path)
        t0 = time.perf_counter()
        result = run_main(["train", path, "--runs", str(tmp_path / "runs")], capsys)
        assert_clean_failure(result, message, before, files(tmp_path))
        assert "cannot read the config" in result[2]
        assert time.perf_counter() - t0 < NO_HANG_S / 2


# -- case files --------------------------------------------------------------------------------


def _bad_case_files(tmp_path):
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(MAX_CASE_FILE_BYTES + 1)
    (tmp_path / "folder.json").mkdir()
    return [
        (str(fifo), "not a regular file"),
        ("/dev/zero", "not a regular file"),
        (str(big), f"the limit is {MAX_CASE_FILE_BYTES:,}"),
        (str(tmp_path / "folder.json"), "is a folder"),
    ]


@pytest.mark.timeout(NO_HANG_S)
def test_case_check_and_show_refuse_special_and_huge_files(tmp_path, capsys):
    for path, message in _bad_case_files(tmp_path):
        for command in ("check", "show"):
            assert_clean_failure(run_main(["case", command, path], capsys), message)


@pytest.mark.timeout(NO_HANG_S)
def test_envs_refuse_special_and_huge_case_files(tmp_path):
    env = awkward_guests_v1.raw_env(num_players=2)
    env.reset(seed=0, options={"case": str(CLASSIC)})
    game = env.game
    for path, message in _bad_case_files(tmp_path):
        with pytest.raises(ValueError, match=rf"cases\[0\]: .*{message}"):
            awkward_guests_v1.raw_env(num_players=2, cases=[path])
        with pytest.raises(ValueError, match=message):
            env.reset(seed=1, options={"case": path})
        assert env.game is game  # (the failed reset changed nothing)


def test_case_stats_seeds_are_bounded(capsys):
    result = run_main(["case", "stats", "--seeds", "1000000000"], capsys)
    assert_clean_failure(result, "--seeds must be in 1..100,000, got 1,000,000,000")


# -- agent specs -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("audition.expert:sims=1000000000000", "option sims must be <= 10,000"),
        ("audition.search:model=audition-2p,sims=100000", "option sims must be <= 10,000"),
        ("audition.search:model=audition-2p,top=99", "option top must be <= 27"),
        ("audition.search:model=audition-2p,depth=10000", "option depth must be <= 1,000"),
    ],
)
def test_agent_spec_options_are_bounded(spec, message):
    with pytest.raises(ValueError, match=message):
        make_agent(spec, get_game("audition"))


def test_eval_refuses_huge_sims_in_one_line(tmp_path, capsys):
    argv = ["eval", "--agents", "audition.expert:sims=10000000", "random", "--games", "2"]
    result = run_main([*argv, "--no-progress", "--out", str(tmp_path / "out")], capsys)
    assert_clean_failure(result, "option sims must be <= 10,000")


# -- --games, --workers, seats x agents --------------------------------------------------------

EVAL = ["eval", "--agents", "random", "audition.greedy", "--no-progress"]
LEAGUE = ["league", "--agents", "random", "audition.greedy", "--no-progress"]


@pytest.mark.parametrize("base", [EVAL, LEAGUE], ids=["eval", "league"])
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--games", "1e12"], "--games: expected an int in 1..1,000,000, got '1e12'"),
        (["--games", "1000000000000"], "--games: must be <= 1,000,000"),
        (["--workers", "100000"], "--workers: must be <= 256"),
    ],
)
def test_games_and_workers_are_bounded_on_the_command_line(base, argv, message, tmp_path, capsys):
    result = run_main([*base, *argv, "--out", str(tmp_path / "out")], capsys)
    assert_clean_failure(result, message)
    assert not (tmp_path / "out").exists()


def test_eval_refuses_more_seat_arrangements_than_the_cap(tmp_path, capsys):
    agents = ["random", "audition.greedy", *[f"audition.expert:sims={n}" for n in range(1, 11)]]
    argv = ["eval", "--players", "6", "--agents", *agents, "--games", "1", "--no-progress"]
    t0 = time.perf_counter()
    result = run_main([*argv, "--out", str(tmp_path / "out")], capsys)
    assert_clean_failure(result, "12 agents at 6 seats make 5,544 seat arrangements")
    assert time.perf_counter() - t0 < 10  # refused, not played


def test_league_refuses_more_tables_than_the_cap(tmp_path, capsys):
    agents = ["random", "audition.greedy", *[f"audition.expert:sims={n}" for n in range(1, 12)]]
    argv = ["league", "--players", "6", "--agents", *agents, "--games", "1", "--no-progress"]
    result = run_main([*argv, "--out", str(tmp_path / "out")], capsys)
    assert_clean_failure(result, "13 agents at 6 seats make 2,340 seat arrangements")


def test_play_games_refuses_games_and_workers_past_their_bounds():
    with pytest.raises(ValueError, match="--games: must be an int in 1..1,000,000"):
        T.play_games(get_game("audition"), 2, ["random"], L.MAX_GAMES + 1, progress=False)
    with pytest.raises(ValueError, match="--workers: must be an int in 1..256"):
        T.play_games(get_game("audition"), 2, ["random"], 2, workers=10**6, progress=False)


# -- lazy jobs ---------------------------------------------------------------------------------


def test_jobs_are_made_lazily_and_equal_the_old_list():
    table = T.arrangements(3, 2)
    jobs = T.Jobs(4, table)
    old = [(d, kinds) for d in range(4) for kinds in table]
    assert len(jobs) == len(old) and list(jobs) == old
    assert jobs[5] == old[5] and jobs[-1] == old[-1] and jobs[2:9] == old[2:9]
    with pytest.raises(IndexError):
        jobs[len(old)]
    huge = T.Jobs(10**12, table)  # a list of these would not fit in memory
    assert len(huge) == 6 * 10**12 and huge[-1] == (10**12 - 1, table[-1])


class _Stop(Exception):
    pass


class _Spy:
    """A stepper that records the jobs it is handed and plays them per game (``stop_after``:
    plays none, stops the driver at that call)."""

    def __init__(self, batch: int, stop_after: int | None = None) -> None:
        self.batch, self.stop_after, self.seen = batch, stop_after, []

    def play(self, jobs):
        self.seen.append(jobs)
        if self.stop_after is None:
            return T._WORKER["stepper"].play(jobs)
        if len(self.seen) >= self.stop_after:
            raise _Stop  # (stops the driver: the test only looks at the first slices)
        return [None] * len(jobs)


def test_the_driver_hands_a_stepper_the_lazy_jobs_a_batch_at_a_time(monkeypatch):
    spy = _Spy(batch=3)
    monkeypatch.setattr(T, "choose_stepper", lambda *a, **k: spy)
    played = T.play_games(get_game("audition"), 2, ["random", "audition.greedy"], 8, progress=False)
    assert [len(jobs) for jobs in spy.seen] == [3, 3, 2] and played.workers == 1
    assert [job for jobs in spy.seen for job in jobs] == list(T.Jobs(4, T.arrangements(2, 2)))
    huge = _Spy(batch=5, stop_after=2)  # slices of a lazy Jobs: a list of all would not fit
    jobs = T.Jobs(10**12, T.arrangements(3, 2))
    with pytest.raises(_Stop):
        T.play_jobs(huge, jobs)
    assert huge.seen == [jobs[0:5], jobs[5:10]]
    monkeypatch.undo()
    monkeypatch.setenv(T.NO_BATCH_ENV, "1")
    specs = ["random", "audition.greedy"]
    assert T.play_games(get_game("audition"), 2, specs, 8, progress=False).records == played.records


def test_the_pool_fed_in_windows_plays_the_same_games(monkeypatch):
    monkeypatch.setenv(T.NO_BATCH_ENV, "1")
    specs = ["random", "audition.greedy"]
    one = T.play_games(get_game("audition"), 2, specs, 10, seed=3, workers=1, progress=False)
    monkeypatch.setattr(T, "POOL_WINDOW", 3)  # 10 games in 4 windows
    two = T.play_games(get_game("audition"), 2, specs, 10, seed=3, workers=2, progress=False)
    assert two.workers == 2 and two.records == one.records
