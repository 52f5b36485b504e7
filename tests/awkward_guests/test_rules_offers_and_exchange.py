"""Awkward Guests offers and the exchange: who is asked to offer and in which order, which cards
may be offered, public bids, answering and paying (until covered, without cards promised or
received in the same exchange), simultaneous trades, the hand cap of 32, the no-offer draw,
and the two-player rule (received cards are read, noted and discarded).
"""

from __future__ import annotations

import pickle

import pytest

from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests.view import make_view

from .game_helpers import WRONG, all_card_ids, ask, game, padded_case, seen_ids, slot, v1, v3
from .scenario_helpers import (
    CARD0,
    HANDS3,
    NO,
    YES,
    S,
    T,
    W,
    build_case,
    case3,
    deck_for,
    engine,
    exchange_case,
    legal,
    make_bids,
    mask_set,
    new_env,
    pass_turn_unmatched,
    ref_act,
    spec_accuse,
    three,
)


def test_offer_order_from_next_seat_skipping_players_without_matching_card():
    # 5 players, seat 3 starts; seat 0 holds only kitchen fillers (no match)
    hands = [
        [0, 1, 2, 3, 4, 5],
        [6, 7, 8, 9, 10, 11],
        [12, 13, 14, 15, 16, 17],
        [18, 19, 20, 21, 22, 23],
        [24, 25, 26, 27, 28, 29],
    ]
    special = {
        6: S(6),
        12: W(12, "curtain_cord"),
        24: S(24),
        25: T(25, "berwick", "mortimer", "library"),
    }
    case = build_case(special, total=70)
    st = engine(case, 5, deck=deck_for(case, hands), start=3)
    st.apply(ref_act("study"))
    st.apply(ref_act("library"))
    order = []
    while st.decision_name == "offer":
        order.append(st.current_player)
        st.apply(NO)
    assert order == [4, 1, 2]


def test_offer_order_skips_players_who_are_out():
    # everything in the deck after the deal is a study card: in round 2 everybody can offer
    special = {cid: S(cid) for cid in range(24, 70)}
    case = build_case(special, total=70)
    st = engine(case, 4, deck=list(range(70)), start=0)
    for _ in range(4):
        pass_turn_unmatched(st, ["library", "shed"])  # nobody matches: everyone draws 3 study cards
    st.apply(NO)  # seat 0
    st.apply(NO)  # seat 1
    spec_accuse(st, WRONG)  # seat 2 is out
    st.apply(NO)  # seat 3
    assert st.out == [False, False, True, False]
    while st.decision_name == "solution":
        st.apply(NO)
    while st.decision_name == "discard":
        st.apply(min(legal(st)))
    assert st.start == 1 and st.active == 1  # start moved to the next seat still in
    st.apply(ref_act("study"))
    st.apply(ref_act("library"))
    order = []
    while st.decision_name == "offer":
        order.append(st.current_player)
        st.apply(NO)
    assert order == [3, 0]


def test_offer_mask_only_cards_naming_an_asked_reference():
    hands = [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11], [12, 13, 14, 15, 16, 17]]
    special = {
        6: S(6),  # study: no match
        7: T(7, "angelica", "stanley", "kitchen"),  # names angelica: match
        8: W(8, "curtain_cord"),  # library: match
        9: T(9, "berwick", "mortimer", "library"),  # library: match
        10: W(10, "wrench"),  # garage: no match
        11: T(11, "berwick", "claudette", "shed"),  # no match
    }
    case = build_case(special, total=40)
    st = engine(case, 3, deck=deck_for(case, hands), start=0)
    st.apply(ref_act("angelica"))
    st.apply(ref_act("library"))
    # seat 1 is first (seat 0's next seat); seat 2 holds fillers naming angelica? check below
    assert st.current_player == 1 and st.decision_name == "offer"
    expect = {slot(st, 1, c) for c in (7, 8, 9)} | {NO}
    assert legal(st) == expect and mask_set(st) == expect
    st.apply(slot(st, 1, 8))
    assert legal(st) == expect - {slot(st, 1, 8)}
    with pytest.raises(G.IllegalActionError):
        st.apply(slot(st, 1, 6))


