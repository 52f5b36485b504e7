"""The incremental engine equals the from-scratch engine; copies continue identically."""

from __future__ import annotations

import copy
import pickle
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.envs.awkward_guests.case.board import WALTON
from parlour.envs.awkward_guests.case.deduction import (
    LOCAL_TYPES,
    Deduction,
    count_consistent,
    solve,
)
from parlour.envs.awkward_guests.case.solution import candidate_solutions

from .deduction_reference import random_cards, random_fact, random_world, true_facts


def deck(seed: int, acc: bool, n_facts: int = 110, noise: int = 0) -> list[list[dict]]:
    """Cards (1–3 facts of one speaker) from an independent random world, shuffled."""
    rng = np.random.default_rng(seed)
    world = random_world(rng, acc and seed % 2 == 0)
    pool = true_facts(world, rng)
    facts = [pool[i] for i in rng.choice(len(pool), size=min(n_facts, len(pool)), replace=False)]
    facts += [random_fact(rng) for _ in range(noise)]
    return random_cards(facts, rng)


def scratch_mask(facts: list[dict], acc: bool) -> np.ndarray:
    d = Deduction(acc)
    d.add_facts(facts)
    return d.candidate_mask()


def check_views(d: Deduction) -> None:
    """count(), candidates(), possible() agree with candidate_mask()."""
    mask = d.candidate_mask()
    sols = candidate_solutions(d.accomplice_possible)
    cands = d.candidates()
    assert cands == [s for s, ok in zip(sols, mask, strict=True) if ok]
    assert d.count() == len(cands) == int(mask.sum())
    poss = d.possible()
    assert poss["murderers"] == {s.murderer for s in cands}
    assert poss["motives"] == {s.motive for s in cands}
    assert poss["weapons"] == {s.weapon for s in cands}
    assert poss["accomplices"] == {s.accomplice for s in cands}
    assert poss["accomplice_motives"] == {s.accomplice_motive for s in cands}
    arrays = d.possible_arrays()
    assert [len(arrays[k]) for k in ("murderers", "motives", "weapons")] == [6, 18, 20]
    assert arrays["accomplices"].tolist() == [
        s in poss["accomplices"] for s in (*WALTON.suspects, None)
    ]
    motive_ids = [m.id for m in WALTON.motives]
    assert arrays["accomplice_motives"].tolist() == [
        m in poss["accomplice_motives"] for m in (*motive_ids, None)
    ]


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("acc", [False, True])
def test_incremental_equals_from_scratch(seed, acc):
    cards = deck(seed, acc, noise=seed % 3)
    d = Deduction(acc)
    check_views(d)
    seen: list[dict] = []
    for k, card in enumerate(cards):
        d.add_facts(card)
        seen += card
        if k % 4 == 0 or k == len(cards) - 1:
            assert np.array_equal(d.candidate_mask(), scratch_mask(seen, acc))
            # the count is computed without the mask: check it on a fresh state too
            fresh = Deduction(acc)
            fresh.add_facts(seen)
            assert fresh.count() == int(d.candidate_mask().sum())
            check_views(d)
    check_views(d)
    assert set(d.candidates()) == set(solve(seen, acc))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), acc=st.booleans(), data=st.data())
def test_any_card_order_gives_the_same_result(seed, acc, data):
    cards = deck(seed, acc, n_facts=60, noise=1)
    order = data.draw(st.permutations(range(len(cards))))
    d1, d2 = Deduction(acc), Deduction(acc)
    for c in cards:
        d1.add_facts(c)
    for i in order:
        d2.add_facts(cards[i])
        d2.count()  # interleave reads with writes
    assert np.array_equal(d1.candidate_mask(), d2.candidate_mask())
    assert d1.count() == d2.count()


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(60))
def test_incremental_equals_from_scratch_every_step(seed):
    acc = seed % 2 == 0
    cards = deck(1000 + seed, acc, noise=2)
    d = Deduction(acc)
    seen: list[dict] = []
    for card in cards:
        d.add_facts(card)
        seen += card
        assert np.array_equal(d.candidate_mask(), scratch_mask(seen, acc))
        assert d.count() == len(solve(seen, acc))


