"""The batched Audition engine against the rules engine (through the raw AEC env).

Every configuration (2–6 players × action cards none / a random count / two fixed lists ×
uncertain counts off / on, both reward modes) plays random legal games in both at once: game
``k`` of a configuration is dealt by ``reset(seed=seeds[k])`` on both sides (the seeds are
recorded in ``tests/data/audition_batched_seeds.json``); when a game ends, the batched engine's
own auto-reset deal is copied into the AEC env and compared from there on. At every step the
legal mask, the observation of **every** seat, and at the end the rewards, scores and winners
must be equal (observations bit for bit), and so must every seat's player view
(:func:`~parlour.envs.audition.batched_view.batched_view` against the rules engine's
``make_view``). The default run plays a sample; the ``slow`` run
all 200 seeds of every configuration (8,000 first games, more after the auto-resets). The mini
table (``mini=True``, both reward modes) plays all 200 seeds in the default run (its games are
a few moves long).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from parlour.envs.audition import rules as R
from parlour.envs.audition.batched import BatchedAudition
from parlour.envs.audition.batched_view import batched_view
from parlour.envs.audition.env import raw_env
from parlour.envs.audition.view import make_view

SEEDS = json.loads((Path(__file__).parents[1] / "data" / "audition_batched_seeds.json").read_text())


def configurations() -> list[tuple[int, object, bool, str]]:
    out = []
    for n in range(R.MIN_PLAYERS, R.MAX_PLAYERS + 1):
        for ac in ((), n, R.ACTION_KINDS[:n], R.ACTION_KINDS[-n:]):
            for uncertain in (False, True):
                mode = "score" if (len(out) % 2) else "win"
                out.append((n, ac, uncertain, mode))
    return out


CONFIGS = configurations()


def _adopt_deal(env: raw_env, eng: BatchedAudition, i: int) -> None:
    """Reset ``env`` to the batched engine's (auto-reset) deal of game ``i``."""
    deck = eng.deck[i, : eng.dlen[i]].tolist()
    removed = eng.removed[i].tolist() if eng.config.uncertain_counts else []
    env.reset(seed=0, options={"deck": deck + removed, "start": int(eng.current[i])})
    env.game.slot_kinds = eng.kinds[i].tolist()
    env.game.refresh()


def _compare(envs: list[raw_env], eng: BatchedAudition) -> None:
    mask = eng.legal_mask()
    for seat in range(eng.n):
        obs = eng.observe(np.full(eng.N, seat))
        for i, env in enumerate(envs):
            o = env.observe(env.possible_agents[seat])
            assert np.array_equal(obs[i], o["observation"]), (i, seat, env.game.phase)
            if seat == env.game.current_player:
                assert np.array_equal(mask[i], o["action_mask"].astype(bool)), i
            assert batched_view(eng, i, seat) == make_view(env.game, seat), (i, seat)
    assert np.array_equal(eng.current, [e.game.current for e in envs])


def play_differential(
    config: tuple, seeds: list[int], rng_seed: int = 0, mini: bool = False
) -> int:
    """Play ``seeds`` first games (and what follows in their slots); returns games compared."""
    n, ac, uncertain, mode = config
    kwargs = dict(
        num_players=n, action_cards=ac, uncertain_counts=uncertain, reward_mode=mode, mini=mini
    )
    eng = BatchedAudition(len(seeds), seed=rng_seed, **kwargs)
    eng.reset(seeds)
    envs = [raw_env(**kwargs) for _ in seeds]
    for env, s in zip(envs, seeds, strict=True):
        env.reset(seed=s)
    finished = np.zeros(len(seeds), bool)
    rng = np.random.default_rng(rng_seed)
    games = 0
    while not finished.all():
        _compare(envs, eng)
        mask = eng.legal_mask()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        res = eng.step(actions)
        for i, env in enumerate(envs):
            env.step(int(actions[i]))
            if not res.done[i]:
                assert not env.terminations[env.agent_selection], i
                continue
            games += 1
            finished[i] = True
            results = env.results()
            assert results["over"]
            assert res.rewards[i].tolist() == [env.rewards[a] for a in env.possible_agents]
            assert res.scores[i].tolist() == list(results["scores"].values())
            winners = [env.possible_agents[p] for p in np.flatnonzero(res.winners[i])]
            assert winners == results["winners"]
            assert res.lengths[i] == env.game.num_moves
            _adopt_deal(env, eng, i)
    return games


@pytest.mark.parametrize("config", CONFIGS, ids=[str(c) for c in CONFIGS])
def test_batched_equals_rules_sample(config: tuple) -> None:
    k = CONFIGS.index(config)
    seeds = SEEDS["seeds"][k : k + 1]  # one recorded seed per configuration
    assert play_differential(config, seeds, rng_seed=k) >= len(seeds)


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=[str(c) for c in CONFIGS])
def test_batched_equals_rules_all_seeds(config: tuple) -> None:
    seeds = SEEDS["seeds"]
    assert play_differential(config, seeds, rng_seed=CONFIGS.index(config)) >= len(seeds)


@pytest.mark.parametrize("mode", ["win", "score"])
def test_batched_equals_rules_mini(mode: str) -> None:
    seeds = SEEDS["seeds"]
    assert play_differential((2, (), False, mode), seeds, rng_seed=1, mini=True) >= len(seeds)
    eng = BatchedAudition(4, mini=True, seed=0)
    assert all(sorted(eng.deck[i, : eng.dlen[i]].tolist()) == [1, 2, 2] for i in range(4))


def test_illegal_action_raises_and_changes_nothing() -> None:
    eng = BatchedAudition(3, num_players=3, seed=1)
    before = (eng.phase.copy(), eng.current.copy(), eng.dpos.copy())
    actions = np.array([R.DRAW, R.DRAW, R.PASS])  # PASS is not legal in the first turn
    with pytest.raises(R.IllegalActionError, match="game 2"):
        eng.step(actions)
    assert all(
        np.array_equal(x, y)
        for x, y in zip(before, (eng.phase, eng.current, eng.dpos), strict=True)
    )
    with pytest.raises(ValueError, match="actions must be 3 ints"):
        eng.step(np.zeros(2, np.int64))
    with pytest.raises(ValueError, match="num_games"):
        BatchedAudition(0)
    with pytest.raises(ValueError, match="reward_mode"):
        BatchedAudition(2, reward_mode="points")


def test_auto_reset_deals_are_seeded_and_complete() -> None:
    a, b = BatchedAudition(64, num_players=4, uncertain_counts=True, action_cards=2, seed=7), None
    b = BatchedAudition(64, num_players=4, uncertain_counts=True, action_cards=2, seed=7)
    assert np.array_equal(a.deck, b.deck) and np.array_equal(a.kinds, b.kinds)
    full = sorted(R.full_deck(4))
    for i in range(a.N):
        cards = a.deck[i, : a.dlen[i]].tolist() + a.removed[i].tolist()
        assert sorted(cards) == full
        assert (a.kinds[i] != R.K_CONDUCTOR).sum() == 2
