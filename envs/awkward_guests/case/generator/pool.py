"""Step 2 of the generator: the pool of true facts — :func:`true_fact_pool`.

Every true fact the level allows, one :class:`PoolItem` per content with every speaker who may
tell it. *Inert* facts (confirming evidence, ``together``; confirming testimony and
``apart``/``alone`` when no accomplice is possible) exclude no candidate.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..board import WALTON, Board
from ..case import ACCOMPLICE_LEVELS, World
from ..facts import fact_key
from ..solution import Solution
from ..truth import route_passages
from .draws import pick
from .recipes import RECIPES

__all__ = ["PoolItem", "true_fact_pool"]


@dataclass
class PoolItem:
    """A true fact (with a default speaker) and every speaker who may tell it."""

    fact: dict
    speakers: tuple[str, ...]
    informative: bool
    type: str = field(init=False, repr=False, compare=False)
    _key_tail: tuple | None = field(init=False, repr=False, compare=False, default=None)

    def __post_init__(self) -> None:
        self.type = self.fact["type"]

    @property
    def key_tail(self) -> tuple:
        """``fact_key`` of the fact without its type and speaker (the same for every teller)."""
        kt = self._key_tail
        if kt is None:
            kt = self._key_tail = fact_key(self.fact)[2:]
        return kt

    def told_by(self, speaker: str) -> dict:
        f = dict(self.fact)
        f["speaker"] = speaker
        return f


def _fact(ftype: str, speaker: str, **fields: Any) -> dict:
    return {"type": ftype, "speaker": speaker, **fields}


def true_fact_pool(
    rng: np.random.Generator, sol: Solution, world: World, level: str, board: Board = WALTON
) -> list[PoolItem]:
    """Every true fact of the case that ``level`` allows (one item per content)."""
    banned = set(RECIPES[level].banned)
    acc_possible = level in ACCOMPLICE_LEVELS
    m, acc = sol.murderer, sol.accomplice
    staff = board.staff
    items: list[PoolItem] = []

    def add(f: dict, speakers: tuple[str, ...], informative: bool = True) -> None:
        if f["type"] not in banned:
            items.append(PoolItem(f, speakers, informative))

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
        room = pick(rng, board.rooms)
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
