"""Training throughput: MaskablePPO env steps/s on Audition 2p beside connect-four, and on
Awkward Guests 2p easy per-game beside batched, same run.

The peer is PettingZoo's connect-four MaskablePPO tutorial setup (``connect_four_v3`` behind the
tutorial's ``SB3ActionMaskWrapper`` + sb3-contrib ``ActionMasker``: one env, the one policy
playing both sides, ``MaskablePPO(MaskableActorCriticPolicy, env)`` with SB3's default
hyper-parameters). Ours runs the same MaskablePPO settings on
:class:`parlour.train.single_seat.SingleSeatEnv` (Audition 2p, learner seat random per episode, a
``random`` opponent played inside ``step()``), so the only difference is the environment. A
third figure is our shipped training setup (``configs/audition_2p.yaml``'s PPO settings and
opponents, ``n_envs`` in ``SubprocVecEnv``) for reference. Awkward Guests 2p easy is measured
with ``guests_2p_easy`` (2 ``SubprocVecEnv`` games) and ``guests_2p_easy_batched`` (the same
recipe on 64 in-process games, :mod:`parlour.train.multi_game`), each after one untimed rollout
and update (worker start-up, the case pool's first cases), runs alternating between the two; the
ratio is batched / per-game, for the whole training and for its rollout phases alone (SB3's
``collect_rollouts``: env steps, opponents, the learner's forward passes — what the batched env
changes; the rest is the PPO update, the same computation on both sides).

"env steps" are the steps SB3 counts (``model.num_timesteps``): learner decisions for ours, every
move of both sides for connect-four. Figures are medians over ``--repeats`` runs of ``--steps``
steps, timed around ``model.learn`` (model construction excluded).

Run: ``python -m parlour.benchmarks.training_throughput [--steps 8192] [--repeats 3] [--json PATH]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any


def connect_four_tutorial_env(seed: int) -> Any:
    """The PettingZoo SB3 connect-four tutorial's env (the peer, reproduced as published)."""
    import gymnasium
    import pettingzoo.utils
    from pettingzoo.classic import connect_four_v3
    from sb3_contrib.common.wrappers import ActionMasker

    # gymnasium 1.x's ActionMasker only wraps a gymnasium.Env: the one change to the tutorial.
    class SB3ActionMaskWrapper(pettingzoo.utils.BaseWrapper, gymnasium.Env):
        def reset(self, seed=None, options=None):
            super().reset(seed, options)
            self.observation_space = super().observation_space(self.possible_agents[0])[
                "observation"
            ]
            self.action_space = super().action_space(self.possible_agents[0])
            return self.observe(self.agent_selection), {}

        def step(self, action):
            current_agent = self.agent_selection
            super().step(action)
            next_agent = self.agent_selection
            return (
                self.observe(next_agent),
                self._cumulative_rewards[current_agent],
                self.terminations[current_agent],
                self.truncations[current_agent],
                self.infos[current_agent],
            )

        def observe(self, agent):
            return super().observe(agent)["observation"]

        def action_mask(self):
            return super().observe(self.agent_selection)["action_mask"]

    env = SB3ActionMaskWrapper(connect_four_v3.env())
    env.reset(seed=seed)
    return ActionMasker(env, lambda e: e.action_mask())


def audition_env(seed: int) -> Any:
    from parlour.games import get_game
    from parlour.train.single_seat import SingleSeatEnv

    env = SingleSeatEnv(get_game("audition"), 2, {}, ["random"])
    env.reset(seed=seed)
    return env


def tutorial_steps_per_second(make_env: Callable[[int], Any], steps: int, seed: int) -> float:
    """SB3 env steps/s of ``MaskablePPO`` with the tutorial's (default) settings."""
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    model = MaskablePPO(
        MaskableActorCriticPolicy, make_env(seed), verbose=0, seed=seed, device="cpu"
    )
    t0 = time.perf_counter()
    model.learn(total_timesteps=steps)
    return model.num_timesteps / (time.perf_counter() - t0)


