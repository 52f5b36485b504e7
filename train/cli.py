"""The ``parlour`` command line.

Each capability owns its subcommand; this module only wires them together, importing each
lazily so that a missing optional extra (e.g. torch for ``train``) never breaks the others.

| subcommand | module | what it does |
|---|---|---|
| ``bench`` | ``parlour.benchmarks.run`` | throughput / speed figures beside PettingZoo and OpenSpiel peers |
| ``case`` | ``parlour.envs.awkward_guests.case.cli`` | generate / show / check Awkward Guests cases, level table |
| ``demo`` | ``parlour.envs.audition.demo`` | play one rendered game between random agents |
| ``eval`` | ``parlour.train.evaluate`` | tournament between agents: JSON / Markdown / PNG results |
| ``play`` | ``parlour.train.play`` | play a game in the terminal against agents |
| ``train`` | ``parlour.train.train`` | MaskablePPO self-play training from a YAML config |

A subcommand module exposes ``HELP`` (one line), ``add_arguments(parser)`` and ``run(args) ->
int`` (the exit code).
"""

from __future__ import annotations

import argparse
import importlib
import sys

#: subcommand name -> module implementing it
SUBCOMMANDS: dict[str, str] = {
    "bench": "parlour.benchmarks.run",
    "case": "parlour.envs.awkward_guests.case.cli",
    "demo": "parlour.envs.audition.demo",
    "eval": "parlour.train.evaluate",
    "play": "parlour.train.play",
    "train": "parlour.train.train",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="parlour", description="parlour: RL environments for Audition and Awkward Guests"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command, module_name in SUBCOMMANDS.items():
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:  # an optional extra is missing: say so when it is used
            p = sub.add_parser(command, help=f"(unavailable: {exc})")
            p.set_defaults(func=_unavailable(command, exc))
            continue
        p = sub.add_parser(command, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(func=module.run)
    return parser


def _unavailable(command: str, exc: ImportError):
    def run(_args: argparse.Namespace) -> int:
        print(f"parlour {command} is unavailable: {exc}", file=sys.stderr)
        return 2

    return run


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
