"""Property tests of the Awkward Guests engine under random legal play (hypothesis)."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests.case.case import ACCOMPLICE_LEVELS

from .game_helpers import all_card_ids, generated_case

#: (level, seed, deck_size): a few real generated cases, small decks force reshuffles
CASES = [
    ("beginner", 1, 70),
    ("easy", 2, 70),
    ("medium", 3, 70),
    ("expert", 4, 70),
    ("easy", 5, 24),
    ("hard", 6, 30),
]


def _case(i: int):
    return generated_case(*CASES[i])


def _policy(rng: np.random.Generator, p_accuse: float, p_correct: float):
    """Random legal play; accuses with probability ``p_accuse`` (then the true solution with
    probability ``p_correct``, else random choices)."""

    def pick(state: G.GuestsState) -> list[int]:
        legal = state.legal_actions()
        if state.decision == G.D_SOLUTION:
            if rng.random() >= p_accuse:
                return [A.NO]
            if rng.random() < p_correct:
                return [A.YES] + G.accusation_actions(
                    state.case.solution, state.tables.accomplice_possible
                )
            return [A.YES]
        return [int(legal[int(rng.integers(len(legal)))])]

    return pick


games = st.fixed_dictionaries(
    {
        "n": st.integers(1, 8),
        "case": st.integers(0, len(CASES) - 1),
        "seed": st.integers(0, 2**31),
        "p_accuse": st.sampled_from([0.0, 0.03, 0.3]),
        "p_correct": st.sampled_from([0.0, 0.5]),
        "max_rounds": st.sampled_from([1, 3, 8]),
    }
)


def _new(g) -> G.GuestsState:
    case = _case(g["case"])
    return G.new_game(
        G.GuestsConfig(g["n"], g["max_rounds"]), case, np.random.default_rng(g["seed"])
    )


def _check_invariants(state: G.GuestsState, ids: list[int], prev_seen: np.ndarray) -> None:
    n = state.num_players
    assert all_card_ids(state) == ids  # every card exactly once
    assert (state.seen | prev_seen).sum() == state.seen.sum()  # notebooks only grow
    for p in range(n):
        hand = state.hands[p]
        assert hand == sorted(hand) and len(hand) <= G.MAX_HAND
        assert state.selected[p] <= set(hand)
        assert all(state.seen[p, c] for c in hand)  # a held card is in the notebook
        log = state.seen_log[p]
        assert len(log) == len(set(log)) == int(state.seen[p].sum())
        assert ((state.known[p] >> p) & 1).astype(bool).tolist() == state.seen[p].tolist()
        if state.out[p]:
            assert hand == []
        else:
            assert all(state.seen[p, c] for c in state.revealed)
    if n > 1 and not state.is_terminal:  # a player who is out has been paid its loss
        assert state.returns() == [-1.0 / (n - 1) if o else 0.0 for o in state.out]


@settings(max_examples=25)
@given(g=games)
def test_random_play_invariants(g):
    state = _new(g)
    rng = np.random.default_rng(g["seed"])
    pick = _policy(rng, g["p_accuse"], g["p_correct"])
    ids = sorted(state.tables.ids)
    prev = state.seen.copy()
    _check_invariants(state, ids, prev)
    steps = 0
    queue: list[int] = []
    while not state.is_terminal:
        mask = state.legal_mask()
        assert mask.dtype == np.int8 and mask.any(), "the deciding player always has a move"
        assert list(np.flatnonzero(mask)) == state.legal_actions()
        if not queue:
            queue = pick(state)
        a = queue.pop(0)
        assert mask[a]
        state.apply(a)
        steps += 1
        _check_invariants(state, ids, prev)
        prev = state.seen.copy()
        assert state.round <= g["max_rounds"]
        assert steps < 20_000, "every game ends"
    assert state.result in G.RESULTS
    assert state.legal_actions() == [] and not state.legal_mask().any()
    r = state.returns()
    if g["n"] == 1:
        assert r[0] in (-1.0, 0.0) or 0 < r[0] <= 0.99
    else:
        assert sum(r) == pytest.approx(0.0)
        if state.result == "win":
            assert state.winners and all(not state.out[w] for w in state.winners)
    if state.result == "truncated":
        assert state.round == g["max_rounds"]


@settings(max_examples=12)
@given(g=games, cut=st.integers(0, 300))
def test_pickle_deepcopy_clone_mid_game_continue_identically(g, cut):
    state = _new(g)
    rng = np.random.default_rng(g["seed"])
    pick = _policy(rng, g["p_accuse"], g["p_correct"])
    queue: list[int] = []
    for _ in range(cut):
        if state.is_terminal:
            break
        if not queue:
            queue = pick(state)
        state.apply(queue.pop(0))
    copies = [pickle.loads(pickle.dumps(state)), copy.deepcopy(state), state.clone()]
    trajectory = list(queue)
    for a in queue:
        state.apply(a)
    while not state.is_terminal:
        queue = pick(state)
        trajectory += queue
        for a in queue:
            state.apply(a)
    for c in copies:
        for a in trajectory:
            c.apply(a)
        assert c.is_terminal and c.result == state.result and c.winners == state.winners
        assert c.hands == state.hands and c.deck == state.deck and c.revealed == state.revealed
        assert (c.seen == state.seen).all() and c.seen_log == state.seen_log
        assert c.returns() == state.returns()


def test_clone_is_independent():
    state = G.new_game(G.GuestsConfig(3), _case(1), np.random.default_rng(0))
    c = state.clone()
    c.apply(c.legal_actions()[0])
    assert state.asked == [] and c.asked == [0]
    assert c.tables is state.tables  # immutable case data is shared


@pytest.mark.parametrize("n", [1, 2, 3, 8])
def test_accomplice_decisions_exist_only_at_medium_and_harder(n):
    for i in range(len(CASES)):
        case = _case(i)
        state = G.new_game(G.GuestsConfig(n, 1), case, np.random.default_rng(i))
        while state.decision != G.D_SOLUTION:
            state.apply(state.legal_actions()[-1])  # NO / last options: a quick round
        state.apply(A.YES)
        for a in (A.SUSPECT_0, A.MOTIVE_0, A.WEAPON_0):
            state.apply(a)
        assert (state.decision == G.D_ACCOMPLICE) == (case.level in ACCOMPLICE_LEVELS)
