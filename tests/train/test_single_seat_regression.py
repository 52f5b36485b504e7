"""Recorded regression of the single-seat training env: fixed seeds, the same episodes.

``tests/data/single_seat_trajectories.json`` holds, per configuration of :data:`CONFIGS`, a
SHA-256 over a seeded run of :class:`~parlour.train.single_seat.SingleSeatEnv` with a masked
random learner (its own generator): every observation the learner gets (bytes), its mask,
reward (shaping included), termination and the final infos (seat, opponents, scores, winners,
``out``, ``is_success``, ``round_limit``). Opponents are drawn from a pool of ``random`` and
``guests.deducer`` (Audition: ``random`` and ``audition.greedy``), so a speed-up of the
opponents' path (what they are given, when observations are encoded) or of the reward shaping
must leave every learner observation and reward bit for bit the same.

If a change is intended, regenerate the file with
``python -m tests.train.test_single_seat_regression`` and say why in the commit message.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from parlour.games import get_game
from parlour.train.opponents import OpponentPool
from parlour.train.single_seat import SingleSeatEnv

DATA = Path(__file__).resolve().parents[1] / "data" / "single_seat_trajectories.json"

#: name -> (game, players, game options, opponent pool weights, learner steps)
CONFIGS: dict[str, tuple] = {
    "guests/2p/easy/deduced/shaped": (
        "guests",
        2,
        {
            "level": "easy",
            "observation_mode": "deduced",
            "accusation_shaping": 0.2,
            "solution_shaping": 0.2,
        },
        {"random": 0.3, "guests.deducer": 0.7},
        300,
    ),
    "guests/3p/medium/notebook": (
        "guests",
        3,
        {"level": "medium"},
        {"random": 0.5, "guests.deducer": 0.5},
        200,
    ),
    "audition/3p": ("audition", 3, {}, {"random": 0.5, "audition.greedy": 0.5}, 300),
}
SEED = 7


def _final(info: dict) -> str:
    keys = ("seat", "opponents", "scores", "winners", "out", "is_success", "round_limit")
    return json.dumps({k: info.get(k) for k in keys}, sort_keys=True, default=str)


def run_digest(name: str, players: int, options: dict, pool: dict, steps: int) -> str:
    game = get_game(name)
    env = SingleSeatEnv(game, players, options, OpponentPool(game, pool))
    rng = np.random.default_rng(SEED + 1)
    h = hashlib.sha256()
    obs, info = env.reset(seed=SEED)
    h.update(obs.tobytes())
    h.update(str(info["seat"]).encode())
    for _ in range(steps):
        mask = env.action_masks()
        h.update(mask.tobytes())
        action = int(rng.choice(np.flatnonzero(mask)))
        obs, reward, term, trunc, info = env.step(action)
        h.update(obs.tobytes())
        h.update(f"|{action}|{reward!r}|{term}|{trunc}|".encode())
        if term or trunc:
            h.update(_final(info).encode())
            obs, info = env.reset()
            h.update(obs.tobytes())
            h.update(str(info["seat"]).encode())
    return h.hexdigest()


def record() -> dict[str, str]:
    return {name: run_digest(*args) for name, args in CONFIGS.items()}


@pytest.mark.parametrize("name", list(CONFIGS))
def test_single_seat_trajectories_unchanged(name):
    recorded = json.loads(DATA.read_text())
    assert run_digest(*CONFIGS[name]) == recorded[name], f"single-seat run {name} changed"


if __name__ == "__main__":
    DATA.write_text(json.dumps(record(), indent=2) + "\n")
    print(f"wrote {DATA}")
