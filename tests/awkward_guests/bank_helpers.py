"""What the case bank tests share: a verified-banks record of their own, small built banks, and
ways to write damaged or dishonest banks (:mod:`parlour.envs.awkward_guests.case.bank`)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from parlour.apps.cli import main
from parlour.envs.awkward_guests.case import bank as B
from parlour.envs.awkward_guests.case.bank_build import compress
from parlour.envs.awkward_guests.case.case import Case

#: the magic and the header length field (the header starts after them)
HEAD_START = 24


@contextmanager
def own_record(folder: Path) -> Iterator[Path]:
    """Point the verified-banks record at ``folder`` and forget what this process proved: a
    bank is proven again unless recorded there."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(B.CACHE_ENV, str(folder))
        mp.setattr(B, "_VERIFIED_HERE", set())
        yield folder


def recorded(folder: Path) -> set[str]:
    """The bank contents (SHA-256) the record in ``folder`` holds."""
    d = folder / B.VERIFIED_DIR
    return {p.name for p in d.iterdir()} if d.is_dir() else set()


def content_digest(bank: B.CaseBank, i: int) -> str:
    """Case ``i``'s puzzle: the SHA-256 of its canonical JSON without the seed (two seeds may
    make one puzzle; the seed is no part of it)."""
    d = json.loads(bank.case_json_bytes(i))
    assert d.pop("seed") == bank.meta["seed"][i]
    return hashlib.sha256(B._canonical(d)).hexdigest()


def read_header(path: Path) -> dict[str, Any]:
    data = path.read_bytes()
    n = int.from_bytes(data[16:HEAD_START], "little")
    return json.loads(data[HEAD_START : HEAD_START + n])


def rewrite_header(
    src: Path, dst: Path, change: Callable[[dict[str, Any]], None], fix_checksum: bool = True
) -> Path:
    """Copy bank ``src`` to ``dst`` with ``change`` applied to its header; with
    ``fix_checksum`` the header's ``sha256`` is recomputed as a build would (the header without
    that key, then the payload: ``bank._digest``), so only ``change`` is wrong."""
    data = src.read_bytes()
    n = int.from_bytes(data[16:HEAD_START], "little")
    header = json.loads(data[HEAD_START : HEAD_START + n])
    start = header["payload"]
    change(header)
    if fix_checksum:
        header["sha256"] = B._digest(header, [data[start:]])
    head = B._canonical(header)
    assert len(head) <= n, "the changed header must fit where the old one was"
    dst.write_bytes(data[:HEAD_START] + head.ljust(n) + data[HEAD_START + n :])
    return dst


def write_cases_bank(path: Path, cases: dict[str, list[Case]], level: str = "easy") -> str:
    """Write ``cases`` (split -> cases) as a bank with :func:`write_bank` (no verification:
    the cases may be wrong; the metadata columns are placeholders). Returns its SHA-256."""
    rows: dict[str, list[tuple[bytes, dict[str, int]]]] = {}
    first = B.case_bytes(next(c for split in cases.values() for c in split))
    zdict = first[-4096:]
    for name, split in cases.items():
        rows[name] = []
        for case in split:
            data = B.case_bytes(case)
            meta = {
                "seed": case.seed,
                "num_cards": len(case.cards),
                "accomplice": int(case.solution.accomplice is not None),
                "cards_needed": 1,
                "candidates_after_hand": 1,
            }
            rows[name].append((compress(data, zdict), meta))
    return B.write_bank(path, level, 70, 0, rows, zdict, "tests")


#: the small bank of the ``built`` fixture (conftest.py): 12 easy cases, build seed 3
BUILT_LEVEL, BUILT_COUNT, BUILT_SEED = "easy", 12, 3


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """``parlour ARGV`` in this process: (exit code, stdout, stderr)."""
    try:
        code = main(list(argv))
    except SystemExit as e:  # argparse's errors
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str, *words: str) -> None:
    """stderr is one ``parlour ...: error:`` line holding ``words`` (argparse adds its usage)."""
    lines = [ln for ln in err.splitlines() if ln.startswith("parlour")]
    assert len(lines) == 1 and "error" in lines[0], err
    assert all(w in lines[0] for w in words), (words, err)
    assert "Traceback" not in err


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
