"""Information-leak tests: what an agent has not seen must not change its observation or view.

* other players' hands, the deck order and the discard pile: every card the observer has not
  seen is relabelled by a random permutation (a consistent state that differs only in what
  the observer cannot know) — its observation and view stay the same;
* the deck order through the env: two decks that differ in two cards still in the deck give
  identical observations and views to everyone until one of them is drawn;
* the solution: the same cards with another solution give identical observations;
* a pending accusation never shows in another player's observation or view.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import event, given, settings
from hypothesis import strategies as st

from parlour.envs import awkward_guests_v0
from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests.observation import ObservationEncoder
from parlour.envs.awkward_guests.view import make_view

from .game_helpers import WRONG, generated_case

LEVELS = ("beginner", "easy", "medium", "expert")


def _random_state(n: int, level: str, seed: int, steps: int) -> G.GuestsState:
    case = generated_case(level, 21 + LEVELS.index(level), 30 if seed % 2 else 70)
    state = G.new_game(G.GuestsConfig(n, 30), case, np.random.default_rng(seed))
    rng = np.random.default_rng(seed + 1)
    for _ in range(steps):
        if state.is_terminal:
            break
        legal = state.legal_actions()
        if state.decision == G.D_SOLUTION and rng.random() < 0.9:
            a = A.NO
        else:
            a = int(legal[int(rng.integers(len(legal)))])
        state.apply(a)
    return state


def relabel(state: G.GuestsState, perm: dict[int, int]) -> G.GuestsState:
    """A copy of ``state`` with card index ``k`` renamed ``perm[k]`` everywhere (identity for
    cards not in ``perm``). Public bid values / counts are kept as they were."""

    def m(k: int) -> int:
        return perm.get(k, k)

    s = state.clone()
    s.hands = [sorted(m(k) for k in h) for h in state.hands]
    s.deck = [m(k) for k in state.deck]
    s.discard = [m(k) for k in state.discard]
    s.revealed = [m(k) for k in state.revealed]
    s.table = [m(k) for k in state.table]
    s.selected = [{m(k) for k in sel} for sel in state.selected]
    for b in s.bids:
        b.cards = [m(k) for k in b.cards]
        b.payment = [m(k) for k in b.payment]
    s.seen_log = [[m(k) for k in log] for log in state.seen_log]
    idx = np.arange(state.tables.num_cards)
    inv = idx.copy()
    for k, v in perm.items():
        inv[v] = k
    s.seen = state.seen[:, inv]
    s.known = state.known[:, inv]
    s.hand_version = [v + 1000 for v in state.hand_version]
    return s


def _obs_and_view(state: G.GuestsState, seat: int, mode: str = "notebook"):
    enc = ObservationEncoder(mode)
    return enc.encode(state, seat), make_view(state, seat)


@settings(max_examples=25)
@given(
    n=st.integers(2, 8),
    level=st.sampled_from(LEVELS),
    seed=st.integers(0, 2**31),
    steps=st.integers(0, 250),
    data=st.data(),
)
def test_relabelling_every_unseen_card_changes_nothing_the_observer_sees(
    n, level, seed, steps, data
):
    state = _random_state(n, level, seed, steps)
    seat = data.draw(st.integers(0, n - 1), label="observer")
    unseen = [int(k) for k in np.flatnonzero(~state.seen[seat])]
    unseen = [k for k in unseen if k not in state.revealed]  # the revealed pile is public
    rng = np.random.default_rng(seed)
    perm = dict(zip(unseen, (int(x) for x in rng.permutation(unseen)), strict=True))
    other = relabel(state, perm)
    for mode in ("notebook", "deduced"):
        obs_a, view_a = _obs_and_view(state, seat, mode)
        obs_b, view_b = _obs_and_view(other, seat, mode)
        np.testing.assert_array_equal(obs_a, obs_b)
        assert view_a == view_b
    event(
        "relabelled state differs"
        if other.hands != state.hands or other.deck != state.deck
        else "same"
    )


@settings(max_examples=15)
@given(
    n=st.integers(1, 8),
    level=st.sampled_from(LEVELS),
    seed=st.integers(0, 2**31),
    data=st.data(),
)
def test_unseen_deck_order_does_not_leak_through_the_env(n, level, seed, data):
    case = generated_case(level, 31 + LEVELS.index(level))
    rng = np.random.default_rng(seed)
    ids = [c.id for c in case.cards]
    deck_a = [int(x) for x in rng.permutation(ids)]
    size = len(deck_a)
    dealt = 6 * n
    i = data.draw(st.integers(dealt, size - 2), label="i")
    j = data.draw(st.integers(i + 1, size - 1), label="j")
    deck_b = list(deck_a)
    deck_b[i], deck_b[j] = deck_b[j], deck_b[i]
    swapped = {deck_a[i], deck_a[j]}
    kw = dict(num_players=n, cases=[case], max_rounds=4)
    env_a, env_b = awkward_guests_v0.raw_env(**kw), awkward_guests_v0.raw_env(**kw)
    env_a.reset(seed=seed, options={"deck": deck_a, "start": 0})
    env_b.reset(seed=seed, options={"deck": deck_b, "start": 0})
    taken: set[int] = set()  # cards taken off the deck of game A (drawn, or looked at solo)
    draw = env_a.game._draw_card

    def spy():
        k = draw()
        if k is not None:
            taken.add(env_a.game.card_id(k))
        return k

    env_a.game._draw_card = spy
    while env_a.agents:
        if swapped & taken:
            break  # one of the two cards has been taken: from here the games may differ
        for agent in env_a.possible_agents:
            np.testing.assert_array_equal(
                env_a.observe(agent)["observation"], env_b.observe(agent)["observation"]
            )
            assert env_a.player_view(agent) == env_b.player_view(agent)
        agent = env_a.agent_selection
        if env_a.terminations[agent] or env_a.truncations[agent]:
            a = None
        else:
            mask = env_a.observe(agent)["action_mask"]
            a = int(rng.choice(np.flatnonzero(mask)))
            if env_a.game.decision == G.D_SOLUTION and rng.random() < 0.8:
                a = A.NO
        env_a.step(a)
        env_b.step(a)


@settings(max_examples=10)
@given(n=st.integers(1, 6), seed=st.integers(0, 2**31))
def test_the_solution_does_not_leak(n, seed):
    case = generated_case("medium", 41)
    other = dataclasses.replace(case, solution=WRONG._replace())
    assert other.solution != case.solution
    kw = dict(num_players=n, max_rounds=3)
    env_a, env_b = awkward_guests_v0.raw_env(**kw), awkward_guests_v0.raw_env(**kw)
    env_a.reset(seed=seed, options={"case": case})
    env_b.reset(seed=seed, options={"case": other})
    rng = np.random.default_rng(seed)
    while env_a.agents:
        for agent in env_a.possible_agents:
            np.testing.assert_array_equal(
                env_a.observe(agent)["observation"], env_b.observe(agent)["observation"]
            )
            assert env_a.player_view(agent) == env_b.player_view(agent)
        agent = env_a.agent_selection
        if env_a.terminations[agent] or env_a.truncations[agent]:
            a = None
        elif env_a.game.decision == G.D_SOLUTION:
            a = A.NO  # no accusation: the outcome would differ
        else:
            mask = env_a.observe(agent)["action_mask"]
            a = int(rng.choice(np.flatnonzero(mask)))
        env_a.step(a)
        env_b.step(a)
    assert env_a.game.result == env_b.game.result == "truncated"


def _to_solution_phase(env, rng):
    while env.game.decision != G.D_SOLUTION:
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))


def test_a_pending_accusation_never_shows_to_anyone_else():
    for n, level in ((3, "easy"), (4, "expert"), (2, "medium")):
        case = generated_case(level, 51)
        env = awkward_guests_v0.raw_env(num_players=n, cases=[case])
        env.reset(seed=n)
        rng = np.random.default_rng(n)
        _to_solution_phase(env, rng)
        accuser = env.agent_selection
        others = [a for a in env.possible_agents if a != accuser]

        def snapshot(env=env, others=others):
            return [(env.observe(a)["observation"], env.player_view(a)) for a in others]

        before = snapshot()
        L = env.observation_layout
        steps = [A.YES] + G.accusation_actions(WRONG, case.accomplice_possible)
        for a in steps[:-1]:  # every step of the accusation but the last
            env.step(a)
            assert env.agent_selection == accuser
            own = env.observe(accuser)["observation"]
            assert own[L["pending_decision"]].any()
            if a != A.YES:
                assert own[L["pending_accusation"]].any()
            assert env.player_view(accuser).pending_accusation is not None
            for (obs0, view0), (obs1, view1) in zip(before, snapshot(), strict=True):
                np.testing.assert_array_equal(obs0, obs1)
                assert view0 == view1
                assert view1.pending_accusation is None
        env.step(steps[-1])


def test_the_next_decider_cannot_tell_whether_the_previous_one_accused():
    case = generated_case("medium", 52)
    envs_ = []
    for accuse in (True, False):
        env = awkward_guests_v0.raw_env(num_players=3, cases=[case])
        env.reset(seed=9)
        _to_solution_phase(env, np.random.default_rng(9))
        if accuse:
            env.step(A.YES)
            for a in G.accusation_actions(WRONG, True):
                env.step(a)
        else:
            env.step(A.NO)
        envs_.append(env)
    a, b = envs_
    assert a.agent_selection == b.agent_selection
    for agent in a.possible_agents:
        np.testing.assert_array_equal(
            a.observe(agent)["observation"], b.observe(agent)["observation"]
        )
        assert a.player_view(agent) == b.player_view(agent)
