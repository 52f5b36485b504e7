"""The ``rllib:`` block of a training config (``backend: rllib``): what only RLlib has.

Everything else keeps its meaning from :mod:`parlour.train.config` (``game``, ``players``,
``game_options``, ``seed``, ``total_timesteps`` — counted as RLlib env steps, one per policy
move —, ``opponents``, the ``ppo`` hyper-parameters, ``eval``, ``checkpoint_every``).

| key | type | default | meaning |
|---|---|---|---|
| ``rllib.num_env_runners`` | int | 2 | Ray actors sampling episodes (0: sample in the driver) |
| ``rllib.num_envs_per_env_runner`` | int | 1 | envs stepped together in each env runner |
| ``rllib.num_learners`` | int | 0 | Ray learner actors (0: learn in the driver; 2+ is data-parallel) |
| ``rllib.train_batch_size`` | int | 4000 | env steps per training iteration (per learner) |
| ``rllib.minibatch_size`` | int | 256 | SGD minibatch |
| ``rllib.num_epochs`` | int | 5 | passes over each batch |
| ``rllib.net_arch`` | list or null | null | hidden layers of the RLModule (null: ``ppo.net_arch``; activation ``ppo.activation``) |
| ``rllib.baseline_share`` | float | 0.5 | probability that an opponent seat is a scripted baseline (drawn from ``opponents.baselines``); the other seats are the learner itself or, with ``opponents.snapshot_weight``, a frozen snapshot |
| ``rllib.address`` | str or null | null | an existing Ray cluster (``ray://…`` or ``auto``); null: ``RAY_ADDRESS`` or a local Ray; ``--address`` overrides |
| ``rllib.num_cpus`` | int or null | null | CPUs of a local Ray (null: all cores) |
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class RLlibSettings:
    """The ``rllib:`` config block (see the module docstring)."""

    #: Ray actors sampling episodes (0: the driver samples)
    num_env_runners: int = 2
    #: envs per env runner
    num_envs_per_env_runner: int = 1
    #: Ray learner actors (0: the driver learns)
    num_learners: int = 0
    #: env steps per training iteration (per learner)
    train_batch_size: int = 4000
    #: SGD minibatch size
    minibatch_size: int = 256
    #: passes over each batch
    num_epochs: int = 5
    #: hidden layers (None: ppo.net_arch)
    net_arch: list[int] | None = None
    #: probability that an opponent seat is a scripted baseline
    baseline_share: float = 0.5
    #: Ray cluster address (None: RAY_ADDRESS or a local Ray)
    address: str | None = None
    #: CPUs of a local Ray (None: all cores)
    num_cpus: int | None = None

    def problems(self) -> list[str]:
        """What is out of range (empty: valid)."""
        out = []
        for key in ("num_env_runners", "num_learners"):
            if getattr(self, key) < 0:
                out.append(f"rllib.{key}: must be >= 0")
        for key in ("num_envs_per_env_runner", "train_batch_size", "minibatch_size", "num_epochs"):
            if getattr(self, key) < 1:
                out.append(f"rllib.{key}: must be >= 1")
        if self.minibatch_size > self.train_batch_size:
            out.append("rllib.minibatch_size: must be <= rllib.train_batch_size")
        if self.net_arch is not None and any(w < 1 for w in self.net_arch):
            out.append("rllib.net_arch: layer sizes must be >= 1")
        if not 0.0 <= self.baseline_share <= 1.0:
            out.append("rllib.baseline_share: must be in [0, 1]")
        if self.num_cpus is not None and self.num_cpus < 1:
            out.append("rllib.num_cpus: must be >= 1 or null")
        return out
