"""Run folders of ``parlour train``: safe names, a lock, no silent deletion, honest resumes.

| rule | what happens |
|---|---|
| a run name is a plain folder name | ``name`` with a path separator, ``.``, ``..``, a NUL or only spaces is a config error (:func:`parlour.train.config.check_run_name`, checked when the config loads) |
| ``--runs`` must be a folder | a file there is refused before anything runs |
| one run per folder | ``runs/.<name>.lock`` (an ``flock``, released when the process ends, also when it is killed) stops a second ``parlour train`` using a run folder in use, naming the holder's pid (:class:`RunLock`) |
| a new run never deletes a run | a non-empty run folder is refused unless ``--overwrite`` (or ``--resume``); with ``--overwrite`` it is emptied only after the config, the environments and the model were built (:func:`clear_run_dir`) |
| a new run never deletes a model it plays | an agent (opponent, evaluation, teacher) whose model lies in the run folder is refused before anything is emptied (:func:`refuse_agent_models_in`; ``init_from`` likewise) |
| ``--resume`` keeps the record true | a config that differs from the run's ``config.yaml`` in anything that shapes the model or the game (:data:`RESUME_FIXED_KEYS`) is refused, naming the keys (:func:`resume_differences`); ``config.yaml`` is rewritten only after that check |
| a kill loses at most the checkpoint being written | every file a run writes goes to a temporary name and is ``os.replace``d (:mod:`parlour._files`); a checkpoint is a model file with its ``state.json``, the previous pair kept until a new one is complete (:mod:`parlour.train.checkpoints`); ``--resume`` falls back to the previous pair, with a warning, when the newest is missing, truncated, corrupt or mismatched |
| ``--resume`` never resets the history | a missing or corrupt ``state.json`` (with no usable previous pair) refuses ``--resume``, naming the file; the run folder is left as it was |
| an older parlour's run says how to resume it | its ``checkpoints/latest.zip`` and ``snapshots/*.zip`` hold pickles: ``--resume`` names the ``parlour models convert`` command of the checkpoint and the number of snapshots to convert beside themselves (:func:`old_run_hint`; the resumed run plays the converted snapshots, :func:`parlour.train.checkpoints.converted_snapshot`) |

Errors are :class:`RunFolderError` (a :class:`~parlour.errors.UserError`): one line, exit 2.
"""

from __future__ import annotations

import fcntl
import os
import shutil
from pathlib import Path
from typing import Any

import yaml

from parlour._files import read_regular_file
from parlour.agents.factory import spec_model_file
from parlour.errors import UserError
from parlour.train.config import agent_specs, with_defaults

#: config keys a resumed run must keep: the checkpoint restores the network, the optimizer and
#: every PPO hyper-parameter, and the game decides what the network sees
RESUME_FIXED_KEYS = ("game", "players", "game_options", "seed", "ppo")
#: the checkpoint model file of runs written by parlour before its own model format (pickles)
OLD_CHECKPOINT_MODEL = "latest.zip"
#: the newest checkpoint's model file in ``checkpoints/`` (the one name to change with the model
#: format; written by :mod:`parlour.train.checkpoints`)
CHECKPOINT_MODEL = "latest.safetensors"
#: the previous checkpoint's model file: it keeps the model format's suffix
PREVIOUS_MODEL = "previous" + Path(CHECKPOINT_MODEL).suffix
#: the files whose presence marks a folder as holding a run (``model.zip``: an older run's)
RUN_MARKERS = ("model.safetensors", "model.zip", "report.json", "config.yaml", "checkpoints")
#: the largest run ``config.yaml`` read back
MAX_RUN_CONFIG_BYTES = 1024 * 1024


class RunFolderError(UserError):
    """A run folder that cannot be used as asked."""


def check_runs_parent(runs: Path) -> None:
    """``--runs`` must be a folder (or not exist yet)."""
    if runs.exists() and not runs.is_dir():
        raise RunFolderError(f"--runs: {runs} is not a folder")


def holds_run(run_dir: Path) -> bool:
    """Whether ``run_dir`` holds (part of) a run that a new run would destroy."""
    return run_dir.is_dir() and any((run_dir / m).exists() for m in RUN_MARKERS)


def check_new_run(run_dir: Path, overwrite: bool) -> None:
    """Refuse to start a new run over an existing one without ``--overwrite``."""
    if run_dir.exists() and not run_dir.is_dir():
        raise RunFolderError(f"run folder {run_dir} is a file")
    if holds_run(run_dir) and not overwrite:
        raise RunFolderError(
            f"{run_dir} already holds a run; use --resume to continue it, --overwrite to "
            "replace it, or another name"
        )


def clear_run_dir(run_dir: Path) -> None:
    """Empty ``run_dir`` (called only once the new run's model and environments exist)."""
    if run_dir.is_symlink():
        raise RunFolderError(f"run folder {run_dir} is a symbolic link; refusing to empty it")
    if run_dir.exists():
        shutil.rmtree(run_dir)


