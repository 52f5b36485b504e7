"""Checkpoints of ``parlour train`` (SB3 backend) that survive a kill, a full disk or a crash.

A checkpoint is a PAIR: the model file and its state (``state.json``: the step count, the
evaluation history, the snapshots, the wall time, and the size and SHA-256 of its model file).

| file under ``runs/<name>/checkpoints/`` | what |
|---|---|
| :data:`CHECKPOINT_MODEL` (``latest.safetensors``: parlour's model format, Adam's state and the step counts included, :mod:`parlour.agents.model_file`) and ``state.json`` | the newest checkpoint |
| ``previous.safetensors`` and ``previous_state.json`` | the one before it, kept until a newer one is complete |
| ``.new.safetensors``, ``.new_state.json`` (and ``.*.tmp``) | a checkpoint being written (ignored when resuming; what a killed run left is removed by the next checkpoint) |

| function | what |
|---|---|
| :func:`write_checkpoint` | ``save_model(path)`` writes the new model under a temporary name; its state (with the model's size and digest) likewise; only then the newest pair becomes ``previous`` and the new pair ``latest``, each move an ``os.replace``: at every moment one complete pair exists |
| :func:`find_checkpoints` | the usable pairs, newest first (:class:`Checkpoint`): a state is paired with the model file whose size and digest it records, so a pair caught half-way through a move is still found; a missing, truncated, corrupt or mismatched file only removes its pair. No usable pair: :class:`~parlour.train.run_folder.RunFolderError` naming what is wrong with each file |
| :func:`rewrite_state` | the newest pair's ``state.json`` again, same model (the final evaluation added) |
| :class:`RunState` | the state of a run in progress: restored from the pair ``--resume`` uses, saved with each new model (:meth:`RunState.save`), updated with the final evaluation (:meth:`RunState.update`) |
| :func:`converted_snapshot` | a snapshot path of a restored state, or the converted model file beside it (an older run's ``snapshot_N.zip`` converted by ``parlour models convert`` to ``snapshot_N.safetensors``) |
| :func:`read_state` | a ``state.json``, read through :func:`parlour._files.read_regular_file` (at most :data:`MAX_STATE_BYTES`) |

``--resume`` loads the first pair whose model loads; when that is not the newest
(``latest.safetensors`` with ``state.json``) it prints one warning line naming the pair it uses and its
step count (:func:`fallback_warning`). A state written before states recorded their model (no ``model``
key) pairs with ``latest.safetensors`` by name, unchecked. The state of an older parlour's run
lists its self-play snapshots as SB3 zips (``snapshots/snapshot_N.zip``, pickles); each one
converted beside itself (``snapshot_N.safetensors``) is played instead, without
``--trust-model`` (:func:`converted_snapshot`).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parlour._files import TMP_SUFFIX, _fsync_folder, atomic_path, read_regular_file, write_atomic
from parlour.eval.report import strict_json
from parlour.safe_stop import deferred_interrupts

# (the model files' names: the run folder's layout, which ``--resume`` checks first)
from parlour.train.run_folder import CHECKPOINT_MODEL, PREVIOUS_MODEL, RunFolderError

#: the newest checkpoint's state
STATE_FILE = "state.json"
#: the suffix of an older parlour's model files (SB3 zips: pickles)
OLD_MODEL_SUFFIX = ".zip"
#: the previous checkpoint's state (its model file: :data:`PREVIOUS_MODEL`)
PREVIOUS_STATE = "previous_state.json"
#: the new pair while it is written (the names of :func:`write_checkpoint`'s staging files)
NEW_MODEL = ".new" + Path(CHECKPOINT_MODEL).suffix
NEW_STATE = ".new_state.json"
#: the largest ``state.json`` read back (the evaluation history of a long run is a few MB)
MAX_STATE_BYTES = 64 * 1024 * 1024
#: bytes hashed at a time
HASH_CHUNK = 1 << 20


@dataclass(frozen=True)
class Checkpoint:
    """A usable pair: the model file to load and the state that describes it."""

    model: Path
    state: Path
    data: dict[str, Any]

    @property
    def timesteps(self) -> int:
        return int(self.data["timesteps"])

    @property
    def newest(self) -> bool:
        """Whether this is the newest pair under its own names (``latest.safetensors``, ``state.json``)."""
        return self.model.name == CHECKPOINT_MODEL and self.state.name == STATE_FILE


def file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(HASH_CHUNK):
            h.update(chunk)
    return h.hexdigest()


def write_checkpoint(
    folder: Path, save_model: Callable[[Path], None], state: dict[str, Any]
) -> dict[str, Any]:
    """Write a new checkpoint pair in ``folder``: ``save_model(path)`` writes the model file,
    ``state`` (JSON-able) becomes its ``state.json`` with the model's ``bytes`` and ``sha256``
    added (returned: the ``model`` record). The newest pair becomes the previous one only once
    the new one is complete."""
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob(f".*{TMP_SUFFIX}"):  # (left by a killed run: the folder is locked)
        stale.unlink(missing_ok=True)
    new_model, new_state = folder / NEW_MODEL, folder / NEW_STATE
    with atomic_path(new_model) as tmp:
        save_model(tmp)
    record = {"bytes": new_model.stat().st_size, "sha256": file_digest(new_model)}
    write_atomic(new_state, strict_json({**state, "model": record}, indent=1))
    # (a signal waits for the four renames; a kill between two is covered by find_checkpoints:
    # the state goes first, so half-way state.json's pair is found by digest as previous_state)
    with deferred_interrupts():
        for src, dst in ((STATE_FILE, PREVIOUS_STATE), (CHECKPOINT_MODEL, PREVIOUS_MODEL)):
            if (folder / src).exists():
                os.replace(folder / src, folder / dst)
        os.replace(new_model, folder / CHECKPOINT_MODEL)
        os.replace(new_state, folder / STATE_FILE)
    _fsync_folder(folder)
    return record


def rewrite_state(folder: Path, state: dict[str, Any]) -> None:
    """Replace the newest pair's ``state.json`` (atomically) by ``state``, which keeps the
    ``model`` record of the model file it describes."""
    write_atomic(folder / STATE_FILE, strict_json(state, indent=1))


def read_state(path: Path) -> dict[str, Any]:
    """A checkpoint's state; ``RunFolderError`` naming the file when it is missing or corrupt."""
    try:
        data = json.loads(read_regular_file(path, max_bytes=MAX_STATE_BYTES, what="state"))
        if not isinstance(data, dict):
            raise TypeError("not a JSON object")
        _check_state(data)
    except FileNotFoundError:
        raise RunFolderError(
            f"--resume: {path} is missing (it holds the run's evaluation history and snapshots)"
        ) from None
    except (ValueError, KeyError, TypeError) as exc:
        raise RunFolderError(f"--resume: corrupt checkpoint state {path}: {exc}") from None
    return data


