"""The game registry: how the wrapper, training and evaluation build each game.

Nothing in ``train/`` names a game's classes directly; it asks this registry. Adding a game is
one :class:`GameSpec` entry in :data:`GAMES`.

| name | env | players | option of the player count | baselines | PPO features |
|---|---|---|---|---|---|
| ``audition`` | ``envs.audition.env.raw_env`` | 2–6 | ``num_players`` | ``random``, ``audition.greedy``, ``audition.expert`` | :class:`train.features.AuditionFeatures` |

``make_raw_env(game, players, **options)`` returns the unwrapped AEC env (illegal actions raise
instead of ending the game, so a bug can never hide as a lost game).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GameSpec:
    """How to build one game and which agents measure it."""

    name: str
    env_factory: str  # "module:callable" returning the raw AEC env
    min_players: int
    max_players: int
    players_option: str  # constructor argument of the player count
    baselines: tuple[str, ...]  # agent specs to evaluate against, weakest first
    eval_baselines: tuple[str, ...]  # the cheap ones used for periodic evaluation in training
    training_options: tuple[str, ...] = ()  # options that shape training only (not eval)
    features_extractor: str | None = None  # "module:Class", an SB3 features extractor

    def extractor(self) -> type | None:
        if self.features_extractor is None:
            return None
        module, _, attr = self.features_extractor.partition(":")
        return getattr(importlib.import_module(module), attr)

    def factory(self) -> Callable[..., Any]:
        module, _, attr = self.env_factory.partition(":")
        return getattr(importlib.import_module(module), attr)


GAMES: dict[str, GameSpec] = {
    "audition": GameSpec(
        name="audition",
        env_factory="envs.audition.env:raw_env",
        min_players=2,
        max_players=6,
        players_option="num_players",
        baselines=("random", "audition.greedy", "audition.expert"),
        eval_baselines=("random", "audition.greedy"),
        training_options=("reward_mode",),
        features_extractor="train.features:AuditionFeatures",
    ),
}


def get_game(name: str) -> GameSpec:
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(GAMES)}")
    return GAMES[name]


def make_raw_env(game: str, players: int, **options: Any) -> Any:
    """The raw AEC env of ``game`` for ``players`` seats with the game's ``options``."""
    spec = get_game(game)
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"players must be an int, got {players!r}")
    if not spec.min_players <= players <= spec.max_players:
        raise ValueError(
            f"players for {game} must be in {spec.min_players}..{spec.max_players}, got {players}"
        )
    if spec.players_option in options:
        raise ValueError(f"give the player count as players, not {spec.players_option}")
    return spec.factory()(**{spec.players_option: players}, **options)
