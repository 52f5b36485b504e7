"""The generator's odds on the candidates a notebook allows: :func:`candidate_log_weights`.

The deduction engine keeps exactly the candidates consistent with the known facts
(docs/case_model.md#consistency) and weighs them equally. The generator does not draw them
equally, and facts that exclude nothing (a confirming proof box, a ``together`` sighting) make
one candidate likelier than another. This module gives each candidate ``c`` an approximate log
posterior under the generator's model (step 1, :mod:`.world`) with the level's recipe
(:mod:`.recipes`)::

    log P(c) + log P(the proof-box verdicts seen | c) + log P(the sightings seen | c)

=============  ============================================================================
term           the generator's model
=============  ============================================================================
prior          at accomplice levels a case has an accomplice with ``accomplice_share``; then
               ``M``, ``μ``, ``w`` (and ``A``, ``α``) are uniform, so a candidate without an
               accomplice weighs ``(1 − share) / 360`` and one with an accomplice
               ``share / 5,400`` (without accomplice levels: all equal)
proof boxes    for each motive with a seen box (testimony by a testifier, or the police
               evidence): a crime motive (``μ``, ``α``) has every box confirming; another
               motive of a culprit is refuted — ``k`` of its 3 boxes refute, ``P(k)`` =
               ``refuting_boxes``, which ones at random; an innocent's motive is a red herring
               (every box confirms) with ``herring_motive``, else refuted as above
sightings      with an accomplice, a sighting holding ``M`` or ``A`` is the pair ``M``, ``A``
               (always seen: factor 1), a ``together`` pair of two innocents has the chance
               ``E[innocent_pairs] / C(innocents, 2)`` and a lone innocent
               ``E[LONE_SIGHTINGS] / innocents``; without an accomplice both are drawn among
               all suspects
=============  ============================================================================

Which facts a player has seen is treated as independent of what they say, and the seen
sightings as independent draws: an approximation. The ``-inf`` terms (a crime motive with a
refuting box, a culprit seen with an innocent or alone) are rules of *generated* cases; a
hand-made case that breaks them can get its solution ruled out here (the 30 classic cases do
not). Not used yet: an innocent pair is seen at most once, so the same pair seen together in two
rooms is the murderer and the accomplice (at the first Solution phases with 2–8 candidates left
it changed no pick: docs/guests_training.md). The other facts count only through
consistency (pass the engine's mask). Measured at each seat's first Solution phase with 2–8
candidates left, over 3,000 four-player ``medium`` games of plain deducers
(``tools/guests_declines.py --games 3000 --seed 100000``, 7,915 such moments): the candidate
with the highest weight is the solution 40.6% of the time, the rarest candidate
(``guests.deducer:pick=rare``) 27.5%, one at random 21.9%.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable

import numpy as np

from ..board import WALTON, Board
from ..case import ACCOMPLICE_LEVELS
from ..solution import candidate_table
from .recipes import RECIPES
from .world import LONE_SIGHTINGS

__all__ = ["candidate_log_weights", "BOXES_PER_MOTIVE"]

#: proof boxes per motive: its two testifiers and the police evidence
BOXES_PER_MOTIVE = 3
#: a motive's role under a candidate (columns of :func:`_roles`)
CRIME, CULPRIT, INNOCENT = 0, 1, 2


@functools.lru_cache(maxsize=8)
def _roles(accomplice_possible: bool, board: Board = WALTON) -> np.ndarray:
    """(candidates, motives) int8: each motive's role under each candidate."""
    t = candidate_table(board)
    n = len(t.solutions) if accomplice_possible else t.n0
    motives = np.arange(len(board.motives))
    owner = t.motive_owner[None, :]
    crime = (motives[None, :] == t.motive[:n, None]) | (motives[None, :] == t.alpha[:n, None])
    culprit = (owner == t.murderer[:n, None]) | (owner == t.accomplice[:n, None])
    roles = np.full((n, len(motives)), INNOCENT, np.int8)
    roles[culprit] = CULPRIT
    roles[crime] = CRIME
    roles.flags.writeable = False
    return roles


def _log(p: float) -> float:
    return math.log(p) if p > 0.0 else -math.inf


