"""The case model: facts schema, cards (refs, value, text), Case JSON round trip and validation."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from parlour.envs.awkward_guests.case.board import WALTON
from parlour.envs.awkward_guests.case.cards import (
    VALUE_THRESHOLDS,
    card_exclusion_share,
    card_value,
    make_card,
)
from parlour.envs.awkward_guests.case.case import (
    ACCOMPLICE_LEVELS,
    CASE_FORMAT,
    LEVELS,
    Case,
    load_case,
    save_case,
)
from parlour.envs.awkward_guests.case.facts import (
    FACT_FIELDS,
    fact_key,
    fact_refs,
    fact_text,
    validate_fact,
)
from parlour.envs.awkward_guests.case.solution import Solution

from .deduction_reference import random_cards, random_world, true_facts

# -- a hand-made valid case --------------------------------------------------------------------


def make_case_json(
    seed: int, level: str = "medium", accomplice: bool = True, n_facts: int = 40
) -> dict:
    """A schema-valid case built from an independent random world (not necessarily unique)."""
    rng = np.random.default_rng(seed)
    world = random_world(rng, accomplice and level in ACCOMPLICE_LEVELS)
    m, mu, w, a, alpha = world["solution"]
    pool = true_facts(world, rng)
    facts = [pool[i] for i in rng.choice(len(pool), size=n_facts, replace=False)]
    groups = random_cards(facts, rng)
    ids = rng.permutation(len(groups)).tolist()
    cards = [make_card(i, g[0]["speaker"], g).to_json() for i, g in zip(ids, groups, strict=True)]
    sightings = [{"room": "kitchen", "suspects": sorted({m, a} - {None})}]
    innocents = [s for s in WALTON.suspects if s not in (m, a)]
    sightings.append({"room": "garage", "suspects": [innocents[0]]})
    alibis = {}
    if a is not None:
        alibis = {m: {"room": "library", "with": [a]}, a: {"room": "library", "with": [m]}}
    return {
        "format": CASE_FORMAT,
        "level": level,
        "seed": seed,
        "solution": {
            "murderer": m,
            "motive": mu,
            "weapon": w,
            "accomplice": a,
            "accomplice_motive": alpha,
        },
        "world": {
            "start_rooms": dict(world["start"]),
            "locations": dict(world["loc"]),
            "route": list(world["route"]),
            "box_truths": world["boxes"],
            "sightings": sightings,
            "alibis": alibis,
        },
        "cards": cards,
    }


@pytest.fixture(scope="module")
def case_json() -> dict:
    return make_case_json(3, "hard", accomplice=True)


@pytest.fixture(scope="module")
def solo_case_json() -> dict:
    return make_case_json(4, "easy", accomplice=False)


# -- JSON round trip ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed,level", [(s, LEVELS[s % 7]) for s in range(10)])
def test_json_round_trip_is_exact(seed, level):
    d = make_case_json(seed, level)
    case = Case.from_json(copy.deepcopy(d))
    assert case.to_json() == d
    # through text, too
    again = Case.from_json(json.loads(json.dumps(case.to_json())))
    assert again.to_json() == d
    assert again == case
    assert case.accomplice_possible == (level in ACCOMPLICE_LEVELS)
    assert case.solution == Solution(**d["solution"])


def test_save_and_load_case(tmp_path: Path, case_json):
    case = Case.from_json(case_json)
    p = tmp_path / "case.json"
    save_case(case, p)
    loaded = load_case(p)
    assert loaded == case
    assert loaded.to_json() == case_json
    assert json.loads(p.read_text(encoding="utf-8")) == case_json


def test_to_json_returns_copies(case_json):
    case = Case.from_json(case_json)
    out = case.to_json()
    out["cards"][0]["facts"][0]["speaker"] = "nobody"
    out["world"]["start_rooms"]["greg"] = "nowhere"
    assert case.to_json() == case_json


def test_case_lookups(case_json):
    case = Case.from_json(case_json)
    ids = [c["id"] for c in case_json["cards"]]
    assert sorted(ids) == list(range(len(ids)))
    assert case.card(ids[0]).to_json() == case_json["cards"][0]
    assert len(case.facts()) == sum(len(c["facts"]) for c in case_json["cards"])
    with pytest.raises(KeyError):
        case.card(10_000)


# -- malformed case files ----------------------------------------------------------------------


def _first_card_with(d: dict, n: int) -> dict:
    return next(c for c in d["cards"] if len(c["facts"]) >= n)


def _set(path: list, value):
    def fn(d):
        x = d
        for k in path[:-1]:
            x = x[k]
        x[path[-1]] = value

    return fn


def _del(path: list):
    def fn(d):
        x = d
        for k in path[:-1]:
            x = x[k]
        del x[path[-1]]

    return fn


def _four_facts(d):
    c = d["cards"][0]
    c["facts"] = (c["facts"] * 4)[:4]


def _mixed_speakers(d):
    c1 = d["cards"][0]
    c2 = next(c for c in d["cards"] if c["speaker"] != c1["speaker"])
    c1["facts"] = [c1["facts"][0], c2["facts"][0]]


def _tamper_value(d):
    c = d["cards"][0]
    c["value"] = c["value"] % 3 + 1


def _tamper_refs(d):
    c = d["cards"][0]
    c["refs"] = [r for r in WALTON.references if r not in c["refs"]][:1] + c["refs"]


def _dup_id(d):
    d["cards"][1]["id"] = d["cards"][0]["id"]


def _move_innocent(d):
    sol = d["solution"]
    s = next(x for x in WALTON.suspects if x not in (sol["murderer"], sol["accomplice"]))
    start = d["world"]["start_rooms"][s]
    d["world"]["locations"][s] = next(r for r in WALTON.alibi_rooms if r != start)


def _route_skips_weapon(d):
    route = d["world"]["route"]
    d["solution"]["weapon"] = next(w.id for w in WALTON.weapons if w.room not in route)


def _route_wrong_start(d):
    route = d["world"]["route"]
    route[0] = next(r for r in WALTON.alibi_rooms if r != route[0])


def _route_jumps(d):
    route = d["world"]["route"]
    route.insert(1, "study" if route[0] != "study" else "garage")


def _murderer_not_in_study(d):
    d["world"]["locations"][d["solution"]["murderer"]] = "library"


def _crime_box_refutes(d):
    mu = d["solution"]["motive"]
    k = next(iter(d["world"]["box_truths"][mu]))
    d["world"]["box_truths"][mu][k] = "refutes"


def _bad_fact_type(d):
    d["cards"][0]["facts"][0]["type"] = "rumour"


BAD_CASES = [
    ("bad format tag", _set(["format"], "parlour.case/0"), "format must be"),
    ("unknown level", _set(["level"], "impossible"), "level 'impossible'"),
    (
        "unknown suspect",
        _set(["solution", "murderer"], "walton"),
        "murderer 'walton' is not a suspect",
    ),
    ("motive of someone else", _set(["solution", "motive"], "macabre_bet"), "belongs to"),
    ("unknown weapon", _set(["solution", "weapon"], "candlestick"), "candlestick"),
    ("accomplice is the murderer", None, "cannot be the murderer"),
    ("accomplice half set", _set(["solution", "accomplice_motive"], None), "both be null"),
    ("card with 4 facts", _four_facts, "1 to 3 facts, got 4"),
    ("card with no facts", lambda d: d["cards"][0].update(facts=[]), "1 to 3 facts, got 0"),
    ("mixed speakers", _mixed_speakers, "card's speaker"),
    ("value tampered", _tamper_value, "value .* does not match"),
    ("refs tampered", _tamper_refs, "refs .* do not match"),
    ("missing field seed", _del(["seed"]), r"missing the field\(s\) \['seed'\]"),
    (
        "missing card text",
        lambda d: d["cards"][0].pop("text"),
        r"missing the field\(s\) \['text'\]",
    ),
    ("missing world route", _del(["world", "route"]), r"missing the field\(s\) \['route'\]"),
    ("unknown top-level key", _set(["secret"], 1), "unknown field"),
    ("duplicate card ids", _dup_id, "duplicate card id"),
    ("bad card id", lambda d: d["cards"][0].update(id="7"), "must be an int"),
    ("invalid fact", _bad_fact_type, "unknown type 'rumour'"),
    ("empty text", lambda d: d["cards"][0].update(text=" "), "text must be"),
    ("innocent moved", _move_innocent, "must stay in their start room"),
    ("murderer not in study", _murderer_not_in_study, "must be in 'study'"),
    ("route misses the weapon room", _route_skips_weapon, "must pass the weapon's room"),
    ("route starts elsewhere", _route_wrong_start, "start in the murderer's start room"),
    ("route through the study", _route_jumps, "only visit to 'study'"),
    ("crime motive refuted", _crime_box_refutes, "crime motive"),
    ("start room not alibi", None, "not an alibi room"),
    ("seed not int", _set(["seed"], "42"), "seed must be"),
    ("not an object", None, "JSON object"),
]


@pytest.mark.parametrize("name,mutate,message", BAD_CASES, ids=[b[0] for b in BAD_CASES])
def test_malformed_case_raises_a_clear_error(case_json, name, mutate, message):
    d = copy.deepcopy(case_json)
    if name == "accomplice is the murderer":
        d["solution"]["accomplice"] = d["solution"]["murderer"]
        d["solution"]["accomplice_motive"] = d["solution"]["motive"]
    elif name == "start room not alibi":
        d["world"]["start_rooms"][d["solution"]["murderer"]] = "kitchen"
    elif name == "not an object":
        d = [d]
    else:
        mutate(d)
    with pytest.raises(ValueError, match=message):
        Case.from_json(d)


def test_accomplice_below_medium_is_rejected(case_json):
    d = copy.deepcopy(case_json)
    assert d["solution"]["accomplice"] is not None
    for level in ("beginner", "very_easy", "easy"):
        d["level"] = level
        with pytest.raises(ValueError, match="never has an accomplice"):
            Case.from_json(d)


def test_culprit_without_refuted_other_motive_is_rejected(solo_case_json):
    d = copy.deepcopy(solo_case_json)
    m, mu = d["solution"]["murderer"], d["solution"]["motive"]
    other = next(x.id for x in WALTON.motives_of(m) if x.id != mu)
    for k in d["world"]["box_truths"][other]:
        d["world"]["box_truths"][other][k] = "confirms"
    with pytest.raises(ValueError, match="needs a refuting box"):
        Case.from_json(d)


def test_accomplice_seen_without_murderer_is_rejected(case_json):
    d = copy.deepcopy(case_json)
    d["world"]["sightings"].append({"room": "shed", "suspects": [d["solution"]["accomplice"]]})
    with pytest.raises(ValueError, match="only ever seen together"):
        Case.from_json(d)


def test_an_unsound_deck_still_loads(case_json):
    """Soundness is `parlour case check`'s job: a false card must load so it can be reported."""
    d = copy.deepcopy(case_json)
    weapon = d["solution"]["weapon"]
    bad = make_card(777, "maid", [{"type": "weapon_unused", "speaker": "maid", "weapon": weapon}])
    d["cards"].insert(3, bad.to_json())
    assert Case.from_json(d).card(777) == bad


