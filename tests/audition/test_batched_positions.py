"""``BatchedAudition.load_positions``: rules-engine states from any point of a game (played
positions and search agents' determinized worlds) continue in the batched engine exactly as in
the rules engine — masks, every seat's observation (bit for bit) and final scores."""

from __future__ import annotations

import numpy as np
import pytest

from parlour.envs.audition import rules as R
from parlour.envs.audition.batched import BatchedAudition
from parlour.envs.audition.determinize import determinize
from parlour.envs.audition.observation import ObservationEncoder
from parlour.envs.audition.view import make_view

CONFIGS = [
    (2, (), False),
    (3, 3, True),
    (4, R.ACTION_KINDS[:4], False),
    (5, 2, True),
    (6, R.ACTION_KINDS[-6:], False),
]


def _positions(config: R.AuditionConfig, count: int, rng: np.random.Generator) -> list:
    """Played positions at random depths, and worlds determinized from their player's view."""
    out = []
    for _ in range(count):
        state = R.new_game(config, rng)
        for _ in range(int(rng.integers(0, 200))):
            if state.is_terminal:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
        if state.is_terminal:
            continue
        out.append(state)
        view = make_view(state, state.current_player)
        out.append(determinize(view, rng))
    return out


def _compare(eng: BatchedAudition, states: list, every_seat: bool) -> None:
    mask = eng.legal_mask()
    for seat in range(eng.n) if every_seat else ():
        obs = eng.observe(np.full(eng.N, seat))
        for i, st in enumerate(states):
            assert np.array_equal(obs[i], ObservationEncoder().encode(st, seat)), (i, seat)
    obs = eng.observe(eng.current)
    for i, st in enumerate(states):
        assert np.array_equal(obs[i], ObservationEncoder().encode(st, st.current)), i
        assert np.array_equal(mask[i], st.legal_mask().astype(bool)), i
        assert eng.current[i] == st.current and eng.phase[i] == st.phase, i


@pytest.mark.parametrize("n,ac,unc", CONFIGS)
def test_loaded_positions_play_on_like_the_rules_engine(n: int, ac: object, unc: bool) -> None:
    rng = np.random.default_rng(n)
    config = R.AuditionConfig(n, ac, unc)
    states = _positions(config, 12, rng)
    states += states[:3]  # the same state in several games (as a search loads its worlds)
    eng = BatchedAudition(len(states), n, uncertain_counts=unc, seed=0, auto_reset=False)
    eng.load_positions(states)
    states = [st.clone() for st in states]
    steps = 0
    while True:
        _compare(eng, states, every_seat=steps % 8 == 0)
        live = np.flatnonzero([not st.is_terminal for st in states])
        if len(live) == 0:
            break
        mask = eng.legal_mask()
        actions = np.zeros(eng.N, np.int64)
        for i in live:
            actions[i] = rng.choice(np.flatnonzero(mask[i]))
            states[i].apply(int(actions[i]))
        eng.step(actions, games=live)
        steps += 1
    assert steps > 10
    assert np.array_equal(eng.points, [st.scores() for st in states])
    assert np.array_equal(eng.quartets, [st.quartets() for st in states])


def test_load_positions_rejects_states_of_another_table() -> None:
    eng = BatchedAudition(2, 3, seed=0)
    rng = np.random.default_rng(0)
    two = R.new_game(R.AuditionConfig(2), rng)
    with pytest.raises(ValueError, match="need 2 states, got 1"):
        eng.load_positions([two])
    with pytest.raises(ValueError, match="player count and uncertain-counts"):
        eng.load_positions([two, two])
    uncertain = R.new_game(R.AuditionConfig(3, uncertain_counts=True), rng)
    with pytest.raises(ValueError, match="player count and uncertain-counts"):
        eng.load_positions([uncertain, uncertain])


def test_load_with_a_bad_state_changes_no_game() -> None:
    eng = BatchedAudition(2, 3, seed=0, auto_reset=False)
    eng.reset([1, 2])
    before = (eng.observe(eng.current), eng.legal_mask(), eng.deck.copy(), eng.current.copy())
    rng = np.random.default_rng(0)
    fresh = R.new_game(R.AuditionConfig(3), rng)
    played = R.new_game(R.AuditionConfig(3), rng)
    played.apply(int(np.flatnonzero(played.legal_mask())[0]))
    with pytest.raises(ValueError, match="fresh deals"):
        eng.load([fresh, played])  # the first is fine, the second is not: neither is loaded
    after = (eng.observe(eng.current), eng.legal_mask(), eng.deck, eng.current)
    assert all(np.array_equal(a, b) for a, b in zip(before, after, strict=True))
