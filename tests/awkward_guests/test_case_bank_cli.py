"""Case banks (issue 33): the verified-banks record (proven once per content per machine) and the
``parlour case bank build|info|show|check`` commands. The format, the shipped banks and the
refusals are tested in ``test_case_bank.py``; every test keeps its record in a temporary folder.
"""

from __future__ import annotations

import json
import time

import numpy as np
import pytest

from parlour.envs.awkward_guests.case import bank as B
from parlour.envs.awkward_guests.case import bank_build as BB
from parlour.envs.awkward_guests.case.bank import open_bank
from parlour.envs.awkward_guests.case.bank_build import build_bank
from parlour.envs.awkward_guests.case.case import LEVELS, save_case
from parlour.envs.awkward_guests.case.generator import generate_case

from .bank_helpers import (
    BUILT_COUNT,
    BUILT_LEVEL,
    BUILT_SEED,
    files,
    one_error_line,
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


# -- the verified-banks record ------------------------------------------------------------------


def test_a_bank_is_proven_once_per_content_on_this_machine(tmp_path, fresh, proofs, monkeypatch):
    path = tmp_path / "b.agbank"
    digest = write_cases_bank(
        path, {"train": [generate_case(LEVEL, 21)], "test": [generate_case(LEVEL, 22)]}
    )
    open_bank(path, prove=False)
    assert proofs == [] and recorded(fresh) == set()
    open_bank(path)
    assert proofs == [digest] and recorded(fresh) == {digest}
    open_bank(path)  # this process remembers
    assert proofs == [digest]
    monkeypatch.setattr(B, "_VERIFIED_HERE", set())  # another process: the record on disk
    assert B.is_verified(digest)
    open_bank(path)
    assert proofs == [digest]
    (fresh / B.VERIFIED_DIR / digest).unlink()  # the record gone: proven again
    monkeypatch.setattr(B, "_VERIFIED_HERE", set())
    open_bank(path)
    assert proofs == [digest, digest]
    # another content (one header field changed, checksum right) is another bank
    rewrite_header(path, tmp_path / "c.agbank", lambda h: h.update(created_by="another"))
    other = open_bank(tmp_path / "c.agbank")
    assert other.digest != digest and proofs == [digest, digest, other.digest]
    assert recorded(fresh) == {digest, other.digest}


def test_a_build_records_its_bank_as_proven(tmp_path, fresh, proofs):
    report = build_bank(tmp_path / "b.agbank", LEVEL, 3, seed=9, splits="train=0.5,test=0.5")
    assert recorded(fresh) == {report.sha256}
    open_bank(tmp_path / "b.agbank")
    assert proofs == []


def test_an_unwritable_record_costs_only_later_processes_the_proof(tmp_path, monkeypatch, proofs):
    (tmp_path / "a_file").write_text("not a folder")
    monkeypatch.setenv(B.CACHE_ENV, str(tmp_path / "a_file"))
    monkeypatch.setattr(B, "_VERIFIED_HERE", set())
    path = tmp_path / "b.agbank"
    write_cases_bank(
        path, {"train": [generate_case(LEVEL, 31)], "test": [generate_case(LEVEL, 32)]}
    )
    open_bank(path)
    open_bank(path)
    assert len(proofs) == 1 and (tmp_path / "a_file").read_text() == "not a folder"


# -- the CLI --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--level", "nope", "--count", "3"], ["--level", "invalid choice: 'nope'"]),
        (["--level", "easy", "--count", "0"], ["--count must be", "got 0"]),
        (["--level", "easy", "--count", "3", "--workers", "0"], ["--workers must be", "got 0"]),
        (["--level", "easy", "--count", "3", "--seed", "-1"], ["--seed must be"]),
        (["--level", "easy", "--count", "3", "--deck-size", "5"], ["--deck-size must be"]),
        (["--level", "easy", "--count", "3", "--splits", "a=1,b=1"], ["splits: the shares"]),
        (
            ["--level", "easy", "--count", "2"],
            ["--count 2 leaves the split(s) ['val', 'test'] empty"],
        ),
    ],
)
def test_a_bad_build_is_one_error_line_and_leaves_out_as_it_was(tmp_path, capsys, argv, words):
    out = tmp_path / "out.agbank"
    out.write_bytes(b"the old bank")
    t0 = time.perf_counter()
    code, stdout, err = run(capsys, "case", "bank", "build", str(out), *argv)
    assert code == 2 and stdout == ""
    one_error_line(err, *words)
    assert files(tmp_path) == {"out.agbank": b"the old bank"}
    assert time.perf_counter() - t0 < 5  # (refused before the work)


