"""AEC throughput: random legal play through the public wrapped ``env()``, ours beside peers.

Every figure is measured in the same process run, as a median over ``repeats`` timed blocks of
``steps`` agent steps each; games are reset as they end. A "step" is one ``env.step`` call of an
acting agent together with the ``env.last()`` that precedes it and a masked uniform random
choice (steps of already-terminated agents are not counted, but their time is).

Run: ``python -m benchmarks.aec_throughput [--steps N] [--repeats R] [--json PATH]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def aec_steps_per_second(make_env: Callable[[], Any], steps: int, seed: int = 0) -> float:
    """Acting-agent steps per second of masked random play over ``steps`` steps."""
    env = make_env()
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    done = 0
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
            env.reset()
    return done / (time.perf_counter() - t0)


def median_rate(make_env: Callable[[], Any], steps: int, repeats: int) -> float:
    return statistics.median(aec_steps_per_second(make_env, steps, seed=r) for r in range(repeats))


def peers() -> dict[str, Callable[[], Any]]:
    out: dict[str, Callable[[], Any]] = {}
    try:
        from pettingzoo.classic import connect_four_v3, tictactoe_v3

        out["tictactoe_v3"] = tictactoe_v3.env
        out["connect_four_v3"] = connect_four_v3.env
    except ImportError as exc:  # pygame missing: install the `bench` extra
        print(f"PettingZoo classic peers unavailable: {exc}")
    return out


def ours() -> dict[str, Callable[[], Any]]:
    from envs import audition_v0

    return {
        "audition_v0 2p": lambda: audition_v0.env(num_players=2),
        "audition_v0 2p variants": lambda: audition_v0.env(
            num_players=2, action_cards=2, uncertain_counts=True
        ),
        "audition_v0 4p": lambda: audition_v0.env(num_players=4),
        "audition_v0 6p": lambda: audition_v0.env(num_players=6),
        "audition_v0 6p variants": lambda: audition_v0.env(
            num_players=6, action_cards=6, uncertain_counts=True
        ),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=20000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    results: dict[str, float] = {}
    envs = {**peers(), **ours()}
    # Interleave repeats so that machine noise hits every env alike.
    samples: dict[str, list[float]] = {k: [] for k in envs}
    for r in range(args.repeats):
        for name, make in envs.items():
            samples[name].append(aec_steps_per_second(make, args.steps, seed=r))
    results = {k: statistics.median(v) for k, v in samples.items()}
    ref = results.get("tictactoe_v3")
    print(f"{'env':<28}{'steps/s':>12}{'vs tictactoe_v3':>18}")
    for name, rate in results.items():
        ratio = f"{rate / ref:.2f}x" if ref else "-"
        print(f"{name:<28}{rate:>12,.0f}{ratio:>18}")
    if args.json:
        figures = [
            {
                "name": f"AEC steps/s {name}",
                "value": rate,
                "unit": "steps/s",
                "peer": "tictactoe_v3" if ref else None,
                "peer_value": ref,
                "ratio": rate / ref if ref else None,
                "steps": args.steps,
                "repeats": args.repeats,
            }
            for name, rate in results.items()
        ]
        with open(args.json, "w") as f:
            json.dump({"figures": figures}, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
