"""The Audition PPO feature extractor computes score arithmetic that matches the engine."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import torch

from parlour.envs import audition_v1
from parlour.games.audition.greedy import PTS, gain
from parlour.games.audition.training import AuditionFeatures


@pytest.mark.parametrize(("players", "kw"), [(2, {}), (4, {"action_cards": 2}), (6, {})])
def test_take_place_and_choose_features_match_the_engine(players, kw):
    env = audition_v1.raw_env(num_players=players, **kw)
    env.reset(seed=players)
    space = env.observation_space("player_0")["observation"]
    extractor = AuditionFeatures(space)
    rng = np.random.default_rng(0)
    placing = 0
    for step in range(250):
        game = env.game
        if game.is_terminal:
            env.reset(seed=step)
            continue
        me = game.current_player
        obs = env.observe(env.agent_selection)["observation"]
        out = extractor(torch.as_tensor(obs[None]))[0].numpy()
        assert out.shape == (extractor.features_dim,)
        np.testing.assert_array_equal(out[: obs.size], obs)
        feats = out[obs.size :] * 5.0
        take = feats[:36].reshape(6, 6)
        place = feats[36:72].reshape(6, 6)
        lose, give = feats[72:85], feats[85:98]
        for k in range(players):
            p = (me + k) % players  # egocentric player blocks
            coll = game.collections[p].tolist()
            for s in range(players):
                assert take[k, s] == pytest.approx(gain(coll, game.slots[s].tolist()))
                cards = game.slots[s].tolist()
                if game.drawn:
                    cards[game.drawn] += 1
                    assert place[k, s] == pytest.approx(gain(coll, cards))
                else:
                    assert place[k, s] == 0
        mine = game.collections[me].tolist()
        left = game.collections[(me + 1) % players].tolist()
        for v in range(1, 14):
            assert lose[v - 1] == pytest.approx(PTS[mine[v] - 1] - PTS[mine[v]] if mine[v] else 0)
            assert give[v - 1] == pytest.approx(PTS[left[v] + 1] - PTS[left[v]])
        assert not take[players:].any() and not take[:, players:].any()
        placing += bool(game.drawn)
        legal = game.legal_actions()
        env.step(legal[rng.integers(len(legal))])
    assert placing > 20


def _padded_reference(obs: torch.Tensor) -> torch.Tensor:
    """The take / place gains over every padded seat and slot (the extractor's computation
    before it kept to the rows a batch uses), written out from the observation layout."""
    from parlour.envs.audition import observation as O
    from parlour.games.audition.training import POINTS_SCALE, _points

    b = obs.shape[0]
    view = O.ObservationView(obs)
    slot_counts = view.counts("slots", "musicians")
    coll = view.counts("players", "collection")
    drawn = view["drawn_card"].round()
    base = _points(coll).sum(-1)
    present = (
        view.field("players", "present")[:, :, None] * view.field("slots", "present")[:, None, :]
    )
    take = (
        _points(coll[:, :, None, :] + slot_counts[:, None, :, :]).sum(-1) - base[:, :, None]
    ) * present
    placed = slot_counts + drawn[:, None, :]
    place = _points(coll[:, :, None, :] + placed[:, None, :, :]).sum(-1) - base[:, :, None]
    place = place * present * drawn.sum(-1)[:, None, None]
    me, left = coll[:, 0, :], coll[:, 1, :]
    lose = (_points(me - 1) - _points(me)) * (me > 0).float()
    give = _points(left + 1) - _points(left)
    feats = torch.cat([take.reshape(b, -1), place.reshape(b, -1), lose, give], dim=1)
    return torch.cat([obs, feats / POINTS_SCALE], dim=1)


def _positions(players: int, kw: dict, steps: int) -> Iterator[tuple[Any, np.ndarray]]:
    """Random play for ``steps`` steps: at each position before its move, the engine's state
    (changed in place by the next step) and the acting seat's observation."""
    env = audition_v1.raw_env(num_players=players, **kw)
    env.reset(seed=players)
    rng = np.random.default_rng(players)
    for step in range(steps):
        if env.game.is_terminal:
            env.reset(seed=step)
            continue
        yield env.game, env.observe(env.agent_selection)["observation"]
        legal = env.game.legal_actions()
        env.step(legal[rng.integers(len(legal))])


