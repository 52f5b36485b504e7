"""Information-leak tests: what an agent cannot see must not change its observation."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from parlour.envs import audition_v0
from parlour.envs.audition import rules as R


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
    env_a, env_b = audition_v0.raw_env(**kwargs), audition_v0.raw_env(**kwargs)
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
    env_a = audition_v0.raw_env(num_players=n, uncertain_counts=True)
    env_b = audition_v0.raw_env(num_players=n, uncertain_counts=True)
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
