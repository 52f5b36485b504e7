"""``parlour eval`` and training reports for Awkward Guests: the per-seat statistics of
:mod:`parlour.eval.tournament` (solved, rounds to a correct solution, wrong accusations), the
evaluation table, and the solo report (solve rates of the learner and the baselines)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from parlour import games as registry
from parlour.apps.cli import main
from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.eval import tournament
from parlour.eval.report import (
    HEADERS,
    REPORT_HEADERS,
    markdown,
    plot_learning_curve,
    print_report,
    report_markdown,
)
from parlour.eval.tournament import run_tournament, summarize
from parlour.games import get_game
from parlour.games.guests.plugin import GUESTS_HEADERS, SOLO_HEADERS
from parlour.games.stepping import GameRecord
from parlour.train.evaluation import learner_summary as _learner_summary

AUDITION_AGENT_KEYS = {
    "spec",
    "games",
    "wins",
    "win_rate",
    "ci95",
    "mean_score",
    "mean_reward",
    "win_rate_by_seat",
}
GUESTS_AGENT_KEYS = {"accusations", "wrong_accusations", "solved", "mean_rounds"}


class OracleAgent:
    """Test-only cheat: accuses the true solution at its first Solution-phase decision and
    otherwise plays its first legal move. Reads the hidden case from the in-process tournament
    worker (``workers=1``), so its numbers are known: it solves every game in round 1."""

    spec = "test.oracle"

    def __init__(self) -> None:
        self.queue: list[int] = []

    def reset(self, seed: int | None = None) -> None:
        self.queue = []

    def act(self, observation: dict[str, Any], view: Any) -> int:
        if self.queue:
            return self.queue.pop(0)
        if view.decision == "solution":
            truth = tournament._WORKER["stepper"].env.game.case.solution
            self.queue = G.accusation_actions(truth, view.accomplice_possible)
            return A.YES
        return int(view.legal_actions[0])


def _oracle(spec: str, seed: int | None) -> OracleAgent:
    return OracleAgent()


@pytest.fixture
def oracle(monkeypatch):
    """``test.oracle`` as one of Awkward Guests' agents (the registered game, replaced)."""
    guests = get_game("guests")
    agents = {**guests.agents, "test.oracle": _oracle}
    monkeypatch.setitem(registry.GAMES, "guests", dataclasses.replace(guests, agents=agents))
    return "test.oracle"


def _rec(
    deal: int,
    kinds: tuple[int, ...],
    winners: list[int],
    rounds: int,
    stats: list[tuple[int, int, int]],
) -> GameRecord:
    """A 2-seat Awkward Guests record; ``stats[s]`` = (accusations, wrong, solved) of seat s."""
    return GameRecord(
        deal=deal,
        kinds=kinds,
        rewards=[1.0 if s in winners else -1.0 for s in range(2)],
        scores=[1 if s in winners else 0 for s in range(2)],
        winners=winners,
        length=10 * rounds,
        extras={"rounds": float(rounds)},
        seat_stats=[
            {"accusations": float(a), "wrong_accusations": float(w), "solved": float(v)}
            for a, w, v in stats
        ],
    )


# -- aggregation -----------------------------------------------------------------------------------


def test_summarize_aggregates_known_guests_numbers():
    records = [
        # kind 0 solves in round 3 while kind 1 accuses wrongly in the same phase
        _rec(0, (0, 1), [0], 3, [(1, 0, 1), (1, 1, 0)]),
        # kind 1 solves in round 5; kind 0 never accuses
        _rec(0, (1, 0), [0], 5, [(1, 0, 1), (0, 0, 0)]),
        # kind 1 solves in round 7
        _rec(1, (0, 1), [1], 7, [(0, 0, 0), (1, 0, 1)]),
        # kind 1 accuses wrongly in round 2 and is out: kind 0 is the last player left
        _rec(1, (1, 0), [1], 2, [(1, 1, 0), (0, 0, 0)]),
    ]
    r = summarize(records, ["a", "b"], get_game("guests"), 2)
    a, b = r["agents"]
    assert a["games"] == b["games"] == 4
    assert a["win_rate"] == 0.5 and b["win_rate"] == 0.5
    assert a["accusations"] == 1 and b["accusations"] == 4
    assert a["wrong_accusations"] == 0.0 and b["wrong_accusations"] == pytest.approx(2 / 4)
    assert a["solved"] == pytest.approx(1 / 4) and b["solved"] == pytest.approx(2 / 4)
    assert a["mean_rounds"] == pytest.approx(3.0) and b["mean_rounds"] == pytest.approx(6.0)
    assert r["mean_rounds"] == pytest.approx((3 + 5 + 7 + 2) / 4)
    assert r["wrong_accusations"] == pytest.approx(2 / 5)
    assert set(a) == AUDITION_AGENT_KEYS | GUESTS_AGENT_KEYS | {"estimates"}
    json.dumps(r)  # plain JSON types


def test_an_agent_that_never_accuses_has_null_shares():
    records = [_rec(d, (0, 1), [], 30, [(0, 0, 0), (0, 0, 0)]) for d in range(3)]
    r = summarize(records, ["a", "b"], get_game("guests"), 2)
    for agent in r["agents"]:
        assert agent["accusations"] == 0 and agent["solved"] == 0.0
        assert agent["wrong_accusations"] is None and agent["mean_rounds"] is None
    assert r["wrong_accusations"] is None and r["mean_rounds"] == 30.0
    md = markdown(r, spec=get_game(r["game"]))
    assert "| a | 3 | 0 | 0.0% |" in md and "— | —" in md