def test_load_case_reports_the_file(tmp_path: Path, case_json):
    p = tmp_path / "broken.json"
    d = copy.deepcopy(case_json)
    d["cards"][0]["value"] = 7
    p.write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(ValueError, match="broken.json.*value 7"):
        load_case(p)
    p.write_text("[1, 2", encoding="utf-8")
    with pytest.raises(ValueError, match="not valid JSON"):
        load_case(p)


# -- facts -------------------------------------------------------------------------------------

GOOD_FACTS = [
    {"type": "sign_absent", "speaker": "coroner", "sign": "burn_marks"},
    {"type": "weapon_unused", "speaker": "cook", "weapon": "pillow"},
    {"type": "passage_unused", "speaker": "maid", "from": "garage", "to": "study"},
    {"type": "passage_unused", "speaker": "maid", "from": "library", "to": "shed"},
    {"type": "seen_before", "speaker": "butler", "suspect": "greg", "room": "library"},
    {"type": "seen_at_murder", "speaker": "butler", "suspect": "greg", "room": "kitchen"},
    {"type": "guest_count", "speaker": "gardener", "room": "vestibule", "count": 3},
    {
        "type": "claim",
        "speaker": "greg",
        "suspect": "greg",
        "room": "library",
        "with": ["angelica", "berwick"],
    },
    {"type": "claim", "speaker": "stanley", "suspect": "stanley", "room": "library", "with": []},
    {
        "type": "testimony",
        "speaker": "claudette",
        "suspect": "angelica",
        "motive": "poisoned_chalice",
        "verdict": "refutes",
    },
    {
        "type": "evidence",
        "speaker": "police",
        "suspect": "greg",
        "motive": "fixed_fights",
        "verdict": "confirms",
        "room": "kitchen",
    },
    {"type": "together", "speaker": "chauffeur", "suspects": ["berwick", "greg"], "room": "garage"},
    {"type": "apart", "speaker": "housekeeper", "suspects": ["angelica", "stanley"]},
    {"type": "alone", "speaker": "maid", "suspect": "mortimer", "room": "shed"},
]

