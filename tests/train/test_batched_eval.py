"""Tournaments on the batched engine give the per-game path's results on the same deals."""

from __future__ import annotations

from pathlib import Path

import pytest

from parlour.eval.tournament import NO_BATCH_ENV, run_tournament
from parlour.games import get_game

from .tournament_helpers import tournament

MODEL = Path(__file__).parents[1] / "data" / "small_audition_model.safetensors"


@pytest.mark.parametrize(
    "players,specs,options",
    [
        (2, ["random", "audition.greedy"], {}),
        (3, [f"ppo:{MODEL}", "random"], {"action_cards": 2}),
        (2, [f"ppo:{MODEL}:sample", "audition.greedy", "random"], {"uncertain_counts": True}),
    ],
)
def test_batched_tournament_equals_per_game(monkeypatch, players, specs, options):
    games = 48 if specs[0] == "random" else 18  # (the per-game ppo path is the slow one)

    batched = tournament(players, specs, games, 11, options)
    monkeypatch.setenv(NO_BATCH_ENV, "1")
    assert tournament(players, specs, games, 11, options) == batched
    assert batched["games"] >= games


def test_unbatchable_agents_fall_back_to_the_per_game_path():
    r = run_tournament(
        get_game("audition"), 2, ["audition.expert:sims=2", "random"], 2, workers=1, progress=False
    )
    assert r["games"] == 2


@pytest.mark.parametrize("options", [{"seer": True}, {"render_mode": "ansi"}])
def test_env_options_the_engine_lacks_fall_back_to_the_per_game_path(monkeypatch, options):
    specs = ["random", "audition.greedy"]
    fallback = tournament(2, specs, 4, 2, options)  # (raised TypeError from the engine before)
    monkeypatch.setenv(NO_BATCH_ENV, "1")
    assert tournament(2, specs, 4, 2, options) == fallback
    assert fallback["game_options"] == options
