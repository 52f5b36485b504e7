"""Awkward Guests — a text picture of the public table (``render_mode="ansi"``).

Shows what everyone at the table can see: round, start player, whose turn it is and the asked
references, the bids (value and card count) and which were accepted, the public record of
each player's last turn (asked references; per bid: bidder, value, card count, accepted or
declined, cards paid — never which cards), each player's hand size and who is out, the deck / discard / revealed pile sizes and the revealed cards (they are
public). It never shows a hand, the deck order, the solution, or a pending accusation (during
the Solution phase it only says who is deciding).
"""

from __future__ import annotations

from . import actions as A
from . import game as G
from .case.board import WALTON
from .game.record import padded


def render_table(state: G.GuestsState, agents: list[str]) -> str:
    n = state.num_players
    t = state.tables
    lines = [
        f"Awkward Guests — {t.level} case, {n} player{'s' if n > 1 else ''}, "
        f"round {state.round}/{state.config.max_rounds}; deck {len(state.deck)}, "
        f"discard {len(state.discard)}, revealed {len(state.revealed)}"
    ]
    d = state.decision
    for p in range(n):
        mark = ">" if p == state.current_player else " "
        tags = []
        if p == state.start:
            tags.append("start")
        if d < G.D_SOLUTION and p == state.active:
            tags.append("turn")
        if state.out[p]:
            tags.append("OUT")
        if p in state.winners:
            tags.append("WINNER")
        tag = f" [{', '.join(tags)}]" if tags else ""
        lines.append(f"{mark} {agents[p]:<9} {len(state.hands[p]):>2} cards{tag}")
    if d < G.D_SOLUTION:
        asked = ", ".join(WALTON.display(A.REFERENCES[r]) for r in state.asked) or "-"
        lines.append(f"  {agents[state.active]} asks about: {asked}")
        for k, b in enumerate(state.bids):
            who = "the deck" if b.seat == G.DECK_SEAT else agents[b.seat]
            status = ("pending", "accepted", "declined")[b.status]
            now = " <- answering" if k == state.answering and d in (G.D_ANSWER, G.D_PAY) else ""
            lines.append(f"    bid by {who}: value {b.value}, {b.count} card(s), {status}{now}")
    lines += last_turn_lines(state, agents)  # public record of the last turns
    if state.revealed:
        lines.append("  revealed cards:")
        for c in state.revealed:
            card = t.cards[c]
            lines.append(f"    #{card.id} ({card.value}) {card.text}")
    if state.is_terminal:
        if state.result == "win" and state.winners:
            lines.append("  game over — winner(s): " + ", ".join(agents[p] for p in state.winners))
        elif state.result == "truncated":
            lines.append("  game over — round limit reached, no winner")
        else:
            lines.append("  game over — no winner")
    else:
        what = {
            G.PH_INQUIRY: "chooses references to ask about",
            G.PH_OFFER: "chooses cards to offer",
            G.PH_EXCHANGE: "answers the bids",
            G.PH_SOLUTION: "decides whether to accuse",
            G.PH_DISCARD: "discards down to 3 cards",
        }[state.phase]
        lines.append(f"  {state.phase_name} phase: {agents[state.current_player]} {what}")
    return "\n".join(lines)


def last_turn_lines(state: G.GuestsState, agents: list[str]) -> list[str]:
    """The public record of every seat's last finished turn, oldest first (no lines: none)."""
    turns = sorted(
        (t for t in padded(state.last_turns, state.num_players) if t is not None),
        key=lambda t: t.turn,
    )
    if not turns:
        return []
    lines = ["  last turns:"]
    for t in turns:
        asked = ", ".join(WALTON.display(A.REFERENCES[r]) for r in t.asked)
        parts = []
        for b in t.bids:
            who = "the deck" if b.seat == G.DECK_SEAT else agents[b.seat]
            what = f"accepted, paid with {b.paid} card(s)" if b.accepted else "declined"
            parts.append(f"{who} bid value {b.value}, {b.count} card(s): {what}")
        lines.append(
            f"    {agents[t.seat]} (round {t.round}) asked about {asked}; "
            + ("; ".join(parts) if parts else "no bid")
        )
    return lines
