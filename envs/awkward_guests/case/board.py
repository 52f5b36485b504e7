"""The mansion board: suspects, motives, rooms, passages, weapons, signs and speakers.

The board is data (``walton.json`` beside this module), loaded and validated into the typed,
immutable :class:`Board`. Every other module of the case engine reads ids, orders and lookups
from a ``Board`` instead of hard-coding them, so another mansion can be added as another JSON
file.

The Walton board (``WALTON``)
-----------------------------

=================  =====  =========================================================================
part               count  ids (in order)
=================  =====  =========================================================================
suspects           6      angelica, berwick (counts 2 in head counts), claudette, greg, mortimer,
                          stanley
motives            18     3 per suspect, each with two testifying suspects (docs/case_model.md#motives)
rooms              10     study (crime scene), garage, trophy_room, bedroom, kitchen, shed,
                          billiard_room, vestibule, living_room, library
alibi rooms        4      billiard_room, vestibule, living_room, library (the last four rooms)
study entrances    3      garage, bedroom, shed (one-way passages into the study)
passages           14     11 two-way + 3 one-way study entries
signs              10     defensive_wounds ... strong_odors
weapons            20     each with a family, a room and two signs
staff              6      housekeeper, butler, maid, cook, gardener, chauffeur
speakers           14     the suspects, the staff, police, coroner
references         16     the suspects then the rooms (the order of the env's REF actions)
=================  =====  =========================================================================

Board file format (``format: "parlour.awkward_guests.board/1"``)
----------------------------------------------------------------

======================  ===================================================================
key                     content
======================  ===================================================================
``name``                display name of the case board
``crime_scene``         room id of the crime scene (must have no way out)
``suspects``            list of ``{id, name, head_count}``
``motives``             list of ``{id, owner, testifiers: [2 suspect ids], name}``; exactly 3
                        per suspect, listed suspect by suspect in suspect order
``rooms``               list of ``{id, name}``; the crime scene first
``alibi_rooms``         room ids (in room order, not the crime scene)
``study_entrances``     room ids with a one-way passage into the crime scene
``passages``            list of ``{from, to, one_way?}``; two-way passages have no direction
                        (``from``/``to`` is just the canonical spelling); one-way passages must
                        be exactly the entrances into the crime scene
``signs``               list of ``{id, name}``
``weapons``             list of ``{id, name, family, room, signs: [2 sign ids]}``
``staff``               list of ``{id, name}`` (staff speakers)
``officials``           list of ``{id, name}``: exactly ``police`` and ``coroner``
======================  ===================================================================

Every inconsistency (unknown id, duplicate id, wrong count, a weapon sign that is not on the
sign list, a passage naming an unknown room, ...) raises ``ValueError`` naming the problem.
"""

from __future__ import annotations

import copyreg
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parlour.envs._checks import require_int

BOARD_FORMAT = "parlour.awkward_guests.board/1"
DEFAULT_BOARD_PATH = Path(__file__).with_name("walton.json")
OFFICIALS = ("police", "coroner")
MIN_SUSPECTS = 2
MOTIVES_PER_SUSPECT = 3
TESTIFIERS_PER_MOTIVE = 2
SIGNS_PER_WEAPON = 2


@dataclass(frozen=True)
class Motive:
    """A motive of one suspect, with the two other suspects who can testify about it."""

    id: str
    owner: str
    testifiers: tuple[str, str]
    index: int
    name: str = ""


@dataclass(frozen=True)
class Weapon:
    """A weapon: its family, the room where it is kept and the two signs it leaves."""

    id: str
    family: str
    room: str
    signs: tuple[str, str]
    index: int
    name: str = ""


@dataclass(frozen=True)
class Passage:
    """A passage between two rooms. Two-way passages have no direction (``frm``/``to`` is the
    board's spelling); a one-way passage leads from ``frm`` into ``to`` (the crime scene)."""

    frm: str
    to: str
    one_way: bool


