"""The Audition observation layout is declared data: named pieces and row fields, read through
:class:`ObservationView` (NumPy and torch, one observation or a batch) without offsets."""

from __future__ import annotations

import numpy as np
import pytest

from parlour.envs import audition_v1
from parlour.envs.audition import observation as O
from parlour.envs.audition import rules as R


def test_the_pieces_tile_the_vector_and_the_fields_tile_a_row():
    layout = O.make_layout(seer=True)
    assert [p.name for p in O.PIECES + O.SEER_PIECES] == list(layout)
    for piece in O.PIECES + O.SEER_PIECES:
        assert layout[piece.name].stop - layout[piece.name].start == piece.size
    for fields in (O.SLOT_FIELDS, O.PLAYER_FIELDS):
        assert sum(f.width for f in fields.fields.values()) == fields.size
    assert O.pieces()["slots"].shape == (R.MAX_PLAYERS, O.SLOT_FIELDS.size)
    assert O.pieces()["players"].shape == (R.MAX_PLAYERS, O.PLAYER_FIELDS.size)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_named_views_hold_the_engine_state(players):
    env = audition_v1.raw_env(num_players=players, action_cards=2)
    env.reset(seed=players)
    rng = np.random.default_rng(players)
    for _ in range(40):
        state, agent = env.game, env.agent_selection
        seat = env.agent_name_mapping[agent]
        view = O.ObservationView(env.observe(agent)["observation"])
        order = [(seat + k) % players for k in range(players)]
        np.testing.assert_array_equal(
            view.counts("players", "collection")[:players], state.collections[order, 1:]
        )
        np.testing.assert_array_equal(
            view.counts("slots", "musicians")[:players], state.slots[:, 1:]
        )
        np.testing.assert_array_equal(
            view.counts("slots", "room")[:players],
            [state.slot_capacity(s) - state.slot_size[s] for s in range(players)],
        )
        assert view.field("players", "present").tolist() == [1.0] * players + [0.0] * (6 - players)
        assert view.field("players", "acting")[0] == 1.0  # the observer acts
        kinds = view.field("slots", "kind")[:players].argmax(-1)
        assert kinds.tolist() == list(state.slot_kinds)
        assert view["drawn_card"].sum() == float(bool(state.drawn))
        legal = state.legal_actions()
        env.step(legal[rng.integers(len(legal))])


def test_views_of_a_torch_batch_keep_the_batch_shape():
    torch = pytest.importorskip("torch")

    env = audition_v1.raw_env(num_players=3)
    env.reset(seed=0)
    batch = torch.as_tensor(np.stack([env.observe(a)["observation"] for a in env.possible_agents]))
    view = O.ObservationView(batch)
    assert view["slots"].shape == (3, R.MAX_PLAYERS, O.SLOT_FIELDS.size)
    assert view.field("players", "score").shape == (3, R.MAX_PLAYERS)
    assert view.counts("players", "collection").shape == (3, R.MAX_PLAYERS, R.MAX_NUMBER)


def test_bad_names_are_named_with_the_known_ones():
    view = O.ObservationView(np.zeros(O.layout_size(O.make_layout()), np.float32))
    with pytest.raises(KeyError, match="no observation piece 'hand'.*drawn_card"):
        view["hand"]
    with pytest.raises(KeyError, match="no field 'hand'; fields: kind, present"):
        view.field("slots", "hand")
    with pytest.raises(ValueError, match="piece 'unseen' has no fields"):
        view.field("unseen", "count")
    with pytest.raises(ValueError, match="obs: an Audition observation has 321 values"):
        O.ObservationView(np.zeros(10, np.float32))
