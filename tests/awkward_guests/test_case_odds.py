"""The case generator's odds on the candidates (``case/generator/odds.py``): each term against
numbers worked out by hand from the recipe, and the hidden solution never ruled out on generated
cases."""

from __future__ import annotations

import math

import numpy as np
import pytest

from parlour.envs.awkward_guests.case.board import WALTON
from parlour.envs.awkward_guests.case.generator import generate_case
from parlour.envs.awkward_guests.case.generator.odds import candidate_log_weights
from parlour.envs.awkward_guests.case.generator.recipes import RECIPES
from parlour.envs.awkward_guests.case.solution import (
    Solution,
    candidate_index,
    candidate_solutions,
)

MEDIUM = RECIPES["medium"]
SOLS = candidate_solutions(True)


def _w(facts: list[dict], sol: Solution, level: str = "medium") -> float:
    return float(candidate_log_weights(facts, level)[candidate_index(sol)])


def _motive(owner: str, i: int = 0) -> str:
    return WALTON.motives_of(owner)[i].id


def _sol(m: str, mu: int = 0, w: str = "wrench", a: str | None = None, alpha: int = 0):
    if a is None:
        return Solution(m, _motive(m, mu), w)
    return Solution(m, _motive(m, mu), w, a, _motive(a, alpha))


def test_without_facts_the_weights_are_the_generators_prior():
    w = candidate_log_weights([], "medium")
    assert w.shape == (5760,)
    alone, pair = w[0], w[-1]
    assert np.all(w[:360] == alone) and np.all(w[360:] == pair)
    share = MEDIUM.accomplice_share
    assert alone - pair == pytest.approx(math.log((1 - share) / 360 * 5400 / share))
    easy = candidate_log_weights([], "easy")  # no accomplice: one class, equal weights
    assert easy.shape == (360,) and np.all(easy == easy[0])


def test_a_confirming_box_favours_the_candidates_whose_crime_motive_it_is():
    """One confirming box seen: a crime motive confirms always; another motive of a culprit is
    refuted (k of 3 boxes, P(k) = refuting_boxes) and this box confirms with chance
    Σ P(k)·C(2, k)/C(3, k); an innocent's motive is a red herring or refuted."""
    m = _motive("greg")
    box = {"type": "evidence", "speaker": "police", "suspect": "greg", "motive": m}
    facts = [{**box, "verdict": "confirms", "room": "shed"}]
    p1, p2, _ = MEDIUM.refuting_boxes
    refuted = p1 * 2 / 3 + p2 * 1 / 3
    herring = MEDIUM.herring_motive
    crime = _sol("greg", 0)
    culprit = _sol("greg", 1)  # greg is the murderer with another motive
    innocent = _sol("angelica", 0)
    assert _w(facts, crime) - _w([], crime) == pytest.approx(0.0)
    assert _w(facts, culprit) - _w([], culprit) == pytest.approx(math.log(refuted))
    expected = math.log(herring + (1 - herring) * refuted)
    assert _w(facts, innocent) - _w([], innocent) == pytest.approx(expected)
    # the accomplice's motive is a crime motive too
    assert _w(facts, _sol("angelica", 0, a="greg")) == pytest.approx(
        _w([], _sol("angelica", 0, a="greg"))
    )


def test_a_refuting_box_rules_out_its_motive_as_a_crime_motive():
    m = _motive("greg")
    facts = [{"type": "testimony", "speaker": "angelica", "suspect": "greg", "motive": m}]
    facts[0]["verdict"] = "refutes"
    assert _w(facts, _sol("greg", 0)) == -math.inf
    p1, p2, p3 = MEDIUM.refuting_boxes
    refuted = p1 * 1 / 3 + p2 * 2 / 3 + p3 * 1.0
    assert _w(facts, _sol("greg", 1)) - _w([], _sol("greg", 1)) == pytest.approx(math.log(refuted))


def test_sightings_hold_the_culprits_only_together():
    """With an accomplice, the staff saw the murderer and the accomplice only together and
    never alone; without one, sightings are drawn among all suspects."""
    together = [{"type": "together", "speaker": "butler", "suspects": ["angelica", "greg"]}]
    together[0]["room"] = "shed"
    alone = [{"type": "alone", "speaker": "butler", "suspect": "greg", "room": "shed"}]
    assert math.isfinite(_w(together, _sol("angelica", a="greg")))
    assert math.isfinite(_w(together, _sol("greg", a="angelica")))
    assert _w(together, _sol("angelica", a="berwick")) == -math.inf
    assert _w(together, _sol("berwick", a="greg")) == -math.inf
    assert math.isfinite(_w(together, _sol("greg")))  # no accomplice: greg may be seen
    assert _w(alone, _sol("greg", a="angelica")) == -math.inf
    assert math.isfinite(_w(alone, _sol("greg")))
    # the culprits' pair sighting is certain; an innocent pair's is a chance below 1
    pair = _w(together, _sol("angelica", a="greg")) - _w([], _sol("angelica", a="greg"))
    innocents = _w(together, _sol("berwick", a="claudette")) - _w(
        [], _sol("berwick", a="claudette")
    )
    assert pair == 0.0 and innocents < 0.0


def test_an_unknown_level_is_refused_by_name():
    with pytest.raises(ValueError, match="level must be one of"):
        candidate_log_weights([], "impossible")


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert"])
def test_the_hidden_solution_is_never_ruled_out(level):
    """On generated cases, the solution keeps a finite weight given the whole deck (every term
    only ever lowers a weight, so any part of the deck a player has seen keeps it finite too)."""
    for seed in range(12):
        case = generate_case(level, seed)
        facts = [f for card in case.cards for f in card.facts]
        assert np.isfinite(candidate_log_weights(facts, level)[candidate_index(case.solution)])


def test_each_sighting_costs_its_chance_under_the_generator():
    """An innocent pair seen together costs E[innocent_pairs] / C(innocents, 2), a lone innocent
    E[lone sightings] / innocents: with an accomplice among the 4 innocents, without one among
    all 6 suspects (medium: 1–2 pairs, 1–3 lone sightings)."""
    together = {"type": "together", "speaker": "butler", "suspects": ["berwick", "claudette"]}
    alone = {"type": "alone", "speaker": "butler", "suspect": "mortimer", "room": "shed"}
    facts = [{**together, "room": "shed"}, alone]
    mean_pairs = sum(MEDIUM.innocent_pairs) / 2
    with_pair = _sol("angelica", a="greg")
    without = _sol("angelica")
    assert _w(facts, with_pair) - _w([], with_pair) == pytest.approx(
        math.log(mean_pairs / 6) + math.log(2 / 4)
    )
    assert _w(facts, without) - _w([], without) == pytest.approx(
        math.log(mean_pairs / 15) + math.log(2 / 6)
    )


def test_the_classic_cases_solutions_are_never_ruled_out():
    """The hand-made classic cases keep their solution finite under their level's odds too (the
    ``-inf`` terms are rules of generated cases: the module docstring)."""
    from parlour.envs.awkward_guests.case import classic_case_paths, load_case

    paths = classic_case_paths()
    assert paths
    for path in paths:
        case = load_case(path)
        facts = [f for card in case.cards for f in card.facts]
        weights = candidate_log_weights(facts, case.level)
        assert np.isfinite(weights[candidate_index(case.solution)]), path
