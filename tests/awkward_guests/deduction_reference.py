"""Test helpers for the deduction engine: a slow, literal reference solver and random facts.

The reference solver enumerates, for every murderer/accomplice pair, every start-room
assignment and accomplice location literally, checks each fact against that world with plain
Python, and searches the murderer's walk with a breadth-first search over (room, weapon room
visited). It shares no code with ``parlour.envs.awkward_guests.case.deduction``.

``random_world`` / ``true_facts`` build an independent random hidden truth and facts that are
true of it (for soundness-style checks); ``random_fact`` draws any schema-valid fact (true or
not) so that the engine is also compared on contradictory sets.
"""

from __future__ import annotations

import itertools
from collections import deque

import numpy as np

from parlour.envs.awkward_guests.case.board import WALTON
from parlour.envs.awkward_guests.case.solution import Solution

B = WALTON
SUSPECTS = B.suspects
STUDY = B.crime_scene
NON_STUDY = tuple(r for r in B.rooms if r != STUDY)


# -- reference solver -----------------------------------------------------------------------


def _location_fact_holds(f: dict, start: dict, loc: dict, m: str, a: str | None) -> bool:
    t = f["type"]
    if t == "seen_before":
        return start[f["suspect"]] == f["room"]
    if t == "seen_at_murder":
        return loc[f["suspect"]] == f["room"]
    if t == "guest_count":
        n = 0
        for s in SUSPECTS:
            if loc[s] == f["room"]:
                n += B.head_count[s]
        return n == f["count"]
    if t == "claim":
        s = f["suspect"]
        if s in (m, a):
            return True  # culprits' claims are not trusted
        if loc[s] != f["room"]:
            return False
        companions = sorted(x for x in SUSPECTS if x != s and loc[x] == f["room"])
        return companions == f["with"]
    return True


def _route_exists(start_room: str, weapon_room: str, unused: set) -> bool:
    """BFS over walks: state (room, weapon room visited yet)."""

    def moves(r: str):
        for p in B.passages:
            if (p.frm, p.to) in unused:
                continue
            if p.frm == r:
                yield p.to
            elif p.to == r and not p.one_way:
                yield p.frm

    first = (start_room, start_room == weapon_room)
    seen = {first}
    todo = deque([first])
    while todo:
        room, visited = todo.popleft()
        if room == STUDY:
            if visited:
                return True
            continue  # the study has no way out
        for nxt in moves(room):
            st = (nxt, visited or nxt == weapon_room)
            if st not in seen:
                seen.add(st)
                todo.append(st)
    return False


def reference_solve(facts: list[dict], accomplice_possible: bool) -> set[Solution]:
    """Literal enumeration of the consistency definition of docs/case_model.md#consistency (slow)."""
    loc_facts = [
        f for f in facts if f["type"] in ("seen_before", "seen_at_murder", "guest_count", "claim")
    ]
    unused = {(f["from"], f["to"]) for f in facts if f["type"] == "passage_unused"}

    pairs = [(m, None) for m in SUSPECTS]
    if accomplice_possible:
        pairs += [(m, a) for m in SUSPECTS for a in SUSPECTS if a != m]

    # which start rooms of M admit start rooms / locations making every location fact true
    feasible: dict[tuple, set[str]] = {}
    for m, a in pairs:
        ok_starts: set[str] = set()
        for combo in itertools.product(B.alibi_rooms, repeat=len(SUSPECTS)):
            start = dict(zip(SUSPECTS, combo, strict=True))
            if start[m] in ok_starts:
                continue
            for loc_a in NON_STUDY if a is not None else [None]:
                loc = dict(start)
                loc[m] = STUDY
                if a is not None:
                    loc[a] = loc_a
                if all(_location_fact_holds(f, start, loc, m, a) for f in loc_facts):
                    ok_starts.add(start[m])
                    break
        feasible[(m, a)] = ok_starts

    out = set()
    for m, a in pairs:
        for mu in B.motives_of(m):
            for alpha in B.motives_of(a) if a is not None else [None]:
                for w in B.weapons:
                    sol = Solution(m, mu.id, w.id, a, alpha.id if alpha else None)
                    if _consistent(sol, facts, feasible[(m, a)], unused):
                        out.add(sol)
    return out


