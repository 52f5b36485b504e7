"""The case model: hidden truth, cards and the case file (docs/case_model.md#hidden-truth and #case-file).

A :class:`Case` is the hidden :class:`Solution`, the rest of the hidden truth (:class:`World`)
and the deck of :class:`Card` objects. ``Case.to_json()`` / ``Case.from_json()`` convert to and
from the JSON case file; :func:`load_case` / :func:`save_case` read and write it. Loading
validates everything and raises ``ValueError`` naming the first problem found; a half-built
case is never returned. ``Case.to_json(Case.from_json(d)) == d`` for every valid ``d``.

Case file (``format: "parlour.awkward_guests.case/1"``)
-------------------------------------------------------

============  ============================================================================
key           content
============  ============================================================================
format        ``"parlour.awkward_guests.case/1"``
level         one of ``beginner, very_easy, easy, medium, hard, very_hard, expert``
seed          the generator seed (int) or ``null``
solution      ``{murderer, motive, weapon, accomplice, accomplice_motive}`` (last two ``null``
              when there is no accomplice; never an accomplice below ``medium``)
world         ``{start_rooms, locations, route, box_truths, sightings, alibis}`` (below)
cards         list of ``{id, value, refs, speaker, facts, text}``
============  ============================================================================

World (``world``):

============  ============================================================================
key           content
============  ============================================================================
start_rooms   suspect -> alibi room where they were shortly before the murder (all suspects)
locations     suspect -> room at the time of the murder: innocents = their start room; the
              murderer = the crime scene; the accomplice = any other room
route         the murderer's walk: from their start room through the weapon's room to a
              study entrance, then the crime scene (rooms may repeat; each step a passage)
box_truths    motive -> ``{<testifier>: verdict, <testifier>: verdict, "evidence": verdict}``
              for all 18 motives; the crime motives confirm in all three boxes, every other
              motive of a culprit has a refuting box
sightings     list of ``{room, suspects: [1 or 2 sorted ids]}``: the evening's staff sightings;
              with an accomplice, any sighting of the murderer or the accomplice shows exactly
              the two of them
alibis        suspect -> ``{room, with}``: the story a suspect tells in claims (used by the
              generator for the culprits' claims; alibi room, sorted companions)
============  ============================================================================

Loading checks the structure and the consistency of solution and world, not whether the cards'
facts are true: soundness and uniqueness are verified by ``parlour case check`` (``truth`` and
the deduction engine), which must be able to load an unsound file to report on it.

Cards (:class:`~.cards.Card`, their values and JSON checks) are in :mod:`.cards`.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parlour._files import read_regular_file
from parlour.envs._checks import is_int, require_int

from .board import WALTON, Board
from .cards import Card, card_refs, check_card_facts, copy_fact, value_of_valid_facts
from .solution import Solution

CASE_FORMAT = "parlour.awkward_guests.case/1"
#: the largest case file read: a case is ~50 KB (the classic ones 45-47 KB); 16 MB leaves room
#: for very long card texts while ``/dev/zero`` or a 100 MB file is refused before it is read
MAX_CASE_FILE_BYTES = 16 << 20
LEVELS: tuple[str, ...] = (
    "beginner",
    "very_easy",
    "easy",
    "medium",
    "hard",
    "very_hard",
    "expert",
)
ACCOMPLICE_LEVELS: tuple[str, ...] = ("medium", "hard", "very_hard", "expert")

BOX_EVIDENCE = "evidence"


@dataclass(frozen=True)
class World:
    """The hidden truth beyond the solution (docs/case_model.md#hidden-truth). See the module docs for the fields."""

    start_rooms: dict[str, str]
    locations: dict[str, str]
    route: tuple[str, ...]
    box_truths: dict[str, dict[str, str]]
    sightings: tuple[dict, ...] = ()
    alibis: dict[str, dict] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {
            "start_rooms": dict(self.start_rooms),
            "locations": dict(self.locations),
            "route": list(self.route),
            "box_truths": {m: dict(b) for m, b in self.box_truths.items()},
            "sightings": [copy.deepcopy(s) for s in self.sightings],
            "alibis": copy.deepcopy(self.alibis),
        }


@dataclass(frozen=True)
class Case:
    """A case: level, seed, hidden solution and world, and the deck of cards."""

    level: str
    seed: int | None
    solution: Solution
    world: World
    cards: tuple[Card, ...]

    @property
    def accomplice_possible(self) -> bool:
        """Whether players must consider an accomplice (the level is ``medium`` or harder)."""
        return self.level in ACCOMPLICE_LEVELS

    def card(self, card_id: int) -> Card:
        for c in self.cards:
            if c.id == card_id:
                return c
        raise KeyError(card_id)

    def facts(self) -> list[dict]:
        """All facts of the deck, card by card."""
        return [f for c in self.cards for f in c.facts]

    def to_json(self) -> dict:
        s = self.solution
        return {
            "format": CASE_FORMAT,
            "level": self.level,
            "seed": self.seed,
            "solution": {
                "murderer": s.murderer,
                "motive": s.motive,
                "weapon": s.weapon,
                "accomplice": s.accomplice,
                "accomplice_motive": s.accomplice_motive,
            },
            "world": self.world.to_json(),
            "cards": [c.to_json() for c in self.cards],
        }

    @classmethod
    def from_json(cls, d: Any, board: Board = WALTON) -> Case:
        """Validate a case JSON object and build the :class:`Case`; ``ValueError`` otherwise."""
        return case_from_json(d, board)


# -- JSON import / validation ---------------------------------------------------------------

_CASE_KEYS = ("format", "level", "seed", "solution", "world", "cards")
_SOLUTION_KEYS = ("murderer", "motive", "weapon", "accomplice", "accomplice_motive")
_WORLD_KEYS = ("start_rooms", "locations", "route", "box_truths", "sightings", "alibis")
_CARD_KEYS = ("id", "value", "refs", "speaker", "facts", "text")


def _keys(d: Any, keys: tuple[str, ...], where: str) -> None:
    if not isinstance(d, dict):
        raise ValueError(f"case: {where} must be an object, got {type(d).__name__}")
    missing = [k for k in keys if k not in d]
    if missing:
        raise ValueError(f"case: {where} is missing the field(s) {missing}")
    extra = sorted(set(d) - set(keys))
    if extra:
        raise ValueError(f"case: {where} has unknown field(s) {extra}")


def _solution_from_json(d: Any, level: str, board: Board) -> Solution:
    _keys(d, _SOLUTION_KEYS, "solution")
    m, mu, w, a, alpha = (d[k] for k in _SOLUTION_KEYS)
    if not isinstance(m, str) or not board.is_suspect(m):
        raise ValueError(f"case: solution.murderer {m!r} is not a suspect")
    if not isinstance(mu, str) or not board.is_motive(mu):
        raise ValueError(f"case: solution.motive {mu!r} is not a motive")
    if board.motive(mu).owner != m:
        raise ValueError(
            f"case: solution.motive {mu!r} belongs to {board.motive(mu).owner!r}, "
            f"not to the murderer {m!r}"
        )
    if not isinstance(w, str) or not board.is_weapon(w):
        raise ValueError(f"case: solution.weapon {w!r} is not a weapon")
    if (a is None) != (alpha is None):
        raise ValueError(
            "case: solution.accomplice and accomplice_motive must both be null or both be set"
        )
    if a is not None:
        if level not in ACCOMPLICE_LEVELS:
            raise ValueError(
                f"case: level {level!r} never has an accomplice (only {', '.join(ACCOMPLICE_LEVELS)})"
            )
        if not isinstance(a, str) or not board.is_suspect(a):
            raise ValueError(f"case: solution.accomplice {a!r} is not a suspect")
        if a == m:
            raise ValueError(f"case: the accomplice cannot be the murderer {m!r}")
        if not isinstance(alpha, str) or not board.is_motive(alpha):
            raise ValueError(f"case: solution.accomplice_motive {alpha!r} is not a motive")
        if board.motive(alpha).owner != a:
            raise ValueError(
                f"case: solution.accomplice_motive {alpha!r} belongs to "
                f"{board.motive(alpha).owner!r}, not to the accomplice {a!r}"
            )
    return Solution(m, mu, w, a, alpha)


def _suspect_map(d: Any, where: str, board: Board) -> dict[str, str]:
    if not isinstance(d, dict):
        raise ValueError(f"case: world.{where} must be an object")
    if set(d) != set(board.suspects):
        raise ValueError(
            f"case: world.{where} must name every suspect exactly once, got {sorted(d)}"
        )
    for s, r in d.items():
        if not isinstance(r, str) or not board.is_room(r):
            raise ValueError(f"case: world.{where}[{s!r}] = {r!r} is not a room")
    return dict(d)


def _world_from_json(d: Any, sol: Solution, board: Board) -> World:
    _keys(d, _WORLD_KEYS, "world")
    start = _suspect_map(d["start_rooms"], "start_rooms", board)
    locs = _suspect_map(d["locations"], "locations", board)
    _check_locations(start, locs, sol, board)
    route, boxes, sightings, alibis = d["route"], d["box_truths"], d["sightings"], d["alibis"]
    _check_route(route, start, sol, board)
    _check_boxes(boxes, sol, board)
    _check_sightings(sightings, sol, board)
    _check_alibis(alibis, board)
    return World(
        start_rooms=start,
        locations=locs,
        route=tuple(route),
        box_truths={m: dict(b) for m, b in boxes.items()},
        sightings=tuple(copy.deepcopy(s) for s in sightings),
        alibis=copy.deepcopy(alibis),
    )


def _culprits(sol: Solution) -> set[str]:
    return {sol.murderer, sol.accomplice} - {None}


def _check_locations(
    start: dict[str, str], locs: dict[str, str], sol: Solution, board: Board
) -> None:
    """Start rooms are alibi rooms; innocents stay, ``M`` is in the crime scene, ``A`` not."""
    for s, r in start.items():
        if r not in board.alibi_rooms:
            raise ValueError(f"case: world.start_rooms[{s!r}] = {r!r} is not an alibi room")
    for s in board.suspects:
        if s == sol.murderer:
            if locs[s] != board.crime_scene:
                raise ValueError(
                    f"case: world.locations: the murderer {s!r} must be in {board.crime_scene!r}"
                )
        elif s == sol.accomplice:
            if locs[s] == board.crime_scene:
                raise ValueError(
                    f"case: world.locations: the accomplice {s!r} cannot be in {board.crime_scene!r}"
                )
        elif locs[s] != start[s]:
            raise ValueError(
                f"case: world.locations: the innocent {s!r} must stay in their start room "
                f"{start[s]!r}, not {locs[s]!r}"
            )


def _check_route(route: Any, start: dict[str, str], sol: Solution, board: Board) -> None:
    """The murderer's walk: start room, weapon room, an entrance, then the crime scene."""
    if not isinstance(route, list) or len(route) < 2 or not all(isinstance(r, str) for r in route):
        raise ValueError("case: world.route must be a list of at least 2 room ids")
    for r in route:
        if not board.is_room(r):
            raise ValueError(f"case: world.route names the unknown room {r!r}")
    if route[0] != start[sol.murderer]:
        raise ValueError(
            f"case: world.route must start in the murderer's start room {start[sol.murderer]!r}"
        )
    if route[-1] != board.crime_scene or board.crime_scene in route[:-1]:
        raise ValueError(f"case: world.route must end with its only visit to {board.crime_scene!r}")
    if route[-2] not in board.study_entrances:
        raise ValueError(f"case: world.route must enter {board.crime_scene!r} from an entrance")
    for a, b in zip(route, route[1:], strict=False):
        if b not in board.neighbours(a):
            raise ValueError(f"case: world.route steps from {a!r} to {b!r}, which is no passage")
    wroom = board.weapon(sol.weapon).room
    if wroom not in route:
        raise ValueError(f"case: world.route must pass the weapon's room {wroom!r}")


def _check_boxes(boxes: Any, sol: Solution, board: Board) -> None:
    """Every motive's three boxes hold verdicts; crime motives confirm, culprits' other
    motives have a refuting box."""
    culprits = _culprits(sol)
    if not isinstance(boxes, dict) or set(boxes) != {m.id for m in board.motives}:
        raise ValueError("case: world.box_truths must hold every motive exactly once")
    for m in board.motives:
        b = boxes[m.id]
        want = {*m.testifiers, BOX_EVIDENCE}
        if not isinstance(b, dict) or set(b) != want:
            raise ValueError(f"case: world.box_truths[{m.id!r}] must have the boxes {sorted(want)}")
        for k, v in b.items():
            if v not in ("confirms", "refutes"):
                raise ValueError(f"case: world.box_truths[{m.id!r}][{k!r}] = {v!r} is no verdict")
    crime_motives = {sol.motive, sol.accomplice_motive} - {None}
    for m in board.motives:
        verdicts = set(boxes[m.id].values())
        if m.id in crime_motives and verdicts != {"confirms"}:
            raise ValueError(
                f"case: world.box_truths: every box of the crime motive {m.id!r} confirms"
            )
        if m.owner in culprits and m.id not in crime_motives and "refutes" not in verdicts:
            raise ValueError(
                f"case: world.box_truths: the culprit's other motive {m.id!r} needs a refuting box"
            )


def _check_sightings(sightings: Any, sol: Solution, board: Board) -> None:
    """1–2 sorted suspects in a room; the culprit pair is only ever seen together."""
    culprits = _culprits(sol)
    if not isinstance(sightings, list):
        raise ValueError("case: world.sightings must be a list")
    for k, s in enumerate(sightings):
        _keys(s, ("room", "suspects"), f"world.sightings[{k}]")
        if not isinstance(s["room"], str) or not board.is_room(s["room"]):
            raise ValueError(f"case: world.sightings[{k}].room {s['room']!r} is not a room")
        who = s["suspects"]
        if (
            not isinstance(who, list)
            or not 1 <= len(who) <= 2
            or not all(isinstance(x, str) and board.is_suspect(x) for x in who)
            or who != sorted(set(who))
        ):
            raise ValueError(
                f"case: world.sightings[{k}].suspects must be 1 or 2 sorted suspect ids, got {who!r}"
            )
        if sol.accomplice is not None and culprits & set(who) and set(who) != culprits:
            raise ValueError(
                f"case: world.sightings[{k}]: the murderer and the accomplice are only ever "
                f"seen together"
            )


def _check_alibis(alibis: Any, board: Board) -> None:
    """suspect -> ``{room: alibi room, with: sorted other suspects}``."""
    if not isinstance(alibis, dict):
        raise ValueError("case: world.alibis must be an object")
    for s, a in alibis.items():
        if not board.is_suspect(s):
            raise ValueError(f"case: world.alibis names the unknown suspect {s!r}")
        _keys(a, ("room", "with"), f"world.alibis[{s!r}]")
        if a["room"] not in board.alibi_rooms:
            raise ValueError(f"case: world.alibis[{s!r}].room {a['room']!r} is not an alibi room")
        w = a["with"]
        if (
            not isinstance(w, list)
            or not all(isinstance(x, str) and board.is_suspect(x) for x in w)
            or w != sorted(set(w))
            or s in w
        ):
            raise ValueError(
                f"case: world.alibis[{s!r}].with must be sorted other suspect ids, got {w!r}"
            )


def _card_from_json(d: Any, k: int, board: Board) -> Card:
    _keys(d, _CARD_KEYS, f"cards[{k}]")
    cid = d["id"]
    require_int(f"case: cards[{k}].id", cid, numpy=False)
    check_card_facts(cid, d["speaker"], d["facts"], board)
    facts = tuple(copy_fact(f) for f in d["facts"])
    refs = card_refs(facts, board)
    if d["refs"] != list(refs):
        raise ValueError(
            f"case: card {cid}: refs {d['refs']!r} do not match its facts (expected {list(refs)!r})"
        )
    value = value_of_valid_facts(facts, board)
    if d["value"] != value or isinstance(d["value"], bool):
        raise ValueError(
            f"case: card {cid}: value {d['value']!r} does not match its facts (expected {value})"
        )
    text = d["text"]
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"case: card {cid}: text must be a non-empty string")
    return Card(cid, d["speaker"], facts, refs, value, text)


