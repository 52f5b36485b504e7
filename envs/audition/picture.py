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
from parlour.envs.picture_kit import TABLE, Box, Canvas, Color, card_back, header, panel


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
    pad: int = 14  # inner padding of a panel
    content_y: int = 32  # where a panel's content starts, below its title
    pile_card: tuple[int, int] = (70, 94)
    pile_gap: int = 22  # between the deck and the drawn card
    slot_card: tuple[int, int] = (36, 50)
    slot_text_y: tuple[int, int, int] = (8, 11, 32)  # slot name, kind label, rule
    slot_cards_y: int = 56
    status_y: int = 14  # slot status, up from the bottom
    hand_card: tuple[int, int] = (38, 54)
    row_card: tuple[int, int] = (32, 44)
    deck_card: tuple[int, int] = (24, 34)
    deck_rows: int = 2  # rows of the seer's deck panel
    card_gap: int = 6
    count_y: int = 4  # a count below its card
    label_y: int = 8  # a label below a pile
    name_y: int = 10  # a player's name, down from the panel top
    tag_y: int = 13
    tag_gap: int = 14
    empty_y: int = 18  # "empty" notes, below the content start
    pile_layers: int = 3
    pile_offset: int = 3
    card_radius: int = 4
    band_inset: int = 3
    band: float = 0.14  # the coloured band at the top and bottom of a card, of its height
    number_scale: float = 0.42  # the number's size, of the card's height
    quartet_ring: int = 3
    heading_size: int = 17
    label_size: int = 13
    small_size: int = 11
    score_size: int = 24


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
    edge, r, i = PALETTE["card_edge"], L.card_radius, L.band_inset
    c.rect((x, y, x + w, y + h), fill=PALETTE["card"], outline=edge, radius=r)
    band = max(i + 1, h * L.band)
    c.rect((x + i, y + i, x + w - i, y + i + band), fill=color, radius=r / 2)
    c.rect((x + i, y + h - i - band, x + w - i, y + h - i), fill=color, radius=r / 2)
    size_pt = int(h * L.number_scale)
    c.text((x + w / 2, y + h / 2), str(number), size_pt, PALETTE["ink"], anchor="mm")


def _place(c: Canvas, x: float, y: float, size: tuple[int, int]) -> None:
    """An empty place for a card."""
    w, h = size
    box = (x, y, x + w, y + h)
    c.rect(box, fill=PALETTE["slot_empty"], outline=PALETTE["panel_edge"], radius=L.card_radius)


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
                g = L.quartet_ring
                ring = (x - g, y - g, x + w + g, y + h + g)
                c.rect(ring, outline=color, width=2, radius=L.card_radius + g)
        _musician(c, x, y, size, v)
        c.text((x + w / 2, y + h + L.count_y), f"x{k}", L.small_size, color, anchor="ma")
        x += step


def _header(c: Canvas, state: R.AuditionState, agents: list[str], seer: bool) -> None:
    sub = f"{state.num_players} players  ·  round {state.round}"
    if state.in_final:
        sub += "  ·  final phase"
    if seer:
        sub += "  ·  seer view (hidden cards shown)"
    if state.is_terminal:
        win = ", ".join(agents[p] for p in state.winners())
        header(c, "Audition", sub, f"winner: {win}", "game over")
    else:
        who = agents[state.current_player]
        header(c, "Audition", sub, f"{who} to act", PHASE_TEXT[state.phase])


def _piles(c: Canvas, state: R.AuditionState, agents: list[str], seer: bool, top: float) -> None:
    x0 = L.margin
    panel(c, (x0, top, x0 + L.pile_col_w, top + L.slot_row_h), "Deck")
    w, h = L.pile_card
    px, py = x0 + L.pad, top + L.content_y
    deck = len(state.deck)
    for k in range(min(L.pile_layers, deck) - 1, -1, -1):
        card_back(c, px + k * L.pile_offset, py - k * L.pile_offset, L.pile_card)
    if not deck:
        _place(c, px, py, L.pile_card)
    label_y = py + h + L.label_y
    c.text((px + w / 2, label_y), f"{deck} cards", L.label_size, PALETTE["text"], anchor="ma")
    dx = px + w + L.pile_gap
    c.text((dx + w / 2, top + L.label_y), "Drawn", L.label_size, PALETTE["text_dim"], anchor="ma")
    if not state.drawn:
        _place(c, dx, py, L.pile_card)
    elif seer:
        _musician(c, dx, py, L.pile_card, state.drawn)
    else:
        card_back(c, dx, py, L.pile_card)
    if state.drawn:
        drawer = agents[state.current]
        c.text((dx + w / 2, label_y), drawer, L.label_size, PALETTE["gold"], anchor="ma")
    if state.removed:
        text = f"{len(state.removed)} removed unseen"
        if seer:
            text = "removed: " + " ".join(str(v) for v in sorted(state.removed))
        y = top + L.slot_row_h - L.empty_y
        c.text((px, y), text, L.small_size, PALETTE["text_dim"])


