"""Awkward Guests setup and turn order: dealing in blocks of 6 (sorted hands, dealt cards in the
notebook), the start seat, the inquiry (2 references; 4 with 1–2 players), and the seat order
of turns, Solution and Discard phases from the start player (who moves on each round).
"""

from __future__ import annotations

import numpy as np
import pytest

from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G

from .game_helpers import seen_ids
from .scenario_helpers import (
    HANDS3,
    NO,
    NOMATCH4,
    REF0,
    build_case,
    engine,
    legal,
    mask_set,
    pass_turn_unmatched,
    ref_act,
    three,
)


def test_deal_in_blocks_sorted_hands_and_initial_notebooks():
    case = build_case(total=40)
    deck = [int(x) for x in np.random.default_rng(3).permutation(40)]
    st = engine(case, 3, deck=deck, start=1)
    for p in range(3):
        assert st.hand_ids(p) == sorted(deck[6 * p : 6 * p + 6])
        assert seen_ids(st, p) == set(deck[6 * p : 6 * p + 6])
    assert len(st.deck) == 40 - 18
    assert st.start == 1 and st.active == 1 and st.current_player == 1
    assert st.decision_name == "inquiry"
    # the next card drawn is deck[18]: seat 1 asks what nobody has, draws 3 from the top
    pass_turn_unmatched(st)
    assert st.hand_ids(1) == sorted(deck[6:12] + deck[18:21])


def test_inquiry_two_distinct_refs_three_players_four_with_one_or_two():
    for n, k in ((1, 4), (2, 4), (3, 2), (8, 2)):
        case = build_case(total=60)
        st = engine(case, n, start=0)
        asked = []
        for i in range(k):
            assert st.decision_name == "inquiry" and st.current_player == 0
            expect = {REF0 + r for r in range(16)} - {ref_act(x) for x in asked}
            assert legal(st) == expect and mask_set(st) == expect
            asked.append(NOMATCH4[i])
            st.apply(ref_act(NOMATCH4[i]))
        # after k refs the inquiry is over (nobody matches: the turn ends with a draw)
        if n == 1:
            assert st.decision_name == "solution"
        else:
            assert st.decision_name == "inquiry" and st.active == 1 and not st.asked


def test_turns_and_solution_phase_in_seat_order_from_start_player():
    case = build_case(total=70)
    st = engine(case, 4, start=2)
    actives = []
    for _ in range(4):
        assert st.decision_name == "inquiry"
        actives.append(st.active)
        pass_turn_unmatched(st)
    assert actives == [2, 3, 0, 1]
    deciders = []
    while st.decision_name == "solution":
        deciders.append(st.current_player)
        st.apply(NO)
    assert deciders == [2, 3, 0, 1]
    discarders = []
    while st.decision_name == "discard":
        if st.current_player not in discarders:
            discarders.append(st.current_player)
        st.apply(min(legal(st)))
    assert discarders == [2, 3, 0, 1]
    assert st.round == 2 and st.start == 3
    actives = []
    for _ in range(4):
        actives.append(st.active)
        pass_turn_unmatched(st)
    assert actives == [3, 0, 1, 2]


def test_deal_in_blocks_and_start_seat():
    st = three(top=[31, 32, 33], start=2)
    assert [st.hand_ids(p) for p in range(3)] == HANDS3
    assert st.current_player == 2 and st.active == 2 and st.decision == G.D_INQUIRY
    assert st.card_id(st.deck[-1]) == 31  # the top of the deck
    for p in range(3):
        assert seen_ids(st, p) == set(HANDS3[p])  # dealt cards are in the notebook
    assert len(st.deck) == 60 - 18


def test_inquiry_names_two_different_refs_then_offers_start_at_the_next_seat():
    st = three()
    legal = st.legal_actions()
    assert legal == list(range(A.NUM_REFS))
    st.apply(A.ref_action("greg"))
    assert A.ref_action("greg") not in st.legal_actions()
    with pytest.raises(G.IllegalActionError):
        st.apply(A.ref_action("greg"))
    st.apply(A.ref_action("kitchen"))
    assert st.decision == G.D_OFFER and st.current_player == 1
