"""Awkward Guests engine bad input: invalid deck / start options and table settings raise
``ValueError`` naming them, and illegal actions (masked out, out of range, not ints) raise
``IllegalActionError`` and leave the state unchanged. (Bad env arguments and illegal actions
through the env: ``test_env_api.py``; every registered configuration: ``tests/conformance``.)
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G

from .game_helpers import ask, slot
from .scenario_helpers import CARD0, YES, build_case, case3, engine, ref_act, three


def test_illegal_action_raises_and_changes_nothing():
    case = build_case(total=40)
    st = engine(case, 3)
    before = (st.hand_ids(0), list(st.deck), st.decision_name, list(st.asked))
    for bad in (CARD0, YES, 95, -1, True, 3.0, None):
        with pytest.raises(G.IllegalActionError):
            st.apply(bad)
    assert (st.hand_ids(0), list(st.deck), st.decision_name, list(st.asked)) == before
    st.apply(ref_act("study"))
    with pytest.raises(G.IllegalActionError):
        st.apply(ref_act("study"))  # the same reference twice


def test_bad_deck_and_start_options():
    case = case3()
    cfg = G.GuestsConfig(3)
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="deck"):
        G.new_game(cfg, case, rng, deck=[1, 2, 3])
    with pytest.raises(ValueError, match="deck"):
        G.new_game(cfg, case, rng, deck=[c.id for c in case.cards][:-1] + [999])
    with pytest.raises(ValueError, match="start"):
        G.new_game(cfg, case, rng, start=3)
    for bad in (0, 9, "2", True):
        with pytest.raises(ValueError, match="num_players"):
            G.GuestsConfig(bad)
    with pytest.raises(ValueError, match="max_rounds"):
        G.GuestsConfig(2, 0)


def test_illegal_actions_raise_and_leave_the_state_unchanged():
    st = three()
    ask(st, "greg", "kitchen")
    st.apply(slot(st, 1, 11))
    for bad in [a for a in range(A.NUM_ACTIONS) if a not in st.legal_actions()] + [-1, 95, 1.0]:
        before = pickle.dumps(st)
        with pytest.raises(G.IllegalActionError, match="illegal action"):
            st.apply(bad)
        assert pickle.dumps(st) == before


def test_a_missing_case_file_in_the_reset_options_is_a_value_error(tmp_path):
    from parlour.envs import awkward_guests_v1

    env = awkward_guests_v1.raw_env(num_players=2)
    env.reset(seed=0)
    before = env.game
    missing = tmp_path / "nowhere" / "case.json"
    with pytest.raises(ValueError, match=r"options\['case'\]: cannot read the case file"):
        env.reset(options={"case": missing})
    assert env.game is before  # the failed reset changed nothing
