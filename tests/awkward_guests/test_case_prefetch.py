"""``case_workers``: the next cases generated in background processes are exactly the cases the
env would have generated itself (``parlour.envs.awkward_guests.case_prefetch``).

The env-level tests play the same actions in an env with and without workers and compare whole
trajectories (every observation, mask, reward and the case of every game), and check that the
workers really served the resets (``hits``), so a prefetch that silently never hits fails too.
"""

from __future__ import annotations

import copy
import multiprocessing
import os
import pickle
import queue
import signal
import time
import warnings

import numpy as np
import pytest

from parlour.envs import awkward_guests_v1
from parlour.envs.awkward_guests.case_prefetch import (
    MAX_CASE_WORKERS,
    CaseChain,
    CasePrefetcher,
    _work,
    draw_case_seed,
)
from parlour.envs.awkward_guests.solo import AwkwardGuestsSoloEnv

WAIT_S = 30.0  # at most, for a worker to start or stop


def play(env, games: int, seed: int, resets: list[dict] | None = None) -> list:
    """A record of ``games`` games of masked random play: the case, then per step the agent,
    its observation, mask and reward, the action; reset ``i`` (after game ``i``) takes the
    keyword arguments ``resets[i]`` (default: none, so the env's generator goes on)."""
    rng = np.random.default_rng(seed)
    record: list = []
    env.reset(seed=seed)
    for game in range(games):
        record.append(env.unwrapped.game.tables.case.to_json())
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
            record.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes()))
            record.append((reward, action))
            env.step(action)
        env.reset(**(resets[game] if resets and game < len(resets) else {}))
    return record


def workers_alive(prefetcher: CasePrefetcher) -> list[bool]:
    return [p.is_alive() for p in prefetcher._procs]


@pytest.mark.parametrize(("players", "level"), [(1, "easy"), (2, "expert"), (3, "medium")])
def test_workers_serve_exactly_the_cases_the_env_generates(players: int, level: str) -> None:
    games = 12
    plain = play(awkward_guests_v1.env(num_players=players, level=level), games, seed=5)
    env = awkward_guests_v1.env(num_players=players, level=level, case_workers=2)
    try:
        assert play(env, games, seed=5) == plain
        prefetcher = env.unwrapped.cases.prefetcher
        # the first reset has no chain yet; every later one is predicted (no reshuffles here)
        assert (prefetcher.hits, prefetcher.misses) == (games, 1)
    finally:
        env.close()


def test_resets_the_chain_cannot_predict_are_generated_in_the_env() -> None:
    """A new seed (its case generated in the env's process: a miss), a fixed case, deck or
    start seat (their deal leaves the generator elsewhere): the chain starts again from the
    deal, and the games stay the same."""
    base = awkward_guests_v1.raw_env(num_players=2, level="easy")
    base.reset(seed=99)
    case = base.game.tables.case
    deck = [c.id for c in case.cards]
    resets = [
        {},
        {"seed": 7},
        {},
        {"options": {"case": case}},
        {},
        {"options": {"deck": deck}},
        {},
        {"options": {"start": 1}},
        {},
        {"seed": 7},
    ]
    plain = play(awkward_guests_v1.env(num_players=2), 11, seed=3, resets=resets)
    env = awkward_guests_v1.env(num_players=2, case_workers=1)
    try:
        assert play(env, 11, seed=3, resets=resets) == plain
        prefetcher = env.unwrapped.cases.prefetcher
        # 12 resets. Misses: the first and the two new seeds. A fixed case draws no case seed
        # (neither). A fixed deck or start seat still draws the predicted case seed (a hit), but
        # its deal leaves the generator elsewhere: the chain starts again from there, so the
        # reset after it is a hit too.
        assert prefetcher.misses == 3
        assert prefetcher.hits == 12 - 3 - 1
    finally:
        env.close()


def test_the_chain_predicts_the_next_case_seed_and_generator() -> None:
    env = awkward_guests_v1.raw_env(num_players=3, level="easy")
    env.reset(seed=11)
    chain = CaseChain(env._np_random.bit_generator.state, 3, env.cases.deck_size)
    for _ in range(5):
        seed, state = chain.next()
        env.reset()
        assert env.game.tables.case.seed == seed
        assert env._np_random.bit_generator.state == state


def test_solo_env_with_workers_plays_the_same_episodes() -> None:
    def episodes(workers: int) -> list:
        env = AwkwardGuestsSoloEnv(level="easy", case_workers=workers)
        rng = np.random.default_rng(0)
        out: list = []
        obs, info = env.reset(seed=21)
        for _ in range(8):
            done = False
            out.append(env.game.tables.case.to_json())
            while not done:
                action = int(rng.choice(np.flatnonzero(info["action_mask"])))
                obs, reward, term, trunc, info = env.step(action)
                out.append((obs.tobytes(), reward, action))
                done = term or trunc
            obs, info = env.reset()
        hits = env.cases.prefetcher.hits if workers else None
        env.close()
        return [out, hits]

    plain, _ = episodes(0)
    with_workers, hits = episodes(1)
    assert with_workers == plain
    assert hits == 8


