"""The RLlib backend's checkpoints and run state: whole or not at all, the previous one kept.

An RLlib checkpoint is a folder of many files, which no single ``os.replace`` can write. So a
checkpoint is written into a fresh hidden folder (``.latest.new``), completed by a marker file
(:data:`MARKER`, the run state at that checkpoint, written last), and only then moved into place:

| step | ``latest`` | ``previous`` |
|---|---|---|
| before | checkpoint N | checkpoint N-1 |
| write ``.latest.new`` (RLlib's files, the safe export, then the marker) | N | N-1 |
| ``previous`` → ``.latest.old``, ``latest`` → ``previous``, ``.latest.new`` → ``latest`` (three renames) | N+1 | N |
| remove ``.latest.old`` | N+1 | N |

A kill at any point leaves a complete checkpoint as ``latest`` or ``previous``, and
``--resume`` (:func:`resume_candidates`, :func:`load_first`) falls back to ``previous`` when
``latest`` is missing, incomplete (no marker) or does not load. The run's final checkpoint
``checkpoint/`` is replaced the same way (without a ``previous``).

| name | what |
|---|---|
| :func:`save_checkpoint` | write a checkpoint folder through a temporary one and rotate it in |
| :func:`resume_candidates` | the complete checkpoints to resume from, newest first |
| :func:`load_first` | the first candidate that loads (a one-line error naming each failure if none does) |
| :func:`read_state` / :func:`check_state` | a run state file, read bounded and checked |
"""

from __future__ import annotations

import contextlib
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from parlour._files import read_regular_file, write_atomic
from parlour.train.run_folder import RunFolderError

#: the checkpoint ``--resume`` continues from, and the one before it
LATEST, PREVIOUS = "latest", "previous"
#: written last into a checkpoint folder: the run state at that checkpoint (complete = present)
MARKER = "parlour_checkpoint.json"
#: the largest run state read (its history grows by one entry per evaluation)
MAX_STATE_BYTES = 64 * 1024 * 1024
#: the characters of a failure's message quoted in a resume error
MAX_REASON_CHARS = 200

T = TypeVar("T")


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def save_checkpoint(
    folder: Path,
    name: str,
    write: Callable[[Path], None],
    state: dict[str, Any],
    *,
    keep_previous: bool = True,
) -> Path:
    """Write checkpoint ``folder/name``: ``write(tmp)`` fills a fresh temporary folder, the
    marker (``state``) completes it, then it replaces ``name`` (the old one becoming
    ``previous`` when ``keep_previous``). Returns ``folder/name``."""
    target, new, old = folder / name, folder / f".{name}.new", folder / f".{name}.old"
    _remove(new)
    _remove(old)
    new.mkdir(parents=True)
    write(new)
    write_atomic(new / MARKER, json.dumps(state, indent=1))
    if target.exists():
        if keep_previous:
            previous = folder / PREVIOUS
            if previous.exists():
                previous.rename(old)
            target.rename(previous)
        else:
            target.rename(old)
    new.rename(target)
    _remove(old)
    return target


def is_complete(checkpoint: Path) -> bool:
    return (checkpoint / MARKER).is_file()


def resume_candidates(folder: Path) -> list[Path]:
    """The checkpoints under ``folder`` to resume from, newest first: ``latest`` and
    ``previous`` when complete; a ``latest`` without a marker (written by parlour before
    checkpoints had one) comes last."""
    latest, previous = folder / LATEST, folder / PREVIOUS
    out = [p for p in (latest, previous) if p.is_dir() and is_complete(p)]
    if latest.is_dir() and not is_complete(latest):
        out.append(latest)
    return out


def load_first(candidates: list[Path], load: Callable[[Path], T], where: Path) -> tuple[Path, T]:
    """``(path, load(path))`` of the first candidate that loads; ``RunFolderError`` naming
    every failure when none does."""
    failures = []
    for path in candidates:
        try:
            return path, load(path)
        except Exception as exc:  # a corrupt RLlib checkpoint raises many kinds
            text = " ".join(str(exc).split())[:MAX_REASON_CHARS] or type(exc).__name__
            failures.append(f"{path.name}: {text}")
    if not failures:
        raise RunFolderError(f"--resume but no complete checkpoint in {where}")
    raise RunFolderError(
        f"--resume: no checkpoint in {where} can be loaded ({'; '.join(failures)})"
    )


#: the run state's keys and their types
STATE_TYPES: dict[str, type | tuple[type, ...]] = {
    "timesteps": int,
    "history": list,
    "snapshots": list,
    "wall_time": (int, float),
    "knocked_out_slots": int,
}


def check_state(data: Any, where: str) -> dict[str, Any]:
    """``data`` if it is a run state (a mapping of :data:`STATE_TYPES`), else ``RunFolderError``."""
    if not isinstance(data, dict):
        raise RunFolderError(f"--resume: {where} is not a run state (a JSON object)")
    for key, kind in STATE_TYPES.items():
        value = data.get(key, 0 if key != "history" and key != "snapshots" else [])
        if isinstance(value, bool) or not isinstance(value, kind):
            raise RunFolderError(f"--resume: {where}: {key!r} has the wrong type")
    if data.get("timesteps", 0) < 0:
        raise RunFolderError(f"--resume: {where}: 'timesteps' is negative")
    for entry in [*data.get("history", []), *data.get("snapshots", [])]:
        if not isinstance(entry, dict) or not isinstance(entry.get("timesteps", 0), int):
            raise RunFolderError(f"--resume: {where}: a history or snapshot entry is malformed")
    return data


def read_state(path: Path) -> dict[str, Any]:
    """The run state at ``path`` (bounded read, checked); ``RunFolderError`` if unusable."""
    try:
        data = json.loads(read_regular_file(path, max_bytes=MAX_STATE_BYTES, what="run state"))
    except (OSError, ValueError) as exc:  # (JSONDecodeError and UnicodeDecodeError included)
        raise RunFolderError(f"--resume: cannot read the run state {path}: {exc}") from None
    return check_state(data, str(path))


def resumed_state(checkpoint: Path, state_file: Path) -> dict[str, Any]:
    """The state to resume ``checkpoint`` with: its marker's; the run's ``state.json`` when it
    is of the same step count (it also holds the final evaluation's history entry). A
    checkpoint without a marker needs ``state.json``."""
    if not is_complete(checkpoint):
        return read_state(state_file)
    mine = read_state(checkpoint / MARKER)
    with contextlib.suppress(RunFolderError):
        newest = read_state(state_file)
        if newest.get("timesteps") == mine.get("timesteps"):
            return newest
    return mine
