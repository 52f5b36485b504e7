"""The case generator: ``generate_case(level, seed, deck_size=70) -> Case``.

Deterministic per ``(level, seed)``: one ``np.random.default_rng([level index, seed])`` drives
every choice. A case is built in five steps and is never returned unverified:

1. **Hidden truth** (spec §2, :func:`sample_truth`). Murderer ``M``, motive ``μ``, weapon
   ``w``; from ``medium`` on an accomplice ``A`` with motive ``α`` in half the cases (decided
   once per seed, so that retries cannot bias the share). Start rooms are alibi rooms; innocents
   stay, ``M`` is in the Study, ``A`` anywhere but the Study (at levels without murder-time
   sightings ``A`` joins innocents in an alibi room, so claims and head counts can tell ``A``
   from ``M``). ``M``'s route is a random shortest walk start room → weapon room → nearest
   entrance → Study. The boxes of ``μ``/``α`` all confirm, every other motive of a culprit gets
   1–3 refuting boxes, an innocent's motive is refuted or never (a red herring). Staff saw
   ``M`` and ``A`` only together (1–2 sightings); other sightings are innocent pairs (misleading
   ``together`` clues) and lone innocents. Alibi stories: with an accomplice both culprits say
   "the two of us in room ``R``"; a lone murderer says "alone" or names an innocent.
2. **Fact pool** (:func:`true_fact_pool`): every true fact the level allows; *inert* facts
   (confirming evidence, ``together``; confirming testimony and ``apart``/``alone`` when no
   accomplice is possible) exclude no candidate.
3. **Core** (:func:`find_core`): a few combined-reasoning facts (claims, head counts, passages,
   start rooms, apart/alone) go into a draft up front (``seeded``, harder levels); then facts
   are tried in a random order weighted by the level's type preferences and kept when they
   shrink the candidate set (incremental engine), until one candidate is left. The draft is
   reduced to a **minimal core** (every fact needed), dropping the least preferred first:
   direct facts (unused weapons, murder-time sightings, refuting boxes, missing signs) at easy
   levels, combined reasoning at hard ones.
4. **Deck**: each core fact is told ``copies`` times (other speakers, the same speaker on
   another card when ``repeat`` allows, other refuting boxes of the motive, evidence found in
   other rooms, the unused weapons behind a missing sign), plus filler: informative non-core
   facts (share ``informative``) and inert ones. At guarded levels an informative filler fact
   is admitted only if every core fact stays needed (:class:`_Guard`), so the last core fact
   tends to come late. Facts are packed into cards of one speaker with 1–3 facts (no two cards
   alike), shuffled, ids ``0..n-1`` in shuffled order (id order reveals nothing).
5. **Verification** (:func:`verify_case`): the hidden world obeys §2, every fact is true
   (:mod:`truth`), and the full deck leaves exactly the true solution; otherwise the world is
   resampled from the same generator (deterministic) — after ``MAX_ATTEMPTS`` a
   ``RuntimeError`` (never observed).

Levels (``RECIPES``)
--------------------

==========  ==========  ==============  ======  =======  ===========  =====  ====================
level       accomplice  core preference copies  facts /  informative  guard  banned types
                                                core     filler
                                                card
==========  ==========  ==============  ======  =======  ===========  =====  ====================
beginner    never       direct          5×2     2–3      0.80         no     —
very_easy   never       direct          3–4×2   1–3      0.70         no     —
easy        never       mixed           2–3     1–3      0.60         no     —
medium      half        mixed           3       1–3      0.55         no     —
hard        half        combined        2       1        0.40         no     seen_at_murder
very_hard   half        combined        1–2     1        0.35         no     seen_at_murder
expert      half        combined        1       1        0.50         yes    weapon_unused,
                                                                             seen_at_murder
==========  ==========  ==============  ======  =======  ===========  =====  ====================

(×2: the same speaker may also tell a core fact on a second card.) Harder levels also have more
never-refuted innocent motives and more innocent pair sightings (red herrings). The measured
result — share of the deck read in random order until the solution is unique, card mix, values,
timing — is the level table of :mod:`stats` (``parlour case stats``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .board import WALTON, Board
from .case import ACCOMPLICE_LEVELS, LEVELS, Case, Solution, World, make_card
from .deduction import Deduction
from .facts import fact_key
from .truth import fact_is_true_in, route_passages, world_violations

__all__ = [
    "LEVELS",
    "RECIPES",
    "Recipe",
    "generate_case",
    "DEFAULT_DECK_SIZE",
    "MIN_DECK_SIZE",
    "MAX_DECK_SIZE",
    "MAX_ATTEMPTS",
]

DEFAULT_DECK_SIZE = 70
MIN_DECK_SIZE = 24
MAX_DECK_SIZE = 200
MAX_ATTEMPTS = 40

#: Fact types that give a piece of the answer directly (no combination needed).
DIRECT = ("weapon_unused", "seen_at_murder")
#: Fact types whose effect on the candidates does not depend on other facts (their exclusions
#: simply add up); every other informative type constrains the hidden locations / route jointly.
LOCAL_TYPES = frozenset(
    {"sign_absent", "weapon_unused", "testimony", "evidence", "together", "apart", "alone"}
)
#: Fact types that only act in combination (claims against claims, head counts, passages, ...).
COMBINED_TYPES = ("claim", "guest_count", "passage_unused", "seen_before", "apart", "alone")


@dataclass(frozen=True)
class Recipe:
    """How one level builds its deck (see the module table)."""

    weights: Mapping[str, float]  # preference of each fact type in the core (0: never)
    seeded: tuple[int, int]  # combined-reasoning facts put into the core draft up front
    copies: tuple[int, int]  # each core fact is told lo..hi times (other speakers/boxes)
    core_bundle: tuple[float, float, float]  # P(1, 2, 3 core facts on a card)
    filler_bundle: tuple[float, float, float]  # P(1, 2, 3 facts on a filler card)
    informative: float  # share of filler facts that carry information (else inert)
    guard: bool  # informative filler may not make any core fact unnecessary
    trials: int  # at guarded levels: location/route filler facts tried against the guard
    herring_motive: float  # P(an innocent's motive is never refuted: a red herring)
    innocent_pairs: tuple[int, int]  # innocent pairs seen together (misleading `together`)
    refuting_boxes: tuple[float, float, float]  # P(1, 2, 3 refuting boxes) of a refuted motive
    accomplice_share: float = 0.0
    banned: tuple[str, ...] = ()
    repeat: int = 1  # a speaker may tell the same fact on this many (different) cards


_DIRECT_W = {
    "seen_at_murder": 4.0,
    "sign_absent": 3.0,
    "testimony": 2.0,
    "evidence": 2.0,
    "weapon_unused": 1.0,
    "claim": 0.4,
    "seen_before": 0.3,
    "guest_count": 0.2,
    "passage_unused": 0.2,
    "apart": 0.5,
    "alone": 0.5,
}
_MIXED_W = {
    "seen_at_murder": 1.5,
    "sign_absent": 2.0,
    "testimony": 1.5,
    "evidence": 1.2,
    "weapon_unused": 1.0,
    "claim": 1.2,
    "seen_before": 1.0,
    "guest_count": 1.0,
    "passage_unused": 1.0,
    "apart": 1.0,
    "alone": 1.0,
}
_INDIRECT_W = {
    "seen_at_murder": 0.0,
    "weapon_unused": 0.3,
    "evidence": 0.6,
    "testimony": 1.0,
    "sign_absent": 1.5,
    "seen_before": 1.5,
    "alone": 1.5,
    "apart": 2.0,
    "claim": 2.5,
    "guest_count": 2.5,
    "passage_unused": 2.5,
}

RECIPES: dict[str, Recipe] = {
    "beginner": Recipe(
        weights=_DIRECT_W,
        seeded=(0, 0),
        copies=(5, 5),
        core_bundle=(0.0, 0.5, 0.5),
        filler_bundle=(0.2, 0.4, 0.4),
        informative=0.8,
        guard=False,
        trials=0,
        herring_motive=0.1,
        innocent_pairs=(0, 1),
        refuting_boxes=(0.0, 0.2, 0.8),
        repeat=2,
    ),
    "very_easy": Recipe(
        weights=_DIRECT_W,
        seeded=(0, 1),
        copies=(3, 4),
        core_bundle=(0.2, 0.5, 0.3),
        filler_bundle=(0.3, 0.4, 0.3),
        informative=0.7,
        guard=False,
        trials=0,
        herring_motive=0.15,
        innocent_pairs=(1, 1),
        refuting_boxes=(0.3, 0.4, 0.3),
        repeat=2,
    ),
    "easy": Recipe(
        weights=_MIXED_W,
        seeded=(1, 2),
        copies=(2, 3),
        core_bundle=(0.4, 0.4, 0.2),
        filler_bundle=(0.4, 0.4, 0.2),
        informative=0.6,
        guard=False,
        trials=0,
        herring_motive=0.2,
        innocent_pairs=(1, 2),
        refuting_boxes=(0.4, 0.4, 0.2),
    ),
    "medium": Recipe(
        weights=_MIXED_W,
        seeded=(2, 3),
        copies=(3, 3),
        core_bundle=(0.3, 0.4, 0.3),
        filler_bundle=(0.5, 0.35, 0.15),
        informative=0.55,
        guard=False,
        trials=0,
        herring_motive=0.25,
        innocent_pairs=(1, 2),
        refuting_boxes=(0.5, 0.35, 0.15),
        accomplice_share=0.5,
    ),
    "hard": Recipe(
        weights=_INDIRECT_W,
        seeded=(3, 5),
        copies=(2, 2),
        core_bundle=(1.0, 0.0, 0.0),
        filler_bundle=(0.7, 0.25, 0.05),
        informative=0.4,
        guard=False,
        trials=0,
        herring_motive=0.4,
        innocent_pairs=(2, 3),
        refuting_boxes=(0.6, 0.3, 0.1),
        accomplice_share=0.5,
        banned=("seen_at_murder",),
    ),
    "very_hard": Recipe(
        weights=_INDIRECT_W,
        seeded=(4, 6),
        copies=(1, 2),
        core_bundle=(1.0, 0.0, 0.0),
        filler_bundle=(0.8, 0.2, 0.0),
        informative=0.35,
        guard=False,
        trials=0,
        herring_motive=0.5,
        innocent_pairs=(2, 4),
        refuting_boxes=(0.7, 0.25, 0.05),
        accomplice_share=0.5,
        banned=("seen_at_murder",),
    ),
    "expert": Recipe(
        weights=_INDIRECT_W,
        seeded=(5, 8),
        copies=(1, 1),
        core_bundle=(1.0, 0.0, 0.0),
        filler_bundle=(0.9, 0.1, 0.0),
        informative=0.5,
        guard=True,
        trials=4,
        herring_motive=0.5,
        innocent_pairs=(3, 5),
        refuting_boxes=(0.8, 0.2, 0.0),
        accomplice_share=0.5,
        banned=DIRECT,
    ),
}


# -- hidden truth ---------------------------------------------------------------------------


def _pick(rng: np.random.Generator, seq: Any) -> Any:
    seq = list(seq)
    return seq[int(rng.integers(len(seq)))]


def _choice_count(rng: np.random.Generator, probs: tuple[float, ...]) -> int:
    """1, 2 or 3 with the given probabilities."""
    u = rng.random() * sum(probs)
    acc = 0.0
    for k, p in enumerate(probs, start=1):
        acc += p
        if u < acc:
            return k
    return len(probs)


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
        walk.append(_pick(rng, [n for n in graph[here] if dist.get(n) == dist[here] - 1]))
    return walk


def _sample_route(
    rng: np.random.Generator, start: str, weapon_room: str, board: Board
) -> tuple[str, ...]:
    graph = _walk_graph(board)
    first = _shortest_walk(rng, graph, start, weapon_room)
    dist = {e: _distances(graph, e).get(weapon_room, 99) for e in board.study_entrances}
    best = min(dist.values())
    entrance = _pick(rng, [e for e in board.study_entrances if dist[e] == best])
    second = _shortest_walk(rng, graph, weapon_room, entrance)
    return (*first, *second[1:], board.crime_scene)


def sample_truth(
    rng: np.random.Generator, level: str, with_accomplice: bool, board: Board = WALTON
) -> tuple[Solution, World]:
    """Draw a hidden truth (solution + world) obeying spec §2 for ``level``."""
    recipe = RECIPES[level]
    sus = board.suspects
    m = _pick(rng, sus)
    mu = _pick(rng, board.motives_of(m)).id
    w = _pick(rng, board.weapons).id
    acc: str | None = None
    alpha: str | None = None
    if with_accomplice:
        acc = _pick(rng, [s for s in sus if s != m])
        alpha = _pick(rng, board.motives_of(acc)).id
    culprits = {m} | ({acc} if acc else set())
    innocents = [s for s in sus if s not in culprits]

    start = {s: _pick(rng, board.alibi_rooms) for s in sus}
    locations = dict(start)
    locations[m] = board.crime_scene
    if acc is not None:
        if "seen_at_murder" in recipe.banned:
            # nobody reports where A was: A joins innocents, whose claims and head counts
            # can then place A outside the study (else A and M could swap roles)
            occupied = sorted({start[s] for s in innocents})
            locations[acc] = _pick(rng, occupied or board.alibi_rooms)
        elif rng.random() < 0.5:
            locations[acc] = _pick(rng, [r for r in board.rooms if r != board.crime_scene])
    route = _sample_route(rng, start[m], board.weapon(w).room, board)

    boxes: dict[str, dict[str, str]] = {}
    for mot in board.motives:
        names = [*mot.testifiers, "evidence"]
        b = dict.fromkeys(names, "confirms")
        refuted = mot.id not in (mu, alpha) and (
            mot.owner in culprits or rng.random() >= recipe.herring_motive
        )
        if refuted:
            k = _choice_count(rng, recipe.refuting_boxes)
            for i in rng.permutation(3)[:k]:
                b[names[int(i)]] = "refutes"
        boxes[mot.id] = b

    non_study = [r for r in board.rooms if r != board.crime_scene]
    sightings: list[dict] = []
    if acc is not None:
        for _ in range(int(rng.integers(1, 3))):
            sightings.append({"room": _pick(rng, non_study), "suspects": sorted((m, acc))})
    free = innocents if acc is not None else list(sus)
    pairs = [(a, b) for i, a in enumerate(free) for b in free[i + 1 :]]
    lo, hi = recipe.innocent_pairs
    n_pairs = min(len(pairs), int(rng.integers(lo, hi + 1)))
    for i in rng.permutation(len(pairs))[:n_pairs]:
        sightings.append({"room": _pick(rng, non_study), "suspects": sorted(pairs[int(i)])})
    for i in rng.permutation(len(free))[: int(rng.integers(1, 4))]:
        sightings.append({"room": _pick(rng, non_study), "suspects": [free[int(i)]]})
    order = rng.permutation(len(sightings))
    sightings = [sightings[int(i)] for i in order]

    alibis: dict[str, dict] = {}
    if acc is not None:
        r = _pick(rng, board.alibi_rooms)
        alibis[m] = {"room": r, "with": [acc]}
        alibis[acc] = {"room": r, "with": [m]}
    else:
        with_ = [] if rng.random() < 0.6 else [_pick(rng, innocents)]
        alibis[m] = {"room": _pick(rng, board.alibi_rooms), "with": with_}

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


# -- the pool of true facts -----------------------------------------------------------------


@dataclass
class _Item:
    """A true fact (with a default speaker) and every speaker who may tell it."""

    fact: dict
    speakers: tuple[str, ...]
    informative: bool

    @functools.cached_property
    def type(self) -> str:
        return self.fact["type"]

    @functools.cached_property
    def key_tail(self) -> tuple:
        """``fact_key`` of the fact without its type and speaker (the same for every teller)."""
        return fact_key(self.fact)[2:]

    def told_by(self, speaker: str) -> dict:
        f = dict(self.fact)
        f["speaker"] = speaker
        return f


def _fact(ftype: str, speaker: str, **fields: Any) -> dict:
    return {"type": ftype, "speaker": speaker, **fields}


def true_fact_pool(
    rng: np.random.Generator, sol: Solution, world: World, level: str, board: Board = WALTON
) -> list[_Item]:
    """Every true fact of the case that ``level`` allows (one item per content)."""
    banned = set(RECIPES[level].banned)
    acc_possible = level in ACCOMPLICE_LEVELS
    m, acc = sol.murderer, sol.accomplice
    staff = board.staff
    items: list[_Item] = []

    def add(f: dict, speakers: tuple[str, ...], informative: bool = True) -> None:
        if f["type"] not in banned:
            items.append(_Item(f, speakers, informative))

    wsigns = board.weapon(sol.weapon).signs
    for s in board.signs:
        if s not in wsigns:
            add(_fact("sign_absent", "police", sign=s), ("police", "coroner"))
    for wp in board.weapons:
        if wp.id != sol.weapon:
            add(_fact("weapon_unused", staff[0], weapon=wp.id), staff)
    used = route_passages(world.route)
    for p in board.passages:
        if frozenset((p.frm, p.to)) not in used:
            add({"type": "passage_unused", "speaker": staff[0], "from": p.frm, "to": p.to}, staff)
    for s in board.suspects:
        add(_fact("seen_before", staff[0], suspect=s, room=world.start_rooms[s]), staff)
    for s in board.suspects:
        if s != m:
            add(_fact("seen_at_murder", staff[0], suspect=s, room=world.locations[s]), staff)
    for r in board.alibi_rooms:
        count = sum(board.head_count[s] for s, loc in world.locations.items() if loc == r)
        add(_fact("guest_count", staff[0], room=r, count=count), staff)
    for s in board.suspects:
        if s in world.alibis and s in (m, acc):
            story = world.alibis[s]
            room, with_ = story["room"], list(story["with"])
        else:
            room = world.locations[s]
            with_ = sorted(x for x, loc in world.locations.items() if loc == room and x != s)
        add({"type": "claim", "speaker": s, "suspect": s, "room": room, "with": with_}, (s,))
    for mot in board.motives:
        for t in mot.testifiers:
            if acc is not None and (
                (t == acc and mot.id == sol.motive) or (t == m and mot.id == sol.accomplice_motive)
            ):
                continue
            v = world.box_truths[mot.id][t]
            # a confirming testimony still tells who does not testify about the crime
            # motive (rule 8) when an accomplice is possible
            add(
                _fact("testimony", t, suspect=mot.owner, motive=mot.id, verdict=v),
                (t,),
                v == "refutes" or acc_possible,
            )
        v = world.box_truths[mot.id]["evidence"]
        room = _pick(rng, board.rooms)
        add(
            _fact("evidence", "police", suspect=mot.owner, motive=mot.id, verdict=v, room=room),
            ("police",),
            v == "refutes",
        )
    seen_pairs = set()
    for g in world.sightings:
        who = list(g["suspects"])
        if len(who) == 2:
            seen_pairs.add(frozenset(who))
            add(_fact("together", staff[0], suspects=who, room=g["room"]), staff, False)
        else:
            add(_fact("alone", staff[0], suspect=who[0], room=g["room"]), staff, acc_possible)
    sus = board.suspects
    for i, a in enumerate(sus):
        for b in sus[i + 1 :]:
            pair = frozenset((a, b))
            if pair in seen_pairs or (acc is not None and pair == frozenset((m, acc))):
                continue
            add(_fact("apart", staff[0], suspects=[a, b]), staff, acc_possible)
    return items


# -- the core: facts that make the solution unique ------------------------------------------


def _weighted_order(rng: np.random.Generator, weights: np.ndarray) -> np.ndarray:
    """A random order in which heavier items tend to come first (exponential race)."""
    keys = rng.exponential(size=len(weights)) / np.maximum(weights, 1e-12)
    return np.argsort(keys, kind="stable")


@dataclass
class Core:
    """A minimal set of facts that leaves exactly the true solution (every one is needed)."""

    items: list[_Item]


_EXCLUSIONS: dict[tuple, np.ndarray] = {}
_FREE_ROOM = ("evidence", "together", "alone")  # their room constrains nothing


def _exclusions(fact: dict, acc_possible: bool, board: Board) -> np.ndarray:
    """The candidates a *local* fact rules out on its own (bool mask; cached, read-only)."""
    t = fact["type"]
    key = (
        board.name,
        acc_possible,
        t,
        fact["speaker"] if t == "testimony" else None,
        *(
            tuple(v) if isinstance(v, list) else v
            for k, v in fact.items()
            if k not in ("type", "speaker") and not (k == "room" and t in _FREE_ROOM)
        ),
    )
    out = _EXCLUSIONS.get(key)
    if out is None:
        d = Deduction(acc_possible, board)
        d.add_facts((fact,), validate=False)
        out = ~d.candidate_mask()
        out.flags.writeable = False
        _EXCLUSIONS[key] = out
    return out


def find_core(
    rng: np.random.Generator, pool: list[_Item], level: str, board: Board = WALTON
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
    order = [int(i) for i in _weighted_order(rng, weights)]
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
            excl = _exclusions(fact, acc_possible, board)
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
    draft: list[_Item],
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
    excl = {i: _exclusions(draft[i].fact, acc_possible, board) for i in local}
    size = Deduction(acc_possible, board).candidate_mask().size
    hits = np.zeros(size, dtype=np.int16)  # how many local draft facts exclude each candidate
    for i in local:
        hits += excl[i]
    untested = [i for i in order if i not in local]
    prefix = Deduction(acc_possible, board)  # the non-local facts decided to stay
    suffix = _suffix_states(prefix, [draft[i].fact for i in untested])
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


def _suffix_states(empty: Deduction, facts: list[dict]) -> list[Deduction]:
    """``out[k]``: ``empty`` plus ``facts[k:]`` (``out[len(facts)]`` is a copy of ``empty``)."""
    out = [empty.clone()]
    for f in reversed(facts):
        d = out[-1].clone()
        d.add_facts((f,), validate=False)
        out.append(d)
    out.reverse()
    return out


def _prefix_states(empty: Deduction, facts: list[dict]) -> list[Deduction]:
    """``out[k]``: ``empty`` plus ``facts[:k]``."""
    out = [empty.clone()]
    for f in facts:
        d = out[-1].clone()
        d.add_facts((f,), validate=False)
        out.append(d)
    return out


# -- the deck -------------------------------------------------------------------------------


def _copies(
    rng: np.random.Generator, core: list[_Item], pool: list[_Item], recipe: Recipe, board: Board
) -> list[_Item]:
    """``copies - 1`` extra tellings of each core fact (easy levels), cycling through what
    carries the same information: the fact itself (told by other speakers, or again), the other
    refuting boxes of the same motive and evidence of it found in other rooms, and — for a
    missing sign, which only the police and the coroner report — the unused weapons leaving it."""
    lo, hi = recipe.copies
    out: list[_Item] = []
    for it in core:
        extra = int(rng.integers(lo, hi + 1)) - 1
        if extra <= 0:
            continue
        alts = [it]
        if it.type in ("testimony", "evidence"):
            alts = [
                o
                for o in pool
                if o.type in ("testimony", "evidence")
                and o.fact["motive"] == it.fact["motive"]
                and o.fact["verdict"] == "refutes"
            ]
            for o in list(alts):
                if o.type == "evidence":  # the same box, found in other rooms too
                    alts += [
                        _Item({**o.fact, "room": r}, o.speakers, o.informative)
                        for r in board.rooms
                        if r != o.fact["room"]
                    ]
        elif it.type == "sign_absent":
            alts += [
                o
                for o in pool
                if o.type == "weapon_unused"
                and it.fact["sign"] in board.weapon(o.fact["weapon"]).signs
            ]
        others = [o for o in alts if o is not it]
        others = [others[int(k)] for k in rng.permutation(len(others))]
        again = len(it.speakers) * recipe.repeat - 1  # the fact itself, told again
        cycle = [it] * again + others
        out.extend(cycle[k % len(cycle)] for k in range(extra) if cycle)
    return out


def _told_key(item: _Item, speaker: str) -> tuple:
    """``fact_key(item.told_by(speaker))``."""
    return (item.type, speaker, *item.key_tail)


@dataclass
class _Told:
    """What the deck already says: how often each (speaker, fact) is told, and every card."""

    counts: dict[tuple, int]
    cards: set[frozenset]

    @classmethod
    def empty(cls) -> _Told:
        return cls({}, set())


def _pack(
    rng: np.random.Generator,
    items: list[_Item],
    probs: tuple[float, float, float],
    told: _Told,
    repeat: int = 1,
    max_cards: int | None = None,
) -> list[tuple[str, list[dict]]]:
    """Pack items (in the given order) into cards of one speaker with 1–3 facts each.

    The same speaker tells the same fact on at most ``repeat`` cards, never twice on one card,
    and no two cards of the deck are identical."""
    remaining = list(items)
    cards: list[tuple[str, list[dict]]] = []

    def free(it: _Item, speaker: str, taken: set[tuple]) -> bool:
        key = _told_key(it, speaker)
        return key not in taken and told.counts.get(key, 0) < repeat

    while remaining and (max_cards is None or len(cards) < max_cards):
        first = remaining.pop(0)
        options = [s for s in first.speakers if free(first, s, set())]
        if not options:
            continue
        size = _choice_count(rng, probs)
        speaker = _pick(rng, options)
        facts = [first.told_by(speaker)]
        taken = {fact_key(facts[0])}
        j = 0
        while len(facts) < size and j < len(remaining):
            it = remaining[j]
            if speaker in it.speakers and free(it, speaker, taken):
                facts.append(it.told_by(speaker))
                taken.add(fact_key(facts[-1]))
                remaining.pop(j)
            else:
                j += 1
        ident = frozenset(taken)
        if ident in told.cards:  # the very same card again: skip it
            continue
        told.cards.add(ident)
        for k in taken:
            told.counts[k] = told.counts.get(k, 0) + 1
        cards.append((speaker, facts))
    return cards


class _Guard:
    """Keeps every core fact needed while informative filler is added (guarded levels).

    The deck's facts are the core plus the accepted filler; for each core fact ``c`` the facts
    without ``c`` must leave more than one candidate. Local facts act through their exclusion
    masks; location/route facts through engine states: ``state`` holds all of them,
    ``without[c]`` all but the non-local core fact ``c``. Kept per core fact: the wrong
    candidates that only ``c`` rules out (``only[c]``, index arrays); ``c`` stays needed while
    one of them survives the filler (kept as one array ``only_all`` with the core fact of each
    entry in ``only_of``)."""

    def __init__(self, core: list[_Item], acc_possible: bool, board: Board) -> None:
        self.acc_possible, self.board = acc_possible, board
        local = [it for it in core if it.type in LOCAL_TYPES]
        others = [it for it in core if it.type not in LOCAL_TYPES]
        self.excl = [_exclusions(it.fact, acc_possible, board) for it in local]
        empty = Deduction(acc_possible, board)
        facts = [it.fact for it in others]
        prefix, suffix = _prefix_states(empty, facts), _suffix_states(empty, facts)
        self.state = suffix[0]
        size = self.state.candidate_mask().size
        self.hits = np.zeros(size, dtype=np.int16)  # local facts excluding each candidate
        for e in self.excl:
            self.hits += e
        # without[k]: every non-local core fact but the k-th
        self.without = [prefix[k].merged(suffix[k + 1]) for k in range(len(others))]
        self._index()

    def _index(self) -> None:
        alive = self.state.candidate_mask()
        once = alive & (self.hits == 1)
        only = [np.flatnonzero(once & e) for e in self.excl]
        free = self.hits == 0
        only += [np.flatnonzero(d.candidate_mask() & free & ~alive) for d in self.without]
        # all of them in one array, with the core fact each belongs to
        self.only_all = np.concatenate(only) if only else np.zeros(0, dtype=np.intp)
        self.only_of = np.repeat(np.arange(len(only)), [len(o) for o in only])
        self.n_only = len(only)

    def admit(self, item: _Item) -> bool:
        """Add ``item`` to the deck's facts if every core fact stays needed."""
        if item.type in LOCAL_TYPES:
            e = _exclusions(item.fact, self.acc_possible, self.board)
            keep = ~e[self.only_all]  # the candidates that survive the new fact
            of = self.only_of[keep]
            if np.bincount(of, minlength=self.n_only).min(initial=1) == 0:
                return False  # some core fact would lose every candidate only it rules out
            self.hits = self.hits + e
            self.only_all = self.only_all[keep]
            self.only_of = of
            return True
        free = self.hits == 0
        state = self.state.clone()
        state.add_facts((item.fact,), validate=False)
        alive = state.candidate_mask()
        once = alive & (self.hits == 1)
        if any(not (once & e).any() for e in self.excl):
            return False
        without = []
        for d in self.without:
            d = d.clone()
            d.add_facts((item.fact,), validate=False)
            if not (d.candidate_mask() & free & ~alive).any():
                return False
            without.append(d)
        self.state, self.without = state, without
        self._index()
        return True


