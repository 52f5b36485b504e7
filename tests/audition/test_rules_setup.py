"""Audition setup: the deck per player count, fixed deck orders and start seats, action-card slots
(variant 1) and the removed cards of variant 2.

Scenarios through the raw env use :class:`~tests.audition.driver.Table`; those on the engine use
:mod:`tests.audition.helpers`.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from parlour.envs import audition_v1
from parlour.envs.audition import rules as R
from tests.audition.driver import DECK_SIZE, DRAW, TOP, Table, deck_with, spec_deck
from tests.audition.helpers import deck_with_top, draw_place, game, simple_policy


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_setup_deck_composition_and_sizes(n):
    env = audition_v1.raw_env(num_players=n)
    env.reset(seed=3)
    v = env.player_view("player_0")
    assert v.deck_size == DECK_SIZE[n] == len(spec_deck(n))
    expected = [0] + [k if k <= TOP[n] else 0 for k in range(1, 14)]
    assert list(v.unseen) == expected
    assert len(v.slots) == n and all(s.kind == "conductor" and s.capacity == 4 for s in v.slots)
    assert env.action_space("player_0").n == 27
    # one space object per agent (PettingZoo's convention), all equal; none for a stranger
    assert env.observation_space("player_0") is not env.observation_space(f"player_{n - 1}")
    assert env.observation_space("player_0") == env.observation_space(f"player_{n - 1}")
    assert env.action_space("player_0") is not env.action_space(f"player_{n - 1}")
    assert env.action_space("player_0") == env.action_space(f"player_{n - 1}")
    with pytest.raises(KeyError):
        env.observation_space(f"player_{n}")
    sizes = {
        audition_v1.raw_env(num_players=k, action_cards=k, uncertain_counts=bool(k % 2))
        .observation_space("player_0")["observation"]
        .shape
        for k in range(2, 7)
    }
    assert len(sizes) == 1  # one size for every player count


def test_fixed_deck_is_top_first_and_start_seat_is_respected():
    g = Table(n=3, top=[7, 2, 9], start=2)
    assert g.cur == 2
    assert g.draw_place(0) == 7
    assert g.cur == 0
    assert g.draw_place(0) == 2
    assert g.draw_place(1) == 9


def test_action_card_list_takes_slots_in_order_and_int_draws_distinct_kinds():
    g = Table(n=4, action_cards=["take_now", "max_two"])
    assert [s.kind for s in g.view(0).slots] == ["take_now", "max_two", "conductor", "conductor"]
    assert [s.capacity for s in g.view(0).slots] == [4, 2, 4, 4]
    for seed in range(5):
        env = audition_v1.raw_env(num_players=5, action_cards=3)
        env.reset(seed=seed)
        kinds = [s.kind for s in env.player_view("player_0").slots]
        actions = [k for k in kinds if k != "conductor"]
        assert len(actions) == 3 and len(set(actions)) == 3


def test_start_seat_and_action_card_slots_are_random_without_options():
    starts, layouts = set(), set()
    env = audition_v1.raw_env(num_players=3, action_cards=2)
    for seed in range(40):
        env.reset(seed=seed)
        starts.add(env.agent_selection)
        layouts.add(tuple(s.kind != "conductor" for s in env.player_view("player_0").slots))
    assert starts == {"player_0", "player_1", "player_2"}
    assert len(layouts) == 3  # the action cards are not always on slots 0, 1


def test_variant2_removes_last_five_of_the_order_unseen():
    bottom = [9, 9, 8, 1, 2]
    g = Table(n=2, uncertain=True, deck=deck_with(2, bottom=bottom), start=0)
    assert g.deck_size() == 40
    assert g.view(0).num_removed == 5
    drawn = Counter()
    while g.deck_size() > 0:
        if g.phase() == "turn" and DRAW in g.legal():
            drawn[g.draw()] += 1
            g.step(min(g.legal()))
            if g.phase() == "take_now":
                g.pass_()
        else:
            g.burn_step()
    expected = Counter(spec_deck(2)) - Counter(bottom)
    assert drawn == expected
    # the unseen counts at the end are exactly the removed cards
    u = g.view(0).unseen
    assert Counter({v: u[v] for v in range(14) if u[v]}) == Counter(bottom)


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


def test_action_card_list_takes_slots_in_order():
    st = game(4, action_cards=["take_now", "max_two"])
    assert [R.SLOT_KINDS[k] for k in st.slot_kinds] == [
        "take_now",
        "max_two",
        "conductor",
        "conductor",
    ]


def test_random_number_of_action_cards_is_seeded():
    cfg = R.AuditionConfig(5, 3)
    a = R.new_game(cfg, np.random.default_rng(11))
    b = R.new_game(cfg, np.random.default_rng(11))
    assert a.slot_kinds == b.slot_kinds
    assert sum(k != R.K_CONDUCTOR for k in a.slot_kinds) == 3
    assert len({k for k in a.slot_kinds if k != R.K_CONDUCTOR}) == 3
    kinds = {tuple(R.new_game(cfg, np.random.default_rng(s)).slot_kinds) for s in range(30)}
    assert len(kinds) > 5


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
