"""``parlour case bank``: build, describe, print and check case banks (:mod:`.bank`).

=================================================================  ===============================
command                                                            what it does
=================================================================  ===============================
``parlour case bank build OUT --level L --count N [--seed S]       generate, prove, de-duplicate
[--workers K] [--splits train=0.8,val=0.1,test=0.1]                and store ``N`` cases in splits
[--deck-size D] [--address ADDR]``                                 (``K`` processes, or the Ray
                                                                   cluster at ``ADDR``)
``parlour case bank info BANK [--json]``                           the header, the splits and
                                                                   their metadata
``parlour case bank show BANK INDEX [--split S] [--dossier]``      one case as ``parlour case
                                                                   generate`` prints it (INDEX
                                                                   within ``S`` if given)
``parlour case bank check BANK``                                   prove every case sound, unique
                                                                   and distinct (exit 0), or list
                                                                   the failures (exit 1)
=================================================================  ===============================

``BANK`` is a bank file or a shipped bank's name (a level). A bad file or argument is one line on
stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import numpy as np

from .bank import DEFAULT_SPLITS, CaseBank, open_bank, proof_failures, record_verified
from .bank_build import MAX_BUILD_WORKERS, build_bank
from .case import LEVELS
from .dossier import case_json_text, dossier
from .generator import DEFAULT_DECK_SIZE

#: failures ``check`` lists at most
MAX_REPORTED = 20


def add_arguments(sub: Any) -> None:
    """The ``bank`` action and its sub-actions, under ``parlour case``."""
    bank = sub.add_parser("bank", help="build, describe, print and check case banks")
    acts = bank.add_subparsers(dest="bank_command", metavar="ACTION")
    b = acts.add_parser("build", help="build a bank of verified, distinct cases")
    b.add_argument("out", metavar="OUT", help="the bank file to write")
    b.add_argument("--level", required=True, choices=LEVELS)
    b.add_argument("--count", required=True, type=int, help="distinct cases in the bank")
    b.add_argument("--seed", type=int, default=0, help="the build seed (default 0)")
    b.add_argument(
        "--workers", type=int, default=1, help=f"processes (1..{MAX_BUILD_WORKERS}, default 1)"
    )
    shares = ",".join(f"{k}={v}" for k, v in DEFAULT_SPLITS.items())
    b.add_argument("--splits", default=None, help=f"split shares (default {shares})")
    b.add_argument("--deck-size", type=int, default=DEFAULT_DECK_SIZE)
    b.add_argument("--address", default=None, help="a Ray cluster's address (`local`: start one)")
    i = acts.add_parser("info", help="describe a bank")
    i.add_argument("bank", metavar="BANK")
    i.add_argument("--json", action="store_true", help="print the description as JSON")
    s = acts.add_parser("show", help="print one case as `parlour case generate` does")
    s.add_argument("bank", metavar="BANK")
    s.add_argument("index", metavar="INDEX", type=int)
    s.add_argument("--split", default=None, help="INDEX counts within this split")
    s.add_argument("--dossier", action="store_true", help="print it as `parlour case show`")
    c = acts.add_parser("check", help="prove every case sound, unique and distinct")
    c.add_argument("bank", metavar="BANK")


def describe(bank: CaseBank) -> dict[str, Any]:
    """``info``'s content: the header's facts and per-split metadata summaries."""
    size = bank.path.stat().st_size
    splits = {}
    for name, r in bank.splits.items():
        sl = slice(r.start, r.stop)
        splits[name] = {
            "cases": len(r),
            "first": r.start,
            "accomplice_share": float(np.mean(bank.meta["accomplice"][sl])),
            "cards_needed_mean": float(np.mean(bank.meta["cards_needed"][sl])),
            "candidates_after_hand_median": float(
                np.median(bank.meta["candidates_after_hand"][sl])
            ),
        }
    return {
        "file": str(bank.path),
        "format": bank.header["format"],
        "level": bank.level,
        "deck_size": bank.deck_size,
        "cases": len(bank),
        "build_seed": bank.header["seed"],
        "created_by": bank.header["created_by"],
        "bytes": size,
        "bytes_per_case": round(size / len(bank)),
        "sha256": bank.digest,
        "splits": splits,
    }


def _info_text(d: dict[str, Any]) -> str:
    lines = [
        f"{d['file']}: {d['format']}, level {d['level']}, {d['cases']:,} cases of "
        f"{d['deck_size']} cards, {d['bytes'] / 1e6:.2f} MB ({d['bytes_per_case']:,} bytes a case)",
        f"built with seed {d['build_seed']} by parlour {d['created_by']}; sha256 {d['sha256']}",
        "",
        f"{'split':<10}{'cases':>8}{'first':>8}{'accomplice':>12}{'cards needed':>14}"
        f"{'cands after hand':>18}",
    ]
    for name, s in d["splits"].items():
        lines.append(
            f"{name:<10}{s['cases']:>8,}{s['first']:>8,}{s['accomplice_share']:>12.0%}"
            f"{s['cards_needed_mean']:>14.1f}{s['candidates_after_hand_median']:>18,.0f}"
        )
    return "\n".join(lines)


def _progress(done: int, total: int) -> None:
    print(f"\r{done:,} / {total:,} cases", end="", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    """Run ``parlour case bank ...``; ``ValueError``/``OSError`` go to the caller's one-line
    error handler."""
    cmd = getattr(args, "bank_command", None)
    if cmd == "build":
        report = build_bank(
            args.out,
            args.level,
            args.count,
            seed=args.seed,
            workers=args.workers,
            deck_size=args.deck_size,
            splits=args.splits,
            address=args.address,
            progress=_progress if sys.stderr.isatty() else None,
        )
        if sys.stderr.isatty():
            print(file=sys.stderr)
        parts = ", ".join(f"{k} {n:,}" for k, n in report.splits.items())
        print(
            f"wrote {report.path}: {report.count:,} {report.level} cases ({parts}), "
            f"{report.size_bytes / 1e6:.2f} MB; {report.duplicates} duplicate(s) skipped; "
            f"{report.seconds:.1f} s, {report.cases_per_second:.1f} cases/s with "
            f"{args.workers if not args.address else 'Ray'} worker(s)"
        )
        return 0
    if cmd == "info":
        d = describe(open_bank(args.bank, prove=False))
        print(json.dumps(d, indent=1) if args.json else _info_text(d))
        return 0
    if cmd == "show":
        bank = open_bank(args.bank)
        index = args.index
        if args.split is not None:
            r = bank.split(args.split)
            if not 0 <= index < len(r):
                raise ValueError(f"INDEX must be in 0..{len(r) - 1} in split {args.split!r}")
            index = r.start + index
        elif not 0 <= index < len(bank):
            raise ValueError(f"INDEX must be in 0..{len(bank) - 1}")
        case = bank.case(index)
        if args.dossier:
            print(dossier(case))
        else:
            sys.stdout.write(case_json_text(case))
        return 0
    if cmd == "check":
        bank = open_bank(args.bank, prove=False)
        failures = proof_failures(bank)
        if not failures:
            record_verified(bank.digest)
            print(f"{args.bank}: all {len(bank):,} cases sound, unique and distinct")
            return 0
        print(f"{args.bank}: {len(failures):,} case(s) fail the check")
        for line in failures[:MAX_REPORTED]:
            print(f"  {line}")
        if len(failures) > MAX_REPORTED:
            print(f"  ... and {len(failures) - MAX_REPORTED:,} more")
        return 1
    raise ValueError("choose a bank action: build, info, show or check")
