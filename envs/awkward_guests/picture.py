"""Awkward Guests — a picture of the public table (``render_mode="rgb_array"``).

:func:`draw_table` draws what a spectator at the table sees into an ``(H, W, 3)`` ``uint8``
array (Pillow, antialiased: see :mod:`parlour.envs.picture_kit`):

| part | shows |
|---|---|
| header | level, player count, round / round limit, start player, phase and who decides what (or the result) |
| mansion map | the rooms as boxes (the crime scene marked), the passages as lines, the one-way passages into the crime scene as arrows; rooms asked about this turn are outlined |
| players | one row per seat: hand size as card backs and a count, start, turn, deciding, out, winner |
| piles | the deck and the discard pile as card backs with their sizes |
| inquiry | the references asked this turn (suspects and rooms) |
| bids | each bid: who, value, card count, pending / accepted / declined, the one being answered |
| solution | a sealed envelope |
| revealed pile | the public cards face up (id, value, text), the most recent first if they do not all fit |

It never draws a hand's cards, which cards a bid holds, the deck order, the solution or the
hidden world, nor anything of an accusation in progress (the Solution phase shows only who
decides). With ``seer=True`` (the env's ``seer`` argument) the header says ``seer view`` and the
hidden information is drawn as well: every hand face up (cards picked for a bid, a payment or
the discard lifted), the cards of each bid, the next deck cards, the opened envelope (solution),
a pending accusation, and on the map the murderer's route, the weapon's room and where each
suspect was at the time of the murder.

Image size: ``1280 × 940`` (W × H) for every player count 1–8 (:func:`image_size`; the
array shape is ``(940, 1280, 3)``). The map layout is data (:data:`ROOM_LAYOUT`,
:data:`PASSAGE_BENDS`), one entry per room of the Walton board.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from parlour.envs.awkward_guests import WALTON
from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests.picture_map import HiddenMap, display_name, draw_map, suspect_color
from parlour.envs.picture_kit import TABLE, Box, Canvas, Color


@dataclass(frozen=True)
class Layout:
    """Sizes and positions of the picture's parts, in pixels."""

    width: int = 1280
    height: int = 940
    margin: int = 20
    gap: int = 12
    header_h: int = 64
    middle_h: int = 420
    map_w: int = 700
    band_h: int = 140
    radius: int = 10
    pile_w: int = 200
    inquiry_w: int = 290
    solution_w: int = 300
    player_row_max: int = 96
    back_card: tuple[int, int] = (36, 52)
    pile_card: tuple[int, int] = (44, 62)
    pips_min_h: int = 40  # smaller face-up hand cards show their id only
    revealed_card_h: int = 96
    revealed_per_row: int = 7
    revealed_rows: int = 2
    revealed_lines: int = 5
    title_size: int = 28
    heading_size: int = 17
    label_size: int = 13
    small_size: int = 11
    card_text_size: int = 11
    card_leading: int = 13
    chip_h: int = 24


L = Layout()

#: Colours of this picture (the shared table palette plus the statuses'; the map's are in
#: :data:`~parlour.envs.awkward_guests.picture_map.MAP_PALETTE`).
PALETTE: dict[str, Color] = {
    **TABLE,
    "chip": (250, 244, 228),
    "seal": (200, 48, 48),
    "pending": (230, 200, 120),
    "accepted": (108, 196, 120),
    "declined": (214, 84, 72),
    "out": (30, 60, 44),
    "envelope": (232, 214, 170),
    "envelope_edge": (150, 120, 70),
}

BID_STATUS: tuple[str, ...] = ("pending", "accepted", "declined")

#: What the decider is doing, by public phase.
PHASE_TEXT: dict[int, str] = {
    G.PH_INQUIRY: "chooses references to ask about",
    G.PH_OFFER: "chooses cards to offer",
    G.PH_EXCHANGE: "answers the bids",
    G.PH_SOLUTION: "decides whether to accuse",
    G.PH_DISCARD: "discards down to 3 cards",
}

#: How many next deck cards the seer sees.
SEER_NEXT = 5


def image_size(num_players: int) -> tuple[int, int]:
    """``(width, height)`` of the picture (the same for every player count)."""
    return L.width, L.height


def _seat(agents: list[str], seat: int) -> str:
    return "the deck" if seat == G.DECK_SEAT else agents[seat]


# ----------------------------------------------------------------------------- small things


