"""Audition's user interfaces: ``parlour play audition`` (:class:`AuditionTerminal`) and the
``parlour serve`` page (:class:`AuditionWeb`). Their words (rules, prompts, the score breakdown,
the end of a game) are in :mod:`parlour.games.audition.texts`; move names in
:mod:`parlour.envs.audition.moves`.

| page hook | Audition's |
|---|---|
| ``view`` | the seat's ``player_view``, plus public aids for drawing it: ``slot_names`` (each slot's readable kind), ``points`` (per seat, per number: the points that count scores), ``top_number`` |
| ``rules`` | the rules panel (:func:`~parlour.games.audition.texts.rules_sections`) |
| ``prompt`` | one sentence per decision (:func:`~parlour.games.audition.texts.prompt_text`) |
| ``target`` | ``slot:I`` (take it, place on it), ``number:V`` (give or discard one) |
| ``reveal`` | ``scores``, ``winners``, ``breakdown`` (:func:`~parlour.games.audition.texts.breakdown`); in an omniscient replay of a running game ``deck_top_first`` |
"""

from __future__ import annotations

from typing import Any

from parlour.envs.audition import rules as R
from parlour.envs.audition.moves import SLOT_NAMES, cards_text, describe, describe_public
from parlour.games.audition.texts import breakdown, final_text, prompt_text, rules_sections
from parlour.games.ui import Move, TerminalUI, WebUI, package_script


class AuditionTerminal(TerminalUI):
    """What ``parlour play audition`` shows: move names, the drawn card, who won and why."""

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

    def final(self, env: Any, results: dict[str, Any], agent: str | None = None) -> str:
        """Who won, from ``agent``'s point of view ("You won with 14 points."; None: an
        onlooker's), then every seat's score breakdown."""
        return final_text(env, results, agent)


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

    def view(self, env: Any, agent: str, hints: bool = False) -> Any:
        """The seat's view and public aids for drawing it (all derived from that view)."""
        view = env.player_view(agent)
        return {
            "view": view,
            "slot_names": [SLOT_NAMES[s.kind] for s in view.slots],
            "points": [[R.count_points(c) for c in col] for col in view.collections],
            "top_number": view.config.top_number,
        }

    def rules(self) -> list[dict[str, str]]:
        return rules_sections()

    def prompt(self, env: Any, agent: str) -> str | None:
        return prompt_text(env.player_view(agent))

    def reveal(self, env: Any, results: dict[str, Any] | None) -> dict[str, Any]:
        if results is None:  # a replay's omniscient view while the game runs
            game = env.unwrapped.game
            return {"deck_top_first": [int(c) for c in reversed(game.deck)]}
        return {
            "scores": results["scores"],
            "winners": results["winners"],
            "breakdown": breakdown(env),
        }

    def script(self) -> str:
        """``web.js`` beside this module: the slots, collections and numbers drawn as cards."""
        return package_script("parlour.games.audition", "web.js")
