"""The deduction rules 1–8, one hand-built fact set each (what it excludes and what it must not),
and a brute-force cross-check of ``solve`` against a literal reference implementation."""

from __future__ import annotations

import numpy as np
import pytest

from parlour.envs.awkward_guests.case.board import WALTON
from parlour.envs.awkward_guests.case.deduction import Deduction, solve
from parlour.envs.awkward_guests.case.solution import Solution, candidate_index, candidate_solutions

from .deduction_reference import random_fact, random_world, reference_solve, true_facts

ALL_SOLO = frozenset(candidate_solutions(False))
ALL_ACC = frozenset(candidate_solutions(True))
SUSPECTS = WALTON.suspects


def sols(facts, acc: bool) -> set[Solution]:
    out = solve(facts, acc)
    assert len(out) == len(set(out))
    return set(out)


def everything(acc: bool) -> frozenset[Solution]:
    return ALL_ACC if acc else ALL_SOLO


# fact builders ---------------------------------------------------------------------------------


def seen_before(s, r, by="butler"):
    return {"type": "seen_before", "speaker": by, "suspect": s, "room": r}


def seen_at_murder(s, r, by="maid"):
    return {"type": "seen_at_murder", "speaker": by, "suspect": s, "room": r}


def guest_count(r, n, by="cook"):
    return {"type": "guest_count", "speaker": by, "room": r, "count": n}


def claim(s, r, with_=()):
    return {"type": "claim", "speaker": s, "suspect": s, "room": r, "with": sorted(with_)}


def box_testimony(by, motive, verdict):
    owner = WALTON.motive(motive).owner
    return {
        "type": "testimony",
        "speaker": by,
        "suspect": owner,
        "motive": motive,
        "verdict": verdict,
    }


def evidence(motive, verdict, room="kitchen"):
    owner = WALTON.motive(motive).owner
    return {
        "type": "evidence",
        "speaker": "police",
        "suspect": owner,
        "motive": motive,
        "verdict": verdict,
        "room": room,
    }


def sign_absent(sign, by="coroner"):
    return {"type": "sign_absent", "speaker": by, "sign": sign}


def weapon_unused(w, by="gardener"):
    return {"type": "weapon_unused", "speaker": by, "weapon": w}


def passage_unused(a, b, by="chauffeur"):
    return {"type": "passage_unused", "speaker": by, "from": a, "to": b}


def alone(s, r="kitchen"):
    return {"type": "alone", "speaker": "housekeeper", "suspect": s, "room": r}


def apart(a, b):
    return {"type": "apart", "speaker": "housekeeper", "suspects": sorted([a, b])}


def together(a, b, r="garage"):
    return {"type": "together", "speaker": "housekeeper", "suspects": sorted([a, b]), "room": r}


# -- the candidate space ------------------------------------------------------------------------


def test_candidate_enumeration():
    assert len(ALL_SOLO) == 360 and len(ALL_ACC) == 5760
    solo, acc = candidate_solutions(False), candidate_solutions(True)
    assert acc[:360] == solo
    assert all(s.accomplice is None for s in solo)
    assert all(s.accomplice is not None for s in acc[360:])
    # documented order: index = 20·μ + w without accomplice
    assert solo[20 * 5 + 7] == Solution("berwick", "excessive_ambition", "blunderbuss", None, None)
    assert candidate_index(solo[123]) == 123
    for s in acc[360:]:
        assert s.accomplice != s.murderer
        # rule 8: the accomplice's motive is one of their own three
        assert WALTON.motive(s.accomplice_motive).owner == s.accomplice
        assert WALTON.motive(s.motive).owner == s.murderer
    assert sols([], False) == ALL_SOLO
    assert sols([], True) == ALL_ACC


# -- rule 1: staff, police and the coroner never lie ----------------------------------------


@pytest.mark.parametrize("acc", [False, True])
def test_rule1_staff_sighting_at_the_murder_clears_the_murderer(acc):
    got = sols([seen_at_murder("greg", "library")], acc)
    # the maid saw Greg in the library at the murder: he was not in the study
    assert got == {s for s in everything(acc) if s.murderer != "greg"}
    # ... but he may still be innocent or (a moving) accomplice
    if acc:
        assert any(s.accomplice == "greg" for s in got)


