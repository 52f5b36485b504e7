"""Recorded-trajectory regression: fixed seeds must keep giving the same games.

Each configuration is played with seeded masked-random actions through ``env()``; a SHA-256 of
every (agent, action, reward, observation bytes, mask) is compared with the digest recorded in
``tests/data/audition_trajectories.json``. A behaviour change (rules, seeding, observation
encoding) changes the digest. If the change is intended, regenerate the file with
``python -m tests.audition.test_regression`` and say why in the commit message.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from parlour.envs import audition_v1

DATA = Path(__file__).resolve().parents[1] / "data" / "audition_trajectories.json"
CONFIGS = {
    "2p": dict(num_players=2),
    "3p-list": dict(num_players=3, action_cards=["pass_left", "discard_own", "take_now"]),
    "4p-variants": dict(num_players=4, action_cards=4, uncertain_counts=True),
    "6p-score": dict(num_players=6, action_cards=2, reward_mode="score"),
}
SEEDS = (0, 1, 2)


def digest(kwargs: dict, seed: int) -> str:
    env = audition_v1.env(**kwargs)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    h = hashlib.sha256()
    for agent in env.agent_iter():
        obs, rew, term, trunc, _ = env.last()
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        h.update(f"{agent}|{action}|{rew:.6f}|".encode())
        h.update(obs["observation"].tobytes())
        h.update(obs["action_mask"].tobytes())
        env.step(action)
    return h.hexdigest()


def record() -> dict[str, str]:
    return {f"{name}/{seed}": digest(kw, seed) for name, kw in CONFIGS.items() for seed in SEEDS}


@pytest.mark.parametrize("name", list(CONFIGS))
def test_trajectories_unchanged(name):
    recorded = json.loads(DATA.read_text())
    for seed in SEEDS:
        assert digest(CONFIGS[name], seed) == recorded[f"{name}/{seed}"], (
            f"trajectory {name}/{seed} changed"
        )


if __name__ == "__main__":
    DATA.write_text(json.dumps(record(), indent=2) + "\n")
    print(f"wrote {DATA}")
