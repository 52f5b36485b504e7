"""The layout of the Awkward Guests observation vector: sizes, column offsets and
:func:`make_layout` (block name -> slice) for each ``observation_mode``. The blocks are
documented in :mod:`parlour.envs.awkward_guests.observation`, which re-exports every name here."""

from __future__ import annotations

import math

from . import game as G
from .case.board import WALTON
from .case.case import LEVELS
from .case.facts import FACT_TYPES
from .notebook import NOTEBOOK_SIZE

N_SEATS = G.MAX_PLAYERS
N_SLOTS = G.MAX_HAND
N_SUSPECTS = len(WALTON.suspects)
N_MOTIVES = len(WALTON.motives)
N_WEAPONS = len(WALTON.weapons)
N_REFS = len(WALTON.references)
N_DECISIONS = len(G.DECISIONS) - 1  # without "none"
N_PLAYER_FEATURES = 13
HAND_FEATURES = 1 + 3 + N_REFS + len(FACT_TYPES) + (N_SEATS - 1) + 1  # 40
BID_SCALE = 30.0
MAX_CASE_CARDS = 200

# column offsets inside a hand row / a player row
H_PRESENT, H_VALUE, H_REFS = 0, 1, 4
H_TYPES = H_REFS + N_REFS  # 20
H_SEEN = H_TYPES + len(FACT_TYPES)  # 32
H_SELECTED = H_SEEN + N_SEATS - 1  # 39
(
    P_PRESENT,
    P_OUT,
    P_DECIDING,
    P_ACTIVE,
    P_START,
    P_HAND,
    P_TURN_DONE,
    P_BID,
    P_BID_VALUE,
    P_BID_COUNT,
    P_ACCEPTED,
    P_DECLINED,
    P_ANSWERING,
) = range(N_PLAYER_FEATURES)

#: ``last_turns``: the features of one bidder block of a seat's record
LAST_BID_FEATURES: tuple[str, ...] = ("made", "value", "count", "accepted", "paid")
#: ``last_turns``: (name, shape) of the pieces of one seat's record, in order
LAST_TURN_PIECES: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("recorded", (1,)),
    ("asked", (N_REFS,)),
    ("bids", (N_SEATS, len(LAST_BID_FEATURES))),
)


def _pieces_layout(pieces: tuple[tuple[str, tuple[int, ...]], ...]) -> dict[str, slice]:
    out: dict[str, slice] = {}
    pos = 0
    for name, shape in pieces:
        out[name] = slice(pos, pos + math.prod(shape))
        pos += math.prod(shape)
    return out


#: ``last_turns``: piece name -> slice of one seat's record (relative to the record's start)
LAST_TURN_LAYOUT: dict[str, slice] = _pieces_layout(LAST_TURN_PIECES)
LAST_TURN_FEATURES = LAST_TURN_LAYOUT["bids"].stop  # 57 per seat
N_BID_FEATURES = len(LAST_BID_FEATURES)
LT_RECORDED = LAST_TURN_LAYOUT["recorded"].start
LT_ASKED = LAST_TURN_LAYOUT["asked"].start
LT_BIDS = LAST_TURN_LAYOUT["bids"].start

_BLOCKS: tuple[tuple[str, int], ...] = (
    ("phase", len(G.PHASES)),
    ("pending_decision", N_DECISIONS),
    ("pending_accusation", N_SUSPECTS + N_MOTIVES + N_WEAPONS + N_SUSPECTS + 1),
    ("pending_amount", 2),
    ("round", 1),
    ("level", len(LEVELS)),
    ("num_players", N_SEATS),
    ("rules", 3),
    ("players", N_SEATS * N_PLAYER_FEATURES),
    ("asked", N_REFS),
    ("last_turns", N_SEATS * LAST_TURN_FEATURES),
    ("piles", 4),
    ("hand", N_SLOTS * HAND_FEATURES),
    ("notebook", NOTEBOOK_SIZE),
)
_DEDUCED_BLOCKS: tuple[tuple[str, int], ...] = (
    ("deduced_murderers", N_SUSPECTS),
    ("deduced_motives", N_MOTIVES),
    ("deduced_weapons", N_WEAPONS),
    ("deduced_accomplices", N_SUSPECTS + 1),
    ("deduced_accomplice_motives", N_MOTIVES + 1),
    ("deduced_count", 1),
)
_CHOICE_BLOCKS: tuple[tuple[str, int], ...] = (
    ("hand_share", N_SLOTS),
    ("hand_teach", N_SLOTS),
    ("accusation_murderers", N_SUSPECTS),
    ("accusation_motives", N_MOTIVES),
    ("accusation_weapons", N_WEAPONS),
    ("accusation_accomplices", N_SUSPECTS + 1),
    ("accusation_accomplice_motives", N_MOTIVES + 1),
)
#: a block laid out as the five ``accusation_*`` blocks: murderer (6), motive (18), weapon (20),
#: accomplice (6 + none), accomplice motive (18 + none)
N_SOLUTION = N_SUSPECTS + N_MOTIVES + N_WEAPONS + N_SUSPECTS + 1 + N_MOTIVES + 1  # 70
_SHARE_BLOCKS: tuple[tuple[str, int], ...] = (("accusation_shares", N_SOLUTION),)
_ODDS_BLOCKS: tuple[tuple[str, int], ...] = (("accusation_odds", N_SOLUTION),)
_SEER_BLOCKS: tuple[tuple[str, int], ...] = (("seer_solution", N_SOLUTION),)
OBSERVATION_MODES = ("notebook", "deduced", "deduced_choices", "deduced_shares", "deduced_odds")
#: the modes with the ``deduced_*`` blocks
DEDUCED_MODES = ("deduced", "deduced_choices", "deduced_shares", "deduced_odds")
#: the modes with the ``hand_*`` and ``accusation_*`` blocks of ``deduced_choices``
CHOICE_MODES = ("deduced_choices", "deduced_shares", "deduced_odds")
#: the modes with the ``accusation_shares`` block of ``deduced_shares``
SHARE_MODES = ("deduced_shares", "deduced_odds")


def make_layout(observation_mode: str = "notebook", seer: bool = False) -> dict[str, slice]:
    """Ordered mapping block name -> slice of the observation vector."""
    blocks = _BLOCKS
    if observation_mode in DEDUCED_MODES:
        blocks = blocks + _DEDUCED_BLOCKS
    if observation_mode in CHOICE_MODES:
        blocks = blocks + _CHOICE_BLOCKS
    if observation_mode in SHARE_MODES:
        blocks = blocks + _SHARE_BLOCKS
    if observation_mode == "deduced_odds":
        blocks = blocks + _ODDS_BLOCKS
    if seer:
        blocks = blocks + _SEER_BLOCKS
    layout: dict[str, slice] = {}
    pos = 0
    for name, size in blocks:
        layout[name] = slice(pos, pos + size)
        pos += size
    return layout


def layout_size(layout: dict[str, slice]) -> int:
    return max(s.stop for s in layout.values())
