"""Awkward Guests' Discard phase and the next round: discarding down to 3, the start player moving
on, refilling to 6 from the new start player, and the empty deck (the discard pile reshuffled
with the game's generator, its top 3 cards revealed to everyone; hands stay short when no card
is left anywhere).
"""

from __future__ import annotations

from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests.view import make_view

from .game_helpers import all_card_ids, game, go_on_until_discard, pass_turn, seen_ids
from .scenario_helpers import HANDS3, build_case, case3, engine, legal, pass_turn_unmatched, three


def test_discard_to_three_start_moves_refill_from_new_start_in_seat_order():
    case = build_case(total=60)
    st = engine(case, 3, deck=list(range(60)), start=0)
    for _ in range(3):
        pass_turn_unmatched(st)
    go_on_until_discard(st)
    order = []
    while st.decision_name == "discard":
        p = st.current_player
        if p not in order:
            order.append(p)
        v = make_view(st, p)
        assert v.to_discard == len(v.hand) - sum(h.selected for h in v.hand) - 3
        st.apply(min(legal(st)))
    assert order == [0, 1, 2]
    assert sorted(st.tables.ids[k] for k in st.discard) == list(range(18))
    assert st.start == 1
    assert st.hand_ids(1) == [21, 22, 23, 27, 28, 29]
    assert st.hand_ids(2) == [24, 25, 26, 30, 31, 32]
    assert st.hand_ids(0) == [18, 19, 20, 33, 34, 35]
    assert st.active == 1 and st.decision_name == "inquiry"


def test_empty_deck_reshuffle_reveals_top_three_to_everyone():
    case = build_case(total=24)
    st = engine(case, 3, deck=list(range(24)), start=0, seed=5)
    pass_turn_unmatched(st)  # seat 0 draws 18..20
    pass_turn_unmatched(st)  # seat 1 draws 21..23
    pass_turn_unmatched(st)  # seat 2: the deck is empty and so is the discard pile: nothing to draw
    assert st.hand_ids(2) == list(range(12, 18)) and not st.revealed
    go_on_until_discard(st)
    while st.decision_name == "discard":
        st.apply(min(legal(st)))
    discarded = set(range(0, 15))
    revealed = [st.tables.ids[k] for k in st.revealed]
    assert len(revealed) == 3 and set(revealed) <= discarded
    for p in range(3):
        assert set(revealed) <= seen_ids(st, p)
        assert len(st.hand_ids(p)) == 6
        assert not set(revealed) & set(st.hand_ids(p))
    assert len(st.deck) == 15 - 3 - 9
    new = set(st.hand_ids(0) + st.hand_ids(1) + st.hand_ids(2)) - set(range(15, 24))
    assert new <= discarded - set(revealed) and len(new) == 9


def test_no_cards_anywhere_hands_stay_short():
    # 8 players and 24 cards: seats 4..7 get nothing at the deal, nothing breaks
    case = build_case(total=24)
    st = engine(case, 8, deck=list(range(24)), start=0)
    assert [len(st.hand_ids(p)) for p in range(8)] == [6, 6, 6, 6, 0, 0, 0, 0]
    pass_turn_unmatched(st)
    assert len(st.hand_ids(0)) == 6


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
