"""Tournaments and ``parlour eval``: schedule, intervals, ratings, files."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from parlour.apps.cli import main
from parlour.eval.tournament import arrangements, bradley_terry, run_tournament, wilson_interval
from parlour.games import get_game


def test_wilson_interval_known_values():
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = wilson_interval(0, 20)
    assert lo == 0.0 and hi == pytest.approx(0.1611, abs=1e-4)
    lo, hi = wilson_interval(95, 100)
    assert lo < 0.95 < hi and hi < 1.0
    # the ends are exact (rounding once gave 3.5e-18 for 0 of 100, and the chart's error bars
    # went negative)
    for n in (7, 100, 1000):
        assert wilson_interval(0, n)[0] == 0.0 and wilson_interval(n, n)[1] == 1.0


def test_chart_of_a_whitewash(tmp_path):
    from parlour.eval.report import write_results

    agents = [
        {
            "spec": s,
            "games": 100,
            "wins": w,
            "win_rate": w / 100,
            "ci95": list(wilson_interval(w, 100)),
            "mean_score": None,
            "mean_reward": 0.0,
        }
        for s, w in (("a", 100), ("b", 0))
    ]
    result = {
        "game": "guests",
        "players": 2,
        "games": 100,
        "deals": 50,
        "agents": agents,
        "mean_length": 10.0,
        "even_win_rate": 0.5,
    }
    paths = write_results(result, tmp_path, "eval", get_game(result["game"]))
    assert all(p.exists() for p in paths)


@pytest.mark.parametrize(
    ("kinds", "players"), [(2, 2), (2, 4), (3, 4), (2, 3), (3, 2), (4, 3), (2, 6), (3, 6), (4, 6)]
)
def test_every_kind_plays_every_seat_equally_often(kinds, players):
    table = arrangements(kinds, players)
    assert len(set(table)) == len(table)  # a repeated arrangement would replay the same game
    seat_counts = Counter((arr[s], s) for arr in table for s in range(players))
    for k in range(kinds):
        per_seat = {seat_counts[(k, s)] for s in range(players)}
        assert len(per_seat) == 1 and per_seat != {0}
    if kinds <= players:  # the kinds fill the seats cyclically before rotating
        assert table[0] == tuple(i % kinds for i in range(players))
        assert len(table) == (kinds if players % kinds == 0 else players)
    else:
        assert all(len(set(arr)) == players for arr in table)


def test_no_game_is_played_twice_when_the_kinds_divide_the_seats():
    from parlour.eval.tournament import play_games

    played = play_games(get_game("audition"), 4, ["random", "audition.greedy"], 8, progress=False)
    seatings = [(r.deal, r.kinds) for r in played.records]
    assert len(set(seatings)) == len(seatings) == 8  # 2 arrangements on each of 4 deals
    assert {r.deal for r in played.records} == {0, 1, 2, 3}


def test_bradley_terry_orders_by_strength():
    wins = np.array([[0, 80, 90], [20, 0, 70], [10, 30, 0]], float)
    r = bradley_terry(wins)
    assert r[0] > r[1] > r[2] and abs(r.mean()) < 1e-9


def test_tournament_is_paired_and_worker_independent():
    kw = dict(
        game=get_game("audition"), players=2, specs=["audition.greedy", "random"], games=16, seed=3
    )
    a = run_tournament(**kw, workers=1, progress=False)
    b = run_tournament(**kw, workers=2, progress=False)
    for key in ("agents", "mean_length", "games"):
        assert a[key] == b[key]
    assert a["deals"] == 8 and a["agents"][0]["games"] == 16
    total = sum(x["wins"] for x in a["agents"])
    assert total == pytest.approx(16)  # a shared win counts 1/|W|


def test_three_kinds_give_head_to_head_and_ratings():
    r = run_tournament(
        get_game("audition"),
        3,
        ["audition.greedy", "random", "audition.expert:sims=4"],
        6,
        progress=False,
        workers=1,
    )
    assert set(r["head_to_head"]) == {"audition.greedy", "random", "audition.expert:sims=4"}
    assert set(r["ratings"]) == set(r["head_to_head"])
    h = r["head_to_head"]
    assert h["random"]["audition.greedy"] == pytest.approx(1 - h["audition.greedy"]["random"])
    with pytest.raises(ValueError, match="distinct"):
        run_tournament(get_game("audition"), 2, ["random", "random"], 2, progress=False)


def test_parlour_eval_writes_json_with_intervals(tmp_path, capsys):
    out = tmp_path / "ev"
    code = main(
        [
            "eval",
            "--game",
            "audition",
            "--players",
            "2",
            "--agents",
            "audition.greedy",
            "random",
            "--games",
            "40",
            "--workers",
            "1",
            "--out",
            str(out),
            "--no-progress",
        ]
    )
    assert code == 0
    data = json.loads((out / "eval.json").read_text())
    assert {"game", "players", "games", "agents"} <= set(data)
    assert data["game"] == "audition" and data["players"] == 2 and data["games"] == 40
    for a in data["agents"]:
        assert {"spec", "games", "wins", "win_rate", "ci95", "mean_score", "mean_reward"} <= set(a)
        lo, hi = a["ci95"]
        assert lo <= a["win_rate"] <= hi and 0 <= lo < hi <= 1
        assert a["win_rate"] == pytest.approx(a["wins"] / a["games"])
    assert (out / "eval.md").read_text().count("|") > 10
    assert (out / "eval.png").stat().st_size > 1000
    printed = capsys.readouterr().out
    assert "audition.greedy" in printed and "95% CI" in printed


def test_parlour_eval_rejects_bad_input(capsys):
    assert main(["eval", "--agents", "nobody", "random", "--games", "2", "--workers", "1"]) == 2
    assert "unknown agent" in capsys.readouterr().err
    assert main(["eval", "--agents", "random", "--option", "num_players=3", "--games", "2"]) == 2


def test_the_report_compares_the_interval_with_a_seats_even_share():
    """A learner holding two of three seats that wins 49% of its seat-games is above the even
    share 1/3; at two players the same interval straddles 50%."""
    from parlour.eval.report import REPORT_HEADERS, report_rows

    final = {
        "random": {"games": 2004, "win_rate": 0.491, "ci95": [0.469, 0.513], "mean_reward": 0.2}
    }
    assert REPORT_HEADERS[-1] == "CI vs even share"
    three = report_rows({"players": 3, "game": "audition", "final": final}, get_game("audition"))
    two = report_rows({"players": 2, "game": "audition", "final": final}, get_game("audition"))
    assert three[0][5] == "above 33.3%" and two[0][5] == "not separated from 50.0%"
    final["random"]["ci95"] = [0.1, 0.2]
    assert (
        report_rows({"players": 4, "game": "audition", "final": final}, get_game("audition"))[0][5]
        == "below 25.0%"
    )


def test_one_worker_plays_a_model_on_one_torch_thread_and_puts_the_count_back(monkeypatch):
    """``--workers 1`` with a model: torch on one thread while the games run, as in each worker
    process (issue 34), the caller's count after; no model: untouched."""
    import torch

    from parlour.eval import tournament

    seen: list[int] = []
    real = tournament.play_jobs

    def spy(*args, **kwargs):
        seen.append(torch.get_num_threads())
        return real(*args, **kwargs)

    monkeypatch.setattr(tournament, "play_jobs", spy)
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        audition = get_game("audition")
        run_tournament(audition, 2, ["ppo:audition-2p", "random"], 2, workers=1, progress=False)
        assert seen == [1] and torch.get_num_threads() == 2
        run_tournament(audition, 2, ["audition.greedy", "random"], 2, workers=1, progress=False)
        assert seen == [1, 2]  # (no network: the caller's count)
    finally:
        torch.set_num_threads(before)


