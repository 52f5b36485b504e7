"""AEC throughput: random legal play through the public wrapped ``env()``, ours beside peers.

Every figure is measured in the same process run, as a median over ``repeats`` timed blocks of
``steps`` agent steps each; games are reset as they end. A "step" is one ``env.step`` call of an
acting agent together with the ``env.last()`` that precedes it and a masked uniform random
choice (steps of already-terminated agents are not counted, but their time is).

:func:`aec_rates` also gives the rate with the ``env.reset()`` calls of the block left out of
the timed total (each reset is timed on its own and subtracted): the per-step speed of an env
whose reset is expensive (Awkward Guests generates a new case at every reset) in games of any
length. The loop and everything else timed are those of :func:`aec_steps_per_second`.

Run: ``python -m parlour.benchmarks.aec_throughput [--steps N] [--repeats R] [--json PATH]``.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def aec_steps_per_second(make_env: Callable[[], Any], steps: int, seed: int = 0) -> float:
    """Acting-agent steps per second of masked random play over ``steps`` steps."""
    return aec_rates(make_env, steps, seed)[0]


def aec_rates(make_env: Callable[[], Any], steps: int, seed: int = 0) -> tuple[float, float]:
    """``(steps/s, steps/s with the resets' time left out)`` of masked random play over
    ``steps`` acting-agent steps (the first reset is never timed)."""
    env = make_env()
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    prefetcher = getattr(getattr(env.unwrapped, "cases", None), "prefetcher", None)
    if prefetcher is not None:  # Awkward Guests' case workers: their start-up is not timed
        prefetcher.wait_ready()
    done = 0
    in_resets = 0.0
    t0 = time.perf_counter()
    while done < steps:
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
            done += 1
            if done >= steps:
                break
        else:
            r0 = time.perf_counter()
            env.reset()
            in_resets += time.perf_counter() - r0
    total = time.perf_counter() - t0
    env.close()
    return done / total, done / (total - in_resets)


#: PettingZoo's classic envs measured as peers
PEERS = ("tictactoe_v3", "connect_four_v3", "leduc_holdem_v4", "texas_holdem_v4", "hanabi_v5")


def peers(names: tuple[str, ...] = PEERS) -> dict[str, Callable[[], Any]]:
    """PettingZoo's peers ``names`` that can be built (the ``bench`` extra: pygame, rlcard,
    open_spiel); each one missing is reported on stdout and left out."""
    out: dict[str, Callable[[], Any]] = {}
    for name in names:
        try:  # (some import without their engine and fail in the constructor: build one)
            module = importlib.import_module(f"pettingzoo.classic.{name}")
            module.env().close()
        except Exception as exc:  # pygame / rlcard / hanabi missing: the bench extra
            print(f"peer {name} unavailable (install the bench extra): {exc}")
            continue
        out[name] = module.env
    return out


#: Awkward Guests player counts measured (every one the game has: issue 16's target is each)
GUESTS_PLAYERS = tuple(range(1, 9))
#: ... also measured with ``case_workers`` (the counts whose games are short: the resets dominate)
GUESTS_WORKER_PLAYERS = (1, 2, 3)
#: case workers of those figures (this machine has 2 cores: the env's process and 2 workers share
#: them)
GUESTS_CASE_WORKERS = 2


def ours() -> dict[str, Callable[[], Any]]:
    from parlour.envs import audition_v1

    out: dict[str, Callable[[], Any]] = {
        "audition_v1 2p": lambda: audition_v1.env(num_players=2),
        "audition_v1 2p variants": lambda: audition_v1.env(
            num_players=2, action_cards=2, uncertain_counts=True
        ),
        "audition_v1 4p variants": lambda: audition_v1.env(
            num_players=4, action_cards=4, uncertain_counts=True
        ),
        "audition_v1 6p": lambda: audition_v1.env(num_players=6),
        "audition_v1 6p variants": lambda: audition_v1.env(
            num_players=6, action_cards=6, uncertain_counts=True
        ),
    }
    try:
        from parlour.envs import awkward_guests_v1
    except ImportError:
        return out
    for n in GUESTS_PLAYERS:
        for level in ("easy", "expert"):
            out[f"awkward_guests_v1 {n}p {level}"] = lambda n=n, level=level: awkward_guests_v1.env(
                num_players=n, level=level
            )
    for n in GUESTS_WORKER_PLAYERS:  # where the resets dominate: cases generated on other cores
        for level in ("easy", "expert"):
            out[f"awkward_guests_v1 {n}p {level}, case_workers={GUESTS_CASE_WORKERS}"] = (
                lambda n=n, level=level: awkward_guests_v1.env(
                    num_players=n, level=level, case_workers=GUESTS_CASE_WORKERS
                )
            )
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=20000)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args(argv)
    envs = {**peers(), **ours()}
    samples: dict[str, list[float]] = {k: [] for k in envs}
    for r in range(args.repeats):  # interleaved, so machine noise hits every env alike
        for name, make in envs.items():
            samples[name].append(aec_steps_per_second(make, args.steps, seed=r))
    results = {k: statistics.median(v) for k, v in samples.items()}
    ref = results.get("tictactoe_v3")
    print(f"{'env':<28}{'steps/s':>12}{'vs tictactoe_v3':>18}")
    for name, rate in results.items():
        ratio = f"{rate / ref:.2f}x" if ref else "-"
        print(f"{name:<28}{rate:>12,.0f}{ratio:>18}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