@dataclass(frozen=True)
class Board:
    """A validated mansion board. Build it with :func:`load_board` or :func:`board_from_json`."""

    name: str
    suspects: tuple[str, ...]
    suspect_names: dict[str, str]
    head_count: dict[str, int]
    motives: tuple[Motive, ...]
    rooms: tuple[str, ...]
    room_names: dict[str, str]
    crime_scene: str
    alibi_rooms: tuple[str, ...]
    study_entrances: tuple[str, ...]
    passages: tuple[Passage, ...]
    signs: tuple[str, ...]
    sign_names: dict[str, str]
    weapons: tuple[Weapon, ...]
    staff: tuple[str, ...]
    speakers: tuple[str, ...]
    speaker_names: dict[str, str]
    references: tuple[str, ...]
    # lookups (derived, not compared)
    _motive_by_id: dict[str, Motive] = field(init=False, repr=False, compare=False)
    _weapon_by_id: dict[str, Weapon] = field(init=False, repr=False, compare=False)
    _motives_of: dict[str, tuple[Motive, ...]] = field(init=False, repr=False, compare=False)
    _passage_by_pair: dict[frozenset[str], Passage] = field(init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple:
        # the default board pickles as a reference to the module's WALTON
        if self is WALTON or self == WALTON:
            return (_default_board, ())
        state = {k: v for k, v in self.__dict__.items() if not k.startswith("_")}
        return (copyreg.__newobj__, (type(self),), state)

    def __setstate__(self, state: dict) -> None:
        for k, v in state.items():
            object.__setattr__(self, k, v)
        self.__post_init__()  # lookups and the hash are rebuilt (str hashes vary by process)

    def __copy__(self) -> Board:
        return self

    def __deepcopy__(self, memo: dict) -> Board:
        return self  # immutable

    def __post_init__(self) -> None:
        key = (self.name, self.suspects, self.rooms, self.passages, self.weapons, self.motives)
        object.__setattr__(self, "_hash", hash(key))
        object.__setattr__(self, "_motive_by_id", {m.id: m for m in self.motives})
        object.__setattr__(self, "_weapon_by_id", {w.id: w for w in self.weapons})
        object.__setattr__(
            self,
            "_motives_of",
            {s: tuple(m for m in self.motives if m.owner == s) for s in self.suspects},
        )
        object.__setattr__(
            self, "_passage_by_pair", {frozenset((p.frm, p.to)): p for p in self.passages}
        )

    # -- lookups -------------------------------------------------------------------------
    def motive(self, motive_id: str) -> Motive:
        try:
            return self._motive_by_id[motive_id]
        except KeyError:
            raise ValueError(f"unknown motive {motive_id!r}") from None

    def weapon(self, weapon_id: str) -> Weapon:
        try:
            return self._weapon_by_id[weapon_id]
        except KeyError:
            raise ValueError(f"unknown weapon {weapon_id!r}") from None

    def motives_of(self, suspect: str) -> tuple[Motive, ...]:
        try:
            return self._motives_of[suspect]
        except KeyError:
            raise ValueError(f"unknown suspect {suspect!r}") from None

    def passage(self, a: str, b: str) -> Passage:
        """The passage between rooms ``a`` and ``b`` (either order); ValueError if none."""
        p = self._passage_by_pair.get(frozenset((a, b)))
        if p is None or a == b:
            raise ValueError(f"no passage between {a!r} and {b!r}")
        return p

    def passage_key(self, a: str, b: str) -> tuple[str, str]:
        """Canonical ``(from, to)`` spelling of the passage between ``a`` and ``b``."""
        p = self.passage(a, b)
        return (p.frm, p.to)

    def is_suspect(self, x: str) -> bool:
        return x in self.suspect_names

    def is_room(self, x: str) -> bool:
        return x in self.room_names

    def is_sign(self, x: str) -> bool:
        return x in self.sign_names

    def is_weapon(self, x: str) -> bool:
        return x in self._weapon_by_id

    def is_motive(self, x: str) -> bool:
        return x in self._motive_by_id

    def weapons_leaving(self, sign: str) -> tuple[Weapon, ...]:
        """The weapons that leave ``sign``."""
        return tuple(w for w in self.weapons if sign in w.signs)

    def neighbours(self, room: str) -> tuple[str, ...]:
        """Rooms reachable from ``room`` in one step (two-way both ways, one-way forward)."""
        out = []
        for p in self.passages:
            if p.frm == room:
                out.append(p.to)
            elif p.to == room and not p.one_way:
                out.append(p.frm)
        return tuple(out)

    def display(self, x: str) -> str:
        """Display name of any id (suspect, room, sign, weapon, motive, speaker)."""
        for table in (self.speaker_names, self.room_names, self.sign_names):
            if x in table:
                return table[x]
        if x in self._weapon_by_id:
            return self._weapon_by_id[x].name or x
        if x in self._motive_by_id:
            return self._motive_by_id[x].name or x
        return x


# -- loading and validation ---------------------------------------------------------------


def _req(d: Any, key: str, where: str) -> Any:
    if not isinstance(d, dict):
        raise ValueError(f"board: {where} must be an object, got {type(d).__name__}")
    if key not in d:
        raise ValueError(f"board: {where} is missing the field {key!r}")
    return d[key]


def _str(x: Any, where: str) -> str:
    if not isinstance(x, str) or not x:
        raise ValueError(f"board: {where} must be a non-empty string, got {x!r}")
    return x


def _list(x: Any, where: str) -> list:
    if not isinstance(x, list):
        raise ValueError(f"board: {where} must be a list, got {type(x).__name__}")
    return x


def _unique(ids: list[str], what: str) -> None:
    seen: set[str] = set()
    for i in ids:
        if i in seen:
            raise ValueError(f"board: duplicate {what} id {i!r}")
        seen.add(i)


def _entities(d: dict, key: str) -> list[tuple[str, str, dict]]:
    out = []
    for k, e in enumerate(_list(_req(d, key, "the board"), key)):
        eid = _str(_req(e, "id", f"{key}[{k}]"), f"{key}[{k}].id")
        name = e.get("name", eid)
        out.append((eid, _str(name, f"{key}[{k}].name"), e))
    _unique([e[0] for e in out], key[:-1] if key.endswith("s") else key)
    return out


def board_from_json(d: dict) -> Board:
    """Validate a board JSON object and build the :class:`Board`; ValueError on any problem."""
    if not isinstance(d, dict):
        raise ValueError("board: the board file must hold a JSON object")
    fmt = d.get("format")
    if fmt != BOARD_FORMAT:
        raise ValueError(f"board: format must be {BOARD_FORMAT!r}, got {fmt!r}")
    name = _str(_req(d, "name", "the board"), "name")
    suspects = _entities(d, "suspects")
    suspect_ids = tuple(s[0] for s in suspects)
    head_count = _head_counts(suspects)
    rooms = _entities(d, "rooms")
    room_ids = tuple(r[0] for r in rooms)
    crime_scene = _crime_scene(d, room_ids)
    alibi = _alibi_rooms(d, room_ids, crime_scene)
    entrances = _study_entrances(d, room_ids, crime_scene)
    passages = _passages(d, room_ids, crime_scene, entrances)
    signs = _entities(d, "signs")
    sign_ids = tuple(s[0] for s in signs)
    weapons = _weapons(d, room_ids, crime_scene, sign_ids)
    motives = _motives(d, suspect_ids)
    staff, officials = _staff_and_officials(d)
    speakers = suspect_ids + tuple(s[0] for s in staff) + OFFICIALS
    _unique(list(speakers), "speaker")
    clash = set(speakers) & set(room_ids)
    if clash:
        raise ValueError(f"board: ids used both for a speaker and a room: {sorted(clash)}")
    all_ids = (
        list(speakers)
        + list(room_ids)
        + list(sign_ids)
        + [w.id for w in weapons]
        + [m.id for m in motives]
    )
    _unique(all_ids, "board")

    speaker_names = {sid: n for sid, n, _ in suspects}
    speaker_names.update({sid: n for sid, n, _ in staff})
    speaker_names.update({sid: n for sid, n, _ in officials})

    return Board(
        name=name,
        suspects=suspect_ids,
        suspect_names={sid: n for sid, n, _ in suspects},
        head_count=head_count,
        motives=tuple(motives),
        rooms=room_ids,
        room_names={rid: n for rid, n, _ in rooms},
        crime_scene=crime_scene,
        alibi_rooms=alibi,
        study_entrances=entrances,
        passages=tuple(passages),
        signs=sign_ids,
        sign_names={sid: n for sid, n, _ in signs},
        weapons=tuple(weapons),
        staff=tuple(s[0] for s in staff),
        speakers=speakers,
        speaker_names=speaker_names,
        references=suspect_ids + room_ids,
    )


def _head_counts(suspects: list[tuple[str, str, dict]]) -> dict[str, int]:
    if len(suspects) < MIN_SUSPECTS:
        raise ValueError(f"board: need at least {MIN_SUSPECTS} suspects, got {len(suspects)}")
    head_count: dict[str, int] = {}
    for sid, _, e in suspects:
        hc = e.get("head_count", 1)
        require_int(f"board: head_count of suspect {sid!r}", hc, 1, numpy=False)
        head_count[sid] = hc
    return head_count


def _crime_scene(d: dict, room_ids: tuple[str, ...]) -> str:
    crime_scene = _str(_req(d, "crime_scene", "the board"), "crime_scene")
    if crime_scene not in room_ids:
        raise ValueError(f"board: crime_scene {crime_scene!r} is not a room")
    if room_ids[0] != crime_scene:
        raise ValueError(f"board: the crime scene {crime_scene!r} must be the first room")
    return crime_scene


def _alibi_rooms(d: dict, room_ids: tuple[str, ...], crime_scene: str) -> tuple[str, ...]:
    alibi = tuple(_list(_req(d, "alibi_rooms", "the board"), "alibi_rooms"))
    if not alibi:
        raise ValueError("board: alibi_rooms is empty")
    _unique(list(alibi), "alibi room")
    for r in alibi:
        if r not in room_ids:
            raise ValueError(f"board: alibi room {r!r} is not a room")
        if r == crime_scene:
            raise ValueError("board: the crime scene cannot be an alibi room")
    if list(alibi) != [r for r in room_ids if r in alibi]:
        raise ValueError("board: alibi_rooms must be listed in room order")
    return alibi


def _study_entrances(d: dict, room_ids: tuple[str, ...], crime_scene: str) -> tuple[str, ...]:
    entrances = tuple(_list(_req(d, "study_entrances", "the board"), "study_entrances"))
    if not entrances:
        raise ValueError("board: study_entrances is empty")
    _unique(list(entrances), "study entrance")
    for r in entrances:
        if r not in room_ids or r == crime_scene:
            raise ValueError(
                f"board: study entrance {r!r} is not a room other than the crime scene"
            )
    return entrances


def _passages(
    d: dict, room_ids: tuple[str, ...], crime_scene: str, entrances: tuple[str, ...]
) -> list[Passage]:
    passages: list[Passage] = []
    pairs: set[frozenset[str]] = set()
    for k, p in enumerate(_list(_req(d, "passages", "the board"), "passages")):
        frm = _str(_req(p, "from", f"passages[{k}]"), f"passages[{k}].from")
        to = _str(_req(p, "to", f"passages[{k}]"), f"passages[{k}].to")
        one_way = p.get("one_way", False)
        if not isinstance(one_way, bool):
            raise ValueError(f"board: passages[{k}].one_way must be true or false")
        for r in (frm, to):
            if r not in room_ids:
                raise ValueError(f"board: passage {frm!r}-{to!r} names the unknown room {r!r}")
        if frm == to:
            raise ValueError(f"board: passage from {frm!r} to itself")
        pair = frozenset((frm, to))
        if pair in pairs:
            raise ValueError(f"board: duplicate passage between {frm!r} and {to!r}")
        pairs.add(pair)
        if crime_scene in pair:
            if not one_way or to != crime_scene:
                raise ValueError(
                    f"board: the passage {frm!r}-{to!r} touches the crime scene; it must be "
                    f"one-way into it (the crime scene has no way out)"
                )
            if frm not in entrances:
                raise ValueError(
                    f"board: one-way passage into the crime scene from {frm!r}, "
                    f"which is not a study entrance"
                )
        elif one_way:
            raise ValueError(
                f"board: one-way passage {frm!r}->{to!r} does not lead into the crime scene"
            )
        passages.append(Passage(frm, to, one_way))
    for r in entrances:
        if frozenset((r, crime_scene)) not in pairs:
            raise ValueError(f"board: study entrance {r!r} has no passage into the crime scene")
    return passages


def _weapons(
    d: dict, room_ids: tuple[str, ...], crime_scene: str, sign_ids: tuple[str, ...]
) -> list[Weapon]:
    weapons: list[Weapon] = []
    for k, (wid, wname, e) in enumerate(_entities(d, "weapons")):
        family = _str(_req(e, "family", f"weapon {wid!r}"), f"weapon {wid!r} family")
        room = _str(_req(e, "room", f"weapon {wid!r}"), f"weapon {wid!r} room")
        if room not in room_ids:
            raise ValueError(f"board: weapon {wid!r} is kept in the unknown room {room!r}")
        if room == crime_scene:
            raise ValueError(f"board: weapon {wid!r} cannot be kept in the crime scene")
        wsigns = _list(_req(e, "signs", f"weapon {wid!r}"), f"weapon {wid!r} signs")
        if len(wsigns) != SIGNS_PER_WEAPON:
            raise ValueError(
                f"board: weapon {wid!r} must leave exactly {SIGNS_PER_WEAPON} signs, got {len(wsigns)}"
            )
        for s in wsigns:
            if s not in sign_ids:
                raise ValueError(
                    f"board: weapon {wid!r} leaves the sign {s!r}, which is not on the sign list"
                )
        if wsigns[0] == wsigns[1]:
            raise ValueError(f"board: weapon {wid!r} lists the sign {wsigns[0]!r} twice")
        weapons.append(Weapon(wid, family, room, (wsigns[0], wsigns[1]), k, wname))
    if not weapons:
        raise ValueError("board: no weapons")
    return weapons


def _motives(d: dict, suspect_ids: tuple[str, ...]) -> list[Motive]:
    motives: list[Motive] = []
    raw_motives = _entities(d, "motives")
    for k, (mid, mname, e) in enumerate(raw_motives):
        owner = _str(_req(e, "owner", f"motive {mid!r}"), f"motive {mid!r} owner")
        if owner not in suspect_ids:
            raise ValueError(f"board: motive {mid!r} belongs to the unknown suspect {owner!r}")
        t = _list(_req(e, "testifiers", f"motive {mid!r}"), f"motive {mid!r} testifiers")
        if len(t) != TESTIFIERS_PER_MOTIVE:
            raise ValueError(
                f"board: motive {mid!r} must have exactly {TESTIFIERS_PER_MOTIVE} testifiers, "
                f"got {len(t)}"
            )
        for s in t:
            if s not in suspect_ids:
                raise ValueError(f"board: motive {mid!r} names the unknown testifier {s!r}")
            if s == owner:
                raise ValueError(
                    f"board: motive {mid!r}: {owner!r} cannot testify about their own motive"
                )
        if t[0] == t[1]:
            raise ValueError(f"board: motive {mid!r} lists the testifier {t[0]!r} twice")
        motives.append(Motive(mid, owner, (t[0], t[1]), k, mname))
    for s in suspect_ids:
        n = sum(m.owner == s for m in motives)
        if n != MOTIVES_PER_SUSPECT:
            raise ValueError(
                f"board: suspect {s!r} must have exactly {MOTIVES_PER_SUSPECT} motives, got {n}"
            )
    expected_order = [m.owner for m in motives]
    if expected_order != sorted(expected_order, key=suspect_ids.index):
        raise ValueError("board: motives must be listed suspect by suspect, in suspect order")
    return motives


def _staff_and_officials(
    d: dict,
) -> tuple[list[tuple[str, str, dict]], list[tuple[str, str, dict]]]:
    staff = _entities(d, "staff")
    if not staff:
        raise ValueError("board: no staff")
    officials = _entities(d, "officials")
    if tuple(o[0] for o in officials) != OFFICIALS:
        raise ValueError(f"board: officials must be exactly {list(OFFICIALS)}")
    return staff, officials


def load_board(path: str | Path | None = None) -> Board:
    """Load and validate a board file (default: the Walton board, ``walton.json``)."""
    p = Path(path) if path is not None else DEFAULT_BOARD_PATH
    try:
        d = json.loads(p.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise ValueError(f"board file {p}: not valid JSON ({e})") from e
    try:
        return board_from_json(d)
    except ValueError as e:
        raise ValueError(f"{p.name}: {e}") from e


def _default_board() -> Board:
    return WALTON


WALTON: Board = load_board()
