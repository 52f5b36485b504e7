"""Audition — a picture of the public table (``render_mode="rgb_array"``).

:func:`draw_table` draws what a spectator at the table sees into an ``(H, W, 3)`` ``uint8``
array (Pillow, antialiased: see :mod:`parlour.envs.picture_kit`):

| part | shows |
|---|---|
| header | round, player count, final phase, whose decision and what it is (or the winners) |
| deck | the pile as card backs with its size; the removed-unseen count (variant 2) |
| drawn | the card being placed, face down (its drawer is named) |
| slots | one panel per slot: number, kind (conductor or action card, with its rule), places for the musicians, the musicians as cards, taken or not |
| players | one panel per seat: score, sat out this round, to act, winner; the collection as cards with counts (scoring counts, 1 and 4, are marked) |
| discard row | the discarded musicians with counts |
| not seen yet | how many cards of each number nobody has seen face up (deck, removed and drawn: public arithmetic) |

It never draws the deck order, the removed cards or a drawn card's number. With ``seer=True``
(the env's ``seer`` argument) the drawn card is face up, the removed cards are named under the
deck, and the last panel shows the deck in order (top first) instead of the unseen counts; the
header then says ``seer view``.

Image size: ``1280`` wide; the height depends on the player count only (players are shown
two per row):

| players | size (W × H) |
|---|---|
| 2 | 1280 × 544 |
| 3, 4 | 1280 × 668 |
| 5, 6 | 1280 × 792 |

(:func:`image_size`; the array shape is ``(H, W, 3)``.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from parlour.envs.audition import rules as R
from parlour.envs.picture_kit import TABLE, Box, Canvas, Color


@dataclass(frozen=True)
class Layout:
    """Sizes and positions of the picture's parts, in pixels."""

    width: int = 1280
    margin: int = 20
    gap: int = 12
    header_h: int = 64
    slot_row_h: int = 176
    pile_col_w: int = 196
    player_cols: int = 2
    player_h: int = 112
    bottom_h: int = 116
    radius: int = 10
    pile_card: tuple[int, int] = (70, 94)
    slot_card: tuple[int, int] = (36, 50)
    hand_card: tuple[int, int] = (38, 54)
    row_card: tuple[int, int] = (32, 44)
    deck_card: tuple[int, int] = (24, 34)
    card_gap: int = 6
    pile_layers: int = 3
    pile_offset: int = 3
    title_size: int = 28
    heading_size: int = 17
    label_size: int = 13
    small_size: int = 11
    score_size: int = 24
    band: int = 7  # the coloured band at the top and bottom of a musician card


L = Layout()

#: Colours of this picture (the shared table palette plus the number and slot colours).
PALETTE: dict[str, Color] = {
    **TABLE,
    "taken": (28, 70, 50),
    "soloist": (176, 238, 170),
    "quartet": (242, 193, 78),
}

#: One colour per musician number 1..13 (index 0 unused): a band on each card.
NUMBER_COLORS: tuple[Color, ...] = (
    (0, 0, 0),
    (196, 78, 82),
    (222, 128, 64),
    (214, 176, 52),
    (146, 180, 62),
    (76, 164, 98),
    (54, 160, 152),
    (62, 132, 196),
    (92, 102, 196),
    (138, 88, 190),
    (184, 84, 164),
    (150, 108, 78),
    (96, 110, 120),
    (60, 60, 70),
)

#: Slot kind -> (label, short rule) drawn on each slot panel.
KIND_TEXT: dict[str, tuple[str, str]] = {
    R.CONDUCTOR: ("conductor", "holds 4 musicians"),
    "max_two": ("max two", "holds only 2 musicians"),
    "pass_left": ("pass left", "taker passes 1 musician left"),
    "discard_one": ("discard one", "taker discards 1 of these"),
    "discard_own": ("discard own", "taker may discard 1 earlier"),
    "draw_one": ("draw one", "taker draws 1 card face up"),
    "take_now": ("take now", "placer may take it at once"),
}

#: Counts that score in a collection -> palette key of their mark (1: soloist, 4: quartet).
SCORING: dict[int, str] = {1: "soloist", R.SLOT_CAPACITY: "quartet"}

#: What the player to act is doing, by phase.
PHASE_TEXT: dict[int, str] = {
    R.PH_TURN: "draws or takes a slot",
    R.PH_PLACE: "places the drawn card",
    R.PH_TAKE_NOW: "may take the take-now slot at once",
    R.PH_PASS_LEFT: "passes one musician left",
    R.PH_DISCARD_ONE: "discards one of the taken musicians",
    R.PH_DISCARD_OWN: "may discard one earlier musician",
    R.PH_FINAL: "takes a last slot or none",
}

