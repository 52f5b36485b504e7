"""Awkward Guests — the mansion map of the table picture (:mod:`parlour.envs.awkward_guests.picture`).

:func:`draw_map` draws the Walton mansion into a box of a :class:`~parlour.envs.picture_kit.Canvas`:

| part | drawn as |
|---|---|
| rooms | boxes at the places of :data:`ROOM_LAYOUT` (the crime scene in red) |
| passages | lines between the boxes (:data:`PASSAGE_BENDS` for the one that goes round) |
| one-way passages | arrows into the crime scene |
| asked rooms | a gold outline and the note ``asked`` (public: the inquiry of this turn) |
| hidden (seer only) | the murderer's route as red arrows, the weapon's room, suspect tokens where each suspect was at the time of the murder |

The hidden part comes in a :class:`HiddenMap`, which the caller builds only for a seer: without
one, nothing of the case's truth reaches this module.

The board has no coordinates, so the layout is data here: a grid of :data:`MAP_GRID` cells and
one entry per room of the Walton board (column, row, width, height in cells)::

    Billiard Room   Trophy Room   Garage
    Vestibule            Study              Bedroom
    Living Room     Library       Shed      Kitchen
    (the Kitchen - Living Room passage runs below the bottom row)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from parlour.envs.awkward_guests import WALTON
from parlour.envs.picture_kit import PANEL, TABLE, Box, Canvas, Color

Point = tuple[float, float]


@dataclass(frozen=True)
class MapStyle:
    """Sizes of the map's parts, in pixels."""

    radius: int = 10
    pad_x: int = 10
    title_h: int = 30
    legend_h: int = 10
    room_radius: int = 6
    room_size: int = 14
    label_size: int = 13
    small_size: int = 11
    name_y: int = 8
    note_y: int = 27
    passage_w: float = 4
    route_w: float = 5
    arrow: float = 13
    token_r: float = 7.5
    token_gap: float = 3
    asked_grow: float = 4


STYLE = MapStyle()

#: Colours of the map.
MAP_PALETTE: dict[str, Color] = {
    "map": (236, 226, 200),
    "map_edge": (156, 136, 100),
    "room": (250, 244, 228),
    "room_edge": (120, 100, 72),
    "crime": (240, 208, 196),
    "crime_edge": (168, 60, 52),
    "passage": (178, 150, 106),
    "route": (200, 48, 48),
    "gold": TABLE["gold"],
    "ink": TABLE["ink"],
    "ink_dim": TABLE["ink_dim"],
    "token_text": TABLE["text"],
}

#: The Walton mansion, one entry per room: ``(column, row, width, height)`` in grid cells
#: (the centre of the box and its size). The grid is :data:`MAP_GRID`.
ROOM_LAYOUT: dict[str, tuple[float, float, float, float]] = {
    "billiard_room": (0.0, 0.0, 0.8, 0.64),
    "trophy_room": (1.0, 0.0, 0.8, 0.64),
    "garage": (2.0, 0.0, 0.8, 0.64),
    "vestibule": (0.0, 1.0, 0.8, 0.64),
    "study": (1.62, 1.0, 1.45, 0.68),
    "bedroom": (3.0, 1.0, 0.8, 0.64),
    "living_room": (0.0, 2.0, 0.8, 0.64),
    "library": (1.0, 2.0, 0.8, 0.64),
    "shed": (2.0, 2.0, 0.8, 0.64),
    "kitchen": (3.0, 2.0, 0.8, 0.64),
}
#: Columns and rows of the map grid (the extra half row at the bottom is the corridor of the
#: Kitchen - Living Room passage).
MAP_GRID: tuple[float, float] = (4.0, 3.5)
#: Passages drawn as polylines: the two rooms -> the bends between them, in grid cells.
PASSAGE_BENDS: dict[frozenset[str], tuple[Point, ...]] = {
    frozenset(("kitchen", "living_room")): ((3.0, 2.55), (0.0, 2.55)),
}
#: One colour per suspect (map tokens and inquiry chips).
SUSPECT_COLORS: dict[str, Color] = {
    "angelica": (196, 72, 110),
    "berwick": (120, 84, 176),
    "claudette": (214, 132, 40),
    "greg": (56, 140, 80),
    "mortimer": (60, 110, 190),
    "stanley": (110, 90, 70),
}
#: Colour of a suspect missing from :data:`SUSPECT_COLORS`.
OTHER_SUSPECT: Color = (90, 90, 90)

