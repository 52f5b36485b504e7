"""The Walton board data: ids and orders exactly as docs/case_model.md#board, and the board file validation."""

from __future__ import annotations

import copy
import json
import os
import pickle
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from parlour.envs.awkward_guests.case.board import (
    DEFAULT_BOARD_PATH,
    WALTON,
    Passage,
    board_from_json,
    load_board,
)

SPEC_SUSPECTS = ("angelica", "berwick", "claudette", "greg", "mortimer", "stanley")
SPEC_ROOMS = (
    "study",
    "garage",
    "trophy_room",
    "bedroom",
    "kitchen",
    "shed",
    "billiard_room",
    "vestibule",
    "living_room",
    "library",
)
SPEC_MOTIVES = [
    ("angelica", "poisoned_chalice", ("claudette", "berwick")),
    ("angelica", "extreme_principles", ("stanley", "claudette")),
    ("angelica", "sinister_plans", ("mortimer", "greg")),
    ("berwick", "family_vendetta", ("angelica", "mortimer")),
    ("berwick", "social_undermining", ("claudette", "greg")),
    ("berwick", "excessive_ambition", ("mortimer", "stanley")),
    ("claudette", "exposed_fraud", ("mortimer", "greg")),
    ("claudette", "fatal_rejection", ("stanley", "angelica")),
    ("claudette", "unforeseen_business", ("greg", "berwick")),
    ("greg", "stolen_recipe", ("angelica", "berwick")),
    ("greg", "fixed_fights", ("stanley", "mortimer")),
    ("greg", "animal_cruelty", ("berwick", "claudette")),
    ("mortimer", "broken_dreams", ("greg", "angelica")),
    ("mortimer", "pirated_idea", ("claudette", "stanley")),
    ("mortimer", "child_neglect", ("berwick", "stanley")),
    ("stanley", "macabre_bet", ("greg", "claudette")),
    ("stanley", "fraternity_hazing", ("angelica", "berwick")),
    ("stanley", "fake_identity", ("angelica", "mortimer")),
]
SPEC_SIGNS = (
    "defensive_wounds",
    "signs_of_fight",
    "heavy_bleeding",
    "oily_substance",
    "attack_from_behind",
    "dark_powder",
    "cyanosis_bruises",
    "burn_marks",
    "traces_of_dirt",
    "strong_odors",
)
SPEC_WEAPONS = [
    ("wrench", "blunt", "garage", ("oily_substance", "strong_odors")),
    ("frying_pan", "blunt", "kitchen", ("oily_substance", "dark_powder")),
    ("shovel", "blunt", "shed", ("cyanosis_bruises", "traces_of_dirt")),
    ("cue", "blunt", "billiard_room", ("defensive_wounds", "dark_powder")),
    ("shotgun", "firearm", "trophy_room", ("signs_of_fight", "burn_marks")),
    ("derringer", "firearm", "trophy_room", ("defensive_wounds", "burn_marks")),
    ("revolver", "firearm", "bedroom", ("heavy_bleeding", "strong_odors")),
    ("blunderbuss", "firearm", "living_room", ("attack_from_behind", "dark_powder")),
    ("kitchen_knife", "bladed", "kitchen", ("defensive_wounds", "heavy_bleeding")),
    ("letter_opener", "bladed", "bedroom", ("attack_from_behind", "cyanosis_bruises")),
    ("machete", "bladed", "trophy_room", ("attack_from_behind", "traces_of_dirt")),
    ("saber", "bladed", "vestibule", ("heavy_bleeding", "signs_of_fight")),
    ("antifreeze", "poison", "garage", ("cyanosis_bruises", "oily_substance")),
    ("rat_poison", "poison", "kitchen", ("heavy_bleeding", "dark_powder")),
    ("pesticide", "poison", "shed", ("burn_marks", "strong_odors")),
    ("poisonous_plant", "poison", "bedroom", ("traces_of_dirt", "oily_substance")),
    ("leather_strap", "suffocating", "garage", ("attack_from_behind", "strong_odors")),
    ("pillow", "suffocating", "bedroom", ("cyanosis_bruises", "signs_of_fight")),
    ("rope", "suffocating", "shed", ("traces_of_dirt", "burn_marks")),
    ("curtain_cord", "suffocating", "library", ("defensive_wounds", "signs_of_fight")),
]
SPEC_TWO_WAY = {
    frozenset(p)
    for p in [
        ("garage", "trophy_room"),
        ("garage", "bedroom"),
        ("trophy_room", "billiard_room"),
        ("trophy_room", "vestibule"),
        ("billiard_room", "vestibule"),
        ("bedroom", "kitchen"),
        ("kitchen", "living_room"),
        ("kitchen", "shed"),
        ("vestibule", "living_room"),
        ("living_room", "library"),
        ("library", "shed"),
    ]
}
STAFF = ("housekeeper", "butler", "maid", "cook", "gardener", "chauffeur")


def raw_board() -> dict:
    return json.loads(DEFAULT_BOARD_PATH.read_text(encoding="utf-8"))