def _box_table(facts: Iterable[dict], level: str, board: Board) -> np.ndarray:
    """(motives, 3 roles) log chance of the box verdicts seen of each motive."""
    recipe = RECIPES[level]
    motive_idx = {m.id: i for i, m in enumerate(board.motives)}
    seen: dict[int, dict[str, str]] = {}
    for f in facts:
        if f["type"] == "testimony":
            seen.setdefault(motive_idx[f["motive"]], {})[f["speaker"]] = f["verdict"]
        elif f["type"] == "evidence":
            seen.setdefault(motive_idx[f["motive"]], {})["evidence"] = f["verdict"]
    table = np.zeros((len(board.motives), 3))
    for m, verdicts in seen.items():
        refutes = sum(v == "refutes" for v in verdicts.values())
        confirms = len(verdicts) - refutes
        refuted = _box_pattern_chance(confirms, refutes, recipe.refuting_boxes)
        herring = recipe.herring_motive if refutes == 0 else 0.0
        table[m, CRIME] = 0.0 if refutes == 0 else -math.inf
        table[m, CULPRIT] = _log(refuted)
        table[m, INNOCENT] = _log(herring + (1.0 - recipe.herring_motive) * refuted)
    return table


def _box_pattern_chance(confirms: int, refutes: int, refuting: tuple[float, ...]) -> float:
    """P(these seen boxes of a refuted motive show these verdicts): ``k`` of its
    :data:`BOXES_PER_MOTIVE` boxes refute with chance ``refuting[k - 1]``, which ones at random."""
    seen = confirms + refutes
    total = 0.0
    for k, p_k in enumerate(refuting, start=1):
        if refutes <= k and confirms <= BOXES_PER_MOTIVE - k:
            ways = math.comb(BOXES_PER_MOTIVE - seen, k - refutes)
            total += p_k * ways / math.comb(BOXES_PER_MOTIVE, k)
    return total


def _sighting_table(facts: Iterable[dict], level: str, board: Board) -> np.ndarray:
    """(suspects, suspects) log chance of the sightings seen, for murderer ``i`` and
    accomplice ``j`` (``j == i``: no accomplice)."""
    recipe = RECIPES[level]
    idx = {s: i for i, s in enumerate(board.suspects)}
    pairs = {frozenset(idx[s] for s in f["suspects"]) for f in facts if f["type"] == "together"}
    lone = {idx[f["suspect"]] for f in facts if f["type"] == "alone"}
    n = len(board.suspects)
    mean_pairs = sum(recipe.innocent_pairs) / 2
    mean_lone = sum(LONE_SIGHTINGS) / 2

    def chance(free: int, culprits: frozenset[int]) -> float:
        log_p = 0.0
        for pair in pairs:
            if pair == culprits:
                continue
            if pair & culprits:
                return -math.inf
            log_p += _log(min(mean_pairs, math.comb(free, 2)) / math.comb(free, 2))
        for s in lone:
            if s in culprits:
                return -math.inf
            log_p += _log(mean_lone / free)
        return log_p

    table = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            table[i, j] = chance(n, frozenset()) if i == j else chance(n - 2, frozenset((i, j)))
    return table


def candidate_log_weights(facts: Iterable[dict], level: str, board: Board = WALTON) -> np.ndarray:
    """The approximate log posterior (up to a constant) of every candidate of the enumeration
    (5,760 at accomplice levels, else 360; :func:`~parlour.envs.awkward_guests.case.solution.candidate_solutions`
    order, aligned with ``Deduction.candidate_mask()``) given ``facts``; ``-inf`` where the
    model rules a candidate out. Combine it with the engine's mask: only consistent candidates
    can be the solution."""
    if level not in RECIPES:
        raise ValueError(f"level must be one of {list(RECIPES)}, got {level!r}")
    facts = list(facts)
    accomplice_possible = level in ACCOMPLICE_LEVELS
    t = candidate_table(board)
    n = len(t.solutions) if accomplice_possible else t.n0
    roles = _roles(accomplice_possible, board)
    boxes = _box_table(facts, level, board)
    seen = np.flatnonzero(np.any(boxes != 0.0, axis=1))
    weights = boxes[seen[None, :], roles[:, seen]].sum(axis=1)
    weights += _sighting_table(facts, level, board)[t.murderer[:n], t.accomplice[:n]]
    if accomplice_possible:
        share = RECIPES[level].accomplice_share
        with_accomplice = np.arange(n) >= t.n0
        weights += np.where(with_accomplice, _log(share / (n - t.n0)), _log((1.0 - share) / t.n0))
    return weights
