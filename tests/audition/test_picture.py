"""Audition ``render_mode="rgb_array"``: the table picture (:mod:`parlour.envs.audition.picture`).

Shape and dtype per player count, PettingZoo's ``render_test``, pictures that follow the game,
and hidden information: two games that differ only in what nobody at the table may see (the
deck order, the drawn card, the removed cards) give pixel-identical pictures, and different
ones with ``seer=True``.
"""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import render_test
from PIL import Image

from parlour.envs import audition_v1
from parlour.envs.audition import rules as R
from parlour.envs.audition.picture import image_size
from parlour.envs.picture_kit import save_picture
from tests.audition.helpers import deck_with_top

#: The documented picture sizes, (height, width) by player count.
SIZES = {2: (544, 1280), 3: (668, 1280), 4: (668, 1280), 5: (792, 1280), 6: (792, 1280)}


def _env(num_players: int = 4, seer: bool = False, **kwargs):
    return audition_v1.env(num_players=num_players, render_mode="rgb_array", seer=seer, **kwargs)


def _picture(deck: list[int], actions=(), seer: bool = False, **kwargs) -> np.ndarray:
    env = _env(seer=seer, **kwargs)
    env.reset(seed=0, options={"deck": deck, "start": 0})
    for a in actions:
        env.step(a)
    return env.render()


def _assert_picture(img, shape) -> None:
    assert isinstance(img, np.ndarray) and img.dtype == np.uint8
    assert img.shape == (*shape, 3)
    packed = (
        (img[..., 0].astype(np.int32) << 16) | (img[..., 1].astype(np.int32) << 8) | img[..., 2]
    )
    assert len(np.unique(packed)) > 50 and img.std() > 10  # not a blank image


def test_render_modes_in_metadata_and_documented():
    assert audition_v1.raw_env.metadata["render_modes"] == ["ansi", "human", "rgb_array"]
    assert '"rgb_array"' in audition_v1.__doc__
    assert "(H, 1280, 3)" in audition_v1.__doc__ and "544 / 668 / 792" in audition_v1.__doc__


def test_pettingzoo_render_test(capsys):
    render_test(
        lambda render_mode=None: audition_v1.env(
            num_players=3, action_cards=2, uncertain_counts=True, render_mode=render_mode
        )
    )


@pytest.mark.parametrize("n", sorted(SIZES))
def test_shape_dtype_and_the_documented_size(n):
    env = _env(n, action_cards=n)
    env.reset(seed=n)
    img = env.render()
    _assert_picture(img, SIZES[n])
    assert image_size(n) == (SIZES[n][1], SIZES[n][0])
    # the size never changes during a game
    rng = np.random.default_rng(n)
    for _agent in env.agent_iter(60):
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if not env.agents:
            break
    _assert_picture(env.render(), SIZES[n])


def test_picture_follows_the_game_and_is_deterministic():
    deck = deck_with_top(4, [5, 7, 9, 2])
    start = _picture(deck)
    placed = _picture(deck, [R.DRAW, R.PLACE_0 + 2])
    taken = _picture(deck, [R.DRAW, R.PLACE_0 + 2, R.TAKE_0 + 2])
    assert not np.array_equal(start, placed)
    assert not np.array_equal(placed, taken)
    assert np.array_equal(taken, _picture(deck, [R.DRAW, R.PLACE_0 + 2, R.TAKE_0 + 2]))


def test_game_over_picture():
    env = _env(2)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    _assert_picture(env.render(), SIZES[2])


def _swap(deck: list[int], i: int, j: int) -> list[int]:
    d = list(deck)
    d[i], d[j] = d[j], d[i]
    assert d[i] != d[j]
    return d


HIDDEN_CASES = {
    # the deck order below the cards already drawn
    "deck order": (deck_with_top(4, [5, 7, 9, 2, 11]), 3, 4, [R.DRAW, R.PLACE_0, R.DRAW], {}),
    # the card a player has drawn and not yet placed (and so the deck below it)
    "drawn card": (deck_with_top(4, [5, 7, 9]), 0, 2, [R.DRAW], {}),
    # a card removed unseen at setup (variant 2: the last 5 of the deck order) vs a deck card
    "removed card": (deck_with_top(4, [5, 7, 9]), 3, 65, [R.DRAW], {"uncertain_counts": True}),
}


@pytest.mark.parametrize("what", sorted(HIDDEN_CASES))
def test_hidden_information_is_not_drawn(what):
    deck, i, j, actions, kwargs = HIDDEN_CASES[what]
    other = _swap(deck, i, j)
    public = [_picture(d, actions, **kwargs) for d in (deck, other)]
    assert np.array_equal(public[0], public[1]), what
    seen = [_picture(d, actions, seer=True, **kwargs) for d in (deck, other)]
    assert not np.array_equal(seen[0], seen[1]), what
    assert not np.array_equal(public[0], seen[0])


def test_hidden_information_through_random_games():
    """Reshuffling everything hidden (deck order, removed cards, a drawn card) at random points
    of random games never changes the public picture."""
    rng = np.random.default_rng(11)
    for seed in range(2):
        env = audition_v1.raw_env(
            num_players=5, action_cards=3, uncertain_counts=True, render_mode="rgb_array"
        )
        env.reset(seed=seed)
        while not env.game.is_terminal:
            if rng.random() < 0.1:
                state = env.game
                hidden = state.deck + state.removed + ([state.drawn] if state.drawn else [])
                before = env.render()
                backup = state.clone()
                perm = [hidden[k] for k in rng.permutation(len(hidden))]
                state.deck, state.removed = perm[: len(state.deck)], perm[len(state.deck) :]
                if state.drawn:
                    state.drawn = state.removed.pop()
                assert np.array_equal(before, env.render())
                env.game = backup
            legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
            env.step(int(rng.choice(legal)))


def test_ansi_and_human_unchanged(capsys):
    env = audition_v1.env(num_players=2, render_mode="ansi")
    env.reset(seed=0)
    assert isinstance(env.render(), str)
    env = audition_v1.env(num_players=2, render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    assert "Audition, 2 players" in capsys.readouterr().out


def test_save_picture(tmp_path):
    env = _env(4)
    env.reset(seed=1)
    path = save_picture(env, tmp_path / "pictures" / "table.png")
    assert np.array_equal(np.asarray(Image.open(path).convert("RGB")), env.render())
