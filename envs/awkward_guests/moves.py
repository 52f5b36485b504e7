"""Awkward Guests — readable move names, the investigation sheet, and the proof of a solution.

Used by ``parlour play guests`` (and handy in logs):

* :func:`describe` names a legal action from the deciding player's own view;
* :func:`describe_public` names another player's step as an onlooker may know it (never which
  cards were offered, paid or discarded, nor any part of an accusation), and announces the
  public end of a Solution phase: who accused wrongly and is out, who won;
* :func:`notebook_sheet` prints the player's investigation sheet from their notebook: the
  suspects × motives proof boxes, the mansion's rooms with excluded weapons and crossed-out
  passages, head counts, sightings, claims, conspiracy notes and the candidates left;
* :func:`proof` picks a small set of the case's cards that alone leave exactly the solution.
"""

from __future__ import annotations

from .actions import (
    CARD_0,
    MOTIVE_0,
    MOTIVES,
    NO,
    NO_ACCOMPLICE,
    REFERENCES,
    SUSPECT_0,
    SUSPECTS,
    WEAPON_0,
    WEAPONS,
    YES,
)
from .case.board import WALTON
from .case.cards import Card
from .case.case import Case
from .case.deduction import Deduction, solve
from .case.facts import fact_text
from .view import GuestsView

B = WALTON


def _short(text: str, width: int = 58) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def card_line(card: Card, width: int = 58) -> str:
    return f"#{card.id} (value {card.value}) {_short(card.text, width)}"


def describe(view: GuestsView, action: int) -> str:
    d = view.decision
    if action < CARD_0:
        return f"ask about {B.display(REFERENCES[action])}"
    if action < YES:
        card = view.hand[action - CARD_0].card
        verb = {"offer": "offer", "pay": "pay with", "discard": "discard"}.get(d, "choose")
        return f"{verb} {card_line(card, 44)}"
    if action == YES:
        if d == "answer":
            bid = next(b for b in view.bids if b.answering)
            return f"accept player_{bid.seat}'s bid (value {bid.value}, {bid.count} cards)"
        return "accuse now"
    if action == NO:
        return {
            "offer": "done offering",
            "answer": "decline this bid",
            "solution": "go on without accusing",
        }.get(d, "no")
    if action < MOTIVE_0:
        role = "accomplice" if d == "accomplice" else "murderer"
        return f"{role}: {B.display(SUSPECTS[action - SUSPECT_0])}"
    if action < WEAPON_0:
        motive = B.motive(MOTIVES[action - MOTIVE_0])
        return f"motive: {motive.name}"
    if action < NO_ACCOMPLICE:
        return f"weapon: {B.display(WEAPONS[action - WEAPON_0])}"
    return "no accomplice"


def describe_public(before: GuestsView, after: GuestsView, seat: int, action: int) -> str | None:
    """What an onlooker may say about another player's step (``before``/``after``: the
    onlooker's views around it); ``None`` for a step that must pass unmentioned (the steps of a
    hidden Solution-phase choice: only its end, when the next player decides, is announced,
    with who accused wrongly and is out, and how the game ended)."""
    d = before.phase
    if action < CARD_0:
        return f"asks about {B.display(REFERENCES[action])}"
    if d == "offer":
        if action == NO:
            bid = next((b for b in after.bids if b.seat == seat), None)
            if bid is None:
                return "offers nothing"
            return f"offers {_cards(bid.count)} worth {bid.value} in all (face down)"
        return "picks a card to offer"
    if d == "exchange":
        bid = next((b for b in before.bids if b.answering), None)
        whose = "the deck's" if bid is None or bid.seat < 0 else f"player_{bid.seat}'s"
        if action == YES:
            return f"accepts {whose} offer"
        if action == NO:
            return f"declines {whose} offer"
        return "pays with a card"
    if d == "solution":
        ended = _solution_end(before, after)
        if ended:
            return "has decided whether to accuse.\n" + ended  # (a public event: its own line)
        if after.current_player == seat and not after.result:
            return None  # still deciding: how many steps a choice takes is secret
        return "has decided whether to accuse (that stays secret)"
    if d == "discard":
        return "discards a card"
    return "moves"


def _cards(n: int) -> str:
    return f"{n} card" + ("" if n == 1 else "s")


