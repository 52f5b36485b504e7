"""The Awkward Guests case engine: board, facts, cases, deduction and the case generator.

Everything about a *case* (docs/case_model.md) and nothing about playing it: the game (turns, trades,
accusations, the envs) lives beside this package in :mod:`parlour.envs.awkward_guests` and
only reads cases. Modules, in dependency order (each imports only modules above it):

==================  ===========================================================================
module              content
==================  ===========================================================================
``memo``            :func:`~.memo.cached_by`: bounded memoisation by content (engine caches)
``board``           the mansion board (:class:`Board`, ``WALTON`` from ``walton.json``)
``facts``           the twelve fact types: schema validation, references, English text
``solution``        :class:`Solution` and the fixed enumeration of candidate solutions
``deduction/``      the deduction engine: :class:`Deduction` (incremental), :func:`solve`
``fact_info``       :func:`~.fact_info.fact_info`: a fact's validity, keys, references and
                    text, checked and computed once per fact content
``cards``           :class:`Card`: a card's facts, references, text and trading value
``case``            the case model (:class:`Case`, :class:`World`, ``LEVELS``) and the case
                    file (:func:`load_case`, :func:`save_case`)
``truth``           soundness: is a fact true of a case's hidden world
``generator/``      :func:`generate_case`: sound, unique, verified cases per level and seed
``classic``         the 30 bundled classic cases (``classic/*.json``)
``stats``           the level table (``parlour case stats``)
``cli``             ``parlour case`` (generate, show, check, stats, classic)
==================  ===========================================================================

Public API (docs/case_model.md#public-api):

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
``WALTON``, ``Board``  the Walton mansion board, the board type (``load_board`` reads another)
``load_classic``,      the 30 bundled classic cases
``classic_case_paths``
=====================  =====================================================================
"""

from .board import WALTON, Board, load_board
from .cards import Card
from .case import LEVELS, Case, World, load_case, save_case
from .classic import classic_case_paths, load_classic
from .deduction import Deduction, solve
from .generator import generate_case
from .solution import Solution

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
