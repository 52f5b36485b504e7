"""Ctrl-C and SIGTERM during ``parlour train``: stop cleanly, keep what was learnt.

SIGTERM (what SLURM, ``timeout``, ``docker stop`` and ``kill`` send) is handled exactly like
Ctrl-C (SIGINT) inside :func:`stop_signals_interrupt` (both backends): it raises
``KeyboardInterrupt`` in the main thread, so both take the same save-and-exit path and both exit
with code 130 (:data:`parlour.errors.EXIT_INTERRUPTED`, "interrupted, resumable", whichever
signal it was). SIGKILL cannot be handled: what it interrupts is covered by atomic writes and the
checkpoint pairs (:mod:`parlour.train.checkpoints`; RLlib: :mod:`parlour.train.rllib.checkpoints`).

| where (SB3 backend) | what Ctrl-C or SIGTERM does |
|---|---|
| main process, while learning | ``model.learn`` is stopped; the model is rolled back to its last finished rollout's step count (the weights of that update), saved as ``model.safetensors`` and as a new checkpoint pair (``checkpoints/latest.safetensors`` with ``state.json``), the report of what was done is written (``report.json`` ``"interrupted": true``, ``report.md`` says "Interrupted at N learner steps", no final evaluation) and the command exits with code 130 and one line; ``--resume`` continues to the same final step count an uninterrupted run reaches |
| main process, during the final evaluation (training done) | the evaluation is stopped; the model and the checkpoint are already saved at the final step count, the report is written without a final table (``"interrupted": true``, ``"interrupted_during": "final evaluation"``; ``report.md`` says "Interrupted during the final evaluation"), one line, exit 130; ``--resume`` trains no further step (as for any finished run), saves the same model again and plays the final evaluation |
| while saving | ignored (:func:`no_interrupts`, both signals): a second signal cannot leave a half-written model (every file is written atomically too) |
| during the renames of a checkpoint | held (:func:`deferred_interrupts`) until the last rename, then taken |
| vec env and evaluation workers | Ctrl-C is ignored (:func:`workers_ignore_interrupts`): the main process closes them, so no worker prints a traceback. SIGTERM keeps its default there: it is how ``multiprocessing.Pool`` ends its workers; env workers it killed (SLURM signals every process of a job) do not stop the save (closing them after a stop ignores their broken pipes) |

The RLlib backend (:mod:`parlour.train.rllib.runner`) holds both signals while it saves
(:func:`held_stop_signals`), then stops.

| function | what |
|---|---|
| :func:`stop_signals_interrupt` | context manager: SIGINT and SIGTERM raise ``KeyboardInterrupt`` inside the block (the previous handlers after it) |
| :func:`no_interrupts` | context manager: SIGINT and SIGTERM ignored inside the block |
| :func:`deferred_interrupts` | context manager: SIGINT and SIGTERM wait for the end of the block, then go to the handlers in place before it (inside :func:`no_interrupts`: still ignored) |
| :func:`held_stop_signals` | context manager: SIGINT and SIGTERM wait for the end of the block, then ``KeyboardInterrupt`` (unless the caller drops them) |
| :func:`workers_ignore_interrupts` | in a worker process: ignore SIGINT |
| :func:`interrupt_message` | the one line printed when a run was interrupted |
| :func:`final_eval_interrupt_message` | the one line printed when the final evaluation was interrupted |
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import threading
from collections.abc import Iterator
from pathlib import Path

#: the signals that stop a run as Ctrl-C does (SIGTERM: SLURM, ``timeout``, ``docker stop``)
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: ``report.json`` ``"interrupted_during"`` of a run stopped during its final evaluation
FINAL_EVALUATION = "final evaluation"


def workers_ignore_interrupts() -> None:
    """In a worker process (not the main one): ignore SIGINT, the parent handles Ctrl-C (SIGTERM
    keeps its default: ``Pool.terminate`` sends it)."""
    if multiprocessing.parent_process() is not None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def _restore(previous: dict[int, object]) -> None:
    for sig, handler in previous.items():
        if handler is not None:  # (None: a handler not installed from Python)
            signal.signal(sig, handler)


@contextlib.contextmanager
def no_interrupts() -> Iterator[None]:
    """Ignore SIGINT and SIGTERM inside the block (main thread only; elsewhere a no-op)."""
    if not _main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, signal.SIG_IGN) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        _restore(previous)


@contextlib.contextmanager
def deferred_interrupts() -> Iterator[None]:
    """SIGINT and SIGTERM that arrive inside the block are delivered when it ends, to the
    handlers in place before it (main thread only; elsewhere a no-op)."""
    if not _main_thread():
        yield
        return
    caught: list[int] = []
    previous = {sig: signal.signal(sig, lambda s, f: caught.append(s)) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        _restore(previous)
        if caught:
            signal.raise_signal(caught[0])


def interrupt_message(run_dir: Path, timesteps: int) -> str:
    return (
        f"parlour train: interrupted at {timesteps} steps; saved model.safetensors, the checkpoint "
        f"and the report in {run_dir}; continue with --resume"
    )


def final_eval_interrupt_message(
    run_dir: Path, timesteps: int, saved: str, resume: str = "--resume"
) -> str:
    """The one line printed when a signal stops the final evaluation (both backends; ``saved``
    names the run's model: ``model.safetensors``, RLlib's ``checkpoint/``; ``resume`` the flags
    that resume it)."""
    return (
        f"parlour train: interrupted during the final evaluation, after {timesteps} steps of "
        f"training; saved {saved}, the checkpoint and the report in {run_dir}; {resume} plays "
        "the final evaluation"
    )


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


@contextlib.contextmanager
def stop_signals_interrupt() -> Iterator[None]:
    """Inside the block SIGINT and SIGTERM both raise ``KeyboardInterrupt`` (main thread only;
    elsewhere a no-op); the previous handlers come back after it. Install it after anything
    that sets its own SIGTERM handler (``ray.init`` makes SIGTERM exit at once)."""
    if not _main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, _raise_interrupt) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        _restore(previous)


@contextlib.contextmanager
def held_stop_signals() -> Iterator[list[int]]:
    """SIGINT and SIGTERM wait until the block ends (a save is never cut in half): the block
    runs to its end, then ``KeyboardInterrupt`` is raised if one came. The yielded list holds
    the signals received; clear it to drop them (the caller is stopping anyway)."""
    if not _main_thread():
        yield []
        return
    received: list[int] = []
    previous = {sig: signal.signal(sig, lambda s, f: received.append(s)) for sig in STOP_SIGNALS}
    try:
        yield received
    finally:
        _restore(previous)
    if received:
        raise KeyboardInterrupt
