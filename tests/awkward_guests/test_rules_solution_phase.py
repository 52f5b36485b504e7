"""Awkward Guests' Solution phase and the end of the game: the accusation steps and their masks
(the accomplice from medium on), correct accusers sharing the win, wrong accusers out at once
(hand revealed, a new Solution phase), the last player left, everyone wrong (a draw), the
round limit (truncation), and the rewards and final infos of each.
"""

from __future__ import annotations

import pytest

from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G

from .game_helpers import (
    SOLUTION,
    WRONG,
    accuse,
    all_card_ids,
    game,
    go_on_until_discard,
    pass_turn,
    seen_ids,
)
from .scenario_helpers import (
    HANDS3,
    NO,
    NOACC,
    NOMATCH4,
    SUS0,
    SUSPECTS,
    TRUTH,
    WEA0,
    YES,
    accusation,
    build_case,
    case3,
    engine,
    env_act,
    legal,
    mask_set,
    mot_act,
    motives_of,
    new_env,
    pass_round_env,
    pass_turn_unmatched,
    ref_act,
    sus_act,
    three,
    wea_act,
)


def test_accusation_masks_easy_no_accomplice_step():
    case = build_case(total=70, level="easy")
    st = engine(case, 3, start=0)
    for _ in range(3):
        pass_turn_unmatched(st)
    assert st.decision_name == "solution" and st.current_player == 0
    assert legal(st) == {YES, NO}
    st.apply(YES)
    assert mask_set(st) == {SUS0 + i for i in range(6)}
    st.apply(sus_act("greg"))
    assert mask_set(st) == {mot_act(m) for m in motives_of("greg")}
    st.apply(mot_act("fixed_fights"))
    assert mask_set(st) == {WEA0 + i for i in range(20)}
    st.apply(wea_act("rope"))
    # no accomplice question below medium: the next player decides
    assert st.decision_name == "solution" and st.current_player == 1


def test_accusation_masks_medium_accomplice_never_the_murderer():
    case = build_case(total=70, level="medium")
    st = engine(case, 3, start=0)
    for _ in range(3):
        pass_turn_unmatched(st)
    st.apply(YES)
    st.apply(sus_act("greg"))
    st.apply(mot_act("stolen_recipe"))
    st.apply(wea_act("wrench"))
    assert mask_set(st) == {SUS0 + i for i in range(6) if SUSPECTS[i] != "greg"} | {NOACC}
    st.apply(sus_act("angelica"))
    assert mask_set(st) == {mot_act(m) for m in motives_of("angelica")}
    st.apply(mot_act("poisoned_chalice"))
    assert st.current_player == 1 and st.decision_name == "solution"
    st.apply(YES)
    st.apply(sus_act("berwick"))
    st.apply(mot_act("family_vendetta"))
    st.apply(wea_act("rope"))
    st.apply(NOACC)
    assert st.current_player == 2 and st.decision_name == "solution"
    st.apply(NO)
    assert st.result == "win" and st.winners == [0]


def test_correct_accusers_share_the_win_rewards_and_results():
    case = build_case(total=70)
    env = new_env(case, 3, start=0)
    pass_round_env(env)
    tot = {a: 0.0 for a in env.possible_agents}
    for step in [YES, *accusation(TRUTH, False), NO, YES, *accusation(TRUTH, False)]:
        for a, r in env_act(env, step).items():
            tot[a] += r
    assert env.game.result == "win" and env.game.winners == [0, 2]
    assert tot == pytest.approx({"player_0": 0.25, "player_1": -0.5, "player_2": 0.25})
    assert all(env.terminations.values()) and not any(env.truncations.values())
    results = env.results()
    assert results["scores"] == {"player_0": 1, "player_1": 0, "player_2": 1}
    assert results["winners"] == ["player_0", "player_2"] and results["result"] == "win"
    assert results["returns"] == pytest.approx(tot)
    assert results["solved"] == {"player_0": True, "player_1": False, "player_2": True}
    assert all(env.infos[a] == {} for a in env.agents)
    assert sum(tot.values()) == pytest.approx(0.0)


