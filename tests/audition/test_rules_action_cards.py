"""Audition's action cards (variant 1): ``max_two``, ``pass_left``, ``discard_one``, ``discard_own``,
``draw_one`` and ``take_now``.
"""

from __future__ import annotations

import numpy as np
import pytest

from parlour.envs.audition import rules as R
from tests.audition.driver import CHOOSE, DECK_SIZE, DRAW, PASS, PLACE, TAKE, Table
from tests.audition.helpers import choose, counts, draw_place, game, take


def test_max_two_slot_holds_at_most_two():
    g = Table(n=2, action_cards=["max_two"], start=0)
    g.draw_place(0)
    g.draw_place(0)
    g.step(DRAW)
    assert g.legal() == {PLACE(1)}
    g.step(PLACE(1))
    slots = g.block(1, "slots").reshape(6, 23)
    assert slots[0, 9] == 0.0 and slots[1, 9] == pytest.approx(0.75)


def test_last_taker_of_pass_left_starts_next_round_after_choosing():
    g = Table(n=2, action_cards=["pass_left"], top=[3, 5], start=0)
    g.draw_place(1)  # 0 places 3 on conductor
    g.take(1)  # 1 takes conductor
    g.draw_place(0)  # 0 places 5 on pass_left
    g.take(0)
    assert g.cur == 0 and g.phase() == "pass_left"
    assert g.legal() == {CHOOSE(5)}  # asked even though only one number is possible
    g.choose(5)
    assert g.coll(1)[5] == 1 and g.coll(0)[5] == 0
    assert g.view(0).round == 2 and g.cur == 0 and g.phase() == "turn"


def test_pass_left_goes_to_seat_plus_one_with_wraparound_and_only_came_cards():
    g = Table(n=3, action_cards=["pass_left"], top=[4, 6, 2, 6, 8], start=1)
    g.draw_place(1)  # 1: 4 on conductor 1
    g.draw_place(1)  # 2: 6
    g.take(1)  # 0 takes {4, 6}
    g.draw_place(0)  # 1: 2 on pass_left
    g.draw_place(0)  # 2: 6 on pass_left
    assert g.cur == 1
    g.draw_place(0)  # 1: 8 on pass_left
    assert g.cur == 2
    g.take(0)  # seat 2 takes pass_left with {2, 6, 8}
    assert g.cur == 2 and g.phase() == "pass_left"
    assert g.legal() == {CHOOSE(2), CHOOSE(6), CHOOSE(8)}
    pc = g.block(2, "pending_choice")
    assert pc[1] > 0 and pc[5] > 0 and pc[7] > 0 and pc.sum() == pytest.approx(3 / 13)
    assert g.block(0, "pending_choice").sum() == 0  # only the chooser's decision
    g.choose(6)
    assert g.coll(0)[6] == 2 and g.coll(0)[4] == 1  # seat 2 + 1 = seat 0 (wraps)
    assert g.coll(2)[6] == 0 and g.coll(2)[2] == 1 and g.coll(2)[8] == 1
    assert g.coll(1) == (0,) * 14
    assert g.cur == 1 and g.phase() == "turn"


def test_discard_one_must_discard_one_that_came_and_discard_row_is_public():
    g = Table(n=2, action_cards=["discard_one"], top=[5, 5, 7, 3], start=0)
    g.draw_place(1)  # 0: 5 on conductor
    g.take(1)  # 1 takes {5}
    g.draw_place(0)  # 0: 5 on discard_one
    g.draw_place(0)  # 0: 7
    unseen_before = g.block(1, "unseen").copy()
    g.take(0)
    assert g.phase() == "discard_one"
    assert g.legal() == {CHOOSE(5), CHOOSE(7)}
    g.choose(7)
    assert g.coll(0)[7] == 0 and g.coll(0)[5] == 1
    for p in range(2):
        assert g.view(p).discard[7] == 1
        assert g.block(p, "discard")[6] == pytest.approx(1 / 13)
    np.testing.assert_allclose(g.block(1, "unseen"), unseen_before)  # it was face up already


def test_discard_one_is_asked_even_with_a_single_possible_number():
    g = Table(n=2, action_cards=["discard_one"], top=[5, 5], start=0)
    g.draw_place(0)
    g.draw_place(0)  # seat 1 places the second 5
    g.take(0)  # seat 0 takes {5, 5}
    assert g.cur == 0 and g.phase() == "discard_one" and g.legal() == {CHOOSE(5)}
    g.choose(5)
    assert g.coll(0)[5] == 1 and g.view(1).discard[5] == 1


