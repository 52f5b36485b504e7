"""Tianshou (``docs/ecosystem/tianshou.md``): the page's collector recipe with masked random
policies, for Audition and Awkward Guests at 2 and 4 players. No crash, every game's row of
``stats.returns`` is every player's final reward and matches the env's ``results()``, and an
Awkward Guests 4p game with a knock-out is among them."""

from __future__ import annotations

import numpy as np
import pytest

from .recipes import (
    CONFIG_IDS,
    CONFIGS,
    KeepResults,
    assert_final_rewards,
    results_log,
    run_page,
)

PAGE = "tianshou.md"


def test_the_page_example_collects_four_player_games():
    ns = run_page(PAGE)
    returns = np.asarray(ns["stats"].returns)
    assert returns.shape == (4, 4) and ns["stats"].n_collected_episodes == 4
    for row in returns:
        assert_final_rewards(row.tolist(), 4)


@pytest.mark.parametrize(("name", "make_env", "game", "players"), CONFIGS, ids=CONFIG_IDS)
def test_collector_records_every_players_final_reward(name, make_env, game, players):
    collect_random_games = run_page(PAGE)["collect_random_games"]
    key = f"tianshou-{name}"
    log = results_log(key)
    stats = collect_random_games(lambda: KeepResults(make_env(), key), episodes=6, seed=3)
    returns = np.asarray(stats.returns)
    assert returns.shape == (6, players)
    for row in returns:
        assert_final_rewards(row.tolist(), players)
    # the games whose env was reset again (all but at most one per env) are matched one to one
    assert len(log) >= 6 - 2
    rows = [r.tolist() for r in returns]
    for results in log:
        final = [results["returns"][f"player_{p}"] for p in range(players)]
        match = next((r for r in rows if r == pytest.approx(final)), None)
        assert match is not None, (final, rows)
        rows.remove(match)
    if name == "guests-4p":
        knocked_out = [r for r in log if any(r["out"].values())]
        assert knocked_out, "no knock-out: pick another seed"
        for results in knocked_out:  # the player who went out is paid, and only at the end
            for agent, out in results["out"].items():
                if out:
                    assert results["returns"][agent] == pytest.approx(-1 / 3)