def _phase_timer() -> Any:
    """An SB3 callback adding up the wall time of the rollout phases (``collect_rollouts``, from
    its start to its end: the env steps, opponents and the learner's forward passes); the rest of
    ``model.learn`` is the PPO update."""
    from stable_baselines3.common.callbacks import BaseCallback

    class PhaseTimer(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.rollout_time = 0.0
            self.rollout_steps = 0
            self._t = 0.0
            self._n = 0

        def _on_rollout_start(self) -> None:
            self._t, self._n = time.perf_counter(), self.model.num_timesteps

        def _on_rollout_end(self) -> None:
            self.rollout_time += time.perf_counter() - self._t
            self.rollout_steps += self.model.num_timesteps - self._n

        def _on_step(self) -> bool:
            return True

    return PhaseTimer()


def shipped_config_rates(
    steps: int, seed: int, config: str, warmup: bool = False
) -> tuple[float, float]:
    """SB3 env steps/s of our training setup (``config``'s PPO settings and vec env), over the
    whole of ``model.learn`` and over its rollout phases alone; ``warmup``: one rollout and
    update first, not timed (worker start-up, the first cases)."""
    import torch

    from parlour.train.config import load_config
    from parlour.train.train import build_model, frozen_heap, make_vec_env

    cfg = load_config(config)
    cfg.seed = seed
    torch.set_num_threads(cfg.torch_threads)  # as parlour train does
    venv = make_vec_env(cfg)
    model = build_model(cfg, venv)
    if warmup:
        model.learn(total_timesteps=cfg.ppo.n_steps * cfg.n_envs)
    rollout = cfg.n_envs * cfg.ppo.n_steps  # (at least three whole rollouts and updates)
    start = model.num_timesteps
    timer = _phase_timer()
    t0 = time.perf_counter()
    with frozen_heap():  # (as parlour train runs model.learn)
        model.learn(
            total_timesteps=max(steps, 3 * rollout), reset_num_timesteps=False, callback=timer
        )
    rate = (model.num_timesteps - start) / (time.perf_counter() - t0)
    venv.close()
    torch.set_num_threads(1)
    return rate, timer.rollout_steps / timer.rollout_time


#: Awkward Guests 2p easy: the per-game recipe and the same recipe on the multi-game env
GUESTS_CONFIGS = ("guests_2p_easy", "guests_2p_easy_batched")


def guests_figures(steps: int, repeats: int) -> list[dict]:
    """Awkward Guests 2p easy: the per-game recipe, and the batched one with its ratio to it —
    whole training (the target) and the rollout phases alone (the part the batched env changes;
    the PPO update is the same computation on both sides). Runs alternate between the two."""
    per_game, batched = GUESTS_CONFIGS
    runs: dict[str, list[tuple[float, float]]] = {per_game: [], batched: []}
    for seed in range(repeats):
        for config in runs:
            runs[config].append(shipped_config_rates(steps, seed, config, warmup=True))

    def median(config: str, which: int) -> float:
        return statistics.median(r[which] for r in runs[config])

    figs = []
    for which, phase in ((0, "train"), (1, "rollout phase")):
        g_rate, b_rate = median(per_game, which), median(batched, which)
        figs += [
            {
                "name": f"MaskablePPO {phase} steps/s, guests 2p easy ({per_game}, after a warm-up)",
                "value": round(g_rate, 1),
                "unit": "env steps/s",
                "peer": None,
                "peer_value": None,
                "ratio": None,
            },
            {
                "name": f"MaskablePPO {phase} steps/s, guests 2p easy ({batched}, after a warm-up)",
                "value": round(b_rate, 1),
                "unit": "env steps/s",
                "peer": per_game,
                "peer_value": round(g_rate, 1),
                "ratio": round(b_rate / g_rate, 3),
            },
        ]
    return figs


def figures(
    quick: bool = False,
    steps: int | None = None,
    repeats: int | None = None,
    config: str = "audition_2p",
) -> list[dict[str, Any]]:
    """The figures in ``parlour bench``'s format (``quick``: 2048 steps, one repeat).

    The peer runs at one torch thread and, when the shipped config uses more, at that many too:
    its figure is the faster of the two, so a thread count never favours ours."""
    import torch

    from parlour.train.config import load_config

    threads = load_config(config).torch_threads
    torch.set_num_threads(1)
    steps = steps or (2048 if quick else 8192)
    repeats = repeats or (1 if quick else 3)

    def median(fn: Callable[[int], float]) -> float:
        return statistics.median(fn(seed) for seed in range(repeats))

    def peer(seed: int) -> float:
        rates = []
        for n in sorted({1, threads}):
            torch.set_num_threads(n)
            rates.append(tutorial_steps_per_second(connect_four_tutorial_env, steps, seed))
        torch.set_num_threads(1)
        return max(rates)

    c4 = median(peer)
    ours = median(lambda s: tutorial_steps_per_second(audition_env, steps, s))
    shipped = median(lambda s: shipped_config_rates(steps, s, config)[0])
    peer = "connect_four_v3 (PettingZoo MaskablePPO tutorial)"
    return guests_figures(steps, repeats) + [
        {
            "name": "MaskablePPO train steps/s, audition 2p (tutorial settings)",
            "value": round(ours, 1),
            "unit": "env steps/s",
            "peer": peer,
            "peer_value": round(c4, 1),
            "ratio": round(ours / c4, 3),
        },
        {
            "name": f"MaskablePPO train steps/s, audition 2p ({config})",
            "value": round(shipped, 1),
            "unit": "env steps/s",
            "peer": peer,
            "peer_value": round(c4, 1),
            "ratio": round(shipped / c4, 3),
        },
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=8192)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--config", default="audition_2p", help="a config file or a shipped config's name"
    )
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    figs = figures(steps=args.steps, repeats=args.repeats, config=args.config)
    print(f"{'figure':<66} {'steps/s':>9} {'peer':>9} {'ratio':>7}")
    for f in figs:
        peer = f"{f['peer_value']:>9.0f}" if f["peer_value"] else f"{'-':>9}"
        ratio = f"{f['ratio']:>7.2f}" if f["ratio"] else f"{'-':>7}"
        print(f"{f['name']:<66} {f['value']:>9.0f} {peer} {ratio}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"figures": figs}, fh, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
