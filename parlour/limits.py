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
| :data:`MAX_LAYER_WIDTH` | 4,096 | each ``ppo.net_arch`` layer; each layer of a model file | the shipped configs use at most 512; one 4,096-wide square layer is 16.8 M weights |
| :data:`MAX_LAYERS` | 16 | ``ppo.net_arch`` depth (per network); a model file's | the shipped configs use at most 2 |
| :data:`MAX_NETWORK_PARAMETERS` | 50,000,000 | the weights ``ppo.net_arch`` implies (policy and value networks, from the observation size); a model file's | 200 MB of float32 weights, ~800 MB with the gradients and Adam's two moments |
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
| :data:`MAX_OBSERVATION_SIZE` | 1,048,576 | a model file's flat observation (numbers) | Awkward Guests' is 2,384, Audition's 321 |
| :data:`MAX_ACTIONS` | 65,536 | a model file's ``Discrete`` action space's ``n`` (and its ``start``) | Awkward Guests has 95 actions, Audition 27 |
| :data:`MAX_OPTION_INT` | 1,000,000 | the magnitude of an int or float option of a features extractor in a model file | |
| :data:`MAX_OPTION_TEXT` | 256 | the length of a str option of a features extractor in a model file | |

:func:`check_at_most` is the check (``"<key>: must be in <low>..<bound>, got <value>"``, a
``ValueError``); :func:`network_parameters` counts the weights of a fully connected network.
The model file readers (:mod:`parlour.agents.model_document`, :mod:`parlour.agents.rllib_export`)
refuse a file past a network bound before anything is built from it; a training config's bounds
are applied by :func:`parlour.train.bounds.check_config` and
:func:`~parlour.train.bounds.check_network` (:mod:`parlour.train.config` turns their errors into
``ConfigError``). This module imports nothing: every layer of parlour may use it.
"""

from __future__ import annotations

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
#: network bounds: of a config (``ppo.net_arch``) and of a model file (its reader,
#: :mod:`parlour.agents.model_document`, and the RLlib export's, :mod:`parlour.agents.rllib_export`)
MAX_LAYER_WIDTH = 4_096
MAX_LAYERS = 16
MAX_NETWORK_PARAMETERS = 50_000_000
MAX_OBSERVATION_SIZE = 2**20
MAX_ACTIONS = 2**16
MAX_OPTION_INT = 1_000_000
MAX_OPTION_TEXT = 256


def check_at_most(key: str, value: int, bound: int, low: int = 1) -> None:
    """``ValueError`` naming ``key`` and the range ``low..bound`` if ``value`` exceeds ``bound``."""
    if value > bound:
        raise ValueError(f"{key}: must be in {low:,}..{bound:,}, got {value:,}")


def network_parameters(layers: list[int], inputs: int) -> int:
    """The weights and biases of a fully connected network of ``layers`` on ``inputs`` numbers."""
    total, width = 0, inputs
    for size in layers:
        total += width * size + size
        width = size
    return total
