"""Self-play league of the RLlib backend: which module plays which slot.

| module id | trained | what |
|---|---|---|
| ``learner`` | yes | the one learning policy: ``slot_0`` of every episode, and any other policy slot not given to a snapshot |
| ``snapshot_0`` … ``snapshot_{k-1}`` | no | frozen copies of the learner (``k = opponents.max_snapshots`` when ``opponents.snapshot_every`` > 0, else none) |

:func:`map_slot` is the ``policy_mapping_fn``: a policy slot other than ``slot_0`` plays a
snapshot with probability ``opponents.snapshot_weight`` (uniform over the slots), else the
learner; the draw is a pure function of the episode id and the slot, so every env runner and
a resumed run agree. Every ``opponents.snapshot_every`` env steps the learner's weights are
copied into the next snapshot slot, round robin (:func:`take_snapshot`); until a slot has been
filled it holds the initial network (the learner at step 0).
"""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np

from parlour.train.rllib.env import SLOT_PREFIX

LEARNER = "learner"
SNAPSHOT_PREFIX = "snapshot_"


def snapshot_ids(count: int) -> list[str]:
    return [f"{SNAPSHOT_PREFIX}{i}" for i in range(count)]


def map_slot(
    agent_id: str, episode: Any, *, snapshots: int = 0, snapshot_weight: float = 0.0, **_: Any
) -> str:
    """The module of ``agent_id`` in ``episode`` (see the module docstring)."""
    if agent_id == f"{SLOT_PREFIX}0" or snapshots == 0 or snapshot_weight <= 0.0:
        return LEARNER
    key = zlib.crc32(f"{getattr(episode, 'id_', episode)}/{agent_id}".encode())
    rng = np.random.default_rng(key)
    if rng.random() < snapshot_weight:
        return f"{SNAPSHOT_PREFIX}{int(rng.integers(snapshots))}"
    return LEARNER


def take_snapshot(algo: Any, slot: str) -> None:
    """Copy the learner's weights into the frozen module ``slot`` (learners and env runners)."""
    weights = algo.learner_group.get_weights(module_ids=[LEARNER])[LEARNER]
    algo.learner_group.set_weights({slot: weights})
    algo.env_runner_group.sync_weights(
        from_worker_or_learner_group=algo.learner_group, policies=[slot], inference_only=True
    )