def _panel(c: Canvas, box: Box, title: str, edge: Color | None = None, width: float = 1) -> None:
    c.rect(
        box,
        fill=PALETTE["panel"],
        outline=edge or PALETTE["panel_edge"],
        width=width,
        radius=L.radius,
    )
    c.text((box[0] + 12, box[1] + 8), title, L.label_size, PALETTE["text_dim"])


def _back(c: Canvas, x: float, y: float, size: tuple[int, int]) -> None:
    w, h = size
    c.rect((x, y, x + w, y + h), fill=PALETTE["back"], outline=PALETTE["back_edge"], radius=4)
    inset = max(3, w // 8)
    c.rect(
        (x + inset, y + inset, x + w - inset, y + h - inset),
        outline=PALETTE["back_inner"],
        radius=2,
    )
    cx, cy, r = x + w / 2, y + h / 2, min(w, h) / 5
    c.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], PALETTE["back_inner"])


def _pips(c: Canvas, right: float, y: float, value: int, r: float) -> None:
    """``value`` filled dots ending at ``right`` (the card's trading value)."""
    for k in range(value):
        c.circle((right - r - k * (2 * r + 3), y), r, PALETTE["gold"], PALETTE["card_edge"])


def _mini(c: Canvas, x: float, y: float, size: tuple[int, int], card, lifted: bool) -> None:
    """A small face-up card (seer hands): its id and value."""
    w, h = size
    if lifted:
        y -= 6
    edge = PALETTE["gold"] if lifted else PALETTE["card_edge"]
    c.rect(
        (x, y, x + w, y + h), fill=PALETTE["card"], outline=edge, width=2 if lifted else 1, radius=4
    )
    if h < L.pips_min_h:  # too small for the value: the id only
        c.text((x + w / 2, y + h / 2), str(card.id), L.small_size, PALETTE["ink"], anchor="mm")
        return
    c.text((x + w / 2, y + 5), str(card.id), L.small_size, PALETTE["ink"], anchor="ma")
    r = 2.5
    _pips(c, x + w / 2 + card.value * (r + 1.5), y + h - 8, card.value, r)


def _chip(c: Canvas, x: float, y: float, text: str, color: Color, dot: Color | None) -> float:
    """A rounded label at ``(x, y)``; returns its width."""
    pad = 8
    dot_w = 14 if dot else 0
    w = c.text_width(text, L.label_size) + 2 * pad + dot_w
    h = L.chip_h
    c.rect((x, y, x + w, y + h), fill=PALETTE["chip"], outline=color, width=1.5, radius=h / 2)
    if dot:
        c.circle((x + pad + 4, y + h / 2), 5, dot)
    c.text((x + pad + dot_w, y + h / 2), text, L.label_size, PALETTE["ink"], anchor="lm")
    return w


# ----------------------------------------------------------------------------- players


def _hand(c: Canvas, state: G.GuestsState, p: int, seer: bool, box: Box) -> None:
    """Seat ``p``'s hand in ``box``: card backs (face up with ``seer``) and the count."""
    x0, y0, x1, y1 = box
    hand = state.hands[p]
    count = f"{len(hand)} card{'' if len(hand) == 1 else 's'}"
    c.text((x1, (y0 + y1) / 2), count, L.label_size, PALETTE["text"], anchor="rm")
    if not hand:
        return
    bw, bh = L.back_card
    h = min(bh, y1 - y0 - 10)
    w = h * bw // bh
    room = x1 - x0 - c.text_width("32 cards", L.label_size) - 12
    step = min(w + 3, (room - w) / max(1, len(hand) - 1))
    y = y0 + (y1 - y0 - h) / 2
    selected = state.selected[p]
    for k, card in enumerate(hand):
        x = x0 + k * step
        if seer:
            _mini(c, x, y, (w, h), state.tables.cards[card], card in selected)
        else:
            _back(c, x, y, (w, h))