@pytest.mark.parametrize("acc", [False, True])
def test_rule1_staff_beat_a_guest_claim(acc):
    # staff saw Greg in the library; Greg claims the vestibule (with Angelica): Greg lies, so
    # he is a culprit, and not the murderer (he was not in the study) => the accomplice
    facts = [seen_at_murder("greg", "library"), claim("greg", "vestibule", ["angelica"])]
    got = sols(facts, acc)
    if not acc:
        assert got == set()
    else:
        # as the accomplice, his claim must be "with exactly the murderer": Angelica
        assert got == {s for s in ALL_ACC if s.accomplice == "greg" and s.murderer == "angelica"}
        assert len(got) == 3 * 20 * 3


# -- rule 2: innocents never lie about where and with whom they were ---------------------------


@pytest.mark.parametrize("acc", [False, True])
def test_rule2_claim_names_everyone_present(acc):
    # Angelica claims she was alone in the library, but the maid saw Claudette there
    facts = [claim("angelica", "library"), seen_at_murder("claudette", "library")]
    got = sols(facts, acc)
    # Angelica lied, so she is a culprit; as accomplice she would claim to be with the
    # murderer, as murderer with an accomplice she would claim to be with them: only a lone
    # murderer Angelica remains
    expected = {s for s in ALL_SOLO if s.murderer == "angelica"}
    assert got == expected
    assert len(got) == 60


@pytest.mark.parametrize("acc", [False, True])
def test_rule2_innocent_claim_with_a_companion(acc):
    # Angelica (if innocent) was in the library with Greg: then Greg was not in the study
    got = sols([claim("angelica", "library", ["greg"])], acc)
    # Greg is not the murderer — unless Angelica is his accomplice covering for him
    assert all(s.murderer != "greg" or s.accomplice == "angelica" for s in got)
    # Angelica may be the (lying) murderer
    assert any(s.murderer == "angelica" and s.accomplice is None for s in got)
    if not acc:
        assert got == {s for s in ALL_SOLO if s.murderer != "greg"}
    else:
        # Greg can be Angelica's (moving) accomplice when she is innocent
        assert any(s.accomplice == "greg" and s.murderer != "angelica" for s in got)
        # murderer Angelica with an accomplice: her claim must name exactly the accomplice
        assert {s.accomplice for s in got if s.murderer == "angelica"} == {None, "greg"}


def test_rule2_a_culprits_claim_is_not_trusted():
    # Greg claims to have been with Claudette, who claims to have been alone elsewhere:
    # one of them lies; without accomplice, the liar must be the murderer
    facts = [claim("greg", "library", ["claudette"]), claim("claudette", "vestibule")]
    got = sols(facts, False)
    assert {s.murderer for s in got} == {"greg"}
    assert got == {s for s in ALL_SOLO if s.murderer == "greg"}


# -- rule 3: innocents stay in their alibi room; the murderer is in the study ------------------


@pytest.mark.parametrize("acc", [False, True])
def test_rule3_innocents_do_not_move(acc):
    # Greg was in the vestibule before the murder and claims the library at the murder
    facts = [seen_before("greg", "vestibule"), claim("greg", "library")]
    got = sols(facts, acc)
    # so Greg is a culprit; his claim ("alone") rules out any accomplice story
    assert got == {s for s in ALL_SOLO if s.murderer == "greg"}


@pytest.mark.parametrize("acc", [False, True])
def test_rule3_only_the_accomplice_moves(acc):
    # Greg started in the vestibule but was in the library at the murder (staff): he moved.
    # An innocent cannot move, the murderer was in the study: only an accomplice fits.
    facts = [seen_before("greg", "vestibule"), seen_at_murder("greg", "library")]
    got = sols(facts, acc)
    if not acc:
        assert got == set()
    else:
        assert got == {s for s in ALL_ACC if s.accomplice == "greg"}
        assert len(got) == 5 * 3 * 20 * 3


