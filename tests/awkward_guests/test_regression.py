"""Recorded regression of Awkward Guests: fixed seeds must keep giving the same cases and games.

Two kinds of records, compared with ``tests/data/guests_trajectories.json``:

* ``case/<level>/<seed>[/<deck_size>]`` — SHA-256 of the canonical JSON of
  ``generate_case(level, seed, deck_size)`` (every level; the generator must produce
  byte-identical cases for the same seed); ``cases/<level>/<a>-<b>`` — one SHA-256 over the
  cases of seeds ``a..b`` (more of the generator's branches: retries, accomplices).
* ``game/<players>p/<level>/<mode>/<seed>`` — seeded masked-random play through ``env()`` (the
  env draws its generated case from its own seeded generator; the agent is a separate
  ``np.random.Generator``): SHA-256 of every step's (agent, action, reward, termination,
  truncation, every seat's cumulative reward, observation bytes, mask bytes) as returned by
  ``env.last()``. The ``all-observers`` records also hash ``env.observe(a)`` of every agent at
  every step (another access pattern for the encoders' incremental caches).

A behaviour change (rules, seeding, generator, observation encoding) changes a digest. If the
change is intended, regenerate the file with ``python -m tests.awkward_guests.test_regression``
and say why in the commit message.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from parlour.envs import awkward_guests_v1
from parlour.envs.awkward_guests import LEVELS, generate_case

DATA = Path(__file__).resolve().parents[1] / "data" / "guests_trajectories.json"

CASE_SEEDS = (0, 1, 2, 3)
CASE_RANGE = range(4, 40)
CASE_DECK_SIZES = ((24, "medium", 5), (200, "expert", 6), (120, "easy", 7))
PLAYERS = (1, 2, 4, 8)
GAME_LEVELS = ("easy", "expert")
MODES = ("notebook", "deduced")
GAME_SEEDS = (0, 1)
ALL_OBSERVERS = (
    (2, "expert", "deduced", 3),
    (4, "easy", "notebook", 4),
    (8, "expert", "deduced", 5),
)


def case_digest(level: str, seed: int, deck_size: int | None = None) -> str:
    case = (
        generate_case(level, seed) if deck_size is None else generate_case(level, seed, deck_size)
    )
    text = json.dumps(case.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def cases_digest(level: str) -> str:
    h = hashlib.sha256()
    for seed in CASE_RANGE:
        h.update(case_digest(level, seed).encode())
    return h.hexdigest()


def game_digest(players: int, level: str, mode: str, seed: int, all_observers: bool = False) -> str:
    env = awkward_guests_v1.env(num_players=players, level=level, observation_mode=mode)
    env.reset(seed=seed)
    rng = np.random.default_rng(10_000 + seed)
    h = hashlib.sha256()
    for agent in env.agent_iter():
        obs, rew, term, trunc, _ = env.last()
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        cum = ",".join(f"{env._cumulative_rewards[a]:.6f}" for a in env.agents)
        h.update(f"{agent}|{action}|{rew:.6f}|{term}|{trunc}|{cum}|".encode())
        h.update(obs["observation"].tobytes())
        h.update(obs["action_mask"].tobytes())
        if all_observers:
            for a in env.agents:
                o = env.observe(a)
                h.update(a.encode())
                h.update(o["observation"].tobytes())
                h.update(o["action_mask"].tobytes())
        env.step(action)
    return h.hexdigest()


def case_keys() -> dict[str, tuple]:
    keys: dict[str, tuple] = {f"case/{lv}/{s}": (lv, s) for lv in LEVELS for s in CASE_SEEDS}
    for deck, lv, s in CASE_DECK_SIZES:
        keys[f"case/{lv}/{s}/{deck}"] = (lv, s, deck)
    return keys


def game_keys() -> dict[str, tuple]:
    keys: dict[str, tuple] = {
        f"game/{n}p/{lv}/{m}/{s}": (n, lv, m, s, False)
        for n in PLAYERS
        for lv in GAME_LEVELS
        for m in MODES
        for s in GAME_SEEDS
    }
    for n, lv, m, s in ALL_OBSERVERS:
        keys[f"game/{n}p/{lv}/{m}/{s}/all-observers"] = (n, lv, m, s, True)
    return keys


def record() -> dict[str, str]:
    out = {k: case_digest(*a) for k, a in case_keys().items()}
    out.update({_range_key(lv): cases_digest(lv) for lv in LEVELS})
    out.update({k: game_digest(*a) for k, a in game_keys().items()})
    return out


def _range_key(level: str) -> str:
    return f"cases/{level}/{CASE_RANGE.start}-{CASE_RANGE.stop - 1}"


def _recorded() -> dict[str, str]:
    return json.loads(DATA.read_text())


@pytest.mark.parametrize("level", LEVELS)
def test_generated_cases_unchanged(level):
    recorded = _recorded()
    for key, args in case_keys().items():
        if args[0] == level:
            assert case_digest(*args) == recorded[key], f"generated case {key} changed"
    key = _range_key(level)
    assert cases_digest(level) == recorded[key], f"a generated case of {key} changed"


@pytest.mark.parametrize("players", PLAYERS)
def test_trajectories_unchanged(players):
    recorded = _recorded()
    for key, args in game_keys().items():
        if args[0] == players:
            assert game_digest(*args) == recorded[key], f"trajectory {key} changed"


if __name__ == "__main__":
    DATA.write_text(json.dumps(record(), indent=2) + "\n")
    print(f"wrote {DATA}")
