"""Scripted rule scenarios on the pure Awkward Guests engine, with hand-built cases and fixed
deck orders (see ``game_helpers`` for the cards' known values)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G

from .game_helpers import (
    SOLUTION,
    SOLUTION_ACC,
    WRONG,
    accuse,
    all_card_ids,
    ask,
    game,
    go_on_until_discard,
    padded_case,
    pass_turn,
    seen_ids,
    slot,
    v1,
    v2,
    v3,
)

# Three hands for 3-player scenarios. Asked refs "greg" + "kitchen":
#   seat 0: nothing matters (the active player)
#   seat 1: only card 11 (frying pan → kitchen) matches
#   seat 2: cards 21 (greg) and 22 (kitchen knife → kitchen) match
SPECIAL = [
    v3(1, "burn_marks"),
    v1(2, "angelica", "berwick", "library"),
    v1(3, "angelica", "claudette", "library"),
    v2(4, "wrench"),
    v2(5, "shovel"),
    v1(6, "berwick", "claudette", "vestibule"),
    v2(11, "frying_pan"),
    v3(12, "dark_powder"),
    v3(13, "cyanosis_bruises"),
    v2(14, "cue"),
    v1(15, "angelica", "mortimer", "library"),
    v1(16, "berwick", "mortimer", "vestibule"),
    v1(21, "greg", "stanley", "library"),
    v2(22, "kitchen_knife"),
    v3(23, "traces_of_dirt"),
    v3(24, "strong_odors"),
    v2(25, "shotgun"),
    v1(26, "claudette", "mortimer", "billiard_room"),
    v3(31, "heavy_bleeding"),
    v3(32, "oily_substance"),
    v3(33, "signs_of_fight"),
]
HANDS3 = [[1, 2, 3, 4, 5, 6], [11, 12, 13, 14, 15, 16], [21, 22, 23, 24, 25, 26]]


def case3(level: str = "easy", total: int = 60):
    return padded_case(SPECIAL, total=total, level=level)


def three(top=None, level="easy", **kw) -> G.GuestsState:
    return game(case3(level), 3, HANDS3, top=top, **kw)


# -- setup ------------------------------------------------------------------------------------


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


# -- offers and the exchange ------------------------------------------------------------------


def test_two_bids_one_accepted_and_paid_by_overpaying():
    st = three()
    ask(st, "greg", "kitchen")
    # seat 1: only the frying pan card (kitchen) may be offered
    assert st.legal_actions() == [slot(st, 1, 11), A.NO]
    st.apply(slot(st, 1, 11))
    assert st.legal_actions() == [A.NO]  # a card cannot be chosen twice
    st.apply(A.NO)
    # seat 2: the greg card and the kitchen knife; offers the greg card only
    assert st.current_player == 2
    assert st.legal_actions() == [slot(st, 2, 21), slot(st, 2, 22), A.NO]
    st.apply(slot(st, 2, 21))
    st.apply(A.NO)
    assert [(b.seat, b.value, b.count) for b in st.bids] == [(1, 2, 1), (2, 1, 1)]
    # exchange: seat 0 answers the bids in seat order
    assert st.decision == G.D_ANSWER and st.current_player == 0 and st.answering == 0
    assert st.legal_actions() == [A.YES, A.NO]
    st.apply(A.YES)
    assert st.decision == G.D_PAY and st.owed == 2
    st.apply(slot(st, 0, 1))  # a value-3 card covers the value-2 bid: payment stops
    assert st.decision == G.D_ANSWER and st.answering == 1
    st.apply(A.NO)  # decline seat 2's bid
    # all trades happen at once; the next player's turn starts
    assert st.hand_ids(0) == [2, 3, 4, 5, 6, 11]
    assert st.hand_ids(1) == [1, 12, 13, 14, 15, 16]
    assert st.hand_ids(2) == HANDS3[2]
    assert st.selected == [set(), set(), set()]
    assert 11 in seen_ids(st, 0) and 1 in seen_ids(st, 1)
    assert 11 not in seen_ids(st, 2) and 1 not in seen_ids(st, 2) and 21 not in seen_ids(st, 0)
    k11, k1 = st.tables.index[11], st.tables.index[1]
    assert st.known[0, k11] == 0b011 and st.known[1, k1] == 0b011  # giver and receiver
    assert st.known[2, k11] == 0 and st.known[2, k1] == 0
    assert st.active == 1 and st.decision == G.D_INQUIRY and st.bids == []


def test_payment_continues_until_the_bid_is_covered():
    st = three()
    ask(st, "greg", "kitchen")
    st.apply(slot(st, 1, 11))
    st.apply(A.NO)  # bid value 2
    st.apply(A.NO)  # seat 2: no bid
    st.apply(A.YES)
    st.apply(slot(st, 0, 2))  # value 1: still owes 1
    assert st.decision == G.D_PAY and st.owed == 1
    assert slot(st, 0, 2) not in st.legal_actions()  # already promised
    st.apply(slot(st, 0, 4))  # value 2: covered (overpaid by 1)
    assert st.active == 1 and st.decision == G.D_INQUIRY
    assert sorted(st.hand_ids(1)) == [2, 4, 12, 13, 14, 15, 16]
    assert len(st.hands[0]) == 5


def test_unaffordable_bid_is_masked_out():
    # seat 0 holds six value-1 cards (total 6); seat 1 bids three value-3 cards (9)
    special = [
        v1(1, "angelica", "berwick", "library"),
        v1(2, "angelica", "claudette", "library"),
        v1(3, "angelica", "mortimer", "library"),
        v1(4, "berwick", "claudette", "library"),
        v1(5, "berwick", "mortimer", "library"),
        v1(6, "claudette", "mortimer", "library"),
        v3(11, "burn_marks"),
        v3(12, "dark_powder"),
        v3(13, "heavy_bleeding"),
        v1(14, "angelica", "berwick", "vestibule"),
        v1(15, "angelica", "claudette", "vestibule"),
        v1(16, "angelica", "mortimer", "vestibule"),
    ]
    case = padded_case(special, total=40)
    st = game(case, 2, [[1, 2, 3, 4, 5, 6], [11, 12, 13, 14, 15, 16]])
    ask(st, "study", "greg", "stanley", "garage")
    for c in (11, 12, 13):
        st.apply(slot(st, 1, c))
    st.apply(A.NO)
    assert st.bids[0].value == 9 and st.hand_value(0) == 6
    assert st.legal_actions() == [A.NO]
    assert not st.legal_mask()[A.YES]
    before = pickle.dumps(st)
    with pytest.raises(G.IllegalActionError, match="legal: \\['NO'\\]"):
        st.apply(A.YES)
    assert pickle.dumps(st) == before
    st.apply(A.NO)
    assert st.active == 1


def test_cards_promised_to_an_earlier_bid_do_not_count_for_a_later_one():
    st = three()
    ask(st, "greg", "kitchen")
    st.apply(slot(st, 1, 11))
    st.apply(A.NO)  # seat 1 bids 2
    st.apply(slot(st, 2, 21))
    st.apply(slot(st, 2, 22))
    st.apply(A.NO)  # seat 2 bids 1 + 2 = 3
    st.apply(A.YES)
    # pay seat 1 with cards worth 1 + 1 + 2 + ... : choose 2, 3 (value 2: covered)
    st.apply(slot(st, 0, 2))
    st.apply(slot(st, 0, 3))
    # left unpromised: 1 (3), 4 (2), 5 (2), 6 (1) = 8 >= 3: accepting is legal
    assert A.YES in st.legal_actions()
    st.apply(A.YES)
    assert {A.CARD_0 + i for i in (1, 2)}.isdisjoint(st.legal_actions())  # promised slots
    st.apply(slot(st, 0, 1))  # value 3 covers 3
    assert st.hand_ids(0) == [4, 5, 6, 11, 21, 22]
    assert st.hand_ids(1) == [2, 3, 12, 13, 14, 15, 16]
    assert st.hand_ids(2) == [1, 23, 24, 25, 26]


def test_a_bid_that_could_take_a_hand_past_32_cards_is_masked():
    st = three()
    ask(st, "greg", "kitchen")
    st.apply(slot(st, 1, 11))
    st.apply(A.NO)
    st.apply(slot(st, 2, 21))
    st.apply(slot(st, 2, 22))
    st.apply(A.NO)
    assert A.YES in st.legal_actions()
    # give the active player 32 cards (from the deck): 32 - 1 paid + 1 received = 32 is fine
    while len(st.hands[0]) < 32:
        st.hands[0].append(st.deck.pop())
    st.hands[0].sort()
    assert A.YES in st.legal_actions()  # bid 1: one card in, at least one out
    st.apply(A.YES)
    st.apply(slot(st, 0, 1))
    # bid 2 brings 2 cards: 32 - 1 - 1 + 1 + 2 = 33 > 32
    assert st.legal_actions() == [A.NO]


def test_offers_only_cards_naming_an_asked_ref_and_players_without_one_are_skipped():
    st = three(top=[31, 32, 33])  # seat 0 will draw these (they name the study only)
    ask(st, "greg", "study")  # seat 1 holds 12, 13 (study); seat 2 holds 21 (greg), 23, 24
    assert st.current_player == 1
    assert st.legal_actions() == [slot(st, 1, 12), slot(st, 1, 13), A.NO]
    st.apply(A.NO)
    assert st.legal_actions() == [slot(st, 2, 21), slot(st, 2, 23), slot(st, 2, 24), A.NO]
    st.apply(A.NO)
    # next turn (seat 1 asks "garage" + "shed"): seat 2 holds no card naming either -> skipped
    assert st.active == 1
    ask(st, "garage", "shed")
    assert st.current_player == 0  # seat 0 holds 4 (wrench, garage) and 5 (shovel, shed)
    assert st.legal_actions() == [slot(st, 0, 4), slot(st, 0, 5), A.NO]
    st.apply(A.NO)
    assert st.decision == G.D_INQUIRY and st.active == 2  # seat 2 was never asked


def test_nobody_offers_the_active_player_draws_three():
    st = three(top=[31, 32, 33])
    ask(st, "greg", "kitchen")
    st.apply(A.NO)
    st.apply(A.NO)  # no bids at all
    assert st.hand_ids(0) == [1, 2, 3, 4, 5, 6, 31, 32, 33]
    assert {31, 32, 33} <= seen_ids(st, 0)
    assert not {31, 32, 33} & (seen_ids(st, 1) | seen_ids(st, 2))
    assert st.active == 1


def test_declined_bids_leave_everything_in_place_and_no_draw():
    st = three(top=[31, 32, 33])
    ask(st, "greg", "kitchen")
    st.apply(slot(st, 1, 11))
    st.apply(A.NO)
    st.apply(A.NO)
    st.apply(A.NO)  # decline the only bid: no trade and no draw
    assert [st.hand_ids(p) for p in range(3)] == HANDS3
    assert st.card_id(st.deck[-1]) == 31


# -- two players --------------------------------------------------------------------------------


def test_two_players_read_note_and_discard_received_cards():
    case = case3()
    st = game(case, 2, HANDS3[:2], top=[31, 32, 33])
    assert st.legal_actions() == list(range(16))
    ask(st, "greg", "kitchen", "study", "library")  # four references with two players
    assert st.decision == G.D_OFFER and st.current_player == 1
    st.apply(slot(st, 1, 11))
    st.apply(slot(st, 1, 15))
    st.apply(A.NO)  # bid 2 + 1 = 3
    st.apply(A.YES)
    st.apply(slot(st, 0, 1))  # value 3
    # both directions: read, noted, discarded at once
    assert st.hand_ids(0) == [2, 3, 4, 5, 6]
    assert st.hand_ids(1) == [12, 13, 14, 16]
    assert sorted(st.card_id(k) for k in st.discard) == [1, 11, 15]
    assert {11, 15} <= seen_ids(st, 0) and 1 in seen_ids(st, 1)
    assert st.known[0, st.tables.index[11]] == 0b11
    assert all_card_ids(st) == sorted(c.id for c in case.cards)
    # seat 1's turn: no offer -> draw 2, note them, discard them
    assert st.active == 1
    ask(st, "greg", "stanley", "mortimer", "angelica")
    assert st.decision == G.D_OFFER
    st.apply(A.NO)
    assert st.hand_ids(1) == [12, 13, 14, 16]
    assert {31, 32} <= seen_ids(st, 1) and not {31, 32} & seen_ids(st, 0)
    assert sorted(st.card_id(k) for k in st.discard) == [1, 11, 15, 31, 32]
    assert st.decision == G.D_SOLUTION and st.current_player == 0


# -- the Solution phase -------------------------------------------------------------------------


def _to_solution_phase(st: G.GuestsState) -> None:
    while st.decision != G.D_SOLUTION:
        pass_turn(st)


def test_wrong_accusation_reveals_the_hand_and_a_new_solution_phase_starts_at_once():
    st = three()
    _to_solution_phase(st)
    assert st.current_player == 0 and st.decision == G.D_SOLUTION
    hand0 = st.hand_ids(0)
    accuse(st, WRONG)
    assert st.current_player == 1  # nothing changes for the others until all decided
    st.apply(A.NO)
    st.apply(A.NO)
    assert st.out == [True, False, False] and st.newly_out == [0]
    assert st.hands[0] == []
    assert sorted(st.card_id(k) for k in st.revealed) == sorted(hand0)
    for p in (1, 2):
        assert set(hand0) <= seen_ids(st, p)
        for c in hand0:
            assert st.known[p, st.tables.index[c]] == 0b111
    # a new Solution phase for the two left, from the start player on (seat 0 is out)
    assert st.decision == G.D_SOLUTION and st.current_player == 1
    assert st.returns() == [-0.5, 0.0, 0.0]
    st.apply(A.NO)
    st.apply(A.NO)
    assert st.decision == G.D_DISCARD  # nobody accused: the round goes on
    assert all_card_ids(st) == sorted(c.id for c in st.case.cards)


def test_two_correct_accusers_share_the_win():
    st = three()
    _to_solution_phase(st)
    accuse(st, SOLUTION)
    st.apply(A.NO)
    accuse(st, SOLUTION)
    assert st.is_terminal and st.result == "win" and st.winners == [0, 2]
    assert st.returns() == pytest.approx([0.25, -0.5, 0.25])
    assert st.scores() == [1, 0, 1]
    assert st.legal_actions() == [] and not st.legal_mask().any()
    with pytest.raises(G.IllegalActionError, match="'over'"):
        st.apply(A.YES)


def test_correct_and_wrong_accusers_in_one_phase():
    st = three()
    _to_solution_phase(st)
    accuse(st, WRONG)
    accuse(st, SOLUTION)
    st.apply(A.NO)
    assert st.result == "win" and st.winners == [1]
    assert st.returns() == pytest.approx([-0.5, 1.0, -0.5])


def test_last_player_left_wins():
    st = three()
    _to_solution_phase(st)
    accuse(st, WRONG)
    accuse(st, WRONG)
    st.apply(A.NO)
    assert st.result == "win" and st.winners == [2] and st.out == [True, True, False]
    assert st.returns() == pytest.approx([-0.5, -0.5, 1.0])
    assert sum(st.returns()) == pytest.approx(0.0)


def test_everyone_left_accusing_wrongly_is_a_draw_among_them():
    case = case3()
    st = game(case, 4, HANDS3 + [[41, 42, 43, 44, 45, 46]])
    _to_solution_phase(st)
    accuse(st, WRONG)  # seat 0
    for _ in range(3):
        st.apply(A.NO)
    assert st.out == [True, False, False, False]
    for _ in range(3):  # the new phase: everybody left accuses wrongly
        accuse(st, WRONG)
    assert st.is_terminal and st.result == "draw" and st.winners == []
    r = st.returns()
    assert r == pytest.approx([-1 / 3, 1 / 9, 1 / 9, 1 / 9]) and sum(r) == pytest.approx(0)


def test_accusation_steps_at_medium_include_the_accomplice():
    st = three(level="medium")
    _to_solution_phase(st)
    st.apply(A.YES)
    assert st.decision == G.D_MURDERER
    assert st.legal_actions() == [A.SUSPECT_0 + s for s in range(6)]
    st.apply(A.suspect_action("greg"))
    assert st.legal_actions() == [
        A.motive_action(m) for m in ("stolen_recipe", "fixed_fights", "animal_cruelty")
    ]
    st.apply(A.motive_action("stolen_recipe"))
    assert st.decision == G.D_WEAPON and len(st.legal_actions()) == 20
    st.apply(A.weapon_action("wrench"))
    assert st.decision == G.D_ACCOMPLICE
    legal = st.legal_actions()
    assert A.suspect_action("greg") not in legal and A.NO_ACCOMPLICE in legal and len(legal) == 6
    st.apply(A.suspect_action("angelica"))
    assert st.legal_actions() == [
        A.motive_action(m) for m in ("poisoned_chalice", "extreme_principles", "sinister_plans")
    ]
    st.apply(A.motive_action("poisoned_chalice"))  # = SOLUTION_ACC
    assert st.current_player == 1
    accuse(st, SOLUTION)  # right murderer, motive and weapon, but no accomplice named: wrong
    st.apply(A.NO)
    assert st.result == "win" and st.winners == [0]


def test_below_medium_there_is_no_accomplice_step():
    st = three(level="easy")
    _to_solution_phase(st)
    st.apply(A.YES)
    st.apply(A.suspect_action("greg"))
    st.apply(A.motive_action("stolen_recipe"))
    st.apply(A.weapon_action("wrench"))
    assert st.decision == G.D_SOLUTION and st.current_player == 1
    assert SOLUTION_ACC != SOLUTION


# -- the Discard phase, refill, reshuffle, round limit -------------------------------------------


def test_discard_down_to_three_then_the_start_player_moves_and_everyone_refills():
    st = three(top=[31, 32, 33])
    pass_turn(st)  # seat 0: nobody offers -> draws 31, 32, 33 (9 cards)
    pass_turn(st)
    pass_turn(st)
    go_on_until_discard(st)
    assert st.decision == G.D_DISCARD and st.current_player == 0
    assert len(st.hands[0]) == 9
    for i in range(5):
        st.apply(A.CARD_0 + i)
        assert st.decision == G.D_DISCARD and st.current_player == 0
        assert st.legal_actions() == [A.CARD_0 + j for j in range(i + 1, 9)]
    assert st.hands[0] and len(st.selected[0]) == 5 and not st.discard
    st.apply(A.CARD_0 + 8)  # 6 chosen: 3 remain -> discarded
    assert st.hand_ids(0) == [6, 31, 32]
    assert sorted(st.card_id(k) for k in st.discard) == [1, 2, 3, 4, 5, 33]
    assert not st.selected[0]
    assert st.current_player == 1
    while st.decision == G.D_DISCARD:
        st.apply(st.legal_actions()[0])
    assert st.round == 2 and st.start == 1 and st.active == 1 and st.decision == G.D_INQUIRY
    assert [len(h) for h in st.hands] == [6, 6, 6]
    assert all_card_ids(st) == sorted(c.id for c in st.case.cards)


def test_reshuffle_reveals_three_cards_to_everyone():
    case = case3(total=24)  # 18 dealt, 6 in the deck
    st = game(case, 3, HANDS3, seed=5)
    pass_turn(st)  # seat 0 draws 3 (deck 3)
    pass_turn(st)  # seat 1 draws 3 (deck 0)
    pass_turn(st)  # seat 2: deck and discard pile empty -> draws nothing
    assert [len(h) for h in st.hands] == [9, 9, 6] and not st.deck and not st.discard
    go_on_until_discard(st)
    while st.decision == G.D_DISCARD:
        st.apply(st.legal_actions()[0])
    # 15 cards were discarded; the refill found the deck empty: reshuffle, reveal 3
    assert len(st.revealed) == 3 and not st.discard
    assert [len(h) for h in st.hands] == [6, 6, 6] and len(st.deck) == 3
    shown = {st.card_id(k) for k in st.revealed}
    for p in range(3):
        assert shown <= seen_ids(st, p)
        for k in st.revealed:
            assert st.known[p, k] == 0b111
    assert all_card_ids(st) == sorted(c.id for c in case.cards)


def test_reshuffle_is_reproducible_from_the_seed_and_survives_cloning():
    case = case3(total=24)

    def play(seed):
        st = game(case, 3, HANDS3, seed=seed)
        for _ in range(3):
            pass_turn(st)
        go_on_until_discard(st)
        copy_ = st.clone()
        while st.decision == G.D_DISCARD:
            st.apply(st.legal_actions()[0])
        while copy_.decision == G.D_DISCARD:
            copy_.apply(copy_.legal_actions()[0])
        assert copy_.revealed == st.revealed and copy_.deck == st.deck
        return st.revealed

    assert play(1) == play(1)


def test_truncation_at_the_round_limit():
    st = three(max_rounds=1)
    _to_solution_phase(st)
    go_on_until_discard(st)
    assert st.is_terminal and st.result == "truncated" and st.truncated
    assert st.returns() == [0.0, 0.0, 0.0] and st.winners == []


def test_truncation_pays_the_players_still_in_what_the_out_players_lost():
    st = three(max_rounds=2)
    _to_solution_phase(st)
    go_on_until_discard(st)
    while st.decision == G.D_DISCARD:
        st.apply(st.legal_actions()[0])
    assert st.round == 2
    _to_solution_phase(st)
    assert st.current_player == 1  # the start player moved on
    accuse(st, WRONG)
    st.apply(A.NO)
    st.apply(A.NO)
    st.apply(A.NO)
    st.apply(A.NO)  # the new phase: nobody accuses -> the round limit
    assert st.result == "truncated"
    assert st.returns() == pytest.approx([0.25, -0.5, 0.25])


# -- solo ---------------------------------------------------------------------------------------


def _solo(top, **kw):
    return game(case3(), 1, [HANDS3[0]], top=top, **kw)


def test_solo_deck_bid_from_the_top_five_accept_and_pay():
    # top 5: 11 (kitchen), 12 (study), 21 (greg), 13 (study), 14 (billiard room)
    st = _solo([11, 12, 21, 13, 14])
    ask(st, "greg", "kitchen", "angelica", "trophy_room")
    assert st.decision == G.D_ANSWER and len(st.bids) == 1
    bid = st.bids[0]
    assert bid.seat == G.DECK_SEAT and (bid.value, bid.count) == (3, 2)
    assert sorted(st.card_id(k) for k in st.table) == [11, 21]
    # the three non-matching cards went to the bottom, in their order (12 drawn first again)
    assert [st.card_id(k) for k in st.deck[:3]] == [14, 13, 12]
    st.apply(A.YES)
    st.apply(slot(st, 0, 1))  # value 3
    assert st.hand_ids(0) == [2, 3, 4, 5, 6]
    assert sorted(st.card_id(k) for k in st.discard) == [1, 11, 21]
    assert {11, 21} <= seen_ids(st, 0) and not st.table
    assert st.decision == G.D_SOLUTION
    assert all_card_ids(st) == sorted(c.id for c in st.case.cards)


def test_solo_declined_bid_goes_to_the_bottom_and_no_match_draws_two():
    st = _solo([11, 12, 13, 14, 15, 31, 32, 33, 23, 24, 22, 21, 25])
    ask(st, "kitchen", "stanley", "shed", "garage")  # only 11 matches
    st.apply(A.NO)
    assert [st.card_id(k) for k in st.deck[:5]] == [11, 15, 14, 13, 12]
    assert 11 not in seen_ids(st, 0)
    go_on_until_discard(st)
    for i in range(3):  # discard 1, 2, 3; keep 4, 5, 6
        st.apply(A.CARD_0 + i)
    # round 2: refill from the top (31, 32, 33)
    assert st.round == 2 and st.decision == G.D_INQUIRY
    assert st.hand_ids(0) == [4, 5, 6, 31, 32, 33]
    ask(st, "berwick", "bedroom", "vestibule", "billiard_room")
    # no card among the top 5 names those: they go to the bottom, then draw 2, note, discard
    assert st.decision == G.D_SOLUTION
    assert len(st.discard) == 5
    drawn = {st.card_id(k) for k in st.discard[3:]}
    assert len(drawn) == 2 and drawn <= seen_ids(st, 0)
    assert not {21, 22, 23, 24, 25} & seen_ids(st, 0)  # looked at by the deck, not by the player
    assert [st.card_id(k) for k in st.deck[:5]] == [25, 21, 22, 24, 23]
    assert st.hand_ids(0) == [4, 5, 6, 31, 32, 33]


def test_solo_win_and_wrong_accusation():
    st = _solo([11, 12, 13, 14, 15])
    pass_turn(st)
    st.apply(A.NO)  # round 1: go on
    for i in range(3):
        st.apply(A.CARD_0 + i)
    assert st.decision == G.D_INQUIRY and st.round == 2
    pass_turn(st)
    accuse(st, SOLUTION)
    assert st.result == "win" and st.winners == [0]
    assert st.returns() == pytest.approx([1 - 0.02])
    st = _solo([11, 12, 13, 14, 15])
    pass_turn(st)
    accuse(st, WRONG)
    assert st.result == "loss" and st.returns() == [-1.0] and st.winners == []


def test_solo_truncation_pays_zero():
    st = _solo([11, 12, 13, 14, 15], max_rounds=1)
    pass_turn(st)
    st.apply(A.NO)  # no Discard phase after the last round
    assert st.result == "truncated" and st.returns() == [0.0]


# -- bad input ----------------------------------------------------------------------------------


def test_bad_deck_and_start_options():
    case = case3()
    cfg = G.GuestsConfig(3)
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="deck"):
        G.new_game(cfg, case, rng, deck=[1, 2, 3])
    with pytest.raises(ValueError, match="deck"):
        G.new_game(cfg, case, rng, deck=[c.id for c in case.cards][:-1] + [999])
    with pytest.raises(ValueError, match="start"):
        G.new_game(cfg, case, rng, start=3)
    for bad in (0, 9, "2", True):
        with pytest.raises(ValueError, match="num_players"):
            G.GuestsConfig(bad)
    with pytest.raises(ValueError, match="max_rounds"):
        G.GuestsConfig(2, 0)


def test_illegal_actions_raise_and_leave_the_state_unchanged():
    st = three()
    ask(st, "greg", "kitchen")
    st.apply(slot(st, 1, 11))
    for bad in [a for a in range(A.NUM_ACTIONS) if a not in st.legal_actions()] + [-1, 95, 1.0]:
        before = pickle.dumps(st)
        with pytest.raises(G.IllegalActionError, match="illegal action"):
            st.apply(bad)
        assert pickle.dumps(st) == before
