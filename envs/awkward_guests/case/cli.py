"""``parlour case``: generate, show and check Awkward Guests cases; print the level table.

==========================================================  ==================================
command                                                     what it does
==========================================================  ==================================
``parlour case generate --level L --seed S [--deck-size N]  write a generated case as JSON (to
[-o FILE]``                                                 stdout, or FILE)
``parlour case show FILE|classic:N``                        print the dossier as a person reads
                                                            it: cards in id order (value, refs,
                                                            speaker, text), the solution last
``parlour case check FILE|classic:N``                       exit 0 "sound and unique", or exit 1
                                                            naming the false facts / how many
                                                            solutions remain
``parlour case stats [--seeds N] [--json PATH]``            print the level table (and write it
                                                            as JSON)
``parlour case classic [--write]``                          list the 30 classic cases (``--write``
                                                            regenerates their files: maintainers)
``parlour case bank build|info|show|check ...``             case banks: many verified cases in
                                                            one file, with splits
                                                            (:mod:`.bank_cli`)
==========================================================  ==================================

A missing, malformed or inconsistent case file gives a one-line error on stderr and exit
code 2 (never a traceback).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from pathlib import Path

from . import bank_cli
from .case import LEVELS, Case, load_case
from .classic import CLASSIC_CASES, classic_case_paths, classic_path, write_classic_cases
from .dossier import case_json_text, dossier
from .generator import DEFAULT_DECK_SIZE, MAX_DECK_SIZE, MIN_DECK_SIZE, generate_case
from .stats import format_table, level_table
from .verify import check

HELP = "Awkward Guests cases: generate, show, check; the level table"
#: the most cases per level ``stats`` measures: a case takes ~5-50 ms to generate and measure,
#: so the bound is hours of work (and its rows are kept in memory); the docs' table uses 50
MAX_STATS_SEEDS = 100_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="case_command", metavar="ACTION")
    g = sub.add_parser("generate", help="generate a case (JSON)")
    g.add_argument("--level", required=True, choices=LEVELS)
    g.add_argument("--seed", required=True, type=int)
    g.add_argument(
        "--deck-size",
        type=int,
        default=DEFAULT_DECK_SIZE,
        help=f"number of cards ({MIN_DECK_SIZE}..{MAX_DECK_SIZE}, default {DEFAULT_DECK_SIZE})",
    )
    g.add_argument("-o", "--output", help="write to this file instead of stdout")
    s = sub.add_parser("show", help="print a case's dossier, solution last")
    s.add_argument("case", help="a case file, or classic:N (N = 1..30)")
    c = sub.add_parser("check", help="check that a case is sound and unique")
    c.add_argument("case", help="a case file, or classic:N (N = 1..30)")
    t = sub.add_parser("stats", help="print the level table")
    t.add_argument("--seeds", type=int, default=50, help="cases per level (default 50)")
    t.add_argument("--deck-size", type=int, default=DEFAULT_DECK_SIZE)
    t.add_argument("--json", help="also write the table as JSON to this path")
    k = sub.add_parser("classic", help="list the classic cases")
    k.add_argument(
        "--write", action="store_true", help="regenerate the classic case files (maintainers)"
    )
    bank_cli.add_arguments(sub)


def _error(msg: str) -> int:
    print(f"parlour case: error: {msg}", file=sys.stderr)
    return 2


def _load(spec: str) -> Case:
    """Load (and validate) a case file or ``classic:N``."""
    path = classic_path(spec) if spec.startswith("classic:") else Path(spec)
    if not path.exists():
        raise ValueError(f"no such case file: {spec}")  # (a folder, FIFO, device: load_case)
    return load_case(path)


def run(args: argparse.Namespace) -> int:
    cmd = getattr(args, "case_command", None)
    try:
        if cmd == "generate":
            case = generate_case(args.level, args.seed, args.deck_size)
            text = case_json_text(case)
            if args.output:
                Path(args.output).write_text(text, encoding="utf-8")
                print(
                    f"wrote {args.output} ({args.level}, seed {args.seed}, {len(case.cards)} cards)"
                )
            else:
                sys.stdout.write(text)
            return 0
        if cmd == "show":
            print(dossier(_load(args.case)))
            return 0
        if cmd == "check":
            case = _load(args.case)
            ok, lines = check(case)
            if ok:
                print(
                    f"{args.case}: sound and unique ({len(case.cards)} cards, level {case.level})"
                )
                return 0
            print(f"{args.case}: NOT sound and unique")
            for line in lines:
                print(f"  {line}")
            return 1
        if cmd == "stats":
            if not 1 <= args.seeds <= MAX_STATS_SEEDS:
                return _error(f"--seeds must be in 1..{MAX_STATS_SEEDS:,}, got {args.seeds:,}")
            table = level_table(args.seeds, args.deck_size)
            print(format_table(table))
            if args.json:
                Path(args.json).write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")
            return 0
        if cmd == "bank":
            return bank_cli.run(args)
        if cmd == "classic":
            if args.write:
                for path in write_classic_cases():
                    print(f"wrote {path}")
                return 0
            for (n, level, seed), path in zip(CLASSIC_CASES, classic_case_paths(), strict=True):
                print(f"classic:{n:<3} {level:<10} seed {seed}  {path.name}")
            return 0
    except BrokenPipeError:  # e.g. `parlour case show ... | head`: stop quietly
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (ValueError, OSError) as e:
        return _error(str(e).splitlines()[0] if str(e) else type(e).__name__)
    return _error("choose an action: generate, show, check, stats, classic or bank")
