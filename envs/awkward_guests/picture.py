"""Awkward Guests — a picture of the public table (``render_mode="rgb_array"``).

:func:`draw_table` draws what a spectator at the table sees into an ``(H, W, 3)`` ``uint8``
array (Pillow, antialiased: see :mod:`parlour.envs.picture_kit`):

| part | shows |
|---|---|
| header | level, player count, round / round limit, phase and who decides what (or the result) |
| mansion map | the rooms as boxes (the crime scene marked), the passages as lines, the one-way passages into the crime scene as arrows; rooms asked about this turn are outlined (:mod:`parlour.envs.awkward_guests.picture_map`) |
| players | one row per seat: hand size as card backs and a count, start, turn, deciding, out, winner |
| piles | the deck and the discard pile as card backs with their sizes |
| inquiry | the references asked this turn (suspects and rooms) |
| bids | each bid: who, value, card count, pending / accepted / declined, the one being answered |
| solution | a sealed envelope |
| revealed pile | the public cards face up (id, value as dots, text), the latest 14 if more |

It never draws a hand's cards, which cards a bid holds, the deck order, the solution or the
hidden world, nor anything of an accusation in progress (the Solution phase shows only who
decides). With ``seer=True`` (the env's ``seer`` argument) the header says ``seer view`` and the
hidden information is drawn as well: every hand face up (cards picked for a bid, a payment or
the discard lifted), the cards of each bid, the next deck cards, the opened envelope (solution),
the accusations of this Solution phase (made or in progress), and on the map the murderer's
route, the weapon's room and where each suspect was at the time of the murder.

Image size: ``1280 × 940`` (W × H) for every player count 1–8 (:func:`image_size`; the
array shape is ``(940, 1280, 3)``); the player rows share the height of the map. The map
layout is data (``picture_map.ROOM_LAYOUT``, one entry per room of the Walton board).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from parlour.envs.awkward_guests import WALTON, Card
from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests.picture_map import HiddenMap, display_name, draw_map, suspect_color
from parlour.envs.picture_kit import TABLE, Box, Canvas, Color, card_back, header, panel


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
    pile_w: int = 200
    inquiry_w: int = 290
    solution_w: int = 300
    pad: int = 12  # inner padding of a panel
    content_y: int = 32  # where a panel's content starts, below its title
    line: int = 14  # line spacing of small text
    # players
    player_row_max: int = 96
    row_gap: int = 6
    row_radius: int = 8
    name_w: int = 128  # the name column left of a hand
    tag_gap: int = 8
    back_card: tuple[int, int] = (36, 52)
    card_gap: int = 3
    lift: int = 6  # a picked card (seer) is drawn this much higher
    pips_min_h: int = 40  # smaller face-up hand cards show their id only
    pip_r: float = 2.5
    pip_gap: float = 3
    # piles, inquiry, bids, envelope
    pile_card: tuple[int, int] = (44, 62)
    pile_layers: int = 3
    pile_offset: int = 3
    pile_x: tuple[int, int] = (26, 134)  # the deck's and the discard pile's left edges
    chip_h: int = 24
    chip_pad: int = 8
    chip_dot_r: float = 5
    chip_dot_gap: int = 4  # between a chip's dot and its text
    chip_gap: int = 6
    bid_row_max: int = 22
    bid_columns: tuple[int, int, int, int] = (28, 118, 188, 250)  # seat, value, cards, status
    marker: int = 10  # the triangle at the bid being answered
    envelope: tuple[int, int] = (64, 44)
    envelope_y: int = 40
    seal_r: float = 7
    solution_text_x: int = 96
    # revealed pile
    revealed_card_h: int = 96
    revealed_per_row: int = 7
    revealed_rows: int = 2
    revealed_lines: int = 5
    revealed_rule_y: int = 24  # the line under a card's id and value
    revealed_pip_r: float = 4
    card_radius: int = 6
    # fonts
    heading_size: int = 17
    label_size: int = 13
    small_size: int = 11
    card_text_size: int = 11
    card_leading: int = 13


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
    G.PH_DISCARD: f"discards down to {G.KEEP_AFTER_DISCARD} cards",
}

#: How many next deck cards the seer sees.
SEER_NEXT = 5


def image_size(num_players: int) -> tuple[int, int]:
    """``(width, height)`` of the picture (the same for every player count)."""
    return L.width, L.height


# ----------------------------------------------------------------------------- small things


def _plural(k: int, word: str) -> str:
    return f"{k} {word}{'' if k == 1 else 's'}"


def _pips(c: Canvas, right: float, y: float, value: int, r: float) -> None:
    """``value`` gold dots ending at ``right`` (a card's trading value)."""
    for k in range(value):
        x = right - r - k * (2 * r + L.pip_gap)
        c.circle((x, y), r, PALETTE["gold"], PALETTE["card_edge"])


def _mini(c: Canvas, x: float, y: float, size: tuple[int, int], card: Card, lifted: bool) -> None:
    """A small face-up hand card (seer): its id and value; ``lifted``: picked for a bid, a
    payment or the discard."""
    w, h = size
    y -= L.lift if lifted else 0
    edge = PALETTE["gold"] if lifted else PALETTE["card_edge"]
    box = (x, y, x + w, y + h)
    c.rect(
        box, fill=PALETTE["card"], outline=edge, width=2 if lifted else 1, radius=L.row_radius / 2
    )
    if h < L.pips_min_h:  # too small for the value: the id only
        c.text((x + w / 2, y + h / 2), str(card.id), L.small_size, PALETTE["ink"], anchor="mm")
        return
    c.text((x + w / 2, y + L.lift), str(card.id), L.small_size, PALETTE["ink"], anchor="ma")
    right = x + w / 2 + card.value * (L.pip_r + L.pip_gap / 2)
    _pips(c, right, y + h - L.lift - L.pip_r, card.value, L.pip_r)


def _chip_width(c: Canvas, text: str, dot: bool) -> float:
    return (
        c.text_width(text, L.label_size)
        + 2 * L.chip_pad
        + (2 * L.chip_dot_r + L.chip_dot_gap if dot else 0)
    )


def _chip(c: Canvas, x: float, y: float, text: str, dot: Color | None) -> float:
    """A rounded gold-edged label at ``(x, y)`` (``dot``: a suspect's colour); its width."""
    w, h = _chip_width(c, text, dot is not None), L.chip_h
    c.rect(
        (x, y, x + w, y + h), fill=PALETTE["chip"], outline=PALETTE["gold"], width=1.5, radius=h / 2
    )
    tx = x + L.chip_pad
    if dot:
        c.circle((tx + L.chip_dot_r, y + h / 2), L.chip_dot_r, dot)
        tx += 2 * L.chip_dot_r + L.chip_dot_gap
    c.text((tx, y + h / 2), text, L.label_size, PALETTE["ink"], anchor="lm")
    return w


def _note(c: Canvas, box: Box, text: str) -> None:
    """A dim note where a panel's content would be."""
    c.text((box[0] + L.pad, box[1] + L.content_y), text, L.label_size, PALETTE["text_dim"])


# ----------------------------------------------------------------------------- players


def _hand(c: Canvas, state: G.GuestsState, p: int, seer: bool, box: Box) -> None:
    """Seat ``p``'s hand in ``box``: card backs (face up with ``seer``) and the count."""
    x0, y0, x1, y1 = box
    hand = state.hands[p]
    mid = (y0 + y1) / 2
    c.text((x1, mid), _plural(len(hand), "card"), L.label_size, PALETTE["text"], anchor="rm")
    if not hand:
        return
    bw, bh = L.back_card
    h = min(bh, y1 - y0 - 2 * L.lift)
    w = h * bw // bh
    room = x1 - x0 - c.text_width(_plural(G.MAX_HAND, "card"), L.label_size) - L.pad
    step = min(w + L.card_gap, (room - w) / max(1, len(hand) - 1))
    selected = state.selected[p]
    for k, card in enumerate(hand):
        x, y = x0 + k * step, mid - h / 2
        if seer:
            _mini(c, x, y, (w, h), state.tables.cards[card], card in selected)
        else:
            card_back(c, x, y, (w, h))


def _player(
    c: Canvas, state: G.GuestsState, agents: list[str], p: int, seer: bool, box: Box
) -> None:
    x0, y0, x1, y1 = box
    out, deciding, winner = state.out[p], p == state.current_player, p in state.winners
    lit = deciding or winner
    fill = PALETTE["out"] if out else PALETTE["felt_dark"]
    edge = PALETTE["gold"] if lit else PALETTE["panel_edge"]
    c.rect(box, fill=fill, outline=edge, width=2.5 if lit else 1, radius=L.row_radius)
    mid = (y0 + y1) / 2
    name_color = PALETTE["text_dim"] if out else PALETTE["text"]
    c.text((x0 + L.pad, mid), agents[p], L.heading_size - 1, name_color, anchor="ld")
    tags = (
        ("deciding", "gold", deciding),
        ("turn", "gold", state.decision < G.D_SOLUTION and p == state.active),
        ("start", "text_dim", p == state.start),
        ("OUT", "red", out),
        ("WINNER", "gold", winner),
    )
    tx = x0 + L.pad
    for text, color, on in tags:
        if on:
            c.text((tx, mid + L.card_gap), text, L.small_size, PALETTE[color])
            tx += c.text_width(text, L.small_size) + L.tag_gap
    hand_box = (x0 + L.pad + L.name_w, y0, x1 - L.pad, y1)
    _hand(c, state, p, seer, hand_box)


def _players(c: Canvas, state: G.GuestsState, agents: list[str], seer: bool, box: Box) -> None:
    n = state.num_players
    title = "Players" if n > 1 else "Player"
    panel(c, box, f"{title} (hands, seer)" if seer else f"{title} (hands face down)")
    top = box[1] + L.content_y - 2
    row = min(L.player_row_max, (box[3] - top - L.row_gap / 2) / n)
    for p in range(n):
        y = top + p * row
        row_box = (box[0] + L.pad - L.row_gap, y, box[2] - L.pad + L.row_gap, y + row - L.row_gap)
        _player(c, state, agents, p, seer, row_box)


# ----------------------------------------------------------------------------- the table


def _pile(c: Canvas, x: float, y: float, size: int, label: str) -> None:
    w, h = L.pile_card
    for k in range(min(L.pile_layers, size) - 1, -1, -1):
        card_back(c, x + L.pile_offset * k, y - L.pile_offset * k, L.pile_card)
    if not size:
        empty = (x, y, x + w, y + h)
        c.rect(
            empty,
            fill=PALETTE["slot_empty"],
            outline=PALETTE["panel_edge"],
            radius=L.row_radius / 2,
        )
    at = (x + w / 2, y + h + L.lift)
    c.text(at, f"{label} {size}", L.label_size, PALETTE["text"], anchor="ma")


def _piles(c: Canvas, state: G.GuestsState, seer: bool, box: Box) -> None:
    panel(c, box, "Deck and discard pile")
    y = box[1] + L.content_y + L.pile_offset
    _pile(c, box[0] + L.pile_x[0], y, len(state.deck), "deck")
    _pile(c, box[0] + L.pile_x[1], y, len(state.discard), "discard")
    if seer and state.deck:
        ids = state.tables.ids
        nxt = " ".join(f"#{ids[k]}" for k in state.deck[::-1][:SEER_NEXT])
        text = c.fit(f"next: {nxt}", L.small_size, box[2] - box[0] - 2 * L.pad)
        at = (box[0] + L.pad, box[3] - L.pad + 2)
        c.text(at, text, L.small_size, PALETTE["gold"], anchor="ls")


def _inquiry(c: Canvas, state: G.GuestsState, agents: list[str], box: Box) -> None:
    panel(c, box, "Inquiry")
    x0, y0, x1, _ = box
    if state.decision >= G.D_SOLUTION:
        _note(c, box, "no inquiry now")
        return
    who = f"{agents[state.active]} asks about"
    c.text((x0 + L.pad, y0 + L.content_y), who, L.label_size, PALETTE["text"])
    x, y = x0 + L.pad, y0 + L.content_y + L.chip_h
    if not state.asked:
        c.text((x, y), "nothing asked yet", L.label_size, PALETTE["text_dim"])
    for r in state.asked:
        ref = A.REFERENCES[r]
        suspect = WALTON.is_suspect(ref)
        if x + _chip_width(c, display_name(ref), suspect) > x1 - L.pad:
            x, y = x0 + L.pad, y + L.chip_h + L.chip_gap
        dot = suspect_color(ref) if suspect else None
        x += _chip(c, x, y, display_name(ref), dot) + L.chip_gap


def _bid_row(
    c: Canvas, state: G.GuestsState, agents: list[str], k: int, seer: bool, at: tuple
) -> None:
    (x0, y), x1 = at[:2], at[2]
    b = state.bids[k]
    if k == state.answering and state.decision in (G.D_ANSWER, G.D_PAY):
        tip = x0 + L.bid_columns[0] - L.lift
        c.arrow_head((tip, y), (tip - L.marker, y), L.marker, PALETTE["gold"])
    seat = "the deck" if b.seat == G.DECK_SEAT else agents[b.seat]
    status = BID_STATUS[b.status]
    cells = (
        (seat, "text"),
        (f"value {b.value}", "text"),
        (_plural(b.count, "card"), "text"),
        (status, status),
    )
    for dx, (text, color) in zip(L.bid_columns, cells, strict=True):
        c.text((x0 + dx, y), text, L.label_size, PALETTE[color], anchor="lm")
    if seer:
        ids = " ".join(f"#{state.tables.ids[i]}" for i in b.cards)
        room = x1 - x0 - L.bid_columns[-1] - L.solution_text_x
        c.text(
            (x1 - L.pad, y),
            c.fit(ids, L.small_size, room),
            L.small_size,
            PALETTE["gold"],
            anchor="rm",
        )


def _bids(c: Canvas, state: G.GuestsState, agents: list[str], seer: bool, box: Box) -> None:
    panel(c, box, "Bids")
    x0, y0, x1, y1 = box
    if state.decision >= G.D_SOLUTION or not state.bids:
        _note(c, box, "no bids")
        return
    top = y0 + L.content_y - L.lift
    row = min(L.bid_row_max, (y1 - top - L.lift) / len(state.bids))
    for k in range(len(state.bids)):
        _bid_row(c, state, agents, k, seer, (x0, top + (k + 0.5) * row, x1))


def _envelope(c: Canvas, x: float, y: float, opened: bool) -> None:
    """The solution envelope: sealed, or (seer) open with the letter out."""
    w, h = L.envelope
    edge = PALETTE["envelope_edge"]
    if opened:
        m = L.lift
        c.rect(
            (x + m, y - 3 * m, x + w - m, y + h / 2),
            fill=PALETTE["card"],
            outline=PALETTE["card_edge"],
        )
        for k in range(3):
            ly = y - 2 * m + m * k
            c.line([(x + 2 * m, ly), (x + w - 2 * m, ly)], PALETTE["ink_dim"], 1)
    c.rect((x, y, x + w, y + h), fill=PALETTE["envelope"], outline=edge, width=1.5, radius=3)
    flap_y = y + h if opened else y
    c.line([(x, flap_y), (x + w / 2, y + h / 2), (x + w, flap_y)], edge, 1.5)
    if not opened:
        c.circle((x + w / 2, y + h / 2), L.seal_r, PALETTE["seal"])


def _accusation_text(acc: list[int]) -> str:
    names = (A.SUSPECTS, A.MOTIVES, A.WEAPONS, A.SUSPECTS, A.MOTIVES)
    parts = [display_name(names[j][v]) for j, v in enumerate(acc) if v >= 0]
    return ", ".join(parts) or "..."


def _solution_lines(state: G.GuestsState, agents: list[str]) -> list[str]:
    """What the seer reads in the open envelope, and the accusations not yet resolved."""
    sol = state.case.solution
    lines = [
        f"murderer: {display_name(sol.murderer)}",
        f"motive: {display_name(sol.motive)}",
        f"weapon: {WALTON.display(sol.weapon)}",
    ]
    if sol.accomplice:
        accomplice = f"{display_name(sol.accomplice)} ({display_name(sol.accomplice_motive)})"
        lines.append(f"accomplice: {accomplice}")
    elif state.tables.accomplice_possible:
        lines.append("no accomplice")
    for p, acc in sorted(state.accusations.items()):
        lines.append(f"{agents[p]} accuses: {_accusation_text(acc)}")
    return lines


def _solution(c: Canvas, state: G.GuestsState, agents: list[str], seer: bool, box: Box) -> None:
    panel(c, box, "Solution envelope")
    x0, y0, x1, _ = box
    _envelope(c, x0 + L.pad + 4, y0 + L.envelope_y, opened=seer)
    tx, width = x0 + L.solution_text_x, x1 - x0 - L.solution_text_x - L.pad
    if seer:
        lines = [c.fit(t, L.small_size, width) for t in _solution_lines(state, agents)]
        top = y0 + L.content_y - 4
        c.text_lines((tx, top), lines, L.small_size, PALETTE["gold"], L.line)
        return
    parts = "murderer, motive, weapon"
    if state.tables.accomplice_possible:
        parts += ", accomplice"
    c.text((tx, y0 + L.content_y + L.lift), "sealed", L.heading_size, PALETTE["text"])
    lines = c.wrap(f"holds the {parts}", L.small_size, width, 2)
    top = y0 + L.content_y + L.lift + L.chip_h
    c.text_lines((tx, top), lines, L.small_size, PALETTE["text_dim"], L.line)


def _revealed_card(c: Canvas, x: float, y: float, w: float, card: Card) -> None:
    h, r = L.revealed_card_h, L.card_radius
    c.rect((x, y, x + w, y + h), fill=PALETTE["card"], outline=PALETTE["card_edge"], radius=r)
    c.text((x + r + 2, y + r), f"#{card.id}", L.label_size, PALETTE["ink"])
    rule_y = y + L.revealed_rule_y
    _pips(c, x + w - r - 2, (y + rule_y) / 2 + 1, card.value, L.revealed_pip_r)
    c.line([(x + r, rule_y), (x + w - r, rule_y)], PALETTE["card_edge"], 0.75)
    lines = c.wrap(card.text, L.card_text_size, w - 2 * r - 2, L.revealed_lines)
    at = (x + r + 1, rule_y + 4)
    c.text_lines(at, lines, L.card_text_size, PALETTE["ink"], L.card_leading)


def _revealed(c: Canvas, state: G.GuestsState, box: Box) -> None:
    x0, y0, x1, _ = box
    per_row, h, gap = L.revealed_per_row, L.revealed_card_h, L.gap
    w = (x1 - x0 - 2 * L.pad - (per_row - 1) * gap) / per_row
    fits = per_row * L.revealed_rows
    cards = state.revealed
    title = f"Revealed cards (public): {len(cards)}"
    if len(cards) > fits:
        title += f", the latest {fits} shown"
    panel(c, box, title)
    if not cards:
        _note(c, box, "none yet")
        return
    for k, card in enumerate(cards[-fits:]):
        row, col = divmod(k, per_row)
        x = x0 + L.pad + col * (w + gap)
        y = y0 + L.content_y - 2 + row * (h + L.row_gap + 2)
        _revealed_card(c, x, y, w, state.tables.cards[card])


def _header(c: Canvas, state: G.GuestsState, agents: list[str], seer: bool) -> None:
    n = state.num_players
    level = state.tables.level.replace("_", " ")
    sub = f"{level} case  ·  {_plural(n, 'player')}  ·  round {state.round} of {state.config.max_rounds}"
    if seer:
        sub += "  ·  seer view (hidden cards shown)"
    if not state.is_terminal:
        phase = f"{state.phase_name.capitalize()} phase"
        what = f"{agents[state.current_player]} {PHASE_TEXT[state.phase]}"
        header(c, "Awkward Guests", sub, phase, what)
        return
    if state.result == "win" and state.winners:
        result = "winner: " + ", ".join(agents[p] for p in state.winners)
    elif state.result == "truncated":
        result = "round limit reached, no winner"
    else:
        result = "no winner"
    header(c, "Awkward Guests", sub, result, "game over")


def _asked_rooms(state: G.GuestsState) -> set[str]:
    """The rooms asked about this turn (public; none outside the turns)."""
    if state.decision >= G.D_SOLUTION:
        return set()
    return {r for r in (A.REFERENCES[k] for k in state.asked) if WALTON.is_room(r)}


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