EXPECTED_REFS = [
    {"study"},
    {"bedroom"},
    {"garage", "study"},
    {"library", "shed"},
    {"greg", "library"},
    {"greg", "kitchen"},
    {"vestibule"},
    {"greg", "library", "angelica", "berwick"},
    {"stanley", "library"},
    {"angelica"},
    {"greg", "kitchen"},
    {"berwick", "greg", "garage"},
    {"angelica", "stanley"},
    {"mortimer", "shed"},
]


@pytest.mark.parametrize("fact,refs", list(zip(GOOD_FACTS, EXPECTED_REFS, strict=True)))
def test_valid_facts_refs_and_text(fact, refs):
    validate_fact(fact)
    assert fact_refs(fact) == refs
    text = fact_text(fact)
    assert isinstance(text, str) and len(text) > 10 and text.strip() == text
    assert fact_key(fact) == fact_key(copy.deepcopy(fact))
    hash(fact_key(fact))


def test_every_fact_type_is_covered():
    assert {f["type"] for f in GOOD_FACTS} == set(FACT_FIELDS)


def _bad(base: int, **changes):
    f = dict(GOOD_FACTS[base])
    for k, v in changes.items():
        if v is _DROP:
            f.pop(k)
        else:
            f[k] = v
    return f


_DROP = object()

