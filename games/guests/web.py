"""Awkward Guests on the ``parlour serve`` page (:mod:`parlour.apps.web`): :class:`GuestsWeb`.

| hook | what the page gets |
|---|---|
| ``options`` | the level |
| ``view`` | the seat's ``player_view``, the public mansion map (:func:`board_json`), the revealed pile's cards, the investigation sheet, and with aids on the candidate count of the deduction engine |
| ``target`` | references asked by clicking a room or a suspect (``ref:<id>``), hand cards by clicking them (``card:<slot>``) |
| ``reveal`` | the result, winners, the solution and a minimal proving card set |
"""

from __future__ import annotations

import functools
from typing import Any

from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests.case.board import WALTON
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

    def view(self, env: Any, agent: str, hints: bool = False) -> Any:
        """The seat's view, the public mansion map, the public revealed pile's cards, the
        investigation sheet and (``hints``) the candidate count the deduction engine allows."""
        from parlour.envs.awkward_guests.case.deduction import Deduction
        from parlour.envs.awkward_guests.moves import notebook_sheet

        view = env.player_view(agent)
        tables, state = env.unwrapped.game.tables, env.unwrapped.game
        page: dict[str, Any] = {
            "view": view,
            "board": board_json(),
            "revealed_cards": [tables.view_cards[c] for c in state.revealed],
            "sheet": notebook_sheet(view),
        }
        if hints:
            ded = Deduction(view.accomplice_possible)
            ded.add_facts(view.facts)
            page["candidates"] = ded.count()
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
        sol = case.solution
        out: dict[str, Any] = {
            "solution": {
                "murderer": WALTON.display(sol.murderer),
                "motive": WALTON.motive(sol.motive).name,
                "weapon": WALTON.display(sol.weapon),
                "accomplice": WALTON.display(sol.accomplice) if sol.accomplice else None,
                "accomplice_motive": WALTON.motive(sol.accomplice_motive).name
                if sol.accomplice
                else None,
            },
            "proof": _proof(case),
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
    """The public mansion map of the page: rooms (grid places), passages, suspects."""
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
    }