def test_close_stops_the_workers_and_a_later_reset_starts_new_ones() -> None:
    plain = play(awkward_guests_v1.env(num_players=1), 6, seed=2)
    env = awkward_guests_v1.env(num_players=1, case_workers=2)
    first = play(env, 3, seed=2)
    prefetcher = env.unwrapped.cases.prefetcher
    procs = list(prefetcher._procs)
    assert len(procs) == 2 and all(p.is_alive() for p in procs)
    env.close()
    assert not any(p.is_alive() for p in procs)
    assert prefetcher._procs == []
    assert play(env, 6, seed=2) == plain  # (the first 3 games again, and 3 more)
    assert first == plain[: len(first)]
    assert all(workers_alive(prefetcher)) and len(prefetcher._procs) == 2
    env.close()


@pytest.mark.parametrize("deck_size", [70, 200])
def test_a_dead_worker_warns_once_and_the_env_generates_its_cases_itself(deck_size: int) -> None:
    """Killed with its pipe full (a 200-card case is larger than the pipe's buffer: the kill
    lands mid-case), the worker's end of the pipe closes; the env warns once, goes on alone."""
    plain = play(awkward_guests_v1.env(num_players=1, deck_size=deck_size), 8, seed=4)
    env = awkward_guests_v1.env(num_players=1, deck_size=deck_size, case_workers=1)
    env.reset(seed=4)
    prefetcher = env.unwrapped.cases.prefetcher
    assert prefetcher.wait_ready()
    env.reset(seed=4)  # (the same game again: a miss; the chain starts again)
    env.reset()  # a hit: the worker may now run ahead and fill its pipe
    assert prefetcher.hits == 1
    time.sleep(1.0)
    os.kill(prefetcher._procs[0].pid, signal.SIGKILL)
    prefetcher._procs[0].join(WAIT_S)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        record = play(env, 8, seed=4)
    assert record == plain
    stopped = [w for w in caught if "case worker 0 stopped" in str(w.message)]
    assert len(stopped) == 1 and stopped[0].category is RuntimeWarning
    assert prefetcher._procs == [] and prefetcher._failed
    env.close()


def test_cases_of_an_earlier_chain_are_never_served() -> None:
    """Chains started one after another (new seeds, the worker given time to send each one's
    first case): the cases of the earlier ones are dropped, never served for a later chain's
    position."""

    def seeds(workers: int) -> list[int]:
        env = awkward_guests_v1.raw_env(num_players=2, case_workers=workers)
        out = []
        for reset_seed in (3, 7, 8, None, None, None):
            env.reset(seed=reset_seed)
            out.append(env.game.tables.case.seed)
            if workers and reset_seed is not None:
                time.sleep(0.5)  # the worker sends this chain's first case (left unread)
        hits = env.cases.prefetcher.hits if workers else None
        env.close()
        return out + [hits]

    plain, with_workers = seeds(0), seeds(1)
    assert with_workers[:-1] == plain[:-1]
    assert with_workers[-1] == 3


def test_copies_and_pickles_get_their_own_workers() -> None:
    env = awkward_guests_v1.raw_env(num_players=2, case_workers=1)
    env.reset(seed=8)
    env.reset()  # (a hit: the workers run)
    for make_copy in (copy.deepcopy, lambda e: pickle.loads(pickle.dumps(e))):
        twin = make_copy(env)
        assert twin.cases.prefetcher._procs == []  # none shared, none started yet
        twin_record, record = play_on(twin, 4), play_on(env, 4)
        assert twin_record == record
        assert twin.cases.prefetcher.hits >= 2 and len(twin.cases.prefetcher._procs) == 1
        twin.close()
    env.close()


def play_on(env, games: int) -> list:
    """``games`` more games of masked random play from where the raw ``env`` is (the same
    actions for any env in the same state)."""
    rng = np.random.default_rng(0)
    record: list = []
    for _ in range(games):
        record.append(env.game.tables.case.to_json())
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
            record.append((agent, obs["observation"].tobytes(), reward, action))
            env.step(action)
        env.reset()
    return record


def _reset_pickled_env(blob: bytes, out) -> None:  # runs in a daemonic child process
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = pickle.loads(blob)
        seeds = []
        for _ in range(3):
            env.reset()
            seeds.append(env.game.tables.case.seed)
    out.put((seeds, [str(w.message) for w in caught]))


def test_an_env_pickled_into_a_daemonic_process_generates_its_cases_itself() -> None:
    env = awkward_guests_v1.raw_env(num_players=2, case_workers=1)
    plain = awkward_guests_v1.raw_env(num_players=2)
    env.reset(seed=6)
    plain.reset(seed=6)
    expected = []
    for _ in range(3):
        plain.reset()
        expected.append(plain.game.tables.case.seed)
    ctx = multiprocessing.get_context("forkserver")
    out = ctx.Queue()
    proc = ctx.Process(target=_reset_pickled_env, args=(pickle.dumps(env), out), daemon=True)
    proc.start()
    seeds, messages = out.get(timeout=WAIT_S)
    proc.join(WAIT_S)
    env.close()
    assert seeds == expected
    assert sum("a daemonic process" in m for m in messages) == 1


