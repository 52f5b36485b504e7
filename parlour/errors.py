"""The one-line-error convention of the ``parlour`` command.

Every subcommand runs through :func:`run_guarded`: a user error ends with exactly one line on
stderr, ``parlour <command>: error: <message>``, and a non-zero exit code, never a traceback.

| what was raised | exit code | line |
|---|---|---|
| :class:`UserError`, ``ValueError``, ``OSError``, ``UnicodeError``, ``zipfile.BadZipFile``, ``RecursionError``, ``EOFError`` (bad input, missing / unreadable / corrupt files) | 2 | the message |
| ``ImportError`` (a missing optional extra) | 2 | ``needs the "train" extra (missing: torch): pip install "parlour[train]"`` (:mod:`parlour.extras`) |
| ``KeyboardInterrupt`` (Ctrl-C) | 130 | ``interrupted`` |
| anything else (a bug in parlour) | 1 | ``internal error: <type>: <message>`` |

Set ``PARLOUR_TRACEBACK=1`` to get the traceback instead (for bug reports).

:func:`check_command` refuses a command whose optional extra is missing before it does any work
(:data:`parlour.extras.COMMAND_NEEDS`).
"""

from __future__ import annotations

import argparse
import os
import sys
import zipfile
from collections.abc import Callable

from parlour import extras

#: exit codes
EXIT_USER_ERROR = 2
EXIT_INTERNAL_ERROR = 1
EXIT_INTERRUPTED = 130
#: the environment variable that shows tracebacks instead of one-line errors
TRACEBACK_VARIABLE = "PARLOUR_TRACEBACK"
#: exceptions that mean bad input or a bad file, not a bug
USER_ERRORS: tuple[type[BaseException], ...] = (
    ValueError,
    OSError,
    UnicodeError,
    zipfile.BadZipFile,
    RecursionError,
    EOFError,
    ImportError,
)
#: the longest message printed (a message quoting a huge input is cut)
MAX_MESSAGE_CHARS = 500


class UserError(Exception):
    """An error in what the user asked for, reported as one line (exit code 2)."""


def one_line(exc: BaseException) -> str:
    """The exception's message as one bounded line."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    if isinstance(exc, RecursionError):
        text = "input nested too deeply"
    if len(text) > MAX_MESSAGE_CHARS:
        text = text[:MAX_MESSAGE_CHARS] + "..."
    return text


def report(command: str, message: str) -> None:
    print(f"parlour {command}: error: {message}", file=sys.stderr)


def run_guarded(
    command: str, func: Callable[[argparse.Namespace], int | None], args: argparse.Namespace
) -> int:
    """``func(args)``'s exit code, with every exception turned into one line on stderr."""
    if os.environ.get(TRACEBACK_VARIABLE):
        return int(func(args) or 0)
    try:
        return int(func(args) or 0)
    except KeyboardInterrupt:
        report(command, "interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return 0
    except SystemExit:
        raise
    except Exception as exc:
        lost = extras.missing_extra(exc)  # (also under an error that wrapped it: "cannot load ...")
        if lost is not None or isinstance(exc, ImportError):
            report(command, one_line(extras.hint(lost or exc)))  # type: ignore[arg-type]
            return EXIT_USER_ERROR
        if isinstance(exc, (UserError, *USER_ERRORS)):
            report(command, one_line(exc))
            return EXIT_USER_ERROR
        # a bug: still one line, the traceback on request
        report(
            command,
            f"internal error: {type(exc).__name__}: {one_line(exc)} "
            f"(set {TRACEBACK_VARIABLE}=1 for the traceback)",
        )
        return EXIT_INTERNAL_ERROR


def check_command(command: str) -> None:
    """:class:`UserError` (:func:`parlour.extras.needs`' line) if a module
    :data:`~parlour.extras.COMMAND_NEEDS` lists for ``command`` is missing: before the command
    does any work."""
    lost = extras.missing(extras.COMMAND_NEEDS.get(command, ()))
    if lost:
        raise UserError(extras.needs("this command", lost))
