"""Audition turns and rounds: drawing and placing, the four-card limit, taking a slot and sitting
out the round, the last player of a round, who starts the next round, and which agent makes
each decision.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from parlour.envs.audition import rules as R
from tests.audition.driver import DRAW, PLACE, TAKE, Table
from tests.audition.helpers import counts, draw_place, game, take


def test_turn_order_is_clockwise_and_skips_players_who_took_a_slot():
    g = Table(n=3, start=1)
    assert g.cur == 1
    g.draw_place(0)
    assert g.cur == 2
    g.draw_place(1)
    assert g.cur == 0
    g.take(0)  # seat 0 is out of this round
    assert g.cur == 1
    g.draw_place(1)
    assert g.cur == 2
    g.take(1)
    # only seat 1 is left: it keeps acting
    assert g.cur == 1
    assert g.legal() == {DRAW}  # the last slot (2) is empty: must draw first
    g.draw_place(2)
    assert g.cur == 1
    assert g.legal() == {DRAW, TAKE(2)}


def test_take_requires_a_non_empty_untaken_slot():
    g = Table(n=3, start=0)
    assert g.legal() == {DRAW}
    g.draw_place(2)
    assert g.legal() == {DRAW, TAKE(2)}
    g.take(2)
    g.draw_place(0)
    assert g.legal() == {DRAW, TAKE(0)}  # slot 2 is taken, slot 1 empty


def test_four_card_limit_and_forced_take():
    g = Table(n=2, start=0)
    for _ in range(4):
        g.step(DRAW)
        assert PLACE(0) in g.legal()
        g.step(PLACE(0))
    assert DRAW in g.legal()
    g.step(DRAW)
    assert g.legal() == {PLACE(1)}  # slot 0 is full
    g.step(PLACE(1))
    for _ in range(3):
        g.draw_place(1)
    # every untaken slot is full: DRAW is not allowed, a take is forced
    assert g.legal() == {TAKE(0), TAKE(1)}
    room = g.block(0, "slots").reshape(6, 23)[:2, 9]
    assert np.allclose(room, 0.0)


def test_last_player_draws_until_full_then_must_take():
    g = Table(n=2, start=0)
    g.draw_place(0)
    g.take(0)  # seat 1
    assert g.cur == 0
    assert g.legal() == {DRAW}
    for k in range(4):
        g.draw_place(1)
        assert g.cur == 0
        assert g.legal() == ({DRAW, TAKE(1)} if k < 3 else {TAKE(1)})
    g.take(1)
    # the round is over; seat 0 took the last slot and starts the next round
    v = g.view(0)
    assert v.round == 2
    assert g.cur == 0
    assert not any(v.taken)
    assert all(not s.taken and s.size == 0 for s in v.slots)
    assert sum(v.collections[0]) == 4 and sum(v.collections[1]) == 1


def test_player_who_took_the_last_slot_starts_next_round_not_the_round_starter():
    g = Table(n=4, start=0)
    g.draw_place(0)  # 0
    g.take(0)  # 1 out
    g.draw_place(1)  # 2
    g.take(1)  # 3 out
    assert g.cur == 0
    g.draw_place(2)  # 0
    assert g.cur == 2
    g.take(2)  # 2 out
    assert g.cur == 0
    g.draw_place(3)
    g.take(3)  # 0 took the last slot
    assert g.view(0).round == 2 and g.cur == 0
    # round 2: arrange for seat 2 to take last
    g.draw_place(0)  # 0
    g.take(0)  # 1
    g.draw_place(1)  # 2
    g.take(1)  # 3
    assert g.cur == 0
    g.draw_place(2)  # 0
    assert g.cur == 2
    g.draw_place(3)  # 2
    g.take(2)  # 0 out
    assert g.cur == 2
    g.take(3)
    assert g.view(0).round == 3
    assert g.cur == 2


def test_every_decision_is_a_step_of_the_agent_that_makes_it():
    """DRAW -> PLACE -> take_now decision, TAKE -> CHOOSE: all by the same agent, and the
    observation/mask of every other agent is empty meanwhile."""
    g = Table(n=3, action_cards=["take_now", "discard_one"], top=[4, 4, 9], start=2)
    seq = []
    for a in [DRAW, PLACE(0), TAKE(0)]:
        seq.append(g.cur)
        for p in range(3):
            if p != g.cur:
                assert g.mask(p).sum() == 0
        g.step(a)
    assert seq == [2, 2, 2]
    assert g.cur == 0
    g.draw_place(1)  # 0: 4 on discard_one
    g.draw_place(1)  # 1: 9
    g.take(1)  # 0 takes discard_one
    assert g.cur == 0 and g.phase() == "discard_one"
    assert g.mask(1).sum() == 0 and g.mask(2).sum() == 0
    g.choose(9)
    assert g.cur == 1


def test_placing_and_the_four_card_limit():
    st = game(2, top=[5, 6, 7, 8, 9], start=0)
    for card, player in zip([5, 6, 7, 8], [0, 1, 0, 1], strict=True):
        assert st.current_player == player
        assert draw_place(st, 0) == card
    assert st.slot_size[0] == 4
    assert list(st.slots[0]) == counts(5, 6, 7, 8)
    # slot 0 is full: the drawn card may only go to slot 1
    st.apply(R.DRAW)
    assert st.drawn == 9
    assert st.legal_actions() == [R.PLACE_0 + 1]
    with pytest.raises(R.IllegalActionError):
        st.apply(R.PLACE_0 + 0)


def test_taking_a_slot_and_sitting_out_the_round():
    st = game(3, top=[4, 5, 6], start=0)
    draw_place(st, 0)  # p0: 4 on slot 0
    draw_place(st, 0)  # p1: 5 on slot 0
    take(st, 0)  # p2 takes slot 0
    assert list(st.collections[2]) == counts(4, 5)
    assert st.taken == [False, False, True] and st.slot_taken[0]
    assert st.slot_size[0] == 0
    # p2 sits out: the turn goes p0, p1, p0, ...
    assert st.current_player == 0
    draw_place(st, 1)
    assert st.current_player == 1
    draw_place(st, 1)
    assert st.current_player == 0
    # a taken slot can neither be taken nor placed on again this round
    st.apply(R.DRAW)
    assert R.PLACE_0 + 0 not in st.legal_actions()


def test_cannot_take_an_empty_slot():
    st = game(2, start=0)
    assert st.legal_actions() == [R.DRAW]
    before = pickle.dumps(st)
    with pytest.raises(R.IllegalActionError, match="illegal action 0"):
        take(st, 0)
    assert pickle.dumps(st) == before  # unchanged
    draw_place(st, 0)
    assert R.TAKE_0 + 0 in st.legal_actions() and R.TAKE_0 + 1 not in st.legal_actions()


def test_forced_take_when_every_open_slot_is_full():
    st = game(2, start=0)
    for i in range(8):
        draw_place(st, i % 2)
    assert st.slot_size == [4, 4]
    legal = st.legal_actions()
    assert R.DRAW not in legal
    assert legal == [R.TAKE_0 + 0, R.TAKE_0 + 1]


def test_last_player_in_the_round_draws_onto_the_last_slot_then_takes():
    st = game(2, top=[1, 2, 2, 3, 3, 3], start=0)
    draw_place(st, 0)  # p0: 1 on slot 0
    take(st, 0)  # p1 takes slot 0 (the 1)
    assert st.current_player == 0  # p0 is the last player of the round
    # slot 1 is empty: p0 must draw first
    assert st.legal_actions() == [R.DRAW]
    for expected_size in (1, 2, 3, 4):
        assert st.current_player == 0
        draw_place(st, 1)
        assert st.slot_size[1] == expected_size
    # the last slot is full: the only move is to take it
    assert st.legal_actions() == [R.TAKE_0 + 1]
    take(st, 1)
    assert list(st.collections[0]) == counts(2, 2, 3, 3)
    assert list(st.collections[1]) == counts(1)


def test_the_last_player_may_take_the_last_slot_early():
    st = game(2, start=0)
    draw_place(st, 0)
    take(st, 0)
    draw_place(st, 1)
    assert st.legal_actions() == [R.TAKE_0 + 1, R.DRAW]


def test_next_round_is_started_by_the_last_taker_with_empty_slots():
    st = game(3, top=[1, 2, 2, 3], start=0)
    draw_place(st, 0)  # p0
    draw_place(st, 1)  # p1
    take(st, 0)  # p2 takes slot 0
    take(st, 1)  # p0 takes slot 1
    assert st.current_player == 1  # p1 alone
    draw_place(st, 2)
    draw_place(st, 2)
    take(st, 2)  # p1 takes the last slot
    assert st.round == 2
    assert st.taken == [False, False, False] and st.slot_taken == [False, False, False]
    assert st.slot_size == [0, 0, 0] and not st.slots.any()
    assert st.current_player == 1  # the last taker starts, not the next seat of the last round
    assert st.legal_actions() == [R.DRAW]
