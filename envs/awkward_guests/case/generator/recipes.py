"""The generator's level recipes: how each level builds its deck, and the deck-size limits.

Levels (``RECIPES``)
--------------------

==========  ==========  ==============  ======  =======  ===========  =====  ====================
level       accomplice  core preference copies  facts /  informative  guard  banned types
                                                core     filler
                                                card
==========  ==========  ==============  ======  =======  ===========  =====  ====================
beginner    never       direct          5×2     2–3      0.80         no     —
very_easy   never       direct          3–4×2   1–3      0.70         no     —
easy        never       mixed           2–3     1–3      0.60         no     —
medium      half        mixed           3       1–3      0.55         no     —
hard        half        combined        2       1        0.40         no     seen_at_murder
very_hard   half        combined        1–2     1        0.35         no     seen_at_murder
expert      half        combined        1       1        0.50         yes    weapon_unused,
                                                                             seen_at_murder
==========  ==========  ==============  ======  =======  ===========  =====  ====================

(×2: the same speaker may also tell a core fact on a second card.) Harder levels also have more
never-refuted innocent motives and more innocent pair sightings (red herrings). The measured
result — share of the deck read in random order until the solution is unique, card mix, values,
timing — is the level table of :mod:`parlour.envs.awkward_guests.case.stats` (``parlour case stats``).

The type preferences (``weights``) come in three sets: *direct* (facts that give a piece of the
answer on their own first), *mixed* and *combined* (facts that only act in combination first).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = [
    "DEFAULT_DECK_SIZE",
    "MIN_DECK_SIZE",
    "MAX_DECK_SIZE",
    "DIRECT",
    "COMBINED_TYPES",
    "Recipe",
    "RECIPES",
]

DEFAULT_DECK_SIZE = 70
MIN_DECK_SIZE = 24
MAX_DECK_SIZE = 200
MAX_ATTEMPTS = 40

#: Fact types that give a piece of the answer directly (no combination needed).
DIRECT = ("weapon_unused", "seen_at_murder")
#: Fact types that only act in combination (claims against claims, head counts, passages, ...).
COMBINED_TYPES = ("claim", "guest_count", "passage_unused", "seen_before", "apart", "alone")


@dataclass(frozen=True)
class Recipe:
    """How one level builds its deck (see the module table)."""

    weights: Mapping[str, float]  # preference of each fact type in the core (0: never)
    seeded: tuple[int, int]  # combined-reasoning facts put into the core draft up front
    copies: tuple[int, int]  # each core fact is told lo..hi times (other speakers/boxes)
    core_bundle: tuple[float, float, float]  # P(1, 2, 3 core facts on a card)
    filler_bundle: tuple[float, float, float]  # P(1, 2, 3 facts on a filler card)
    informative: float  # share of filler facts that carry information (else inert)
    guard: bool  # informative filler may not make any core fact unnecessary
    trials: int  # at guarded levels: location/route filler facts tried against the guard
    herring_motive: float  # P(an innocent's motive is never refuted: a red herring)
    innocent_pairs: tuple[int, int]  # innocent pairs seen together (misleading `together`)
    refuting_boxes: tuple[float, float, float]  # P(1, 2, 3 refuting boxes) of a refuted motive
    accomplice_share: float = 0.0
    banned: tuple[str, ...] = ()
    repeat: int = 1  # a speaker may tell the same fact on this many (different) cards


_DIRECT_W = {
    "seen_at_murder": 4.0,
    "sign_absent": 3.0,
    "testimony": 2.0,
    "evidence": 2.0,
    "weapon_unused": 1.0,
    "claim": 0.4,
    "seen_before": 0.3,
    "guest_count": 0.2,
    "passage_unused": 0.2,
    "apart": 0.5,
    "alone": 0.5,
}
_MIXED_W = {
    "seen_at_murder": 1.5,
    "sign_absent": 2.0,
    "testimony": 1.5,
    "evidence": 1.2,
    "weapon_unused": 1.0,
    "claim": 1.2,
    "seen_before": 1.0,
    "guest_count": 1.0,
    "passage_unused": 1.0,
    "apart": 1.0,
    "alone": 1.0,
}
_INDIRECT_W = {
    "seen_at_murder": 0.0,
    "weapon_unused": 0.3,
    "evidence": 0.6,
    "testimony": 1.0,
    "sign_absent": 1.5,
    "seen_before": 1.5,
    "alone": 1.5,
    "apart": 2.0,
    "claim": 2.5,
    "guest_count": 2.5,
    "passage_unused": 2.5,
}

RECIPES: dict[str, Recipe] = {
    "beginner": Recipe(
        weights=_DIRECT_W,
        seeded=(0, 0),
        copies=(5, 5),
        core_bundle=(0.0, 0.5, 0.5),
        filler_bundle=(0.2, 0.4, 0.4),
        informative=0.8,
        guard=False,
        trials=0,
        herring_motive=0.1,
        innocent_pairs=(0, 1),
        refuting_boxes=(0.0, 0.2, 0.8),
        repeat=2,
    ),
    "very_easy": Recipe(
        weights=_DIRECT_W,
        seeded=(0, 1),
        copies=(3, 4),
        core_bundle=(0.2, 0.5, 0.3),
        filler_bundle=(0.3, 0.4, 0.3),
        informative=0.7,
        guard=False,
        trials=0,
        herring_motive=0.15,
        innocent_pairs=(1, 1),
        refuting_boxes=(0.3, 0.4, 0.3),
        repeat=2,
    ),
    "easy": Recipe(
        weights=_MIXED_W,
        seeded=(1, 2),
        copies=(2, 3),
        core_bundle=(0.4, 0.4, 0.2),
        filler_bundle=(0.4, 0.4, 0.2),
        informative=0.6,
        guard=False,
        trials=0,
        herring_motive=0.2,
        innocent_pairs=(1, 2),
        refuting_boxes=(0.4, 0.4, 0.2),
    ),
    "medium": Recipe(
        weights=_MIXED_W,
        seeded=(2, 3),
        copies=(3, 3),
        core_bundle=(0.3, 0.4, 0.3),
        filler_bundle=(0.5, 0.35, 0.15),
        informative=0.55,
        guard=False,
        trials=0,
        herring_motive=0.25,
        innocent_pairs=(1, 2),
        refuting_boxes=(0.5, 0.35, 0.15),
        accomplice_share=0.5,
    ),
    "hard": Recipe(
        weights=_INDIRECT_W,
        seeded=(3, 5),
        copies=(2, 2),
        core_bundle=(1.0, 0.0, 0.0),
        filler_bundle=(0.7, 0.25, 0.05),
        informative=0.4,
        guard=False,
        trials=0,
        herring_motive=0.4,
        innocent_pairs=(2, 3),
        refuting_boxes=(0.6, 0.3, 0.1),
        accomplice_share=0.5,
        banned=("seen_at_murder",),
    ),
    "very_hard": Recipe(
        weights=_INDIRECT_W,
        seeded=(4, 6),
        copies=(1, 2),
        core_bundle=(1.0, 0.0, 0.0),
        filler_bundle=(0.8, 0.2, 0.0),
        informative=0.35,
        guard=False,
        trials=0,
        herring_motive=0.5,
        innocent_pairs=(2, 4),
        refuting_boxes=(0.7, 0.25, 0.05),
        accomplice_share=0.5,
        banned=("seen_at_murder",),
    ),
    "expert": Recipe(
        weights=_INDIRECT_W,
        seeded=(5, 8),
        copies=(1, 1),
        core_bundle=(1.0, 0.0, 0.0),
        filler_bundle=(0.9, 0.1, 0.0),
        informative=0.5,
        guard=True,
        trials=4,
        herring_motive=0.5,
        innocent_pairs=(3, 5),
        refuting_boxes=(0.8, 0.2, 0.0),
        accomplice_share=0.5,
        banned=DIRECT,
    ),
}
