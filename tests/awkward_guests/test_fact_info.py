"""The per-fact memo (:func:`fact_info`) gives what the uncached functions give, and never lets
a memoised valid fact vouch for an invalid one that looks alike."""

from __future__ import annotations

import copy

import pytest

from parlour.envs.awkward_guests.case.board import WALTON
from parlour.envs.awkward_guests.case.cards import make_card
from parlour.envs.awkward_guests.case.deduction import semantic_key
from parlour.envs.awkward_guests.case.fact_info import fact_info
from parlour.envs.awkward_guests.case.facts import (
    card_text,
    fact_key,
    fact_refs,
    fact_text,
    validate_fact,
)
from parlour.envs.awkward_guests.case.generator import generate_case

from .test_case_model import BAD_FACTS, GOOD_FACTS


def _facts() -> list[dict]:
    out = [copy.deepcopy(f) for f in GOOD_FACTS]
    for level, seed in (("easy", 3), ("expert", 4)):
        out += generate_case(level, seed).facts()
    return out


def test_fact_info_equals_the_uncached_functions() -> None:
    for f in _facts():
        for _ in range(2):  # first built, then memoised
            info = fact_info(f, WALTON)
            assert info.key == fact_key(f)
            assert info.semantic == semantic_key(f)
            assert info.refs == frozenset(fact_refs(f))
            assert info.text == fact_text(f)


@pytest.mark.parametrize("fact,message", BAD_FACTS)
def test_invalid_facts_raise_as_validate_fact_does(fact, message) -> None:
    for _ in range(2):
        with pytest.raises(ValueError, match=message):
            fact_info(fact, WALTON)


@pytest.mark.parametrize(
    "good,bad",
    [
        (  # an int count, then a bool one (equal and of equal hash)
            {"type": "guest_count", "speaker": "maid", "room": "library", "count": 1},
            {"type": "guest_count", "speaker": "maid", "room": "library", "count": True},
        ),
        (  # a list, then a tuple of the same names
            {"type": "apart", "speaker": "maid", "suspects": ["angelica", "greg"]},
            {"type": "apart", "speaker": "maid", "suspects": ("angelica", "greg")},
        ),
        (  # an extra key
            {"type": "weapon_unused", "speaker": "cook", "weapon": "pillow"},
            {"type": "weapon_unused", "speaker": "cook", "weapon": "pillow", "x": 1},
        ),
    ],
)
def test_a_memoised_fact_does_not_vouch_for_a_look_alike(good: dict, bad: dict) -> None:
    validate_fact(good)
    fact_info(good, WALTON)
    with pytest.raises(ValueError):
        validate_fact(bad)
    with pytest.raises(ValueError):
        fact_info(bad, WALTON)


def test_unhashable_values_are_validated_every_time() -> None:
    bad = {"type": "apart", "speaker": "maid", "suspects": [["angelica"], "greg"]}
    for _ in range(2):
        with pytest.raises(ValueError, match="list of suspect ids"):
            fact_info(bad, WALTON)


def test_make_card_text_and_refs_as_before() -> None:
    case = generate_case("medium", 11)
    for card in case.cards:
        again = make_card(card.id, card.speaker, list(card.facts))
        assert again == card
        assert card.text == card_text(card.speaker, card.facts)
