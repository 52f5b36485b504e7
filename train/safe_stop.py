"""Ctrl-C during ``parlour train``: stop cleanly, keep what was learnt.

| where | what Ctrl-C does |
|---|---|
| main process, while learning | ``model.learn`` is stopped; the model is rolled back to its last finished rollout's step count (the weights of that update), saved as ``model.zip`` and ``checkpoints/latest.zip`` with ``state.json``, the report of what was done is written (``report.json`` ``"interrupted": true``, no final evaluation) and the command exits with code 130 and one line; ``--resume`` continues to the same final step count an uninterrupted run reaches |
| while saving | ignored (:func:`no_interrupts`): a second Ctrl-C cannot leave a half-written model |
| vec env and evaluation workers | ignored (:func:`workers_ignore_interrupts`): the main process closes them, so no worker prints a traceback |
| SIGTERM (SLURM, ``timeout``, ``docker stop``) | :func:`stop_signals_interrupt`: handled as Ctrl-C (the RLlib backend) |
| while the RLlib backend saves | held (:func:`held_stop_signals`): the save finishes, then the stop is taken |
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import threading
from collections.abc import Iterator
from pathlib import Path


def workers_ignore_interrupts() -> None:
    """In a worker process (not the main one): ignore SIGINT, the parent handles Ctrl-C."""
    if multiprocessing.parent_process() is not None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def no_interrupts() -> Iterator[None]:
    """Ignore SIGINT inside the block (main thread only; elsewhere a no-op)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def interrupt_message(run_dir: Path, timesteps: int) -> str:
    return (
        f"parlour train: interrupted at {timesteps} steps; saved model.zip, the checkpoint and "
        f"the report in {run_dir}; continue with --resume"
    )


#: the signals that stop a run as Ctrl-C does (SIGTERM: SLURM, ``timeout``, ``docker stop``)
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


@contextlib.contextmanager
def stop_signals_interrupt() -> Iterator[None]:
    """Inside the block SIGINT and SIGTERM both raise ``KeyboardInterrupt`` (main thread only;
    elsewhere a no-op); the previous handlers come back after it. Install it after anything
    that sets its own SIGTERM handler (``ray.init`` makes SIGTERM exit at once)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, _raise_interrupt) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


@contextlib.contextmanager
def held_stop_signals() -> Iterator[list[int]]:
    """SIGINT and SIGTERM wait until the block ends (a save is never cut in half): the block
    runs to its end, then ``KeyboardInterrupt`` is raised if one came. The yielded list holds
    the signals received; clear it to drop them (the caller is stopping anyway)."""
    if threading.current_thread() is not threading.main_thread():
        yield []
        return
    received: list[int] = []
    previous = {sig: signal.signal(sig, lambda s, f: received.append(s)) for sig in STOP_SIGNALS}
    try:
        yield received
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if received:
        raise KeyboardInterrupt
