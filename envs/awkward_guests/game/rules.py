"""The rules' constants and the table configuration of an Awkward Guests game.

========================  ====================================================================
name                      what it is
========================  ====================================================================
``PHASES``, ``PH_*``      the public phases (index = ``GuestsState.phase``)
``DECISIONS``, ``D_*``    the decisions a player takes (index = ``GuestsState.decision``)
``DECISION_PHASE``        the public phase of each decision
``TURN_DECISIONS``        the decisions of a turn's inquiry, offers and exchange
``RESULTS``               how a game ends: ``win``, ``draw``, ``truncated``, ``loss`` (solo)
``MOTIVES_OF``            the motive indices of each suspect
``MASK_*``                the constant legal-action masks (accusation steps, yes/no)
``GuestsConfig``          the table: ``num_players`` (1–8) and ``max_rounds``
``IllegalActionError``    raised by ``GuestsState.apply`` for an illegal action
========================  ====================================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np

from parlour.envs._checks import require_int

from .. import actions as A
from ..case.board import WALTON

MIN_PLAYERS: Final = 1
MAX_PLAYERS: Final = 8
MAX_HAND: Final = A.MAX_HAND  # 32
HAND_SIZE: Final = 6
KEEP_AFTER_DISCARD: Final = 3
REVEAL_ON_RESHUFFLE: Final = 3
SOLO_LOOK: Final = 5
DEFAULT_MAX_ROUNDS: Final = 30
SOLO_ROUND_PENALTY: Final = 0.01
#: Tables of at most this many players are "small": the inquiry names more references and
#: received cards are read, noted and discarded.
SMALL_TABLE: Final = 2
REFS_PER_INQUIRY: Final = 2
REFS_PER_INQUIRY_SMALL: Final = 4
#: Cards the active player draws when nobody bids (and, small tables, notes and discards).
NO_BID_DRAW: Final = 3
NO_BID_DRAW_SMALL: Final = 2

PHASES: Final = ("inquiry", "offer", "exchange", "solution", "discard", "over")
PH_INQUIRY, PH_OFFER, PH_EXCHANGE, PH_SOLUTION, PH_DISCARD, PH_OVER = range(len(PHASES))

DECISIONS: Final = (
    "inquiry",
    "offer",
    "answer",
    "pay",
    "solution",
    "murderer",
    "motive",
    "weapon",
    "accomplice",
    "accomplice_motive",
    "discard",
    "none",
)
(
    D_INQUIRY,
    D_OFFER,
    D_ANSWER,
    D_PAY,
    D_SOLUTION,
    D_MURDERER,
    D_MOTIVE,
    D_WEAPON,
    D_ACCOMPLICE,
    D_ACC_MOTIVE,
    D_DISCARD,
    D_NONE,
) = range(len(DECISIONS))

#: The decisions of a turn's inquiry, offers and exchange (:mod:`~.exchange`).
TURN_DECISIONS: Final = frozenset({D_INQUIRY, D_OFFER, D_ANSWER, D_PAY})

#: The public phase of each decision (an accusation in progress looks like "solution").
DECISION_PHASE: Final = (
    PH_INQUIRY,
    PH_OFFER,
    PH_EXCHANGE,
    PH_EXCHANGE,
    PH_SOLUTION,
    PH_SOLUTION,
    PH_SOLUTION,
    PH_SOLUTION,
    PH_SOLUTION,
    PH_SOLUTION,
    PH_DISCARD,
    PH_OVER,
)

RESULTS: Final = ("win", "draw", "truncated", "loss")

DECK_SEAT: Final = -1  # the "bidder" seat of the solo deck bid
#: The accomplice and accomplice motive of an accusation that names no accomplice.
NOBODY: Final = -1

#: motive indices of each suspect (by suspect index)
MOTIVES_OF: Final = tuple(
    tuple(i for i, m in enumerate(WALTON.motives) if m.owner == s) for s in A.SUSPECTS
)


def _const_mask(actions: list[int]) -> np.ndarray:
    m = np.zeros(A.NUM_ACTIONS, np.int8)
    m[actions] = 1
    m.flags.writeable = False
    return m


MASK_YES_NO = _const_mask([A.YES, A.NO])
MASK_SUSPECTS = _const_mask([A.SUSPECT_0 + s for s in range(len(A.SUSPECTS))])
MASK_WEAPONS = _const_mask([A.WEAPON_0 + w for w in range(len(A.WEAPONS))])
MASK_MOTIVES_OF = tuple(_const_mask([A.MOTIVE_0 + m for m in ms]) for ms in MOTIVES_OF)
MASK_ACCOMPLICE = tuple(
    _const_mask([A.SUSPECT_0 + s for s in range(len(A.SUSPECTS)) if s != m] + [A.NO_ACCOMPLICE])
    for m in range(len(A.SUSPECTS))
)


class IllegalActionError(ValueError):
    """An action that is not legal in the current state (the state is left unchanged)."""


# ----------------------------------------------------------------------------- configuration


@dataclass(frozen=True)
class GuestsConfig:
    """The table's setup. Invalid values raise ``ValueError`` naming the argument."""

    num_players: int = 2
    max_rounds: int = DEFAULT_MAX_ROUNDS

    def __post_init__(self) -> None:
        n = require_int("num_players", self.num_players, MIN_PLAYERS, MAX_PLAYERS)
        object.__setattr__(self, "num_players", n)
        object.__setattr__(self, "max_rounds", require_int("max_rounds", self.max_rounds, 1))

    @property
    def refs_per_inquiry(self) -> int:
        return REFS_PER_INQUIRY_SMALL if self.small else REFS_PER_INQUIRY

    @property
    def small(self) -> bool:
        """1–2 players: received cards are read, noted and discarded."""
        return self.num_players <= SMALL_TABLE
