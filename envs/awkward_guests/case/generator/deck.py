"""Step 4 of the generator: the deck — core copies and filler packed into cards.

Each core fact is told ``copies`` times (other speakers, the same speaker on another card when
``repeat`` allows, other refuting boxes of the motive, evidence found in other rooms, the unused
weapons behind a missing sign), plus filler: informative non-core facts (share
``informative``) and inert ones. At guarded levels an informative filler fact is admitted only
if every core fact stays needed (:class:`_Guard`), so the last core fact tends to come late.
Facts are packed into cards of one speaker with 1–3 facts (no two cards alike).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..board import Board
from ..case import ACCOMPLICE_LEVELS
from ..deduction import LOCAL_TYPES, Deduction
from .core import Core, exclusions, prefix_states, suffix_states
from .draws import choice_count, pick, weighted_order
from .pool import PoolItem
from .recipes import RECIPES, Recipe

__all__ = ["build_cards"]


def _copies(
    rng: np.random.Generator,
    core: list[PoolItem],
    pool: list[PoolItem],
    recipe: Recipe,
    board: Board,
) -> list[PoolItem]:
    """``copies - 1`` extra tellings of each core fact (easy levels), cycling through what
    carries the same information: the fact itself (told by other speakers, or again), the other
    refuting boxes of the same motive and evidence of it found in other rooms, and — for a
    missing sign, which only the police and the coroner report — the unused weapons leaving it."""
    lo, hi = recipe.copies
    out: list[PoolItem] = []
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
                        PoolItem({**o.fact, "room": r}, o.speakers, o.informative)
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


def _told_key(item: PoolItem, speaker: str) -> tuple:
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
    items: list[PoolItem],
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
    counts = told.counts  # keys: _told_key(item, speaker) == fact_key(item.told_by(speaker))
    while remaining and (max_cards is None or len(cards) < max_cards):
        first = remaining.pop(0)
        typ, tail = first.type, first.key_tail
        options = [s for s in first.speakers if counts.get((typ, s, *tail), 0) < repeat]
        if not options:
            continue
        size = choice_count(rng, probs)
        speaker = pick(rng, options)
        chosen = [first]
        taken = {(typ, speaker, *tail)}
        j = 0
        while len(chosen) < size and j < len(remaining):
            it = remaining[j]
            if speaker in it.speakers:
                key = _told_key(it, speaker)
                if key not in taken and counts.get(key, 0) < repeat:
                    chosen.append(it)
                    taken.add(key)
                    remaining.pop(j)
                    continue
            j += 1
        ident = frozenset(taken)
        if ident in told.cards:  # the very same card again: skip it
            continue
        told.cards.add(ident)
        for k in taken:
            counts[k] = counts.get(k, 0) + 1
        cards.append((speaker, [it.told_by(speaker) for it in chosen]))
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

    def __init__(self, core: list[PoolItem], acc_possible: bool, board: Board) -> None:
        self.acc_possible, self.board = acc_possible, board
        local = [it for it in core if it.type in LOCAL_TYPES]
        others = [it for it in core if it.type not in LOCAL_TYPES]
        self.excl = [exclusions(it.fact, acc_possible, board) for it in local]
        empty = Deduction(acc_possible, board)
        facts = [it.fact for it in others]
        prefix, suffix = prefix_states(empty, facts), suffix_states(empty, facts)
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

    def admit(self, item: PoolItem) -> bool:
        """Add ``item`` to the deck's facts if every core fact stays needed."""
        if item.type in LOCAL_TYPES:
            e = exclusions(item.fact, self.acc_possible, self.board)
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
    pool: list[PoolItem],
    recipe: Recipe,
    acc_possible: bool,
    board: Board,
) -> list[PoolItem]:
    """The informative non-core facts the deck may carry, preferred types first. At guarded
    levels only those that leave every core fact needed (at most ``trials`` location/route
    facts are tried: each costs a few engine updates)."""
    core_ids = {id(it) for it in core.items}
    rest = [it for it in pool if it.informative and id(it) not in core_ids]
    weights = np.array([recipe.weights.get(it.type, 0.0) + 0.05 for it in rest])
    rest = [rest[int(i)] for i in weighted_order(rng, weights)]
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
        self, informative: list[PoolItem], inert: list[PoolItem], share: float, board: Board
    ) -> None:
        self.queues = {True: informative, False: inert}
        self.pos = {True: 0, False: 0}
        self.share = share
        self.board = board

    def take(self, rng: np.random.Generator, n: int, rooms: int = 3) -> list[PoolItem]:
        """``n`` items; each evidence is told in at most ``rooms`` rooms."""
        out: list[PoolItem] = []
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
                room = pick(rng, self.board.rooms)  # the same box, found elsewhere too
                it = PoolItem({**it.fact, "room": room}, it.speakers, it.informative)
            self.pos[kind] += 1
            out.append(it)
        return out


def build_cards(
    rng: np.random.Generator,
    core: Core,
    pool: list[PoolItem],
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