@pytest.mark.parametrize("acc", [False, True])
def test_rule3_seen_outside_the_alibi_rooms(acc):
    # at the murder Greg was in the kitchen (not an alibi room): not innocent, not murderer
    got = sols([seen_at_murder("greg", "kitchen")], acc)
    assert got == ({s for s in ALL_ACC if s.accomplice == "greg"} if acc else set())


# -- rule 4: the Berwick Sisters count as two guests -----------------------------------------


def test_rule4_berwick_counts_two():
    base = [seen_at_murder("berwick", "library"), claim("greg", "library", ["berwick"])]
    # two guests in the library = the sisters alone: Greg cannot be there, so he lied
    got = sols([*base, guest_count("library", 2)], False)
    assert got == {s for s in ALL_SOLO if s.murderer == "greg"}
    # three guests = the sisters and Greg: Greg may be innocent; only the sisters (seen in the
    # library) are cleared of the murder
    got3 = sols([*base, guest_count("library", 3)], False)
    assert got3 == {s for s in ALL_SOLO if s.murderer != "berwick"}
    # if the sisters counted one, "2" would have allowed innocent Greg
    assert {s.murderer for s in got} == {"greg"}


def test_rule4_head_count_of_an_empty_room_and_the_murderer():
    # nobody in the billiard room, and Stanley claims to have been there alone: Stanley lied
    got = sols([guest_count("billiard_room", 0), claim("stanley", "billiard_room")], False)
    assert got == {s for s in ALL_SOLO if s.murderer == "stanley"}
    # the sisters counted in the vestibule (2) where Claudette claims to be with them
    facts = [claim("claudette", "vestibule", ["berwick"]), guest_count("vestibule", 3)]
    got = sols(facts, False)
    # innocent Claudette: she and the sisters are there (3 heads) — consistent; the sisters are
    # then not the murderer. Murderer Claudette: the sisters + another guest make 3 — possible.
    assert {s.murderer for s in got} == {"angelica", "claudette", "greg", "mortimer", "stanley"}


def test_rule4_the_accomplice_counts_where_they_are():
    # Greg moved (vestibule -> library), so he is the accomplice, standing in the library
    moved = [seen_before("greg", "vestibule"), seen_at_murder("greg", "library")]
    assert sols([*moved, guest_count("library", 0)], True) == set()
    assert sols([*moved, guest_count("library", 1)], True) == {
        s for s in ALL_ACC if s.accomplice == "greg"
    }
    # the Berwick Sisters as the moving accomplice count 2
    moved = [seen_before("berwick", "vestibule"), seen_at_murder("berwick", "library")]
    assert sols([*moved, guest_count("library", 1)], True) == set()
    got = sols([*moved, guest_count("library", 2)], True)
    assert got == {s for s in ALL_ACC if s.accomplice == "berwick"}
    assert len(got) == 900


def test_rule4_a_lone_claim_against_a_head_count():
    # Angelica claims she was alone in the library, which held 2 guests: she lied
    facts = [claim("angelica", "library"), guest_count("library", 2)]
    for acc in (False, True):
        assert sols(facts, acc) == {s for s in ALL_SOLO if s.murderer == "angelica"}
    # with 1 guest she may be innocent and alone
    got1 = sols([claim("angelica", "library"), guest_count("library", 1)], True)
    assert any(s.murderer != "angelica" for s in got1)


# -- rule 5: motives -------------------------------------------------------------------------


@pytest.mark.parametrize("acc", [False, True])
def test_rule5_a_refuted_box_removes_only_that_motive(acc):
    got = sols([box_testimony("claudette", "poisoned_chalice", "refutes")], acc)
    expected = {
        s
        for s in everything(acc)
        if s.motive != "poisoned_chalice" and s.accomplice_motive != "poisoned_chalice"
    }
    assert got == expected
    # Angelica stays a suspect with her two other motives
    assert {s.motive for s in got if s.murderer == "angelica"} == {
        "extreme_principles",
        "sinister_plans",
    }
    assert len({s for s in got if s.accomplice is None}) == 340


