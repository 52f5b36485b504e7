"""Audition at the end of the deck: the action that empties the deck finishes first, then the final
phase (each player without a slot chooses once, from the seat after the emptier), take none,
leftovers are not scored, a round that ends with the deck ends the game, and action cards
taken at the end.
"""

from __future__ import annotations

import numpy as np

from parlour.envs.audition import rules as R
from tests.audition.driver import CHOOSE, DRAW, PASS, PLACE, TAKE, Table, points_of
from tests.audition.helpers import draw_place, game, take


def test_final_phase_order_starts_after_emptier_and_ends_with_emptier_4p():
    g = Table(n=4, start=0)
    g.burn_rounds(4)  # policy P uses 16 cards a round
    assert g.deck_size() == 2
    s = g.cur
    g.draw_place(0)  # s
    assert g.cur == (s + 1) % 4
    g.take(0)  # s+1 out
    assert g.cur == (s + 2) % 4
    g.draw_place(1)  # s+2 empties the deck
    assert g.deck_size() == 0
    order = []
    while not g.done:
        assert g.phase() == "final"
        assert g.view(0).in_final
        order.append(g.cur)
        legal = g.legal()
        assert DRAW not in legal and PASS in legal
        if TAKE(1) in legal:
            g.take(1)
        else:
            assert legal == {PASS}  # ruling: asked even with nothing to take
            g.pass_()
    assert order == [(s + 3) % 4, s, (s + 2) % 4]


def test_final_phase_all_players_when_nobody_took_variant2():
    # 2p variant 2: 40 cards = 5 rounds of policy P; the 40th card is placed before anyone took
    g = Table(n=2, uncertain=True, start=1)
    assert g.deck_size() == 40
    g.burn_rounds(4)
    assert g.deck_size() == 8
    s = g.cur
    for k in range(8):
        assert g.cur == (s + k) % 2
        g.draw_place(0 if k < 4 else 1)
    assert g.deck_size() == 0
    emptier = (s + 7) % 2
    assert g.phase() == "final" and g.cur == (emptier + 1) % 2
    before = [g.coll(p) for p in range(2)]
    g.take(0)
    assert g.cur == emptier and g.phase() == "final"
    assert g.legal() == {TAKE(1), PASS}
    g.pass_()  # take none
    assert g.done
    # the musicians left on slot 1 are not scored; take none changed nothing
    assert g.coll(emptier) == before[emptier]
    scores = g.env.results()["scores"]
    for p in range(2):
        assert scores[f"player_{p}"] == points_of(g.coll(p))[0]


def test_deck_emptied_by_draw_then_take_now_decision_first_then_final():
    g = Table(n=3, action_cards=["take_now"], start=0)
    g.burn_rounds(4)
    assert g.deck_size() == 55 - 48
    s = g.cur
    # 7 cards: fill slot 1 (4) and slot 2 (2), the 7th goes on take_now
    targets = [1, 1, 1, 1, 2, 2]
    for k, t in enumerate(targets):
        assert g.cur == (s + k) % 3
        g.draw_place(t)
    emptier = g.cur
    assert emptier == s  # 6 placements: back to s
    g.draw()
    assert g.deck_size() == 0
    g.step(PLACE(0))
    # the action finishes first: the take_now decision of the same agent, not the final phase
    assert g.cur == emptier and g.phase() == "take_now"
    assert not g.view(0).in_final
    assert g.legal() == {TAKE(0), PASS}
    g.take(0)
    # final phase: the two others in turn order after the emptier; the emptier took, so is skipped
    order = []
    while not g.done:
        assert g.phase() == "final"
        order.append(g.cur)
        g.step(min(g.legal()))
    assert order == [(s + 1) % 3, (s + 2) % 3]


def test_emptier_declines_take_now_and_is_last_in_final():
    g = Table(n=3, action_cards=["take_now"], start=0)
    g.burn_rounds(4)
    s = g.cur
    for t in [1, 1, 1, 1, 2, 2]:
        g.draw_place(t)
    g.draw_place(0)
    assert g.phase() == "take_now"
    g.pass_()
    order = []
    while not g.done:
        order.append(g.cur)
        g.pass_()
    assert order == [(s + 1) % 3, (s + 2) % 3, s]


