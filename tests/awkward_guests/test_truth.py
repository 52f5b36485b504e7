"""truth.py: each fact type is true or false of a hand-built hidden world exactly as docs/case_model.md#facts says."""

from __future__ import annotations

import dataclasses

import pytest

from parlour.envs.awkward_guests.case.board import WALTON
from parlour.envs.awkward_guests.case.cards import make_card
from parlour.envs.awkward_guests.case.case import Case, World
from parlour.envs.awkward_guests.case.solution import Solution
from parlour.envs.awkward_guests.case.truth import (
    fact_is_true,
    fact_is_true_in,
    route_passages,
    unsound_facts,
    world_violations,
)

# Greg murders with the shovel (shed) for "fixed_fights"; Angelica is his accomplice
# ("sinister_plans", testified by mortimer and greg).
SOL = Solution("greg", "fixed_fights", "shovel", "angelica", "sinister_plans")
LONE = Solution("greg", "fixed_fights", "shovel", None, None)


def _boxes(refuted: dict[str, list[str]]) -> dict[str, dict[str, str]]:
    out = {}
    for m in WALTON.motives:
        b = {m.testifiers[0]: "confirms", m.testifiers[1]: "confirms", "evidence": "confirms"}
        for k in refuted.get(m.id, []):
            b[k] = "refutes"
        out[m.id] = b
    return out


BOXES = _boxes(
    {
        "stolen_recipe": ["angelica"],  # greg's other motives
        "animal_cruelty": ["evidence"],
        "poisoned_chalice": ["claudette", "berwick"],  # angelica's other motives
        "extreme_principles": ["evidence"],
        "family_vendetta": ["mortimer"],  # an innocent's motive (free)
    }
)

WORLD = World(
    start_rooms={
        "angelica": "library",
        "berwick": "vestibule",
        "claudette": "vestibule",
        "greg": "library",
        "mortimer": "billiard_room",
        "stanley": "living_room",
    },
    locations={
        "angelica": "kitchen",
        "berwick": "vestibule",
        "claudette": "vestibule",
        "greg": "study",
        "mortimer": "billiard_room",
        "stanley": "living_room",
    },
    route=("library", "shed", "study"),
    box_truths=BOXES,
    sightings=(
        {"room": "garage", "suspects": ["angelica", "greg"]},
        {"room": "library", "suspects": ["berwick", "claudette"]},
        {"room": "kitchen", "suspects": ["stanley"]},
    ),
    alibis={
        "greg": {"room": "library", "with": ["angelica"]},
        "angelica": {"room": "library", "with": ["greg"]},
    },
)

# The same evening without an accomplice: angelica is innocent and stays in the library.
LONE_WORLD = dataclasses.replace(
    WORLD,
    locations={**WORLD.locations, "angelica": "library"},
    sightings=(
        {"room": "garage", "suspects": ["greg"]},
        {"room": "library", "suspects": ["berwick", "claudette"]},
    ),
    alibis={"greg": {"room": "billiard_room", "with": ["mortimer"]}},
)


def f(ftype: str, speaker: str, **fields) -> dict:
    return {"type": ftype, "speaker": speaker, **fields}


def true_(fact: dict, sol: Solution = SOL, world: World = WORLD) -> bool:
    return fact_is_true_in(fact, sol, world, WALTON)


def test_hand_built_worlds_are_valid() -> None:
    assert world_violations(SOL, WORLD) == []
    assert world_violations(LONE, LONE_WORLD) == []


def test_sign_absent() -> None:
    assert true_(f("sign_absent", "coroner", sign="burn_marks"))
    assert not true_(f("sign_absent", "police", sign="traces_of_dirt"))  # the shovel leaves it
    assert not true_(f("sign_absent", "police", sign="cyanosis_bruises"))


def test_weapon_unused() -> None:
    assert true_(f("weapon_unused", "maid", weapon="rope"))
    assert not true_(f("weapon_unused", "maid", weapon="shovel"))


def test_passage_unused_is_about_the_route_in_either_direction() -> None:
    assert route_passages(WORLD.route) == {
        frozenset(("library", "shed")),
        frozenset(("shed", "study")),
    }
    assert not true_({"type": "passage_unused", "speaker": "cook", "from": "library", "to": "shed"})
    assert not true_({"type": "passage_unused", "speaker": "cook", "from": "shed", "to": "study"})
    assert true_({"type": "passage_unused", "speaker": "cook", "from": "garage", "to": "study"})
    assert true_(
        {"type": "passage_unused", "speaker": "cook", "from": "living_room", "to": "library"}
    )


def test_seen_before() -> None:
    assert true_(f("seen_before", "butler", suspect="greg", room="library"))
    assert true_(f("seen_before", "butler", suspect="angelica", room="library"))
    assert not true_(f("seen_before", "butler", suspect="greg", room="vestibule"))


def test_seen_at_murder_never_about_the_murderer() -> None:
    assert true_(f("seen_at_murder", "butler", suspect="berwick", room="vestibule"))
    assert true_(f("seen_at_murder", "butler", suspect="angelica", room="kitchen"))
    assert not true_(f("seen_at_murder", "butler", suspect="angelica", room="library"))
    assert not true_(f("seen_at_murder", "butler", suspect="greg", room="study"))  # nobody saw it