@pytest.mark.parametrize(
    ("specs", "kind"),
    [
        (["audition.greedy", "random"], "BatchedStepper"),
        (["audition.expert", "random"], "LockstepStepper"),
    ],
)
def test_the_progress_moves_per_game_not_per_batch(specs, kind):
    """A batched or lockstep stepper plays its whole batch at once; the progress still moves as
    each game ends (it sat at 0 of 1,000 for minutes), and counts every game once."""
    from parlour.eval.tournament import Jobs, choose_stepper, play_jobs

    audition = get_game("audition")
    stepper = choose_stepper(audition, 2, specs, 0, {"action_cards": 0}, False)
    assert type(stepper).__name__ == kind
    jobs = Jobs(4 if kind == "LockstepStepper" else 16, arrangements(2, 2))
    calls: list[int] = []
    records = play_jobs(stepper, jobs, calls.append)
    assert sum(calls) == len(jobs) == len(records)
    assert len(calls) > 1 and max(calls) < len(jobs)  # (not one call for the whole batch)


def test_seats_put_one_agent_alone_against_copies_of_another():
    from parlour.eval.tournament import seat_table

    table = seat_table([1, 2], 2, 3)
    assert sorted(table) == [(0, 1, 1), (1, 0, 1), (1, 1, 0)]  # every rotation, once
    assert seat_table([2, 2], 2, 4) == [(0, 0, 1, 1), (0, 1, 1, 0), (1, 1, 0, 0), (1, 0, 0, 1)]
    for counts, words in (
        ([1], "one count per agent"),
        ([1, 0, 2], "one count per agent"),
        ([0, 3], "integer >= 1"),
        ([2, 2], "add up to the 3 players"),
    ):
        with pytest.raises(ValueError, match=words):
            seat_table(counts, 2, 3)


def test_parlour_eval_seats_one_agent_alone(tmp_path, capsys):
    out = tmp_path / "alone"
    argv = ["eval", "--game", "audition", "--players", "3", "--agents", "audition.greedy"]
    argv += ["random", "--seats", "1", "2", "--games", "12", "--no-progress", "--workers", "1"]
    assert main([*argv, "--out", str(out), "--save-replays", "3"]) == 0
    rows = {r["spec"]: r for r in json.loads((out / "eval.json").read_text())["agents"]}
    assert rows["audition.greedy"]["games"] == 12 and rows["random"]["games"] == 24
    for k in range(3):  # the replays are the first games of that table
        agents = json.loads((out / "replays" / f"replay_{k:04d}.json").read_text())["agents"]
        assert Counter(agents) == {"audition.greedy": 1, "random": 2}
    bad = tmp_path / "bad"
    base = ["eval", "--game", "audition", "--players", "3", "--agents", "audition.greedy", "random"]
    assert main([*base, "--seats", "2", "2", "--games", "3", "--out", str(bad)]) == 2
    assert "--seats: the counts must add up to the 3 players" in capsys.readouterr().err
    assert not bad.exists()
