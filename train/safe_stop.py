"""Ctrl-C during ``parlour train``: stop cleanly, keep what was learnt.

| where | what Ctrl-C does |
|---|---|
| main process, while learning | ``model.learn`` is stopped; the model is rolled back to its last finished rollout's step count (the weights of that update), saved as ``model.safetensors`` and ``checkpoints/latest.safetensors`` with ``state.json``, the report of what was done is written (``report.json`` ``"interrupted": true``, no final evaluation) and the command exits with code 130 and one line; ``--resume`` continues to the same final step count an uninterrupted run reaches |
| while saving | ignored (:func:`no_interrupts`): a second Ctrl-C cannot leave a half-written model |
| vec env and evaluation workers | ignored (:func:`workers_ignore_interrupts`): the main process closes them, so no worker prints a traceback |
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
        f"parlour train: interrupted at {timesteps} steps; saved model.safetensors, the checkpoint and "
        f"the report in {run_dir}; continue with --resume"
    )