def _consistent(sol: Solution, facts: list[dict], starts_ok: set[str], unused: set) -> bool:
    m, mu, w, a, alpha = sol
    weapon = B.weapon(w)
    for f in facts:
        t = f["type"]
        if (
            t in ("testimony", "evidence")
            and f["verdict"] == "refutes"
            and f["motive"] in (mu, alpha)
        ):
            return False
        if t == "testimony" and a is not None:
            if f["speaker"] == a and f["motive"] == mu:
                return False
            if f["speaker"] == m and f["motive"] == alpha:
                return False
        if t == "sign_absent" and f["sign"] in weapon.signs:
            return False
        if t == "weapon_unused" and f["weapon"] == w:
            return False
        if a is not None:
            if t == "alone" and f["suspect"] in (m, a):
                return False
            if t == "apart" and set(f["suspects"]) == {m, a}:
                return False
            if t == "claim" and f["suspect"] == a and f["with"] != [m]:
                return False
            if t == "claim" and f["suspect"] == m and f["with"] != [a]:
                return False
    if a is not None:
        rooms = {f["room"] for f in facts if f["type"] == "claim" and f["suspect"] in (m, a)}
        if len(rooms) > 1:
            return False
    return any(_route_exists(s, weapon.room, unused) for s in starts_ok)


# -- random worlds and facts ------------------------------------------------------------------


def random_world(rng: np.random.Generator, accomplice: bool) -> dict:
    """An independent random hidden truth: solution, start rooms, locations, route, boxes."""
    m = SUSPECTS[rng.integers(len(SUSPECTS))]
    mu = B.motives_of(m)[rng.integers(3)].id
    w = B.weapons[rng.integers(len(B.weapons))]
    a = alpha = None
    if accomplice:
        others = [s for s in SUSPECTS if s != m]
        a = others[rng.integers(len(others))]
        alpha = B.motives_of(a)[rng.integers(3)].id
    start = {s: B.alibi_rooms[rng.integers(len(B.alibi_rooms))] for s in SUSPECTS}
    loc = dict(start)
    loc[m] = STUDY
    if a is not None:
        loc[a] = NON_STUDY[rng.integers(len(NON_STUDY))]
    # route: a random walk to the weapon room, then to an entrance (BFS paths)
    entrance = B.study_entrances[rng.integers(len(B.study_entrances))]
    route = _path(start[m], w.room) + _path(w.room, entrance)[1:] + [STUDY]
    boxes = {}
    crime = {mu, alpha} - {None}
    for mot in B.motives:
        keys = [*mot.testifiers, "evidence"]
        if mot.id in crime:
            boxes[mot.id] = dict.fromkeys(keys, "confirms")
        else:
            v = {k: ("refutes" if rng.random() < 0.4 else "confirms") for k in keys}
            if mot.owner in (m, a) and "refutes" not in v.values():
                v[keys[rng.integers(3)]] = "refutes"
            boxes[mot.id] = v
    return {
        "solution": Solution(m, mu, w.id, a, alpha),
        "start": start,
        "loc": loc,
        "route": route,
        "boxes": boxes,
    }


def _path(a: str, b: str) -> list[str]:
    prev = {a: None}
    todo = deque([a])
    while todo:
        r = todo.popleft()
        if r == b:
            break
        for n in B.neighbours(r):
            if n != STUDY and n not in prev:
                prev[n] = r
                todo.append(n)
    out = [b]
    while prev[out[-1]] is not None:
        out.append(prev[out[-1]])
    return out[::-1]


def true_facts(world: dict, rng: np.random.Generator) -> list[dict]:
    """Every kind of fact that is true of ``world`` (a large pool; sample from it)."""
    m, mu, w, a, alpha = world["solution"]
    start, loc, route = world["start"], world["loc"], world["route"]
    staff = B.staff
    facts: list[dict] = []

    def st() -> str:
        return staff[rng.integers(len(staff))]

    weapon = B.weapon(w)
    for s in B.signs:
        if s not in weapon.signs:
            facts.append({"type": "sign_absent", "speaker": "coroner", "sign": s})
    for x in B.weapons:
        if x.id != w:
            facts.append({"type": "weapon_unused", "speaker": st(), "weapon": x.id})
    steps = {frozenset(p) for p in zip(route, route[1:], strict=False)}
    for p in B.passages:
        if frozenset((p.frm, p.to)) not in steps:
            facts.append({"type": "passage_unused", "speaker": st(), "from": p.frm, "to": p.to})
    for s in SUSPECTS:
        facts.append({"type": "seen_before", "speaker": st(), "suspect": s, "room": start[s]})
        if s != m:
            facts.append({"type": "seen_at_murder", "speaker": st(), "suspect": s, "room": loc[s]})
    for r in B.alibi_rooms:
        n = sum(B.head_count[s] for s in SUSPECTS if loc[s] == r)
        facts.append({"type": "guest_count", "speaker": st(), "room": r, "count": n})
    room_ca = B.alibi_rooms[rng.integers(len(B.alibi_rooms))]
    for s in SUSPECTS:
        if s == m and a is None:
            lie_room = B.alibi_rooms[rng.integers(len(B.alibi_rooms))]
            others = [x for x in SUSPECTS if x != s and rng.random() < 0.25]
            facts.append(
                {"type": "claim", "speaker": s, "suspect": s, "room": lie_room, "with": others}
            )
        elif s in (m, a):
            partner = a if s == m else m
            facts.append(
                {"type": "claim", "speaker": s, "suspect": s, "room": room_ca, "with": [partner]}
            )
        else:
            comp = sorted(x for x in SUSPECTS if x != s and loc[x] == loc[s])
            facts.append(
                {"type": "claim", "speaker": s, "suspect": s, "room": loc[s], "with": comp}
            )
    for mot in B.motives:
        for x in mot.testifiers:
            if (x == a and mot.id == mu) or (x == m and alpha is not None and mot.id == alpha):
                continue
            facts.append(
                {
                    "type": "testimony",
                    "speaker": x,
                    "suspect": mot.owner,
                    "motive": mot.id,
                    "verdict": world["boxes"][mot.id][x],
                }
            )
        facts.append(
            {
                "type": "evidence",
                "speaker": "police",
                "suspect": mot.owner,
                "motive": mot.id,
                "verdict": world["boxes"][mot.id]["evidence"],
                "room": B.rooms[rng.integers(10)],
            }
        )
    for i, x in enumerate(SUSPECTS):
        for y in SUSPECTS[i + 1 :]:
            facts.append(
                {
                    "type": "together",
                    "speaker": st(),
                    "suspects": [x, y],
                    "room": B.rooms[rng.integers(10)],
                }
            )
            if a is None or {x, y} != {m, a}:
                facts.append({"type": "apart", "speaker": st(), "suspects": [x, y]})
        if a is None or x not in (m, a):
            facts.append(
                {"type": "alone", "speaker": st(), "suspect": x, "room": B.rooms[rng.integers(10)]}
            )
    return facts


