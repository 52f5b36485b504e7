"""Awkward Guests: The Walton Case — the case engine (board, cases, deduction, generator).

Public API (spec §4):

=====================  =====================================================================
name                   what it is
=====================  =====================================================================
``generate_case``      ``generate_case(level, seed, deck_size=70) -> Case``: a sound, unique,
                       verified case (deterministic per seed)
``load_case``          read and validate a case file (``ValueError`` on a bad file)
``save_case``          write a case file
``solve``              ``solve(facts, accomplice_possible) -> list[Solution]``: every consistent
                       solution
``Deduction``          the incremental deduction engine (add a card's facts, read candidates)
``Solution``           named tuple ``(murderer, motive, weapon, accomplice, accomplice_motive)``
``Case``, ``Card``,    the case model (``Case.to_json()`` / ``Case.from_json()``)
``World``
``LEVELS``             ``beginner, very_easy, easy, medium, hard, very_hard, expert``
``WALTON``             the Walton mansion board
``load_classic``,      the 30 bundled classic cases
``classic_case_paths``
=====================  =====================================================================

Modules: ``board`` (board data), ``facts`` (fact schema), ``case`` (case model and JSON),
``deduction`` (engine), ``truth`` (soundness), ``generator``, ``classic``, ``stats`` (level
table), ``cli`` (``parlour case``).
"""

from .board import WALTON, Board, load_board
from .case import Card, Case, Solution, World, load_case, save_case
from .classic import classic_case_paths, load_classic
from .deduction import Deduction, solve
from .generator import LEVELS, generate_case

__all__ = [
    "WALTON",
    "Board",
    "load_board",
    "Card",
    "Case",
    "Solution",
    "World",
    "load_case",
    "save_case",
    "Deduction",
    "solve",
    "LEVELS",
    "generate_case",
    "classic_case_paths",
    "load_classic",
]