def resume_differences(saved: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """The dotted keys under :data:`RESUME_FIXED_KEYS` whose values differ between configs."""
    out: list[str] = []

    def walk(a: Any, b: Any, key: str) -> None:
        if isinstance(a, dict) and isinstance(b, dict) and key.split(".")[0] != "game_options":
            for k in sorted(set(a) | set(b), key=str):
                walk(a.get(k), b.get(k), f"{key}.{k}")
        elif a != b:
            out.append(key)

    for key in RESUME_FIXED_KEYS:
        walk(saved.get(key), new.get(key), key)
    return out


def check_resume(run_dir: Path, cfg_dict: dict[str, Any], checkpoint: str | None = None) -> None:
    """Refuse ``--resume`` without a checkpoint, or with a config that changes the model/game.

    ``checkpoint`` is the checkpoint's name under ``checkpoints/``: by default SB3's model file
    (:data:`CHECKPOINT_MODEL`, or the previous one: which pair is
    usable is :func:`parlour.train.checkpoints.find_checkpoints`'s to say), or RLlib's
    ``latest`` folder (which needs ``state.json`` beside it)."""
    folder = run_dir / "checkpoints"
    if checkpoint is None:
        ckpt = folder / CHECKPOINT_MODEL
        found = ckpt.is_file() or (folder / PREVIOUS_MODEL).is_file()
    else:
        ckpt = folder / checkpoint
        found = ckpt.is_dir() and (folder / "state.json").is_file()
    if not found:
        old = run_dir / "checkpoints" / OLD_CHECKPOINT_MODEL
        if old.is_file():
            raise RunFolderError(old_run_hint(run_dir, old, ckpt))
        if checkpoint is not None and ckpt.is_dir():
            raise RunFolderError(
                f"--resume: {folder / 'state.json'} is missing (the run's state and history): "
                f"the checkpoint {ckpt} alone cannot resume it; nothing was changed"
            )
        raise RunFolderError(f"--resume but no checkpoint at {ckpt}")
    path = run_dir / "config.yaml"
    try:
        text = read_regular_file(path, max_bytes=MAX_RUN_CONFIG_BYTES, what="--resume")
        saved = yaml.safe_load(text.decode("utf-8"))
    except (OSError, ValueError, yaml.YAMLError) as exc:
        raise RunFolderError(f"--resume: cannot read the run's config {path}: {exc}") from None
    if not isinstance(saved, dict):
        raise RunFolderError(f"--resume: {path} is not a config mapping")
    diff = resume_differences(with_defaults(saved), cfg_dict)
    if diff:
        raise RunFolderError(
            f"--resume: the config differs from the run's {path} in {', '.join(diff)} (these "
            "shape the model or the game and come from the checkpoint); start a new run "
            "(another name or --overwrite) to change them"
        )


def old_run_hint(run_dir: Path, old: Path, ckpt: Path) -> str:
    """The ``--resume`` error for an older parlour's run (SB3 zips: pickles): what converts it
    so that ``--resume`` takes it, its checkpoint ``old`` to ``ckpt`` and each self-play snapshot
    ``snapshots/X.zip`` to ``X.safetensors`` beside it (the resumed run plays those instead of
    the zips). Short: one error line is cut at ``MAX_MESSAGE_CHARS`` (parlour.errors)."""
    hint = (
        f"--resume: no {ckpt.name} but an older parlour's checkpoint {old.name}, which holds "
        f"pickles; if you trust it, convert it once: 'parlour models convert {old} {ckpt} "
        "--trust-model'"
    )
    snapshots = sorted((run_dir / "snapshots").glob(f"*{old.suffix}"))
    if snapshots:
        hint += (
            f"; likewise each self-play snapshot snapshots/X.zip to X.safetensors beside it "
            f"({len(snapshots)} files)"
        )
    return hint


class RunLock:
    """An exclusive ``flock`` on ``<runs>/.<name>.lock`` while a run uses ``<runs>/<name>``."""

    def __init__(self, run_dir: Path) -> None:
        self.path = run_dir.parent / f".{run_dir.name}.lock"
        self.fd: int | None = None

    def __enter__(self) -> RunLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise RunFolderError(
                f"run folder {self.path.parent / self.path.name[1:-5]} is in use by another "
                f"parlour train (pid {holder}); wait for it to finish or use another name"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        self.fd = fd
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            os.ftruncate(self.fd, 0)
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = None


def refuse_agent_models_in(cfg: Any, run_dir: Path) -> None:
    """``SystemExit`` if an agent the run plays with or against (a ``TrainConfig``'s) reads its
    model from ``run_dir``, which a new run empties (both backends check it before emptying
    anything)."""
    for where, spec in agent_specs(cfg):
        model = spec_model_file(spec)
        if model is not None and Path(model).resolve().is_relative_to(run_dir.resolve()):
            raise SystemExit(
                f"parlour train: {where}: {spec!r} plays a model inside this run's folder "
                f"{run_dir}, which a new run empties (copy the model elsewhere first)"
            )
