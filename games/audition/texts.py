"""Audition's words for people: the rules panel, the prompt of every decision, the score
breakdown and the end of a game, all in plain English and all taken from the rules' data
(:mod:`parlour.envs.audition.rules`; the rules as written: docs/rules/audition.md).

| function | what it gives | used by |
|---|---|---|
| :func:`rules_sections` | the rules panel: ``[{"heading", "text"}]`` | ``AuditionWeb.rules`` |
| :func:`prompt_text` | one sentence: what the viewer decides now (None: not their turn) | ``AuditionWeb.prompt`` |
| :func:`breakdown` | per seat: soloists, quartets, the cards that do not score, the total | ``AuditionWeb.reveal``, :func:`final_text` |
| :func:`final_text` | the end of a game from a person's point of view, with the breakdown | ``AuditionTerminal.final`` |

Slot kinds are named by :data:`~parlour.envs.audition.moves.SLOT_NAMES` (what they do, in a
few words) and explained by :data:`SLOT_EFFECTS`.
"""

from __future__ import annotations

from typing import Any, Final

from parlour.envs.audition import rules as R
from parlour.envs.audition.moves import SLOT_NAMES
from parlour.envs.audition.view import AuditionView

#: what taking (or placing on) an action card does, after its readable name
SLOT_EFFECTS: Final[dict[str, str]] = {
    "max_two": f"at most {R.MAX_TWO_CAPACITY} cards may lie on it.",
    "pass_left": "give one of the cards that came with it to your left neighbour.",
    "discard_one": "discard one of the cards that came with it.",
    "discard_own": "you may discard one card you already had before taking it.",
    "draw_one": "also draw the top card of the deck into your collection, face up.",
    "take_now": "whoever places a card on it may take it at once, with its cards.",
}
assert set(SLOT_EFFECTS) == set(R.ACTION_KINDS), "every action card needs its effect"

