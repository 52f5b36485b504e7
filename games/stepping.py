"""What a game's tournament stepper hands back: :class:`GameRecord`, the outcome of one game.

It sits in the game plug-in layer so that a game's own batched tournament
(:attr:`parlour.games.parts.Evaluation.batched_tournament`) and its statistics
(:class:`parlour.games.parts.Statistics`) can build and read records without importing the
tournament driver above them (:mod:`parlour.eval.tournament`).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class GameRecord:
    """The outcome of one game."""

    deal: int
    kinds: tuple[int, ...]  # seat -> kind index
    rewards: list[float]
    scores: list[float | None]
    winners: list[int]
    length: int
    #: per game, the final ``results()``' numbers of the game's ``stats.game_keys`` (e.g. "rounds")
    extras: dict[str, float] = field(default_factory=dict)
    #: per seat, the final ``results()``' numbers of the game's ``stats.seat_keys`` (empty list when
    #: the game reports none), e.g. Awkward Guests' accusations, wrong accusations, solved
    seat_stats: list[dict[str, float]] = field(default_factory=list)
