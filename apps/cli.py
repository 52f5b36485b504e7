"""The ``parlour`` command line.

Each capability owns its subcommand; this module only wires them together, importing each
lazily so that a missing optional extra (e.g. torch for ``train``) never breaks the others.

| subcommand | module | what it does |
|---|---|---|
| ``bench`` | ``parlour.benchmarks.run`` | throughput / speed figures beside PettingZoo and OpenSpiel peers |
| ``case`` | ``parlour.envs.awkward_guests.case.cli`` | generate / show / check Awkward Guests cases, level table |
| ``demo`` | ``parlour.envs.audition.demo`` | play one rendered game between random agents |
| ``eval`` | ``parlour.eval.evaluate`` | tournament between agents: JSON / Markdown / PNG results |
| ``league`` | ``parlour.eval.league`` | every agent against every other: OpenSkill ratings, pairwise win rates |
| ``models`` | ``parlour.apps.models`` | list the shipped trained models (``ppo:NAME``), add a run's model to them |
| ``play`` | ``parlour.apps.play`` | play a game in the terminal against agents |
| ``serve`` | ``parlour.apps.serve`` | play against agents and watch replays in the browser |
| ``train`` | ``parlour.train.train`` | MaskablePPO self-play training from a YAML config |

A subcommand module exposes ``HELP`` (one line), ``add_arguments(parser)`` and ``run(args) ->
int`` (the exit code). A subcommand whose parser sets the default ``extra_args=True`` receives the
arguments it does not know as ``args.extra`` (``parlour play GAME`` passes them to the game's own
flags); any other subcommand rejects them.

Every subcommand runs through :func:`parlour.errors.run_guarded`: a user error ends with
one line on stderr and exit code 2, never a traceback (``PARLOUR_TRACEBACK=1`` shows it).
The ``argparse`` types the subcommands share (game names, ``--games``, ``--workers``,
``--option``, ``--trust-model``) are in :mod:`parlour.games.arguments`, below every command.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from parlour.errors import check_command, run_guarded
from parlour.extras import hint

#: subcommand name -> module implementing it
SUBCOMMANDS: dict[str, str] = {
    "bench": "parlour.benchmarks.run",
    "case": "parlour.envs.awkward_guests.case.cli",
    "demo": "parlour.envs.audition.demo",
    "eval": "parlour.eval.evaluate",
    "league": "parlour.eval.league",
    "models": "parlour.apps.models",
    "play": "parlour.apps.play",
    "serve": "parlour.apps.serve",
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
            p = sub.add_parser(command, help=f"(unavailable: {hint(exc)})")
            p.set_defaults(func=_unavailable(command, exc), extra_args=True)  # (any arguments)
            continue
        p = sub.add_parser(command, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(func=module.run)
    return parser


def _unavailable(command: str, exc: ImportError):
    """A subcommand whose module cannot be imported: it fails when used, with the extra to
    install (:func:`parlour.extras.hint`)."""

    def run(_args: argparse.Namespace) -> int:
        raise exc  # (run_guarded: one line naming the extra)

    return run


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra and not getattr(args, "extra_args", False):
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    args.extra = extra
    if not getattr(args, "func", None):
        parser.print_help()
        return 2

    def checked(args: argparse.Namespace) -> int | None:
        check_command(args.command)  # a missing extra: before any work
        return args.func(args)

    return run_guarded(args.command, checked, args)


if __name__ == "__main__":
    sys.exit(main())
