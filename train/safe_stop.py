"""Ctrl-C and SIGTERM during ``parlour train``: stop cleanly, keep what was learnt.

SIGTERM (what SLURM, ``timeout``, ``docker stop`` and ``kill`` send) is handled exactly like
Ctrl-C (SIGINT) inside :func:`sigterm_as_interrupt`: it raises ``KeyboardInterrupt`` in the main
thread, so both take the same save-and-exit path and both exit with code 130
(:data:`parlour.train.errors.EXIT_INTERRUPTED`, "interrupted, resumable", whichever signal it
was). SIGKILL cannot be handled: what it interrupts is covered by atomic writes and the
checkpoint pairs of :mod:`parlour.train.checkpoints`.

| where | what Ctrl-C or SIGTERM does |
|---|---|
| main process, while learning | ``model.learn`` is stopped; the model is rolled back to its last finished rollout's step count (the weights of that update), saved as ``model.zip`` and as a new checkpoint pair (``checkpoints/latest.zip`` with ``state.json``), the report of what was done is written (``report.json`` ``"interrupted": true``, ``report.md`` says "interrupted at N steps", no final evaluation) and the command exits with code 130 and one line; ``--resume`` continues to the same final step count an uninterrupted run reaches |
| while saving | ignored (:func:`no_interrupts`, both signals): a second signal cannot leave a half-written model (every file is written atomically too) |
| vec env and evaluation workers | Ctrl-C is ignored (:func:`workers_ignore_interrupts`): the main process closes them, so no worker prints a traceback. SIGTERM is not ignored there: it is how ``multiprocessing.Pool`` ends its workers, and a worker whose parent died ends on its closed pipe anyway |

| function | what |
|---|---|
| :func:`sigterm_as_interrupt` | context manager: SIGTERM raises ``KeyboardInterrupt`` inside the block (the previous handler after it); for both backends |
| :func:`no_interrupts` | context manager: SIGINT and SIGTERM ignored inside the block |
| :func:`deferred_interrupts` | context manager: SIGINT and SIGTERM wait for the end of the block, then are delivered (for a few steps that must not be cut apart: the renames of a checkpoint) |
| :func:`workers_ignore_interrupts` | in a worker process: ignore SIGINT |
| :func:`interrupt_message` | the one line printed when a run was interrupted |
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

#: the signals that stop a run the way Ctrl-C does
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def workers_ignore_interrupts() -> None:
    """In a worker process (not the main one): ignore SIGINT, the parent handles Ctrl-C (SIGTERM
    keeps its default: ``Pool.terminate`` sends it)."""
    if multiprocessing.parent_process() is not None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _raise_interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signal.Signals(signum).name}")


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM raises ``KeyboardInterrupt`` inside the block, as Ctrl-C does (main thread only;
    elsewhere a no-op); the previous handler is restored after it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        yield
    finally:
        if previous is not None:  # (None: a handler not installed from Python)
            signal.signal(signal.SIGTERM, previous)


@contextlib.contextmanager
def no_interrupts() -> Iterator[None]:
    """Ignore SIGINT and SIGTERM inside the block (main thread only; elsewhere a no-op)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, signal.SIG_IGN) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            if handler is not None:
                signal.signal(sig, handler)


@contextlib.contextmanager
def deferred_interrupts() -> Iterator[None]:
    """SIGINT and SIGTERM that arrive inside the block are delivered when it ends (to the
    handlers in place before it; main thread only, elsewhere a no-op)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        caught.append(signum)

    previous = {sig: signal.signal(sig, hold) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            if handler is not None:
                signal.signal(sig, handler)
        if caught:
            signal.raise_signal(caught[0])


def interrupt_message(run_dir: Path, timesteps: int) -> str:
    return (
        f"parlour train: interrupted at {timesteps} steps; saved model.zip, the checkpoint and "
        f"the report in {run_dir}; continue with --resume"
    )
