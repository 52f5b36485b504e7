"""Awkward Guests ``render_mode="rgb_array"``: the table picture (AEC env and the solo env).

Shape and dtype for every player count, PettingZoo's ``render_test``, Gymnasium's checker and
wrappers, SB3's ``make_vec_env`` on the registered solo id with its default ``rgb_array``, and
hidden information: states that differ only in what nobody at the table may see (every hand's
cards, the deck order, the discard pile, the solution and the hidden world, an accusation in
progress) give pixel-identical pictures, and different ones with ``seer=True``.
"""

from __future__ import annotations

import dataclasses

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import render_test

from parlour.envs import awkward_guests_v1
from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests import generate_case
from parlour.envs.awkward_guests.picture import draw_table, image_size

SHAPE = (940, 1280, 3)  # the documented size, every player count


def _assert_picture(img) -> None:
    assert isinstance(img, np.ndarray) and img.dtype == np.uint8 and img.shape == SHAPE
    packed = (
        (img[..., 0].astype(np.int32) << 16) | (img[..., 1].astype(np.int32) << 8) | img[..., 2]
    )
    assert len(np.unique(packed)) > 50 and img.std() > 10  # not a blank image


def _agents(n: int) -> list[str]:
    return [f"player_{i}" for i in range(n)]


def _random_states(n: int, level: str, seed: int, count: int) -> list[G.GuestsState]:
    """Engine states along a random game in which nobody accuses."""
    env = awkward_guests_v1.raw_env(num_players=n, level=level, deck_size=40)
    env.reset(seed=seed)
    st = env.game
    rng = np.random.default_rng(seed)
    picks = {int(x) for x in rng.choice(300, size=count, replace=False)}
    out = []
    for step in range(300):
        if st.is_terminal:
            break
        if step in picks:
            out.append(st.clone())
        st.apply(A.NO if st.decision_name == "solution" else int(rng.choice(st.legal_actions())))
    return out


def _hide_all(st: G.GuestsState, rng: np.random.Generator) -> G.GuestsState:
    """The same public table: every card nobody may see (hands, deck, discard) permuted, hand
    sizes kept (cards picked for a bid untouched), another solution and hidden world."""
    s2 = st.clone()
    places = [("h", q, i) for q in range(st.num_players) for i, c in enumerate(s2.hands[q])]
    places = [(k, q, i) for k, q, i in places if s2.hands[q][i] not in s2.selected[q]]
    places += [("d", 0, i) for i in range(len(s2.deck))]
    places += [("x", 0, i) for i in range(len(s2.discard))]
    rows = {"d": s2.deck, "x": s2.discard}
    cards = [s2.hands[q][i] if k == "h" else rows[k][i] for k, q, i in places]
    for (k, q, i), j in zip(places, rng.permutation(len(cards)), strict=True):
        (s2.hands[q] if k == "h" else rows[k])[i] = cards[j]
    for hand in s2.hands:
        hand.sort()
    other = generate_case(st.case.level, 7, 40)
    assert other.solution != st.case.solution
    hidden = dataclasses.replace(st.case, solution=other.solution, world=other.world)
    s2.tables = G.case_tables(hidden)
    return s2


def test_render_modes_in_metadata():
    modes = ["ansi", "human", "rgb_array"]
    assert awkward_guests_v1.raw_env.metadata["render_modes"] == modes
    from parlour.envs.awkward_guests.solo import AwkwardGuestsSoloEnv

    assert AwkwardGuestsSoloEnv.metadata["render_modes"] == modes
    assert "(940, 1280, 3)" in awkward_guests_v1.__doc__


def test_pettingzoo_render_test(capsys):
    render_test(
        lambda render_mode=None: awkward_guests_v1.env(
            num_players=3, level="medium", cases="classic", render_mode=render_mode
        )
    )


@pytest.mark.parametrize("n", range(1, 9))
def test_shape_dtype_and_size_for_every_player_count(n):
    env = awkward_guests_v1.env(num_players=n, deck_size=40, render_mode="rgb_array")
    env.reset(seed=n)
    _assert_picture(env.render())
    assert image_size(n) == (SHAPE[1], SHAPE[0])


def test_picture_follows_the_game_and_is_deterministic():
    env = awkward_guests_v1.raw_env(num_players=4, deck_size=40, render_mode="rgb_array")
    env.reset(seed=3)
    first = env.render()
    assert np.array_equal(first, env.render())
    env.step(A.REF_0 + 12)  # ask about a room: the map and the inquiry show it
    asked = env.render()
    assert not np.array_equal(first, asked)
    states = _random_states(4, "easy", 5, 6)
    pictures = [draw_table(st, _agents(4)) for st in states]
    for img in pictures:
        _assert_picture(img)
    assert len({img.tobytes() for img in pictures}) == len(pictures)