ARTICLE = "the "
LEGEND = "arrow: one-way passage into the crime scene   gold: asked this turn"
LEGEND_SEER = "   red: murderer's route (seer)"


@dataclass(frozen=True)
class HiddenMap:
    """The case's hidden truth that a seer's map shows."""

    route: tuple[str, ...]  # the murderer's walk, room by room
    weapon_room: str
    locations: dict[str, str] = field(default_factory=dict)  # suspect -> room at the murder


def display_name(x: str) -> str:
    """The display name of a board id without a leading "the" (``Trophy Room``)."""
    name = WALTON.display(x)
    if name.lower().startswith(ARTICLE):
        name = name[len(ARTICLE) :]
    return name[:1].upper() + name[1:]


def suspect_color(suspect: str) -> Color:
    return SUSPECT_COLORS.get(suspect, OTHER_SUSPECT)


class MapGeometry:
    """Where the rooms of :data:`ROOM_LAYOUT` are inside a map box."""

    def __init__(self, box: Box) -> None:
        x0, y0, x1, y1 = box
        self.x0, self.y0 = x0 + STYLE.pad_x, y0 + STYLE.title_h
        self.cw = (x1 - x0 - 2 * STYLE.pad_x) / MAP_GRID[0]
        self.ch = (y1 - y0 - STYLE.title_h - STYLE.legend_h) / MAP_GRID[1]

    def point(self, col: float, row: float) -> Point:
        return self.x0 + (col + 0.5) * self.cw, self.y0 + (row + 0.5) * self.ch

    def room_box(self, room: str) -> Box:
        col, row, w, h = ROOM_LAYOUT[room]
        cx, cy = self.point(col, row)
        hw, hh = w * self.cw / 2, h * self.ch / 2
        return cx - hw, cy - hh, cx + hw, cy + hh

    def edge_toward(self, room: str, target: Point) -> Point:
        """Where the line from the room's centre to ``target`` leaves its box."""
        x0, y0, x1, y1 = self.room_box(room)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        dx, dy = target[0] - cx, target[1] - cy
        tx = (x1 - cx) / abs(dx) if dx else float("inf")
        ty = (y1 - cy) / abs(dy) if dy else float("inf")
        t = min(tx, ty, 1.0)
        return cx + dx * t, cy + dy * t

    def path(self, a: str, b: str) -> list[Point]:
        """The polyline of the passage from room ``a`` to room ``b`` (box edge to box edge)."""
        bends = [self.point(*p) for p in PASSAGE_BENDS.get(frozenset((a, b)), ())]
        if bends and self._distance(a, bends[-1]) < self._distance(a, bends[0]):
            bends.reverse()
        first = bends[0] if bends else self._centre(b)
        last = bends[-1] if bends else self._centre(a)
        return [self.edge_toward(a, first), *bends, self.edge_toward(b, last)]

    def _centre(self, room: str) -> Point:
        return self.point(*ROOM_LAYOUT[room][:2])

    def _distance(self, room: str, p: Point) -> float:
        cx, cy = self._centre(room)
        return float(np.hypot(p[0] - cx, p[1] - cy))