def _player(
    c: Canvas, state: G.GuestsState, agents: list[str], p: int, seer: bool, box: Box
) -> None:
    x0, y0, x1, y1 = box
    deciding = p == state.current_player
    winner = p in state.winners
    fill = PALETTE["out"] if state.out[p] else PALETTE["felt_dark"]
    lit = deciding or winner
    edge = PALETTE["gold"] if lit else PALETTE["panel_edge"]
    c.rect(box, fill=fill, outline=edge, width=2.5 if lit else 1, radius=8)
    name_color = PALETTE["text_dim"] if state.out[p] else PALETTE["text"]
    mid = (y0 + y1) / 2
    c.text((x0 + 10, mid - 2), agents[p], L.heading_size - 1, name_color, anchor="ls")
    tags = []
    if deciding:
        tags.append(("deciding", PALETTE["gold"]))
    if state.decision < G.D_SOLUTION and p == state.active:
        tags.append(("turn", PALETTE["gold"]))
    if p == state.start:
        tags.append(("start", PALETTE["text_dim"]))
    if state.out[p]:
        tags.append(("OUT", PALETTE["red"]))
    if winner:
        tags.append(("WINNER", PALETTE["gold"]))
    tx = x0 + 10
    for text, color in tags:
        c.text((tx, mid + 3), text, L.small_size, color, anchor="lt")
        tx += c.text_width(text, L.small_size) + 8
    _hand(c, state, p, seer, (x0 + 150, y0 + 4, x1 - 10, y1 - 4))


def _players(c: Canvas, state: G.GuestsState, agents: list[str], seer: bool, box: Box) -> None:
    _panel(c, box, "Players (hands face down)" if not seer else "Players (hands, seer)")
    n = state.num_players
    top = box[1] + 30
    row = min(L.player_row_max, (box[3] - top - 4) / n)
    for p in range(n):
        y = top + p * row
        _player(c, state, agents, p, seer, (box[0] + 8, y, box[2] - 8, y + row - 6))


# ----------------------------------------------------------------------------- the table


def _pile(c: Canvas, x: float, y: float, size: int, label: str) -> None:
    w, h = L.pile_card
    if size:
        for k in range(min(3, size) - 1, -1, -1):
            _back(c, x + 3 * k, y - 3 * k, L.pile_card)
    else:
        c.rect(
            (x, y, x + w, y + h),
            fill=PALETTE["slot_empty"],
            outline=PALETTE["panel_edge"],
            radius=4,
        )
    c.text((x + w / 2, y + h + 6), f"{label} {size}", L.label_size, PALETTE["text"], anchor="ma")


def _piles(c: Canvas, state: G.GuestsState, seer: bool, box: Box) -> None:
    _panel(c, box, "Deck and discard pile")
    x, y = box[0] + 26, box[1] + 36
    _pile(c, x, y, len(state.deck), "deck")
    _pile(c, x + L.pile_card[0] + 64, y, len(state.discard), "discard")
    if seer and state.deck:
        ids = state.tables.ids
        nxt = " ".join(f"#{ids[k]}" for k in state.deck[::-1][:SEER_NEXT])
        text = c.fit(f"next: {nxt}", L.small_size, box[2] - box[0] - 24)
        c.text((box[0] + 12, box[3] - 10), text, L.small_size, PALETTE["gold"], anchor="ls")


def _inquiry(c: Canvas, state: G.GuestsState, agents: list[str], box: Box) -> None:
    _panel(c, box, "Inquiry")
    x0, y0, x1, _ = box
    if state.decision >= G.D_SOLUTION:
        c.text((x0 + 12, y0 + 34), "no inquiry now", L.label_size, PALETTE["text_dim"])
        return
    c.text((x0 + 12, y0 + 32), f"{agents[state.active]} asks about", L.label_size, PALETTE["text"])
    x, y = x0 + 12, y0 + 56
    if not state.asked:
        c.text((x, y + 4), "nothing asked yet", L.label_size, PALETTE["text_dim"])
    for r in state.asked:
        ref = G.A.REFERENCES[r]
        dot = suspect_color(ref) if WALTON.is_suspect(ref) else None
        w = c.text_width(display_name(ref), L.label_size) + 16 + (14 if dot else 0)
        if x + w > x1 - 8:
            x, y = x0 + 12, y + 30
        x += _chip(c, x, y, display_name(ref), PALETTE["gold"], dot) + 6


def _bids(c: Canvas, state: G.GuestsState, agents: list[str], seer: bool, box: Box) -> None:
    _panel(c, box, "Bids")
    x0, y0, x1, y1 = box
    d = state.decision
    if d >= G.D_SOLUTION or not state.bids:
        c.text((x0 + 12, y0 + 34), "no bids", L.label_size, PALETTE["text_dim"])
        return
    top = y0 + 30
    row = min(22, (y1 - top - 6) / len(state.bids))
    for k, b in enumerate(state.bids):
        y = top + k * row + row / 2
        if k == state.answering and d in (G.D_ANSWER, G.D_PAY):
            c.arrow_head((x0 + 22, y), (x0 + 10, y), 10, PALETTE["gold"])
        c.text((x0 + 28, y), _seat(agents, b.seat), L.label_size, PALETTE["text"], anchor="lm")
        cards = f"{b.count} card{'' if b.count == 1 else 's'}"
        c.text((x0 + 118, y), f"value {b.value}", L.label_size, PALETTE["text"], anchor="lm")
        c.text((x0 + 188, y), cards, L.label_size, PALETTE["text"], anchor="lm")
        status = BID_STATUS[b.status]
        c.text((x0 + 250, y), status, L.label_size, PALETTE[status], anchor="lm")
        if seer:
            ids = " ".join(f"#{state.tables.ids[i]}" for i in b.cards)
            c.text(
                (x1 - 10, y),
                c.fit(ids, L.small_size, x1 - x0 - 330),
                L.small_size,
                PALETTE["gold"],
                anchor="rm",
            )