def test_wrong_accuser_out_final_reward_fixed_hand_revealed_new_phase_at_once():
    case = build_case(total=70)
    env = new_env(case, 3, start=0)
    st = env.game
    pass_round_env(env)
    hand0 = st.hand_ids(0)
    assert len(hand0) == 9
    for a in [YES, *accusation(WRONG, False)]:
        env_act(env, a)
    env_act(env, NO)  # seat 1
    r = env_act(env, NO)  # seat 2: the phase resolves
    assert st.out == [True, False, False]
    # out: its -1/(n-1) is final now (results) and paid when the game ends; it stays an agent
    assert env.results()["out"] == {"player_0": True, "player_1": False, "player_2": False}
    assert env.results()["returns"]["player_0"] == pytest.approx(-0.5)
    assert r == {"player_0": 0, "player_1": 0, "player_2": 0}
    assert env.agents == env.possible_agents and not any(env.terminations.values())
    assert st.hand_ids(0) == []
    revealed = sorted(st.tables.ids[k] for k in st.revealed)
    assert revealed == sorted(hand0)
    for p in (1, 2):
        assert set(hand0) <= seen_ids(st, p)
        assert set(hand0) <= {c.id for c in env.player_view(f"player_{p}").notebook}
    # a new Solution phase at once, for those left, from the start player on
    assert st.decision_name == "solution" and st.current_player == 1
    assert env.agent_selection == "player_1"
    env_act(env, NO)
    env_act(env, NO)
    assert st.decision_name == "discard"
    while st.decision_name == "discard":
        env_act(env, min(legal(st)))
    assert st.start == 1 and st.round == 2


def test_last_player_left_wins_two_players():
    case = build_case(total=40)
    env = new_env(case, 2, start=0)
    pass_round_env(env)
    tot = {a: 0.0 for a in env.possible_agents}
    for step in [YES, *accusation(WRONG, False), NO]:
        for a, r in env_act(env, step).items():
            tot[a] += r
    assert env.game.result == "win" and env.game.winners == [1]
    assert tot == pytest.approx({"player_0": -1.0, "player_1": 1.0})


def test_last_player_left_wins_three_players_two_wrong_at_once():
    case = build_case(total=70)
    env = new_env(case, 3, start=0)
    pass_round_env(env)
    tot = {a: 0.0 for a in env.possible_agents}
    for step in [YES, *accusation(WRONG, False), YES, *accusation(WRONG, False), NO]:
        for a, r in env_act(env, step).items():
            tot[a] += r
    assert env.game.winners == [2]
    assert tot == pytest.approx({"player_0": -0.5, "player_1": -0.5, "player_2": 1.0})


def test_everyone_left_wrong_no_winner_draw_rewards():
    case = build_case(total=70)
    env = new_env(case, 3, start=0)
    st = env.game
    pass_round_env(env)
    tot = {a: 0.0 for a in env.possible_agents}
    steps = [YES, *accusation(WRONG, False), NO, NO]
    for s in steps:
        for a, r in env_act(env, s).items():
            tot[a] += r
    for s in [YES, *accusation(WRONG, False), YES, *accusation(WRONG, False)]:
        for a, r in env_act(env, s).items():
            tot[a] += r
    assert st.is_terminal and st.winners == []
    # k = 1 out, m = 2 left: each gets 1 / (2 * 2)
    assert tot == pytest.approx({"player_0": -0.5, "player_1": 0.25, "player_2": 0.25})
    assert env.agents == env.possible_agents
    for a in env.agents:
        assert env.terminations[a] and not env.truncations[a]
    results = env.results()
    assert results["winners"] == [] and results["result"] == "draw"
    assert results["scores"] == {"player_0": 0, "player_1": 0, "player_2": 0}
    assert results["returns"] == pytest.approx(tot)