def _observations(players: int, kw: dict, steps: int) -> np.ndarray:
    return np.array([obs for _, obs in _positions(players, kw, steps)])


def test_batches_of_any_table_sizes_equal_the_padded_computation():
    """The extractor computes the gains only over the seats and slots some observation of the
    batch has; batches of one table size and mixed ones equal the full padded computation in
    value (a padded entry is +0.0 where the padded computation could give -0.0)."""
    tables = {
        n: _observations(n, kw, 300)
        for n, kw in ((2, {}), (3, {"action_cards": 3}), (5, {}), (6, {"uncertain_counts": True}))
    }
    extractor = AuditionFeatures(
        audition_v1.raw_env(num_players=2).observation_space("player_0")["observation"]
    )
    mixed = np.concatenate([tables[2][:100], tables[6][:7], tables[3][:50]])
    for batch in [*tables.values(), mixed, mixed[::-1].copy(), tables[2][:1], tables[5][:3]]:
        x = torch.as_tensor(batch)
        with torch.no_grad():
            assert torch.equal(extractor(x), _padded_reference(x))


@pytest.mark.parametrize(("players", "kw"), [(2, {}), (3, {"action_cards": 3}), (6, {})])
def test_count_indicators_name_each_players_count_of_each_number(players, kw):
    """``count_indicators=True`` appends, per egocentric player and number, indicators of holding
    exactly 1, 2, 3, 4 and 5+ cards (read from the engine's collections); the features before
    them are the default extractor's, and absent seats are zero."""
    wanted, observations, seen = [], [], set()
    for game, obs in _positions(players, kw, 400):
        me = game.current_player
        want = np.zeros((6, 13, 5))  # egocentric seat x number x (1, 2, 3, 4, 5+)
        for k in range(players):
            for v in range(1, 14):
                c = int(game.collections[(me + k) % players][v])
                if c:
                    want[k, v - 1, min(c, 5) - 1] = 1
                    seen.add(min(c, 5))
        wanted.append(want)
        observations.append(obs)
    assert seen == {1, 2, 3, 4, 5}
    batch = torch.as_tensor(np.array(observations))
    space = audition_v1.raw_env(num_players=2).observation_space("player_0")["observation"]
    plain, counted = AuditionFeatures(space), AuditionFeatures(space, count_indicators=True)
    with torch.no_grad():
        base, out = plain(batch), counted(batch)
    assert counted.features_dim == plain.features_dim + 6 * 13 * 5
    assert torch.equal(out[:, : plain.features_dim], base)
    indicators = out[:, plain.features_dim :].reshape(-1, 6, 13, 5).numpy()
    np.testing.assert_array_equal(indicators, np.array(wanted))


def test_count_indicators_of_a_mixed_batch_equal_each_observation_alone():
    """Tables of 2, 3, 5 and 6 players in one batch (the indicators cover only the seats some
    observation of the batch has): every row equals that observation's own output."""
    two = _observations(2, {}, 60)
    batch = np.concatenate(
        [
            two,
            _observations(6, {"uncertain_counts": True}, 60),
            _observations(3, {"action_cards": 3}, 60),
            _observations(5, {}, 60),
        ]
    )
    space = audition_v1.raw_env(num_players=2).observation_space("player_0")["observation"]
    extractor = AuditionFeatures(space, count_indicators=True)
    x = torch.as_tensor(batch)
    with torch.no_grad():
        together = extractor(x)
        alone = torch.cat([extractor(x[i : i + 1]) for i in range(len(x))])
    assert torch.equal(together, alone)
    # the 2-player rows: nothing for seats 2-5, though the batch has 6-player rows
    assert together[: len(two), -6 * 13 * 5 :].reshape(-1, 6, 13, 5)[:, 2:].abs().sum() == 0


def test_count_indicators_must_be_a_bool():
    space = audition_v1.raw_env(num_players=2).observation_space("player_0")["observation"]
    with pytest.raises(ValueError, match="count_indicators must be true or false, got 1"):
        AuditionFeatures(space, count_indicators=1)