def _informative_filler(
    rng: np.random.Generator,
    core: Core,
    pool: list[_Item],
    recipe: Recipe,
    acc_possible: bool,
    board: Board,
) -> list[_Item]:
    """The informative non-core facts the deck may carry, preferred types first. At guarded
    levels only those that leave every core fact needed (at most ``trials`` location/route
    facts are tried: each costs a few engine updates)."""
    core_ids = {id(it) for it in core.items}
    rest = [it for it in pool if it.informative and id(it) not in core_ids]
    weights = np.array([recipe.weights.get(it.type, 0.0) + 0.05 for it in rest])
    rest = [rest[int(i)] for i in _weighted_order(rng, weights)]
    if not recipe.guard:
        return rest
    guard = _Guard(core.items, acc_possible, board)
    out, trials = [], recipe.trials
    for it in rest:
        if it.type not in LOCAL_TYPES:
            if trials <= 0:
                continue
            trials -= 1
        if guard.admit(it):
            out.append(it)
    return out


class _Filler:
    """Filler items: informative with probability ``informative``, inert (confirming evidence,
    ``together``, ...) otherwise. A source that runs out is told again (by other speakers;
    evidence found in another room)."""

    def __init__(
        self, informative: list[_Item], inert: list[_Item], share: float, board: Board
    ) -> None:
        self.queues = {True: informative, False: inert}
        self.pos = {True: 0, False: 0}
        self.share = share
        self.board = board

    def take(self, rng: np.random.Generator, n: int, rooms: int = 3) -> list[_Item]:
        """``n`` items; each evidence is told in at most ``rooms`` rooms."""
        out: list[_Item] = []
        for _ in range(n):
            kind = bool(rng.random() < self.share)
            if not self.queues[kind]:
                kind = not kind
            q = self.queues[kind]
            it = q[self.pos[kind] % len(q)]
            if it.type == "evidence" and self.pos[kind] >= len(q):
                if self.pos[kind] >= rooms * len(q):
                    self.pos[kind] += 1
                    continue
                room = _pick(rng, self.board.rooms)  # the same box, found elsewhere too
                it = _Item({**it.fact, "room": room}, it.speakers, it.informative)
            self.pos[kind] += 1
            out.append(it)
        return out