# -- the Walton data -------------------------------------------------------------------------


def test_suspects_rooms_and_orders_match_the_spec():
    b = WALTON
    assert b.suspects == SPEC_SUSPECTS
    assert b.rooms == SPEC_ROOMS
    assert b.crime_scene == "study" and b.rooms[0] == "study"
    assert b.alibi_rooms == SPEC_ROOMS[-4:]
    assert b.study_entrances == ("garage", "bedroom", "shed")
    assert b.signs == SPEC_SIGNS
    assert b.staff == STAFF
    assert b.speakers == SPEC_SUSPECTS + STAFF + ("police", "coroner")
    assert b.references == SPEC_SUSPECTS + SPEC_ROOMS and len(b.references) == 16
    assert b.head_count == {s: (2 if s == "berwick" else 1) for s in SPEC_SUSPECTS}


def test_motives_match_the_spec_table():
    assert [(m.owner, m.id, m.testifiers) for m in WALTON.motives] == SPEC_MOTIVES
    assert [m.index for m in WALTON.motives] == list(range(18))
    for s in SPEC_SUSPECTS:
        assert [m.id for m in WALTON.motives_of(s)] == [
            mid for owner, mid, _ in SPEC_MOTIVES if owner == s
        ]
    assert WALTON.motive("macabre_bet").testifiers == ("greg", "claudette")


def test_weapons_match_the_spec_table():
    got = [(w.id, w.family, w.room, w.signs) for w in WALTON.weapons]
    assert got == SPEC_WEAPONS
    assert [w.index for w in WALTON.weapons] == list(range(20))
    assert WALTON.weapon("rope").room == "shed"


def test_each_sign_left_by_exactly_four_weapons_and_all_pairs_differ():
    counts = Counter(s for w in WALTON.weapons for s in w.signs)
    assert set(counts) == set(SPEC_SIGNS)
    assert all(n == 4 for n in counts.values()), counts
    pairs = [frozenset(w.signs) for w in WALTON.weapons]
    assert len(set(pairs)) == 20
    assert all(len(p) == 2 for p in pairs)
    for s in SPEC_SIGNS:
        assert len(WALTON.weapons_leaving(s)) == 4


def test_passages_match_the_spec():
    ps = WALTON.passages
    assert len(ps) == 14
    assert {frozenset((p.frm, p.to)) for p in ps if not p.one_way} == SPEC_TWO_WAY
    one_way = [(p.frm, p.to) for p in ps if p.one_way]
    assert sorted(one_way) == sorted([("garage", "study"), ("bedroom", "study"), ("shed", "study")])
    # canonical spelling, either argument order
    assert WALTON.passage_key("study", "shed") == ("shed", "study")
    assert WALTON.passage_key("trophy_room", "garage") == ("garage", "trophy_room")
    assert WALTON.passage("kitchen", "bedroom") == Passage("bedroom", "kitchen", False)
    with pytest.raises(ValueError, match="no passage"):
        WALTON.passage_key("study", "library")
    with pytest.raises(ValueError, match="no passage"):
        WALTON.passage_key("kitchen", "kitchen")