def _check_state(data: dict[str, Any]) -> None:
    """``ValueError``/``KeyError``/``TypeError`` unless ``data`` has a state's keys and types."""
    for key, kind in (("timesteps", int), ("history", list), ("snapshots", list)):
        if not isinstance(data[key], kind) or isinstance(data[key], bool):
            raise TypeError(f"{key}: not a {kind.__name__}")
    if not isinstance(data["wall_time"], int | float):
        raise TypeError("wall_time: not a number")


def _matches(record: Any, model: Path) -> bool:
    if not isinstance(record, dict) or not model.is_file():
        return False
    return model.stat().st_size == record.get("bytes") and file_digest(model) == record.get(
        "sha256"
    )


def find_checkpoints(folder: Path) -> list[Checkpoint]:
    """The usable checkpoint pairs in ``folder``, newest first (see the module table)."""
    models = [folder / CHECKPOINT_MODEL, folder / PREVIOUS_MODEL]
    found: list[Checkpoint] = []
    problems: list[str] = []
    for state_path in (folder / STATE_FILE, folder / PREVIOUS_STATE):
        try:
            data = read_state(state_path)
        except RunFolderError as exc:
            if state_path.name == STATE_FILE or state_path.exists():
                problems.append(str(exc).removeprefix("--resume: "))
            continue
        if "model" not in data:  # (written before states recorded their model)
            pair = [models[0]] if state_path.name == STATE_FILE and models[0].is_file() else []
        else:
            pair = [m for m in models if _matches(data["model"], m)]
        if pair:
            found.append(Checkpoint(pair[0], state_path, data))
        else:
            problems.append(f"no model file matches {state_path} (missing, truncated or replaced)")
    if not found:
        raise RunFolderError(
            f"--resume: no usable checkpoint in {folder}: "
            + "; ".join(problems)
            + " (the history of the run is in the state; nothing was changed)"
        )
    return found


def fallback_warning(used: Checkpoint, folder: Path) -> str:
    """The one line ``--resume`` prints when it does not use the newest pair."""
    return (
        f"parlour train: warning: the newest checkpoint in {folder} ({CHECKPOINT_MODEL} with "
        f"{STATE_FILE}) is incomplete or damaged; resuming from {used.model.name} with "
        f"{used.state.name} ({used.timesteps} steps)"
    )


def converted_snapshot(path: str) -> str:
    """``path``, or the model file of parlour's format beside it when ``path`` is an older
    parlour's SB3 zip that was converted there (``snapshot_N.zip`` -> ``snapshot_N.safetensors``,
    ``parlour models convert``)."""
    old = Path(path)
    new = old.with_suffix(Path(CHECKPOINT_MODEL).suffix)
    if old.suffix == OLD_MODEL_SUFFIX and new.is_file():
        return str(new)
    return path


class RunState:
    """What a checkpoint of ``parlour train`` remembers besides the model (its ``state.json``):
    the evaluation history, the snapshots, the wall time; saved with the model as a pair."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder  # (runs/<name>/checkpoints)
        self.history: list[dict[str, Any]] = []
        self.snapshots: list[str] = []
        self.wall_time = 0.0
        self.model_record: dict[str, Any] | None = None  # (the newest pair's model file)

    def restore(self, ckpt: Checkpoint) -> None:
        """The state of the pair ``--resume`` continues from."""
        self.history = list(ckpt.data["history"])
        self.snapshots = [converted_snapshot(str(p)) for p in ckpt.data["snapshots"]]
        self.wall_time = float(ckpt.data["wall_time"])
        self.model_record = ckpt.data.get("model")

    def _data(self, timesteps: int) -> dict[str, Any]:
        return {
            "timesteps": int(timesteps),
            "history": self.history,
            "snapshots": self.snapshots,
            "wall_time": self.wall_time,
        }

    def save(self, timesteps: int, save_model: Callable[[Path], None]) -> None:
        """A new checkpoint pair: the model ``save_model(path)`` writes (at ``timesteps``) and
        this state (:func:`write_checkpoint`)."""
        self.model_record = write_checkpoint(self.folder, save_model, self._data(timesteps))

    def update(self, timesteps: int) -> None:
        """Rewrite the newest pair's state (same model file: e.g. with the final evaluation)."""
        rewrite_state(self.folder, {**self._data(timesteps), "model": self.model_record})
