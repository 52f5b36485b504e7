"""Case banks: many verified Awkward Guests cases in one file, with disjoint named splits.

A bank holds ``N`` cases of one level, each generated, verified (sound and unique, as ``parlour
case check``) and de-duplicated by :mod:`.bank_build`, split into disjoint named splits
(``train`` / ``val`` / ``test`` by default). The envs deal from a split (``case_bank=``,
``case_split=``: :mod:`parlour.envs.awkward_guests.env`); ``parlour case bank`` builds and reads
banks (:mod:`.bank_cli`). The wheel ships one small bank per level: ``open_bank("medium")``.

File format (``parlour.awkward_guests.bank/1``)
-----------------------------------------------

====================  ========================================================================
bytes                 content
====================  ========================================================================
0–15                  the magic ``b"parlour-agbank\\n\\0"``
16–23                 ``H``, the header's length (little-endian ``uint64``)
24 .. 24+H            the header: UTF-8 JSON (below)
from ``payload``      the arrays, each at its ``offset`` from the payload start (64-byte
                      aligned), raw little-endian, read as memory maps
====================  ========================================================================

Header keys: ``format``, ``level``, ``deck_size``, ``count``, ``seed`` (the build seed),
``splits`` (name → ``[start, stop)``: the cases of a split are stored together, splits do not
overlap and cover ``0 .. count``), ``arrays`` (name → ``{dtype, shape, offset}``), ``payload``
(the payload's start), ``created_by`` (the parlour version) and ``sha256``: the SHA-256 of the
header without this key (canonical JSON: sorted keys, no spaces) followed by the payload bytes.

============================  ================================================================
array                         content
============================  ================================================================
``zdict``                     the zlib preset dictionary every case is compressed with (case
                              JSON shares most of its words, so a dictionary halves the size:
                              ~2 KB a case)
``blob``                      the cases' canonical JSON (``Case.to_json()``, sorted keys, no
                              spaces), each zlib-compressed with ``zdict``, one after another
``offsets``                   ``count + 1`` byte offsets into ``blob``
``seed``                      each case's generator seed (``generate_case(level, seed)``)
``num_cards``                 cards in the deck
``accomplice``                1 if the solution has an accomplice
``cards_needed``              cards read, in a random order fixed by the case seed, until the
                              deduction engine leaves one candidate (a curriculum's difficulty)
``candidates_after_hand``     candidates left after the first 6 cards of that order (one hand)
============================  ================================================================

Opening a bank (:func:`open_bank`) checks the magic, the format, every key, array bound and split,
and the checksum, and refuses a bad file with ``ValueError("case bank <file>: <reason>")``. It
also proves every case sound and unique (and no two alike) the first time a bank's content is
seen on this machine: the content's SHA-256 then goes into the verified-banks record
(``$PARLOUR_CACHE_DIR``, else ``$XDG_CACHE_HOME/parlour``, else ``~/.cache/parlour``), so later
opens in any process take milliseconds; a bank whose content changed has another checksum and is
proven again. Banks are built verified, and the build records them. Reading a case after that
decodes its JSON without re-validating each field (what the checksum and the proof vouch for):
~0.5 ms instead of ~2 ms.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import mmap
import os
import stat
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from parlour._files import atomic_path

from .case import LEVELS, Case, case_from_json, case_from_trusted_json
from .generator import MAX_DECK_SIZE, MIN_DECK_SIZE

__all__ = [
    "BANK_FORMAT",
    "BANK_SUFFIX",
    "DEFAULT_SPLITS",
    "META_COLUMNS",
    "CaseBank",
    "bank_source",
    "case_bytes",
    "open_bank",
    "puzzle_digest",
    "shipped_bank_path",
    "write_bank",
]

BANK_FORMAT = "parlour.awkward_guests.bank/1"
MAGIC = b"parlour-agbank\n\x00"
BANK_SUFFIX = ".agbank"
#: the default splits and their shares of the cases
DEFAULT_SPLITS: dict[str, float] = {"train": 0.8, "val": 0.1, "test": 0.1}
#: payload alignment (bytes): every array starts on a cache line
ALIGN = 64
#: the largest header read (a header is ~1 KB)
MAX_HEADER_BYTES = 1 << 20
#: the largest compressed case read back (a case is ~2 KB compressed, ~30 KB of JSON)
MAX_CASE_BYTES = 1 << 20
#: the per-case metadata columns and their dtypes
META_COLUMNS: dict[str, str] = {
    "seed": "<i8",
    "num_cards": "<u2",
    "accomplice": "u1",
    "cards_needed": "<u2",
    "candidates_after_hand": "<u4",
}
#: every array of a bank and its dtype
ARRAY_DTYPES: dict[str, str] = {"zdict": "u1", "blob": "u1", "offsets": "<u8", **META_COLUMNS}
HEADER_KEYS = (
    "format",
    "level",
    "deck_size",
    "count",
    "seed",
    "splits",
    "arrays",
    "payload",
    "created_by",
    "sha256",
)
#: where the shipped banks are (package data: ``<level>.agbank``)
SHIPPED_DIR = Path(__file__).resolve().parent / "banks"
#: the environment variable that moves the verified-banks record
CACHE_ENV = "PARLOUR_CACHE_DIR"
VERIFIED_DIR = "verified-banks"


def shipped_bank_path(name: str) -> Path:
    """The file of the shipped bank ``name`` (a level)."""
    return SHIPPED_DIR / f"{name}{BANK_SUFFIX}"


def bank_source(source: str | os.PathLike) -> Path:
    """The bank file ``source`` names: a shipped bank's name (a level: ``"medium"``) or a path."""
    if isinstance(source, str) and source in LEVELS and not Path(source).exists():
        return shipped_bank_path(source)
    if not isinstance(source, str | os.PathLike):
        raise ValueError(
            f"case_bank must be a bank file path or a shipped bank's name (one of {list(LEVELS)}), "
            f"got {source!r}"
        )
    return Path(source)


