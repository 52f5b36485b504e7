"""The three steppers of the tournament driver (per game, lockstep, Audition's batched) give the
same records on the same deals, and the driver chooses among them as documented."""

from __future__ import annotations

from pathlib import Path

import pytest

from parlour.eval import tournament as T
from parlour.eval.lockstep import LockstepStepper
from parlour.games import get_game
from parlour.games.audition.batched_tournament import BatchedStepper, play_batched
from parlour.games.audition.rollouts import decide_many
from parlour.games.stepping import Lockstep, PerGameStepper, Stepper

MODEL = Path(__file__).parents[1] / "data" / "small_audition_model.safetensors"


def _steppers(players: int, specs: list[str], seed: int, options: dict) -> dict[str, Stepper]:
    game = get_game("audition")
    batched = play_batched(players, specs, seed, options)
    assert isinstance(batched, BatchedStepper)
    return {
        "per game": T.per_game_stepper(game, players, options, specs, seed),
        "lockstep": LockstepStepper(game, players, specs, seed, options, decide_many, batch=5),
        "batched": batched,
    }


@pytest.mark.parametrize(
    "players,specs,options,deals",
    [
        (2, ["random", "audition.greedy", f"ppo:{MODEL}:sample"], {}, 3),
        (3, [f"ppo:{MODEL}", "random", "audition.greedy"], {"action_cards": 2}, 2),
    ],
)
def test_the_three_steppers_give_the_same_records(players, specs, options, deals):
    jobs = list(T.Jobs(deals, T.arrangements(len(specs), players)))
    records = {
        name: T.play_jobs(stepper, jobs)
        for name, stepper in _steppers(players, specs, 4, options).items()
    }
    assert [(r.deal, r.kinds) for r in records["per game"]] == jobs
    assert records["lockstep"] == records["per game"]
    assert records["batched"] == records["per game"]


def test_per_game_and_lockstep_steppers_agree_with_a_search_agent():
    game, specs = get_game("audition"), ["audition.expert:sims=2", "random"]
    assert play_batched(2, specs, 6, {}) == Lockstep(decide_many)
    jobs = list(T.Jobs(2, T.arrangements(2, 2)))
    per_game = T.play_jobs(T.per_game_stepper(game, 2, {}, specs, 6), jobs)
    lockstep = T.play_jobs(LockstepStepper(game, 2, specs, 6, {}, decide_many), jobs)
    assert lockstep == per_game


@pytest.mark.parametrize(
    "specs,options,kind",
    [
        (["random", "audition.greedy"], {}, BatchedStepper),
        (["audition.expert:sims=2", "random"], {}, LockstepStepper),
        (["random", "audition.greedy"], {"seer": True}, PerGameStepper),
    ],
)
def test_the_driver_chooses_the_stepper(monkeypatch, specs, options, kind):
    game = get_game("audition")
    T._init_worker(game, 2, options, specs, 0)
    assert isinstance(T.choose_stepper(game, 2, specs, 0, options), kind)
    monkeypatch.setenv(T.NO_BATCH_ENV, "1")
    assert T.choose_stepper(game, 2, specs, 0, options) is T._WORKER["stepper"]


def _records_hook(players, specs, seed, game_options, *, trust=False):
    return []  # (what the hook returned before it answered a stepper: records)


def test_a_hook_that_answers_no_stepper_is_refused():
    import dataclasses

    audition = get_game("audition")
    evaluation = dataclasses.replace(audition.evaluation, batched_tournament=_records_hook)
    game = dataclasses.replace(audition, evaluation=evaluation)
    with pytest.raises(TypeError, match="a Stepper, Lockstep or None expected"):
        T.choose_stepper(game, 2, ["random", "audition.greedy"], 0, {})