def case_from_json(d: Any, board: Board = WALTON) -> Case:
    """Validate a case JSON object and build the :class:`Case` (see :meth:`Case.from_json`)."""
    if not isinstance(d, dict):
        raise ValueError("case: a case file must hold a JSON object")
    if d.get("format") != CASE_FORMAT:
        raise ValueError(f"case: format must be {CASE_FORMAT!r}, got {d.get('format')!r}")
    _keys(d, _CASE_KEYS, "the case")
    level = d["level"]
    if level not in LEVELS:
        raise ValueError(f"case: level {level!r} is not one of {', '.join(LEVELS)}")
    seed = d["seed"]
    if seed is not None and not is_int(seed, numpy=False):
        raise ValueError(f"case: seed must be an int or null, got {seed!r}")
    sol = _solution_from_json(d["solution"], level, board)
    world = _world_from_json(d["world"], sol, board)
    raw_cards = d["cards"]
    if not isinstance(raw_cards, list) or not raw_cards:
        raise ValueError("case: cards must be a non-empty list")
    cards = tuple(_card_from_json(c, k, board) for k, c in enumerate(raw_cards))
    ids = [c.id for c in cards]
    if len(set(ids)) != len(ids):
        dup = sorted({i for i in ids if ids.count(i) > 1})
        raise ValueError(f"case: duplicate card id(s) {dup}")
    return Case(level=level, seed=seed, solution=sol, world=world, cards=cards)


