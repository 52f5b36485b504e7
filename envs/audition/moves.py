"""Audition — human-readable names of actions, for the terminal player, the web page and logs.

``describe(view, action)`` names a legal action from the acting player's own view (it may name
the card they drew). ``describe_public(before, after, seat, action)`` names another player's
move from what an onlooker sees (a drawn card is never named until it lies face up). Both speak
plain English: slot kinds by their readable names (:data:`SLOT_NAMES`), never engine words.

| name | what it is |
|---|---|
| :data:`SLOT_NAMES` | slot kind (``R.SLOT_KINDS``) -> its short readable name (``"pass_left"`` -> ``"pass a card to the left"``) |
| :func:`cards_text` | counts per number -> ``"2, 2, 3"`` |
| :func:`slot_text` | ``"slot 2 (pass a card to the left)"`` |
"""

from __future__ import annotations

from typing import Final

from parlour.envs.audition import rules as R
from parlour.envs.audition.view import AuditionView

#: every slot kind's readable name (what it does, in a few words)
SLOT_NAMES: Final[dict[str, str]] = {
    "conductor": "conductor",
    "max_two": "two cards at most",
    "pass_left": "pass a card to the left",
    "discard_one": "discard one of its cards",
    "discard_own": "discard one of your own",
    "draw_one": "draw one more card",
    "take_now": "take it at once",
}
assert set(SLOT_NAMES) == set(R.SLOT_KINDS), "every slot kind needs a readable name"


def cards_text(counts: tuple[int, ...]) -> str:
    """``(0, 0, 2, 1, ...)`` -> ``"2, 2, 3"``; ``"nothing"`` when empty."""
    cards = [str(v) for v in range(1, len(counts)) for _ in range(counts[v])]
    return ", ".join(cards) if cards else "nothing"


def slot_text(view: AuditionView, s: int) -> str:
    """``"slot 2 (pass a card to the left)"``: the slot's number and readable kind."""
    return f"slot {s} ({SLOT_NAMES[view.slots[s].kind]})"


def left_of(view: AuditionView, seat: int) -> str:
    """The agent name of ``seat``'s left neighbour (who receives a passed card)."""
    return f"player_{(seat + 1) % view.num_players}"


def describe(view: AuditionView, action: int) -> str:
    """The action as the acting player would say it."""
    phase = view.phase
    if action < R.DRAW:
        s = action - R.TAKE_0
        what = cards_text(view.slots[s].cards)
        if phase == "take_now":
            return f"take {slot_text(view, s)} now, with {what}"
        return f"take {slot_text(view, s)} with {what}"
    if action == R.DRAW:
        return "draw a card"
    if action < R.PASS:
        s = action - R.PLACE_0
        slot = view.slots[s]
        return f"place the {view.drawn} on {slot_text(view, s)}, holding {cards_text(slot.cards)}"
    if action == R.PASS:
        if phase == "take_now":
            return f"leave {slot_text(view, view.pending_slot)} on the table"
        return {"final": "take no slot", "discard_own": "discard nothing"}.get(phase, "pass")
    v = action - R.CHOOSE_0
    if phase == "pass_left":
        return f"give a {v} to {left_of(view, view.seat)}"
    return f"discard a {v}"


def describe_public(before: AuditionView, after: AuditionView, seat: int, action: int) -> str:
    """Another player's move as an onlooker saw it (``before``/``after``: the onlooker's views)."""
    phase = before.phase
    if action == R.DRAW:
        return "draws a card"
    if R.PLACE_0 <= action < R.PASS:
        s = action - R.PLACE_0
        added = [
            v
            for v in range(1, len(after.slots[s].cards))
            if after.slots[s].cards[v] > before.slots[s].cards[v]
        ]
        card = added[0] if added else "?"
        return f"places a {card} on {slot_text(before, s)}"
    if action < R.DRAW:
        return _take_public(before, after, seat, action - R.TAKE_0)
    if action == R.PASS:
        if phase == "take_now":
            return "leaves the slot on the table"
        return {"final": "takes no slot", "discard_own": "discards nothing"}.get(phase, "passes")
    v = action - R.CHOOSE_0
    if phase == "pass_left":
        return f"gives a {v} to {left_of(before, seat)}"
    return f"discards a {v}"


def _take_public(before: AuditionView, after: AuditionView, seat: int, s: int) -> str:
    """A take as an onlooker saw it; with ``draw_one``, the card it drew lies face up."""
    came = before.slots[s].cards
    said = f"takes {slot_text(before, s)} with {cards_text(came)}"
    if before.slots[s].kind != "draw_one":
        return said
    gained = [
        after.collections[seat][v] - before.collections[seat][v] - came[v] for v in range(len(came))
    ]
    extra = [v for v in range(1, len(came)) if gained[v] > 0]
    return f"{said}, and draws a {extra[0]} face up" if extra else f"{said} (the deck is empty)"
