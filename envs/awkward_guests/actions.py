"""Awkward Guests — the action layout (``Discrete(95)``, one layout for every player count).

| ids | name | meaning |
|---|---|---|
| 0–15 | ``REF r`` | inquiry: ask for reference ``r`` — the 6 suspects, then the 10 rooms (board order) |
| 16–47 | ``CARD i`` | slot ``i`` of your hand, sorted by card id (at most 32): offer / pay / discard |
| 48 | ``YES`` | accept the bid being answered / accuse in the Solution phase |
| 49 | ``NO`` | done offering (nothing selected: no bid) / decline the bid / go on without accusing |
| 50–55 | ``SUSPECT s`` | the murderer, or the accomplice |
| 56–73 | ``MOTIVE m`` | the motive (18, board order) of the suspect just named |
| 74–93 | ``WEAPON w`` | the weapon (20, board order) |
| 94 | ``NO_ACCOMPLICE`` | the accusation names no accomplice (medium and harder levels) |

References, suspects, motives and weapons follow the order of the Walton board
(:data:`parlour.envs.awkward_guests.case.board.WALTON`): ``REFERENCES``, ``SUSPECTS``, ``MOTIVES``,
``WEAPONS`` below.
"""

from __future__ import annotations

from typing import Final

from .case.board import WALTON

#: The 16 references (suspects then rooms), the 6 suspects, 18 motives and 20 weapons, in order.
REFERENCES: Final[tuple[str, ...]] = WALTON.references
SUSPECTS: Final[tuple[str, ...]] = WALTON.suspects
MOTIVES: Final[tuple[str, ...]] = tuple(m.id for m in WALTON.motives)
WEAPONS: Final[tuple[str, ...]] = tuple(w.id for w in WALTON.weapons)

NUM_REFS: Final = len(REFERENCES)  # 16
MAX_HAND: Final = 32  # CARD slots

REF_0: Final = 0
CARD_0: Final = REF_0 + NUM_REFS  # 16
YES: Final = CARD_0 + MAX_HAND  # 48
NO: Final = YES + 1  # 49
SUSPECT_0: Final = NO + 1  # 50
MOTIVE_0: Final = SUSPECT_0 + len(SUSPECTS)  # 56
WEAPON_0: Final = MOTIVE_0 + len(MOTIVES)  # 74
NO_ACCOMPLICE: Final = WEAPON_0 + len(WEAPONS)  # 94
NUM_ACTIONS: Final = NO_ACCOMPLICE + 1  # 95

assert (CARD_0, YES, NO, SUSPECT_0, MOTIVE_0, WEAPON_0, NO_ACCOMPLICE, NUM_ACTIONS) == (
    16,
    48,
    49,
    50,
    56,
    74,
    94,
    95,
)


def ref_action(ref: str) -> int:
    """The ``REF`` action of a reference id (``"greg"``, ``"kitchen"``)."""
    return REF_0 + REFERENCES.index(ref)


def suspect_action(suspect: str) -> int:
    return SUSPECT_0 + SUSPECTS.index(suspect)


def motive_action(motive: str) -> int:
    return MOTIVE_0 + MOTIVES.index(motive)


def weapon_action(weapon: str) -> int:
    return WEAPON_0 + WEAPONS.index(weapon)


def action_name(action: int) -> str:
    """A short readable name (``"REF kitchen"``, ``"CARD 3"``, ``"MOTIVE stolen_recipe"``)."""
    try:
        a = int(action)
    except (TypeError, ValueError):
        return f"INVALID({action!r})"
    if not 0 <= a < NUM_ACTIONS:
        return f"INVALID({a})"
    if a < CARD_0:
        return f"REF {REFERENCES[a - REF_0]}"
    if a < YES:
        return f"CARD {a - CARD_0}"
    if a == YES:
        return "YES"
    if a == NO:
        return "NO"
    if a < MOTIVE_0:
        return f"SUSPECT {SUSPECTS[a - SUSPECT_0]}"
    if a < WEAPON_0:
        return f"MOTIVE {MOTIVES[a - MOTIVE_0]}"
    if a < NO_ACCOMPLICE:
        return f"WEAPON {WEAPONS[a - WEAPON_0]}"
    return "NO_ACCOMPLICE"


ACTION_NAMES: Final[tuple[str, ...]] = tuple(action_name(a) for a in range(NUM_ACTIONS))
