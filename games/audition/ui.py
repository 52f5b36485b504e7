"""Audition's user interfaces: ``parlour play audition`` (:class:`AuditionTerminal`) and the
``parlour serve`` page (:class:`AuditionWeb`)."""

from __future__ import annotations

from typing import Any

from parlour.envs.audition import rules as R
from parlour.envs.audition.moves import cards_text, describe, describe_public
from parlour.games.ui import Move, TerminalUI, WebUI, package_script


class AuditionTerminal(TerminalUI):
    """What ``parlour play audition`` shows: move names, the drawn card, the final scores."""

    default_players = 2
    default_opponent = "audition.greedy"

    def moves(self, env: Any, agent: str) -> list[Move]:
        view = env.player_view(agent)
        return [Move(a, describe(view, a)) for a in view.legal_actions]

    def private(self, env: Any, agent: str) -> str:
        view = env.player_view(agent)
        mine = f"You are {agent}. Your collection: {cards_text(view.my_collection)}"
        if view.drawn:
            mine += f"\nYou drew a {view.drawn}."
        return mine

    def describe_other(self, before: Any, after: Any, seat: int, action: int) -> str | None:
        return describe_public(before, after, seat, action)

    def final(self, env: Any, results: dict[str, Any]) -> str:
        scores = ", ".join(f"{a}: {p}" for a, p in results["scores"].items())
        return f"Scores: {scores}\nWinner(s): {', '.join(results['winners'])}"


class AuditionWeb(WebUI):
    """The page's Audition: the game's own form fields, clickable slots and numbers."""

    def options(self) -> list[dict[str, Any]]:
        return [
            {
                "name": "action_cards",
                "label": "action cards (variant 1)",
                "choices": list(range(R.MAX_PLAYERS + 1)),
                "default": 0,
            },
            {"name": "uncertain_counts", "label": "uncertain counts", "choices": "bool"},
        ]

    def target(self, env: Any, agent: str, action: int) -> str | None:
        """Slots are clicked to take them or place the drawn card; numbers of the collection
        to give or discard one; drawing and passing are buttons."""
        if R.TAKE_0 <= action < R.DRAW:
            return f"slot:{action - R.TAKE_0}"
        if R.PLACE_0 <= action < R.PASS:
            return f"slot:{action - R.PLACE_0}"
        if action > R.PASS:
            return f"number:{action - R.CHOOSE_0}"
        return None

    def reveal(self, env: Any, results: dict[str, Any] | None) -> dict[str, Any]:
        if results is None:  # a replay's omniscient view while the game runs
            game = env.unwrapped.game
            return {"deck_top_first": [int(c) for c in reversed(game.deck)]}
        return {"scores": results["scores"], "winners": results["winners"]}

    def script(self) -> str:
        """``web.js`` beside this module: the slots, collections and numbers drawn as cards."""
        return package_script("parlour.games.audition", "web.js")
