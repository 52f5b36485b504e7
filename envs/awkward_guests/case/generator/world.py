"""Step 1 of the generator: the hidden truth (docs/case_model.md#hidden-truth) — :func:`sample_truth`.

Murderer ``M``, motive ``μ``, weapon ``w``; from ``medium`` on an accomplice ``A`` with motive
``α`` when the case has one. Start rooms are alibi rooms; innocents stay, ``M`` is in the Study,
``A`` anywhere but the Study (at levels without murder-time sightings ``A`` joins innocents in
an alibi room, so claims and head counts can tell ``A`` from ``M``). ``M``'s route is a random
shortest walk start room → weapon room → nearest entrance → Study. The boxes of ``μ``/``α`` all
confirm, every other motive of a culprit gets 1–3 refuting boxes, an innocent's motive is
refuted or never (a red herring). Staff saw ``M`` and ``A`` only together (1–2 sightings); other
sightings are innocent pairs (misleading ``together`` clues) and lone innocents. Alibi stories:
with an accomplice both culprits say "the two of us in room ``R``"; a lone murderer says "alone"
or names an innocent.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..board import WALTON, Board
from ..case import World
from ..solution import Solution
from .draws import choice_count, pick
from .recipes import RECIPES

__all__ = ["sample_truth", "CULPRIT_SIGHTINGS", "LONE_SIGHTINGS"]

#: with an accomplice, how many times (fewest, most) the staff saw ``M`` and ``A`` together
CULPRIT_SIGHTINGS = (1, 2)
#: how many suspects (fewest, most) the staff saw alone (drawn among those who may be seen)
LONE_SIGHTINGS = (1, 3)


def _walk_graph(board: Board) -> dict[str, tuple[str, ...]]:
    """Rooms reachable in one step, without entering the crime scene."""
    return {r: tuple(n for n in board.neighbours(r) if n != board.crime_scene) for r in board.rooms}


def _distances(graph: Mapping[str, tuple[str, ...]], target: str) -> dict[str, int]:
    dist = {target: 0}
    frontier = [target]
    while frontier:
        nxt = []
        for r in frontier:
            for n in graph[r]:  # two-way passages: graph is symmetric off the crime scene
                if n not in dist:
                    dist[n] = dist[r] + 1
                    nxt.append(n)
        frontier = nxt
    return dist


def _shortest_walk(
    rng: np.random.Generator, graph: Mapping[str, tuple[str, ...]], a: str, b: str
) -> list[str]:
    """A random shortest walk from ``a`` to ``b`` (both included)."""
    dist = _distances(graph, b)
    walk = [a]
    while walk[-1] != b:
        here = walk[-1]
        walk.append(pick(rng, [n for n in graph[here] if dist.get(n) == dist[here] - 1]))
    return walk


def _sample_route(
    rng: np.random.Generator, start: str, weapon_room: str, board: Board
) -> tuple[str, ...]:
    graph = _walk_graph(board)
    first = _shortest_walk(rng, graph, start, weapon_room)
    dist = {e: _distances(graph, e).get(weapon_room, 99) for e in board.study_entrances}
    best = min(dist.values())
    entrance = pick(rng, [e for e in board.study_entrances if dist[e] == best])
    second = _shortest_walk(rng, graph, weapon_room, entrance)
    return (*first, *second[1:], board.crime_scene)


def sample_truth(
    rng: np.random.Generator, level: str, with_accomplice: bool, board: Board = WALTON
) -> tuple[Solution, World]:
    """Draw a hidden truth (solution + world) obeying docs/case_model.md#hidden-truth for ``level``."""
    recipe = RECIPES[level]
    sus = board.suspects
    m = pick(rng, sus)
    mu = pick(rng, board.motives_of(m)).id
    w = pick(rng, board.weapons).id
    acc: str | None = None
    alpha: str | None = None
    if with_accomplice:
        acc = pick(rng, [s for s in sus if s != m])
        alpha = pick(rng, board.motives_of(acc)).id
    culprits = {m} | ({acc} if acc else set())
    innocents = [s for s in sus if s not in culprits]

    start = {s: pick(rng, board.alibi_rooms) for s in sus}
    locations = dict(start)
    locations[m] = board.crime_scene
    if acc is not None:
        if "seen_at_murder" in recipe.banned:
            # nobody reports where A was: A joins innocents, whose claims and head counts
            # can then place A outside the study (else A and M could swap roles)
            occupied = sorted({start[s] for s in innocents})
            locations[acc] = pick(rng, occupied or board.alibi_rooms)
        elif rng.random() < 0.5:
            locations[acc] = pick(rng, [r for r in board.rooms if r != board.crime_scene])
    route = _sample_route(rng, start[m], board.weapon(w).room, board)

    boxes: dict[str, dict[str, str]] = {}
    for mot in board.motives:
        names = [*mot.testifiers, "evidence"]
        b = dict.fromkeys(names, "confirms")
        refuted = mot.id not in (mu, alpha) and (
            mot.owner in culprits or rng.random() >= recipe.herring_motive
        )
        if refuted:
            k = choice_count(rng, recipe.refuting_boxes)
            for i in rng.permutation(3)[:k]:
                b[names[int(i)]] = "refutes"
        boxes[mot.id] = b

    non_study = [r for r in board.rooms if r != board.crime_scene]
    sightings: list[dict] = []
    if acc is not None:
        for _ in range(int(rng.integers(CULPRIT_SIGHTINGS[0], CULPRIT_SIGHTINGS[1] + 1))):
            sightings.append({"room": pick(rng, non_study), "suspects": sorted((m, acc))})
    free = innocents if acc is not None else list(sus)
    pairs = [(a, b) for i, a in enumerate(free) for b in free[i + 1 :]]
    lo, hi = recipe.innocent_pairs
    n_pairs = min(len(pairs), int(rng.integers(lo, hi + 1)))
    for i in rng.permutation(len(pairs))[:n_pairs]:
        sightings.append({"room": pick(rng, non_study), "suspects": sorted(pairs[int(i)])})
    lone_order = rng.permutation(len(free))  # (drawn before the count: the case stream)
    for i in lone_order[: int(rng.integers(LONE_SIGHTINGS[0], LONE_SIGHTINGS[1] + 1))]:
        sightings.append({"room": pick(rng, non_study), "suspects": [free[int(i)]]})
    order = rng.permutation(len(sightings))
    sightings = [sightings[int(i)] for i in order]

    alibis: dict[str, dict] = {}
    if acc is not None:
        r = pick(rng, board.alibi_rooms)
        alibis[m] = {"room": r, "with": [acc]}
        alibis[acc] = {"room": r, "with": [m]}
    else:
        with_ = [] if rng.random() < 0.6 else [pick(rng, innocents)]
        alibis[m] = {"room": pick(rng, board.alibi_rooms), "with": with_}

    sol = Solution(m, mu, w, acc, alpha)
    world = World(
        start_rooms=start,
        locations=locations,
        route=route,
        box_truths=boxes,
        sightings=tuple(sightings),
        alibis=alibis,
    )
    return sol, world
