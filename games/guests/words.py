"""Awkward Guests in plain words for people: the rules panel, the prompts, the accusations made
and the outcome (the ``parlour serve`` page and ``parlour play guests``).

| name | what |
|---|---|
| :data:`RULES` | the page's rules panel (from docs/rules/awkward_guests.md, G1–G17) |
| :func:`prompt_text` | one sentence for every decision a seat can face, from its own view |
| :func:`accusations_made` | every resolved accusation: who, what it named (display names), right or wrong (hidden until the game is over) |
| :func:`outcome_line` | the outcome from a seat's point of view ("You won: you solved the case.") |
| :func:`solution_line`, :func:`accusation_line` | the solution, an accusation, in display names |
"""

from __future__ import annotations

from typing import Any

from parlour.envs.awkward_guests.case.board import WALTON
from parlour.envs.awkward_guests.game import rules as G
from parlour.envs.awkward_guests.game.accusation import accusation_solution
from parlour.envs.awkward_guests.view import GuestsView

#: the victim, as the solution line names him
VICTIM = "Mr. Walton"

RULES: list[dict[str, str]] = [
    {
        "heading": "Goal",
        "text": "Solve the murder of Mr. Walton before anybody else: name the murderer, their "
        "motive and the weapon. From the medium level on there may also be an accomplice: "
        "then you also name the accomplice and their motive, or say there was none.\n\n"
        "Every case card holds clues (its text) and a value of 1 to 3 (what it is worth in "
        "trade). Every card you hold, receive, draw or are shown goes into your notebook.",
    },
    {
        "heading": "A round",
        "text": "Every player still in takes one turn, starting with the start player. Then "
        "everybody may accuse. Then everybody with more than 3 cards discards down to 3, the "
        "start player moves one seat on, and everybody draws back up to 6 cards.",
    },
    {
        "heading": "Your turn",
        "text": "Ask about 2 rooms or suspects (4 with one or two players): click them on the "
        "map or in the row of suspects.\n\n"
        "The other players may then offer cards that name something you asked about. Each "
        "offer (a bid) is face down: you see only how many cards it has and their total "
        "value.\n\n"
        "You take or refuse each bid whole. For a bid you take you pay that player cards of "
        "your own worth at least the bid's value. If nobody offers anything you draw 3 cards "
        "instead (2 with one or two players). With one or two players, cards you receive "
        "are read, noted and discarded at once.",
    },
    {
        "heading": "Accusing",
        "text": "After the turns of a round every player still in decides, in secret, whether "
        "to accuse. A correct accusation wins. A wrong one puts you out of the game: your "
        "hand is shown to everybody on the revealed pile, and nobody learns what you "
        "accused. If you are the last player left, you win.\n\n"
        "When the deck runs out, the discard pile is shuffled into a new deck and its top 3 "
        "cards are shown to everybody. After the round limit (30 rounds) nobody wins.",
    },
    {
        "heading": "On this page",
        "text": "Whatever you may click now has a gold outline (also reachable with Tab and "
        "Enter). With the deduction aids on, the page tells you how many solutions your "
        "notebook still allows, and which suspects, motives and weapons remain.",
    },
]


def _seat(seat: int) -> str:
    return "the deck" if seat == G.DECK_SEAT else f"player_{seat}"


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}" + ("" if n == 1 else "s")


