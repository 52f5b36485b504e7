"""Audition — a text picture of the public table (``render_mode="ansi"``).

Shows what every player at the table can see: round, deck size, each slot with its kind and
musicians, each player's collection with current points, the discard row, and who acts in which
phase. It never shows the deck order, the removed cards, or a card drawn but not yet placed.
"""

from __future__ import annotations

from parlour.envs.audition import rules as R


def _cards(counts) -> str:
    parts = [
        f"{v}x{int(counts[v])}" if counts[v] > 1 else str(v)
        for v in range(1, R.MAX_NUMBER + 1)
        if counts[v]
    ]
    return " ".join(parts) if parts else "-"


def render_table(state: R.AuditionState, agents: list[str]) -> str:
    n = state.num_players
    lines = [
        f"Audition, {n} players — round {state.round}, deck {len(state.deck)} cards"
        + (f", {len(state.removed)} removed unseen" if state.removed else "")
        + (" — FINAL PHASE" if state.in_final else "")
    ]
    for s in range(n):
        kind = R.SLOT_KINDS[state.slot_kinds[s]]
        status = (
            "taken" if state.slot_taken[s] else f"{state.slot_size[s]}/{state.slot_capacity(s)}"
        )
        lines.append(f"  slot {s} [{kind:<11}] {status:<5} : {_cards(state.slots[s])}")
    scores = state.scores()
    for p in range(n):
        mark = ">" if p == state.current_player else " "
        out = " (sat out)" if state.taken[p] else ""
        lines.append(
            f"{mark} {agents[p]:<9} {scores[p]:>3} pts{out:<10}: {_cards(state.collections[p])}"
        )
    if state.discard.any():
        lines.append(f"  discard row: {_cards(state.discard)}")
    if state.is_terminal:
        win = ", ".join(agents[p] for p in state.winners())
        lines.append(f"  game over — winner(s): {win}")
    else:
        what = {
            R.PH_TURN: "draw or take",
            R.PH_PLACE: "places the drawn card",
            R.PH_TAKE_NOW: "may take the take_now slot at once",
            R.PH_PASS_LEFT: "passes one musician left",
            R.PH_DISCARD_ONE: "discards one of the taken musicians",
            R.PH_DISCARD_OWN: "may discard one earlier musician",
            R.PH_FINAL: "takes a last slot or none",
        }[state.phase]
        lines.append(f"  {agents[state.current_player]} {what}")
    return "\n".join(lines)