def test_everyone_wrong_two_players_is_zero_each():
    case = build_case(total=40)
    env = new_env(case, 2, start=1)
    pass_round_env(env)
    tot = {a: 0.0 for a in env.possible_agents}
    for s in [YES, *accusation(WRONG, False), YES, *accusation(WRONG, False)]:
        for a, r in env_act(env, s).items():
            tot[a] += r
    assert env.game.winners == []
    assert tot == pytest.approx({"player_0": 0.0, "player_1": 0.0})


def test_round_limit_truncates_with_zero_rewards_when_nobody_is_out():
    case = build_case(total=70)
    env = new_env(case, 3, start=0, max_rounds=2)
    st = env.game
    tot = {a: 0.0 for a in env.possible_agents}
    while not st.is_terminal:
        if st.decision_name == "inquiry":
            for r in NOMATCH4[:2]:
                env_act(env, ref_act(r))
            continue
        for a, r in env_act(env, NO if st.decision_name == "solution" else min(legal(st))).items():
            tot[a] += r
    assert st.round == 2
    assert all(env.truncations[a] for a in env.possible_agents)
    assert tot == pytest.approx({a: 0.0 for a in env.possible_agents})
    results = env.results()
    assert results["winners"] == [] and set(results["scores"].values()) == {0}
    assert results["result"] == "truncated" and results["rounds"] == 2


def test_round_limit_truncation_is_a_draw_among_players_still_in():
    case = build_case(total=70)
    env = new_env(case, 4, start=0, max_rounds=1)
    st = env.game
    pass_round_env(env)
    tot = {a: 0.0 for a in env.possible_agents}
    for s in [YES, *accusation(WRONG, False), NO, NO, NO]:
        for a, r in env_act(env, s).items():
            tot[a] += r
    for _ in range(3):
        for a, r in env_act(env, NO).items():
            tot[a] += r
    assert st.result == "truncated"
    # the three still in are truncated; the one out terminates with them (its loss is final)
    assert len(env.agents) == 4 and env.terminations["player_0"]
    assert not env.truncations["player_0"]
    assert all(env.truncations[a] and not env.terminations[a] for a in env.agents[1:])
    # n = 4, k = 1, m = 3: -1/3 for the one out, 1/(3*3) for each of the others
    assert tot == pytest.approx(
        {"player_0": -1 / 3, "player_1": 1 / 9, "player_2": 1 / 9, "player_3": 1 / 9}
    )


def _to_solution_phase(st: G.GuestsState) -> None:
    while st.decision != G.D_SOLUTION:
        pass_turn(st)


def test_wrong_accusation_reveals_the_hand_and_a_new_solution_phase_starts_at_once():
    st = three()
    _to_solution_phase(st)
    assert st.current_player == 0 and st.decision == G.D_SOLUTION
    hand0 = st.hand_ids(0)
    accuse(st, WRONG)
    assert st.current_player == 1  # nothing changes for the others until all decided
    st.apply(A.NO)
    st.apply(A.NO)
    assert st.out == [True, False, False] and st.newly_out == [0]
    assert st.hands[0] == []
    assert sorted(st.card_id(k) for k in st.revealed) == sorted(hand0)
    for p in (1, 2):
        assert set(hand0) <= seen_ids(st, p)
        for c in hand0:
            assert st.known[p, st.tables.index[c]] == 0b111
    # a new Solution phase for the two left, from the start player on (seat 0 is out)
    assert st.decision == G.D_SOLUTION and st.current_player == 1
    assert st.returns() == [-0.5, 0.0, 0.0]
    st.apply(A.NO)
    st.apply(A.NO)
    assert st.decision == G.D_DISCARD  # nobody accused: the round goes on
    assert all_card_ids(st) == sorted(c.id for c in st.case.cards)


def test_two_correct_accusers_share_the_win():
    st = three()
    _to_solution_phase(st)
    accuse(st, SOLUTION)
    st.apply(A.NO)
    accuse(st, SOLUTION)
    assert st.is_terminal and st.result == "win" and st.winners == [0, 2]
    assert st.returns() == pytest.approx([0.25, -0.5, 0.25])
    assert st.scores() == [1, 0, 1]
    assert st.legal_actions() == [] and not st.legal_mask().any()
    with pytest.raises(G.IllegalActionError, match="'over'"):
        st.apply(A.YES)