def test_games_without_statistics_get_no_new_keys():
    rec = GameRecord(0, (0, 1), [1.0, -1.0], [12, 8], [0], 100)
    r = summarize([rec], ["a", "b"], get_game("audition"), 2)
    assert set(r["agents"][0]) == AUDITION_AGENT_KEYS
    assert not {"mean_rounds", "wrong_accusations"} & set(r)
    header = markdown(r, spec=get_game(r["game"])).splitlines()[2]
    assert header == "| " + " | ".join(HEADERS) + " |"


# -- real tournaments --------------------------------------------------------------------------------


def test_two_player_tournament_reports_guests_statistics(oracle):
    r = run_tournament(get_game("guests"), 2, [oracle, "random"], 4, workers=1, progress=False)
    assert r["games"] == 4 and {"mean_rounds", "wrong_accusations"} <= set(r)
    for agent in r["agents"]:
        assert set(agent) >= GUESTS_AGENT_KEYS
        assert 0.0 <= agent["solved"] <= 1.0
        assert agent["wrong_accusations"] is None or 0.0 <= agent["wrong_accusations"] <= 1.0
    cheat, rnd = r["agents"]
    # the oracle accuses correctly in round 1 of every game (so every game lasts one round)
    assert cheat["solved"] == 1.0 and cheat["mean_rounds"] == 1.0
    assert cheat["accusations"] == 4 and cheat["wrong_accusations"] == 0.0
    assert r["mean_rounds"] == 1.0
    assert rnd["solved"] <= 1.0 - cheat["win_rate"] + 1e-9
    table = markdown(r, spec=get_game(r["game"])).splitlines()[2]
    assert table == "| " + " | ".join(HEADERS + GUESTS_HEADERS) + " |"


def test_guests_results_do_not_depend_on_the_worker_count():
    kw = dict(game=get_game("guests"), players=2, specs=["random"], games=4, seed=5, progress=False)
    a = run_tournament(**kw, workers=1)
    b = run_tournament(**kw, workers=2)
    for key in ("agents", "mean_length", "mean_rounds", "wrong_accusations", "games"):
        assert a[key] == b[key]


def test_solo_tournament_is_a_solve_rate_on_the_same_deals(oracle):
    r = run_tournament(get_game("guests"), 1, [oracle, "random"], 6, workers=1, progress=False)
    cheat, rnd = r["agents"]
    assert r["deals"] == 3 and cheat["games"] == rnd["games"] == 3
    assert cheat["solved"] == cheat["win_rate"] == 1.0
    assert cheat["mean_rounds"] == 1.0 and cheat["mean_reward"] == pytest.approx(0.99)
    assert rnd["solved"] == rnd["win_rate"]  # solo, a win is a correct accusation
    assert "solo" in markdown(r, spec=get_game(r["game"])) and "even win rate" not in markdown(
        r, spec=get_game(r["game"])
    )


def test_parlour_eval_for_guests_writes_the_statistics(tmp_path, capsys):
    out = tmp_path / "ev"
    args = ["eval", "--game", "guests", "--players", "1", "--agents", "random", "--games", "2"]
    assert main([*args, "--workers", "1", "--out", str(out), "--no-progress"]) == 0
    data = json.loads((out / "eval.json").read_text())
    assert set(data["agents"][0]) >= GUESTS_AGENT_KEYS and "mean_rounds" in data
    assert "rounds to solve" in (out / "eval.md").read_text()
    assert "wrong acc." in capsys.readouterr().out


# -- training reports -------------------------------------------------------------------------------


def _report(results: dict[str, dict[str, Any]], players: int) -> dict[str, Any]:
    summary = _learner_summary(results, get_game(next(iter(results.values()))["game"]))
    return {
        "name": "t",
        "game": "guests",
        "players": players,
        "game_options": {},
        "timesteps": 100,
        "train_wall_time_s": 1.0,
        "train_steps_per_s": 100.0,
        "final_eval_wall_time_s": 1.0,
        "final": summary,
        "final_tournaments": results,
        "history": [{"timesteps": 100, "wall_time_s": 1.0, "results": summary, "final": True}],
    }


def test_solo_report_lists_the_learner_and_the_baseline_solve_rates(oracle, tmp_path, capsys):
    # the oracle stands in for the learner (kind 0), random is the baseline
    results = {
        "random": run_tournament(
            get_game("guests"), 1, [oracle, "random"], 4, workers=1, progress=False
        )
    }
    report = _report(results, 1)
    final = report["final"]["random"]
    assert final["solved"] == 1.0 and final["mean_rounds"] == 1.0
    assert final["baseline"]["games"] == 2 and "solved" in final["baseline"]
    md = report_markdown(report, get_game(report["game"]))
    assert "| " + " | ".join(SOLO_HEADERS) + " |" in md
    assert "| learner | 2 | 100.0% |" in md and "| random | 2 |" in md
    assert "CI vs even share" not in md and "solo" in md
    plot_learning_curve(report, tmp_path / "curve.png")
    assert (tmp_path / "curve.png").stat().st_size > 1000
    print_report(report, get_game(report["game"]))
    assert "solve rate" in capsys.readouterr().out


def test_multiplayer_guests_report_adds_the_columns(oracle):
    results = {
        "random": run_tournament(
            get_game("guests"), 2, [oracle, "random"], 2, workers=1, progress=False
        )
    }
    report = _report(results, 2)
    assert (
        report["final"]["random"]["solved"] == 1.0 and "baseline" not in report["final"]["random"]
    )
    md = report_markdown(report, get_game(report["game"]))
    assert "| " + " | ".join(REPORT_HEADERS + GUESTS_HEADERS) + " |" in md
