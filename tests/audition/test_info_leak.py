"""Information-leak tests: what an agent cannot see must not change its observation."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from parlour.envs import audition_v1
from parlour.envs.audition import rules as R
from tests.audition.driver import DRAW, PLACE, Table, spec_deck


def _observations(env) -> list[np.ndarray]:
    return [env.observe(a)["observation"] for a in env.possible_agents]


def _views(env) -> list:
    return [env.player_view(a) for a in env.possible_agents]


@given(
    n=st.integers(2, 6),
    uncertain=st.booleans(),
    action_cards=st.booleans(),
    seed=st.integers(0, 2**31),
    data=st.data(),
)
def test_unseen_card_order_does_not_leak(n, uncertain, action_cards, seed, data):
    """Two games differing only in the order of two unseen cards (swap positions i < j of
    the deck; with variant 2, j may be a removed card) give identical observations and views to
    every agent until the card at position i is drawn (then only its drawer may differ)."""
    rng = np.random.default_rng(seed)
    deck_a = [int(c) for c in rng.permutation(R.full_deck(n))]
    size = len(deck_a)
    i = data.draw(st.integers(0, size - 2), label="i")
    j = data.draw(st.integers(i + 1, size - 1), label="j")
    if deck_a[i] == deck_a[j]:
        j = next((k for k in range(i + 1, size) if deck_a[k] != deck_a[i]), j)
    deck_b = list(deck_a)
    deck_b[i], deck_b[j] = deck_b[j], deck_b[i]
    kwargs = dict(num_players=n, action_cards=n if action_cards else (), uncertain_counts=uncertain)
    env_a, env_b = audition_v1.raw_env(**kwargs), audition_v1.raw_env(**kwargs)
    env_a.reset(seed=seed, options={"deck": deck_a, "start": 0})
    env_b.reset(seed=seed, options={"deck": deck_b, "start": 0})  # same action-card slots
    in_deck = len(env_a.game.deck)
    drawn_so_far = 0
    while not all(env_a.terminations.values()):
        for oa, ob in zip(_observations(env_a), _observations(env_b), strict=True):
            np.testing.assert_array_equal(oa, ob)
        assert _views(env_a) == _views(env_b)
        mask = env_a.observe(env_a.agent_selection)["action_mask"]
        action = int(rng.choice(np.flatnonzero(mask)))
        before = len(env_a.game.deck)
        env_a.step(action)
        env_b.step(action)
        drawn_so_far += before - len(env_a.game.deck)
        if drawn_so_far > i and i < in_deck:
            break  # the differing card has been drawn: from here the games may differ
    assert env_a.agent_selection == env_b.agent_selection


def test_removed_cards_never_show():
    """Variant 2: swapping which cards are removed changes nothing anyone can see as long as the
    swapped-in card is not drawn."""
    n = 3
    deck = R.full_deck(n)[::-1]  # top: the 10s ... bottom: 1; removed: the last five
    other = list(deck)
    other[-1], other[-6] = other[-6], other[-1]  # swap a removed card with the deck's last card
    env_a = audition_v1.raw_env(num_players=n, uncertain_counts=True)
    env_b = audition_v1.raw_env(num_players=n, uncertain_counts=True)
    env_a.reset(options={"deck": deck, "start": 0})
    env_b.reset(options={"deck": other, "start": 0})
    rng = np.random.default_rng(0)
    while len(env_a.game.deck) > 0:
        for oa, ob in zip(_observations(env_a), _observations(env_b), strict=True):
            np.testing.assert_array_equal(oa, ob)
        mask = env_a.observe(env_a.agent_selection)["action_mask"]
        a = int(rng.choice(np.flatnonzero(mask)))
        if a == R.DRAW and len(env_a.game.deck) == 1:
            break
        env_a.step(a)
        env_b.step(a)
    assert env_a.game.removed != env_b.game.removed


def test_variant2_which_cards_are_removed_does_not_leak():
    # two decks with identical first 40 cards but different removed sets are impossible
    # (the removed set is determined by the first 40); instead: swap a removed card with one
    # deep in the deck. Until that deck position is drawn, nothing may differ for anyone.
    rng = random.Random(11)
    cards = spec_deck(3)
    rng.shuffle(cards)
    i = 30
    j = next(k for k in range(len(cards) - 5, len(cards)) if cards[k] != cards[i])
    deck_a = list(cards)
    deck_b = list(cards)
    deck_b[i], deck_b[j] = deck_b[j], deck_b[i]
    ga = Table(n=3, uncertain=True, deck=deck_a, start=1)
    gb = Table(n=3, uncertain=True, deck=deck_b, start=1)
    drawn = 0
    while drawn <= i:
        for p in range(3):
            np.testing.assert_array_equal(ga.obs(p), gb.obs(p))
            assert ga.view(p) == gb.view(p)
        legal = ga.legal()
        a = DRAW if DRAW in legal else min(legal)
        before = ga.deck_size()
        ga.step(a)
        gb.step(a)
        drawn += before - ga.deck_size()


def test_deck_order_and_drawn_card_do_not_leak_to_others():
    rng = random.Random(5)
    cards = spec_deck(4)
    rng.shuffle(cards)
    i = 20
    j = next(k for k in range(i + 1, len(cards)) if cards[k] != cards[i])
    deck_b = list(cards)
    deck_b[i], deck_b[j] = deck_b[j], deck_b[i]
    ga = Table(n=4, action_cards=["take_now", "pass_left"], deck=cards, start=3, render_mode="ansi")
    gb = Table(
        n=4, action_cards=["take_now", "pass_left"], deck=deck_b, start=3, render_mode="ansi"
    )
    drawn = 0
    rr = random.Random(1)
    while True:
        legal = sorted(ga.legal())
        assert legal == sorted(gb.legal())
        a = DRAW if DRAW in legal and rr.random() < 0.7 else rr.choice(legal)
        before = ga.deck_size()
        ga.step(a)
        gb.step(a)
        drawn += before - ga.deck_size()
        if drawn > i:
            break
        for p in range(4):
            np.testing.assert_array_equal(ga.obs(p), gb.obs(p))
            assert ga.view(p) == gb.view(p)
        assert ga.env.render() == gb.env.render()
        assert ga.env.infos == gb.env.infos
        assert ga.env.results() == gb.env.results()
    # the card at position i has just been drawn and is not yet placed
    assert ga.phase() == "place"
    drawer = ga.cur
    assert ga.block(drawer, "drawn_card").tolist() != gb.block(drawer, "drawn_card").tolist()
    for p in range(4):
        if p != drawer:
            np.testing.assert_array_equal(ga.obs(p), gb.obs(p))
            assert ga.view(p) == gb.view(p)
            assert ga.view(p).drawn == 0
    assert ga.env.render() == gb.env.render()
    assert ga.env.infos == gb.env.infos
    assert ga.env.results() == gb.env.results()


def test_drawer_unseen_excludes_own_drawn_card_others_do_not():
    g = Table(n=3, top=[6], start=0)
    u_before = g.view(1).unseen[6]
    g.step(DRAW)
    assert g.view(0).drawn == 6 and g.view(0).unseen[6] == u_before - 1
    assert g.view(1).drawn == 0 and g.view(1).unseen[6] == u_before
    assert g.block(1, "drawn_card").sum() == 0 and g.block(2, "drawn_card").sum() == 0
    g.step(PLACE(0))
    assert g.view(1).unseen[6] == u_before - 1
