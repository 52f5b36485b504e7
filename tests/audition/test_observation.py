"""Audition's observation: the layout covers the vector in order, contents are egocentric and in
range, and the optimised encoder equals a plain reference encoding written from docs/envs/audition.md#observation-space
(for every observer, at every step of random games).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.envs import audition_v1
from parlour.envs.audition import rules as R
from tests.audition.driver import Table, points_of
from tests.audition.helpers import deck_with_top


def test_observation_layout_covers_the_vector_in_order():
    raw = audition_v1.raw_env(num_players=3)
    layout = raw.observation_layout
    pos = 0
    for sl in layout.values():
        assert sl.start == pos
        pos = sl.stop
    assert pos == raw.observation_space("player_0")["observation"].shape[0]
    assert {"phase", "drawn_card", "slots", "players", "unseen", "deck_size", "discard"} <= set(
        layout
    )
    seer = audition_v1.raw_env(num_players=3, seer=True)
    assert "seer_next" in seer.observation_layout
    assert seer.observation_space("player_0")["observation"].shape[0] == pos + 39


def test_observation_contents_are_egocentric_and_in_range():
    env = audition_v1.raw_env(num_players=3)
    env.reset(options={"deck": deck_with_top(3, [5]), "start": 1})
    L = env.observation_layout
    env.step(R.DRAW)  # player_1 holds the 5
    o1 = env.observe("player_1")["observation"]
    o0 = env.observe("player_0")["observation"]
    assert o1[L["drawn_card"]][4] == 1.0 and o0[L["drawn_card"]].sum() == 0.0
    # the drawer does not count the 5 as unseen; the others still do
    assert o1[L["unseen"]][4] * 13 == pytest.approx(4)
    assert o0[L["unseen"]][4] * 13 == pytest.approx(5)
    env.step(R.PLACE_0 + 2)
    env.step(R.DRAW)
    env.step(R.PLACE_0 + 2)  # player_2
    env.step(R.TAKE_0 + 2)  # player_0 takes slot 2 (the 5 and another card)
    for agent, seat in (("player_0", 0), ("player_1", 1), ("player_2", 2)):
        obs = env.observe(agent)["observation"]
        assert obs.dtype == np.float32 and obs.min() >= 0.0 and obs.max() <= 1.0
        players = obs[L["players"]].reshape(6, 19)
        # block k is seat (seat + k) % 3; player_0's collection sits in block (0 - seat) % 3
        k = (0 - seat) % 3
        assert players[k, 4 + 4] * 13 == pytest.approx(1)  # one 5
        assert players[k, 2] == 1.0  # taken this round
        assert players[:3, 0].tolist() == [1.0, 1.0, 1.0] and not players[3:].any()
    slots = env.observe("player_2")["observation"][L["slots"]].reshape(6, 23)
    assert slots[2, 8] == 1.0  # slot 2 taken flag
    assert slots[0, 0] == 1.0 and slots[:3, 7].tolist() == [1.0, 1.0, 1.0]


def test_observation_is_egocentric():
    g = Table(n=3, top=[5, 7, 7, 2], start=0)
    g.draw_place(0)  # 0: 5
    g.draw_place(1)  # 1: 7
    g.draw_place(1)  # 2: 7
    g.take(1)  # 0 takes {7, 7}
    g.take(0)  # 1 takes {5}
    # seat 2 is last: collections: seat0 {7x2}, seat1 {5}, seat2 {}
    pl = {p: g.block(p, "players").reshape(6, 19) for p in range(3)}
    for obs_seat in range(3):
        for i in range(3):
            seat = (obs_seat + i) % 3
            coll = np.array(g.coll(seat)[1:], np.float32) / 13
            np.testing.assert_allclose(pl[obs_seat][i, 4:17], coll)
            assert pl[obs_seat][i, 0] == 1.0
            assert pl[obs_seat][i, 1] == float(seat == g.cur)
            assert pl[obs_seat][i, 2] == float(g.view(0).taken[seat])
            assert pl[obs_seat][i, 3] == pytest.approx(points_of(g.coll(seat))[0] / 65)
        assert not pl[obs_seat][3:].any()
    # block 1 of seat 0's view is the left neighbour (seat 1) who got {5}
    assert pl[0][1, 4 + 4] == pytest.approx(1 / 13)
    assert pl[2][1, 4 + 6] == pytest.approx(2 / 13)  # seat 2's left neighbour is seat 0


def reference(state: R.AuditionState, observer: int, layout: dict[str, slice]) -> np.ndarray:
    n = state.num_players
    size = max(s.stop for s in layout.values())
    obs = np.zeros(size, np.float64)
    blocks = {name: obs[sl] for name, sl in layout.items()}
    mine = state.current_player == observer
    blocks["phase"][state.phase] = 1
    blocks["in_final"][0] = state.in_final
    if mine and state.drawn:
        blocks["drawn_card"][state.drawn - 1] = 1
    if mine and R.PHASES[state.phase] in ("pass_left", "discard_one", "discard_own"):
        blocks["pending_choice"][:] = state.choice[1:] / 13
    slots = blocks["slots"].reshape(6, 23)
    for s in range(n):
        slots[s, state.slot_kinds[s]] = 1
        slots[s, 7] = 1
        slots[s, 8] = state.slot_taken[s]
        slots[s, 9] = (state.slot_capacity(s) - sum(state.slots[s])) / 4
        slots[s, 10:] = state.slots[s, 1:] / 4
    players = blocks["players"].reshape(6, 19)
    for k in range(n):
        p = (observer + k) % n
        players[k, 0] = 1
        players[k, 1] = p == state.current_player
        players[k, 2] = state.taken[p]
        players[k, 3] = R.score_counts(state.collections[p])[0] / 65
        players[k, 4:17] = state.collections[p, 1:] / 13
        players[k, 17] = p in state.final_queue
        players[k, 18] = p == state.last_taker
    seen = state.collections.sum(0) + state.slots.sum(0) + state.discard
    if mine and state.drawn:
        seen[state.drawn] += 1
    blocks["unseen"][:] = (R.deck_composition(n) - seen)[1:] / 13
    blocks["deck_size"][0] = len(state.deck) / 91
    blocks["discard"][:] = state.discard[1:] / 13
    blocks["num_players"][n - 2] = 1
    blocks["variants"][:] = [any(state.slot_kinds), state.config.uncertain_counts]
    return obs.astype(np.float32)


@settings(max_examples=12)
@given(
    n=st.integers(2, 6),
    cards=st.booleans(),
    uncertain=st.booleans(),
    seed=st.integers(0, 2**31),
)
def test_encoder_matches_reference_for_every_observer(n, cards, uncertain, seed):
    env = audition_v1.raw_env(
        num_players=n, action_cards=n if cards else (), uncertain_counts=uncertain
    )
    rng = np.random.default_rng(seed)
    for game in range(2):  # a second game reuses the encoder's buffers
        env.reset(seed=seed + game)
        while True:
            for agent in rng.permutation(env.possible_agents):
                seat = env.agent_name_mapping[agent]
                got = env.observe(agent)["observation"]
                want = reference(env.game, seat, env.observation_layout)
                np.testing.assert_allclose(got, want, atol=1e-6)
            if all(env.terminations.values()):
                break
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