def test_a_build_into_a_missing_folder_or_onto_a_folder_is_refused_before_the_work(
    tmp_path, capsys
):
    for out, words in [
        (tmp_path / "nowhere" / "b.agbank", ["OUT", "does not exist"]),
        (tmp_path / "a_folder", ["OUT", "is a folder"]),
    ]:
        (tmp_path / "a_folder").mkdir(exist_ok=True)
        t0 = time.perf_counter()
        code, _, err = run(
            capsys, "case", "bank", "build", str(out), "--level", "easy", "--count", "200"
        )
        assert code == 2 and time.perf_counter() - t0 < 1  # (200 cases would take seconds)
        one_error_line(err, *words)
        assert files(tmp_path) == {}


def test_a_build_replaces_out_only_when_it_succeeded(tmp_path, capsys, monkeypatch, fresh):
    folder = tmp_path / "out"  # (the record is in tmp_path)
    folder.mkdir()
    out = folder / "b.agbank"
    out.write_bytes(b"the old bank")
    calls = []
    real = BB.case_row

    def failing(level, deck_size, seed):
        calls.append(seed)
        if len(calls) == 10:  # (after the dictionary's cases)
            raise RuntimeError("a worker died")
        return real(level, deck_size, seed)

    monkeypatch.setattr(BB, "case_row", failing)
    with pytest.raises(RuntimeError, match="a worker died"):
        build_bank(out, LEVEL, 12)
    assert files(folder) == {"b.agbank": b"the old bank"} and recorded(fresh) == set()
    monkeypatch.setattr(BB, "case_row", real)
    argv = ["--level", "easy", "--count", "4", "--splits", "train=0.5,test=0.5", "--seed", "5"]
    code, stdout, _ = run(capsys, "case", "bank", "build", str(out), *argv)
    assert code == 0
    bank = open_bank(out)
    assert stdout.startswith(f"wrote {out}: 4 easy cases (train 2, test 2), ")
    assert "0 duplicate(s) skipped" in stdout and "with 1 worker(s)" in stdout
    assert set(files(folder)) == {"b.agbank"} and recorded(fresh) == {bank.digest}


def test_info_describes_the_header_and_the_splits(built, capsys):
    path, report = built
    bank = open_bank(path)
    code, out, _ = run(capsys, "case", "bank", "info", str(path), "--json")
    assert code == 0
    d = json.loads(out)
    assert {k: d[k] for k in ("file", "format", "level", "deck_size", "cases", "build_seed")} == {
        "file": str(path),
        "format": B.BANK_FORMAT,
        "level": LEVEL,
        "deck_size": 70,
        "cases": COUNT,
        "build_seed": SEED,
    }
    assert d["sha256"] == bank.digest == report.sha256
    assert d["bytes"] == path.stat().st_size and d["bytes_per_case"] == round(d["bytes"] / COUNT)
    assert list(d["splits"]) == ["train", "val", "test"]
    for name, r in bank.splits.items():
        s = d["splits"][name]
        assert (s["cases"], s["first"]) == (len(r), r.start) and s["cases"] == report.splits[name]
        needed = [int(bank.meta["cards_needed"][i]) for i in r]
        assert s["cards_needed_mean"] == pytest.approx(sum(needed) / len(needed))
        assert s["accomplice_share"] == 0
        hand = sorted(int(bank.meta["candidates_after_hand"][i]) for i in r)
        assert s["candidates_after_hand_median"] == pytest.approx(float(np.median(hand)))
    code, text, _ = run(capsys, "case", "bank", "info", str(path))
    assert code == 0
    assert text.splitlines()[0].startswith(
        f"{path}: {B.BANK_FORMAT}, level easy, 12 cases of 70 cards"
    )
    assert f"sha256 {bank.digest}" in text
    rows = {ln.split()[0]: ln.split()[1:3] for ln in text.splitlines()[4:]}
    assert rows == {name: [str(len(r)), str(r.start)] for name, r in bank.splits.items()}


