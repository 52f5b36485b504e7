"""Helpers shared by the tournament tests."""

from __future__ import annotations

from parlour.eval.tournament import run_tournament
from parlour.games import get_game


def tournament(players: int, specs: list[str], games: int, seed: int, options: dict) -> dict:
    """An Audition tournament's result in this process, without its timing keys."""
    r = run_tournament(
        get_game("audition"),
        players,
        specs,
        games,
        seed=seed,
        game_options=options,
        workers=1,
        progress=False,
    )
    r.pop("wall_time_s"), r.pop("workers")
    return r
