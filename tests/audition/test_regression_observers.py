"""Recorded regression of Audition observations seen by *every* seat at every step.

``tests/audition/test_regression.py`` hashes what ``env.last()`` returns (the acting agent);
this file also hashes ``env.observe(a)`` of every agent after every step, so an incremental
encoder cache that is only right for the acting agent's access pattern would show here.
Digests are in ``tests/data/audition_observer_trajectories.json``; regenerate (only for an
intended behaviour change) with ``python -m tests.audition.test_regression_observers``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from parlour.envs import audition_v1

DATA = Path(__file__).resolve().parents[1] / "data" / "audition_observer_trajectories.json"
CONFIGS = {
    "2p": dict(num_players=2),
    "3p-variants": dict(num_players=3, action_cards=3, uncertain_counts=True),
    "5p-list": dict(num_players=5, action_cards=["pass_left", "discard_own", "take_now"]),
    "6p-variants-score": dict(
        num_players=6, action_cards=6, uncertain_counts=True, reward_mode="score"
    ),
}
SEEDS = (0, 7)


def digest(kwargs: dict, seed: int) -> str:
    env = audition_v1.env(**kwargs)
    env.reset(seed=seed)
    rng = np.random.default_rng(100 + seed)
    h = hashlib.sha256()
    for agent in env.agent_iter():
        obs, rew, term, trunc, _ = env.last()
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        h.update(f"{agent}|{action}|{rew:.6f}|{term}|{trunc}|".encode())
        h.update(obs["observation"].tobytes())
        h.update(obs["action_mask"].tobytes())
        env.step(action)
        for a in env.agents:
            o = env.observe(a)
            h.update(a.encode())
            h.update(o["observation"].tobytes())
            h.update(o["action_mask"].tobytes())
    return h.hexdigest()


def record() -> dict[str, str]:
    return {f"{name}/{seed}": digest(kw, seed) for name, kw in CONFIGS.items() for seed in SEEDS}


@pytest.mark.parametrize("name", list(CONFIGS))
def test_observer_trajectories_unchanged(name):
    recorded = json.loads(DATA.read_text())
    for seed in SEEDS:
        assert digest(CONFIGS[name], seed) == recorded[f"{name}/{seed}"], (
            f"trajectory {name}/{seed} changed"
        )


if __name__ == "__main__":
    DATA.write_text(json.dumps(record(), indent=2) + "\n")
    print(f"wrote {DATA}")