def test_guest_count_counts_berwick_twice_and_the_accomplice_where_they_are() -> None:
    assert true_(f("guest_count", "maid", room="vestibule", count=3))  # berwick (2) + claudette
    assert not true_(f("guest_count", "maid", room="vestibule", count=2))
    assert true_(f("guest_count", "maid", room="library", count=0))  # greg in study, A in kitchen
    assert true_(f("guest_count", "maid", room="library", count=1), LONE, LONE_WORLD)
    assert true_(f("guest_count", "maid", room="billiard_room", count=1))


def test_innocent_claims_name_exactly_their_companions() -> None:
    claim = {"type": "claim", "speaker": "claudette", "suspect": "claudette"}
    assert true_({**claim, "room": "vestibule", "with": ["berwick"]})
    assert not true_({**claim, "room": "vestibule", "with": []})
    assert not true_({**claim, "room": "vestibule", "with": ["berwick", "stanley"]})
    assert not true_({**claim, "room": "library", "with": ["berwick"]})
    stanley = {"type": "claim", "speaker": "stanley", "suspect": "stanley"}
    assert true_({**stanley, "room": "living_room", "with": []})
    # a claim is told by the suspect themself
    assert not true_({**claim, "speaker": "berwick", "room": "vestibule", "with": ["berwick"]})


def test_culprit_claims_follow_rule_8() -> None:
    g = {"type": "claim", "speaker": "greg", "suspect": "greg"}
    a = {"type": "claim", "speaker": "angelica", "suspect": "angelica"}
    assert true_({**g, "room": "library", "with": ["angelica"]})
    assert true_({**a, "room": "library", "with": ["greg"]})
    assert not true_({**g, "room": "vestibule", "with": ["angelica"]})  # not their story room
    assert not true_({**g, "room": "library", "with": []})
    assert not true_({**a, "room": "library", "with": ["berwick", "greg"]})
    # the lone murderer tells the story the world gives him (a lie)
    assert true_({**g, "room": "billiard_room", "with": ["mortimer"]}, LONE, LONE_WORLD)
    assert not true_({**g, "room": "library", "with": []}, LONE, LONE_WORLD)
    # and angelica, innocent there, tells the truth: greg was not with her
    assert true_({**a, "room": "library", "with": []}, LONE, LONE_WORLD)
    assert not true_({**a, "room": "library", "with": ["greg"]}, LONE, LONE_WORLD)


def test_testimony_is_the_box_and_never_a_culprit_about_the_other_real_motive() -> None:
    t = {"type": "testimony"}
    assert true_(
        {
            **t,
            "speaker": "angelica",
            "suspect": "greg",
            "motive": "stolen_recipe",
            "verdict": "refutes",
        }
    )
    assert not true_(
        {
            **t,
            "speaker": "angelica",
            "suspect": "greg",
            "motive": "stolen_recipe",
            "verdict": "confirms",
        }
    )
    assert true_(
        {
            **t,
            "speaker": "berwick",
            "suspect": "greg",
            "motive": "stolen_recipe",
            "verdict": "confirms",
        }
    )
    # greg (M) never testifies about sinister_plans (alpha), even though its box confirms
    greg_on_alpha = {
        **t,
        "speaker": "greg",
        "suspect": "angelica",
        "motive": "sinister_plans",
        "verdict": "confirms",
    }
    assert not true_(greg_on_alpha)
    assert true_(greg_on_alpha, LONE, LONE_WORLD)  # without an accomplice he may
    assert true_(
        {
            **t,
            "speaker": "mortimer",
            "suspect": "angelica",
            "motive": "sinister_plans",
            "verdict": "confirms",
        }
    )
    # fixed_fights (mu) is testified by stanley and mortimer: angelica cannot testify at all
    assert not true_(
        {
            **t,
            "speaker": "angelica",
            "suspect": "greg",
            "motive": "fixed_fights",
            "verdict": "confirms",
        }
    )
    # the suspect must own the motive
    assert not true_(
        {
            **t,
            "speaker": "angelica",
            "suspect": "berwick",
            "motive": "stolen_recipe",
            "verdict": "refutes",
        }
    )


def test_evidence_is_the_physical_box_wherever_it_was_found() -> None:
    e = {"type": "evidence", "speaker": "police", "suspect": "greg", "motive": "animal_cruelty"}
    assert true_({**e, "verdict": "refutes", "room": "garage"})
    assert true_({**e, "verdict": "refutes", "room": "library"})
    assert not true_({**e, "verdict": "confirms", "room": "garage"})
    crime = {"type": "evidence", "speaker": "police", "suspect": "greg", "motive": "fixed_fights"}
    assert true_({**crime, "verdict": "confirms", "room": "shed"})
    assert not true_({**crime, "verdict": "refutes", "room": "shed"})


