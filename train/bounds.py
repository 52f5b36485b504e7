"""The bounds of a training config (:mod:`parlour.limits`), applied to a :class:`TrainConfig`.

:func:`check_config` checks the config's own numbers and :func:`check_network` the weights
``ppo.net_arch`` implies on the env's observation; each raises a ``ValueError`` naming the key
and the allowed range (:func:`parlour.limits.check_at_most`), which
:mod:`parlour.train.config` turns into a ``ConfigError``. The bounds themselves (``MAX_*``) are
in :mod:`parlour.limits`, below every layer. ``cfg`` is a
:class:`~parlour.train.config.TrainConfig` (typed ``Any``: :mod:`parlour.train.config` calls this
module, which never imports it back).
"""

from __future__ import annotations

import math
from typing import Any

from parlour.limits import (
    MAX_CASE_PROCESSES,
    MAX_EPOCHS,
    MAX_GAMES,
    MAX_IMITATION_STEPS,
    MAX_LAYER_WIDTH,
    MAX_LAYERS,
    MAX_N_ENVS,
    MAX_NETWORK_PARAMETERS,
    MAX_ROLLOUT_STEPS,
    MAX_SNAPSHOTS,
    MAX_SUBPROC_ENVS,
    MAX_TORCH_THREADS,
    MAX_TOTAL_TIMESTEPS,
    MAX_WORKERS,
    check_at_most,
    network_parameters,
)


def check_config(cfg: Any) -> None:
    """The bounds of a training config (``ValueError`` naming the key and the range)."""
    subproc = cfg.vec_env == "subproc"
    check_at_most("n_envs", cfg.n_envs, MAX_SUBPROC_ENVS if subproc else MAX_N_ENVS)
    check_at_most("total_timesteps", cfg.total_timesteps, MAX_TOTAL_TIMESTEPS)
    check_at_most("torch_threads", cfg.torch_threads, MAX_TORCH_THREADS)
    check_at_most("opponents.max_snapshots", cfg.opponents.max_snapshots, MAX_SNAPSHOTS)
    p = cfg.ppo
    check_at_most("ppo.n_steps x n_envs", p.n_steps * cfg.n_envs, MAX_ROLLOUT_STEPS, 2)
    check_at_most("ppo.batch_size", p.batch_size, MAX_ROLLOUT_STEPS, 2)
    check_at_most("ppo.n_epochs", p.n_epochs, MAX_EPOCHS)
    nets = p.net_arch.items() if isinstance(p.net_arch, dict) else [("", p.net_arch)]
    for net, layers in nets:
        key = f"ppo.net_arch{'.' + net if net else ''}"
        check_at_most(f"{key} (layers)", len(layers), MAX_LAYERS, 0)
        for i, width in enumerate(layers):
            check_at_most(f"{key}[{i}]", width, MAX_LAYER_WIDTH)
    e, im = cfg.eval, cfg.imitation
    check_at_most("eval.games", e.games, MAX_GAMES)
    check_at_most("eval.final_games", e.final_games, MAX_GAMES)
    if e.workers is not None:
        check_at_most("eval.workers", e.workers, MAX_WORKERS)
    check_at_most("imitation.steps", im.steps, MAX_IMITATION_STEPS)
    check_at_most("imitation.epochs", im.epochs, MAX_EPOCHS)
    check_at_most("imitation.batch_size", im.batch_size, MAX_ROLLOUT_STEPS)
    case_workers = cfg.game_options.get("case_workers", 0)
    if isinstance(case_workers, int) and not isinstance(case_workers, bool):
        check_at_most(
            "game_options.case_workers x n_envs",
            case_workers * cfg.n_envs,
            MAX_CASE_PROCESSES,
            0,
        )


def check_network(cfg: Any, env: Any) -> None:
    """``ppo.net_arch``'s policy and value networks on the env's observation: at most
    :data:`MAX_NETWORK_PARAMETERS` weights."""
    space = env.observation_space(env.possible_agents[0])
    space = space["observation"] if "observation" in getattr(space, "spaces", {}) else space
    inputs = int(math.prod(space.shape or (1,)))
    arch = cfg.ppo.net_arch
    pi, vf = (arch["pi"], arch["vf"]) if isinstance(arch, dict) else (arch, arch)
    total = network_parameters(pi, inputs) + network_parameters(vf, inputs)
    if total > MAX_NETWORK_PARAMETERS:
        raise ValueError(
            f"ppo.net_arch: {arch} on the {inputs:,} observation numbers has {total:,} weights; "
            f"the limit is {MAX_NETWORK_PARAMETERS:,}"
        )
