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
from unittest import mock

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from parlour.envs import awkward_guests_v1
from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests.game import cards as game_cards
from parlour.envs.awkward_guests.observation import OBSERVATION_MODES, ObservationEncoder
from parlour.envs.awkward_guests.render import render_table
from parlour.envs.awkward_guests.view import make_view

from .game_helpers import WRONG, generated_case, slot
from .scenario_helpers import (
    NO,
    SOLO_ASK,
    WRONG_ACC,
    YES,
    S,
    W,
    accusation,
    build_case,
    deck_for,
    engine,
    env_drain_dead,
    make_bids,
    pass_turn_any,
    ref_act,
)

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
    for mode in OBSERVATION_MODES:
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
    env_a, env_b = awkward_guests_v1.raw_env(**kw), awkward_guests_v1.raw_env(**kw)
    env_a.reset(seed=seed, options={"deck": deck_a, "start": 0})
    env_b.reset(seed=seed, options={"deck": deck_b, "start": 0})
    taken: set[int] = set()  # cards taken off the deck of game A (drawn, or looked at solo)
    draw = game_cards.draw_card

    def spy(state):
        k = draw(state)
        if k is not None and state is env_a.game:
            taken.add(env_a.game.card_id(k))
        return k

    with mock.patch.object(game_cards, "draw_card", spy):
        _play_until_a_swapped_card_is_taken(env_a, env_b, rng, swapped, taken)


def _play_until_a_swapped_card_is_taken(env_a, env_b, rng, swapped, taken):
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
    env_a, env_b = awkward_guests_v1.raw_env(**kw), awkward_guests_v1.raw_env(**kw)
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


@pytest.mark.parametrize("mode", ["notebook", "deduced_choices", "deduced_shares", "deduced_odds"])
def test_a_pending_accusation_never_shows_to_anyone_else(mode):
    for n, level in ((3, "easy"), (4, "expert"), (2, "medium")):
        case = generated_case(level, 51)
        env = awkward_guests_v1.raw_env(num_players=n, cases=[case], observation_mode=mode)
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
        env = awkward_guests_v1.raw_env(num_players=3, cases=[case])
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


def _random_states(n, level, seed, count, p_acc=0.02):
    """Engine states sampled along a random game (accusations rare and random)."""
    if n == 1:
        p_acc = 0.0  # a solo accusation ends the game
    case = generated_case(level, seed, 40)
    state = engine(case, n, start=seed % n, seed=seed, max_rounds=12)
    rng = np.random.default_rng(seed)
    out = []
    picks = set(int(x) for x in rng.choice(400, size=count, replace=False))
    for step in range(400):
        if state.is_terminal:
            break
        if step in picks:
            out.append(state.clone())
        lg = state.legal_actions()
        if state.decision_name == "solution":
            a = YES if rng.random() < p_acc else NO
        else:
            a = int(rng.choice(lg))
        state.apply(a)
    return out


def _perturb_hidden(state, p, rng, other_solution):
    """Same state as seen by ``p``: cards ``p`` never saw are permuted among the other hands, the
    deck and the discard pile (hand sizes kept; offered cards untouched); another solution."""
    s2 = state.clone()
    unseen = ~state.seen[p]
    slots = []
    for q in range(state.num_players):
        if q == p:
            continue
        for i, c in enumerate(s2.hands[q]):
            if unseen[c] and c not in s2.selected[q]:
                slots.append(("h", q, i))
    for i, c in enumerate(s2.deck):
        if unseen[c]:
            slots.append(("d", 0, i))
    for i, c in enumerate(s2.discard):
        if unseen[c]:
            slots.append(("x", 0, i))

    def get(s):
        kind, q, i = s
        return {"h": lambda: s2.hands[q][i], "d": lambda: s2.deck[i], "x": lambda: s2.discard[i]}[
            kind
        ]()

    cards = [get(s) for s in slots]
    perm = list(rng.permutation(len(cards)))
    for s, j in zip(slots, perm, strict=True):
        kind, q, i = s
        if kind == "h":
            s2.hands[q][i] = cards[j]
        elif kind == "d":
            s2.deck[i] = cards[j]
        else:
            s2.discard[i] = cards[j]
    for q in range(state.num_players):
        if q != p:
            s2.hands[q].sort()
            s2.hand_version[q] += 1
    case2 = dataclasses.replace(state.case, solution=other_solution)
    s2.tables = G.case_tables(case2)
    return s2


