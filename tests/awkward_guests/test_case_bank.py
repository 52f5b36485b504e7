"""Case banks (issue 33): the file format, reading it back, refusing bad files, the verified-banks
record, the shipped banks and ``parlour case bank build|info|show|check``.

The envs that deal from a bank are tested in ``test_case_bank_env.py``. Every test here keeps its
verified-banks record in a temporary folder (``PARLOUR_CACHE_DIR``), so what one test proves
never spares another the proof, and nothing is written under the home folder.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from parlour.envs import awkward_guests_v1
from parlour.envs.awkward_guests.case import bank as B
from parlour.envs.awkward_guests.case import bank_build as BB
from parlour.envs.awkward_guests.case.bank import case_bytes, open_bank
from parlour.envs.awkward_guests.case.bank_build import build_bank, parse_splits, split_counts
from parlour.envs.awkward_guests.case.board import WALTON
from parlour.envs.awkward_guests.case.case import LEVELS, Case, case_from_trusted_json
from parlour.envs.awkward_guests.case.deduction import Deduction
from parlour.envs.awkward_guests.case.generator import generate_case
from parlour.envs.awkward_guests.case.stats import cards_until_unique
from parlour.envs.awkward_guests.case.verify import check
from parlour.envs.awkward_guests.case_prefetch import draw_case_seed

from .bank_helpers import (
    BUILT_COUNT,
    BUILT_LEVEL,
    BUILT_SEED,
    content_digest,
    files,
    one_error_line,
    read_header,
    recorded,
    rewrite_header,
    run,
    write_cases_bank,
)

LEVEL, COUNT, SEED = BUILT_LEVEL, BUILT_COUNT, BUILT_SEED
#: the shipped banks' splits (``--count 300 --splits train=0.7,val=0.15,test=0.15``)
SHIPPED_SPLITS = {"train": 210, "val": 45, "test": 45}
#: cards in a first hand (the ``candidates_after_hand`` column)
HAND = 6


# -- what a build writes ------------------------------------------------------------------------


def test_a_build_holds_the_generated_cases_dealt_into_splits_by_the_split_permutation(built):
    path, report = built
    bank = open_bank(path)
    assert (bank.level, bank.deck_size, len(bank), bank.header["seed"]) == (LEVEL, 70, COUNT, SEED)
    assert bank.header["format"] == B.BANK_FORMAT and report.sha256 == bank.digest
    # the case seeds are the envs' draws from default_rng(build seed), in seed order, then
    # dealt to the splits in the order of default_rng([seed, 1]).permutation(count)
    rng = np.random.default_rng(SEED)
    seeds = [draw_case_seed(rng) for _ in range(COUNT)]
    assert len(set(seeds)) == COUNT and report.duplicates == 0
    order = np.random.default_rng([SEED, BB.SPLIT_STREAM]).permutation(COUNT)
    assert bank.meta["seed"].tolist() == [seeds[i] for i in order]
    for i in range(COUNT):
        expected = generate_case(LEVEL, int(bank.meta["seed"][i]))
        assert bank.case_json_bytes(i) == case_bytes(expected)
        assert bank.case(i) == expected


def _assert_metadata(bank: B.CaseBank, indices) -> None:
    for column, dtype in B.META_COLUMNS.items():
        assert bank.meta[column].dtype == np.dtype(dtype) and len(bank.meta[column]) == len(bank)
    for i in indices:
        case, seed = bank.case(i), int(bank.meta["seed"][i])
        assert case.seed == seed
        assert bank.meta["num_cards"][i] == len(case.cards)
        assert bank.meta["accomplice"][i] == int(case.solution.accomplice is not None)
        order = np.random.default_rng(seed).permutation(len(case.cards))
        assert bank.meta["cards_needed"][i] == cards_until_unique(case, order)
        hand = Deduction(case.accomplice_possible)
        for j in order[:HAND]:
            hand.add_facts(case.cards[int(j)].facts)
        assert bank.meta["candidates_after_hand"][i] == hand.count()


def test_the_metadata_columns_of_a_build_are_measured_on_the_case_seed_order(built):
    _assert_metadata(open_bank(built[0]), range(COUNT))


@pytest.mark.parametrize("level", LEVELS)
def test_the_metadata_columns_of_the_shipped_banks(level):
    bank = open_bank(level, prove=False)
    _assert_metadata(bank, range(0, len(bank), 25))  # (every 25th: the whole bank is `slow`)
    if level in ("medium", "hard", "very_hard", "expert"):  # an accomplice is possible
        assert 0 < bank.meta["accomplice"].mean() < 1
    else:
        assert not bank.meta["accomplice"].any()


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_the_metadata_columns_of_every_shipped_case(level):
    bank = open_bank(level, prove=False)
    _assert_metadata(bank, range(len(bank)))


def test_a_build_depends_only_on_its_arguments_not_on_the_workers(built, tmp_path):
    path, _ = built
    two = build_bank(tmp_path / "two.agbank", LEVEL, COUNT, seed=SEED, workers=2)
    assert (tmp_path / "two.agbank").read_bytes() == path.read_bytes()
    assert two.workers == 2 and two.sha256 == open_bank(path).digest
    build_bank(tmp_path / "other.agbank", LEVEL, COUNT, seed=SEED + 1)
    other = open_bank(tmp_path / "other.agbank")
    assert (tmp_path / "other.agbank").read_bytes() != path.read_bytes()
    assert set(other.meta["seed"].tolist()).isdisjoint(open_bank(path).meta["seed"].tolist())
    build_bank(tmp_path / "halves.agbank", LEVEL, COUNT, seed=SEED, splits="train=0.5,test=0.5")
    halves = open_bank(tmp_path / "halves.agbank")
    assert sorted(halves.meta["seed"].tolist()) == sorted(open_bank(path).meta["seed"].tolist())
    assert {k: len(r) for k, r in halves.splits.items()} == {"train": 6, "test": 6}


def test_a_build_skips_a_case_that_repeats_an_earlier_one_under_another_seed(tmp_path, monkeypatch):
    """Two seeds that make the same puzzle (but for its seed) give one case of the bank."""
    rng = np.random.default_rng(SEED)
    seeds = [draw_case_seed(rng) for _ in range(COUNT + 1)]
    real = BB.generate_case

    def twice(level, seed, deck_size):  # the 11th seed repeats the 2nd's puzzle
        if seed == seeds[10]:
            return dataclasses.replace(real(level, seeds[1], deck_size), seed=seed)
        return real(level, seed, deck_size)

    monkeypatch.setattr(BB, "generate_case", twice)
    report = build_bank(tmp_path / "b.agbank", LEVEL, COUNT, seed=SEED)
    bank = open_bank(tmp_path / "b.agbank")
    assert report.duplicates == 1
    assert sorted(bank.meta["seed"].tolist()) == sorted(seeds[:10] + seeds[11:])
    _assert_disjoint(bank)


@pytest.mark.slow
def test_a_build_on_a_local_ray_cluster_writes_the_same_bytes(built, tmp_path):
    pytest.importorskip("ray")
    path, _ = built
    report = build_bank(tmp_path / "ray.agbank", LEVEL, COUNT, seed=SEED, address="local")
    assert (tmp_path / "ray.agbank").read_bytes() == path.read_bytes()
    assert report.sha256 == open_bank(path).digest


# -- splits ---------------------------------------------------------------------------------------


def _assert_disjoint(bank: B.CaseBank) -> None:
    ranges = sorted(bank.splits.values(), key=lambda r: r.start)
    assert sum(len(r) for r in ranges) == len(bank)
    assert sorted(i for r in ranges for i in r) == list(range(len(bank)))
    contents = {name: {content_digest(bank, i) for i in r} for name, r in bank.splits.items()}
    assert sum(len(c) for c in contents.values()) == len(bank)  # no case twice, in any split
    names = list(contents)
    for a in names:
        for b in names[names.index(a) + 1 :]:
            assert contents[a].isdisjoint(contents[b]), (a, b)
    for name, r in bank.splits.items():
        assert all(bank.split_of(i) == name for i in r)


@pytest.mark.parametrize("level", LEVELS)
def test_the_shipped_splits_are_disjoint_by_index_and_content(level):
    bank = open_bank(level, prove=False)
    assert {k: len(r) for k, r in bank.splits.items()} == SHIPPED_SPLITS
    assert bank.header["seed"] == 0 and bank.deck_size == 70 and bank.level == level
    _assert_disjoint(bank)


def test_built_splits_are_disjoint_and_follow_the_shares(built, tmp_path):
    _assert_disjoint(open_bank(built[0]))
    report = build_bank(tmp_path / "b.agbank", LEVEL, 10, seed=1, splits="a=0.34,b=0.33,c=0.33")
    bank = open_bank(tmp_path / "b.agbank")
    assert report.splits == {"a": 4, "b": 3, "c": 3}
    assert {k: (r.start, r.stop) for k, r in bank.splits.items()} == {
        "a": (0, 4),
        "b": (4, 7),
        "c": (7, 10),
    }
    _assert_disjoint(bank)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "train",
        "train=",
        "=0.5,test=0.5",
        "train=0.8,val=0.1,test=0.1,",
        "train=abc,test=0.5",
        "train 0.5,test 0.5",
    ],
)
def test_bad_split_syntax_names_the_option(text):
    with pytest.raises(ValueError, match="--splits must look like train=0.8,val=0.1,test=0.1"):
        parse_splits(text)


@pytest.mark.parametrize(
    "text",
    ["train=0.5,test=0.4", "train=1.2,test=-0.2", "train=1,test=0", "train=nan,test=1", "a=inf"],
)
def test_split_shares_must_be_positive_and_sum_to_one(text):
    with pytest.raises(ValueError, match="splits: the shares must be positive and sum to 1"):
        parse_splits(text)


def test_a_split_named_twice_or_a_share_that_is_no_number_is_named():
    with pytest.raises(ValueError, match="--splits names the split 'train' twice"):
        parse_splits("train=0.5,train=0.5")
    with pytest.raises(ValueError, match="splits: the shares must be numbers"):
        parse_splits({"train": "most", "test": 0.5})


@pytest.mark.parametrize("address", ["", "  "])
def test_an_empty_ray_address_is_refused_before_the_work(address, tmp_path):
    out = tmp_path / "bank.agbank"
    with pytest.raises(ValueError, match="--address must be a Ray cluster's address"):
        build_bank(out, "easy", 10, address=address)
    assert not out.exists()


def test_split_parsing_and_counting():
    assert parse_splits(None) == B.DEFAULT_SPLITS
    assert parse_splits(" train = 0.5 , test=0.5") == {"train": 0.5, "test": 0.5}
    assert parse_splits({"a": 0.25, "b": 0.75}) == {"a": 0.25, "b": 0.75}
    assert split_counts(parse_splits("train=0.7,val=0.15,test=0.15"), 300) == SHIPPED_SPLITS
    assert split_counts(B.DEFAULT_SPLITS, 12) == {"train": 10, "val": 1, "test": 1}
    assert split_counts({"only": 1.0}, 1) == {"only": 1}
    with pytest.raises(
        ValueError, match=r"--count 2 leaves the split\(s\) \['val', 'test'\] empty"
    ):
        split_counts(B.DEFAULT_SPLITS, 2)
    with pytest.raises(ValueError, match=r"--count 10 leaves the split\(s\) \['b', 'c'\] empty"):
        split_counts({"a": 0.9, "b": 0.05, "c": 0.05}, 10)


def test_split_counts_floor_the_shares_as_written_not_their_binary_rounding():
    # 0.29 * 100 is 28.999999999999996 in binary: the split must still get its 29 cases
    assert split_counts(parse_splits("a=0.71,b=0.29"), 100) == {"a": 71, "b": 29}
    assert split_counts(parse_splits("a=0.43,b=0.57"), 100) == {"a": 43, "b": 57}


@example(cuts=[710], count=100)  # (0.29 x 100 is 28.999999999999996 in binary)
@given(
    cuts=st.lists(st.integers(1, 999), min_size=0, max_size=5, unique=True),
    count=st.integers(1, 5000) | st.integers(1, 50).map(lambda k: 100 * k),
)
def test_split_counts_floor_each_share_and_give_the_rest_in_order_or_refuse(cuts, count):
    """For shares written with 3 decimals (as on the command line) and any count: each split
    gets floor(share x count) (exactly), the rest one each to the first splits, and a split
    left empty is a ValueError naming --count and the empty splits."""
    bounds = [0, *sorted(cuts), 1000]
    texts = [f"{(hi - lo) / 1000:.3f}" for lo, hi in zip(bounds, bounds[1:], strict=False)]
    names = [f"s{k}" for k in range(len(texts))]
    shares = parse_splits(",".join(f"{n}={t}" for n, t in zip(names, texts, strict=True)))
    exact = [int(Fraction(t) * count) for t in texts]
    for k in range(count - sum(exact)):
        exact[k] += 1
    if 0 in exact:
        with pytest.raises(ValueError, match=f"--count {count} leaves the split") as e:
            split_counts(shares, count)
        assert str([n for n, c in zip(names, exact, strict=True) if c == 0]) in str(e.value)
    else:
        counts = split_counts(shares, count)
        assert counts == dict(zip(names, exact, strict=True))
        assert sum(counts.values()) == count


# -- the shipped banks -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "level", [pytest.param(lv, marks=[] if lv == "expert" else pytest.mark.slow) for lv in LEVELS]
)
def test_every_shipped_case_passes_the_check_and_decodes_alike_trusted_or_not(level):
    """Every case of every shipped bank is what ``parlour case check`` accepts (sound and
    unique, of the bank's level); the fast trusted decoding equals the validating one. (~3 s a
    level: one in the default run, every level with ``slow``.)"""
    bank = open_bank(level, prove=False)
    assert B.shipped_bank_path(level).stat().st_size < 1_000_000  # (a few MB in all)
    for i in range(len(bank)):
        d = json.loads(bank.case_json_bytes(i))
        case = Case.from_json(d)
        assert case_from_trusted_json(d) == case == bank.case(i), i
        assert case.level == level and case.seed == bank.meta["seed"][i]
        ok, problems = check(case)
        assert ok, (level, i, problems)


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_the_shipped_banks_are_what_the_documented_build_writes(level, tmp_path, record):
    """``parlour case bank build <file> --level L --count 300 --splits
    train=0.7,val=0.15,test=0.15 --workers 2`` (seed 0) writes the shipped bank again (but for
    the parlour version in ``created_by``, and so the checksum)."""
    build_bank(
        tmp_path / "b.agbank", level, 300, seed=0, workers=2, splits="train=0.7,val=0.15,test=0.15"
    )
    ours, shipped = read_header(tmp_path / "b.agbank"), read_header(B.shipped_bank_path(level))
    for h in (ours, shipped):
        h.pop("created_by"), h.pop("sha256")
    assert ours == shipped
    start = ours["payload"]
    assert (tmp_path / "b.agbank").read_bytes()[start:] == B.shipped_bank_path(level).read_bytes()[
        start:
    ]


def test_a_shipped_name_opens_the_shipped_file_and_describes_itself(tmp_path, monkeypatch):
    bank = open_bank("medium", prove=False)
    assert bank.path == B.shipped_bank_path("medium") and bank.name == "medium"
    assert bank.describe() == {"case_bank": "medium", "sha256": bank.digest, "level": "medium"}
    byfile = open_bank(B.shipped_bank_path("medium"), prove=False)
    assert byfile.name is None and byfile.describe()["case_bank"] == str(bank.path)
    # a file of that name in the working folder is the file, not the shipped bank
    monkeypatch.chdir(tmp_path)
    Path("medium").write_bytes(b"not a bank")
    with pytest.raises(ValueError, match="case bank medium: not a case bank"):
        open_bank("medium", prove=False)
    with pytest.raises(ValueError, match="case_bank must be a bank file path or a shipped"):
        open_bank(3)  # type: ignore[arg-type]


# -- refusals ------------------------------------------------------------------------------------


def _flip(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1 :]


def _damaged(good: Path, out: Path, how: str) -> Path:
    """A copy of the bank ``good`` damaged as ``how`` says (one of DAMAGE)."""
    data, header = good.read_bytes(), read_header(good)
    start, head_len = header["payload"], int.from_bytes(data[16:24], "little")
    offsets = header["arrays"]
    cuts = {
        "cut_in_magic": 10,
        "cut_in_length": 20,
        "cut_in_header": 24 + head_len // 2,
        "cut_at_payload": start,
        "cut_one_byte_short": len(data) - 1,
    }
    if how == "random_bytes":
        out.write_bytes(np.random.default_rng(0).bytes(len(data)))
    elif how == "empty":
        out.write_bytes(b"")
    elif how == "folder":
        out.mkdir()
    elif how == "missing":
        pass
    elif how in cuts:
        out.write_bytes(data[: cuts[how]])
    elif how == "header_not_json":
        out.write_bytes(data[:24] + b"{" * head_len + data[24 + head_len :])
    elif how == "flipped_case_byte":
        out.write_bytes(_flip(data, start + offsets["blob"]["offset"] + 100))
    elif how == "flipped_last_byte":
        out.write_bytes(_flip(data, len(data) - 1))
    elif how == "header_edited_without_checksum":
        rewrite_header(good, out, lambda h: h.update(created_by="0.0.0"), fix_checksum=False)
    elif how == "newer_format":
        rewrite_header(good, out, lambda h: h.update(format="parlour.awkward_guests.bank/2"))
    elif how == "unknown_level":
        rewrite_header(good, out, lambda h: h.update(level="impossible"))
    elif how == "overlapping_splits":
        rewrite_header(good, out, lambda h: h["splits"].update(val=[9, 11]))
    elif how == "splits_short_of_count":
        rewrite_header(good, out, lambda h: h.update(count=h["count"] + 1))
    elif how == "extra_header_key":
        rewrite_header(good, out, lambda h: h.update(x=1))
    elif how == "bad_deck_size":
        rewrite_header(good, out, lambda h: h.update(deck_size=5))
    elif how == "short_offsets":
        rewrite_header(good, out, lambda h: h["arrays"]["offsets"].update(shape=[COUNT]))
    else:
        raise AssertionError(how)
    return out


DAMAGE = {
    "random_bytes": "not a case bank (no parlour-agbank magic at its start)",
    "empty": "not a case bank (empty file)",
    "folder": "not a regular file",
    "missing": "cannot read it",
    "cut_in_magic": "no parlour-agbank magic",
    "cut_in_length": "past the end of the file (truncated?)",
    "cut_in_header": "past the end of the file (truncated?)",
    "cut_at_payload": "runs past the end of the file (truncated?)",
    "cut_one_byte_short": "runs past the end of the file (truncated?)",
    "header_not_json": "the header is not JSON",
    "flipped_case_byte": "checksum mismatch",
    "flipped_last_byte": "checksum mismatch",
    "header_edited_without_checksum": "checksum mismatch",
    "newer_format": "format 'parlour.awkward_guests.bank/2' is not 'parlour.awkward_guests.bank/1'",
    "unknown_level": "level 'impossible' is not one of",
    "overlapping_splits": "overlaps or leaves a gap",
    "splits_short_of_count": "the splits cover 12 cases, not count = 13",
    "extra_header_key": "header fields",
    "bad_deck_size": "deck_size must be in",
    "short_offsets": "array 'offsets' must be <u8 of 13 values",
}


@pytest.mark.parametrize("how", list(DAMAGE))
def test_a_damaged_bank_is_refused_with_the_file_and_the_reason(built, tmp_path, how, fresh):
    bad = _damaged(built[0], tmp_path / "bad.agbank", how)
    before = files(tmp_path)
    for prove in (True, False):
        with pytest.raises(ValueError) as e:
            open_bank(bad, prove=prove)
        assert str(e.value).startswith(f"case bank {bad}: ") and DAMAGE[how] in str(e.value)
    with pytest.raises(ValueError, match="case bank .*bad.agbank: "):
        awkward_guests_v1.env(num_players=2, case_bank=bad)
    assert files(tmp_path) == before and recorded(fresh) == set()  # (nothing written)


def test_a_damaged_bank_is_one_cli_error_line_in_a_real_process(built, tmp_path):
    bad = _damaged(built[0], tmp_path / "bad.agbank", "flipped_case_byte")
    exe = Path(sys.executable).with_name("parlour")
    env = {**os.environ, B.CACHE_ENV: str(tmp_path / "record")}
    argv = [str(exe), "case", "bank", "show", str(bad), "0"]
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines() == [
        f"parlour case: error: case bank {bad}: checksum mismatch: the file changed after it "
        "was built (damaged?)"
    ]


def test_a_missing_split_names_the_splits_the_bank_has(built, capsys):
    bank = open_bank(built[0])
    with pytest.raises(ValueError) as e:
        bank.split("holdout")
    assert str(e.value) == (
        f"case bank {built[0]}: no split 'holdout'; its splits are ['train', 'val', 'test']"
    )
    code, out, err = run(capsys, "case", "bank", "show", str(built[0]), "0", "--split", "holdout")
    assert code == 2 and out == ""
    one_error_line(err, "no split 'holdout'", "['train', 'val', 'test']")


def _altered_solution() -> Case:
    """A valid case whose solution was changed (its weapon): not sound any more."""
    case = generate_case(LEVEL, 5)
    for w in WALTON.weapons:
        d = case.to_json()
        d["solution"]["weapon"] = w.id
        if w.id != case.solution.weapon:
            with_it = Case.from_json(d)
            if not check(with_it)[0]:
                return with_it
    raise AssertionError("no weapon makes case 5 unsound")


def _bad_bank(kind: str) -> tuple[dict[str, list[Case]], str]:
    """Cases for a dishonest bank and the failure ``proof_failures`` must report."""
    a, b, c = (generate_case(LEVEL, s) for s in (11, 12, 13))
    if kind == "altered_solution":
        return {"train": [a, _altered_solution(), b], "test": [c]}, (
            "case 1 (split train, seed 5): NOT sound and unique: card "
        )
    if kind == "duplicate":
        return {"train": [a, b], "test": [c, b]}, (
            "case 3 (split test, seed 12): the same case as case 1"
        )
    if kind == "same_case_other_seed":  # (the seed is no part of the puzzle)
        return {"train": [a, b], "test": [c, dataclasses.replace(a, seed=99)]}, (
            "case 3 (split test, seed 99): the same case as case 0"
        )
    if kind == "other_level":
        return {"train": [a, generate_case("medium", 14)], "test": [c]}, (
            "case 1 (split train, seed 14): level 'medium', not the bank's 'easy'"
        )
    if kind == "invalid_case":
        sol = a.solution._replace(murderer="greg" if a.solution.murderer != "greg" else "stanley")
        return {"train": [b, Case(a.level, a.seed, sol, a.world, a.cards)], "test": [c]}, (
            "case 1 (split train, seed 11): not a valid case (case: solution.motive"
        )
    raise AssertionError(kind)


@pytest.mark.parametrize(
    "kind",
    ["altered_solution", "duplicate", "same_case_other_seed", "other_level", "invalid_case"],
)
def test_a_bank_with_a_case_that_fails_the_check_is_refused(kind, tmp_path, fresh, capsys):
    cases, reason = _bad_bank(kind)
    path = tmp_path / "bad.agbank"
    digest = write_cases_bank(path, cases)
    before = path.read_bytes()
    with pytest.raises(ValueError) as e:
        open_bank(path)
    assert str(e.value).startswith(f"case bank {path}: {reason}")
    with pytest.raises(ValueError, match=f"case bank .*bad.agbank: {re.escape(reason)}"):
        awkward_guests_v1.env(num_players=1, case_bank=path)
    code, out, _ = run(capsys, "case", "bank", "check", str(path))
    assert code == 1
    assert out.splitlines()[0] == f"{path}: 1 case(s) fail the check"
    assert out.splitlines()[1].startswith(f"  {reason}")
    # refused everywhere, recorded nowhere, the file as it was; reading without proof still works
    assert not B.is_verified(digest) and recorded(fresh) == set()
    assert path.read_bytes() == before
    assert len(open_bank(path, prove=False)) == sum(len(c) for c in cases.values())
