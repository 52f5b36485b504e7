"""Awkward Guests: The Walton Case — the case engine, the game engine and the environments.

==================  ===========================================================================
module              content
==================  ===========================================================================
``case/``           the case engine: board, facts, cases, deduction, generator, classic cases,
                    ``parlour case`` (see :mod:`parlour.envs.awkward_guests.case`)
``actions``         the action layout (``Discrete(95)``)
``game/``           the rules engine of a game on one case (state, turns, trades, accusations)
``notebook``        the notebook grid: every fact a player knows, as 0/1 cells
``observation``     the observation encoder (layout table)
``view``            the structured, read-only view of what one player may know
``render``          the public table as text
``moves``           readable move names, the investigation sheet, the proof of a solution
``env``             the PettingZoo AEC env (``parlour.envs.awkward_guests_v1``)
``solo``            the solo Gymnasium env (``parlour/AwkwardGuestsSolo-v1``)
==================  ===========================================================================

The case engine never imports the game side. Its public API (docs/case_model.md#public-api: ``generate_case``,
``load_case``, ``save_case``, ``solve``, ``Deduction``, ``Solution``, ``Case``, ``Card``,
``World``, ``LEVELS``, ``WALTON``, ``Board``, ``load_board``, ``load_classic``,
``classic_case_paths``) is importable from this package too.
"""

from . import case as _case
from .case import *  # noqa: F403  (the case engine's public API, re-exported)

__all__ = list(_case.__all__)