@pytest.mark.parametrize(("n", "level"), [(1, "easy"), (3, "medium"), (4, "easy"), (8, "hard")])
def test_hidden_cards_solution_and_world_are_not_drawn(n, level):
    rng = np.random.default_rng(n)
    states = _random_states(n, level, 30 + n, 5)
    assert states
    agents = _agents(n)
    for st in states:
        other = _hide_all(st, rng)
        assert np.array_equal(draw_table(st, agents), draw_table(other, agents)), st.decision_name
        assert not np.array_equal(
            draw_table(st, agents, seer=True), draw_table(other, agents, seer=True)
        )


def _at_solution_phase(n: int = 3) -> G.GuestsState:
    env = awkward_guests_v1.raw_env(num_players=n, deck_size=40)
    env.reset(seed=4)
    st = env.game
    rng = np.random.default_rng(4)
    while st.decision_name != "solution":
        st.apply(int(rng.choice(st.legal_actions())))
    return st


def test_an_accusation_in_progress_is_not_drawn():
    st = _at_solution_phase()
    agents = _agents(3)
    going_on = st.clone()
    going_on.apply(A.NO)  # the next player decides
    accusing = st.clone()
    accusing.apply(A.YES)
    midway = []  # the accuser is still deciding: murderer, motive, weapon, ...
    while accusing.current_player == st.current_player:
        midway.append(accusing.clone())
        accusing.apply(min(accusing.legal_actions()))
    assert [s.decision_name for s in midway[:3]] == ["murderer", "motive", "weapon"]
    public = draw_table(st, agents)
    seer = draw_table(st, agents, seer=True)
    for s in midway:
        assert np.array_equal(public, draw_table(s, agents)), s.decision_name
        assert not np.array_equal(seer, draw_table(s, agents, seer=True)), s.decision_name
    # a finished accusation stays hidden until the phase ends: as if the accuser went on
    assert accusing.current_player == going_on.current_player
    assert np.array_equal(draw_table(going_on, agents), draw_table(accusing, agents))
    assert not np.array_equal(
        draw_table(going_on, agents, seer=True), draw_table(accusing, agents, seer=True)
    )


def test_ansi_and_human_unchanged(capsys):
    env = awkward_guests_v1.env(num_players=2, deck_size=40, render_mode="ansi")
    env.reset(seed=0)
    assert isinstance(env.render(), str)
    env = awkward_guests_v1.env(num_players=2, deck_size=40, render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    assert "Awkward Guests" in capsys.readouterr().out


# ----------------------------------------------------------------------------- the solo env


def test_solo_env_rgb_array_through_gymnasium_make():
    env = gymnasium.make("parlour/AwkwardGuestsSolo-v1", render_mode="rgb_array")
    env.reset(seed=0)
    first = env.render()
    _assert_picture(first)
    mask = env.unwrapped.action_masks()
    env.step(int(np.flatnonzero(mask)[0]))
    assert not np.array_equal(first, env.render())
    from gymnasium.utils.env_checker import check_env

    check_env(env.unwrapped)  # with a spec: also makes and checks every render mode


def test_solo_env_seer_picture_differs():
    from parlour.envs.awkward_guests.solo import AwkwardGuestsSoloEnv

    pictures = []
    for seer in (False, True):
        env = AwkwardGuestsSoloEnv(render_mode="rgb_array", seer=seer)
        env.reset(seed=1)
        pictures.append(env.render())
    assert not np.array_equal(*pictures)


def test_solo_env_frames_with_render_collection():
    env = gymnasium.wrappers.RenderCollection(
        gymnasium.make("parlour/AwkwardGuestsSolo-v1", render_mode="rgb_array")
    )
    env.reset(seed=2)
    for _ in range(3):
        mask = env.unwrapped.action_masks()
        env.step(int(np.flatnonzero(mask)[0]))
    frames = env.render()
    assert len(frames) == 4 and all(f.shape == SHAPE for f in frames)


def test_sb3_make_vec_env_with_the_default_render_mode():
    from stable_baselines3.common.env_util import make_vec_env

    venv = make_vec_env("parlour/AwkwardGuestsSolo-v1", n_envs=2, seed=0)
    assert venv.render_mode == "rgb_array"  # SB3 asks for rgb_array when it makes an id
    venv.reset()
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(120):
        masks = venv.env_method("action_masks")
        actions = np.array([int(rng.choice(np.flatnonzero(m))) for m in masks])
        _, _, dones, _ = venv.step(actions)
        episodes += int(dones.sum())
    assert episodes >= 1
    frame = venv.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    venv.close()
