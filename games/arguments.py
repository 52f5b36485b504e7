"""The ``argparse`` types and flags the ``parlour`` subcommands share.

Defined here, below every command (``eval``, ``league``: :mod:`parlour.eval`; ``train``:
:mod:`parlour.train`; ``play``, ``serve``: :mod:`parlour.apps`; ``bench``:
:mod:`parlour.benchmarks`), so that a command imports them from below, never from the command
line module :mod:`parlour.apps.cli` above it.

| name | what |
|---|---|
| :func:`game_argument` | a game argument: the resolved :class:`~parlour.games.Game` (once), or a clear error |
| :func:`positive_int`, :func:`non_negative_int` | an int >= 1, an int >= 0 |
| :func:`games_argument`, :func:`workers_argument` | ``--games`` (1..:data:`~parlour.limits.MAX_GAMES`), ``--workers`` (1..:data:`~parlour.limits.MAX_WORKERS`) |
| :func:`parse_options` | ``--option KEY=VALUE`` items as game options (each value read as YAML) |
| :func:`trust_argument` | adds ``--trust-model`` (:mod:`parlour.agents.trust`) |
"""

from __future__ import annotations

import argparse
from typing import Any

from parlour.agents.trust import TRUST_FLAG
from parlour.games import Game, get_game
from parlour.limits import MAX_GAMES, MAX_WORKERS


def game_argument(name: str) -> Game:
    """``argparse`` type of a game argument: the resolved spec (once, here), or a clear error."""
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
    parser.add_argument(
        TRUST_FLAG,
        dest="trust_model",
        action="store_true",
        help=f"let pickle-bearing model files of {what} (Stable-Baselines3 zips, RLlib "
        "checkpoints) load: they run code while they load, so only files you trust "
        "(docs/security.md)",
    )
