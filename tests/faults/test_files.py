"""parlour._files: atomic writes leave the old file whole; readers refuse what is not a
bounded regular file (and never block on a FIFO)."""

from __future__ import annotations

import os

import pytest

from parlour._files import atomic_path, read_regular_file, write_atomic


def test_write_atomic_replaces_whole_file(tmp_path):
    target = tmp_path / "report.json"
    write_atomic(target, "old")
    write_atomic(target, b"new")
    assert target.read_bytes() == b"new"
    assert os.listdir(tmp_path) == ["report.json"]


def test_failed_write_keeps_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "latest"
    write_atomic(target, "old")
    with pytest.raises(RuntimeError), atomic_path(target) as tmp:
        tmp.write_text("half")
        raise RuntimeError("killed mid-write")
    assert target.read_text() == "old"
    assert os.listdir(tmp_path) == ["latest"]


def test_read_regular_file_bounds_and_kinds(tmp_path):
    good = tmp_path / "ok.yaml"
    good.write_text("a: 1")
    assert read_regular_file(good, max_bytes=4, what="config") == b"a: 1"
    with pytest.raises(ValueError, match=r"config: .* is 4 bytes; the limit is 3"):
        read_regular_file(good, max_bytes=3, what="config")
    with pytest.raises(ValueError, match="config: .* is a folder"):
        read_regular_file(tmp_path, max_bytes=10, what="config")
    with pytest.raises(FileNotFoundError, match="config: no file"):
        read_regular_file(tmp_path / "missing", max_bytes=10, what="config")


@pytest.mark.timeout(10)
def test_read_regular_file_refuses_fifo_and_device_without_blocking(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="not a regular file"):
        read_regular_file(fifo, max_bytes=10, what="config")
    with pytest.raises(ValueError, match="not a regular file"):
        read_regular_file("/dev/zero", max_bytes=10, what="config")


def test_a_failed_write_names_the_file_it_was_writing(tmp_path):
    """``ulimit -f`` or a full disk fails the write with an OSError that names no file
    ("[Errno 27] File too large"): the error names the target (found by the attack review)."""
    import errno

    target = tmp_path / "report.json"
    too_large = r"File too large \(writing .*report\.json\)"
    with pytest.raises(OSError, match=too_large) as info, atomic_path(target) as tmp:
        tmp.write_text("half")
        raise OSError(errno.EFBIG, "File too large")
    assert info.value.errno == errno.EFBIG and info.value.filename == str(target)
    assert os.listdir(tmp_path) == []
