"""Awkward Guests solo (1 player, the deck bids): the top 5 cards form the deck's bid or go to the
bottom, declined bids go to the bottom unseen, the no-match draw, and the solo rewards
(``1 − 0.01 × rounds``, ``−1``, ``0`` at the round limit) on the engine and through the
Gymnasium env ``parlour/AwkwardGuestsSolo-v1`` (with its mask and seeding contract).
"""

from __future__ import annotations

import numpy as np
import pytest

from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests.view import make_view

from .game_helpers import (
    SOLUTION,
    WRONG,
    accuse,
    all_card_ids,
    ask,
    game,
    go_on_until_discard,
    pass_turn,
    seen_ids,
    slot,
)
from .scenario_helpers import (
    HANDS3,
    NACT,
    NO,
    NOMATCH4,
    SOLO_ASK,
    TRUTH,
    YES,
    accusation,
    build_case,
    case3,
    engine,
    legal,
    pass_turn_unmatched,
    ref_act,
    solo_case,
)


def test_solo_top_five_matching_cards_form_one_bid_others_to_the_bottom_accept():
    case = solo_case()
    st = engine(case, 1, deck=list(range(60)), start=0)
    for r in SOLO_ASK:
        st.apply(ref_act(r))
    assert st.decision_name == "answer"
    v = make_view(st, 0)
    assert [(b.seat, b.value, b.count) for b in v.bids] == [(-1, 5, 2)]
    assert not {6, 8} & seen_ids(st, 0)
    ids = st.tables.ids
    bottom3 = {ids[k] for k in st.deck[:3]}  # deck lists the top card last
    assert bottom3 == {7, 9, 10}
    assert len(st.deck) == 60 - 6 - 5 + 3
    st.apply(YES)
    while st.decision_name == "pay":
        st.apply(min(legal(st)))
    assert {6, 8} <= seen_ids(st, 0)
    assert st.hand_ids(0) == [5]  # paid 5 value-1 cards
    assert sorted(ids[k] for k in st.discard) == [0, 1, 2, 3, 4, 6, 8]
    assert {ids[k] for k in st.deck[:3]} == {7, 9, 10}


def test_solo_declined_bid_cards_go_to_the_bottom_unseen():
    case = solo_case()
    st = engine(case, 1, deck=list(range(60)), start=0)
    for r in SOLO_ASK:
        st.apply(ref_act(r))
    st.apply(NO)
    ids = st.tables.ids
    assert {ids[k] for k in st.deck[:5]} == {6, 7, 8, 9, 10}
    assert not {6, 8} & seen_ids(st, 0)
    assert st.hand_ids(0) == list(range(6)) and not st.discard
    assert len(st.deck) == 60 - 6


def test_solo_no_matching_card_draw_two_note_discard():
    case = build_case(total=60)
    st = engine(case, 1, deck=list(range(60)), start=0)
    pass_turn_unmatched(st)
    ids = st.tables.ids
    assert {ids[k] for k in st.deck[:5]} == {6, 7, 8, 9, 10}
    assert sorted(ids[k] for k in st.discard) == [11, 12]
    assert {11, 12} <= seen_ids(st, 0)
    assert st.hand_ids(0) == list(range(6))
    assert st.decision_name == "solution"  # the turn is over


def _solo_gym(case, max_rounds=30):
    import gymnasium

    import parlour  # noqa: F401  (registers the env)

    env = gymnasium.make("parlour/AwkwardGuestsSolo-v1", max_rounds=max_rounds)
    env.reset(seed=0, options={"case": case, "deck": list(range(len(case.cards))), "start": 0})
    return env


def _solo_play_rounds(env, rounds, finish):
    u = env.unwrapped
    res = None
    while True:
        st = u.game
        d = st.decision_name
        if d == "inquiry":
            a = ref_act(NOMATCH4[len(st.asked)])
        elif d == "solution":
            if st.round > rounds:
                break
            a = NO
            if st.round == rounds and finish is not None:
                acts = [YES, *accusation(finish, st.case.accomplice_possible)]
                for x in acts:
                    res = env.step(x)
                return res
        else:
            a = int(np.flatnonzero(u.action_masks())[0])
        res = env.step(a)
        if res[2] or res[3]:
            return res
    return res


@pytest.mark.parametrize("rounds", [1, 3])
def test_solo_correct_reward_one_minus_penalty_per_round(rounds):
    env = _solo_gym(build_case(total=60))
    obs, r, term, trunc, info = _solo_play_rounds(env, rounds, TRUTH)
    assert term and not trunc
    assert r == pytest.approx(1 - 0.01 * rounds)


def test_solo_wrong_accusation_minus_one_and_ends():
    env = _solo_gym(build_case(total=60))
    obs, r, term, trunc, info = _solo_play_rounds(env, 2, WRONG)
    assert term and not trunc and r == -1.0


def test_solo_truncation_zero():
    env = _solo_gym(build_case(total=60), max_rounds=2)
    obs, r, term, trunc, info = _solo_play_rounds(env, 5, None)
    assert trunc and not term and r == 0.0
    assert env.unwrapped.game.round == 2


def test_solo_gym_contract_masks_illegal_action_and_seeding():
    import gymnasium

    import parlour  # noqa: F401

    env = gymnasium.make("parlour/AwkwardGuestsSolo-v1")
    obs, info = env.reset(seed=11)
    assert env.observation_space.contains(obs)
    u = env.unwrapped
    assert u.game.rng is u.np_random  # reset hands self.np_random to the engine
    m = env.get_wrapper_attr("action_masks")()
    assert m.dtype == bool and m.shape == (NACT,)
    assert set(np.flatnonzero(m)) == set(u.game.legal_actions())
    assert np.array_equal(m, u.action_masks())
    illegal = int(np.flatnonzero(~m)[0])
    obs, r, term, trunc, info = env.step(illegal)
    assert r == -1.0 and term and not trunc

    def traj(seed):
        e = gymnasium.make("parlour/AwkwardGuestsSolo-v1", max_rounds=3)
        o, _ = e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        out = [o]
        while True:
            mm = e.unwrapped.action_masks()
            a = int(rng.choice(np.flatnonzero(mm)))
            if mm[NO] and e.unwrapped.game.decision_name == "solution":
                a = NO
            o, r, te, tr, _ = e.step(a)
            out.append(o)
            if te or tr:
                return out, r

    t1, r1 = traj(4)
    t2, r2 = traj(4)
    assert (
        r1 == r2
        and len(t1) == len(t2)
        and all(np.array_equal(a, b) for a, b in zip(t1, t2, strict=True))
    )


def test_solo_gym_check_env():
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    import parlour  # noqa: F401

    env = gymnasium.make("parlour/AwkwardGuestsSolo-v1", max_rounds=3)
    check_env(env.unwrapped, skip_render_check=True)


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