def test_bids_are_public_value_and_count_but_not_cards():
    hands = [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11], [12, 13, 14, 15, 16, 17]]
    special = {6: S(6), 7: W(7, "curtain_cord"), 12: S(12)}
    case = build_case(special, total=40)
    env = new_env(case, 3, deck=deck_for(case, hands), start=0)
    st = env.game
    st.apply(ref_act("study"))
    st.apply(ref_act("library"))
    st.apply(slot(st, 1, 6))
    st.apply(slot(st, 1, 7))
    st.apply(NO)
    assert st.current_player == 2
    lay = env.observation_layout
    for obs_seat in (0, 2):
        view = env.player_view(f"player_{obs_seat}")
        assert [(b.seat, b.value, b.count) for b in view.bids] == [(1, 5, 2)]
        assert not {6, 7} & {c.id for c in view.notebook}
        obs = env.observe(f"player_{obs_seat}")["observation"]
        players = obs[lay["players"]].reshape(8, 13)
        j = (1 - obs_seat) % 3
        assert players[j, 7] == 1.0  # bid made
        assert players[j, 8] == pytest.approx(5 / 30)
        assert players[j, 9] == pytest.approx(2 / 32)


def test_exchange_payment_stops_when_covered_and_trades_are_simultaneous():
    case, deck = exchange_case()
    st = engine(case, 3, deck=deck, start=0)
    make_bids(st)
    assert legal(st) == {YES, NO}
    st.apply(YES)  # bid of seat 1, value 3
    assert st.decision_name == "pay"
    assert legal(st) == {CARD0 + i for i in range(6)}
    st.apply(slot(st, 0, 2))  # value 2: owed 1
    assert st.decision_name == "pay"
    assert slot(st, 0, 2) not in legal(st)
    st.apply(slot(st, 0, 3))  # value 1: covered -> next bid
    assert st.decision_name == "answer" and st.current_player == 0
    # nothing traded yet
    assert st.hand_ids(0) == [0, 1, 2, 3, 4, 5] and 6 in st.hand_ids(1)
    assert legal(st) == {YES, NO}  # 3 + 3 + 1 + 1 = 8 >= 5
    st.apply(YES)
    st.apply(slot(st, 0, 0))  # 3: owed 2
    assert st.decision_name == "pay"
    st.apply(slot(st, 0, 1))  # 3: covered (over-payment by 1 is allowed, then stop)
    assert st.decision_name == "inquiry" and st.active == 1  # all trades done, turn over
    assert st.hand_ids(0) == [4, 5, 6, 12, 13]
    assert st.hand_ids(1) == [2, 3, 7, 8, 9, 10, 11]
    assert st.hand_ids(2) == [0, 1, 14, 15, 16, 17]
    assert {6, 12, 13} <= seen_ids(st, 0)
    assert {2, 3} <= seen_ids(st, 1) and not {0, 1, 12, 13} & seen_ids(st, 1)
    assert {0, 1} <= seen_ids(st, 2) and not {2, 3, 6} & seen_ids(st, 2)
    # "seen by" (docs/envs/awkward_guests.md#observation-space, hand row 32–38; ruling R10): giver and receiver know each other saw the card
    v0 = make_view(st, 0)
    seen_by = {h.id: h.seen_by for h in v0.hand}
    assert seen_by[6] == (1,) and seen_by[12] == (2,) and seen_by[4] == ()
    v1 = make_view(st, 1)
    assert {h.id: h.seen_by for h in v1.hand}[2] == (0,)


def test_exchange_accept_a_subset_declined_bidder_keeps_cards():
    case, deck = exchange_case()
    st = engine(case, 3, deck=deck, start=0)
    make_bids(st)
    st.apply(NO)  # decline seat 1
    st.apply(YES)  # accept seat 2 (value 5)
    st.apply(slot(st, 0, 0))
    st.apply(slot(st, 0, 2))  # 3 + 2 = 5
    assert st.hand_ids(1) == [6, 7, 8, 9, 10, 11]
    assert not any(h.selected for h in make_view(st, 1).hand)
    assert st.hand_ids(0) == [1, 3, 4, 5, 12, 13]
    assert st.hand_ids(2) == [0, 2, 14, 15, 16, 17]
    assert 6 not in seen_ids(st, 0)


