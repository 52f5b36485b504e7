"""The deduction engine's fast paths give exactly the results of the plain ones.

* ``Deduction.merged`` equals adding the other state's facts one by one (the generator builds
  "all facts but one" states from prefix / suffix merges);
* the product-set ("box") location state used until the first head count equals the bitsets:
  a state that is forced onto bitsets from the start gives the same masks and counts;
* ``count_consistent`` on small fact sets (card values) equals a fresh state's count: the
  cached mask of the non-local facts ANDed with the local facts' masks (true or false facts);
* ``clone`` copies every set of a state;
* a state pickled in box mode and in bitset mode restores exactly.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from parlour.envs.awkward_guests.case.deduction import LOCAL_TYPES, Deduction, count_consistent
from parlour.envs.awkward_guests.case.deduction import engine as E
from parlour.envs.awkward_guests.case.deduction import locations as D

from .deduction_reference import random_fact, random_world, true_facts


def _facts(seed: int, acc: bool, n: int = 40, noise: int = 3) -> list[dict]:
    rng = np.random.default_rng(seed)
    pool = true_facts(random_world(rng, acc and seed % 2 == 0), rng)
    facts = [pool[i] for i in rng.choice(len(pool), size=min(n, len(pool)), replace=False)]
    return facts + [random_fact(rng) for _ in range(noise)]


def _on_bits(acc: bool) -> Deduction:
    """An empty state already on bitsets (as if a head count had come first)."""
    d = Deduction(acc)
    if acc:
        t = d._t
        d._h = D._box_bits(t, d._box)[:, :, None, :]
        d._box = None
    return d


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("acc", [False, True])
def test_merged_equals_adding_the_facts(seed, acc):
    facts = _facts(seed, acc)
    rng = np.random.default_rng(seed)
    cut = int(rng.integers(len(facts)))
    a, b = Deduction(acc), Deduction(acc)
    a.add_facts(facts[:cut])
    b.add_facts(facts[cut:])
    whole = Deduction(acc)
    whole.add_facts(facts)
    m = a.merged(b)
    assert np.array_equal(m.candidate_mask(), whole.candidate_mask())
    assert m.count() == whole.count()
    assert m.possible() == whole.possible()
    # the inputs are unchanged and the merge continues like any state
    a2 = Deduction(acc)
    a2.add_facts(facts[:cut])
    assert np.array_equal(a.candidate_mask(), a2.candidate_mask())
    extra = _facts(seed + 100, acc, n=5, noise=1)
    m.add_facts(extra)
    whole.add_facts(extra)
    assert np.array_equal(m.candidate_mask(), whole.candidate_mask())


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("acc", [False, True])
def test_box_state_equals_bitsets_every_step(seed, acc):
    facts = _facts(seed + 50, acc)
    box, bits = Deduction(acc), _on_bits(acc)
    for f in facts:
        box.add_facts((f,))
        bits.add_facts((f,))
        assert box.count() == bits.count()
        assert np.array_equal(box.candidate_mask(), bits.candidate_mask())


@pytest.mark.parametrize("seed", range(20))
def test_count_consistent_of_small_sets(seed):
    rng = np.random.default_rng(seed)
    facts = _facts(seed + 200, True, n=60, noise=6)
    for _ in range(10):
        k = int(rng.integers(1, 4))
        some = [facts[int(i)] for i in rng.choice(len(facts), size=k, replace=False)]
        for acc in (False, True):
            d = _on_bits(acc)
            d.add_facts(some)
            assert count_consistent(some, acc) == d.count() == int(d.candidate_mask().sum())


@pytest.mark.parametrize("seed", range(12))
def test_count_consistent_with_one_non_local_fact(seed):
    """The AND of single-fact masks (local facts, and at most one other) is the count."""
    rng = np.random.default_rng(seed)
    facts = _facts(seed + 400, True, n=80, noise=10)
    local = [f for f in facts if f["type"] in LOCAL_TYPES]
    other = [f for f in facts if f["type"] not in LOCAL_TYPES]
    assert local and other
    for _ in range(12):
        k = int(rng.integers(0, 5))
        some = [local[int(i)] for i in rng.choice(len(local), size=min(k, len(local)))]
        some.insert(int(rng.integers(len(some) + 1)), other[int(rng.integers(len(other)))])
        for acc in (False, True):
            d = _on_bits(acc)
            d.add_facts(some)
            assert count_consistent(some, acc) == d.count()


@pytest.mark.parametrize("seed", range(12))
def test_count_consistent_with_several_non_local_facts(seed):
    """The cached mask of the non-local facts ANDed with the local facts' masks is the count
    (also when the same non-local facts come again with other local facts)."""
    rng = np.random.default_rng(seed)
    facts = _facts(seed + 600, True, n=80, noise=10)
    local = [f for f in facts if f["type"] in LOCAL_TYPES]
    other = [f for f in facts if f["type"] not in LOCAL_TYPES]
    assert len(other) >= 3
    for _ in range(8):
        k = int(rng.integers(2, 4))
        base = [other[int(i)] for i in rng.choice(len(other), size=k, replace=False)]
        for _ in range(3):  # the same non-local facts, other local ones, any order
            some = base + [local[int(i)] for i in rng.choice(len(local), size=int(rng.integers(3)))]
            some = [some[int(i)] for i in rng.permutation(len(some))]
            for acc in (False, True):
                d = _on_bits(acc)
                d.add_facts(some)
                assert count_consistent(some, acc) == d.count()


def test_clone_copies_every_set():
    """``clone`` copies the sets it knows of (``_SETS``): no other set may hide in a state."""
    d = Deduction(True)
    d.add_facts(_facts(7, True))
    sets = {k for k, v in vars(d).items() if isinstance(v, set)}
    assert sets == set(E._SETS)
    c = d.clone()
    assert all(getattr(c, k) == getattr(d, k) and getattr(c, k) is not getattr(d, k) for k in sets)


@pytest.mark.parametrize("acc", [False, True])
def test_pickle_in_box_and_bitset_mode(acc):
    facts = [f for f in _facts(7, acc) if f["type"] != "guest_count"]
    heads = [f for f in _facts(8, acc, n=80) if f["type"] == "guest_count"]
    d = Deduction(acc)
    d.add_facts(facts[:20])
    for state in (d, d.merged(Deduction(acc))):
        back = pickle.loads(pickle.dumps(state))
        assert np.array_equal(back.candidate_mask(), state.candidate_mask())
    d.add_facts(heads[:2])
    back = pickle.loads(pickle.dumps(d))
    assert np.array_equal(back.candidate_mask(), d.candidate_mask())
    back.add_facts(facts[20:])
    d.add_facts(facts[20:])
    assert np.array_equal(back.candidate_mask(), d.candidate_mask())