@pytest.mark.parametrize(
    "n,level", [(1, "easy"), (2, "medium"), (3, "easy"), (5, "hard"), (8, "medium")]
)
def test_hidden_information_does_not_change_observation_view_or_render(n, level):
    rng = np.random.default_rng(n)
    states = _random_states(n, level, 40 + n, 8)
    assert states
    for state in states:
        other = WRONG_ACC if state.case.accomplice_possible else WRONG
        for p in range(n):
            if state.out[p]:
                continue
            s2 = _perturb_hidden(state, p, rng, other)
            for mode in OBSERVATION_MODES if p == 0 else ("notebook",):
                o1 = ObservationEncoder(mode).encode(state, p)
                o2 = ObservationEncoder(mode).encode(s2, p)
                assert np.array_equal(o1, o2), (mode, p, state.decision_name)
            assert make_view(state, p) == make_view(s2, p)
            if state.current_player == p:
                assert np.array_equal(state.legal_mask(), s2.legal_mask())
        # the rendered table is public: it may not depend on any hidden card or the solution
        agents = [f"player_{i}" for i in range(n)]
        assert render_table(state, agents) == render_table(_hide_all(state, rng, other), agents)


def _hide_all(state, rng, other):
    """Permute every card no player can see publicly (all hands, deck, discard), keep sizes."""
    s2 = state.clone()
    slots = []
    for q in range(state.num_players):
        for i, c in enumerate(s2.hands[q]):
            if c not in s2.selected[q]:
                slots.append(("h", q, i))
    slots += [("d", 0, i) for i in range(len(s2.deck))]
    slots += [("x", 0, i) for i in range(len(s2.discard))]
    vals = [
        s2.hands[q][i] if k == "h" else (s2.deck[i] if k == "d" else s2.discard[i])
        for k, q, i in slots
    ]
    perm = rng.permutation(len(vals))
    for (k, q, i), j in zip(slots, perm, strict=True):
        if k == "h":
            s2.hands[q][i] = vals[j]
        elif k == "d":
            s2.deck[i] = vals[j]
        else:
            s2.discard[i] = vals[j]
    for q in range(state.num_players):
        s2.hands[q].sort()
    s2.tables = G.case_tables(dataclasses.replace(state.case, solution=other))
    return s2


def test_render_shows_no_hand_card_text():
    case = generated_case("easy", 61, 40)
    env = awkward_guests_v1.raw_env(num_players=4, level="easy", render_mode="ansi")
    env.reset(seed=2, options={"case": case})
    state = env.game
    rng = np.random.default_rng(2)
    for step in range(300):
        if state.is_terminal:
            break
        if step % 20 == 0:
            text = env.render()
            public = {state.tables.ids[k] for k in state.revealed}
            for p in range(4):
                for c in state.hand_ids(p):
                    if c not in public:
                        assert case.card(c).text not in text
            for k in state.deck:
                assert state.tables.cards[k].text not in text or state.tables.ids[k] in public
        lg = state.legal_actions()
        env.step(NO if state.decision_name == "solution" else int(rng.choice(lg)))
        env_drain_dead(env)


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_pending_accusation_never_visible_to_anyone_else(level):
    case = generated_case(level, 90, 40)
    n = 4
    env = awkward_guests_v1.raw_env(num_players=n, level=level, render_mode="ansi")
    env.reset(seed=5, options={"case": case, "start": 0})
    state = env.game
    for _ in range(n):
        pass_turn_any(state)
    assert state.decision_name == "solution" and state.current_player == 0
    agents = env.possible_agents
    base = state.clone()

    def snapshot(state, seats):
        env.game = state
        out = {}
        for q in seats:
            a = agents[q]
            out[q] = (env.observe(a)["observation"].tobytes(), env.player_view(a), env.render())
        return out

    others = [1, 2, 3]
    before = snapshot(base, others)
    acc_possible = case.accomplice_possible
    paths = {
        "no": [NO],
        "wrong": [YES, *accusation(WRONG_ACC if acc_possible else WRONG, acc_possible)],
        "right": [YES, *accusation(case.solution, acc_possible)],
    }
    after = {}
    for name, acts in paths.items():
        s = base.clone()
        for i, a in enumerate(acts):
            s.apply(a)
            if s.current_player == 0:  # mid-accusation: nobody else sees anything change
                mid = snapshot(s, others)
                for q in others:
                    assert mid[q][0] == before[q][0], (name, i, q)
                    assert mid[q][1] == before[q][1]
                    assert mid[q][1].pending_accusation is None
                    assert mid[q][2] == before[q][2]
        assert s.current_player == 1 and s.decision_name == "solution"
        after[name] = snapshot(s, others)
    for q in others:
        assert after["no"][q][0] == after["wrong"][q][0] == after["right"][q][0]
        assert after["no"][q][1] == after["wrong"][q][1] == after["right"][q][1]
        assert after["no"][q][2] == after["wrong"][q][2] == after["right"][q][2]


