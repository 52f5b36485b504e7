"""Files parlour writes and reads: whole or not at all, regular and bounded.

| name | what |
|---|---|
| :func:`atomic_path` | a temporary path beside the target; on success it is flushed to disk and ``os.replace``d over the target, on failure removed: a kill, a full disk or an exception leaves the old file whole |
| :func:`write_atomic` | bytes or text to a file through :func:`atomic_path` |
| :func:`read_regular_file` | the bytes of a regular file no larger than a cap; a folder, FIFO, device or socket, or a larger file, is a ``ValueError`` naming the argument (it never blocks on a FIFO) |

Readers of files a user names (configs, case files, run state) go through
:func:`read_regular_file`; every file a run writes goes through :func:`atomic_path`.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path

#: the suffix of the temporary files :func:`atomic_path` writes (beside the target)
TMP_SUFFIX = ".tmp"


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a fresh temporary path in ``path``'s folder; write the file there. When the block
    ends normally the file is fsynced and moved over ``path`` in one step (``os.replace``);
    when it raises, the temporary file is removed and ``path`` is left as it was."""
    target = Path(path)
    tmp = target.with_name(f".{target.name}.{os.getpid()}{TMP_SUFFIX}")
    try:
        yield tmp
        with open(tmp, "rb+") as written:
            os.fsync(written.fileno())
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if isinstance(exc, OSError) and exc.filename is None and exc.errno is not None:
            # (a failed write names no file: "File too large", "No space left on device")
            raise OSError(exc.errno, f"{exc.strerror} (writing {target})", str(target)) from exc
        raise
    _fsync_folder(target.parent)


def write_atomic(path: str | os.PathLike, data: bytes | str, encoding: str = "utf-8") -> None:
    """Write ``data`` (text is encoded with ``encoding``) to ``path`` through :func:`atomic_path`."""
    payload = data.encode(encoding) if isinstance(data, str) else data
    with atomic_path(path) as tmp:
        tmp.write_bytes(payload)


def _fsync_folder(folder: Path) -> None:
    """Make the rename durable (best effort: not every file system lets a folder be opened)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def read_regular_file(path: str | os.PathLike, *, max_bytes: int, what: str) -> bytes:
    """The bytes of the regular file ``path``, at most ``max_bytes`` of them.

    ``what`` names the argument in the errors (e.g. ``"config"``). A missing file is a
    ``FileNotFoundError``; a folder, FIFO, device or socket, or a file over ``max_bytes``, a
    ``ValueError``. The file is opened without blocking, so a FIFO cannot hang the reader."""
    name = os.fspath(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(name, flags)
    except FileNotFoundError:
        raise FileNotFoundError(f"{what}: no file at {name!r}") from None
    except IsADirectoryError:
        raise ValueError(f"{what}: {name!r} is a folder, not a file") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise ValueError(f"{what}: {name!r} is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"{what}: {name!r} is not a regular file (a FIFO, device or socket)")
        if info.st_size > max_bytes:
            raise ValueError(
                f"{what}: {name!r} is {info.st_size:,} bytes; the limit is {max_bytes:,}"
            )
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(max_bytes + 1)
        if len(data) > max_bytes:  # (it grew while we read)
            raise ValueError(f"{what}: {name!r} is larger than the limit of {max_bytes:,} bytes")
        return data
    finally:
        os.close(fd)
