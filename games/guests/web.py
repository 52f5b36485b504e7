"""Awkward Guests on the ``parlour serve`` page (:mod:`parlour.apps.web`): :class:`GuestsWeb`.

| hook | what the page gets |
|---|---|
| ``options`` | the level |
| ``rules`` | the rules panel (:data:`~parlour.games.guests.words.RULES`) |
| ``view`` | the seat's ``player_view``, the public mansion map and the speakers' kinds (:func:`board_json`), the revealed pile's cards, the investigation sheet as a grid (``notebook``, :mod:`~parlour.games.guests.notebook_grid`), and with aids on the candidate count of the deduction engine (``candidates``) and the murderers, motives, weapons (and accomplices) it still allows (``remaining``) |
| ``prompt`` | one plain sentence per decision (:func:`~parlour.games.guests.words.prompt_text`) |
| ``target`` | references asked by clicking a room or a suspect (``ref:<id>``), hand cards by clicking them (``card:<slot>``) |
| ``reveal`` | the result, winners, the solution and a minimal proving card set, every accusation made (who, what it named, right or wrong; :func:`~parlour.games.guests.words.accusations_made`) |
"""

from __future__ import annotations

import functools
from typing import Any

from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests.case.board import WALTON
from parlour.games.guests.notebook_grid import notebook_grid, remaining
from parlour.games.guests.words import RULES, accusations_made, prompt_text, solution_names
from parlour.games.ui import WebUI, package_script

#: the level of a new game
DEFAULT_LEVEL = "easy"
#: proving card sets kept for the web page (one per case being shown)
PROOFS_CACHED = 16


class GuestsWeb(WebUI):
    """The ``parlour serve`` page's Awkward Guests: map, hand, notebook, solution."""

    def options(self) -> list[dict[str, Any]]:
        from parlour.envs.awkward_guests.case.case import LEVELS

        return [
            {"name": "level", "label": "level", "choices": list(LEVELS), "default": DEFAULT_LEVEL}
        ]

    def rules(self) -> list[dict[str, str]]:
        return [dict(section) for section in RULES]

    def prompt(self, env: Any, agent: str) -> str | None:
        return prompt_text(env.player_view(agent))

    def view(self, env: Any, agent: str, hints: bool = False) -> Any:
        """The seat's view, the public mansion map, the public revealed pile's cards, the
        investigation sheet grid and (``hints``) the candidate count and the
        remaining murderers, motives, weapons (accomplices) the deduction engine allows."""
        from parlour.envs.awkward_guests.case.deduction import Deduction

        view = env.player_view(agent)
        tables, state = env.unwrapped.game.tables, env.unwrapped.game
        page: dict[str, Any] = {
            "view": view,
            "board": board_json(),
            "revealed_cards": [tables.view_cards[c] for c in state.revealed],
            "notebook": notebook_grid(view),
        }
        if hints:
            ded = Deduction(view.accomplice_possible)
            ded.add_facts(view.facts)
            page["candidates"] = ded.count()
            page["remaining"] = remaining(ded, view.accomplice_possible)
        return page

    def target(self, env: Any, agent: str, action: int) -> str | None:
        """References are asked by clicking a room of the map or a suspect; hand cards are
        offered, paid and discarded by clicking them; the rest are buttons."""
        if action < A.CARD_0:
            return f"ref:{A.REFERENCES[action - A.REF_0]}"
        if action < A.YES:
            return f"card:{action - A.CARD_0}"
        return None

    def reveal(self, env: Any, results: dict[str, Any] | None) -> dict[str, Any]:
        case = env.unwrapped.game.case  # the game is over (or an omniscient replay)
        out: dict[str, Any] = {
            "solution": solution_names(case.solution),
            "proof": _proof(case),
            "accusations": accusations_made(env.unwrapped.game),
            "board": board_json(),
        }
        if results is not None:
            out.update(result=results["result"], winners=results["winners"])
        return out

    def script(self) -> str:
        """``web.js`` beside this module: the mansion map, the hand, the notebook."""
        return package_script("parlour.games.guests", "web.js")


_PROOFS: dict[int, tuple[Any, list[Any]]] = {}


def _proof(case: Any) -> list[Any]:
    """The proving card set of a case (kept: omniscient replay frames ask for it each step)."""
    from parlour.envs.awkward_guests.moves import proof

    kept = _PROOFS.get(id(case))
    if kept is None or kept[0] is not case:
        while len(_PROOFS) >= PROOFS_CACHED:
            del _PROOFS[next(iter(_PROOFS))]
        kept = _PROOFS[id(case)] = (case, proof(case))
    return kept[1]


@functools.lru_cache(maxsize=1)
def board_json() -> dict[str, Any]:
    """The public mansion map of the page: rooms (grid places), passages, suspects, each card
    speaker's name and kind, and the display names of suspects, rooms, motives and weapons."""
    from parlour.envs.awkward_guests.picture_map import (
        MAP_GRID,
        PASSAGE_BENDS,
        ROOM_LAYOUT,
        display_name,
        suspect_color,
    )

    return {
        "grid": list(MAP_GRID),
        "crime_scene": WALTON.crime_scene,
        "rooms": [
            {"id": r, "name": display_name(r), "box": list(ROOM_LAYOUT[r])} for r in WALTON.rooms
        ],
        "passages": [
            {
                "from": p.frm,
                "to": p.to,
                "one_way": p.one_way,
                "bends": [list(b) for b in PASSAGE_BENDS.get(frozenset((p.frm, p.to)), ())],
            }
            for p in WALTON.passages
        ],
        "suspects": [
            {"id": x, "name": display_name(x), "color": "rgb({}, {}, {})".format(*suspect_color(x))}
            for x in WALTON.suspects
        ],
        "speakers": {
            x: {"name": WALTON.display(x), "kind": speaker_kind(x)} for x in WALTON.speakers
        },
        "names": {
            x: WALTON.display(x)
            for x in (
                *WALTON.suspects,
                *WALTON.rooms,
                *(m.id for m in WALTON.motives),
                *(w.id for w in WALTON.weapons),
            )
        },
    }


def speaker_kind(speaker: str) -> str:
    """The kind of a card's speaker (the card's icon): ``guest`` (a suspect), ``staff`` (the
    household) or ``official`` (the police, the coroner)."""
    if speaker in WALTON.suspects:
        return "guest"
    return "staff" if speaker in WALTON.staff else "official"
