"""Audition — the rules' constants, the card and scoring helpers, and the table configuration.

The vocabulary shared by the engine (:mod:`parlour.envs.audition.rules`, which re-exports every
name listed in ``__all__`` here) and everything that reads its states; no game state and no
game flow in this module.

| name | what it is |
|---|---|
| ``MIN_PLAYERS``, ``MAX_PLAYERS`` | the player counts (2–6) |
| ``MAX_NUMBER``, ``TOP_NUMBER`` | the highest musician number overall (13) / per player count |
| ``SLOT_CAPACITY``, ``MAX_TWO_CAPACITY`` | musicians a slot holds (4; 2 on ``max_two``) |
| ``NUM_REMOVED_UNCERTAIN`` | cards removed unseen in variant 2 (5) |
| ``MINI_TOP_NUMBER``, ``MINI_SLOT_CAPACITY`` | the mini table (2 players, for exact solvers): numbers ``1..2`` (3 cards), slots of 2 |
| ``SOLOIST_POINTS``, ``QUARTET_SIZE``, ``QUARTET_POINTS`` | the scoring |
| ``CONDUCTOR``, ``ACTION_KINDS``, ``SLOT_KINDS``, ``K_*`` | the slot kinds and their indices |
| ``NUM_ACTIONS``, ``TAKE_0``, ``DRAW``, ``PLACE_0``, ``PASS``, ``CHOOSE_0`` | the action ids |
| ``PHASES``, ``PH_*`` | the decision phases (index = ``AuditionState.phase``) |
| :class:`IllegalActionError` | raised by ``AuditionState.apply`` for an illegal action |
| :func:`action_name` | a readable name of an action id |
| :func:`deck_composition`, :func:`full_deck` | the game's cards for a player count |
| :func:`score_counts`, :func:`count_points` | the points of a collection / of one number |
| :func:`win_rewards` | the zero-sum win reward |
| :class:`AuditionConfig` | the table: player count, action cards, uncertain counts |

The meaning of the actions and phases, and the rulings: :mod:`parlour.envs.audition.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np

__all__ = [
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "MAX_NUMBER",
    "TOP_NUMBER",
    "SLOT_CAPACITY",
    "MAX_TWO_CAPACITY",
    "NUM_REMOVED_UNCERTAIN",
    "MINI_TOP_NUMBER",
    "MINI_SLOT_CAPACITY",
    "SOLOIST_POINTS",
    "QUARTET_SIZE",
    "QUARTET_POINTS",
    "CONDUCTOR",
    "ACTION_KINDS",
    "SLOT_KINDS",
    "K_CONDUCTOR",
    "K_MAX_TWO",
    "K_PASS_LEFT",
    "K_DISCARD_ONE",
    "K_DISCARD_OWN",
    "K_DRAW_ONE",
    "K_TAKE_NOW",
    "NUM_ACTIONS",
    "TAKE_0",
    "DRAW",
    "PLACE_0",
    "PASS",
    "CHOOSE_0",
    "PHASES",
    "PH_TURN",
    "PH_PLACE",
    "PH_TAKE_NOW",
    "PH_PASS_LEFT",
    "PH_DISCARD_ONE",
    "PH_DISCARD_OWN",
    "PH_FINAL",
    "PH_OVER",
    "IllegalActionError",
    "action_name",
    "deck_composition",
    "full_deck",
    "score_counts",
    "count_points",
    "win_rewards",
    "AuditionConfig",
]

# ----------------------------------------------------------------------------- constants

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6
MAX_NUMBER: Final = 13
SLOT_CAPACITY: Final = 4
MAX_TWO_CAPACITY: Final = 2
NUM_REMOVED_UNCERTAIN: Final = 5

#: The mini table (``AuditionConfig(mini=True)``): the plain 2-player game with numbers
#: ``1..MINI_TOP_NUMBER`` only (number ``k`` still has ``k`` copies) and slots that hold
#: ``MINI_SLOT_CAPACITY`` musicians; every rule is the same. Small enough for exact solvers
#: (OpenSpiel's CFR and ``nash_conv``: docs/openspiel.md).
MINI_TOP_NUMBER: Final = 2
MINI_SLOT_CAPACITY: Final = 2

#: Scoring: exactly 1 card of a number is a soloist, exactly 4 a quartet; any other count scores 0.
SOLOIST_POINTS: Final = 1
QUARTET_SIZE: Final = 4
QUARTET_POINTS: Final = 5

#: Highest musician number in play for each player count (number ``k`` has ``k`` copies).
TOP_NUMBER: Final = {2: 9, 3: 10, 4: 11, 5: 12, 6: 13}

#: Slot kinds; index 0 is the plain conductor, 1–6 the action cards of variant 1.
CONDUCTOR: Final = "conductor"
ACTION_KINDS: Final = (
    "max_two",
    "pass_left",
    "discard_one",
    "discard_own",
    "draw_one",
    "take_now",
)
SLOT_KINDS: Final = (CONDUCTOR, *ACTION_KINDS)
K_CONDUCTOR, K_MAX_TWO, K_PASS_LEFT, K_DISCARD_ONE, K_DISCARD_OWN, K_DRAW_ONE, K_TAKE_NOW = range(7)

# Action ids.
NUM_ACTIONS: Final = 27
TAKE_0: Final = 0
DRAW: Final = 6
PLACE_0: Final = 7
PASS: Final = 13
CHOOSE_0: Final = 13  # CHOOSE v has id CHOOSE_0 + v, v in 1..13

# Phases.
PHASES: Final = (
    "turn",
    "place",
    "take_now",
    "pass_left",
    "discard_one",
    "discard_own",
    "final",
    "over",
)
(
    PH_TURN,
    PH_PLACE,
    PH_TAKE_NOW,
    PH_PASS_LEFT,
    PH_DISCARD_ONE,
    PH_DISCARD_OWN,
    PH_FINAL,
    PH_OVER,
) = range(len(PHASES))


class IllegalActionError(ValueError):
    """An action that is not legal in the current state (the state is left unchanged)."""


def action_name(action: int) -> str:
    """A short readable name of an action id (``"TAKE 2"``, ``"DRAW"``, ``"CHOOSE 7"``...)."""
    if not 0 <= action < NUM_ACTIONS:
        return f"INVALID({action})"
    if action < DRAW:
        return f"TAKE {action}"
    if action == DRAW:
        return "DRAW"
    if action < PASS:
        return f"PLACE {action - PLACE_0}"
    if action == PASS:
        return "PASS"
    return f"CHOOSE {action - CHOOSE_0}"


def deck_composition(num_players: int, top: int | None = None) -> np.ndarray:
    """Copies of each number (index 0 unused) in the game for ``num_players`` (numbers
    ``1..top``; by default the player count's :data:`TOP_NUMBER`)."""
    counts = np.zeros(MAX_NUMBER + 1, dtype=np.int16)
    top = TOP_NUMBER[num_players] if top is None else top
    counts[1 : top + 1] = np.arange(1, top + 1)
    return counts


def full_deck(num_players: int, top: int | None = None) -> list[int]:
    """The game's cards in ascending order (e.g. 45 cards ``1, 2, 2, 3, 3, 3, ...`` for 2p;
    numbers ``1..top``, by default the player count's :data:`TOP_NUMBER`)."""
    top = TOP_NUMBER[num_players] if top is None else top
    return [k for k in range(1, top + 1) for _ in range(k)]


def score_counts(counts: np.ndarray | list[int]) -> tuple[int, int]:
    """``(points, scoring quartets)`` of a collection given as counts per number.

    Exactly 1 card of a number = 1 point (soloist); exactly 4 = 5 points (quartet); any other
    count scores 0 (counts are never split: 5 is not 1 + 4, 8 is not 4 + 4).
    """
    points = quartets = 0
    for c in counts:
        if c == 1:
            points += SOLOIST_POINTS
        elif c == QUARTET_SIZE:
            points += QUARTET_POINTS
            quartets += 1
    return points, quartets


def count_points(count: int) -> int:
    """The points of exactly ``count`` cards of one number (soloist, quartet or nothing)."""
    return score_counts([count])[0]


def win_rewards(num_players: int, winners: list[int]) -> list[float]:
    """The zero-sum win reward of ``docs/envs/audition.md#rewards``: ``(n/(n-1))·[i∈W]/|W| − 1/(n-1)``."""
    n = num_players
    share = n / (n - 1) / len(winners)
    return [(share if i in winners else 0.0) - 1.0 / (n - 1) for i in range(n)]


# ----------------------------------------------------------------------------- configuration


@dataclass(frozen=True)
class AuditionConfig:
    """The table's setup. Invalid values raise ``ValueError`` naming the argument.

    ``action_cards`` is ``()`` (no variant 1), a sequence of distinct kinds from
    :data:`ACTION_KINDS` (at most one per player; they take slots 0, 1, ... in that order), or
    an int ``0..num_players`` (that many distinct kinds on random slots, drawn at every deal).
    ``mini`` is the mini table (:data:`MINI_TOP_NUMBER`, :data:`MINI_SLOT_CAPACITY`): two
    players, neither variant.
    """

    num_players: int = 2
    action_cards: tuple[str, ...] | int = ()
    uncertain_counts: bool = False
    mini: bool = False

    def __post_init__(self) -> None:
        n = self.num_players
        if isinstance(n, bool) or not isinstance(n, int | np.integer) or not 2 <= n <= 6:
            raise ValueError(f"num_players must be an int in 2..6, got {n!r}")
        object.__setattr__(self, "num_players", int(n))
        ac = self.action_cards
        if isinstance(ac, bool):
            raise ValueError(f"action_cards must be a list of kinds or an int, got {ac!r}")
        if isinstance(ac, int | np.integer):
            if not 0 <= ac <= n:
                raise ValueError(
                    f"action_cards as a count must be in 0..num_players={n}, got {ac!r}"
                )
            object.__setattr__(self, "action_cards", int(ac))
        else:
            if isinstance(ac, str) or not hasattr(ac, "__iter__"):
                raise ValueError(
                    f"action_cards must be a list of kinds from {list(ACTION_KINDS)} or an int "
                    f"0..{n}, got {ac!r}"
                )
            kinds = tuple(ac)
            for k in kinds:
                if k not in ACTION_KINDS:
                    raise ValueError(
                        f"action_cards: unknown kind {k!r}; allowed kinds are {list(ACTION_KINDS)}"
                    )
            if len(set(kinds)) != len(kinds):
                raise ValueError(f"action_cards must be distinct kinds, got {list(kinds)}")
            if len(kinds) > n:
                raise ValueError(
                    f"action_cards: at most one per player ({n}), got {len(kinds)} kinds"
                )
            object.__setattr__(self, "action_cards", kinds)
        if not isinstance(self.uncertain_counts, bool | np.bool_):
            raise ValueError(
                f"uncertain_counts must be True or False, got {self.uncertain_counts!r}"
            )
        object.__setattr__(self, "uncertain_counts", bool(self.uncertain_counts))
        if not isinstance(self.mini, bool | np.bool_):
            raise ValueError(f"mini must be True or False, got {self.mini!r}")
        object.__setattr__(self, "mini", bool(self.mini))
        if self.mini and (n != MIN_PLAYERS or self.action_cards or self.uncertain_counts):
            raise ValueError(
                f"mini is the plain {MIN_PLAYERS}-player table: num_players must be {MIN_PLAYERS}, "
                f"action_cards () and uncertain_counts False, got num_players={n}, "
                f"action_cards={self.action_cards!r}, uncertain_counts={self.uncertain_counts}"
            )

    @property
    def has_action_cards(self) -> bool:
        return bool(self.action_cards)

    @property
    def top_number(self) -> int:
        """The highest musician number in this game."""
        return MINI_TOP_NUMBER if self.mini else TOP_NUMBER[self.num_players]

    @property
    def num_cards(self) -> int:
        top = self.top_number
        return top * (top + 1) // 2

    def composition(self) -> np.ndarray:
        """Copies of each number (index 0 unused) in this game."""
        return deck_composition(self.num_players, self.top_number)

    def full_deck(self) -> list[int]:
        """This game's cards in ascending order."""
        return full_deck(self.num_players, self.top_number)

    def capacity(self, kind: int) -> int:
        """The musicians a slot of ``kind`` (an index of :data:`SLOT_KINDS`) holds."""
        if self.mini:
            return MINI_SLOT_CAPACITY
        return MAX_TWO_CAPACITY if SLOT_KINDS[kind] == "max_two" else SLOT_CAPACITY