def random_fact(rng: np.random.Generator) -> dict:
    """Any schema-valid fact, true or not."""

    def pick(seq):
        return seq[rng.integers(len(seq))]

    t = pick(
        (
            "sign_absent",
            "weapon_unused",
            "passage_unused",
            "seen_before",
            "seen_at_murder",
            "guest_count",
            "claim",
            "testimony",
            "evidence",
            "together",
            "apart",
            "alone",
        )
    )
    staff = pick(B.staff)
    if t == "sign_absent":
        return {"type": t, "speaker": pick(("police", "coroner")), "sign": pick(B.signs)}
    if t == "weapon_unused":
        return {"type": t, "speaker": staff, "weapon": pick(B.weapons).id}
    if t == "passage_unused":
        p = pick(B.passages)
        return {"type": t, "speaker": staff, "from": p.frm, "to": p.to}
    if t == "seen_before":
        return {"type": t, "speaker": staff, "suspect": pick(SUSPECTS), "room": pick(B.alibi_rooms)}
    if t == "seen_at_murder":
        room = pick(B.alibi_rooms) if rng.random() < 0.8 else pick(NON_STUDY)
        return {"type": t, "speaker": staff, "suspect": pick(SUSPECTS), "room": room}
    if t == "guest_count":
        return {
            "type": t,
            "speaker": staff,
            "room": pick(B.alibi_rooms),
            "count": int(rng.integers(0, 5)),
        }
    if t == "claim":
        s = pick(SUSPECTS)
        others = sorted(x for x in SUSPECTS if x != s and rng.random() < 0.25)
        return {"type": t, "speaker": s, "suspect": s, "room": pick(B.alibi_rooms), "with": others}
    if t in ("testimony", "evidence"):
        mot = pick(B.motives)
        f = {
            "type": t,
            "speaker": pick(mot.testifiers) if t == "testimony" else "police",
            "suspect": mot.owner,
            "motive": mot.id,
            "verdict": pick(("confirms", "refutes")),
        }
        if t == "evidence":
            f["room"] = pick(B.rooms)
        return f
    if t in ("together", "apart"):
        i, j = sorted(rng.choice(len(SUSPECTS), size=2, replace=False).tolist())
        f = {"type": t, "speaker": staff, "suspects": [SUSPECTS[i], SUSPECTS[j]]}
        if t == "together":
            f["room"] = pick(B.rooms)
        return f
    return {"type": "alone", "speaker": staff, "suspect": pick(SUSPECTS), "room": pick(B.rooms)}


def random_cards(
    facts: list[dict], rng: np.random.Generator, max_facts: int = 3
) -> list[list[dict]]:
    """Group facts into cards of 1..max_facts facts of one speaker (order shuffled)."""
    by_speaker: dict[str, list[dict]] = {}
    for i in rng.permutation(len(facts)).tolist():
        by_speaker.setdefault(facts[i]["speaker"], []).append(facts[i])
    cards = []
    for fs in by_speaker.values():
        while fs:
            k = int(rng.integers(1, max_facts + 1))
            cards.append(fs[:k])
            fs = fs[k:]
    order = rng.permutation(len(cards)).tolist()
    return [cards[i] for i in order]