def test_human_render_output_does_not_reveal_an_accusation(capsys):
    # docs/rules/awkward_guests.md, ruling R11: the Solution phase is sequential but "no one sees another's choice".
    # With render_mode="human" the table is printed after every step: going on is one step
    # (one print), an accusation is 4-6 steps (4-6 identical prints). Anybody watching the
    # human render (e.g. a person playing against agents) learns that player_0 accused before
    # deciding themselves. The public output must not depend on the hidden choice.
    import copy

    case = generated_case("easy", 90, 40)
    env = awkward_guests_v1.raw_env(num_players=3, level="easy", render_mode="human")
    env.reset(seed=5, options={"case": case, "start": 0})
    state = env.game
    for _ in range(3):
        pass_turn_any(state)
    env.agent_selection = "player_0"
    assert state.decision_name == "solution" and state.current_player == 0
    other = copy.deepcopy(env)
    capsys.readouterr()
    env.step(NO)
    went_on = capsys.readouterr().out
    for a in [YES, *accusation(WRONG, False)]:
        other.step(a)
    accused = capsys.readouterr().out
    assert env.game.current_player == other.game.current_player == 1
    assert accused == went_on


def _swap(s2, old, new):
    """Swap card ``old`` (offered / promised / on the table) with ``new`` (in the deck)."""
    for q in range(s2.num_players):
        if old in s2.hands[q]:
            s2.hands[q] = sorted(new if c == old else c for c in s2.hands[q])
            s2.hand_version[q] += 1
        if old in s2.selected[q]:
            s2.selected[q].discard(old)
            s2.selected[q].add(new)
    for b in s2.bids:
        b.cards = sorted(new if c == old else c for c in b.cards)
        b.payment = [new if c == old else c for c in b.payment]
    s2.table = [new if c == old else c for c in s2.table]
    s2.deck = [old if c == new else c for c in s2.deck]


def _same_for(state, s2, seats):
    for p in seats:
        assert np.array_equal(
            ObservationEncoder().encode(state, p), ObservationEncoder().encode(s2, p)
        )
        assert make_view(state, p) == make_view(s2, p)
    agents = [f"player_{i}" for i in range(state.num_players)]
    assert render_table(state, agents) == render_table(s2, agents)


def test_offered_and_promised_cards_stay_face_down():
    hands = [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11], [12, 13, 14, 15, 16, 17]]
    special = {
        0: S(0),
        1: S(1),
        2: W(2, "wrench"),
        6: S(6),
        12: S(12),
        13: W(13, "curtain_cord"),
        30: S(30, "dark_powder"),
        31: W(31, "frying_pan"),
    }
    case = build_case(special, total=40)
    state = engine(case, 3, deck=deck_for(case, hands), start=0)
    make_bids(state)
    state.apply(YES)
    state.apply(slot(state, 0, 2))  # promised, owed 1
    assert state.decision_name == "pay"
    s2 = state.clone()
    _swap(s2, 6, 30)  # seat 1 offered another value-3 study card
    _swap(s2, 2, 31)  # seat 0 promised another value-2 card
    _same_for(state, s2, [2])  # seat 2 saw neither
    s3 = state.clone()
    _swap(s3, 2, 31)
    _same_for(state, s3, [1])  # seat 1 has not yet seen what it will be paid


def test_solo_deck_bid_cards_stay_face_down():
    special = {6: S(6), 8: W(8, "curtain_cord"), 30: S(30, "dark_powder")}
    case = build_case(special, total=60)
    state = engine(case, 1, deck=list(range(60)), start=0)
    for r in SOLO_ASK:
        state.apply(ref_act(r))
    assert state.decision_name == "answer"
    s2 = state.clone()
    _swap(s2, 6, 30)
    _same_for(state, s2, [0])