def test_round_that_ends_with_empty_deck_ends_the_game():
    # the last player of a round draws the last card onto take_now and takes it: all took
    g = Table(n=2, action_cards=["take_now"], start=0)
    g.burn_rounds(5)
    assert g.deck_size() == 5
    s = g.cur
    g.draw_place(1)  # s
    g.take(1)  # s+1 out
    for _ in range(3):
        g.draw_place(0)
        assert g.phase() == "take_now"
        g.pass_()
        assert g.cur == s
    g.draw_place(0)
    assert g.deck_size() == 0 and g.phase() == "take_now" and g.cur == s
    g.take(0)
    assert g.done
    assert g.env.results()["phase"] == "over"


def test_draw_one_empties_deck_final_starts_after_taker():
    g = Table(n=2, action_cards=["draw_one"], start=0)
    g.burn_rounds(4)  # P takes draw_one (slot 0) first each round: 9 cards a round
    assert g.deck_size() == 9
    for t in [0, 0, 0, 0, 1, 1, 1, 1]:
        g.draw_place(t)
    assert g.deck_size() == 1 and g.legal() == {TAKE(0), TAKE(1)}
    taker = g.cur
    last_card = g.env.unwrapped.game.deck[-1]  # verification only
    expected = list(g.coll(taker))
    for v in range(14):
        expected[v] += g.slot_cards(0)[v]
    expected[last_card] += 1
    g.take(0)
    assert list(g.coll(taker)) == expected  # 4 musicians + the top card, face up
    assert g.deck_size() == 0
    other = (taker + 1) % 2
    assert g.phase() == "final" and g.cur == other
    assert g.legal() == {TAKE(1), PASS}
    g.take(1)
    assert g.done


def test_draw_one_taken_by_last_player_with_last_card_ends_game():
    g = Table(n=2, action_cards=["draw_one"], start=0)
    g.burn_rounds(4)
    for t in [0, 0, 0, 0, 1, 1, 1, 1]:
        g.draw_place(t)
    g.take(1)  # conductor
    assert g.legal() == {TAKE(0)}
    g.take(0)  # draw_one, draws the last card; nobody is left: game over
    assert g.done


def test_action_card_taken_in_final_phase_still_acts():
    g = Table(n=3, action_cards=["pass_left", "discard_own", "draw_one"], start=0)
    # play until the deck empties with policy P, then in the final phase take action cards
    while g.deck_size() > 0:
        g.burn_step()
    while not g.done and g.phase() != "final":
        g.burn_step()
    assert g.deck_size() == 0
    seen = set()
    while not g.done:
        p = g.cur
        ph = g.phase()
        legal = g.legal()
        if ph == "final":
            takes = [a for a in legal if a < 6]
            if not takes:
                g.pass_()
                continue
            s = takes[0]
            kind = g.view(0).slots[s].kind
            before = list(g.coll(p))
            came = g.slot_cards(s)
            g.take(s)
            seen.add(kind)
            if kind == "pass_left":
                assert g.phase() == "pass_left" and g.cur == p
                assert g.legal() == {CHOOSE(v) for v in range(1, 14) if came[v]}
                v = min(v for v in range(1, 14) if came[v])
                left = (p + 1) % 3
                lb = g.coll(left)[v]
                g.choose(v)
                assert g.coll(left)[v] == lb + 1
            elif kind == "discard_own" and sum(before):
                assert g.phase() == "discard_own" and g.cur == p
                assert g.legal() == {PASS} | {CHOOSE(v) for v in range(1, 14) if before[v]}
                g.pass_()
            elif kind == "draw_one":
                # deck empty: nothing drawn
                assert sum(g.coll(p)) == sum(before) + sum(came)
        else:
            g.step(min(legal))
    assert seen  # at least one action card was taken in the final phase


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