@pytest.mark.parametrize("acc", [False, True])
def test_repeated_facts_are_idempotent(acc):
    cards = deck(3, acc)
    d = Deduction(acc)
    for c in cards[:20]:
        d.add_facts(c)
    before = d.candidate_mask().copy()
    for c in cards[:20]:
        d.add_facts(c)
        d.add_facts([copy.deepcopy(f) for f in c])
    assert np.array_equal(d.candidate_mask(), before)
    # the same staff statement from another member of staff changes nothing either
    staff_facts = [f for c in cards[:20] for f in c if f["speaker"] in WALTON.staff]
    for f in staff_facts:
        d.add_facts([dict(f, speaker="housekeeper" if f["speaker"] != "housekeeper" else "cook")])
    assert np.array_equal(d.candidate_mask(), before)


@pytest.mark.parametrize("how", ["clone", "deepcopy", "pickle"])
@pytest.mark.parametrize("acc", [False, True])
def test_copies_mid_way_continue_identically(how, acc):
    cards = deck(5, acc, noise=1)
    half = len(cards) // 2
    d = Deduction(acc)
    for c in cards[:half]:
        d.add_facts(c)
    d.count()  # caches filled before copying
    if how == "clone":
        e = d.clone()
    elif how == "deepcopy":
        e = copy.deepcopy(d)
    else:
        e = pickle.loads(pickle.dumps(d))
    assert np.array_equal(e.candidate_mask(), d.candidate_mask())
    mask_half = d.candidate_mask().copy()
    # the copy goes on alone: the original must not change
    for c in cards[half:]:
        e.add_facts(c)
    assert np.array_equal(d.candidate_mask(), mask_half)
    assert d.count() == int(mask_half.sum())
    # then the original catches up: both identical
    for c in cards[half:]:
        d.add_facts(c)
    assert np.array_equal(e.candidate_mask(), d.candidate_mask())
    assert e.count() == d.count()
    check_views(e)


def test_pickled_state_is_compact():
    d = Deduction(True)
    for c in deck(2, True):
        d.add_facts(c)
    blob = pickle.dumps(d)
    assert len(blob) < 20_000
    assert np.array_equal(pickle.loads(blob).candidate_mask(), d.candidate_mask())


def test_copies_do_not_share_claim_state():
    d = Deduction(True)
    d.add_facts(
        [
            {
                "type": "claim",
                "speaker": "greg",
                "suspect": "greg",
                "room": "library",
                "with": ["angelica"],
            }
        ]
    )
    e = d.clone()
    e.add_facts(
        [
            {
                "type": "claim",
                "speaker": "greg",
                "suspect": "greg",
                "room": "vestibule",
                "with": ["angelica"],
            }
        ]
    )
    assert d.count() != e.count()
    f = d.clone()
    assert f.count() == d.count()


def test_validation_on_add():
    d = Deduction(True)
    with pytest.raises(ValueError, match="unknown type"):
        d.add_facts([{"type": "hunch", "speaker": "maid"}])
    assert d.count() == 5760
    with pytest.raises(ValueError):
        solve(
            [{"type": "seen_before", "speaker": "greg", "suspect": "greg", "room": "library"}], True
        )


@pytest.mark.parametrize("acc", [False, True])
def test_count_consistent_fast_path(acc):
    rng = np.random.default_rng(17)
    for _ in range(60):
        facts = [random_fact(rng) for _ in range(int(rng.integers(1, 4)))]
        local = [f for f in facts if f["type"] in LOCAL_TYPES]
        for subset in (facts, local):
            assert count_consistent(subset, acc) == len(solve(subset, acc))


def test_solve_accepts_any_iterable():
    cards = deck(9, True)
    facts = [f for c in cards for f in c]
    assert solve(iter(facts), True) == solve(facts, True) == solve(tuple(facts), True)


@pytest.mark.slow
def test_speed_targets():
    """add one card < 1 ms median; solve from ~70 cards well under 50 ms (generous bounds)."""
    times, solve_times = [], []
    for seed in range(20):
        cards = deck(seed, True, n_facts=120)
        d = Deduction(True)
        for c in cards:
            t0 = time.perf_counter()
            d.add_facts(c)
            d.count()
            times.append(time.perf_counter() - t0)
        facts = [f for c in cards for f in c]
        t0 = time.perf_counter()
        solve(facts, True)
        solve_times.append(time.perf_counter() - t0)
    assert np.median(times) < 1e-3
    assert np.median(solve_times) < 50e-3