def test_movement_graph():
    assert WALTON.neighbours("study") == ()  # the study has no way out
    assert set(WALTON.neighbours("garage")) == {"trophy_room", "bedroom", "study"}
    assert set(WALTON.neighbours("library")) == {"living_room", "shed"}
    # every room but the study is connected, so every weapon room is reachable
    seen, todo = {"library"}, ["library"]
    while todo:
        for n in WALTON.neighbours(todo.pop()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == set(SPEC_ROOMS)


def test_lookups_reject_unknown_ids():
    with pytest.raises(ValueError, match="unknown motive"):
        WALTON.motive("greed")
    with pytest.raises(ValueError, match="unknown weapon"):
        WALTON.weapon("candlestick")
    with pytest.raises(ValueError, match="unknown suspect"):
        WALTON.motives_of("walton")


def test_display_names():
    assert WALTON.display("berwick") == "the Berwick Sisters"
    assert WALTON.display("library") == "the Library"
    assert WALTON.display("butler") == "the butler"
    assert WALTON.display("rope") == "the rope"
    assert WALTON.display("macabre_bet") == "Macabre Bet"


def test_board_is_immutable_hashable_and_picklable():
    assert load_board() == WALTON
    assert hash(load_board()) == hash(WALTON)
    assert pickle.loads(pickle.dumps(WALTON)) is WALTON  # pickled as a reference
    assert len(pickle.dumps(WALTON)) < 200
    assert copy.deepcopy(WALTON) is WALTON
    with pytest.raises(AttributeError):
        WALTON.name = "x"  # type: ignore[misc]


def test_other_board_pickles_by_value_in_a_fresh_process(tmp_path: Path):
    d = raw_board()
    d["name"] = "The Other Case"
    other = board_from_json(d)
    assert other != WALTON
    again = pickle.loads(pickle.dumps(other))
    assert again == other and again is not other and hash(again) == hash(other)
    assert again.passage_key("study", "shed") == ("shed", "study")
    # string hashes differ between processes: the hash must be rebuilt on load
    blob = tmp_path / "board.pickle"
    blob.write_bytes(pickle.dumps(other))
    (tmp_path / "board.json").write_text(json.dumps(d), encoding="utf-8")
    code = (
        "import json, pickle, sys; from pathlib import Path;"
        "from parlour.envs.awkward_guests.case.board import board_from_json;"
        f"b = pickle.loads(Path({str(blob)!r}).read_bytes());"
        f"c = board_from_json(json.loads(Path({str(tmp_path / 'board.json')!r}).read_text()));"
        "sys.exit(0 if (b == c and hash(b) == hash(c) and {b: 1}[c] == 1) else 1)"
    )
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONHASHSEED": "random"}
    assert subprocess.run([sys.executable, "-c", code], env=env, cwd=root).returncode == 0


# -- validation of board files ---------------------------------------------------------------


def _mutate(fn):
    d = raw_board()
    fn(d)
    return d


def _set_weapon_signs(d, signs):
    d["weapons"][0]["signs"] = signs


def _drop_motive(d):
    del d["motives"][-1]


BAD_BOARDS = [
    ("bad format", lambda d: d.update(format="x"), "format"),
    (
        "unknown motive owner",
        lambda d: d["motives"][0].update(owner="walton"),
        "unknown suspect 'walton'",
    ),
    (
        "unknown testifier",
        lambda d: d["motives"][0].update(testifiers=["claudette", "nobody"]),
        "unknown testifier 'nobody'",
    ),
    (
        "owner testifies",
        lambda d: d["motives"][0].update(testifiers=["angelica", "greg"]),
        "cannot testify",
    ),
    (
        "three testifiers",
        lambda d: d["motives"][0].update(testifiers=["claudette", "greg", "stanley"]),
        "exactly 2 testifiers",
    ),
    ("wrong motive count", _drop_motive, "exactly 3 motives"),
    (
        "weapon sign not on sign list",
        lambda d: _set_weapon_signs(d, ["oily_substance", "glitter"]),
        "not on the sign list",
    ),
    (
        "weapon with three signs",
        lambda d: _set_weapon_signs(d, ["oily_substance", "strong_odors", "burn_marks"]),
        "exactly 2 signs",
    ),
    (
        "weapon in unknown room",
        lambda d: d["weapons"][0].update(room="attic"),
        "unknown room 'attic'",
    ),
    (
        "passage to unknown room",
        lambda d: d["passages"].append({"from": "garage", "to": "attic"}),
        "unknown room 'attic'",
    ),
    (
        "duplicate passage",
        lambda d: d["passages"].append({"from": "trophy_room", "to": "garage"}),
        "duplicate passage",
    ),
    (
        "two-way study passage",
        lambda d: d["passages"].append({"from": "kitchen", "to": "study"}),
        "one-way into it",
    ),
    (
        "one-way elsewhere",
        lambda d: d["passages"].append({"from": "kitchen", "to": "library", "one_way": True}),
        "does not lead into the crime scene",
    ),
    (
        "entrance without passage",
        lambda d: d["study_entrances"].append("kitchen"),
        "no passage into the crime scene",
    ),
    (
        "unknown alibi room",
        lambda d: d["alibi_rooms"].append("attic"),
        "alibi room 'attic' is not a room",
    ),
    (
        "crime scene as alibi",
        lambda d: d["alibi_rooms"].insert(0, "study"),
        "cannot be an alibi room",
    ),
    (
        "duplicate suspect",
        lambda d: d["suspects"].append(dict(d["suspects"][0])),
        "duplicate suspect id 'angelica'",
    ),
    (
        "duplicate weapon",
        lambda d: d["weapons"].append(dict(d["weapons"][0])),
        "duplicate weapon id 'wrench'",
    ),
    ("missing field", lambda d: d.pop("signs"), "missing the field 'signs'"),
    ("bad head count", lambda d: d["suspects"][1].update(head_count=0), "head_count"),
    ("missing weapon room", lambda d: d["weapons"][3].pop("room"), "missing the field 'room'"),
    ("wrong officials", lambda d: d.update(officials=[{"id": "police"}]), "officials"),
    ("id clash", lambda d: d["staff"].append({"id": "library"}), "speaker and a room"),
]


@pytest.mark.parametrize("name,mutate,message", BAD_BOARDS, ids=[b[0] for b in BAD_BOARDS])
def test_malformed_board_raises_a_clear_error(name, mutate, message):
    with pytest.raises(ValueError, match=message):
        board_from_json(_mutate(mutate))


def test_load_board_from_file(tmp_path: Path):
    p = tmp_path / "mansion.json"
    p.write_text(json.dumps(raw_board()), encoding="utf-8")
    assert load_board(p) == WALTON
    d = raw_board()
    d["weapons"][2]["signs"] = ["mud", "traces_of_dirt"]
    p.write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(ValueError, match="mansion.json.*'mud'"):
        load_board(p)
    p.write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match="not valid JSON"):
        load_board(p)