def test_correct_and_wrong_accusers_in_one_phase():
    st = three()
    _to_solution_phase(st)
    accuse(st, WRONG)
    accuse(st, SOLUTION)
    st.apply(A.NO)
    assert st.result == "win" and st.winners == [1]
    assert st.returns() == pytest.approx([-0.5, 1.0, -0.5])


def test_last_player_left_wins():
    st = three()
    _to_solution_phase(st)
    accuse(st, WRONG)
    accuse(st, WRONG)
    st.apply(A.NO)
    assert st.result == "win" and st.winners == [2] and st.out == [True, True, False]
    assert st.returns() == pytest.approx([-0.5, -0.5, 1.0])
    assert sum(st.returns()) == pytest.approx(0.0)


def test_everyone_left_accusing_wrongly_is_a_draw_among_them():
    case = case3()
    st = game(case, 4, HANDS3 + [[41, 42, 43, 44, 45, 46]])
    _to_solution_phase(st)
    accuse(st, WRONG)  # seat 0
    for _ in range(3):
        st.apply(A.NO)
    assert st.out == [True, False, False, False]
    for _ in range(3):  # the new phase: everybody left accuses wrongly
        accuse(st, WRONG)
    assert st.is_terminal and st.result == "draw" and st.winners == []
    r = st.returns()
    assert r == pytest.approx([-1 / 3, 1 / 9, 1 / 9, 1 / 9]) and sum(r) == pytest.approx(0)


def test_accusation_steps_at_medium_include_the_accomplice():
    st = three(level="medium")
    _to_solution_phase(st)
    st.apply(A.YES)
    assert st.decision == G.D_MURDERER
    assert st.legal_actions() == [A.SUSPECT_0 + s for s in range(6)]
    st.apply(A.suspect_action("greg"))
    assert st.legal_actions() == [
        A.motive_action(m) for m in ("stolen_recipe", "fixed_fights", "animal_cruelty")
    ]
    st.apply(A.motive_action("stolen_recipe"))
    assert st.decision == G.D_WEAPON and len(st.legal_actions()) == 20
    st.apply(A.weapon_action("wrench"))
    assert st.decision == G.D_ACCOMPLICE
    legal = st.legal_actions()
    assert A.suspect_action("greg") not in legal and A.NO_ACCOMPLICE in legal and len(legal) == 6
    st.apply(A.suspect_action("angelica"))
    assert st.legal_actions() == [
        A.motive_action(m) for m in ("poisoned_chalice", "extreme_principles", "sinister_plans")
    ]
    st.apply(A.motive_action("poisoned_chalice"))  # = SOLUTION_ACC
    assert st.current_player == 1
    accuse(st, SOLUTION)  # right murderer, motive and weapon, but no accomplice named: wrong
    st.apply(A.NO)
    assert st.result == "win" and st.winners == [0]


def test_truncation_at_the_round_limit():
    st = three(max_rounds=1)
    _to_solution_phase(st)
    go_on_until_discard(st)
    assert st.is_terminal and st.result == "truncated" and st.truncated
    assert st.returns() == [0.0, 0.0, 0.0] and st.winners == []


def test_truncation_pays_the_players_still_in_what_the_out_players_lost():
    st = three(max_rounds=2)
    _to_solution_phase(st)
    go_on_until_discard(st)
    while st.decision == G.D_DISCARD:
        st.apply(st.legal_actions()[0])
    assert st.round == 2
    _to_solution_phase(st)
    assert st.current_player == 1  # the start player moved on
    accuse(st, WRONG)
    st.apply(A.NO)
    st.apply(A.NO)
    st.apply(A.NO)
    st.apply(A.NO)  # the new phase: nobody accuses -> the round limit
    assert st.result == "truncated"
    assert st.returns() == pytest.approx([0.25, -0.5, 0.25])