BAD_FACTS = [
    ({"type": "rumour", "speaker": "maid"}, "unknown type"),
    ("not a dict", "JSON object"),
    (_bad(0, speaker="butler"), "police or the coroner"),
    (_bad(0, sign="glitter"), "not a sign"),
    (_bad(1, speaker="police"), "told by staff"),
    (_bad(1, speaker="greg"), "told by staff"),
    (_bad(1, weapon="candlestick"), "not a weapon"),
    (_bad(2, **{"from": "study", "to": "garage"}), "written from 'garage' to 'study'"),
    (_bad(3, **{"from": "shed", "to": "library"}), "written from 'library' to 'shed'"),
    (_bad(3, **{"from": "library", "to": "kitchen"}), "no passage"),
    (_bad(4, room="kitchen"), "not an alibi room"),
    (_bad(4, suspect="walton"), "not a suspect"),
    (_bad(5, room="study"), "crime scene"),
    (_bad(6, room="kitchen"), "not an alibi room"),
    (_bad(6, count=8), "integer 0..7"),
    (_bad(6, count=True), "integer 0..7"),
    (_bad(7, speaker="angelica"), "told by the suspect themself"),
    (_bad(7, **{"with": ["berwick", "angelica"]}), "must be sorted"),
    (_bad(7, **{"with": ["angelica", "greg"]}), "with themself"),
    (_bad(7, **{"with": ["angelica", "angelica"]}), "twice"),
    (_bad(7, room="kitchen"), "not an alibi room"),
    (_bad(7, **{"with": _DROP}), "missing field"),
    (_bad(9, speaker="greg"), "'claudette' or 'berwick', not 'greg'"),
    (_bad(9, speaker="angelica"), "not 'angelica'"),
    (_bad(9, suspect="greg"), "belongs to 'angelica'"),
    (_bad(9, verdict="maybe"), "verdict"),
    (_bad(10, speaker="coroner"), "told by the police"),
    (_bad(11, suspects=["greg"]), "exactly 2"),
    (_bad(11, suspects=["greg", "berwick"]), "sorted"),
    (_bad(12, suspects=["angelica", "angelica"]), "twice"),
    (_bad(13, extra="x"), "unknown field"),
    (_bad(13, speaker="walton"), "unknown speaker"),
]