def _envelope(c: Canvas, x: float, y: float, opened: bool) -> None:
    w, h = 64, 44
    if opened:
        paper = (x + 6, y - 16, x + w - 6, y + h / 2)
        c.rect(paper, fill=PALETTE["card"], outline=PALETTE["card_edge"], radius=2)
        for k in range(3):
            c.line([(x + 12, y - 9 + 6 * k), (x + w - 12, y - 9 + 6 * k)], PALETTE["ink_dim"], 1)
    c.rect(
        (x, y, x + w, y + h),
        fill=PALETTE["envelope"],
        outline=PALETTE["envelope_edge"],
        width=1.5,
        radius=3,
    )
    if opened:
        c.line([(x, y + h), (x + w / 2, y + h / 2), (x + w, y + h)], PALETTE["envelope_edge"], 1.5)
        return
    c.line([(x, y), (x + w / 2, y + h / 2), (x + w, y)], PALETTE["envelope_edge"], 1.5)
    c.circle((x + w / 2, y + h / 2), 7, PALETTE["seal"])


def _accusation_text(acc: list[int]) -> str:
    names = (G.A.SUSPECTS, G.A.MOTIVES, G.A.WEAPONS, G.A.SUSPECTS, G.A.MOTIVES)
    parts = [display_name(names[j][v]) for j, v in enumerate(acc) if v >= 0]
    return ", ".join(parts) or "..."


def _solution(c: Canvas, state: G.GuestsState, agents: list[str], seer: bool, box: Box) -> None:
    _panel(c, box, "Solution envelope")
    x0, y0, x1, _ = box
    _envelope(c, x0 + 16, y0 + 40, opened=seer)
    tx, width = x0 + 96, x1 - x0 - 104
    if not seer:
        parts = "murderer, motive, weapon"
        if state.tables.accomplice_possible:
            parts += ", accomplice"
        c.text((tx, y0 + 38), "sealed", L.heading_size, PALETTE["text"])
        lines = c.wrap(f"holds the {parts}", L.small_size, width, 2)
        c.text_lines((tx, y0 + 62), lines, L.small_size, PALETTE["text_dim"], 14)
        return
    sol = state.case.solution
    lines = [
        f"murderer: {display_name(sol.murderer)}",
        f"motive: {display_name(sol.motive)}",
        f"weapon: {WALTON.display(sol.weapon)}",
    ]
    if sol.accomplice:
        lines.append(
            f"accomplice: {display_name(sol.accomplice)} ({display_name(sol.accomplice_motive)})"
        )
    elif state.tables.accomplice_possible:
        lines.append("no accomplice")
    for p, acc in sorted(state.accusations.items()):
        lines.append(f"{agents[p]} accuses: {_accusation_text(acc)}")
    lines = [c.fit(t, L.small_size, width) for t in lines]
    c.text_lines((tx, y0 + 30), lines, L.small_size, PALETTE["gold"], 14)


def _revealed_card(c: Canvas, x: float, y: float, w: float, card) -> None:
    h = L.revealed_card_h
    c.rect((x, y, x + w, y + h), fill=PALETTE["card"], outline=PALETTE["card_edge"], radius=6)
    c.text((x + 8, y + 6), f"#{card.id}", L.label_size, PALETTE["ink"])
    _pips(c, x + w - 8, y + 13, card.value, 4)
    c.line([(x + 6, y + 24), (x + w - 6, y + 24)], PALETTE["card_edge"], 0.75)
    lines = c.wrap(card.text, L.card_text_size, w - 14, L.revealed_lines)
    c.text_lines((x + 7, y + 28), lines, L.card_text_size, PALETTE["ink"], L.card_leading)