@pytest.mark.parametrize("bad", [-1, MAX_CASE_WORKERS + 1, True, 1.0, "2", None])
def test_bad_case_workers_are_refused_naming_the_argument(bad: object) -> None:
    with pytest.raises(
        ValueError, match=rf"case_workers must be an int in 0\.\.{MAX_CASE_WORKERS}"
    ):
        awkward_guests_v1.env(case_workers=bad)
    with pytest.raises(ValueError, match="case_workers must be"):
        AwkwardGuestsSoloEnv(case_workers=bad)


def test_case_workers_need_generated_cases() -> None:
    with pytest.raises(ValueError, match="case_workers needs cases='generated'"):
        awkward_guests_v1.env(cases="classic", case_workers=1)
    awkward_guests_v1.env(cases="classic", case_workers=0).close()


def _build_in_daemon(out) -> None:  # runs in a daemonic child process
    try:
        awkward_guests_v1.raw_env(case_workers=1)
        out.put("built")
    except ValueError as e:
        out.put(str(e))


def test_case_workers_are_refused_in_a_daemonic_process() -> None:
    ctx = multiprocessing.get_context("forkserver")
    out = ctx.Queue()
    proc = ctx.Process(target=_build_in_daemon, args=(out,), daemon=True)
    proc.start()
    message = out.get(timeout=WAIT_S)
    proc.join(WAIT_S)
    assert "case_workers must be 0 in a daemonic process" in message


def test_no_case_seed_is_taken_for_another_seed() -> None:
    """The prefetcher serves a case only for the seed its chain predicted next."""
    prefetcher = CasePrefetcher("easy", 70, 2, 1)
    rng = np.random.default_rng(0)
    try:
        assert prefetcher.take(draw_case_seed(rng)) is None  # no chain yet
        prefetcher.dealt(rng)
        predicted = copy.deepcopy(rng)
        seed = draw_case_seed(predicted)
        assert prefetcher.take(seed + 1) is None  # not the predicted seed
        assert prefetcher.misses == 2 and prefetcher.hits == 0
        prefetcher.dealt(rng)  # (the chain starts again from the same state)
        case = prefetcher.take(seed)
        assert case is not None and case.seed == seed and prefetcher.hits == 1
    finally:
        prefetcher.close()


class _Outbox:
    """A stand-in for a worker's pipe: records what is sent; after ``stop_after`` items it
    queues the stop command."""

    def __init__(self, commands: queue.Queue, stop_after: int) -> None:
        self.sent: list = []
        self.commands, self.stop_after = commands, stop_after

    def send(self, item) -> None:
        self.sent.append(item)
        if len(self.sent) == self.stop_after:
            self.commands.put(None)

    def close(self) -> None:
        pass


def test_a_worker_applies_each_command_once_and_generates_its_positions_in_order() -> None:
    """Commands that arrive together (a chain and a raised limit) are applied once: the worker
    goes on through its positions instead of starting the chain again."""
    rng = np.random.default_rng(2)
    state = rng.bit_generator.state
    commands: queue.Queue = queue.Queue()
    commands.put(("chain", 1, state, 1))
    commands.put(("limit", 1, 6))
    out = _Outbox(commands, stop_after=3)
    _work(1, 2, "easy", 70, 2, commands, out)  # worker 1 of 2: positions 1, 3, 5
    chain = CaseChain(state, 2, 70)
    seeds = [chain.next()[0] for _ in range(6)]
    assert [(e, p, s) for e, p, s, _ in out.sent] == [(1, p, seeds[p]) for p in (1, 3, 5)]
    assert all(case.seed == seed for _, _, seed, case in out.sent)


def test_a_worker_that_cannot_start_warns_and_the_env_generates_its_cases_itself(
    monkeypatch,
) -> None:
    """The second worker's start fails (e.g. no more processes): the first is stopped, the env
    warns and plays on alone, the same games as without workers."""
    from multiprocessing.context import ForkServerProcess

    start = ForkServerProcess.start
    calls = []

    def second_fails(proc) -> None:
        calls.append(proc.name)
        if len(calls) == 2:
            raise OSError(11, "Resource temporarily unavailable")
        start(proc)

    monkeypatch.setattr(ForkServerProcess, "start", second_fails)
    plain = play(awkward_guests_v1.env(num_players=2), 4, seed=6)
    env = awkward_guests_v1.env(num_players=2, case_workers=2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        record = play(env, 4, seed=6)
    assert record == plain and len(calls) == 2
    failed = [w for w in caught if "could not be started" in str(w.message)]
    assert len(failed) == 1 and failed[0].category is RuntimeWarning
    prefetcher = env.unwrapped.cases.prefetcher
    assert prefetcher._failed and prefetcher._procs == prefetcher._commands == prefetcher._out == []
    env.close()