@pytest.mark.parametrize("acc", [False, True])
def test_rule5_confirming_boxes_exclude_nothing(acc):
    facts = [evidence("poisoned_chalice", "confirms"), evidence("fixed_fights", "confirms")]
    assert sols(facts, acc) == everything(acc)


@pytest.mark.parametrize("acc", [False, True])
def test_rule5_police_evidence_refutes(acc):
    got = sols([evidence("fixed_fights", "refutes")], acc)
    assert got == {
        s for s in everything(acc) if "fixed_fights" not in (s.motive, s.accomplice_motive)
    }


@pytest.mark.parametrize("acc", [False, True])
def test_rule5_all_three_motives_refuted_means_innocent(acc):
    facts = [
        box_testimony("angelica", "stolen_recipe", "refutes"),
        evidence("fixed_fights", "refutes"),
        box_testimony("claudette", "animal_cruelty", "refutes"),
    ]
    got = sols(facts, acc)
    assert got == {s for s in everything(acc) if "greg" not in (s.murderer, s.accomplice)}
    assert len(got) == (300 + 3600 if acc else 300)


# -- rule 6: weapons and signs ---------------------------------------------------------------


@pytest.mark.parametrize("acc", [False, True])
def test_rule6_a_missing_sign_rules_out_its_four_weapons(acc):
    got = sols([sign_absent("burn_marks")], acc)
    leaving = {"shotgun", "derringer", "pesticide", "rope"}  # docs/case_model.md#signs-and-weapons
    assert got == {s for s in everything(acc) if s.weapon not in leaving}
    assert {s.weapon for s in got} == {w.id for w in WALTON.weapons} - leaving


def test_rule6_two_missing_signs_and_an_unused_weapon():
    facts = [
        sign_absent("oily_substance", by="police"),
        sign_absent("strong_odors"),
        weapon_unused("cue"),
    ]
    got = sols(facts, False)
    out = {
        "wrench",
        "frying_pan",
        "antifreeze",
        "poisonous_plant",  # oily substance
        "revolver",
        "pesticide",
        "leather_strap",  # strong odors (wrench counted once)
        "cue",
    }
    assert {s.weapon for s in got} == {w.id for w in WALTON.weapons} - out
    assert len(got) == 18 * 12


@pytest.mark.parametrize("acc", [False, True])
def test_rule6_weapon_unused_excludes_only_that_weapon(acc):
    got = sols([weapon_unused("wrench")], acc)
    assert got == {s for s in everything(acc) if s.weapon != "wrench"}


# -- rule 7: the murderer's route -------------------------------------------------------------


def test_rule7_route_must_pass_the_weapons_room():
    # cut the garage/trophy-room wing off from the alibi rooms, and close its study entry
    facts = [
        passage_unused("trophy_room", "vestibule"),
        passage_unused("trophy_room", "billiard_room"),
        passage_unused("garage", "bedroom"),
        passage_unused("garage", "study"),
    ]
    got = sols(facts, False)
    wing = {"wrench", "antifreeze", "leather_strap", "shotgun", "derringer", "machete"}
    assert got == {s for s in ALL_SOLO if s.weapon not in wing}
    # with the garage–bedroom passage open the wing is reachable and left via the bedroom
    assert sols(facts[:2] + facts[3:], False) == ALL_SOLO


def test_rule7_the_study_is_no_corridor():
    # the garage is only reachable through the study, which has no way out
    facts = [passage_unused("garage", "trophy_room"), passage_unused("garage", "bedroom")]
    got = sols(facts, False)
    assert {s.weapon for s in ALL_SOLO} - {s.weapon for s in got} == {
        "wrench",
        "antifreeze",
        "leather_strap",
    }