#: how many cards of one number make a soloist (its points: ``R.SOLOIST_POINTS``)
SOLOIST_SIZE: Final = 1


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _names(items: list[str]) -> str:
    """``["a", "b", "c"]`` -> ``"a, b and c"``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def rules_sections() -> list[dict[str, str]]:
    """The rules panel: the goal, a turn, the rounds, the end, scoring, the variants."""
    fewest, most = min(R.TOP_NUMBER), max(R.TOP_NUMBER)
    effects = "\n\n".join(f"{SLOT_NAMES[k].capitalize()}: {SLOT_EFFECTS[k]}" for k in SLOT_EFFECTS)
    return [
        {
            "heading": "The goal",
            "text": (
                "Collect musician cards so that you hold exactly one or exactly "
                f"{R.QUARTET_SIZE} cards of as many numbers as you can. The cards are numbered "
                f"1 to {R.TOP_NUMBER[fewest]} with {fewest} players, up to 1 to "
                f"{R.TOP_NUMBER[most]} with {most}; number k has k cards."
            ),
        },
        {
            "heading": "Your turn",
            "text": (
                f"There is one slot per player; a slot holds up to {R.SLOT_CAPACITY} cards. On "
                "your turn, do one of two things:\n\n"
                "Draw the top card of the deck and place it face up on a slot that nobody has "
                "taken this round and that has room.\n\n"
                "Or take a slot that holds cards: all its cards go into your collection, and "
                "you sit out the rest of the round.\n\n"
                "Every collection is face up: everyone sees everyone's cards."
            ),
        },
        {
            "heading": "Rounds and the end",
            "text": (
                "A round ends when every player has taken a slot: the slots are emptied and "
                "whoever took the last slot begins the next round.\n\n"
                "When the deck runs out, the move under way is finished; then every player "
                "who has not taken a slot this round may take one last slot, or none, and the "
                "game ends. Cards left on the slots do not score."
            ),
        },
        {
            "heading": "Scoring",
            "text": (
                f"For each number in your collection: exactly one card is a soloist, worth "
                f"{_plural(R.SOLOIST_POINTS, 'point')}; exactly {R.QUARTET_SIZE} cards are a "
                f"quartet, worth {_plural(R.QUARTET_POINTS, 'point')}; any other count scores "
                f"nothing ({R.QUARTET_SIZE + 1} cards are not a quartet plus a soloist).\n\n"
                "The most points wins; on a tie, the most quartets; still tied, the win is "
                "shared."
            ),
        },
        {
            "heading": "Variant: action cards (when chosen)",
            "text": (
                "Some slots are action cards instead of conductors. Taking one brings its "
                "cards as usual, then does its action:\n\n"
                f"{effects}\n\n"
                "Discarded cards lie face up in the discard row and never score."
            ),
        },
        {
            "heading": "Variant: uncertain counts (when chosen)",
            "text": (
                f"At the start {R.NUM_REMOVED_UNCERTAIN} cards are removed from the deck unseen: "
                "nobody knows which, so a number may run out early."
            ),
        },
        {
            "heading": "Playing here",
            "text": (
                "Whatever you may do now is outlined in gold. Click a slot to take it, or to "
                "place the card you drew on it; click a number of your collection to give or "
                "discard one card of it. Drawing a card and passing are buttons."
            ),
        },
    ]


def prompt_text(view: AuditionView) -> str | None:
    """One plain sentence: what the viewer decides now (None when it is not their turn)."""
    legal = set(view.legal_actions)
    if not legal:
        return None
    phase = view.phase
    can_take = any(R.TAKE_0 + s in legal for s in range(view.num_players))
    if phase == "turn":
        if R.DRAW in legal and can_take:
            return "Take a slot with its cards, or draw a card from the deck to place on a slot."
        if R.DRAW in legal:
            return "Draw a card from the deck to place on a slot: no slot holds cards yet."
        return "Take a slot with its cards: no slot has room for another card."
    if phase == "place":
        return f"Place the {view.drawn} you drew on a slot."
    if phase == "take_now":
        return (
            f"You may take slot {view.pending_slot} now with its cards, or leave it on the table."
        )
    if phase == "pass_left":
        return "Choose one of the cards that came with the slot to give to the player on your left."
    if phase == "discard_one":
        return "Choose one of the cards that came with the slot to discard."
    if phase == "discard_own":
        return "You may discard one card you held before this take, or discard nothing."
    if phase == "final":
        if can_take:
            return "The deck is empty: take one last slot, or take none."
        return "The deck is empty and no slot holds cards: take no slot."
    raise ValueError(f"view.phase: no prompt for {phase!r}; allowed: {list(R.PHASES[:-1])}")


def breakdown(env: Any) -> list[dict[str, Any]]:
    """Per seat (in seat order), from its collection and the scoring rules: ``agent``,
    ``numbers`` (``{"number", "count", "points", "kind"}`` for every number held; kind
    ``soloist``, ``quartet`` or ``none``), ``soloists``/``quartets`` (their numbers),
    ``soloist_points``, ``quartet_points``, ``total`` (their sum: the env's score)."""
    game = env.unwrapped.game
    rows = []
    for p, agent in enumerate(env.possible_agents):
        counts = [int(c) for c in game.collections[p]]
        numbers = []
        for v in range(1, len(counts)):
            if counts[v]:
                kind = _kind(counts[v])
                numbers.append(
                    {
                        "number": v,
                        "count": counts[v],
                        "points": R.count_points(counts[v]),
                        "kind": kind,
                    }
                )
        soloists = [n["number"] for n in numbers if n["kind"] == "soloist"]
        quartets = [n["number"] for n in numbers if n["kind"] == "quartet"]
        rows.append(
            {
                "agent": agent,
                "numbers": numbers,
                "soloists": soloists,
                "quartets": quartets,
                "soloist_points": len(soloists) * R.SOLOIST_POINTS,
                "quartet_points": len(quartets) * R.QUARTET_POINTS,
                "total": sum(n["points"] for n in numbers),
            }
        )
    return rows


def _kind(count: int) -> str:
    if count == SOLOIST_SIZE:
        return "soloist"
    return "quartet" if count == R.QUARTET_SIZE else "none"


def outcome_text(results: dict[str, Any], agent: str | None) -> str:
    """The result in one sentence, from ``agent``'s point of view (None: an onlooker's)."""
    scores, winners = results["scores"], list(results["winners"])
    best = scores[winners[0]]
    points = _plural(best, "point")
    others = [w for w in winners if w != agent]
    # a tie on points broken by quartets: someone with the winners' points lost
    on_quartets = any(scores[a] == best and a not in winners for a in scores)
    how = f"{points} and more quartets" if on_quartets else points
    if agent is None:
        if len(winners) == 1:
            return f"{winners[0]} won with {how}."
        return f"{_names(winners)} shared the win with {how} each."
    if agent in winners:
        if len(winners) == 1:
            return f"You won with {how}."
        return f"You shared the win with {_names(others)}: {how} each."
    mine = scores[agent]
    if len(winners) == 1:
        return f"You lost: {winners[0]} won with {how} (you: {mine})."
    return f"You lost: {_names(winners)} shared the win with {how} each (you: {mine})."


def breakdown_lines(rows: list[dict[str, Any]], agent: str | None) -> list[str]:
    """The breakdown as text lines, ``agent``'s own first (marked "you")."""
    order = sorted(rows, key=lambda r: r["agent"] != agent)
    lines = [
        f"Score breakdown (soloist: exactly one card of a number, {R.SOLOIST_POINTS} point; "
        f"quartet: exactly {R.QUARTET_SIZE}, {R.QUARTET_POINTS} points):"
    ]
    for row in order:
        who = f"{row['agent']} (you)" if row["agent"] == agent else row["agent"]
        solo = ", ".join(map(str, row["soloists"])) or "none"
        quart = ", ".join(map(str, row["quartets"])) or "none"
        rest = [
            f"{n['number']} ({n['count']} cards)" for n in row["numbers"] if n["kind"] == "none"
        ]
        lines.append(
            f"  {who}: {_plural(row['total'], 'point')} = soloists {solo} "
            f"({row['soloist_points']}) + quartets {quart} ({row['quartet_points']}); "
            f"not scoring: {', '.join(rest) or 'nothing'}"
        )
    return lines


def final_text(env: Any, results: dict[str, Any], agent: str | None = None) -> str:
    """The end of a game for ``agent`` (None: for an onlooker): who won, then the breakdown."""
    return "\n".join([outcome_text(results, agent), *breakdown_lines(breakdown(env), agent)])