def case_bytes(case: Case) -> bytes:
    """A case's canonical JSON (sorted keys, no spaces): what a bank stores."""
    return json.dumps(
        case.to_json(), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    ).encode("utf-8")


def puzzle_digest(case_json: Mapping[str, Any]) -> bytes:
    """What makes two cases one puzzle: the SHA-256 of a case's canonical JSON without its seed
    (two seeds can make the same case; the seed is no part of the game). Banks hold no puzzle
    twice."""
    rest = {k: v for k, v in case_json.items() if k != "seed"}
    return hashlib.sha256(
        json.dumps(rest, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    ).digest()


def _canonical(header: Mapping[str, Any]) -> bytes:
    return json.dumps(header, sort_keys=True, separators=(",", ":")).encode("utf-8")


def _digest(header: Mapping[str, Any], payload: Iterable[bytes | memoryview]) -> str:
    h = hashlib.sha256(_canonical({k: v for k, v in header.items() if k != "sha256"}))
    for chunk in payload:
        h.update(chunk)
    return h.hexdigest()


# -- the verified-banks record ---------------------------------------------------------------------


def _cache_dir() -> Path:
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "parlour"


_VERIFIED_HERE: set[str] = set()


def is_verified(digest: str) -> bool:
    """Whether a bank content (its SHA-256) was proven sound and unique on this machine."""
    if digest in _VERIFIED_HERE:
        return True
    if (_cache_dir() / VERIFIED_DIR / digest).is_file():
        _VERIFIED_HERE.add(digest)
        return True
    return False


def record_verified(digest: str) -> None:
    """Remember that a bank content was proven (in this process, and on disk when the cache
    folder is writable: a read-only home only costs later processes the proof)."""
    _VERIFIED_HERE.add(digest)
    with contextlib.suppress(OSError):
        folder = _cache_dir() / VERIFIED_DIR
        folder.mkdir(parents=True, exist_ok=True)
        (folder / digest).touch()


# -- writing -----------------------------------------------------------------------------------------


def _split_ranges(splits: Mapping[str, int]) -> dict[str, list[int]]:
    out, start = {}, 0
    for name, n in splits.items():
        out[name] = [start, start + n]
        start += n
    return out


def write_bank(
    path: str | os.PathLike,
    level: str,
    deck_size: int,
    seed: int,
    cases: Mapping[str, list[tuple[bytes, Mapping[str, int]]]],
    zdict: bytes,
    version: str,
) -> str:
    """Write a bank (atomically): ``cases`` maps each split, in order, to its cases as
    ``(canonical JSON compressed with zdict, metadata)``; returns the bank's SHA-256. The caller vouches that the
    cases are verified and distinct (:mod:`.bank_build`)."""
    rows = [row for split in cases.values() for row in split]
    blobs = [data for data, _ in rows]
    offsets = np.zeros(len(rows) + 1, "<u8")
    offsets[1:] = np.cumsum([len(b) for b in blobs])
    arrays: dict[str, np.ndarray] = {
        "zdict": np.frombuffer(zdict, "u1"),
        "blob": np.frombuffer(b"".join(blobs), "u1"),
        "offsets": offsets,
    }
    for column, dtype in META_COLUMNS.items():
        arrays[column] = np.array([meta[column] for _, meta in rows], dtype)
    layout, payload, at = {}, [], 0
    for name, array in arrays.items():
        pad = -at % ALIGN
        payload.append(b"\0" * pad)
        at += pad
        layout[name] = {"dtype": ARRAY_DTYPES[name], "shape": [len(array)], "offset": at}
        data = array.tobytes()
        payload.append(data)
        at += len(data)
    header: dict[str, Any] = {
        "format": BANK_FORMAT,
        "level": level,
        "deck_size": deck_size,
        "count": len(rows),
        "seed": seed,
        "splits": _split_ranges({k: len(v) for k, v in cases.items()}),
        "arrays": layout,
        "payload": 0,
        "created_by": version,
    }
    # the payload starts after the header, aligned; the header's length depends on that number
    # and the checksum, so both are fixed-width while it is measured
    header["sha256"] = "0" * 64
    header["payload"] = 10**12
    head_len = len(_canonical(header))
    header["payload"] = 24 + head_len + (-(24 + head_len) % ALIGN)
    header["sha256"] = _digest(header, payload)
    head = _canonical(header).ljust(head_len)
    with atomic_path(path) as tmp, open(tmp, "wb") as f:
        f.write(MAGIC + len(head).to_bytes(8, "little") + head)
        f.write(b"\0" * (header["payload"] - 24 - len(head)))
        for chunk in payload:
            f.write(chunk)
    return header["sha256"]


# -- reading -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Opened:
    """The checked parts of a bank file (shared by every :class:`CaseBank` of that file version)."""

    header: dict[str, Any]
    arrays: dict[str, np.ndarray]
    zdict: bytes


#: files already checked in this process, by (path, inode, size, mtime)
_OPENED: dict[tuple[str, int, int, int], _Opened] = {}
MAX_OPENED = 64


def _fail(path: Path, reason: str) -> ValueError:
    return ValueError(f"case bank {path}: {reason}")


def _check_header(path: Path, header: Any, size: int) -> dict[str, Any]:
    if not isinstance(header, dict):
        raise _fail(path, "the header is not a JSON object")
    if header.get("format") != BANK_FORMAT:
        raise _fail(
            path,
            f"format {header.get('format')!r} is not {BANK_FORMAT!r} (a newer or older parlour's "
            "bank: rebuild it with `parlour case bank build`)",
        )
    missing = [k for k in HEADER_KEYS if k not in header]
    if missing or set(header) - set(HEADER_KEYS):
        raise _fail(path, f"header fields {sorted(header)} are not {sorted(HEADER_KEYS)}")
    if header["level"] not in LEVELS:
        raise _fail(path, f"level {header['level']!r} is not one of {list(LEVELS)}")
    count = header["count"]
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise _fail(path, f"count must be an int >= 1, got {count!r}")
    ds = header["deck_size"]
    if not isinstance(ds, int) or not MIN_DECK_SIZE <= ds <= MAX_DECK_SIZE:
        raise _fail(path, f"deck_size must be in {MIN_DECK_SIZE}..{MAX_DECK_SIZE}, got {ds!r}")
    splits = header["splits"]
    if not isinstance(splits, dict) or not splits:
        raise _fail(path, "splits must be a non-empty object")
    for name, bounds in splits.items():
        if not (
            isinstance(name, str)
            and name
            and isinstance(bounds, list)
            and len(bounds) == 2
            and all(isinstance(b, int) and not isinstance(b, bool) for b in bounds)
        ):
            raise _fail(path, f"split {name!r} must be [start, stop), got {bounds!r}")
    at = 0
    for name, (lo, hi) in sorted(splits.items(), key=lambda kv: kv[1][0]):
        if lo != at or hi <= lo:
            raise _fail(path, f"split {name!r} [{lo}, {hi}) overlaps or leaves a gap at {at}")
        at = hi
    if at != count:
        raise _fail(path, f"the splits cover {at} cases, not count = {count}")
    arrays = header["arrays"]
    if not isinstance(arrays, dict) or set(arrays) != set(ARRAY_DTYPES):
        raise _fail(path, f"arrays must be exactly {sorted(ARRAY_DTYPES)}")
    start = header["payload"]
    if not isinstance(start, int) or start % ALIGN or not 24 <= start <= size:
        raise _fail(path, f"payload offset {start!r} is not an aligned offset inside the file")
    for name, spec in arrays.items():
        expect = count + 1 if name == "offsets" else count if name in META_COLUMNS else None
        try:
            dtype, (length,), offset = np.dtype(spec["dtype"]), spec["shape"], spec["offset"]
        except (KeyError, TypeError, ValueError):
            raise _fail(path, f"array {name!r}: bad description {spec!r}") from None
        if spec["dtype"] != ARRAY_DTYPES[name] or (expect is not None and length != expect):
            raise _fail(path, f"array {name!r} must be {ARRAY_DTYPES[name]} of {expect} values")
        if (
            not isinstance(offset, int)
            or offset < 0
            or start + offset + length * dtype.itemsize > size
        ):
            raise _fail(path, f"array {name!r} runs past the end of the file (truncated?)")
    return header


def _read(path: Path) -> _Opened:
    try:
        st = os.stat(path)
    except OSError as e:
        raise _fail(path, f"cannot read it ({e.strerror or e})") from None
    if not stat.S_ISREG(st.st_mode):
        raise _fail(path, "not a regular file")
    key = (str(path.resolve()), st.st_ino, st.st_size, st.st_mtime_ns)
    if key in _OPENED:
        return _OPENED[key]
    with open(path, "rb") as f:
        try:
            mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except ValueError:  # an empty file cannot be mapped
            raise _fail(path, "not a case bank (empty file)") from None
    if mm[:16] != MAGIC:
        raise _fail(path, "not a case bank (no parlour-agbank magic at its start)")
    head_len = int.from_bytes(mm[16:24], "little")
    if head_len > min(MAX_HEADER_BYTES, len(mm) - 24):
        raise _fail(path, "the header length is past the end of the file (truncated?)")
    try:
        header = json.loads(mm[24 : 24 + head_len].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise _fail(path, f"the header is not JSON ({e})") from None
    header = _check_header(path, header, len(mm))
    view = memoryview(mm)
    start = header["payload"]
    arrays = {}
    end = start
    for name, spec in header["arrays"].items():
        dtype = np.dtype(spec["dtype"])
        offset = start + spec["offset"]
        arrays[name] = np.frombuffer(mm, dtype, spec["shape"][0], offset)
        end = max(end, offset + spec["shape"][0] * dtype.itemsize)
    if _digest(header, [view[start:end]]) != header["sha256"]:
        raise _fail(path, "checksum mismatch: the file changed after it was built (damaged?)")
    offsets = arrays["offsets"]
    if offsets[0] != 0 or offsets[-1] != len(arrays["blob"]) or np.any(np.diff(offsets) <= 0):
        raise _fail(path, "the case offsets are not increasing inside the case data")
    opened = _Opened(header, arrays, bytes(arrays["zdict"]))
    if len(_OPENED) >= MAX_OPENED:
        _OPENED.pop(next(iter(_OPENED)))
    _OPENED[key] = opened
    return opened


class CaseBank:
    """An opened, checked case bank (see the module docstring): cases by index, splits, metadata.

    ``len(bank)`` cases; ``bank.case(i)`` the ``i``-th (a fresh :class:`Case`);
    ``bank.split(name)`` the ``range`` of a split's indices; ``bank.meta[column]`` a metadata
    column (read-only memory map).
    """

    def __init__(self, path: Path, opened: _Opened, name: str | None) -> None:
        self.path, self.name = path, name
        self.header = opened.header
        self._arrays = opened.arrays
        self._zdict = opened.zdict
        self.level: str = self.header["level"]
        self.deck_size: int = self.header["deck_size"]
        self.digest: str = self.header["sha256"]
        self.splits: dict[str, range] = {
            k: range(*v) for k, v in sorted(self.header["splits"].items(), key=lambda kv: kv[1])
        }
        self.meta: dict[str, np.ndarray] = {c: self._arrays[c] for c in META_COLUMNS}

    def __len__(self) -> int:
        return int(self.header["count"])

    def __repr__(self) -> str:
        parts = ", ".join(f"{k}={len(v)}" for k, v in self.splits.items())
        return f"CaseBank({str(self.path)!r}, level={self.level!r}, {parts})"

    def describe(self) -> dict[str, Any]:
        """What a run records of the bank it used (``report.json``)."""
        return {
            "case_bank": self.name or str(self.path),
            "sha256": self.digest,
            "level": self.level,
        }

    def split(self, name: str) -> range:
        """The indices of split ``name`` (``ValueError`` naming the bank's splits)."""
        if name not in self.splits:
            raise _fail(self.path, f"no split {name!r}; its splits are {list(self.splits)}")
        return self.splits[name]

    def split_of(self, index: int) -> str:
        """The split case ``index`` belongs to."""
        return next(k for k, r in self.splits.items() if index in r)

    def case_json_bytes(self, index: int) -> bytes:
        """Case ``index``'s canonical JSON."""
        if not 0 <= index < len(self):
            raise IndexError(f"case index {index} is not in 0..{len(self) - 1}")
        offsets = self._arrays["offsets"]
        lo, hi = int(offsets[index]), int(offsets[index + 1])
        d = zlib.decompressobj(zdict=self._zdict)
        data = d.decompress(self._arrays["blob"][lo:hi].tobytes(), MAX_CASE_BYTES)
        if d.unconsumed_tail or not d.eof:
            raise _fail(self.path, f"case {index}: its data is damaged or over 1 MB")
        return data

    def case(self, index: int) -> Case:
        """Case ``index`` (decoded without re-validation: the bank is checked and proven)."""
        return case_from_trusted_json(json.loads(self.case_json_bytes(index)))


def proof_failures(bank: CaseBank, limit: int | None = None) -> list[str]:
    """Every case's problems: not a valid case, not sound and unique (``parlour case check``),
    or a repeat of an earlier case's puzzle (:func:`puzzle_digest`; at most ``limit`` lines)."""
    from .verify import check

    lines: list[str] = []
    seen: dict[bytes, int] = {}
    for i in range(len(bank)):
        where = f"case {i} (split {bank.split_of(i)}, seed {int(bank.meta['seed'][i])})"
        try:
            d = json.loads(bank.case_json_bytes(i))
            case = case_from_json(d)
        except (ValueError, RecursionError, zlib.error) as e:
            lines.append(f"{where}: not a valid case ({e})")
        else:
            key = puzzle_digest(d)
            if key in seen:
                lines.append(f"{where}: the same case as case {seen[key]}")
            seen[key] = i
            ok, problems = check(case)
            if not ok:
                lines.append(f"{where}: NOT sound and unique: {'; '.join(problems)}")
            elif case.level != bank.level:
                lines.append(f"{where}: level {case.level!r}, not the bank's {bank.level!r}")
        if limit is not None and len(lines) >= limit:
            break
    return lines


def open_bank(source: str | os.PathLike, *, prove: bool = True) -> CaseBank:
    """Open and check a bank (a path or a shipped bank's name); ``prove`` also proves every case
    the first time this content is seen on this machine (see the module docstring)."""
    path = bank_source(source)
    name = source if isinstance(source, str) and path == shipped_bank_path(source) else None
    bank = CaseBank(path, _read(path), name)
    if prove and not is_verified(bank.digest):
        failures = proof_failures(bank, limit=1)
        if failures:
            raise _fail(path, failures[0])
        record_verified(bank.digest)
    return bank
