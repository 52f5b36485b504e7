"""Upper bounds on what a config, a command line or an agent spec may ask for.

A value past a bound is refused before any work starts, with an error naming the key (or flag)
and the allowed range, instead of allocating tens of GB, starting thousands of processes or
silently playing thousands of games. Each bound is far above every shipped config and
documented run; it catches a typo of a few extra zeros, not a real experiment.

| bound | value | checked for | why this value |
|---|---|---|---|
| :data:`MAX_GAMES` | 1,000,000 | ``eval --games``, ``league --games``, ``eval.games``, ``eval.final_games``, ``play_games`` | every game's record is kept (~1 KB each): 1 GB at the bound; the docs' largest run is 4,000 |
| :data:`MAX_ARRANGEMENTS` | 2,000 | the seat arrangements of one deal (``eval``: ``k`` agents at ``n`` seats; ``league``: its tables) | ``--games 1`` plays at least one deal of every arrangement: 12 agents at 6 seats would be 5,544 games |
| :data:`MAX_WORKERS` | 256 | ``eval/league --workers``, ``eval.workers`` | a process each, with its own agents and env (torch: ~300 MB each) |
| :data:`MAX_N_ENVS` | 4,096 | ``n_envs`` (``dummy``, ``batched``) | the largest shipped config plays 512 games in one process |
| :data:`MAX_SUBPROC_ENVS` | 128 | ``n_envs`` with ``vec_env: subproc`` | a process each (~150-300 MB with torch imported) |
| :data:`MAX_LAYER_WIDTH` | 4,096 | each ``ppo.net_arch`` layer | the shipped configs use at most 512; one 4,096-wide square layer is 16.8 M weights |
| :data:`MAX_LAYERS` | 16 | ``ppo.net_arch`` depth (per network) | the shipped configs use at most 2 |
| :data:`MAX_NETWORK_PARAMETERS` | 50,000,000 | the weights ``ppo.net_arch`` implies (policy and value networks, from the observation size) | 200 MB of float32 weights, ~800 MB with the gradients and Adam's two moments |
| :data:`MAX_ROLLOUT_STEPS` | 262,144 | ``ppo.n_steps`` × ``n_envs``, ``ppo.batch_size`` | the rollout buffer holds an observation per step (Awkward Guests: ~10 KB): 2.6 GB at the bound; shipped: at most 16,384 |
| :data:`MAX_EPOCHS` | 1,000 | ``ppo.n_epochs``, ``imitation.epochs`` | passes over a rollout; shipped: at most 10 |
| :data:`MAX_TOTAL_TIMESTEPS` | 10,000,000,000 | ``total_timesteps`` | 3,000 times the longest shipped run (3 M) |
| :data:`MAX_IMITATION_STEPS` | 1,000,000 | ``imitation.steps`` | the recorded observations stay in memory (Awkward Guests: ~10 GB at the bound; shipped: 600,000 = 6 GB) |
| :data:`MAX_SNAPSHOTS` | 64 | ``opponents.max_snapshots`` | a network each in memory; shipped: at most 5 |
| :data:`MAX_TORCH_THREADS` | 256 | ``torch_threads`` | more threads than any machine's cores only thrash |
| :data:`MAX_CASE_PROCESSES` | 32 | ``game_options.case_workers`` × ``n_envs`` | each env starts its own case workers: the env's own bound (``MAX_CASE_WORKERS``) for the run in all |
| :data:`MAX_SIMS` | 10,000 | ``sims`` of ``audition.expert`` / ``audition.search`` | rollouts per decision (each samples its worlds at once); documented: at most 200 |
| :data:`MAX_SEARCH_DEPTH` | 1,000 | ``depth`` of ``audition.search`` | decisions per rollout before the value head; an Audition game has a few hundred at most |
| :data:`MAX_SEARCH_TOP` | 27 | ``top`` of ``audition.search`` | the most actions a decision can search: Audition's action count |

:func:`check_at_most` is the check (``"<key>: must be in <low>..<bound>, got <value>"``, a
``ValueError``); :func:`check_config` and :func:`check_network` apply the config's bounds
(:mod:`parlour.train.config` turns their errors into ``ConfigError``). The network bounds and
:func:`network_parameters` are defined in :mod:`parlour.agents.limits` (the model file reader
checks them too) and re-exported here.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from parlour.train.config import TrainConfig

MAX_GAMES = 1_000_000
MAX_ARRANGEMENTS = 2_000
MAX_WORKERS = 256
MAX_N_ENVS = 4_096
MAX_SUBPROC_ENVS = 128
MAX_ROLLOUT_STEPS = 2**18
MAX_EPOCHS = 1_000
MAX_TOTAL_TIMESTEPS = 10**10
MAX_IMITATION_STEPS = 1_000_000
MAX_SNAPSHOTS = 64
MAX_TORCH_THREADS = 256
MAX_CASE_PROCESSES = 32
MAX_SIMS = 10_000
MAX_SEARCH_DEPTH = 1_000
MAX_SEARCH_TOP = 27

# (defined below train, the model file reader uses them too; imported after the bounds above:
# importing parlour.agents runs its factory, which imports those bounds from this module)
from parlour.agents.limits import (  # noqa: E402
    MAX_LAYER_WIDTH,
    MAX_LAYERS,
    MAX_NETWORK_PARAMETERS,
    network_parameters,
)


def check_at_most(key: str, value: int, bound: int, low: int = 1) -> None:
    """``ValueError`` naming ``key`` and the range ``low..bound`` if ``value`` exceeds ``bound``."""
    if value > bound:
        raise ValueError(f"{key}: must be in {low:,}..{bound:,}, got {value:,}")


def check_config(cfg: TrainConfig) -> None:
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


def check_network(cfg: TrainConfig, env: Any) -> None:
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