def _build_cards(
    rng: np.random.Generator,
    core: Core,
    pool: list[_Item],
    level: str,
    deck_size: int,
    board: Board,
) -> list[tuple[str, list[dict]]] | None:
    recipe = RECIPES[level]
    acc_possible = level in ACCOMPLICE_LEVELS
    told = _Told.empty()
    core_items = core.items + _copies(rng, core.items, pool, recipe, board)
    core_items = [core_items[int(i)] for i in rng.permutation(len(core_items))]
    cards = _pack(rng, core_items, recipe.core_bundle, told, recipe.repeat)
    if len(cards) > deck_size:  # a small deck: drop the copies, bundle as much as possible
        told = _Told.empty()
        cards = _pack(rng, list(core.items), (0.0, 0.0, 1.0), told)
        if len(cards) > deck_size:
            return None
    informative = _informative_filler(rng, core, pool, recipe, acc_possible, board)
    inert = [it for it in pool if not it.informative]
    inert = [inert[int(i)] for i in rng.permutation(len(inert))]
    need = deck_size - len(cards)
    mean_size = float(np.dot((1, 2, 3), recipe.filler_bundle) / sum(recipe.filler_bundle))
    filler = _Filler(informative, inert, recipe.informative, board)
    bundle = recipe.filler_bundle
    for extra in range(8):  # the tellers may run out (large decks): top up, repeating more
        if need <= 0:
            break
        items = filler.take(rng, int(need * mean_size * (1 + extra)) + 8, rooms=3 + 2 * extra)
        cards.extend(_pack(rng, items, bundle, told, recipe.repeat + extra, need))
        need = deck_size - len(cards)
        bundle, mean_size = (0.2, 0.4, 0.4), 2.2  # facts told already: new bundles of them
    return cards if len(cards) == deck_size else None


# -- generate and verify --------------------------------------------------------------------


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
    if not isinstance(seed, int | np.integer) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed!r}")
    if (
        not isinstance(deck_size, int | np.integer)
        or isinstance(deck_size, bool)
        or not MIN_DECK_SIZE <= deck_size <= MAX_DECK_SIZE
    ):
        raise ValueError(
            f"deck_size must be an int in {MIN_DECK_SIZE}..{MAX_DECK_SIZE}, got {deck_size!r}"
        )
    seed, deck_size = int(seed), int(deck_size)
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
        drafts = _build_cards(rng, core, pool, level, deck_size, board)
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