def test_discard_own_choices_are_cards_held_before_and_pass_is_allowed():
    g = Table(n=2, action_cards=["discard_own"], top=[2, 9, 4], start=0)
    g.draw_place(1)  # 0: 2 on conductor
    g.draw_place(1)  # 1: 9 on conductor
    g.take(1)  # 0 takes {2, 9}
    g.draw_place(0)  # 1: 4 on discard_own
    g.take(0)  # 1 takes discard_own with {4}; collection was empty before: no decision
    assert g.phase() == "turn"
    assert g.view(0).round == 2 and g.cur == 1
    # round 2: seat 0 takes discard_own with a non-empty collection
    g.draw_place(0)  # 1 places on discard_own
    card = g.slot_cards(0)
    assert g.cur == 0
    g.take(0)
    came = [v for v in range(1, 14) if card[v]]
    assert g.phase() == "discard_own" and g.cur == 0
    expected = {PASS, CHOOSE(2), CHOOSE(9)}
    for v in came:
        if v not in (2, 9):
            assert CHOOSE(v) not in g.legal()  # may not discard a card that came with it
    assert g.legal() == expected
    g.choose(9)
    assert g.coll(0)[9] == 0 and g.view(1).discard[9] == 1


def test_discard_own_skipped_with_empty_collection_and_pass_keeps_everything():
    g = Table(n=2, action_cards=["discard_own"], top=[2, 4, 6], start=0)
    g.draw_place(1)  # 0: 2 on conductor
    g.take(1)  # 1 takes {2}
    assert g.cur == 0
    g.draw_place(0)  # 0 (alone): 4 on discard_own
    g.take(0)  # seat 0's collection was empty before: no decision
    assert g.phase() == "turn" and g.view(0).round == 2 and g.cur == 0
    g.draw_place(0)  # 0: 6 on discard_own
    assert g.cur == 1
    g.take(0)  # seat 1 held {2}: asked, may decline
    assert g.phase() == "discard_own" and g.cur == 1
    assert g.legal() == {PASS, CHOOSE(2)}  # not 6: it came with the card
    g.pass_()
    assert g.coll(1)[2] == 1 and g.coll(1)[6] == 1 and sum(g.view(0).discard) == 0


def test_draw_one_adds_the_top_card_face_up():
    g = Table(n=2, action_cards=["draw_one"], top=[3, 8, 6], start=0)
    g.draw_place(0)  # 0: 3 on draw_one
    unseen_before = list(g.view(1).unseen)
    assert g.cur == 1
    g.take(0)  # 1 takes {3} and draws 8
    assert g.coll(1)[3] == 1 and g.coll(1)[8] == 1 and sum(g.coll(1)) == 2
    assert g.deck_size() == DECK_SIZE[2] - 2
    u = list(g.view(0).unseen)
    assert u[8] == unseen_before[8] - 1  # the drawn card is face up for everyone
    assert g.cur == 0
    assert g.draw() == 6


def test_take_now_accept_and_decline():
    g = Table(n=3, action_cards=["take_now"], top=[5, 6, 7], start=0)
    g.draw_place(0)  # 0 places on take_now
    assert g.cur == 0 and g.phase() == "take_now"
    assert g.legal() == {TAKE(0), PASS}
    assert g.mask(1).sum() == 0 and g.mask(2).sum() == 0
    g.pass_()  # decline
    assert g.cur == 1 and g.phase() == "turn"
    g.draw_place(0)  # 1 places on take_now
    assert g.cur == 1 and g.legal() == {TAKE(0), PASS}
    g.take(0)  # accept: the musicians go to seat 1, who is out of the round
    assert g.coll(1)[5] == 1 and g.coll(1)[6] == 1
    assert g.view(0).taken[1] and g.view(0).slots[0].taken
    assert g.cur == 2
    g.draw_place(1)  # no take_now decision on a conductor
    assert g.cur == 0 and g.phase() == "turn"


def test_take_now_can_also_be_taken_by_rule_b():
    g = Table(n=2, action_cards=["take_now"], top=[5, 6], start=0)
    g.draw_place(0)
    g.pass_()
    assert g.cur == 1 and TAKE(0) in g.legal()
    g.take(0)
    assert g.coll(1)[5] == 1 and g.cur == 0 and g.phase() == "turn"


def test_take_now_last_player_declines_and_keeps_acting():
    g = Table(n=2, action_cards=["take_now"], top=[5, 6, 7], start=0)
    g.draw_place(1)
    g.take(1)  # seat 1 out
    g.draw_place(0)
    assert g.phase() == "take_now" and g.cur == 0
    g.pass_()
    assert g.cur == 0 and g.legal() == {DRAW, TAKE(0)}


def test_max_two_slot_holds_two():
    st = game(2, top=[1, 2, 3], action_cards=["max_two"], start=0)
    assert st.slot_capacity(0) == 2 and st.slot_capacity(1) == 4
    draw_place(st, 0)
    draw_place(st, 0)
    st.apply(R.DRAW)
    assert st.legal_actions() == [R.PLACE_0 + 1]


