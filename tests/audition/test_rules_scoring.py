"""Audition scoring and results: soloists and quartets (counts are never split), winners and the
quartet tie-break, shared wins, the zero-sum ``win`` reward and the ``score`` reward.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from parlour.envs.audition import rules as R
from tests.audition.driver import PASS, Table, points_of, spec_win_reward
from tests.audition.helpers import counts, game


@pytest.mark.parametrize(
    "count,pts",
    [(0, 0), (1, 1), (2, 0), (3, 0), (4, 5), (5, 0), (6, 0), (7, 0), (8, 0), (9, 0)],
)
def test_score_per_count_is_never_split(count, pts):
    g = Table(n=2, start=0)
    st = g.env.unwrapped.game
    st.collections[0, :] = 0
    st.collections[0, 9] = count
    st.refresh()
    assert g.view(0).scores[0] == pts
    assert g.view(1).scores[0] == pts


def _finish_with(g: Table, colls: dict[int, dict[int, int]]):
    """Play with P up to the very last decision (a final-phase PASS that ends the game),
    overwrite the collections (engine state + refresh(), as rules.py documents), finish."""
    while True:
        if g.phase() == "final" and PASS in g.legal():
            probe = copy.deepcopy(g.env)
            probe.step(PASS)
            if all(probe.terminations.values()):
                break
        g.burn_step()
        assert not g.done
    st = g.env.unwrapped.game
    st.collections[:, :] = 0
    for p, c in colls.items():
        for v, k in c.items():
            st.collections[p, v] = k
    st.refresh()
    g.pass_()
    assert g.done


@pytest.mark.parametrize(
    "n,colls,winners",
    [
        (2, {0: {1: 1, 2: 1}, 1: {3: 1}}, [0]),  # most points
        (3, {0: {5: 4}, 1: {1: 1, 2: 1, 3: 1, 4: 1, 6: 1}, 2: {}}, [0]),  # 5 = 5: quartet wins
        (3, {0: {5: 4}, 1: {6: 4}, 2: {1: 1}}, [0, 1]),  # same points, same quartets
        (4, {0: {1: 1}, 1: {2: 1}, 2: {3: 1}, 3: {4: 1}}, [0, 1, 2, 3]),
        (5, {0: {7: 5}, 1: {7: 2}}, [0, 1, 2, 3, 4]),  # all zero: shared win by everyone
        (6, {0: {1: 1, 2: 4}, 3: {3: 1, 4: 4}, 5: {6: 1, 7: 1, 8: 1, 9: 1, 10: 1, 11: 1}}, [0, 3]),
    ],
)
def test_winners_tiebreak_and_zero_sum_reward_formula(n, colls, winners):
    g = Table(n=n, start=0)
    _finish_with(g, colls)
    info = g.env.results()
    assert info["phase"] == "over" and info["over"]
    assert info["winners"] == [f"player_{p}" for p in winners]
    exp_scores = {
        f"player_{p}": points_of([colls.get(p, {}).get(v, 0) for v in range(14)])[0]
        for p in range(n)
    }
    assert info["scores"] == exp_scores
    for a in g.env.possible_agents:
        assert g.env.infos[a] == {}
    rewards = spec_win_reward(n, winners)
    assert info["returns"] == pytest.approx({f"player_{p}": rewards[p] for p in range(n)})
    for p in range(n):
        assert g.env._cumulative_rewards[f"player_{p}"] == pytest.approx(rewards[p])
    assert sum(g.env._cumulative_rewards.values()) == pytest.approx(0.0, abs=1e-9)
    if len(winners) == 1:
        assert g.env._cumulative_rewards[f"player_{winners[0]}"] == pytest.approx(1.0)


def test_two_way_tie_in_2p_gives_zero_each():
    g = Table(n=2, start=1)
    _finish_with(g, {0: {1: 1}, 1: {2: 1}})
    assert g.env._cumulative_rewards == {
        "player_0": pytest.approx(0.0),
        "player_1": pytest.approx(0.0),
    }


def test_score_reward_mode_through_the_env():
    g = Table(n=3, start=0, reward_mode="score")
    _finish_with(g, {0: {1: 1, 2: 4}, 1: {3: 1}, 2: {}})
    pts = [6, 1, 0]
    mean = sum(pts) / 3
    for p in range(3):
        assert g.env._cumulative_rewards[f"player_{p}"] == pytest.approx((pts[p] - mean) / 10)


def test_score_of_counts_zero_to_eight():
    expected = {0: 0, 1: 1, 2: 0, 3: 0, 4: 5, 5: 0, 6: 0, 7: 0, 8: 0}
    for c, pts in expected.items():
        assert R.score_counts([0, c]) == (pts, 1 if c == 4 else 0)
    assert R.score_counts(counts(1, 2, 3, 3, 3, 3, 4, 4)) == (7, 1)


def _finished(collections: list[list[int]]) -> R.AuditionState:
    n = len(collections)
    st = game(n)
    st.collections[:] = np.array(collections, np.int16)
    st.phase = R.PH_OVER
    st.refresh()
    return st


def test_most_points_wins():
    st = _finished([counts(1, 2), counts(3)])
    assert st.scores() == [2, 1] and st.winners() == [0]
    assert st.returns("win") == [1.0, -1.0]


def test_tie_broken_by_most_scoring_quartets():
    # both 5 points: p0 one quartet, p1 five soloists
    st = _finished([counts(4, 4, 4, 4), counts(1, 2, 3, 5, 6)])
    assert st.scores() == [5, 5]
    assert st.quartets() == [1, 0]
    assert st.winners() == [0]


def test_full_tie_is_a_shared_win():
    st = _finished([counts(1, 2), counts(3, 4)])
    assert st.winners() == [0, 1]
    assert st.returns("win") == [0.0, 0.0]
    st3 = _finished([counts(1, 2), counts(3, 4), counts(5)])
    r = st3.returns("win")
    assert st3.winners() == [0, 1]
    assert r == pytest.approx([0.25, 0.25, -0.5]) and sum(r) == pytest.approx(0)


def test_score_reward_mode():
    st = _finished([counts(1, 2, 3), counts(4), counts(5, 5)])
    assert st.returns("score") == pytest.approx(
        [(3 - 4 / 3) / 10, (1 - 4 / 3) / 10, (0 - 4 / 3) / 10]
    )
    with pytest.raises(ValueError, match="reward mode"):
        st.returns("elo")