def test_rule7_a_suspect_who_cannot_reach_the_study_is_not_the_murderer():
    facts = [
        seen_before("greg", "library"),
        passage_unused("living_room", "library"),
        passage_unused("library", "shed"),
    ]
    got = sols(facts, False)
    # Greg is stuck in the library; nobody else can fetch the curtain cord (the library) and
    # leave, since whoever starts there is stuck too
    assert got == {s for s in ALL_SOLO if s.murderer != "greg" and s.weapon != "curtain_cord"}
    # passages alone do not tie anybody: without Greg's start room he stays possible
    assert any(s.murderer == "greg" for s in sols(facts[1:], False))


def test_rule7_route_depends_on_the_murderers_start_room_and_the_weapon():
    # close the shed and bedroom entries: the study is entered from the garage only.
    # cut the kitchen–bedroom and garage–bedroom passages: the bedroom is a dead end
    facts = [
        passage_unused("bedroom", "study"),
        passage_unused("shed", "study"),
        passage_unused("bedroom", "kitchen"),
        passage_unused("garage", "bedroom"),
        seen_before("stanley", "library"),
    ]
    got = sols(facts, False)
    bedroom = {"revolver", "letter_opener", "poisonous_plant", "pillow"}
    assert {s.weapon for s in got} == {w.id for w in WALTON.weapons} - bedroom
    assert any(s.murderer == "stanley" for s in got)


# -- rule 8: accomplice -----------------------------------------------------------------------


def test_rule8_mutual_alibi_pair():
    facts = [claim("greg", "library", ["angelica"]), claim("angelica", "library", ["greg"])]
    got = sols(facts, True)
    for s in got:
        pair = {s.murderer, s.accomplice}
        # both innocent, or exactly murderer + accomplice
        assert pair == {"greg", "angelica"} or not ({"greg", "angelica"} & pair)
    assert got == {
        s
        for s in ALL_ACC
        if {s.murderer, s.accomplice} == {"greg", "angelica"}
        or not ({"greg", "angelica"} & {s.murderer, s.accomplice})
    }
    assert len(got) == 240 + 360 + 2160
    # without accomplice: both innocent
    assert sols(facts, False) == {s for s in ALL_SOLO if s.murderer not in ("greg", "angelica")}


def test_rule8_mutual_alibi_in_different_rooms_is_impossible():
    facts = [claim("greg", "library", ["angelica"]), claim("angelica", "vestibule", ["greg"])]
    assert sols(facts, True) == set()
    assert sols(facts, False) == set()


@pytest.mark.parametrize("acc", [False, True])
def test_rule8_alone_and_apart_only_matter_with_an_accomplice(acc):
    facts = [alone("greg"), apart("angelica", "berwick"), together("claudette", "mortimer")]
    got = sols(facts, acc)
    if not acc:
        assert got == ALL_SOLO
    else:
        assert got == {
            s
            for s in ALL_ACC
            if s.accomplice is None
            or (
                "greg" not in (s.murderer, s.accomplice)
                and {s.murderer, s.accomplice} != {"angelica", "berwick"}
            )
        }
        assert len(got) == 360 + 18 * 9 * 20
        # "together" never implies anything
        assert any({s.murderer, s.accomplice} == {"claudette", "stanley"} for s in got)


def test_rule8_the_accomplice_never_testifies_about_the_crime_motive():
    got = sols([box_testimony("claudette", "poisoned_chalice", "confirms")], True)
    excluded = {
        s
        for s in ALL_ACC
        if (s.motive == "poisoned_chalice" and s.accomplice == "claudette")
        or (s.accomplice_motive == "poisoned_chalice" and s.murderer == "claudette")
    }
    assert got == ALL_ACC - excluded
    assert len(excluded) == 60 + 60
    # a lone murderer Angelica with that motive is fine
    assert Solution("angelica", "poisoned_chalice", "rope", None, None) in got
    assert sols([box_testimony("claudette", "poisoned_chalice", "confirms")], False) == ALL_SOLO


