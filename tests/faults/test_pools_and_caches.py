"""Fault cases 2 (a hang: pool workers that cannot start) and 5 (a leak: the model cache)."""

from __future__ import annotations

import gc
import shutil
import signal
import weakref

import pytest

from parlour.agents import ppo
from parlour.eval import tournament
from parlour.games import get_game

from .helpers import assert_clean_failure, files, run_main

#: seconds after which the pool test fails instead of hanging (it takes ~10 s)
HANG_LIMIT_S = 180


def test_a_worker_that_cannot_start_fails_fast_with_its_error(
    tmp_path, capsys, monkeypatch, tiny_model
):
    model = tmp_path / "model.safetensors"
    shutil.copy(tiny_model, model)
    real_progress = tournament._progress

    def vanish_then_progress(*args, **kwargs):  # after the parent's check, before the pool
        model.unlink()
        return real_progress(*args, **kwargs)

    monkeypatch.setattr(tournament, "_progress", vanish_then_progress)
    # the worker pool is the per-game path (Audition would otherwise play batched, in one process)
    monkeypatch.setenv("PARLOUR_NO_BATCHED_EVAL", "1")

    def hang(*_):
        raise TimeoutError("the evaluation pool hung")

    old = signal.signal(signal.SIGALRM, hang)
    signal.alarm(HANG_LIMIT_S)
    try:
        before = files(tmp_path)
        argv = ["eval", "--agents", f"ppo:{model}", "random", "--games", "4", "--workers", "2"]
        argv += ["--out", str(tmp_path / "out"), "--no-progress"]
        result = run_main(argv, capsys)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    before.pop("model.safetensors")  # (removed by the test itself)
    assert_clean_failure(result, "an evaluation worker could not start", before, files(tmp_path))
    assert "no model file" in result[2]


def test_the_model_cache_stays_bounded_over_a_long_snapshot_sequence(tmp_path, tiny_model):
    ppo._CACHE.clear()
    refs = []
    for i in range(3 * ppo.MAX_CACHED_MODELS):
        path = tmp_path / f"snapshot_{i}.safetensors"
        shutil.copy(tiny_model, path)
        refs.append(weakref.ref(ppo.load_policy(str(path))))
        assert len(ppo._CACHE) <= ppo.MAX_CACHED_MODELS
    gc.collect()
    alive = sum(r() is not None for r in refs)
    assert alive <= ppo.MAX_CACHED_MODELS  # the evicted networks are freed
    assert refs[-1]() is not None  # the most recent are kept


def test_the_opponent_pool_keeps_only_its_snapshots(tmp_path, tiny_model):
    from parlour.train.opponents import OpponentPool

    ppo._CACHE.clear()
    pool = OpponentPool(get_game("audition"), {"random": 1.0}, snapshot_weight=1.0, max_snapshots=3)
    refs = []
    for i in range(20):
        path = tmp_path / f"snapshot_{i}.safetensors"
        shutil.copy(tiny_model, path)
        pool.add_snapshot(str(path))
        refs.append(weakref.ref(pool.agent(pool.snapshots[-1], "player_1").policy))
    gc.collect()
    assert len(pool.snapshots) == 3
    assert sum(r() is not None for r in refs) <= ppo.MAX_CACHED_MODELS


@pytest.mark.parametrize("workers", ["-3", "0"])
def test_eval_workers_must_be_positive(tmp_path, capsys, workers):
    argv = ["eval", "--agents", "random", "--games", "2", "--workers", workers]
    result = run_main(argv, capsys)
    assert_clean_failure(result, "--workers")