def _revealed(c: Canvas, state: G.GuestsState, box: Box) -> None:
    x0, y0, x1, _ = box
    per_row, h, pad = L.revealed_per_row, L.revealed_card_h, 12
    w = (x1 - x0 - 2 * pad - (per_row - 1) * L.gap) / per_row
    fits = per_row * L.revealed_rows
    cards = state.revealed
    title = f"Revealed cards (public): {len(cards)}"
    if len(cards) > fits:
        title += f", the latest {fits} shown"
    _panel(c, box, title)
    if not cards:
        c.text((x0 + 12, y0 + 34), "none yet", L.label_size, PALETTE["text_dim"])
        return
    shown = cards[-fits:]
    for k, card in enumerate(shown):
        r, col = divmod(k, per_row)
        x = x0 + pad + col * (w + L.gap)
        y = y0 + 30 + r * (h + 8)
        _revealed_card(c, x, y, w, state.tables.cards[card])


def _header(c: Canvas, state: G.GuestsState, agents: list[str], seer: bool) -> None:
    x0, y0 = L.margin, L.margin
    n = state.num_players
    c.text((x0, y0), "Awkward Guests", L.title_size, PALETTE["text"])
    sub = (
        f"{state.tables.level.replace('_', ' ')} case  ·  {n} player{'s' if n > 1 else ''}  ·  "
        f"round {state.round} of {state.config.max_rounds}"
    )
    if seer:
        sub += "  ·  seer view (hidden cards shown)"
    c.text((x0, y0 + 38), sub, L.label_size, PALETTE["text_dim"])
    right = L.width - L.margin
    if state.is_terminal:
        if state.result == "win" and state.winners:
            what = "winner: " + ", ".join(agents[p] for p in state.winners)
        elif state.result == "truncated":
            what = "round limit reached, no winner"
        else:
            what = "no winner"
        c.text((right, y0 + 4), "Game over", L.heading_size, PALETTE["text"], anchor="ra")
        c.text((right, y0 + 30), what, L.heading_size + 3, PALETTE["gold"], anchor="ra")
        return
    phase = f"{state.phase_name.capitalize()} phase"
    c.text((right, y0 + 4), phase, L.heading_size + 3, PALETTE["gold"], anchor="ra")
    what = f"{agents[state.current_player]} {PHASE_TEXT[state.phase]}"
    c.text((right, y0 + 34), what, L.heading_size, PALETTE["text"], anchor="ra")


def _asked_rooms(state: G.GuestsState) -> set[str]:
    """The rooms asked about this turn (public; none outside the turns)."""
    if state.decision >= G.D_SOLUTION:
        return set()
    return {r for r in (G.A.REFERENCES[k] for k in state.asked) if WALTON.is_room(r)}


def _hidden_map(state: G.GuestsState, seer: bool) -> HiddenMap | None:
    """The hidden truth for the map: only for a seer."""
    if not seer:
        return None
    world, solution = state.case.world, state.case.solution
    return HiddenMap(
        route=tuple(world.route),
        weapon_room=WALTON.weapon(solution.weapon).room,
        locations=dict(world.locations),
    )


def draw_table(state: G.GuestsState, agents: list[str], seer: bool = False) -> np.ndarray:
    """The table picture of ``state`` (seats named by ``agents``) as an ``(H, W, 3)`` ``uint8``
    array; ``seer`` also draws the hidden information (see the module docstring)."""
    width, height = image_size(state.num_players)
    c = Canvas(width, height, PALETTE["felt"])
    _header(c, state, agents, seer)
    m, g = L.margin, L.gap
    top = m + L.header_h + g
    draw_map(
        c, (m, top, m + L.map_w, top + L.middle_h), _asked_rooms(state), _hidden_map(state, seer)
    )
    _players(c, state, agents, seer, (m + L.map_w + g, top, width - m, top + L.middle_h))
    top += L.middle_h + g
    x = m
    parts = (
        (L.pile_w, lambda b: _piles(c, state, seer, b)),
        (L.inquiry_w, lambda b: _inquiry(c, state, agents, b)),
        (
            width - 2 * m - L.pile_w - L.inquiry_w - L.solution_w - 3 * g,
            lambda b: _bids(c, state, agents, seer, b),
        ),
        (L.solution_w, lambda b: _solution(c, state, agents, seer, b)),
    )
    for w, draw in parts:
        draw((x, top, x + w, top + L.band_h))
        x += w + g
    top += L.band_h + g
    _revealed(c, state, (m, top, width - m, height - m))
    return c.to_array()
