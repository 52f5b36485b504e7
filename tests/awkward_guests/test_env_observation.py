"""Awkward Guests' observation, checked field by field against the documented layout table (``docs/envs/awkward_guests.md``): the
egocentric players block and the public table, the hand rows, the notebook grid (every fact of
every level in its named cells), the ``deduced`` blocks against the solver over the agent's own
notebook, the agent's own pending accusation, and one size without a seer block.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest

from parlour.envs import awkward_guests_v1

from .game_helpers import generated_case
from .scenario_helpers import (
    FACT_TYPES,
    NO,
    PHASES,
    REFS,
    SUSPECTS,
    WEAPONS,
    YES,
    env_drain_dead,
    pass_turn_any,
    sus_act,
)


def test_observation_egocentric_players_block_and_public_table():
    case = generated_case("medium", 77, 40)
    env = awkward_guests_v1.raw_env(num_players=5, level="medium")
    env.reset(seed=1, options={"case": case, "start": 2})
    st = env.game
    rng = np.random.default_rng(1)
    lay = env.observation_layout
    for step in range(250):
        if st.is_terminal:
            break
        if step % 25 == 0:
            for p in range(5):
                _check_observation(env, st, p, lay)
        lg = st.legal_actions()
        a = NO if st.decision_name == "solution" else int(rng.choice(lg))
        env.step(a)
        env_drain_dead(env)


def _check_observation(env, st, p, lay):
    obs = env.observe(f"player_{p}")["observation"]
    n = st.num_players
    view = env.player_view(f"player_{p}")
    assert obs.dtype == np.float32 and obs.min() >= 0 and obs.max() <= 1
    levels = ["beginner", "very_easy", "easy", "medium", "hard", "very_hard", "expert"]
    assert list(obs[lay["level"]]) == [float(x == st.case.level) for x in levels]
    assert list(obs[lay["num_players"]]) == [float(k == n) for k in range(1, 9)]
    assert obs[lay["round"]][0] == pytest.approx(st.round / st.config.max_rounds)
    dec = obs[lay["pending_decision"]]
    assert (dec.sum() == 1.0) == (st.current_player == p)
    ph = obs[lay["phase"]]
    assert list(ph).index(1.0) == PHASES.index(view.phase) and ph.sum() == 1
    players = obs[lay["players"]].reshape(8, 13)
    for j in range(8):
        if j >= n:
            assert not players[j].any()
            continue
        s = (p + j) % n
        assert players[j, 0] == 1.0  # present
        assert players[j, 1] == float(st.out[s])
        assert players[j, 5] == pytest.approx(len(st.hands[s]) / 32)
        assert players[j, 4] == float(s == st.start)
        in_turn = view.phase in ("inquiry", "offer", "exchange")
        assert players[j, 3] == float(in_turn and s == view.active_player)
        assert players[j, 2] == float(s == st.current_player)
    asked = obs[lay["asked"]]
    assert {int(i) for i in np.flatnonzero(asked)} == {REFS.index(r) for r in view.asked}
    piles = obs[lay["piles"]]
    N = len(st.tables.ids)
    assert piles[0] == pytest.approx(view.deck_size / N)
    assert piles[1] == pytest.approx(view.discard_size / N)
    assert piles[2] == pytest.approx(len(view.revealed) / N)
    hand = obs[lay["hand"]].reshape(32, 40)
    for i in range(32):
        if i >= len(view.hand):
            assert not hand[i].any()
            continue
        h = view.hand[i]
        row = hand[i]
        assert row[0] == 1.0
        assert list(row[1:4]) == [float(h.value == v) for v in (1, 2, 3)]
        assert {REFS[int(k)] for k in np.flatnonzero(row[4:20])} == set(h.refs)
        counts = [sum(f["type"] == t for f in h.card.facts) / 3 for t in FACT_TYPES]
        assert np.allclose(row[20:32], counts)
        ego = {(s - p) % n for s in h.seen_by}
        assert {int(k) + 1 for k in np.flatnonzero(row[32:39])} == ego
        assert row[39] == float(h.selected)
    nb = obs[lay["notebook"]]
    assert {int(i) for i in np.flatnonzero(nb)} == _expected_cells(view.notebook)


@functools.cache
def _cell_index():
    from parlour.envs.awkward_guests.notebook import NOTEBOOK_SIZE, cell_name

    return {cell_name(i): i for i in range(NOTEBOOK_SIZE)}


def _pair(a, b):
    a, b = sorted((a, b), key=SUSPECTS.index)
    return f"{a}, {b}"


def _fact_cell_names(f):
    t = f["type"]
    if t == "sign_absent":
        return [f"signs_absent[{f['sign']}]"]
    if t == "weapon_unused":
        return [f"weapons_unused[{f['weapon']}]"]
    if t == "passage_unused":
        return [f"passages_unused[{f['from']}-{f['to']}]"]
    if t in ("seen_before", "seen_at_murder"):
        return [f"{t}[{f['suspect']}, {f['room']}]"]
    if t == "guest_count":
        return [f"guest_counts[{f['room']}, {f['count']}]"]
    if t == "claim":
        s = f["suspect"]
        return [f"claims[{s}, claimed]", f"claims[{s}, {f['room']}]"] + [
            f"claims[{s}, with {w}]" for w in f["with"]
        ]
    if t == "testimony":
        return [f"boxes[{f['motive']}, {f['speaker']}, {f['verdict']}]"]
    if t == "evidence":
        return [f"boxes[{f['motive']}, evidence, {f['verdict']}]"]
    if t in ("together", "apart"):
        return [f"{t}[{_pair(*f['suspects'])}]"]
    if t == "alone":
        return [f"alone[{f['suspect']}]"]
    raise AssertionError(t)


def _expected_cells(cards):
    idx = _cell_index()
    return {idx[name] for c in cards for f in c.facts for name in _fact_cell_names(f)}


def test_notebook_grid_records_every_fact_of_every_level():
    from parlour.envs.awkward_guests.case.facts import FACT_TYPES as IMPL_TYPES
    from parlour.envs.awkward_guests.notebook import card_cells

    assert list(IMPL_TYPES) == FACT_TYPES
    for k, level in enumerate(["beginner", "easy", "medium", "expert"]):
        case = generated_case(level, 500 + k, 70)
        for c in case.cards:
            assert set(card_cells(c)) == _expected_cells([c]), c.text


def test_deduced_mode_matches_solver_over_own_notebook():
    from parlour.envs.awkward_guests import solve

    case = generated_case("medium", 31, 70)
    env = awkward_guests_v1.raw_env(num_players=3, level="medium", observation_mode="deduced")
    env.reset(seed=3, options={"case": case})
    st = env.game
    rng = np.random.default_rng(3)
    for _ in range(120):
        lg = st.legal_actions()
        env.step(NO if st.decision_name == "solution" else int(rng.choice(lg)))
        env_drain_dead(env)
    lay = env.observation_layout
    for p in range(3):
        obs = env.observe(f"player_{p}")["observation"]
        view = env.player_view(f"player_{p}")
        sols = solve(list(view.facts), True)
        assert case.solution in sols
        assert {SUSPECTS[i] for i in np.flatnonzero(obs[lay["deduced_murderers"]])} == {
            s.murderer for s in sols
        }
        assert {WEAPONS[i] for i in np.flatnonzero(obs[lay["deduced_weapons"]])} == {
            s.weapon for s in sols
        }
        c = obs[lay["deduced_count"]][0]
        assert c == pytest.approx(
            math.log(len(sols)) / math.log(5760) if len(sols) > 1 else 0.0, abs=1e-5
        )


def test_own_pending_accusation_is_in_own_observation():
    case = generated_case("medium", 91, 40)
    env = awkward_guests_v1.raw_env(num_players=3, level="medium")
    env.reset(seed=5, options={"case": case, "start": 0})
    st = env.game
    for _ in range(3):
        pass_turn_any(st)
    env.agent_selection = "player_0"
    env.step(YES)
    env.step(sus_act("mortimer"))
    v = env.player_view("player_0")
    assert v.pending_accusation is not None and v.pending_accusation.murderer == "mortimer"
    lay = env.observation_layout
    acc = env.observe("player_0")["observation"][lay["pending_accusation"]]
    assert acc[SUSPECTS.index("mortimer")] == 1.0 and acc.sum() == 1.0


def test_default_observation_has_no_seer_block_and_fixed_size():
    sizes = set()
    for n in (1, 2, 5, 8):
        env = awkward_guests_v1.raw_env(num_players=n)
        assert "seer_solution" not in env.observation_layout
        sizes.add(env.observation_space("player_0")["observation"].shape)
    assert len(sizes) == 1
