"""Engine-only throughput: legal actions + apply, no observation, random legal play.

Ours: the pure Audition engine (``parlour.envs.audition.rules``). Peers: OpenSpiel's Python games
(``python_kuhn_poker``, ``python_liars_poker``) and, for scale, two of its C++ games
(``kuhn_poker``, ``leduc_poker``), all driven by the same loop shape: while not terminal, take the
legal actions (or sample a chance outcome), pick one uniformly with a seeded numpy generator,
apply it, count one step; start a new game when one ends.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np


def audition_engine_rate(num_players: int, steps: int, seed: int = 0, **config) -> float:
    from parlour.envs.audition import rules as R

    cfg = R.AuditionConfig(num_players, **config)
    rng = np.random.default_rng(seed)
    state = R.new_game(cfg, rng)
    done = 0
    t0 = time.perf_counter()
    while done < steps:
        if state.is_terminal:
            state = R.new_game(cfg, rng)
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
        done += 1
    return done / (time.perf_counter() - t0)


def openspiel_rate(game_name: str, steps: int, seed: int = 0) -> float:
    import pyspiel
    from open_spiel.python import games  # noqa: F401  (registers the python_* games)

    game = pyspiel.load_game(game_name)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    done = 0
    t0 = time.perf_counter()
    while done < steps:
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
        done += 1
    return done / (time.perf_counter() - t0)


def cases(steps: int) -> dict[str, Callable[[int], float]]:
    return {
        "engine audition 2p": lambda s: audition_engine_rate(2, steps, s),
        "engine audition 6p variants": lambda s: audition_engine_rate(
            6, steps, s, action_cards=6, uncertain_counts=True
        ),
    }


def peer_cases(steps: int) -> dict[str, Callable[[int], float]]:
    return {
        name: (lambda s, name=name: openspiel_rate(name, steps, s))
        for name in ("python_kuhn_poker", "python_liars_poker", "kuhn_poker", "leduc_poker")
    }