def test_yes_only_if_coverable_from_hand_without_cards_received_in_this_exchange():
    hands = [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11], [12, 13, 14, 15, 16, 17]]
    special = {6: S(6), 7: S(7), 12: W(12, "curtain_cord")}
    case = build_case(special, total=40)
    st = engine(case, 3, deck=deck_for(case, hands), start=0)  # seat 0: six value-1 cards
    st.apply(ref_act("study"))
    st.apply(ref_act("library"))
    st.apply(slot(st, 1, 6))
    st.apply(slot(st, 1, 7))
    st.apply(NO)  # value 6
    st.apply(slot(st, 2, 12))
    st.apply(NO)  # value 2
    assert legal(st) == {YES, NO}
    st.apply(YES)
    for _ in range(6):
        assert st.decision_name == "pay"
        st.apply(min(legal(st)))
    # the second bid cannot be covered any more: the two study cards (value 6) being received
    # in this exchange do not count
    assert st.decision_name == "answer"
    assert legal(st) == {NO} and mask_set(st) == {NO}
    with pytest.raises(G.IllegalActionError):
        st.apply(YES)


def test_nobody_offers_active_draws_three():
    case = build_case(total=60)
    deck = list(range(60))
    st = engine(case, 3, deck=deck, start=0)
    pass_turn_unmatched(st)
    assert st.hand_ids(0) == sorted(list(range(6)) + [18, 19, 20])
    assert seen_ids(st, 0) == set(range(6)) | {18, 19, 20}
    pass_turn_unmatched(st)
    assert st.hand_ids(1) == sorted(list(range(6, 12)) + [21, 22, 23])
    assert len(st.discard) == 0 and len(st.deck) == 60 - 24


def test_two_players_no_offer_draw_two_note_and_discard():
    case = build_case(total=40)
    st = engine(case, 2, deck=list(range(40)), start=0)
    pass_turn_unmatched(st)
    assert st.hand_ids(0) == list(range(6))
    assert {12, 13} <= seen_ids(st, 0) and not {12, 13} & seen_ids(st, 1)
    assert sorted(st.tables.ids[k] for k in st.discard) == [12, 13]
    assert len(st.deck) == 40 - 14


def _fat_hand_game(extra):
    """3 players; seat 0 holds 6 + ``extra`` value-1 cards; seat 1 holds four study cards."""
    special = {cid: S(cid) for cid in (6, 7, 8, 9)}
    case = build_case(special, total=80)
    st = engine(case, 3, deck=list(range(80)), start=0)
    for _ in range(extra):  # hand seat 0 more cards from the top of the deck (test set-up)
        st.hands[0].append(st.deck.pop())
        st.seen[0, st.hands[0][-1]] = True
    st.hands[0].sort()
    st.hand_version[0] += 1
    return st


def test_hand_cap_32_bid_that_could_overflow_cannot_be_accepted():
    # docs/rules/awkward_guests.md, ruling R6: "a bid ... that could take your hand past 32 cards cannot be accepted"
    st = _fat_hand_game(24)  # 30 cards
    st.apply(ref_act("study"))
    st.apply(ref_act("library"))
    assert st.current_player == 1
    four = st.clone()
    for c in (6, 7, 8, 9):
        four.apply(slot(four, 1, c))
    four.apply(NO)  # 4 cards: 30 - 1 (at least one card paid) + 4 = 33 > 32
    assert four.decision_name == "answer" and legal(four) == {NO}
    for c in (6, 7, 8):
        st.apply(slot(st, 1, c))
    st.apply(NO)  # 3 cards: at most 32
    assert legal(st) == {YES, NO}
    st.apply(YES)
    while st.decision_name == "pay":
        st.apply(min(legal(st)))
    assert len(st.hand_ids(0)) <= 32


def test_hand_cap_32_no_offer_draw_stops_at_32():
    st = _fat_hand_game(25)  # 31 cards
    pass_turn_unmatched(st, ["library", "shed"])
    assert len(st.hand_ids(0)) == 32


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