def test_together_apart_alone() -> None:
    assert true_(f("together", "maid", suspects=["angelica", "greg"], room="garage"))
    assert not true_(f("together", "maid", suspects=["angelica", "greg"], room="kitchen"))
    assert true_(f("together", "maid", suspects=["berwick", "claudette"], room="library"))
    assert not true_(f("together", "maid", suspects=["berwick", "stanley"], room="library"))
    assert true_(f("apart", "maid", suspects=["berwick", "stanley"]))
    assert not true_(f("apart", "maid", suspects=["berwick", "claudette"]))
    assert not true_(f("apart", "maid", suspects=["angelica", "greg"]))
    assert true_(f("alone", "maid", suspect="stanley", room="kitchen"))
    assert not true_(f("alone", "maid", suspect="stanley", room="garage"))
    assert not true_(f("alone", "maid", suspect="berwick", room="library"))  # seen with claudette
    # without an accomplice the murderer may be seen alone; the pair apart is then no lie
    assert true_(f("alone", "maid", suspect="greg", room="garage"), LONE, LONE_WORLD)
    assert true_(f("apart", "maid", suspects=["angelica", "greg"]), LONE, LONE_WORLD)


def test_apart_about_the_pair_is_false_even_if_never_seen() -> None:
    unseen = dataclasses.replace(WORLD, sightings=())
    assert not true_(f("apart", "maid", suspects=["angelica", "greg"]), SOL, unseen)
    assert world_violations(SOL, unseen) == [
        "the staff never saw the murderer and the accomplice together"
    ]


def test_unknown_fact_type_raises() -> None:
    with pytest.raises(ValueError, match="unknown fact type"):
        true_({"type": "rumour", "speaker": "maid"})


def test_world_violations_name_each_problem() -> None:
    moved = dataclasses.replace(WORLD, locations={**WORLD.locations, "stanley": "library"})
    assert any("innocent stanley moved" in v for v in world_violations(SOL, moved))
    no_weapon = dataclasses.replace(
        WORLD, route=("library", "living_room", "kitchen", "bedroom", "study")
    )
    assert any("weapon's room" in v for v in world_violations(SOL, no_weapon))
    refuted = dataclasses.replace(WORLD, box_truths=_boxes({"fixed_fights": ["evidence"]}))
    problems = world_violations(SOL, refuted)
    assert any("real motive fixed_fights" in v for v in problems)
    assert any("stolen_recipe is never refuted" in v for v in problems)
    split = dataclasses.replace(WORLD, sightings=({"room": "garage", "suspects": ["greg"]},))
    assert any("only one of the pair" in v for v in world_violations(SOL, split))
    bad_story = dataclasses.replace(
        WORLD, alibis={**WORLD.alibis, "angelica": {"room": "vestibule", "with": ["greg"]}}
    )
    assert any("alibi stories" in v for v in world_violations(SOL, bad_story))


def test_unsound_facts_lists_exactly_the_false_ones() -> None:
    cards = (
        make_card(0, "coroner", [f("sign_absent", "coroner", sign="burn_marks")]),
        make_card(
            1,
            "maid",
            [
                f("weapon_unused", "maid", weapon="shovel"),  # false
                f("seen_before", "maid", suspect="greg", room="library"),
            ],
        ),
        make_card(
            2,
            "stanley",
            [
                {
                    "type": "claim",
                    "speaker": "stanley",
                    "suspect": "stanley",
                    "room": "library",
                    "with": [],
                }
            ],
        ),
    )
    case = Case("medium", None, SOL, WORLD, cards)
    assert unsound_facts(case) == [
        (1, f("weapon_unused", "maid", weapon="shovel")),
        (
            2,
            {
                "type": "claim",
                "speaker": "stanley",
                "suspect": "stanley",
                "room": "library",
                "with": [],
            },
        ),
    ]
    assert not fact_is_true(cards[1].facts[0], case)
    assert fact_is_true(cards[0].facts[0], case)
    sound = Case("medium", None, SOL, WORLD, cards[:1])
    assert unsound_facts(sound) == []


@pytest.mark.parametrize("level", ["beginner", "easy", "medium", "expert"])
def test_engine_agrees_that_true_facts_keep_the_true_solution(level: str) -> None:
    """Cross-check truth.py against the deduction engine on generator-sampled worlds: every
    fact of the generator's pool is true, and all of them together never exclude the truth."""
    import numpy as np

    from parlour.envs.awkward_guests.case.case import ACCOMPLICE_LEVELS
    from parlour.envs.awkward_guests.case.deduction import Deduction
    from parlour.envs.awkward_guests.case.generator import sample_truth, true_fact_pool

    rng = np.random.default_rng(42)
    acc_possible = level in ACCOMPLICE_LEVELS
    for k in range(12):
        sol, world = sample_truth(rng, level, acc_possible and k % 2 == 0)
        assert world_violations(sol, world) == []
        pool = true_fact_pool(rng, sol, world, level)
        assert all(fact_is_true_in(it.fact, sol, world) for it in pool)
        d = Deduction(acc_possible)
        d.add_facts([it.fact for it in pool])
        assert d.is_consistent(sol)