#: Largest number of deck cards shown face up in the seer's deck panel.
SEER_DECK_SHOWN = 30


def player_rows(num_players: int) -> int:
    return -(-num_players // L.player_cols)


def image_size(num_players: int) -> tuple[int, int]:
    """``(width, height)`` of the picture for ``num_players`` (see the module table)."""
    rows = player_rows(num_players)
    height = (
        2 * L.margin
        + L.header_h
        + L.gap
        + L.slot_row_h
        + L.gap
        + rows * (L.player_h + L.gap)
        + L.bottom_h
    )
    return L.width, height


# ----------------------------------------------------------------------------- cards


def _musician(c: Canvas, x: float, y: float, size: tuple[int, int], number: int) -> None:
    """A face-up musician card with its number, top-left at ``(x, y)``."""
    w, h = size
    color = NUMBER_COLORS[number]
    c.rect((x, y, x + w, y + h), fill=PALETTE["card"], outline=PALETTE["card_edge"], radius=4)
    band = max(4, h * L.band // 50)
    c.rect((x + 3, y + 3, x + w - 3, y + 3 + band), fill=color, radius=2)
    c.rect((x + 3, y + h - 3 - band, x + w - 3, y + h - 3), fill=color, radius=2)
    c.text((x + w / 2, y + h / 2), str(number), int(h * 0.42), PALETTE["ink"], anchor="mm")


def _back(c: Canvas, x: float, y: float, size: tuple[int, int]) -> None:
    """A card back, top-left at ``(x, y)``."""
    w, h = size
    c.rect((x, y, x + w, y + h), fill=PALETTE["back"], outline=PALETTE["back_edge"], radius=5)
    inset = max(3, w // 10)
    c.rect(
        (x + inset, y + inset, x + w - inset, y + h - inset),
        outline=PALETTE["back_inner"],
        width=1.5,
        radius=3,
    )
    cx, cy, r = x + w / 2, y + h / 2, min(w, h) / 5
    c.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], PALETTE["back_inner"])


def _place(c: Canvas, x: float, y: float, size: tuple[int, int]) -> None:
    """An empty place for a card (a dashed-looking outline)."""
    w, h = size
    c.rect(
        (x, y, x + w, y + h), fill=PALETTE["slot_empty"], outline=PALETTE["panel_edge"], radius=4
    )


def _counted_cards(
    c: Canvas, x: float, y: float, counts: np.ndarray, size: tuple[int, int], mark: bool
) -> None:
    """One card per number held with its count below (``mark``: colour the scoring counts,
    soloists green and quartets gold, and outline the quartets)."""
    w, h = size
    step = w + L.card_gap
    for v in range(1, R.MAX_NUMBER + 1):
        k = int(counts[v])
        if not k:
            continue
        color = PALETTE["text_dim"]
        if mark and k in SCORING:
            color = PALETTE[SCORING[k]]
            if k == R.SLOT_CAPACITY:
                c.rect((x - 3, y - 3, x + w + 3, y + h + 3), outline=color, width=2, radius=6)
        _musician(c, x, y, size, v)
        c.text((x + w / 2, y + h + 4), f"x{k}", L.small_size, color, anchor="ma")
        x += step


def _panel(c: Canvas, box: Box, title: str, edge: Color | None = None, width: float = 1) -> None:
    c.rect(
        box,
        fill=PALETTE["panel"],
        outline=edge or PALETTE["panel_edge"],
        width=width,
        radius=L.radius,
    )
    c.text((box[0] + 12, box[1] + 8), title, L.label_size, PALETTE["text_dim"])


# ----------------------------------------------------------------------------- parts


def _header(c: Canvas, state: R.AuditionState, agents: list[str], seer: bool) -> None:
    x0, y0 = L.margin, L.margin
    c.text((x0, y0), "Audition", L.title_size, PALETTE["text"])
    sub = f"{state.num_players} players  ·  round {state.round}"
    if state.in_final:
        sub += "  ·  final phase"
    if seer:
        sub += "  ·  seer view (hidden cards shown)"
    c.text((x0, y0 + 38), sub, L.label_size, PALETTE["text_dim"])
    right = L.width - L.margin
    if state.is_terminal:
        win = ", ".join(agents[p] for p in state.winners())
        c.text((right, y0 + 4), "Game over", L.heading_size, PALETTE["text"], anchor="ra")
        c.text((right, y0 + 30), f"winner: {win}", L.heading_size + 3, PALETTE["gold"], anchor="ra")
        return
    who = agents[state.current_player]
    c.text((right, y0 + 4), f"{who} to act", L.heading_size + 3, PALETTE["gold"], anchor="ra")
    c.text((right, y0 + 34), PHASE_TEXT[state.phase], L.heading_size, PALETTE["text"], anchor="ra")


def _piles(c: Canvas, state: R.AuditionState, agents: list[str], seer: bool, top: float) -> None:
    x0 = L.margin
    _panel(c, (x0, top, x0 + L.pile_col_w, top + L.slot_row_h), "Deck")
    w, h = L.pile_card
    px, py = x0 + 16, top + 32
    deck = len(state.deck)
    if deck:
        layers = min(L.pile_layers, deck)
        for k in range(layers - 1, -1, -1):
            _back(c, px + k * L.pile_offset, py - k * L.pile_offset, L.pile_card)
    else:
        _place(c, px, py, L.pile_card)
    c.text((px + w / 2, py + h + 8), f"{deck} cards", L.label_size, PALETTE["text"], anchor="ma")
    dx = px + w + 22
    c.text((dx + w / 2, top + 8), "Drawn", L.label_size, PALETTE["text_dim"], anchor="ma")
    if state.drawn:
        if seer:
            _musician(c, dx, py, L.pile_card, state.drawn)
        else:
            _back(c, dx, py, L.pile_card)
        name = agents[state.current]
        c.text((dx + w / 2, py + h + 8), name, L.label_size, PALETTE["gold"], anchor="ma")
    else:
        _place(c, dx, py, L.pile_card)
    if state.removed:
        text = f"{len(state.removed)} removed unseen"
        if seer:
            text = "removed: " + " ".join(str(v) for v in sorted(state.removed))
        c.text((x0 + 16, top + L.slot_row_h - 18), text, L.small_size, PALETTE["text_dim"])


def _slot(c: Canvas, state: R.AuditionState, s: int, box: Box) -> None:
    x0, y0, x1, y1 = box
    taken = state.slot_taken[s]
    kind = R.SLOT_KINDS[state.slot_kinds[s]]
    label, rule = KIND_TEXT[kind]
    fill = PALETTE["taken"] if taken else PALETTE["panel"]
    action = kind != R.CONDUCTOR
    edge = PALETTE["gold"] if action else PALETTE["panel_edge"]
    c.rect(box, fill=fill, outline=edge, width=1.5 if action else 1, radius=L.radius)
    c.text((x0 + 10, y0 + 8), f"Slot {s}", L.heading_size, PALETTE["text"])
    c.text(
        (x1 - 10, y0 + 11),
        label,
        L.label_size,
        edge if action else PALETTE["text_dim"],
        anchor="ra",
    )
    c.text(
        (x0 + 10, y0 + 32),
        c.fit(rule, L.small_size, x1 - x0 - 20),
        L.small_size,
        PALETTE["text_dim"],
    )
    cap = state.slot_capacity(s)
    room = x1 - x0 - 2 * L.card_gap - (R.SLOT_CAPACITY - 1) * L.card_gap
    w = min(L.slot_card[0], int(room / R.SLOT_CAPACITY))
    size = (w, w * L.slot_card[1] // L.slot_card[0])
    row_w = R.SLOT_CAPACITY * w + (R.SLOT_CAPACITY - 1) * L.card_gap
    cx = x0 + (x1 - x0 - row_w) / 2
    cy = y0 + 56
    numbers = [v for v in range(1, R.MAX_NUMBER + 1) for _ in range(int(state.slots[s][v]))]
    for k in range(cap):
        x = cx + k * (w + L.card_gap)
        if k < len(numbers):
            _musician(c, x, cy, size, numbers[k])
        elif not taken:
            _place(c, x, cy, size)
    status = "taken this round" if taken else f"{state.slot_size[s]} / {cap} musicians"
    color = PALETTE["text_dim"] if taken else PALETTE["text"]
    c.text(((x0 + x1) / 2, y1 - 14), status, L.label_size, color, anchor="ms")


def _slots(c: Canvas, state: R.AuditionState, top: float) -> None:
    n = state.num_players
    x0 = L.margin + L.pile_col_w + L.gap
    span = L.width - L.margin - x0
    w = (span - (n - 1) * L.gap) / n
    for s in range(n):
        x = x0 + s * (w + L.gap)
        _slot(c, state, s, (x, top, x + w, top + L.slot_row_h))


def _player(c: Canvas, state: R.AuditionState, agents: list[str], p: int, box: Box) -> None:
    x0, y0, x1, y1 = box
    acting = p == state.current_player
    winner = state.is_terminal and p in state.winners()
    edge = PALETTE["gold"] if acting or winner else PALETTE["panel_edge"]
    c.rect(
        box,
        fill=PALETTE["panel"],
        outline=edge,
        width=3 if acting or winner else 1,
        radius=L.radius,
    )
    c.text((x0 + 14, y0 + 10), agents[p], L.heading_size, PALETTE["text"])
    tags = []
    if acting:
        tags.append(("to act", PALETTE["gold"]))
    if winner:
        tags.append(("winner", PALETTE["gold"]))
    if state.taken[p] and not state.is_terminal:
        tags.append(("sat out this round", PALETTE["text_dim"]))
    tx = x0 + 14 + c.text_width(agents[p], L.heading_size) + 14
    for text, color in tags:
        c.text((tx, y0 + 13), text, L.label_size, color)
        tx += c.text_width(text, L.label_size) + 14
    score = state.scores()[p]
    unit = "pt" if score == 1 else "pts"
    c.text((x1 - 14, y0 + 6), f"{score} {unit}", L.score_size, PALETTE["text"], anchor="ra")
    counts = state.collections[p]
    if counts.any():
        _counted_cards(c, x0 + 16, y0 + 38, counts, L.hand_card, mark=True)
    else:
        c.text((x0 + 16, y0 + 56), "no musicians yet", L.label_size, PALETTE["text_dim"])


def _players(c: Canvas, state: R.AuditionState, agents: list[str], top: float) -> None:
    cols = L.player_cols
    w = (L.width - 2 * L.margin - (cols - 1) * L.gap) / cols
    for p in range(state.num_players):
        r, k = divmod(p, cols)
        x = L.margin + k * (w + L.gap)
        y = top + r * (L.player_h + L.gap)
        _player(c, state, agents, p, (x, y, x + w, y + L.player_h))


def _bottom(c: Canvas, state: R.AuditionState, seer: bool, top: float) -> None:
    half = (L.width - 2 * L.margin - L.gap) / 2
    x0 = L.margin
    box = (x0, top, x0 + half, top + L.bottom_h)
    _panel(c, box, "Discard row")
    if state.discard.any():
        _counted_cards(c, x0 + 14, top + 32, state.discard, L.row_card, mark=False)
    else:
        c.text((x0 + 14, top + 50), "empty", L.label_size, PALETTE["text_dim"])
    x1 = x0 + half + L.gap
    box = (x1, top, x1 + half, top + L.bottom_h)
    if not seer:
        _panel(c, box, "Not seen face up yet (deck, removed and drawn cards)")
        unseen = state.public_unseen
        if unseen.any():
            _counted_cards(c, x1 + 14, top + 32, unseen, L.row_card, mark=False)
        return
    _panel(c, box, "Deck in order, top first (seer)")
    order = state.deck[::-1]
    w, h = L.deck_card
    for k, v in enumerate(order[:SEER_DECK_SHOWN]):
        col, row = k % (SEER_DECK_SHOWN // 2), k // (SEER_DECK_SHOWN // 2)
        _musician(c, x1 + 14 + col * (w + 4), top + 30 + row * (h + 6), L.deck_card, v)
    if len(order) > SEER_DECK_SHOWN:
        more = f"+{len(order) - SEER_DECK_SHOWN} more"
        c.text((x1 + half - 12, top + 8), more, L.small_size, PALETTE["text_dim"], anchor="ra")


def draw_table(state: R.AuditionState, agents: list[str], seer: bool = False) -> np.ndarray:
    """The table picture of ``state`` (seats named by ``agents``) as an ``(H, W, 3)`` ``uint8``
    array; ``seer`` also draws the hidden cards (see the module docstring)."""
    width, height = image_size(state.num_players)
    c = Canvas(width, height, PALETTE["felt"])
    _header(c, state, agents, seer)
    top = L.margin + L.header_h + L.gap
    _piles(c, state, agents, seer, top)
    _slots(c, state, top)
    top += L.slot_row_h + L.gap
    _players(c, state, agents, top)
    top += player_rows(state.num_players) * (L.player_h + L.gap)
    _bottom(c, state, seer, top)
    return c.to_array()