@pytest.mark.parametrize("fact,message", BAD_FACTS)
def test_invalid_facts_raise_a_clear_error(fact, message):
    with pytest.raises(ValueError, match=message):
        validate_fact(fact)


# -- cards -------------------------------------------------------------------------------------


def test_make_card_computes_refs_value_text():
    facts = [GOOD_FACTS[4], dict(GOOD_FACTS[1], speaker="butler")]
    card = make_card(5, "butler", facts)
    assert card.id == 5 and card.speaker == "butler"
    assert card.refs == ("greg", "bedroom", "library")  # board reference order
    assert card.value == card_value(facts)
    assert card.text.startswith("The butler says:")
    assert "Greg Gaffney" in card.text and "The pillow" in card.text
    facts[0]["room"] = "vestibule"  # the card keeps its own copy
    assert card.facts[0]["room"] == "library"


def test_make_card_rejects_bad_cards():
    with pytest.raises(ValueError, match="1 to 3 facts"):
        make_card(1, "maid", [])
    with pytest.raises(ValueError, match="card's speaker"):
        make_card(1, "maid", [GOOD_FACTS[2], GOOD_FACTS[1]])
    with pytest.raises(ValueError, match="appears twice"):
        make_card(1, "maid", [GOOD_FACTS[2], dict(GOOD_FACTS[2])])
    with pytest.raises(ValueError, match="card id must be an int"):
        make_card(True, "maid", [GOOD_FACTS[2]])


def test_card_value_follows_the_documented_buckets():
    assert VALUE_THRESHOLDS == (0.04, 0.15)  # as documented in envs/awkward_guests/case.py
    for f in GOOD_FACTS:
        x = card_exclusion_share([f])
        expected = 1 if x < VALUE_THRESHOLDS[0] else 2 if x < VALUE_THRESHOLDS[1] else 3
        assert card_value([f]) == expected
    # hand-checked shares: a missing sign rules out 4 of the 20 weapons
    assert card_exclusion_share([GOOD_FACTS[0]]) == pytest.approx(0.2)
    assert card_value([GOOD_FACTS[0]]) == 3
    # one unused weapon: 1/20
    assert card_exclusion_share([GOOD_FACTS[1]]) == pytest.approx(0.05)
    assert card_value([GOOD_FACTS[1]]) == 2
    # a start-room sighting alone rules nothing out
    assert card_exclusion_share([GOOD_FACTS[4]]) == 0.0
    assert card_value([GOOD_FACTS[4]]) == 1


def test_card_value_depends_on_content_only():
    f = [dict(GOOD_FACTS[1], speaker="maid"), dict(GOOD_FACTS[4], speaker="maid")]
    v = card_value(f)
    assert card_value(list(reversed(f))) == v
    assert make_card(1, "maid", f).value == make_card(99, "maid", list(reversed(f))).value == v
    # the same card content in two cases with different hidden truths gets the same value
    a, b = make_case_json(11), make_case_json(12)
    assert a["solution"] != b["solution"]
    card = make_card(500, "maid", f).to_json()
    a["cards"].append(card)
    b["cards"].append(copy.deepcopy(card))
    assert Case.from_json(a).card(500).value == Case.from_json(b).card(500).value == v


def test_card_values_1_2_3_all_occur_often():
    """On realistic cards (1–3 true facts of one speaker) each value is common."""
    rng = np.random.default_rng(0)
    values: Counter = Counter()
    for i in range(12):
        world = random_world(rng, i % 2 == 0)
        pool = true_facts(world, rng)
        picked = [pool[k] for k in rng.choice(len(pool), size=70, replace=False)]
        for g in random_cards(picked, rng):
            values[card_value(g)] += 1
    n = sum(values.values())
    assert set(values) == {1, 2, 3}
    for v in (1, 2, 3):
        assert values[v] / n >= 0.15, values
