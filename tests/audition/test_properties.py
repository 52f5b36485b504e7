"""Property tests of the Audition engine and env under random legal play (hypothesis)."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour.envs import audition_v1
from parlour.envs.audition import rules as R
from tests.audition.helpers import configs


def _random_game(cfg: R.AuditionConfig, seed: int):
    rng = np.random.default_rng(seed)
    return R.new_game(cfg, rng), rng


@given(cfg=configs(), seed=st.integers(0, 2**32 - 1))
def test_random_play_invariants(cfg, seed):
    state, rng = _random_game(cfg, seed)
    total = state.card_total()
    assert total == cfg.num_cards
    composition = R.deck_composition(cfg.num_players)
    steps = 0
    while not state.is_terminal:
        mask = state.legal_mask()
        assert mask.any(), "the acting player must always have a legal move"
        assert mask.dtype == np.int8 and set(np.unique(mask)) <= {0, 1}
        assert list(np.flatnonzero(mask)) == state.legal_actions()
        state.apply(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
        # cards are conserved, number by number
        per_number = (
            state.collections.sum(axis=0)
            + state.slots.sum(axis=0)
            + state.discard
            + np.bincount(state.deck + state.removed, minlength=R.MAX_NUMBER + 1)
        )
        if state.drawn:
            per_number[state.drawn] += 1
        assert (per_number == composition).all()
        assert state.card_total() == total
        assert all(
            0 <= state.slot_size[s] <= state.slot_capacity(s) for s in range(cfg.num_players)
        )
        assert (state.collections >= 0).all()
        # the derived caches agree with a recomputation from scratch
        fresh = state.clone()
        fresh.refresh()
        assert fresh.points == state.points and fresh.quartet_counts == state.quartet_counts
        assert (fresh.public_unseen == state.public_unseen).all()
        assert steps < 2000, "every game ends"
    assert state.legal_actions() == [] and not state.legal_mask().any()
    r = state.returns("win")
    assert sum(r) == pytest.approx(0.0)
    assert max(r) > 0 or len(state.winners()) == cfg.num_players
    assert sum(state.returns("score")) == pytest.approx(0.0)


@given(cfg=configs(), seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 150))
def test_pickle_deepcopy_clone_mid_game_continue_identically(cfg, seed, cut):
    state, rng = _random_game(cfg, seed)
    for _ in range(cut):
        if state.is_terminal:
            break
        state.apply(int(rng.choice(state.legal_actions())))
    copies = [pickle.loads(pickle.dumps(state)), copy.deepcopy(state), state.clone()]
    trajectory = []
    while not state.is_terminal:
        a = int(rng.choice(state.legal_actions()))
        trajectory.append(a)
        state.apply(a)
    for c in copies:
        for a in trajectory:
            c.apply(a)
        assert c.is_terminal
        assert (c.collections == state.collections).all()
        assert c.scores() == state.scores() and c.winners() == state.winners()


@given(cfg=configs(), seed=st.integers(0, 2**32 - 1))
def test_same_seed_same_trajectory_through_env(cfg, seed):
    kwargs = dict(
        num_players=cfg.num_players,
        action_cards=cfg.action_cards,
        uncertain_counts=cfg.uncertain_counts,
    )

    def run():
        env = audition_v1.env(**kwargs)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        out = []
        total = 0.0
        for agent in env.agent_iter():
            obs, rew, term, trunc, info = env.last()
            total += rew
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"]
            # the mask is all zeros for every agent but the acting one
            for other in env.possible_agents:
                if other != agent:
                    assert not env.unwrapped.observe(other)["action_mask"].any()
            a = int(rng.choice(np.flatnonzero(mask)))
            out.append((agent, a, obs["observation"].tobytes()))
            env.step(a)
        assert total == pytest.approx(0.0)  # rewards sum to 0
        return out

    assert run() == run()
