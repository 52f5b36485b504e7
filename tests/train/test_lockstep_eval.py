"""Tournaments with search agents are played in lockstep (their rollouts batched across games)
and give the per-game path's results on the same deals."""

from __future__ import annotations

from pathlib import Path

import pytest

from parlour.eval.tournament import NO_BATCH_ENV

from .tournament_helpers import tournament

MODEL = Path(__file__).parents[1] / "data" / "small_audition_model.safetensors"


#: (players, specs, env options, games): the default run plays the first, the slow run all
CASES = [
    (2, [f"audition.search:model={MODEL},sims=4,depth=3", "audition.expert:sims=6"], {}, 2),
    (2, ["audition.expert:sims=12", "audition.greedy"], {}, 8),
    (
        3,
        [f"audition.search:model={MODEL},sims=6,depth=4", "audition.expert:sims=6", "random"],
        {"action_cards": 2},
        6,
    ),
    (
        2,
        [f"audition.search:model={MODEL},sims=4,top=2,sample=1", f"ppo:{MODEL}"],
        {"uncertain_counts": True},
        4,
    ),
]


@pytest.mark.parametrize(
    "players,specs,options,games",
    [CASES[0], *(pytest.param(*c, marks=pytest.mark.slow) for c in CASES[1:])],
)
def test_lockstep_tournament_equals_per_game(monkeypatch, players, specs, options, games):
    import parlour.eval.lockstep as L

    played = []
    real = L.LockstepStepper.play
    monkeypatch.setattr(L.LockstepStepper, "play", lambda *a: played.append(1) or real(*a))

    def play():
        return tournament(players, specs, games, 5, options)

    lockstep = play()
    assert played  # (the lockstep path did play)
    monkeypatch.setenv(NO_BATCH_ENV, "1")
    assert play() == lockstep


def test_lockstep_plays_in_chunks_with_the_same_records():
    from parlour.eval.lockstep import LockstepStepper
    from parlour.eval.tournament import play_jobs
    from parlour.games import get_game
    from parlour.games.audition.rollouts import decide_many

    game = get_game("audition")
    specs = ["audition.expert:sims=4", "audition.greedy"]
    jobs = [(d, k) for d in range(2) for k in ((0, 1), (1, 0))]
    whole = play_jobs(LockstepStepper(game, 2, specs, 9, {}, decide_many), jobs)
    chunked = LockstepStepper(game, 2, specs, 9, {}, decide_many, batch=3)
    assert play_jobs(chunked, jobs) == whole
    assert [(r.deal, r.kinds) for r in whole] == jobs
