"""Countdown, a tiny test game (:mod:`.rules`), its AEC env (:mod:`.env`) and its plug-in
(:mod:`.plugin`); importing the package registers the game as ``countdown``."""

from tests.games.countdown.plugin import GAME

__all__ = ["GAME"]