def prompt_text(view: GuestsView) -> str | None:
    """One plain sentence telling the viewer what to do at its decision (None: not deciding)."""
    d = view.decision
    small = view.num_players <= G.SMALL_TABLE
    if d == "inquiry":
        total = G.REFS_PER_INQUIRY_SMALL if small else G.REFS_PER_INQUIRY
        left = total - len(view.asked)
        return (
            f"Ask about {_count(left, 'more room or suspect')} (of {total}): "
            "click a room on the map or a suspect's name."
            if view.asked
            else f"Ask about {total} rooms or suspects: click them on the map or "
            "in the row of suspects."
        )
    if d == "offer":
        asked = " and ".join(WALTON.display(r) for r in view.asked)
        return (
            f"{_seat(view.active_player)} asked about {asked}: click the cards of your hand "
            "you offer (each must name one of them), then press “done offering” — or press "
            "it at once to offer nothing."
        )
    if d == "answer":
        bid = next(b for b in view.bids if b.answering)
        return (
            f"{_seat(bid.seat)} offers {_count(bid.count, 'card')} worth {bid.value}: accept "
            f"(you then pay cards worth at least {bid.value}) or decline."
        )
    if d == "pay":
        bid = next(b for b in view.bids if b.answering)
        return (
            f"Pay {_seat(bid.seat)}: click cards of your hand worth at least {view.owed} more "
            "in total."
        )
    if d == "solution":
        return "Accuse now, or go on without accusing? A wrong accusation puts you out of the game."
    if d in ("murderer", "accomplice"):
        extra = " (or “no accomplice”)" if d == "accomplice" else ""
        return f"Your accusation: choose the {d}{extra} from the buttons."
    if d in ("motive", "accomplice_motive"):
        acc = view.pending_accusation
        who = (acc.murderer if d == "motive" else acc.accomplice) if acc else None
        whose = f"{WALTON.display(who)}'s" if who else "the"
        return f"Your accusation: choose {whose} motive from the buttons."
    if d == "weapon":
        return "Your accusation: choose the weapon from the buttons."
    if d == "discard":
        return (
            f"Discard {_count(view.to_discard, 'more card')}: click them in your hand "
            f"(you keep {G.KEEP_AFTER_DISCARD})."
        )
    return None


def accusations_made(state: Any) -> list[dict[str, Any]]:
    """Every resolved accusation of the game ``state`` (hidden until the game is over): the
    seat, its agent name, the round, whether it was right, and what it named (display names;
    ``accomplice`` None: none was named)."""
    out = []
    for (rnd, seat, correct), acc in zip(state.accusation_log, state.accused, strict=True):
        sol = accusation_solution(list(acc))
        out.append(
            {
                "seat": seat,
                "agent": f"player_{seat}",
                "round": rnd,
                "correct": correct,
                **solution_names(sol),
            }
        )
    return out


def solution_names(sol: Any) -> dict[str, str | None]:
    """A solution (or accusation) in display names: murderer, motive, weapon, accomplice and
    accomplice motive (None: no accomplice)."""
    return {
        "murderer": WALTON.display(sol.murderer),
        "motive": WALTON.motive(sol.motive).name,
        "weapon": WALTON.display(sol.weapon),
        "accomplice": WALTON.display(sol.accomplice) if sol.accomplice else None,
        "accomplice_motive": WALTON.motive(sol.accomplice_motive).name if sol.accomplice else None,
    }


def solution_line(names: dict[str, Any]) -> str:
    """``Greg Gaffney killed Mr. Walton for “Stolen Recipe” with the wrench[, helped by …]``."""
    return f"{names['murderer']} killed {VICTIM} {_how(names)}"


def accusation_line(acc: dict[str, Any], agent: str | None = None) -> str:
    """``player_2 accused Greg Gaffney (for “Stolen Recipe” with the wrench) in round 3:
    wrong.`` (``agent``: that seat is "You")."""
    who = "You" if acc["agent"] == agent else acc["agent"]
    verdict = "right" if acc["correct"] else "wrong"
    return f"{who} accused {acc['murderer']} ({_how(acc)}) in round {acc['round']}: {verdict}."


def _how(names: dict[str, Any]) -> str:
    text = f"for “{names['motive']}” with {names['weapon']}"
    if names["accomplice"]:
        text += f", helped by {names['accomplice']} (“{names['accomplice_motive']}”)"
    return text


def outcome_line(results: dict[str, Any], agent: str | None) -> str:
    """The outcome in a sentence, from ``agent``'s point of view (None: an onlooker's)."""
    winners = list(results["winners"])
    solved = [a for a in winners if results["solved"].get(a)]
    named = " and ".join(winners)
    how = "solved the case" if solved else "is the last one left"
    if len(winners) > 1:
        how = "solved the case together"
    if agent is not None and agent in winners:
        if solved:
            others = " and ".join(a for a in winners if a != agent)
            mine = f"you and {others} solved the case together" if others else "you solved the case"
            return f"You won: {mine}."
        return "You won: everybody else accused wrongly."
    if winners:
        return f"You lost: {named} {how}." if agent is not None else f"{named} {how}."
    if results["result"] == "loss":  # solo: a wrong accusation
        return "You lost: the accusation was wrong." if agent else "The accusation was wrong."
    why = {
        "draw": "everybody still in accused wrongly",
        "truncated": "the round limit was reached",
    }.get(results["result"], "the game ended")
    return f"Nobody solved the case: {why}."