def case_from_trusted_json(d: dict) -> Case:
    """Build a :class:`Case` from JSON that was validated before (a case bank's, which its
    checksum and proof vouch for: :mod:`.bank`), without validating it again: ~0.3 ms instead of
    ~2 ms. The result equals :func:`case_from_json`'s for the same valid JSON (tested); a
    ``dict`` a caller made up must go through :func:`case_from_json`."""
    s, w = d["solution"], d["world"]
    return Case(
        level=d["level"],
        seed=d["seed"],
        solution=Solution(*(s[k] for k in _SOLUTION_KEYS)),
        world=World(
            start_rooms=w["start_rooms"],
            locations=w["locations"],
            route=tuple(w["route"]),
            box_truths=w["box_truths"],
            sightings=tuple(w["sightings"]),
            alibis=w["alibis"],
        ),
        cards=tuple(
            Card(c["id"], c["speaker"], tuple(c["facts"]), tuple(c["refs"]), c["value"], c["text"])
            for c in d["cards"]
        ),
    )


def load_case(path: str | Path, board: Board = WALTON) -> Case:
    """Read and validate a case file (a regular file of at most :data:`MAX_CASE_FILE_BYTES`:
    a folder, FIFO, device or larger file is a ``ValueError``, never a hang)."""
    p = Path(path)
    try:
        raw = read_regular_file(p, max_bytes=MAX_CASE_FILE_BYTES, what="case file")
        d = json.loads(raw.decode("utf-8"))
    except json.JSONDecodeError as e:
        raise ValueError(f"case file {p}: not valid JSON ({e})") from e
    except RecursionError:
        raise ValueError(f"case file {p}: not valid JSON (nested too deeply)") from None
    except UnicodeDecodeError as e:
        raise ValueError(f"case file {p}: not UTF-8 text ({e})") from None
    try:
        return case_from_json(d, board)
    except RecursionError:
        raise ValueError(f"case file {p}: nested too deeply") from None
    except ValueError as e:
        raise ValueError(f"case file {p}: {e}") from e


def save_case(case: Case, path: str | Path) -> None:
    """Write a case file (UTF-8 JSON, indented)."""
    Path(path).write_text(
        json.dumps(case.to_json(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
