"""Accusation statistics: the engine's ``accusation_log``, the AEC env's ``results()``
(``rounds``, ``accusations``, ``wrong_accusations``, ``solved``) and the solo env's final info
(``rounds``, ``solved``, ``is_success``), on scripted games with a known wrong and a known
correct accusation."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

from parlour.envs import awkward_guests_v1
from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests.case.solution import Solution
from parlour.envs.awkward_guests.solo import AwkwardGuestsSoloEnv

from .game_helpers import SOLUTION, WRONG, accuse, deal_deck, game, padded_case

HANDS3 = [list(range(0, 6)), list(range(6, 12)), list(range(12, 18))]


def case40():
    return padded_case([], total=40)


def _pass_move(st: G.GuestsState) -> int:
    """A move that never trades and never accuses (first legal ref / card, otherwise NO)."""
    if st.decision in (G.D_OFFER, G.D_ANSWER, G.D_SOLUTION):
        return A.NO
    return st.legal_actions()[0]


def _to_solution_phase(st: G.GuestsState) -> None:
    while st.decision != G.D_SOLUTION:
        st.apply(_pass_move(st))


# -- the engine ---------------------------------------------------------------------------------


def test_log_records_a_wrong_then_a_correct_accusation_with_rounds_and_seats():
    st = game(case40(), 3, HANDS3, start=0)
    _to_solution_phase(st)
    accuse(st, WRONG)  # seat 0, round 1
    assert st.accusation_log == []  # resolved only when everybody has decided
    st.apply(A.NO)
    st.apply(A.NO)
    assert st.accusation_log == [(1, 0, False)] and st.out == [True, False, False]
    snapshot = st.clone()
    st.apply(A.NO)  # the new Solution phase for the two left: nobody accuses
    st.apply(A.NO)
    _to_solution_phase(st)
    assert st.round == 2 and st.current_player == 1  # the start player moved to seat 1
    accuse(st, SOLUTION)
    assert not st.is_terminal
    st.apply(A.NO)  # seat 2 goes on
    assert st.result == "win" and st.winners == [1]
    assert st.accusation_log == [(1, 0, False), (2, 1, True)]
    assert snapshot.accusation_log == [(1, 0, False)]  # the clone has its own list


def test_wrong_accusers_of_the_phase_a_correct_accuser_ends_are_logged_too():
    st = game(case40(), 3, HANDS3, start=0)
    _to_solution_phase(st)
    accuse(st, WRONG)
    accuse(st, SOLUTION)
    accuse(st, Solution("angelica", "sinister_plans", "pillow"))
    assert st.result == "win" and st.winners == [1] and not any(st.out)
    assert st.accusation_log == [(1, 0, False), (1, 1, True), (1, 2, False)]


def test_log_is_copied_by_clone_deepcopy_and_pickle():
    st = game(case40(), 3, HANDS3, start=0)
    _to_solution_phase(st)
    accuse(st, WRONG)
    st.apply(A.NO)
    st.apply(A.NO)
    copies = [st.clone(), copy.deepcopy(st), pickle.loads(pickle.dumps(st))]
    st.apply(A.NO)  # seat 1 goes on, seat 2 accuses correctly
    accuse(st, SOLUTION)
    assert st.accusation_log == [(1, 0, False), (1, 2, True)]
    for c in copies:
        assert c.accusation_log == [(1, 0, False)]
        assert c.accusation_log is not st.accusation_log
        c.apply(A.NO)
        accuse(c, SOLUTION)  # a copy continues exactly like the original
        assert c.accusation_log == st.accusation_log and c.winners == st.winners


def test_solo_log():
    st = game(case40(), 1, [HANDS3[0]], start=0)
    _to_solution_phase(st)
    st.apply(A.NO)
    _to_solution_phase(st)
    accuse(st, WRONG)
    assert st.result == "loss" and st.accusation_log == [(2, 0, False)]


# -- the AEC env ----------------------------------------------------------------------------------


def _play_env(env: Any, accusations: list[Solution | None]) -> tuple[list[dict], dict]:
    """Play ``env`` with :func:`_pass_move`, the Solution-phase decisions taken in turn from
    ``accusations`` (``None``: go on). Returns ``results()`` after every decision while the game
    ran, and the final ``results()``. Infos are ``{}`` throughout."""
    decisions = iter(accusations)
    during: list[dict] = []
    while env.agents:
        agent = env.agent_selection
        st = env.game
        assert all(info == {} for info in env.infos.values())
        if env.terminations[agent] or env.truncations[agent]:
            assert st.is_terminal  # no dead steps mid-game: a player who is out stays in
            env.step(None)
            continue
        if st.decision == G.D_SOLUTION:
            sol = next(decisions)
            if sol is None:
                env.step(A.NO)
            else:
                for a in [A.YES, *G.accusation_actions(sol, st.tables.accomplice_possible)]:
                    env.step(a)
        else:
            env.step(_pass_move(st))
        if not st.is_terminal:
            during.append(env.results())
    return during, env.results()


def test_env_results_count_accusations_wrong_ones_and_solvers():
    case = case40()
    env = awkward_guests_v1.raw_env(num_players=3, level="easy")
    env.reset(seed=0, options={"case": case, "deck": deal_deck(case, HANDS3), "start": 0})
    # round 1: seat 0 wrong, 1 and 2 go on; the new phase: nobody; round 2: seat 1 correct
    during, final = _play_env(env, [WRONG, None, None, None, None, SOLUTION, None])
    assert env.game.accusation_log == [(1, 0, False), (2, 1, True)]
    nobody = {"player_0": 0, "player_1": 0, "player_2": 0}
    before = [r for r in during if not r["out"]["player_0"]]
    after = [r for r in during if r["out"]["player_0"]]
    assert before and after and during == before + after
    for r in before:
        assert r["accusations"] == r["wrong_accusations"] == nobody and r["rounds"] == 1
    # while the game runs, the only resolved accusations are the wrong ones: who is out
    for r in after:
        assert r["accusations"] == r["wrong_accusations"] == {**nobody, "player_0": 1}
        assert not any(r["solved"].values()) and r["winners"] == [] and not r["over"]
    assert {r["rounds"] for r in after} == {1, 2}
    assert final["over"] and final["result"] == "win"
    assert final["winners"] == ["player_1"]
    assert final["rounds"] == 2
    assert final["accusations"] == {"player_0": 1, "player_1": 1, "player_2": 0}
    assert final["wrong_accusations"] == {"player_0": 1, "player_1": 0, "player_2": 0}
    assert final["solved"] == {"player_0": False, "player_1": True, "player_2": False}
    # every call hands out fresh dictionaries
    assert env.results()["solved"] is not env.results()["solved"]
    assert env.results() == final


def test_env_results_at_truncation_and_with_the_wrapped_env():
    case = case40()
    env = awkward_guests_v1.env(num_players=2, level="easy", max_rounds=2)
    env.reset(seed=0, options={"case": case, "deck": deal_deck(case, HANDS3[:2]), "start": 1})
    _, final = _play_env(env.unwrapped, [None] * 4)
    assert final["winners"] == [] and final["rounds"] == 2 and final["result"] == "truncated"
    assert final["accusations"] == {"player_0": 0, "player_1": 0}
    assert final["wrong_accusations"] == {"player_0": 0, "player_1": 0}
    assert final["solved"] == {"player_0": False, "player_1": False}


# -- the solo Gymnasium env ------------------------------------------------------------------------


def _solo_episode(max_rounds: int, plan: list[Solution | None]) -> dict[str, Any]:
    case = case40()
    env = AwkwardGuestsSoloEnv(level="easy", max_rounds=max_rounds)
    env.reset(seed=0, options={"case": case, "deck": deal_deck(case, [HANDS3[0]]), "start": 0})
    decisions = iter(plan)
    queue: list[int] = []
    while True:
        st = env.game
        if queue:
            a = queue.pop(0)
        elif st.decision == G.D_SOLUTION:
            sol = next(decisions)
            if sol is None:
                a = A.NO
            else:
                a = A.YES
                queue = G.accusation_actions(sol, st.tables.accomplice_possible)
        else:
            a = _pass_move(st)
        _, reward, term, trunc, info = env.step(a)
        if term or trunc:
            info["reward"] = reward
            return info


@pytest.mark.parametrize(
    ("plan", "result", "rounds", "solved", "reward"),
    [
        ([None, SOLUTION], "win", 2, True, 0.98),
        ([WRONG], "loss", 1, False, -1.0),
        ([None, None, None], "truncated", 3, False, 0.0),
    ],
)
def test_solo_final_info_has_rounds_solved_and_is_success(plan, result, rounds, solved, reward):
    info = _solo_episode(3, plan)
    assert info["result"] == result and info["reward"] == pytest.approx(reward)
    assert info["rounds"] == rounds
    assert info["solved"] is solved and info["is_success"] is solved


def test_solo_illegal_action_is_no_success():
    env = AwkwardGuestsSoloEnv(level="easy", cases=[case40()])
    env.reset(seed=0)
    _, reward, term, _, info = env.step(A.YES)  # not legal in the inquiry
    assert term and reward == -1.0 and info["illegal_action"]
    assert info["rounds"] == 1 and info["solved"] is False and info["is_success"] is False
    _, info = env.reset(seed=0)
    assert "solved" not in info and "is_success" not in info  # only at the end
