"""The Awkward Guests case pool: reproducible from its seed, no case repeated, prefetched."""

from __future__ import annotations

import json

import pytest

from parlour.envs.awkward_guests.env import raw_env
from parlour.games.guests.case_pool import CasePool, case_stream


def _keys(cases):
    return [json.dumps(c.to_json(), sort_keys=True) for c in cases]


def test_pool_is_reproducible_unique_and_the_same_in_the_background():
    a = CasePool("easy", seed=3, background=False)
    first = [a.next() for _ in range(12)]
    b = CasePool("easy", seed=3, prefetch=4)  # a background thread, the same order
    try:
        second = [b.next() for _ in range(12)]
    finally:
        b.close()
    assert _keys(first) == _keys(second) and a.served == b.served
    assert len(set(_keys(first))) == 12 and len(set(a.served)) == 12
    other = CasePool("easy", seed=4, background=False)
    assert _keys([other.next() for _ in range(3)]) != _keys(first[:3])


def test_pool_cases_play_in_the_env():
    pool = CasePool("easy", seed=0, background=False)
    env = raw_env(num_players=2)
    for k in range(3):
        case = pool.next()
        env.reset(seed=k, options={"case": case})
        assert env.game.case is case or env.game.case == case


def test_stream_skips_repeated_contents(monkeypatch):
    import parlour.envs.awkward_guests.case.generator as gen

    real = gen.generate_case
    monkeypatch.setattr(gen, "generate_case", lambda level, s, d: real(level, s % 2, d))
    stream = case_stream("easy", 70, 0)
    got = [next(stream) for _ in range(2)]  # only two distinct contents exist now
    assert {s % 2 for s, _ in got} == {0, 1}


def test_bad_settings_raise():
    with pytest.raises(ValueError, match="level"):
        CasePool("impossible", background=False)
    with pytest.raises(ValueError, match="prefetch"):
        CasePool("easy", prefetch=0, background=False)


def test_training_envs_prefetch_cases_also_in_subprocess_workers():
    import numpy as np

    from parlour.train.config import config_from_dict
    from parlour.train.train import make_vec_env

    cfg = config_from_dict(
        {"name": "t", "game": "guests", "players": 2, "n_envs": 2, "vec_env": "subproc"}
    )
    venv = make_vec_env(cfg)  # SubprocVecEnv: daemonic workers, each with its pool thread
    try:
        venv.seed(0)
        venv.reset()
        rng = np.random.default_rng(0)
        for _ in range(30):
            masks = np.stack(venv.env_method("action_masks"))
            venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        prepared = venv.env_method("_reset_source")  # each worker's next prefetched case
        assert all(set(p) == {"case"} for p in prepared)
        assert prepared[0]["case"].to_json() != prepared[1]["case"].to_json()
    finally:
        venv.close()


def test_pool_in_a_child_process_gives_the_same_cases():
    inline = CasePool("easy", seed=5, background=False)
    first = [inline.next() for _ in range(6)]
    child = CasePool("easy", seed=5, prefetch=3, process=True)
    try:
        second = [child.next() for _ in range(6)]
    finally:
        child.close()
    assert _keys(first) == _keys(second) and inline.served == child.served
    with pytest.raises(RuntimeError, match="stopped"):
        child.next()  # closed: no more cases, and no hang


def test_the_child_process_leaves_ctrl_c_to_the_trainer():
    import os
    import signal
    import time

    pool = CasePool("easy", seed=2, prefetch=2, process=True)
    try:
        pool.next()  # (the child is up and generating)
        os.kill(pool._thread.pid, signal.SIGINT)
        time.sleep(0.5)
        assert pool._thread.is_alive()
        assert len({c.seed for c in (pool.next(), pool.next())}) == 2
    finally:
        pool.close()


def test_the_child_process_stops_when_the_trainer_is_killed():
    """A killed trainer cannot close its pool: the child notices its parent is gone."""
    import contextlib
    import os
    import select
    import signal
    import subprocess
    import sys
    import time

    script = (
        "import time\n"
        "from parlour.games.guests.case_pool import CasePool\n"
        "pool = CasePool('easy', seed=1, prefetch=2, process=True)\n"
        "pool.next()\n"
        "print(pool._thread.pid, flush=True)\n"
        "time.sleep(600)\n"
    )
    trainer = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    child = None
    try:
        ready, _, _ = select.select([trainer.stdout], [], [], 60)  # (never hang the suite)
        assert ready, "the trainer script did not start its pool"
        child = int(trainer.stdout.readline())
        trainer.send_signal(signal.SIGKILL)
        trainer.wait()

        def running(pid: int) -> bool:  # (a zombie has exited: only its parent did not reap it)
            try:
                with open(f"/proc/{pid}/stat") as f:
                    return f.read().rsplit(")", 1)[1].split()[0] != "Z"
            except FileNotFoundError:
                return False

        deadline = time.monotonic() + 20
        while running(child) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not running(child)
    finally:
        trainer.kill()
        trainer.wait()
        if child is not None:  # (a child left running by a failure is not left behind)
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signal.SIGKILL)


def test_a_mix_of_levels_cycles_and_each_case_plays_at_its_own_level():
    pool = CasePool(["beginner", "hard", "expert"], seed=2, background=False)
    cases = [pool.next() for _ in range(6)]
    assert [c.level for c in cases] == ["beginner", "hard", "expert"] * 2
    env = raw_env(num_players=1, level="hard")
    env.reset(seed=0, options={"case": cases[0]})
    assert env.game.case.level == "beginner"
    assert env.player_view(env.agent_selection).level == "beginner"  # (what the player is shown)
    with pytest.raises(ValueError, match="level"):
        CasePool(["easy", "impossible"], background=False)
    with pytest.raises(ValueError, match="case_levels"):
        CasePool([], background=False)


def test_case_levels_reach_the_case_pool_not_the_env():
    from parlour.games import get_game
    from parlour.games.guests.case_pool import guests_reset_source

    game = get_game("guests")
    options = {"level": "hard", "case_levels": "beginner, expert", "solution_shaping": 0.5}
    env_options, wrapper = game.split_options(options)
    assert env_options == {"level": "hard"} and wrapper == {"solution_shaping": 0.5}
    assert game.evaluation_options(options) == {"level": "hard"}
    source = game.source_options(options)
    assert source == {"level": "hard", "case_levels": "beginner, expert"}
    pool = guests_reset_source(source, 0)
    try:
        assert [pool.next().level for _ in range(4)] == ["beginner", "expert"] * 2
    finally:
        pool.close()