def test_pass_left_gives_a_chosen_card_to_seat_i_plus_one():
    # 3p, slot 0 is pass_left; p2 takes it, passes to seat 0 (wraps around)
    st = game(3, top=[5, 7], action_cards=["pass_left"], start=0)
    draw_place(st, 0)  # p0: 5
    draw_place(st, 0)  # p1: 7
    take(st, 0)  # p2
    assert st.phase == R.PH_PASS_LEFT and st.current_player == 2
    assert st.legal_actions() == [choose(5), choose(7)]
    st.apply(choose(7))
    assert list(st.collections[2]) == counts(5)
    assert list(st.collections[0]) == counts(7)
    assert st.current_player == 0 and st.phase == R.PH_TURN


def test_pass_left_is_asked_even_with_one_possible_number():
    st = game(2, top=[3], action_cards=["pass_left"], start=0)
    draw_place(st, 0)
    take(st, 0)  # p1
    assert st.phase == R.PH_PASS_LEFT and st.legal_actions() == [choose(3)]
    st.apply(choose(3))
    assert list(st.collections[0]) == counts(3)  # seat (1 + 1) % 2 = 0
    assert not st.collections[1].any()


def test_discard_one_discards_a_card_that_came_with_it():
    st = game(2, top=[6, 6, 2], action_cards=["discard_one"], start=0)
    draw_place(st, 0)
    draw_place(st, 0)
    draw_place(st, 0)  # slot 0: 6, 6, 2
    take(st, 0)  # p1
    assert st.legal_actions() == [choose(2), choose(6)]
    st.apply(choose(6))
    assert list(st.collections[1]) == counts(2, 6)
    assert list(st.discard) == counts(6)


def test_discard_own_excludes_the_just_taken_cards():
    # p1 first collects a 3 (round 1), then takes discard_own with a 5 and a 3
    st = game(2, top=[3, 5, 3], action_cards=["discard_own"], start=0)
    draw_place(st, 1)  # p0: 3 on conductor slot 1
    take(st, 1)  # p1 takes it: collection {3}
    draw_place(st, 0)  # p0 alone: 5 on slot 0 (discard_own)
    draw_place(st, 0)  # p0: 3 on slot 0
    take(st, 0)  # p0 takes discard_own: collection was empty before -> no decision
    assert st.phase == R.PH_TURN and st.round == 2 and st.current_player == 0
    assert list(st.collections[0]) == counts(3, 5)

    st = game(2, top=[3, 5, 4], action_cards=["discard_own"], start=0)
    draw_place(st, 1)  # p0: 3 on slot 1
    take(st, 1)  # p1: {3}
    draw_place(st, 0)  # p0: 5 on slot 0
    take(st, 0)  # p0 takes discard_own, empty collection before: no decision, round ends
    assert st.current_player == 0 and st.round == 2
    draw_place(st, 0)  # p0: 4 on slot 0 (discard_own)
    take(st, 0)  # p1 takes discard_own holding {3} before
    assert st.phase == R.PH_DISCARD_OWN and st.current_player == 1
    assert st.legal_actions() == [R.PASS, choose(3)]  # not the 4 that came with the card
    st.apply(choose(3))
    assert list(st.collections[1]) == counts(4)
    assert list(st.discard) == counts(3)


def test_discard_own_may_be_declined():
    st = game(2, top=[3, 4], action_cards=["discard_own"], start=0)
    draw_place(st, 1)
    take(st, 1)  # p1: {3}
    draw_place(st, 0)  # p0: 4 on slot 0
    st.apply(R.DRAW)  # p0 draws again and places on slot 0
    st.apply(R.PLACE_0)
    take(st, 0)  # p0 takes (empty before) -> new round, p0 starts
    draw_place(st, 0)
    take(st, 0)  # p1 takes discard_own holding {3}
    st.apply(R.PASS)
    assert st.collections[1][3] == 1 and not st.discard.any()


def test_draw_one_draws_the_top_card_into_the_collection():
    st = game(2, top=[8, 9], action_cards=["draw_one"], start=0)
    draw_place(st, 0)  # p0: 8 on slot 0
    take(st, 0)  # p1 takes draw_one: gets 8 and the top card 9
    assert list(st.collections[1]) == counts(8, 9)
    assert st.phase == R.PH_TURN and st.current_player == 0


def test_take_now_accept():
    st = game(2, top=[4, 6], action_cards=["take_now"], start=0)
    draw_place(st, 0)  # p0 places the 4 on take_now
    assert st.phase == R.PH_TAKE_NOW and st.current_player == 0
    assert st.legal_actions() == [R.TAKE_0 + 0, R.PASS]
    st.apply(R.TAKE_0 + 0)
    assert list(st.collections[0]) == counts(4)
    assert st.taken[0] and st.current_player == 1


def test_take_now_decline():
    st = game(2, top=[4, 6], action_cards=["take_now"], start=0)
    draw_place(st, 0)
    st.apply(R.PASS)
    assert not st.taken[0] and st.current_player == 1 and st.slot_size[0] == 1
    # placing elsewhere gives no take_now decision
    draw_place(st, 1)
    assert st.phase == R.PH_TURN and st.current_player == 0
