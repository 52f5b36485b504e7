"""Case banks against generated cases and ``hanabi_v5``, one run (issue 33, item 5).

``parlour bench --sections banks [--quick] [--steps N] [--repeats R]``. Every rate is the median
of ``R`` timed blocks, the configurations run in turn in each repeat (so machine noise hits ours
and the peer alike); every figure records its steps, games and repeats.

| figures (names start ``banks:``) | what | unit | peer, ratio |
|---|---|---|---|
| ``AEC hanabi_v5`` | the peer: PettingZoo's ``hanabi_v5``, masked random play with its resets; timed once per player count in every repeat, the median of all those blocks | steps/s | — |
| ``AEC awkward_guests_v1 {n}p {level}, bank`` | ``awkward_guests_v1.env(num_players=n, case_bank=level)`` (the shipped bank, split ``train``): :func:`~parlour.benchmarks.aec_throughput.aec_rates`' loop, resets counted, at 1–8 players × every level | steps/s | ``hanabi_v5`` |
| ``AEC awkward_guests_v1 {n}p {level}, generated`` | the same with ``level=level`` (a case generated at every reset, the default) | steps/s | ``hanabi_v5`` |
| ``solo {level}, bank`` / ``, generated`` | ``gymnasium.make("parlour/AwkwardGuestsSolo-v1", ...)`` the same two ways: a masked random action from ``info["action_mask"]`` per step, ``reset()`` at the end of each episode (counted) | steps/s | ``hanabi_v5`` (the AEC figure above) |
| ``build {level}, {count} cases, 1 worker`` / ``2 workers`` | :func:`~parlour.envs.awkward_guests.case.bank_build.build_bank` into a temporary folder (the build seed is the repeat: both worker counts build the same bank); its ``cases_per_second`` (generation, proof, metadata, the serial dictionary cases, the pool's start and the write) | cases/s | 2 workers: the 1-worker figure (the speed-up) |
| ``open a proven {level} bank, median`` / ``p95`` | ``open_bank`` of fresh copies of the shipped bank (checks, checksum, memory maps; its content already proven, as in every process after the first open on a machine) | ms | — |
| ``prove the {level} bank (its first open on a machine)`` | ``proof_failures`` over the whole bank (every case checked sound and unique): what the first open of a new bank content costs, once per machine | s | — |
| ``reset() 4p medium, bank`` / ``generated``, median / p95 | ``env.reset()`` (unseeded, after a seeded first one) of the wrapped AEC env, the two envs alternating | ms | — |

Targets (issue 33; docs/performance.md#case-banks): with a bank, ``awkward_guests_v1`` with
resets counted **≥ 2× ``hanabi_v5`` at every player count and level**, and the solo env ≥ 2×;
bank builds **≥ 1.8× the cases/s at 2 workers vs 1** on an idle 2-core machine. The section
prints which configurations miss them (:func:`target_lines`).

Block lengths. A game's length grows with the player count (:data:`GAME_STEPS`: ~23 acting
steps at 1 player, ~214 at 8), and a block shorter than a few games under-counts the resets
(the first reset of a block is never timed). So a block is a number of *games*: ``N/500`` for
the bank figures (``N`` = ``--steps``: 40 games by default, 6 with ``--quick``) and ``N/1000``
for the generated ones (20 / 3: they run at 1.4–7k steps/s, 1–2 ms of steps against 10–30 ms
of generation per 1–2 player game), each ``games × GAME_STEPS[n]`` steps long; the solo env
plays the 1-player lengths; each ``hanabi_v5`` block is a bank block at 1 player. The build
count is :data:`BUILD_CASES` (400 / 200 with ``--quick``): a build has a serial part (the
:data:`~parlour.envs.awkward_guests.case.bank_build.ZDICT_CASES` dictionary cases, ~0.1 s; the
fork pool starts in ~15 ms), which caps the 2-worker speed-up at 400/204 ≈ 1.96× (200/104 ≈
1.92× at 200 cases) on an idle machine. The build figures also give the CPU time per case and
the cores the build ran on (``cores``): on a busy machine the speed-up measures the free cores.

Wall time: 504 s at the defaults (5 repeats) and 79 s with ``--quick`` (3 repeats) on a 2-core
machine shared with other work (313 s and 45 s of CPU: ~5–6 min and under 1 min when idle).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import shutil
import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from parlour.benchmarks.aec_throughput import aec_rates, peers
from parlour.benchmarks.figures import figure, interleaved_samples, median_of

#: the peer of every rate of this section
PEER = "hanabi_v5"
#: every figure's name starts with this (the ``aec`` section names some of the same envs)
PREFIX = "banks: "
#: player counts measured (every one the game has)
PLAYERS = tuple(range(1, 9))
#: the two ways an env gets its cases
SOURCES = ("bank", "generated")
#: mean acting-agent steps of a masked random game per player count (30 games each of the easy,
#: medium and expert shipped banks, seed 0); blocks are whole numbers of these
GAME_STEPS = {1: 23, 2: 32, 3: 45, 4: 66, 5: 92, 6: 124, 7: 167, 8: 214}
#: ``--steps`` per game of a bank block (20,000 -> 40 games; --quick 3,000 -> 6)
BANK_STEPS_PER_GAME = 500
#: ``--steps`` per game of a generated block (20,000 -> 20 games; --quick 3,000 -> 3)
GENERATED_STEPS_PER_GAME = 1000
#: the split the bank figures deal from
SPLIT = "train"
#: the level of the build, open and reset figures
LEVEL = "medium"
#: cases per timed build, (default, --quick): enough that the serial start is small (docstring)
BUILD_CASES = (400, 200)
#: worker counts of the build figures (the target compares 2 with 1)
BUILD_WORKERS = (1, 2)
#: fresh copies of the bank opened, (default, --quick)
OPEN_COPIES = (30, 10)
#: resets timed per env, (default, --quick)
RESETS = (100, 20)
#: the reset figures' player count (as the ``guests`` section's)
RESET_PLAYERS = 4
#: the targets (issue 33): bank rates over the peer's, and the build speed-up
RATE_TARGET = 2.0
BUILD_TARGET = 1.8
SOLO_ID = "parlour/AwkwardGuestsSolo-v1"


@dataclass(frozen=True)
class Settings:
    """How much the section measures (:meth:`of` maps the run's options to it)."""

    bank_games: int
    generated_games: int
    repeats: int
    build_cases: int
    open_copies: int
    resets: int

    @classmethod
    def of(cls, steps: int, repeats: int, quick: bool) -> Settings:
        i = 1 if quick else 0
        return cls(
            bank_games=max(1, steps // BANK_STEPS_PER_GAME),
            generated_games=max(1, steps // GENERATED_STEPS_PER_GAME),
            repeats=repeats,
            build_cases=BUILD_CASES[i],
            open_copies=OPEN_COPIES[i],
            resets=RESETS[i],
        )

    def steps(self, source: str, players: int) -> int:
        """The timed steps of one block."""
        games = self.bank_games if source == "bank" else self.generated_games
        return games * GAME_STEPS[players]


def _levels() -> tuple[str, ...]:
    from parlour.envs.awkward_guests import LEVELS

    return tuple(LEVELS)


def _aec_maker(players: int, level: str, source: str) -> Callable[[], Any]:
    from parlour.envs import awkward_guests_v1

    cases = {"case_bank": level, "case_split": SPLIT} if source == "bank" else {"level": level}
    return lambda: awkward_guests_v1.env(num_players=players, **cases)


def _solo_maker(level: str, source: str) -> Callable[[], Any]:
    import gymnasium

    cases = {"case_bank": level, "case_split": SPLIT} if source == "bank" else {"level": level}
    return lambda: gymnasium.make(SOLO_ID, **cases)


def solo_steps_per_second(make_env: Callable[[], Any], steps: int, seed: int = 0) -> float:
    """Steps/s of masked random play over ``steps`` steps of a Gymnasium env, its resets counted
    (the first reset is never timed), the loop of :func:`aec_rates` for one agent."""
    env = make_env()
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    done = 0
    t0 = time.perf_counter()
    while done < steps:
        _, _, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
        done += 1
        if terminated or truncated:
            _, info = env.reset()
    rate = done / (time.perf_counter() - t0)
    env.close()
    return rate


def _name(kind: str, players: int | None, level: str, source: str) -> str:
    if kind == "solo":
        return f"{PREFIX}solo {level}, {source}"
    return f"{PREFIX}AEC awkward_guests_v1 {players}p {level}, {source}"


def rate_figures(s: Settings) -> list[dict]:
    """The AEC and solo rates, bank and generated, beside ``hanabi_v5`` (one interleaved run)."""
    levels = _levels()
    peer = peers((PEER,)).get(PEER)
    peer_steps = s.steps("bank", 1)
    cases: dict[str, Callable[[int], Any]] = {}
    meta: dict[str, dict[str, Any]] = {}
    for n in PLAYERS:  # the peer once per player count: its median spans the whole round
        if peer is not None:
            cases[f"{PEER} #{n}"] = lambda r: aec_rates(peer, peer_steps, seed=r)[0]
        for level in levels:
            for source in SOURCES:
                name, steps = _name("aec", n, level, source), s.steps(source, n)
                make = _aec_maker(n, level, source)
                cases[name] = lambda r, make=make, steps=steps: aec_rates(make, steps, seed=r)[0]
                meta[name] = dict(env="aec", players=n, level=level, source=source, steps=steps)
    for level in levels:
        for source in SOURCES:
            name, steps = _name("solo", None, level, source), s.steps(source, 1)
            make = _solo_maker(level, source)
            cases[name] = lambda r, make=make, steps=steps: solo_steps_per_second(make, steps, r)
            meta[name] = dict(env="solo", players=1, level=level, source=source, steps=steps)
    samples = interleaved_samples(cases, s.repeats)
    pooled = [x for k, v in samples.items() if k.startswith(f"{PEER} #") for x in v]
    peer_rate = statistics.median(pooled) if pooled else None
    figs = []
    if peer_rate is not None:
        figs.append(
            figure(
                f"{PREFIX}AEC {PEER}",
                peer_rate,
                "steps/s",
                steps=peer_steps,
                repeats=s.repeats,
                blocks=len(pooled),
            )
        )
    for name, m in meta.items():
        games = m["steps"] // GAME_STEPS[m["players"]]
        figs.append(
            figure(
                name,
                median_of(samples[name]),
                "steps/s",
                PEER,
                peer_rate,
                repeats=s.repeats,
                games=games,
                **m,
            )
        )
    return figs


@contextlib.contextmanager
def _cache_dir(folder: str) -> Iterator[None]:
    """The verified-banks record in ``folder`` meanwhile (the builds record their banks: not
    in the user's record)."""
    from parlour.envs.awkward_guests.case.bank import CACHE_ENV

    old = os.environ.get(CACHE_ENV)
    os.environ[CACHE_ENV] = folder
    try:
        yield
    finally:
        if old is None:
            os.environ.pop(CACHE_ENV, None)
        else:
            os.environ[CACHE_ENV] = old


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished (waited-for) children: the build's
    workers, once their pool has shut down."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def build_figures(s: Settings) -> list[dict]:
    """``build_bank`` cases/s at 1 and 2 workers (interleaved; the build seed is the repeat),
    with the CPU time per case and the cores the build ran on (cases/s × CPU s per case: on a
    busy machine the workers get less than a core each, and the speed-up says so)."""
    from parlour.envs.awkward_guests.case.bank_build import build_bank

    # as bank_build starts its pool: fork (~15 ms) in a process with one thread, else forkserver
    forks = "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1
    start = "fork" if forks else "forkserver"
    with tempfile.TemporaryDirectory() as folder, _cache_dir(folder):

        def build(workers: int) -> Callable[[int], tuple[float, float]]:
            def run(r: int) -> tuple[float, float]:
                out = os.path.join(folder, f"{workers}.agbank")
                cpu = _cpu_seconds()
                report = build_bank(out, LEVEL, s.build_cases, seed=r, workers=workers)
                cpu = _cpu_seconds() - cpu
                os.unlink(out)
                return report.cases_per_second, cpu * 1e3 / s.build_cases

            return run

        samples = interleaved_samples({w: build(w) for w in BUILD_WORKERS}, s.repeats)
    measured = {w: median_of(v) for w, v in samples.items()}
    base = measured[BUILD_WORKERS[0]][0]
    figs = []
    for w in BUILD_WORKERS:
        rate, cpu_ms = measured[w]
        word = "worker" if w == 1 else "workers"
        peer = (f"build, {BUILD_WORKERS[0]} worker", base) if w != BUILD_WORKERS[0] else ()
        figs.append(
            figure(
                f"{PREFIX}build {LEVEL}, {s.build_cases} cases, {w} {word}",
                rate,
                "cases/s",
                *peer,
                cases=s.build_cases,
                workers=w,
                repeats=s.repeats,
                cpu_ms_per_case=cpu_ms,
                cores=rate * cpu_ms / 1e3,
                start_method=start if w > 1 else None,
            )
        )
    return figs


def _p95(xs: list[float]) -> float:
    return float(np.percentile(xs, 95))


def open_figures(s: Settings) -> list[dict]:
    """Opening fresh copies of the shipped bank (content already proven), and its proof."""
    from parlour.envs.awkward_guests.case.bank import open_bank, proof_failures

    shipped = open_bank(LEVEL)  # proven here (or found in the record) before timing
    times = []
    with tempfile.TemporaryDirectory() as folder:
        for i in range(s.open_copies):  # a copy is a new file: no cached opening
            copy = os.path.join(folder, f"{i}.agbank")
            shutil.copyfile(shipped.path, copy)
            t0 = time.perf_counter()
            open_bank(copy)
            times.append((time.perf_counter() - t0) * 1e3)
    proofs = []
    for _ in range(s.repeats):
        t0 = time.perf_counter()
        failures = proof_failures(shipped)
        proofs.append(time.perf_counter() - t0)
        if failures:  # the shipped banks are proven by the tests: a broken install
            raise RuntimeError(f"the shipped {LEVEL} bank fails its proof: {failures[0]}")
    n = s.open_copies
    return [
        figure(
            f"{PREFIX}open a proven {LEVEL} bank, median", statistics.median(times), "ms", opens=n
        ),
        figure(f"{PREFIX}open a proven {LEVEL} bank, p95", _p95(times), "ms", opens=n),
        figure(
            f"{PREFIX}prove the {LEVEL} bank (its first open on a machine)",
            statistics.median(proofs),
            "s",
            cases=len(shipped),
            repeats=s.repeats,
        ),
    ]


def reset_figures(s: Settings) -> list[dict]:
    """``reset()`` times of the 4p medium AEC env from the bank and generated, alternating."""
    envs = {src: _aec_maker(RESET_PLAYERS, LEVEL, src)() for src in SOURCES}
    times: dict[str, list[float]] = {src: [] for src in SOURCES}
    for env in envs.values():
        env.reset(seed=0)
    for _ in range(s.resets):
        for src, env in envs.items():
            t0 = time.perf_counter()
            env.reset()
            times[src].append((time.perf_counter() - t0) * 1e3)
    figs = []
    for src, env in envs.items():
        env.close()
        label = f"{PREFIX}reset() {RESET_PLAYERS}p {LEVEL}, {src}"
        figs.append(
            figure(f"{label}, median", statistics.median(times[src]), "ms", resets=s.resets)
        )
        figs.append(figure(f"{label}, p95", _p95(times[src]), "ms", resets=s.resets))
    return figs


def target_lines(figs: list[dict]) -> list[str]:
    """One line per target (issue 33): met or not, and the configurations below it."""
    lines = []
    for kind, label in (
        ("aec", "awkward_guests_v1 from a bank"),
        ("solo", "the solo env from a bank"),
    ):
        bank = [f for f in figs if f.get("source") == "bank" and f["env"] == kind]
        if not bank or bank[0]["ratio"] is None:
            lines.append(f"{label}: {PEER} not measured (install the bench extra)")
            continue
        low = [f for f in bank if f["ratio"] < RATE_TARGET]
        worst = min(bank, key=lambda f: f["ratio"])
        where = worst["name"].removeprefix(PREFIX)
        verdict = "met" if not low else f"MISSED at {len(low)}/{len(bank)}"
        lines.append(
            f"{label} >= {RATE_TARGET:g}x {PEER}: {verdict} (lowest {worst['ratio']:.2f}x, {where})"
        )
    for f in figs:
        if f["unit"] == "cases/s" and f["ratio"] is not None:
            verdict = "met" if f["ratio"] >= BUILD_TARGET else "MISSED"
            lines.append(
                f"build {f['workers']} vs 1 workers >= {BUILD_TARGET:g}x: {verdict} "
                f"({f['ratio']:.2f}x; it ran on {f['cores']:.1f} cores on average, "
                f"{f['cpu_ms_per_case']:.1f} ms CPU a case; the target is for an idle "
                f"{f['workers']}-core machine)"
            )
    return lines


def figures(s: Settings) -> list[dict]:
    """Every figure of the section (see the module docstring), its targets printed."""
    figs = rate_figures(s) + build_figures(s) + open_figures(s) + reset_figures(s)
    for line in target_lines(figs):
        print(f"target: {line}")
    return figs


def section_figures(steps: int, repeats: int, quick: bool) -> list[dict]:
    """The section as ``parlour bench`` runs it (``--steps``, ``--repeats``, ``--quick``)."""
    return figures(Settings.of(steps, repeats, quick))
