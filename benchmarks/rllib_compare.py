"""RLlib beside SB3 on one machine: the figures of ``docs/rllib.md``.

```
python -m parlour.benchmarks.rllib_compare --out bench_results/rllib   # both backends + scaling
python -m parlour.benchmarks.rllib_compare --scaling-only
```

1. **Scaling**: env steps/s of ``backend: rllib`` on Audition 2p with 1 and 2 env runners
   (``--scaling-steps`` env steps each, periodic evaluation off), measured by the run's own
   ``train_steps_per_s`` (the time of ``algo.train()`` calls only).
2. **Comparison**: ``configs/audition_2p_rllib.yaml`` (RLlib) and its SB3 twin
   (:func:`sb3_twin`: the same env steps, opponents, PPO settings and evaluation on 2
   ``SubprocVecEnv`` games) trained one after the other in this process; their final win rates
   against ``random`` and ``audition.greedy`` with 95% intervals and their steps/s.

Writes ``<out>/rllib_compare.json`` (and each run's folder under ``<out>/runs``).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from parlour.train.config import TrainConfig, config_from_dict, load_config

SCALING_RUNNERS = (1, 2)
SCALING_STEPS = 8192


def scaling(runs: Path, steps: int) -> list[dict[str, Any]]:
    from parlour.train.rllib.runner import train_rllib

    rows = []
    for runners in SCALING_RUNNERS:
        cfg = load_config("audition_2p_rllib")
        cfg.name = f"scaling_{runners}"
        cfg.total_timesteps = steps
        cfg.rllib.num_env_runners = runners
        cfg.eval.every = cfg.checkpoint_every = 10 * steps  # no periodic work in the timing
        cfg.eval.final_games = 2
        cfg.eval.final_agents = ["random"]
        report = train_rllib(cfg, runs, progress=False)
        rows.append(
            {
                "env_runners": runners,
                "env_steps": report["timesteps"],
                "env_steps_per_s": report["train_steps_per_s"],
            }
        )
    return rows


def sb3_twin(rllib_cfg: TrainConfig) -> TrainConfig:
    """The RLlib config's run as SB3 trains it: the same env steps, opponents, PPO
    hyper-parameters and evaluation; its batch of ``train_batch_size`` steps collected by one
    ``SubprocVecEnv`` game per env runner (``n_steps`` each), its minibatches and epochs. (This is
    the recipe ``configs/audition_2p.yaml`` had when ``docs/rllib.md``'s figures were measured;
    that config has since become the batched ``make run`` recipe.)"""
    r = rllib_cfg.rllib
    n_envs = r.num_env_runners * r.num_envs_per_env_runner
    data = rllib_cfg.to_dict()
    data.update(
        name=rllib_cfg.name.replace("rllib", "sb3"), backend="sb3", n_envs=n_envs, vec_env="subproc"
    )
    data["ppo"].update(
        n_steps=r.train_batch_size // n_envs, batch_size=r.minibatch_size, n_epochs=r.num_epochs
    )
    return config_from_dict(data)


def compare(runs: Path) -> dict[str, Any]:
    from parlour.train.rllib.runner import train_rllib
    from parlour.train.train import train

    out = {}
    rllib_cfg = load_config("audition_2p_rllib")
    for backend, cfg in (("sb3", sb3_twin(rllib_cfg)), ("rllib", rllib_cfg)):
        name = cfg.name
        t0 = time.perf_counter()
        report = (train_rllib if backend == "rllib" else train)(cfg, runs, progress=False)
        out[backend] = {
            "config": name,
            "timesteps": report["timesteps"],
            "train_steps_per_s": report["train_steps_per_s"],
            "train_wall_time_s": report["train_wall_time_s"],
            "total_wall_time_s": round(time.perf_counter() - t0, 1),
            "final": {
                k: {"win_rate": v["win_rate"], "ci95": v["ci95"], "games": v["games"]}
                for k, v in report["final"].items()
            },
        }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="bench_results/rllib")
    parser.add_argument("--scaling-only", action="store_true")
    parser.add_argument("--scaling-steps", type=int, default=SCALING_STEPS)
    args = parser.parse_args(argv)
    import ray

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    ray.init(include_dashboard=False)
    result: dict[str, Any] = {"scaling": scaling(out / "runs", args.scaling_steps)}
    (out / "rllib_compare.json").write_text(json.dumps(result, indent=1))
    if not args.scaling_only:
        result["compare"] = compare(out / "runs")
    (out / "rllib_compare.json").write_text(json.dumps(result, indent=1))
    print(json.dumps(result, indent=1))
    ray.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