def _solution_end(before: GuestsView, after: GuestsView) -> str:
    """The public end of a Solution phase, a line each: who accused wrongly and is out, who
    won ("": none of it happened in this step)."""
    out = [p for p in range(before.num_players) if after.out[p] and not before.out[p]]
    said = [
        f"player_{p} accused wrongly and is out of the game (their cards go onto the revealed "
        "pile)."
        for p in out
    ]
    if after.result and not before.result:
        winners = " and ".join(f"player_{p}" for p in after.winners)
        if after.result == "win" and out and len(after.winners) == 1:
            said.append(f"{winners} is the last one left and wins.")
        elif after.result == "win":
            said.append(
                f"{winners} solved the case and {'win' if len(after.winners) > 1 else 'wins'}."
            )
        elif after.result == "draw":
            said.append("Everybody still in accused wrongly: nobody wins.")
        elif after.result == "truncated":
            said.append("The round limit is reached: nobody wins.")
        elif after.result == "loss":
            said.append("The accusation was wrong: the game is lost.")
    return "\n".join(said)


# ----------------------------------------------------------------------------- notebook


def motive_boxes(facts: list[dict]) -> dict[tuple[str, str], str]:
    """The sheet's proof boxes the facts fill: ``(motive, testifier or "evidence")`` -> its
    verdict (``"confirms"`` / ``"refutes"``)."""
    boxes: dict[tuple[str, str], str] = {}
    for f in facts:
        if f["type"] == "testimony":
            boxes[(f["motive"], f["speaker"])] = f["verdict"]
        elif f["type"] == "evidence":
            boxes[(f["motive"], "evidence")] = f["verdict"]
    return boxes


def notebook_sheet(view: GuestsView) -> str:
    """The viewer's investigation sheet, built only from the facts in their notebook."""
    facts = view.facts
    lines = [f"Investigation sheet of player_{view.seat} ({len(view.notebook)} cards seen)"]
    marks = {"confirms": "+", "refutes": "x"}
    boxes = {box: marks[verdict] for box, verdict in motive_boxes(facts).items()}
    lines.append("Motives (boxes: 2 testifiers then evidence; + confirms, x refutes, . unknown)")
    for s in B.suspects:
        parts = []
        for m in B.motives_of(s):
            marks = "".join(boxes.get((m.id, k), ".") for k in (*m.testifiers, "evidence"))
            parts.append(f"{_short(m.name, 13):<13} [{marks}]")
        lines.append(f"  {_short(B.display(s), 15):<15} " + " ".join(parts))
    absent = {f["sign"] for f in facts if f["type"] == "sign_absent"}
    unused = {f["weapon"] for f in facts if f["type"] == "weapon_unused"}
    crossed = {(f["from"], f["to"]) for f in facts if f["type"] == "passage_unused"}
    lines.append("Rooms (weapons: x = unused or ruled out by a missing sign)")
    for r in B.rooms:
        ws = []
        for w in B.weapons:
            if w.room == r:
                out = w.id in unused or bool(absent & set(w.signs))
                ws.append(("x " if out else "") + w.id.replace("_", " "))
        if ws:
            lines.append(f"  {B.display(r):<18} " + ", ".join(ws))
    if absent:
        lines.append("  missing signs: " + ", ".join(sorted(s.replace("_", " ") for s in absent)))
    if crossed:
        lines.append(
            "  crossed-out passages: "
            + ", ".join(f"{a.replace('_', ' ')}-{b.replace('_', ' ')}" for a, b in sorted(crossed))
        )
    other = [f for f in facts if f["type"] not in _SHEET_TYPES]
    for title, kinds in (
        ("Head counts and sightings", ("guest_count", "seen_before", "seen_at_murder")),
        ("Claims", ("claim",)),
        ("Conspiracy notes", ("together", "apart", "alone")),
    ):
        picked = [f for f in other if f["type"] in kinds]
        if picked:
            lines.append(title)
            lines.extend("  " + _short(fact_text(f), 76) for f in picked)
    ded = Deduction(view.accomplice_possible)
    ded.add_facts(facts)
    lines.append(f"Candidates left (murderer, motive, weapon, accomplice): {ded.count()}")
    return "\n".join(lines)


_SHEET_TYPES = {"testimony", "evidence", "sign_absent", "weapon_unused", "passage_unused"}


# ----------------------------------------------------------------------------- proof


def proof(case: Case) -> list[Card]:
    """A small set of the case's cards whose facts alone leave exactly the solution: start from
    the whole deck and drop every card (fewest facts, lowest value first) that is not needed."""
    keep = sorted(case.cards, key=lambda c: (len(c.facts), c.value, c.id))
    i = 0
    while i < len(keep):
        trial = keep[:i] + keep[i + 1 :]
        if len(solve([f for c in trial for f in c.facts], case.accomplice_possible)) == 1:
            keep = trial
        else:
            i += 1
    return sorted(keep, key=lambda c: c.id)
