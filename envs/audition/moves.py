"""Audition — human-readable names of actions, for the terminal player and logs.

``describe(view, action)`` names a legal action from the acting player's own view (it may name
the card they drew). ``describe_public(before, after, seat, action)`` names another player's
move from what an onlooker sees (a drawn card is never named until it lies face up).
"""

from __future__ import annotations

from parlour.envs.audition import rules as R
from parlour.envs.audition.view import AuditionView


def cards_text(counts: tuple[int, ...]) -> str:
    """``(0, 0, 2, 1, ...)`` -> ``"2, 2, 3"``; ``"nothing"`` when empty."""
    cards = [str(v) for v in range(1, len(counts)) for _ in range(counts[v])]
    return ", ".join(cards) if cards else "nothing"


def slot_text(view: AuditionView, s: int) -> str:
    kind = view.slots[s].kind
    name = "conductor" if kind == "conductor" else f"{kind} card"
    return f"slot {s} ({name})"


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
        return {
            "final": "take no slot",
            "discard_own": "discard nothing",
            "take_now": "leave the take_now card on the table",
        }.get(phase, "pass")
    v = action - R.CHOOSE_0
    if phase == "pass_left":
        return f"give a {v} to player_{(view.seat + 1) % view.num_players}"
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
        s = action - R.TAKE_0
        return f"takes {slot_text(before, s)} with {cards_text(before.slots[s].cards)}"
    if action == R.PASS:
        return {
            "final": "takes no slot",
            "discard_own": "discards nothing",
            "take_now": "leaves the take_now card on the table",
        }.get(phase, "passes")
    v = action - R.CHOOSE_0
    if phase == "pass_left":
        return f"gives a {v} to player_{(seat + 1) % before.num_players}"
    return f"discards a {v}"
