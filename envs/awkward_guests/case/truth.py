"""Ground truth: is a fact true of a case's hidden world? (the independent soundness check)

The deduction engine (``deduction.py``) reasons from the *players'* side: which solutions are
consistent with the facts. This module reasons from the *case's* side: it reads the hidden truth
(docs/case_model.md#hidden-truth: solution, start rooms, locations, route, proof boxes, the evening's staff sightings and
the culprits' alibi stories) and says whether each fact is true. A case is **sound** when every
fact on every card is true; ``parlour case check`` and the tests use :func:`unsound_facts`, and
:func:`world_violations` checks that the hidden truth itself obeys docs/case_model.md#hidden-truth.

When each fact type is true (``M`` murderer, ``μ`` motive, ``w`` weapon, ``A``/``α`` accomplice):

==================  =================================================================================
type                true when
==================  =================================================================================
``sign_absent``     ``w`` does not leave ``sign``
``weapon_unused``   ``weapon != w``
``passage_unused``  the passage is not on ``M``'s route (two-way passages in either direction)
``seen_before``     the suspect's start room is ``room``
``seen_at_murder``  the suspect's location at the murder is ``room`` and the suspect is not ``M``
                    (nobody saw the murder)
``guest_count``     the head count (Berwick Sisters = 2) of suspects in ``room`` at the murder
                    is ``count``
``claim``           innocent speaker: they were in ``room`` and ``with`` is exactly everyone else
                    there (an accomplice there included). Culprit speaker: the claim is the alibi
                    story the world gives them (``world.alibis``): with an accomplice ``M`` says
                    ``(R, [A])`` and ``A`` says ``(R, [M])`` for one alibi room ``R`` (rule 8);
                    a lone murderer tells whatever story the world records
``testimony``       the box of ``motive`` for that testifier has ``verdict``, and it is not ``A``
                    about ``μ`` nor ``M`` about ``α`` (rule 8: they never testify about the other's
                    real motive)
``evidence``        the physical-evidence box of ``motive`` has ``verdict`` (``room`` is free)
``together``        some staff sighting shows both suspects together in ``room``
``apart``           no staff sighting shows the two together, and they are not the pair ``M``,``A``
``alone``           some staff sighting shows the suspect alone in ``room``, and with an accomplice
                    the suspect is neither ``M`` nor ``A``
==================  =================================================================================

A fact whose fields do not fit its type (unknown ids, wrong suspect for a motive) is false; an
unknown fact type raises ``ValueError``.

The staff sightings (``world.sightings``) are a list of ``{"room", "suspects"}`` groups (1 or 2
suspects); with an accomplice every group holding ``M`` or ``A`` holds both, and at least one
group holds them (docs/case_model.md#hidden-truth: the pair was only ever seen together).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .board import WALTON, Board
from .facts import FACT_TYPES

__all__ = [
    "FACT_TYPES",
    "fact_is_true",
    "fact_is_true_in",
    "unsound_facts",
    "world_violations",
    "route_passages",
]


def route_passages(route: tuple[str, ...] | list[str]) -> set[frozenset[str]]:
    """The passages a route uses, each as the unordered pair of its rooms."""
    return {frozenset((a, b)) for a, b in zip(route, route[1:], strict=False)}


def _companions(world: Any, suspect: str, room: str) -> list[str]:
    return sorted(s for s, r in world.locations.items() if r == room and s != suspect)


def _seen_groups(world: Any) -> list[tuple[str, frozenset[str]]]:
    return [(g["room"], frozenset(g["suspects"])) for g in world.sightings]


def fact_is_true_in(
    fact: Mapping[str, Any], solution: Any, world: Any, board: Board = WALTON
) -> bool:
    """Whether ``fact`` is true of the hidden truth ``(solution, world)`` (see the module table)."""
    t = fact.get("type")
    m, mu, w = solution.murderer, solution.motive, solution.weapon
    acc, alpha = solution.accomplice, solution.accomplice_motive
    try:
        if t == "sign_absent":
            return fact["sign"] not in board.weapon(w).signs
        if t == "weapon_unused":
            return board.is_weapon(fact["weapon"]) and fact["weapon"] != w
        if t == "passage_unused":
            board.passage(fact["from"], fact["to"])  # must exist
            return frozenset((fact["from"], fact["to"])) not in route_passages(world.route)
        if t == "seen_before":
            return world.start_rooms.get(fact["suspect"]) == fact["room"]
        if t == "seen_at_murder":
            s = fact["suspect"]
            return s != m and world.locations.get(s) == fact["room"]
        if t == "guest_count":
            count = sum(
                board.head_count[s] for s, r in world.locations.items() if r == fact["room"]
            )
            return fact["room"] in board.alibi_rooms and count == fact["count"]
        if t == "claim":
            return _claim_is_true(fact, solution, world, board)
        if t in ("testimony", "evidence"):
            mot = board.motive(fact["motive"])
            if mot.owner != fact["suspect"]:
                return False
            if t == "testimony":
                sp = fact["speaker"]
                if sp not in mot.testifiers:
                    return False
                if (acc is not None) and (
                    (sp == acc and mot.id == mu) or (sp == m and mot.id == alpha)
                ):
                    return False
                box = sp
            else:
                if not board.is_room(fact["room"]):
                    return False
                box = "evidence"
            return world.box_truths[mot.id][box] == fact["verdict"]
        if t == "together":
            pair = frozenset(fact["suspects"])
            return len(pair) == 2 and any(
                r == fact["room"] and pair <= g for r, g in _seen_groups(world)
            )
        if t == "apart":
            pair = frozenset(fact["suspects"])
            if len(pair) != 2:
                return False
            if acc is not None and pair == frozenset((m, acc)):
                return False
            return not any(pair <= g for _, g in _seen_groups(world))
        if t == "alone":
            s = fact["suspect"]
            if acc is not None and s in (m, acc):
                return False
            return any(r == fact["room"] and g == {s} for r, g in _seen_groups(world))
    except (KeyError, TypeError, ValueError):
        return False
    raise ValueError(f"unknown fact type {t!r}")


def _claim_is_true(fact: Mapping[str, Any], solution: Any, world: Any, board: Board) -> bool:
    s, room, with_ = fact["suspect"], fact["room"], list(fact["with"])
    if fact.get("speaker", s) != s or room not in board.alibi_rooms:
        return False
    m, acc = solution.murderer, solution.accomplice
    if s == m or (acc is not None and s == acc):
        story = world.alibis.get(s)
        if story is None:
            return False
        if acc is not None:  # rule 8: the two name each other only, in one alibi room
            other = acc if s == m else m
            if with_ != [other]:
                return False
        return story["room"] == room and sorted(story["with"]) == with_
    return world.locations.get(s) == room and _companions(world, s, room) == with_


def fact_is_true(fact: Mapping[str, Any], case: Any, board: Board = WALTON) -> bool:
    """Whether ``fact`` is true of ``case`` (its solution and hidden world)."""
    return fact_is_true_in(fact, case.solution, case.world, board)


def unsound_facts(case: Any, board: Board = WALTON) -> list[tuple[int, dict]]:
    """Every false fact of ``case`` as ``(card id, fact)``, in card order; empty = sound."""
    return [
        (card.id, dict(f))
        for card in case.cards
        for f in card.facts
        if not fact_is_true_in(f, case.solution, case.world, board)
    ]


def world_violations(solution: Any, world: Any, board: Board = WALTON) -> list[str]:
    """Every way the hidden truth breaks docs/case_model.md#hidden-truth (empty list = a valid hidden world)."""
    out: list[str] = []
    m, mu, w = solution.murderer, solution.motive, solution.weapon
    acc, alpha = solution.accomplice, solution.accomplice_motive
    culprits = {m} | ({acc} if acc is not None else set())
    if board.motive(mu).owner != m:
        out.append(f"motive {mu} is not one of {m}'s")
    if acc is not None:
        if acc == m:
            out.append("the accomplice is the murderer")
        elif alpha is None or board.motive(alpha).owner != acc:
            out.append(f"accomplice motive {alpha} is not one of {acc}'s")
    elif alpha is not None:
        out.append("an accomplice motive without an accomplice")
    for s in board.suspects:
        start, loc = world.start_rooms.get(s), world.locations.get(s)
        if start not in board.alibi_rooms:
            out.append(f"{s} did not start in an alibi room ({start})")
        if s == m:
            if loc != board.crime_scene:
                out.append(f"the murderer {m} is not in the {board.crime_scene} ({loc})")
        elif s == acc:
            if loc not in board.rooms or loc == board.crime_scene:
                out.append(f"the accomplice {acc} is not in a room other than the crime scene")
        elif loc != start:
            out.append(f"innocent {s} moved from {start} to {loc}")
    route = list(world.route)
    if len(route) < 2 or route[0] != world.start_rooms.get(m) or route[-1] != board.crime_scene:
        out.append("the route does not lead from the murderer's start room into the study")
    else:
        for a, b in zip(route, route[1:], strict=False):
            if b not in board.neighbours(a):
                out.append(f"the route steps from {a} to {b} without a passage")
        if board.weapon(w).room not in route:
            out.append(f"the route does not pass the weapon's room {board.weapon(w).room}")
        if route[-2] not in board.study_entrances or board.crime_scene in route[:-1]:
            out.append("the route does not enter the study once, at its end, from an entrance")
    for mot in board.motives:
        boxes = world.box_truths.get(mot.id)
        if boxes is None or set(boxes) != {*mot.testifiers, "evidence"}:
            out.append(f"the proof boxes of {mot.id} are not exactly its testifiers + evidence")
            continue
        if any(v not in ("confirms", "refutes") for v in boxes.values()):
            out.append(f"a proof box of {mot.id} is neither confirms nor refutes")
        refuted = "refutes" in boxes.values()
        if mot.id in (mu, alpha) and refuted:
            out.append(f"the real motive {mot.id} has a refuting box")
        if mot.owner in culprits and mot.id not in (mu, alpha) and not refuted:
            out.append(f"{mot.owner}'s other motive {mot.id} is never refuted")
    for g in world.sightings:
        group = set(g["suspects"])
        if acc is not None and len(group & culprits) == 1:
            out.append(f"a staff sighting shows only one of the pair {m}, {acc}: {sorted(group)}")
    if acc is not None:
        if not any(culprits <= set(g["suspects"]) for g in world.sightings):
            out.append("the staff never saw the murderer and the accomplice together")
        sm, sa = world.alibis.get(m), world.alibis.get(acc)
        if (
            sm is None
            or sa is None
            or list(sm["with"]) != [acc]
            or list(sa["with"]) != [m]
            or sm["room"] != sa["room"]
            or sm["room"] not in board.alibi_rooms
        ):
            out.append("the culprits' alibi stories are not 'the two of us in one alibi room'")
    return out
