"""Step 3 of the generator: a minimal core of facts that makes the solution unique.

:func:`find_core` puts a few combined-reasoning facts into a draft up front (``seeded``), then
tries facts in a random order weighted by the level's type preferences and keeps those that
shrink the candidate set (incremental engine), until one candidate is left; :func:`_minimise`
reduces the draft to a **minimal core** (every fact needed), dropping the least preferred first.
Local facts are tested through their exclusion masks (:func:`exclusions`, cached), the others
with engine states (:func:`prefix_states` / :func:`suffix_states`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..board import WALTON, Board
from ..case import ACCOMPLICE_LEVELS
from ..deduction import LOCAL_TYPES, Deduction, semantic_key
from ..memo import cached_by
from .draws import weighted_order
from .pool import PoolItem
from .recipes import COMBINED_TYPES, RECIPES, Recipe

__all__ = ["Core", "exclusions", "find_core", "prefix_states", "suffix_states"]

#: How many exclusion masks of local facts are kept (a board has a few hundred per setting).
EXCLUSION_CACHE_SIZE = 1024


@dataclass
class Core:
    """A minimal set of facts that leaves exactly the true solution (every one is needed)."""

    items: list[PoolItem]


def _exclusion_key(fact: dict, acc_possible: bool, board: Board) -> tuple:
    return (board, acc_possible, semantic_key(fact))


@cached_by(_exclusion_key, EXCLUSION_CACHE_SIZE)
def exclusions(fact: dict, acc_possible: bool, board: Board) -> np.ndarray:
    """The candidates a *local* fact rules out on its own (bool mask; cached, read-only)."""
    d = Deduction(acc_possible, board)
    d.add_facts((fact,), validate=False)
    out = ~d.candidate_mask()
    out.flags.writeable = False
    return out


def find_core(
    rng: np.random.Generator, pool: list[PoolItem], level: str, board: Board = WALTON
) -> Core | None:
    """A minimal core drawn from ``pool`` (None if the pool cannot make the solution unique).

    A few combined-reasoning facts (``seeded``) go into the draft first; then informative facts
    are tried in a weighted random order (the level's ``weights``) and kept when they shrink the
    candidate set, until one candidate is left. The draft is then reduced to a minimal core,
    dropping the least preferred (most direct) facts first."""
    recipe = RECIPES[level]
    acc_possible = level in ACCOMPLICE_LEVELS
    usable = [it for it in pool if it.informative and recipe.weights.get(it.type, 0) > 0]
    weights = np.array([recipe.weights[it.type] for it in usable])
    order = [int(i) for i in weighted_order(rng, weights)]
    lo, hi = recipe.seeded
    n_seed = int(rng.integers(lo, hi + 1))
    seeded = [i for i in order if usable[i].type in COMBINED_TYPES][:n_seed]
    in_seed = set(seeded)
    state = Deduction(acc_possible, board)
    state.add_facts([usable[i].fact for i in seeded], validate=False)
    draft = list(seeded)
    count = state.count()
    mask = None  # state.candidate_mask(), kept up to date through local facts
    for i in order:
        if count == 1:
            break
        if i in in_seed:
            continue
        fact = usable[i].fact
        if fact["type"] in LOCAL_TYPES:  # its exclusions multiply: test on the mask
            if mask is None:
                mask = state.candidate_mask()
            excl = exclusions(fact, acc_possible, board)
            if not (mask & excl).any():
                continue
            state.add_facts((fact,), validate=False)
            mask = mask & ~excl  # == state.candidate_mask() (local exclusions multiply)
            count = int(np.count_nonzero(mask))
        else:
            trial = state.clone()
            trial.add_facts((fact,), validate=False)
            if trial.count() >= count:
                continue
            state = trial
            mask = None
            count = state.count()
        draft.append(i)
    if count != 1:
        return None
    return _minimise(rng, [usable[i] for i in draft], acc_possible, recipe, board)


def _minimise(
    rng: np.random.Generator,
    draft: list[PoolItem],
    acc_possible: bool,
    recipe: Recipe,
    board: Board,
) -> Core:
    """Drop every fact the rest does not need, least preferred first (deletion filter).

    Local facts are tested with their exclusion masks (their effects multiply); the others
    with the engine: the facts decided to stay (an incremental prefix state) merged with the
    states of the not yet tested ones (built once, from the back)."""
    n = len(draft)
    weights = np.array([recipe.weights[it.type] for it in draft])
    order = [int(i) for i in np.lexsort((rng.random(n), weights))]  # lightest first
    local = {i for i in range(n) if draft[i].type in LOCAL_TYPES}
    excl = {i: exclusions(draft[i].fact, acc_possible, board) for i in local}
    size = Deduction(acc_possible, board).candidate_mask().size
    hits = np.zeros(size, dtype=np.int16)  # how many local draft facts exclude each candidate
    for i in local:
        hits += excl[i]
    untested = [i for i in order if i not in local]
    prefix = Deduction(acc_possible, board)  # the non-local facts decided to stay
    suffix = suffix_states(prefix, [draft[i].fact for i in untested])
    mask_nl = suffix[0].candidate_mask()
    keep = [True] * n
    tested = 0
    for i in order:
        if i in local:
            left = mask_nl & (hits - excl[i] == 0)
            if np.count_nonzero(left) == 1:
                keep[i] = False
                hits -= excl[i]
        else:
            tested += 1  # i is untested[tested - 1]: the trial has the ones after it
            trial = prefix.merged(suffix[tested])
            m = trial.candidate_mask()
            left = m & (hits == 0)
            if np.count_nonzero(left) == 1:
                keep[i] = False
                mask_nl = m
            else:
                prefix.add_facts((draft[i].fact,), validate=False)
    return Core([draft[i] for i in range(n) if keep[i]])


def suffix_states(empty: Deduction, facts: list[dict]) -> list[Deduction]:
    """``out[k]``: ``empty`` plus ``facts[k:]`` (``out[len(facts)]`` is a copy of ``empty``)."""
    out = [empty.clone()]
    for f in reversed(facts):
        d = out[-1].clone()
        d.add_facts((f,), validate=False)
        out.append(d)
    out.reverse()
    return out


def prefix_states(empty: Deduction, facts: list[dict]) -> list[Deduction]:
    """``out[k]``: ``empty`` plus ``facts[:k]``."""
    out = [empty.clone()]
    for f in facts:
        d = out[-1].clone()
        d.add_facts((f,), validate=False)
        out.append(d)
    return out