def test_rule8_an_innocents_claim_can_name_the_accomplice():
    # Angelica claims the library with Greg, but Greg started in the vestibule: Greg moved, so
    # either he is the accomplice and Angelica innocent, or Angelica is a culprit and lies
    facts = [claim("angelica", "library", ["greg"]), seen_before("greg", "vestibule")]
    got = sols(facts, True)
    innocent_angelica = {s for s in ALL_ACC if s.accomplice == "greg" and s.murderer != "angelica"}
    angelica_murderer = {
        s for s in ALL_ACC if s.murderer == "angelica" and s.accomplice in (None, "greg")
    }
    angelica_accomplice = {
        s for s in ALL_ACC if s.accomplice == "angelica" and s.murderer == "greg"
    }
    assert got == innocent_angelica | angelica_murderer | angelica_accomplice
    assert len(got) == 720 + (60 + 180) + 180
    assert sols(facts, False) == {s for s in ALL_SOLO if s.murderer == "angelica"}


def test_rule8_culprit_claims_must_match():
    # Greg claims to be with Angelica; Angelica claims to be with Claudette. The pair
    # (greg, angelica) is not a consistent murderer/accomplice pair.
    facts = [claim("greg", "library", ["angelica"]), claim("angelica", "library", ["claudette"])]
    got = sols(facts, True)
    assert not any({s.murderer, s.accomplice} == {"greg", "angelica"} for s in got)


# -- brute-force cross-check -------------------------------------------------------------------


def _random_fact_set(rng: np.random.Generator, acc: bool) -> list[dict]:
    kind = rng.integers(3)
    if kind == 0:
        return [random_fact(rng) for _ in range(int(rng.integers(1, 7)))]
    world = random_world(rng, acc and bool(rng.random() < 0.5))
    pool = true_facts(world, rng)
    n = int(rng.integers(3, 30))
    facts = [pool[i] for i in rng.choice(len(pool), size=n, replace=False)]
    if kind == 2:
        facts += [random_fact(rng) for _ in range(int(rng.integers(1, 3)))]
    return facts


@pytest.mark.parametrize("seed", range(6))
def test_solve_matches_brute_force_reference(seed):
    rng = np.random.default_rng(1000 + seed)
    acc = bool(seed % 2)
    facts = _random_fact_set(rng, acc)
    assert sols(facts, acc) == reference_solve(facts, acc)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(200))
def test_solve_matches_brute_force_reference_many(seed):
    rng = np.random.default_rng(5000 + seed)
    acc = bool(seed % 2)
    facts = _random_fact_set(rng, acc)
    assert sols(facts, acc) == reference_solve(facts, acc)


@pytest.mark.parametrize("seed", range(40))
def test_true_facts_keep_the_true_solution(seed):
    """An independent random world: every fact true of it keeps its solution consistent."""
    rng = np.random.default_rng(seed)
    acc = seed % 2 == 0
    world = random_world(rng, acc and seed % 4 == 0)
    pool = true_facts(world, rng)
    d = Deduction(acc)
    d.add_facts(pool)
    assert d.is_consistent(world["solution"])
    # all the true facts together pin down murderer, motive and weapon (every innocent was
    # seen at the murder, every other weapon unused, every box is known)
    poss = d.possible()
    sol = world["solution"]
    assert poss["murderers"] == {sol.murderer}
    assert poss["motives"] == {sol.motive}
    assert poss["weapons"] == {sol.weapon}
    assert sol.accomplice in poss["accomplices"]
    if acc and sol.accomplice is None:
        assert poss["accomplices"] == {None}  # everyone was seen alone


@pytest.mark.slow
@pytest.mark.parametrize("level", ["beginner", "easy", "medium", "hard", "expert"])
def test_solve_matches_brute_force_on_generated_decks(level):
    """Generated decks (full and a random third): the engine equals the literal reference."""
    from parlour.envs.awkward_guests import generate_case

    case = generate_case(level, 7)
    facts = case.facts()
    rng = np.random.default_rng(7)
    third = [facts[i] for i in sorted(rng.choice(len(facts), len(facts) // 3, replace=False))]
    for subset in (facts, third):
        got = sols(subset, case.accomplice_possible)
        assert got == reference_solve(subset, case.accomplice_possible)
        assert case.solution in got
