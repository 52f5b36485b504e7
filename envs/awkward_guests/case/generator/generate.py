"""Step 5 of the generator: generate and verify — :func:`generate_case`, :func:`verify_case`."""

from __future__ import annotations

from typing import Any

import numpy as np

from parlour.envs._checks import require_int

from ..board import WALTON, Board
from ..cards import make_card
from ..case import ACCOMPLICE_LEVELS, LEVELS, Case
from ..deduction import Deduction
from ..truth import fact_is_true_in, world_violations
from .core import find_core
from .deck import build_cards
from .pool import true_fact_pool
from .recipes import DEFAULT_DECK_SIZE, MAX_DECK_SIZE, MIN_DECK_SIZE, RECIPES
from .world import sample_truth

__all__ = ["MAX_ATTEMPTS", "generate_case", "verify_case"]

#: Worlds tried per case before giving up (never reached in practice).
MAX_ATTEMPTS = 40


def _check_level(level: Any) -> str:
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}; got {level!r}")
    return level


def _rng(level: str, seed: int) -> np.random.Generator:
    return np.random.default_rng([LEVELS.index(level), seed])


def generate_case(
    level: str, seed: int, deck_size: int = DEFAULT_DECK_SIZE, board: Board = WALTON
) -> Case:
    """Generate a sound, unique, verified case for ``level`` (deterministic in ``seed``).

    ``seed`` is a non-negative int; ``deck_size`` the number of cards
    (``MIN_DECK_SIZE``..``MAX_DECK_SIZE``)."""
    _check_level(level)
    seed = require_int("seed", seed, 0, allowed="a non-negative int")
    deck_size = require_int("deck_size", deck_size, MIN_DECK_SIZE, MAX_DECK_SIZE)
    rng = _rng(level, seed)
    with_accomplice = level in ACCOMPLICE_LEVELS and bool(
        rng.random() < RECIPES[level].accomplice_share
    )
    for _ in range(MAX_ATTEMPTS):
        sol, world = sample_truth(rng, level, with_accomplice, board)
        pool = true_fact_pool(rng, sol, world, level, board)
        core = find_core(rng, pool, level, board)
        if core is None:
            continue
        drafts = build_cards(rng, core, pool, level, deck_size, board)
        if drafts is None:
            continue
        order = rng.permutation(len(drafts))
        drafts = [drafts[int(i)] for i in order]
        case = Case(
            level=level,
            seed=seed,
            solution=sol,
            world=world,
            cards=tuple(make_card(i, sp, facts, board) for i, (sp, facts) in enumerate(drafts)),
        )
        if verify_case(case, board):
            return case
    raise RuntimeError(
        f"no verified {level} case for seed {seed} after {MAX_ATTEMPTS} attempts"
    )  # pragma: no cover - never observed; kept so an unverified case is never returned


def verify_case(case: Case, board: Board = WALTON) -> bool:
    """Sound (every fact true, the hidden world valid) and unique (the deck leaves exactly
    the true solution)."""
    if world_violations(case.solution, case.world, board):
        return False
    facts = case.facts()
    if not all(fact_is_true_in(f, case.solution, case.world, board) for f in facts):
        return False
    d = Deduction(case.accomplice_possible, board)
    d.add_facts(facts, validate=False)
    return d.candidates() == [case.solution]
