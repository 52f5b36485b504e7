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
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import TYPE_CHECKING, Any

from parlour.limits import MAX_GAMES, MAX_WORKERS

if TYPE_CHECKING:
    from parlour.games import Game

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


def game_argument(name: str) -> Game:
    """``argparse`` type of a game argument: the resolved spec (once, here), or a clear error."""
    from parlour.games import get_game

    try:
        return get_game(name)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def positive_int(text: str) -> int:
    """``argparse`` type: an int >= 1."""
    return _bounded_int(text, 1)


def non_negative_int(text: str) -> int:
    """``argparse`` type: an int >= 0."""
    return _bounded_int(text, 0)


def _bounded_int(text: str, low: int, high: int | None = None) -> int:
    allowed = f"an int >= {low}" if high is None else f"an int in {low}..{high:,}"
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {allowed}, got {text!r}") from None
    if value < low:
        raise argparse.ArgumentTypeError(f"must be >= {low}, got {value}")
    if high is not None and value > high:
        raise argparse.ArgumentTypeError(f"must be <= {high:,}, got {value:,}")
    return value


def games_argument(text: str) -> int:
    """``argparse`` type of ``--games``: an int in 1..:data:`~parlour.limits.MAX_GAMES`."""
    return _bounded_int(text, 1, MAX_GAMES)


def workers_argument(text: str) -> int:
    """``argparse`` type of ``--workers``: an int in 1..:data:`~parlour.limits.MAX_WORKERS`."""
    return _bounded_int(text, 1, MAX_WORKERS)


def parse_options(items: list[str]) -> dict[str, Any]:
    """``--option KEY=VALUE`` items as game options (each value read as YAML)."""
    import yaml

    options: dict[str, Any] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ValueError(f"--option takes KEY=VALUE, got {item!r}")
        try:
            options[key] = yaml.safe_load(value)
        except yaml.YAMLError as exc:
            msg = " ".join(str(exc).split())
            raise ValueError(f"--option {key}: not a YAML value: {msg}") from None
    return options


def trust_argument(parser: argparse.ArgumentParser, what: str = "the agents") -> None:
    """Add ``--trust-model`` (``args.trust_model``): let pickle-bearing model files (SB3 zips,
    RLlib checkpoints, parlour 0.1 models) among ``what`` load; they run code while they load
    (:mod:`parlour.agents.trust`, docs/security.md)."""
    from parlour.agents.trust import TRUST_FLAG

    parser.add_argument(
        TRUST_FLAG,
        dest="trust_model",
        action="store_true",
        help=f"let pickle-bearing model files of {what} (Stable-Baselines3 zips, RLlib "
        "checkpoints) load: they run code while they load, so only files you trust "
        "(docs/security.md)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="parlour", description="parlour: RL environments for Audition and Awkward Guests"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command, module_name in SUBCOMMANDS.items():
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:  # an optional extra is missing: say so when it is used
            from parlour.extras import hint

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
    from parlour.errors import run_guarded
    from parlour.extras import check_command

    def checked(args: argparse.Namespace) -> int | None:
        check_command(args.command)  # a missing extra: before any work
        return args.func(args)

    return run_guarded(args.command, checked, args)


if __name__ == "__main__":
    sys.exit(main())