def _slot(c: Canvas, state: R.AuditionState, s: int, box: Box) -> None:
    x0, y0, x1, y1 = box
    taken = state.slot_taken[s]
    kind = R.SLOT_KINDS[state.slot_kinds[s]]
    label, rule = KIND_TEXT[kind]
    action = kind != R.CONDUCTOR
    fill = PALETTE["taken"] if taken else PALETTE["panel"]
    edge = PALETTE["gold"] if action else PALETTE["panel_edge"]
    c.rect(box, fill=fill, outline=edge, width=1.5 if action else 1, radius=L.radius)
    name_y, label_y, rule_y = (y0 + dy for dy in L.slot_text_y)
    pad = L.pad - 4
    c.text((x0 + pad, name_y), f"Slot {s}", L.heading_size, PALETTE["text"])
    label_color = edge if action else PALETTE["text_dim"]
    c.text((x1 - pad, label_y), label, L.label_size, label_color, anchor="ra")
    rule = c.fit(rule, L.small_size, x1 - x0 - 2 * pad)
    c.text((x0 + pad, rule_y), rule, L.small_size, PALETTE["text_dim"])
    cap, gap, places = state.slot_capacity(s), L.card_gap, R.SLOT_CAPACITY
    w = min(L.slot_card[0], int((x1 - x0 - (places + 1) * gap) / places))
    size = (w, w * L.slot_card[1] // L.slot_card[0])
    cx = x0 + (x1 - x0 - cap * w - (cap - 1) * gap) / 2
    numbers = [v for v in range(1, R.MAX_NUMBER + 1) for _ in range(int(state.slots[s][v]))]
    for k in range(cap):
        x = cx + k * (w + gap)
        if k < len(numbers):
            _musician(c, x, y0 + L.slot_cards_y, size, numbers[k])
        elif not taken:
            _place(c, x, y0 + L.slot_cards_y, size)
    status = "taken this round" if taken else f"{state.slot_size[s]} / {cap} musicians"
    color = PALETTE["text_dim"] if taken else PALETTE["text"]
    c.text(((x0 + x1) / 2, y1 - L.status_y), status, L.label_size, color, anchor="ms")


def _slots(c: Canvas, state: R.AuditionState, top: float) -> None:
    n = state.num_players
    x0 = L.margin + L.pile_col_w + L.gap
    span = L.width - L.margin - x0
    w = (span - (n - 1) * L.gap) / n
    for s in range(n):
        x = x0 + s * (w + L.gap)
        _slot(c, state, s, (x, top, x + w, top + L.slot_row_h))


def _player(c: Canvas, state: R.AuditionState, agents: list[str], p: int, box: Box) -> None:
    x0, y0, x1, _ = box
    acting = p == state.current_player
    winner = state.is_terminal and p in state.winners()
    lit = acting or winner
    edge = PALETTE["gold"] if lit else PALETTE["panel_edge"]
    c.rect(box, fill=PALETTE["panel"], outline=edge, width=3 if lit else 1, radius=L.radius)
    c.text((x0 + L.pad, y0 + L.name_y), agents[p], L.heading_size, PALETTE["text"])
    tags = [
        (text, PALETTE[color])
        for text, color, on in (
            ("to act", "gold", acting),
            ("winner", "gold", winner),
            ("sat out this round", "text_dim", state.taken[p] and not state.is_terminal),
        )
        if on
    ]
    tx = x0 + L.pad + c.text_width(agents[p], L.heading_size) + L.tag_gap
    for text, color in tags:
        c.text((tx, y0 + L.tag_y), text, L.label_size, color)
        tx += c.text_width(text, L.label_size) + L.tag_gap
    score = state.scores()[p]
    points = f"{score} {'pt' if score == 1 else 'pts'}"
    c.text((x1 - L.pad, y0 + L.name_y / 2), points, L.score_size, PALETTE["text"], anchor="ra")
    counts = state.collections[p]
    y = y0 + L.content_y + L.name_y / 2
    if counts.any():
        _counted_cards(c, x0 + L.pad, y, counts, L.hand_card, mark=True)
    else:
        empty = "no musicians yet"
        c.text((x0 + L.pad, y + L.empty_y), empty, L.label_size, PALETTE["text_dim"])


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
    left, right = L.margin, L.margin + half + L.gap
    y = top + L.content_y
    panel(c, (left, top, left + half, top + L.bottom_h), "Discard row")
    if state.discard.any():
        _counted_cards(c, left + L.pad, y, state.discard, L.row_card, mark=False)
    else:
        c.text((left + L.pad, y + L.empty_y), "empty", L.label_size, PALETTE["text_dim"])
    box = (right, top, right + half, top + L.bottom_h)
    if not seer:
        panel(c, box, "Not seen face up yet (deck, removed and drawn cards)")
        if state.public_unseen.any():
            _counted_cards(c, right + L.pad, y, state.public_unseen, L.row_card, mark=False)
        else:
            c.text((right + L.pad, y + L.empty_y), "none", L.label_size, PALETTE["text_dim"])
        return
    panel(c, box, "Deck in order, top first (seer)")
    order = state.deck[::-1]
    w, h = L.deck_card
    per_row = SEER_DECK_SHOWN // L.deck_rows
    for k, v in enumerate(order[:SEER_DECK_SHOWN]):
        row, col = divmod(k, per_row)
        x = right + L.pad + col * (w + L.card_gap)
        _musician(c, x, y + row * (h + L.card_gap), L.deck_card, v)
    if len(order) > SEER_DECK_SHOWN:
        more = f"+{len(order) - SEER_DECK_SHOWN} more"
        at = (right + half - L.pad, top + L.label_y)
        c.text(at, more, L.small_size, PALETTE["text_dim"], anchor="ra")


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