def _passages(c: Canvas, geo: MapGeometry, hidden: HiddenMap | None) -> None:
    route = hidden.route if hidden else ()
    steps = set(zip(route, route[1:], strict=False))
    for p in WALTON.passages:
        path = geo.path(p.frm, p.to)
        c.line(path, MAP_PALETTE["passage"], STYLE.passage_w)
        if p.one_way:
            c.arrow_head(path[-1], path[-2], STYLE.arrow, MAP_PALETTE["passage"])
        for a, b in ((p.frm, p.to), (p.to, p.frm)):
            if (a, b) in steps:
                walk = geo.path(a, b)
                c.line(walk, MAP_PALETTE["route"], STYLE.route_w)
                c.arrow_head(walk[-1], walk[-2], STYLE.arrow, MAP_PALETTE["route"])


def _tokens(c: Canvas, box: Box, suspects: list[str]) -> None:
    """Suspect tokens with initials along the bottom of a room box."""
    r = STYLE.token_r
    x = box[0] + r + STYLE.asked_grow
    y = box[3] - r - STYLE.asked_grow
    for s in suspects:
        c.circle((x, y), r, suspect_color(s), MAP_PALETTE["room_edge"])
        c.text((x, y), display_name(s)[0], STYLE.small_size, MAP_PALETTE["token_text"], anchor="mm")
        x += 2 * r + STYLE.token_gap


def _room(c: Canvas, box: Box, room: str, asked: bool, hidden: HiddenMap | None) -> None:
    crime = room == WALTON.crime_scene
    fill = MAP_PALETTE["crime"] if crime else MAP_PALETTE["room"]
    edge = MAP_PALETTE["crime_edge"] if crime else MAP_PALETTE["room_edge"]
    c.rect(box, fill=fill, outline=edge, width=1.5, radius=STYLE.room_radius)
    if asked:
        g = STYLE.asked_grow
        grown = (box[0] - g, box[1] - g, box[2] + g, box[3] + g)
        c.rect(grown, outline=MAP_PALETTE["gold"], width=3, radius=STYLE.room_radius + g)
    cx, width = (box[0] + box[2]) / 2, box[2] - box[0] - 2 * STYLE.asked_grow
    name = c.fit(display_name(room), STYLE.room_size, width)
    c.text((cx, box[1] + STYLE.name_y), name, STYLE.room_size, MAP_PALETTE["ink"], anchor="ma")
    notes = [
        text
        for text, on in (
            ("crime scene", crime),
            ("asked", asked),
            ("the weapon's room", hidden is not None and room == hidden.weapon_room),
        )
        if on
    ]
    if notes:
        note = c.fit(" · ".join(notes), STYLE.small_size, width)
        c.text(
            (cx, box[1] + STYLE.note_y), note, STYLE.small_size, MAP_PALETTE["ink_dim"], anchor="ma"
        )
    if hidden is not None:
        _tokens(c, box, [s for s in WALTON.suspects if hidden.locations.get(s) == room])


def draw_map(c: Canvas, box: Box, asked: set[str], hidden: HiddenMap | None) -> None:
    """The mansion in ``box``: rooms, passages, the ``asked`` rooms outlined, and with a
    ``hidden`` map (seer only) the route, the weapon's room and the suspects' places."""
    x0, y0, x1, y1 = box
    c.rect(
        box, fill=MAP_PALETTE["map"], outline=MAP_PALETTE["map_edge"], width=2, radius=STYLE.radius
    )
    title = f"{WALTON.name}: the mansion"
    tx, ty = PANEL.title_at
    c.text((x0 + tx, y0 + ty), title, STYLE.label_size, MAP_PALETTE["ink_dim"])
    legend = LEGEND + (LEGEND_SEER if hidden else "")
    c.text((x1 - tx, y1 - ty), legend, STYLE.small_size, MAP_PALETTE["ink_dim"], anchor="rs")
    geo = MapGeometry(box)
    _passages(c, geo, hidden)
    for room in WALTON.rooms:
        _room(c, geo.room_box(room), room, room in asked, hidden)
