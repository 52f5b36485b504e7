"""Scripted rule scenarios on the pure Audition engine, with fixed deck orders."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from parlour.envs.audition import rules as R
from tests.audition.helpers import (
    choose,
    counts,
    deck_with_top,
    draw_place,
    game,
    simple_policy,
    take,
)


def test_deck_composition_per_player_count():
    for n, top in R.TOP_NUMBER.items():
        deck = R.full_deck(n)
        assert len(deck) == top * (top + 1) // 2 == R.AuditionConfig(n).num_cards
        for k in range(1, top + 1):
            assert deck.count(k) == k
    assert len(R.full_deck(2)) == 45 and len(R.full_deck(6)) == 91


def test_fixed_deck_is_dealt_top_first_and_start_seat_honoured():
    st = game(3, top=[7, 1, 10], start=2)
    assert st.current_player == 2
    assert draw_place(st, 0) == 7
    assert st.current_player == 0
    assert draw_place(st, 1) == 1
    assert draw_place(st, 2) == 10


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


def _burn(st: R.AuditionState, leave: int) -> None:
    """Hand-built mid-game state: move cards from the deck into the players' collections
    (dealt round-robin, public) until ``leave`` cards remain; nothing else changes."""
    p = 0
    while len(st.deck) > leave:
        st.collections[p, st.deck.pop()] += 1
        p = (p + 1) % st.num_players
    st.refresh()


def test_deck_runs_out_mid_round_final_phase_order_and_take_none():
    st = game(4, start=0)
    _burn(st, 3)
    draw_place(st, 0)  # p0
    take(st, 0)  # p1 takes slot 0
    draw_place(st, 1)  # p2
    st.apply(R.DRAW)  # p3 draws the last card
    assert st.deck == [] and not st.in_final  # the current action finishes first
    assert st.phase == R.PH_PLACE and st.current_player == 3
    st.apply(R.PLACE_0 + 1)
    assert st.in_final and st.phase == R.PH_FINAL
    seen = []
    while not st.is_terminal:
        seen.append(st.current_player)
        legal = st.legal_actions()
        assert legal == [R.TAKE_0 + 1, R.PASS]  # slot 1 (2 cards); empty slots can't be taken
        before = st.collections.copy()
        st.apply(R.PASS)  # take none
        assert (st.collections == before).all()
    # after the emptier (p3), in turn order, skipping p1 who took a slot, ending with p3
    assert seen == [0, 2, 3]


def test_final_phase_take_collects_and_leftovers_are_not_scored():
    st = game(3, start=0)
    _burn(st, 2)
    draw_place(st, 0)  # p0
    draw_place(st, 1)  # p1 empties the deck
    assert st.in_final and st.current_player == 2
    c2 = st.collections[2].copy()
    card1 = int(np.flatnonzero(st.slots[1])[0])
    take(st, 1)  # p2 takes slot 1
    assert st.collections[2][card1] == c2[card1] + 1
    assert st.current_player == 0
    assert st.legal_actions() == [R.TAKE_0 + 0, R.PASS]
    st.apply(R.PASS)
    assert st.current_player == 1
    st.apply(R.PASS)
    assert st.is_terminal and st.legal_actions() == [] and st.current_player == -1
    assert st.slot_size[0] == 1  # left on the table ...
    assert st.scores() == [R.score_counts(st.collections[p])[0] for p in range(3)]  # ... unscored


def test_round_ending_with_empty_deck_ends_the_game():
    st = game(2, action_cards=["draw_one"], start=0)
    _burn(st, 3)
    draw_place(st, 1)  # p0 (2 left)
    take(st, 1)  # p1
    draw_place(st, 0)  # p0 alone, on draw_one (1 left)
    before = int(st.collections[0].sum())
    take(st, 0)  # p0 takes draw_one: +1 musician and the last card; the round is complete
    assert st.deck == [] and int(st.collections[0].sum()) == before + 2
    assert st.is_terminal


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


# ----------------------------------------------------------------------------- variant 1


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


def test_draw_one_emptying_the_deck_starts_the_final_phase():
    st = game(3, action_cards=["draw_one"], start=0)
    _burn(st, 2)
    draw_place(st, 0)  # p0 (1 left)
    take(st, 0)  # p1 takes draw_one and draws the last card
    assert st.deck == [] and st.in_final and st.phase == R.PH_FINAL
    order = []
    while not st.is_terminal:
        order.append(st.current_player)
        st.apply(R.PASS)
    assert order == [2, 0]  # after the taker; the taker has a slot and is not asked


def test_draw_one_with_an_empty_deck_does_nothing():
    st = game(2, action_cards=["draw_one"], start=0)
    _burn(st, 1)
    draw_place(st, 0)  # p0 places the last card on draw_one
    assert st.in_final and st.current_player == 1
    before = int(st.collections[1].sum())
    take(st, 0)  # an action card taken now still acts, but the deck is empty
    assert int(st.collections[1].sum()) == before + 1
    assert st.current_player == 0 and st.legal_actions() == [R.PASS]  # slot 1 is empty
    st.apply(R.PASS)
    assert st.is_terminal


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


def test_take_now_decision_when_the_last_card_is_placed():
    st = game(2, action_cards=["take_now"], start=0)
    _burn(st, 1)
    draw_place(st, 0)  # p0 places the last card on take_now
    assert st.phase == R.PH_TAKE_NOW and not st.in_final  # the action finishes first
    st.apply(R.TAKE_0 + 0)
    assert st.taken[0] and st.in_final and st.current_player == 1  # p0 took: not asked
    assert st.legal_actions() == [R.PASS]
    st.apply(R.PASS)
    assert st.is_terminal


def test_random_number_of_action_cards_is_seeded():
    cfg = R.AuditionConfig(5, 3)
    a = R.new_game(cfg, np.random.default_rng(11))
    b = R.new_game(cfg, np.random.default_rng(11))
    assert a.slot_kinds == b.slot_kinds
    assert sum(k != R.K_CONDUCTOR for k in a.slot_kinds) == 3
    assert len({k for k in a.slot_kinds if k != R.K_CONDUCTOR}) == 3
    kinds = {tuple(R.new_game(cfg, np.random.default_rng(s)).slot_kinds) for s in range(30)}
    assert len(kinds) > 5


def test_action_card_list_takes_slots_in_order():
    st = game(4, action_cards=["take_now", "max_two"])
    assert [R.SLOT_KINDS[k] for k in st.slot_kinds] == [
        "take_now",
        "max_two",
        "conductor",
        "conductor",
    ]


# ----------------------------------------------------------------------------- variant 2


def test_uncertain_counts_removes_the_last_five_unseen():
    deck = deck_with_top(2, [9, 8, 7])
    st = game(2, uncertain=True, deck=deck)
    assert len(st.deck) == 40 and sorted(st.removed) == sorted(deck[-5:])
    assert st.card_total() == 45
    # nobody sees them: the unseen counts include them for everyone
    for p in range(2):
        assert int(st.unseen_counts(p).sum()) == 45
    while not st.is_terminal:
        st.apply(simple_policy(st))
    assert st.card_total() == 45
    visible = st.collections.sum(axis=0) + st.slots.sum(axis=0) + st.discard
    assert int(visible.sum()) == 40  # the removed cards never came into play


def test_uncertain_counts_random_removal_is_seeded():
    cfg = R.AuditionConfig(3, (), True)
    a = R.new_game(cfg, np.random.default_rng(2))
    b = R.new_game(cfg, np.random.default_rng(2))
    assert a.removed == b.removed and a.deck == b.deck and len(a.removed) == 5