def test_show_prints_what_case_generate_prints(built, capsys, tmp_path):
    path, _ = built
    bank = open_bank(path)
    for i in (0, 5, COUNT - 1):
        code, shown, _ = run(capsys, "case", "bank", "show", str(path), str(i))
        seed = str(int(bank.meta["seed"][i]))
        _, generated, _ = run(capsys, "case", "generate", "--level", LEVEL, "--seed", seed)
        assert code == 0 and shown == generated


def test_show_counts_within_a_split_and_prints_the_dossier(built, capsys, tmp_path):
    path, _ = built
    bank = open_bank(path)
    test = bank.split("test")
    code, shown, _ = run(capsys, "case", "bank", "show", str(path), "0", "--split", "test")
    assert code == 0 and shown == run(capsys, "case", "bank", "show", str(path), str(test.start))[1]
    assert json.loads(shown) == bank.case(test.start).to_json()
    save_case(bank.case(3), tmp_path / "c.json")
    _, dossier, _ = run(capsys, "case", "show", str(tmp_path / "c.json"))
    assert run(capsys, "case", "bank", "show", str(path), "3", "--dossier")[1] == dossier


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["12"], ["INDEX must be in 0..11"]),
        (["-1"], ["INDEX must be in 0..11"]),
        (["1", "--split", "test"], ["INDEX must be in 0..0 in split 'test'"]),
        (["x"], ["INDEX", "invalid int value"]),
    ],
)
def test_show_out_of_range_is_one_error_line(built, capsys, argv, words):
    code, out, err = run(capsys, "case", "bank", "show", str(built[0]), *argv)
    assert code == 2 and out == ""
    one_error_line(err, *words)


def test_check_passes_a_good_bank_and_records_it(built, capsys, fresh, proofs):
    path, _ = built
    code, out, _ = run(capsys, "case", "bank", "check", str(path))
    assert code == 0 and out == f"{path}: all 12 cases sound, unique and distinct\n"
    assert len(proofs) == 0  # (check proves every case with proof_failures itself: not via open)
    assert recorded(fresh) == {open_bank(path, prove=False).digest}


@pytest.mark.parametrize(
    "level", [pytest.param(lv, marks=[] if lv == "medium" else pytest.mark.slow) for lv in LEVELS]
)
def test_check_passes_a_shipped_bank_and_show_reads_it_by_name(level, capsys, fresh):
    code, out, _ = run(capsys, "case", "bank", "check", level)
    assert code == 0 and out == f"{level}: all 300 cases sound, unique and distinct\n"
    bank = open_bank(level, prove=False)
    assert recorded(fresh) == {bank.digest}
    i = bank.split("val").start + 7
    code, shown, _ = run(capsys, "case", "bank", "show", level, "7", "--split", "val")
    seed = str(int(bank.meta["seed"][i]))
    assert (
        code == 0 and shown == run(capsys, "case", "generate", "--level", level, "--seed", seed)[1]
    )


def test_bank_without_an_action_is_an_error(capsys):
    code, _, err = run(capsys, "case", "bank")
    assert code == 2
    one_error_line(err, "choose a bank action: build, info, show or check")


def test_write_bank_writes_what_open_bank_reads(tmp_path, fresh):
    """The low-level writer round-trips any rows (the placeholders of the metadata included)."""
    cases = {
        "x": [generate_case(LEVEL, 41)],
        "y": [generate_case(LEVEL, 42), generate_case(LEVEL, 43)],
    }
    digest = write_cases_bank(tmp_path / "w.agbank", cases)
    bank = open_bank(tmp_path / "w.agbank", prove=False)
    assert bank.digest == digest and {k: len(r) for k, r in bank.splits.items()} == {"x": 1, "y": 2}
    assert [bank.case(i) for i in range(3)] == [*cases["x"], *cases["y"]]
    assert bank.meta["seed"].tolist() == [41, 42, 43]
    assert bank.header["payload"] % B.ALIGN == 0
    assert all(spec["offset"] % B.ALIGN == 0 for spec in bank.header["arrays"].values())
    with pytest.raises(IndexError, match="case index 3 is not in 0..2"):
        bank.case(3)
