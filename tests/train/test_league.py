"""``parlour league``: the schedule, the outcome of a game, OpenSkill ratings that order a stronger
agent above a weaker one with separate intervals, the files, determinism, and clean errors."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from parlour.apps.cli import main
from parlour.eval.league import league_tables, order_sd, pairwise, rankings, rate, run_league
from parlour.games import get_game
from parlour.games.stepping import GameRecord
from tests.faults.helpers import assert_clean_failure, files, run_main

#: games per pairing of the greedy-vs-random league: enough for separate intervals (the
#: interval half-width shrinks like 1/sqrt(games); at 200 it is ~3.7 and the gap ~10)
GAMES = 200


def _league(tmp_path: Path, *extra: str, out: str = "out", games: int = GAMES) -> Path:
    argv = ["league", "--agents", "random", "audition.greedy", "--games", str(games)]
    assert main([*argv, "--out", str(tmp_path / out), "--no-progress", *extra]) == 0
    return tmp_path / out


def test_greedy_is_rated_above_random_with_separate_intervals(tmp_path, capsys):
    out = _league(tmp_path)
    league = json.loads((out / "league.json").read_text())
    assert league["games_per_pairing"] == GAMES and league["deals"] == GAMES // 2
    best, worst = league["ratings"]
    assert (best["spec"], worst["spec"]) == ("audition.greedy", "random")
    assert best["interval"][0] > worst["interval"][1], (best, worst)
    assert best["mu"] == pytest.approx(sum(best["interval"]) / 2)
    assert best["ordinal"] == pytest.approx(best["mu"] - 3 * best["sigma"])
    cell = league["pairwise"]["audition.greedy"]["random"]
    assert cell["games"] == GAMES and cell["ci95"][0] > 0.5
    back = league["pairwise"]["random"]["audition.greedy"]
    assert back["score"] == pytest.approx(1 - cell["score"])
    md = (out / "league.md").read_text()
    assert "| 1 | `audition.greedy` |" in md and "| 2 | `random` |" in md
    assert "## Pairwise" in md and "openskill 6.2.0 PlackettLuce" in md
    assert (out / "league.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "| 1 | `audition.greedy` |" in capsys.readouterr().out


def test_the_same_seed_gives_the_same_league(tmp_path):
    a = (_league(tmp_path, out="a", games=20) / "league.json").read_text()
    b = (_league(tmp_path, out="b", games=20) / "league.json").read_text()
    c = (_league(tmp_path, "--seed", "7", out="c", games=20) / "league.json").read_text()
    assert a == b and a != c


def test_the_per_game_path_and_the_worker_count_give_the_same_league(monkeypatch):
    args = (get_game("audition"), 3, ["random", "audition.greedy"], 6)
    batched = run_league(*args, workers=1, progress=False)
    monkeypatch.setenv("PARLOUR_NO_BATCHED_EVAL", "1")
    assert run_league(*args, workers=2, progress=False) == batched


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_pairing_gives_both_agents_every_seat_equally_often(players):
    tables = league_tables(3, players)
    assert len(tables) == 3 * players * (players - 1) and len(set(tables)) == len(tables)
    for a, b in ((0, 1), (0, 2), (1, 2)):
        mine = [t for t in tables if set(t) == {a, b}]
        assert len(mine) == players * (players - 1)
        for agent in (a, b):
            seats = Counter(s for t in mine for s, k in enumerate(t) if k == agent)
            assert set(seats.values()) == {players * (players - 1) // 2} and len(seats) == players
    assert league_tables(3, 1) == [(0,), (1,), (2,)]


def _rec(kinds, rewards, scores=None, deal=0):
    n = len(kinds)
    return GameRecord(deal, tuple(kinds), rewards, scores or [None] * n, [], 1)


def test_a_game_ranks_its_two_agents_by_their_seats_mean_place():
    # A holds seats 0 and 2: places 1 and 3 (mean 2); B seat 1: place 2 -> a tie
    assert rankings([_rec([0, 1, 0], [1.0, 0.0, -1.0])], 3) == [{0: 1, 1: 1}]
    # equal rewards are split by the score; equal in both share the place
    assert rankings([_rec([0, 1], [0.0, 0.0], [3, 5])], 2) == [{0: 2, 1: 1}]
    assert rankings([_rec([0, 1], [0.0, 0.0], [4, 4])], 2) == [{0: 1, 1: 1}]
    # A 1 seat of 4, B 3: B's places 1, 2, 4 (mean 7/3) beat A's 3
    assert rankings([_rec([1, 1, 0, 1], [1.0, 0.5, 0.0, -1.0])], 4) == [{0: 2, 1: 1}]
    # solo: the agents that played a deal are ranked together, deal by deal
    solo = [_rec([0], [1.0], deal=0), _rec([1], [0.0], deal=0), _rec([2], [1.0], deal=0)]
    assert rankings(solo + [_rec([0], [0.0], deal=1), _rec([1], [1.0], deal=1)], 1) == [
        {0: 1, 1: 3, 2: 1},
        {0: 2, 1: 1},
    ]


def test_ratings_and_matrix_from_rankings():
    ranked = ([{0: 1, 1: 2}] * 3 + [{0: 2, 1: 1}] + [{0: 1, 1: 1}]) * 8  # 24 wins, 8 losses
    (mu0, s0), (mu1, s1) = rate(ranked, 2)
    assert mu0 > mu1 and s0 < 25 / 3 and s1 < 25 / 3
    assert mu0 + mu1 == pytest.approx(50.0)  # two equal priors: the updates are symmetric
    score, games = pairwise(ranked, 2)
    assert games == [[0, 40], [40, 0]] and score[0][1] == 28 and score[1][0] == 12
    assert rate([{0: 1, 1: 1}] * 5, 2)[0][0] == pytest.approx(25.0)  # ties move no mean


def test_the_order_sensitivity_is_measured_over_seeded_shuffles():
    ranked = [{0: 1, 1: 2}] * 30 + [{0: 2, 1: 1}] * 10
    sd = order_sd(ranked, 2, 8, seed=3)
    assert sd == order_sd(ranked, 2, 8, seed=3) and sd != order_sd(ranked, 2, 8, seed=4)
    assert all(x > 0 for x in sd)
    # (the library updates online: the same games in another order give another mu)
    assert rate(ranked, 2)[0][0] != pytest.approx(rate(ranked[::-1], 2)[0][0])
    assert order_sd([{0: 1, 1: 2}] * 10, 2, 4, seed=0) == pytest.approx([0.0, 0.0])
    assert order_sd(ranked, 2, 0, seed=0) == [None, None]


def test_a_solo_league_ranks_the_agents_on_the_same_deals():
    league = run_league(
        get_game("guests"), 1, ["random", "guests.deducer"], 3, workers=1, progress=False
    )
    assert league["deals"] == 3 and league["games_per_pairing"] == 3
    assert league["ratings"][0]["spec"] == "guests.deducer"
    assert league["pairwise"]["guests.deducer"]["random"]["games"] == 3


def test_bad_input_is_one_line_and_leaves_the_files(tmp_path, capsys):
    (tmp_path / "keep").mkdir()
    (tmp_path / "keep" / "notes.txt").write_text("precious")
    base = ["league", "--no-progress", "--out", str(tmp_path / "new")]
    cases = [
        (["--agents", "random", "audition.wizard"], "unknown agent 'audition.wizard'"),
        (["--agents", "random"], "--agents: a league needs at least 2 agents"),
        (["--agents", "random", "random"], "each agent once"),
        (["--agents", "random", "audition.greedy", "--games", "0"], "--games: must be >= 1"),
        (["--agents", "random", "audition.greedy", "--players", "9"], "players must be in 2..6"),
        (["--agents", "random", "audition.greedy", "--option", "x=1"], "game options ['x']"),
        (["--game", "chess", "--agents", "random", "audition.greedy"], "unknown game"),
        (["--agents", "random", "audition.greedy", "--seed", "-1"], "--seed: must be an int >= 0"),
    ]
    for argv, message in cases:
        before = files(tmp_path)
        assert_clean_failure(run_main([*base, *argv], capsys), message, before, files(tmp_path))
    assert not (tmp_path / "new").exists()
    keep = ["league", "--agents", "random", "audition.greedy", "--out", str(tmp_path / "keep")]
    before = files(tmp_path)
    result = run_main([*keep, "--games", "100000", "--no-progress"], capsys)  # refused first
    assert_clean_failure(
        result, "exists and is not empty; use --overwrite", before, files(tmp_path)
    )
    assert run_main([*keep, "--games", "4", "--no-progress", "--overwrite"], capsys)[0] == 0
    assert (tmp_path / "keep" / "notes.txt").read_text() == "precious"
    assert (tmp_path / "keep" / "league.json").is_file()
