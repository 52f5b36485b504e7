"""Building case banks: ``parlour case bank build OUT --level L --count N [--seed S] [--workers K]``.

:func:`build_bank` draws unique case seeds from ``np.random.default_rng(seed)`` (as the envs
draw them), generates each case with ``generate_case(level, case seed, deck_size)``, proves it
sound and unique with ``parlour case check``'s :func:`~.verify.check`, measures its curriculum
metadata (:data:`~.bank.META_COLUMNS`) and compresses it; that work runs in ``workers``
processes (or, with ``address``, as tasks on a Ray cluster). The parent keeps the cases in seed
order, skips any whose puzzle repeats an earlier one (:func:`~.bank.puzzle_digest`: the case
without its seed), draws more seeds until ``count`` are distinct, deals them into the splits by
a permutation drawn from ``default_rng([seed, 1])`` and writes the bank atomically. The bank's
bytes depend only on ``level``, ``count``, ``seed``, ``deck_size`` and ``splits``, never on the
workers (tested).

The zlib dictionary is the end of the first :data:`ZDICT_CASES` cases' JSON, made before the
rest are generated so that the workers compress their own cases.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import threading
import time
import zlib
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from parlour.envs._checks import require_int
from parlour.extras import needs

from .bank import DEFAULT_SPLITS, case_bytes, puzzle_digest, record_verified, write_bank
from .case import LEVELS
from .deduction import Deduction
from .generator import DEFAULT_DECK_SIZE, MAX_DECK_SIZE, MIN_DECK_SIZE, generate_case
from .verify import check

__all__ = ["BuildReport", "build_bank", "parse_splits", "MAX_BANK_CASES", "MAX_BUILD_WORKERS"]

#: the most cases a bank may hold (a case is ~2 KB: 20 GB; generation takes ~8 ms a case)
MAX_BANK_CASES = 10_000_000
#: the most worker processes of one build
MAX_BUILD_WORKERS = 256
#: the cases whose JSON makes the compression dictionary
ZDICT_CASES = 8
#: zlib's largest preset dictionary (bytes)
ZDICT_BYTES = 32 * 1024
#: cards in a first hand (the ``candidates_after_hand`` column: the game deals 6 per seat)
FIRST_HAND = 6
#: seeds per task sent to a worker
CHUNK = 4
#: tasks per worker in one round of work (the last task of a round leaves the other workers
#: idle: more tasks a round, less idle time; fewer, a sooner stop and progress report)
ROUND_CHUNKS = 24
#: the generator stream the splits' permutation is drawn from (``default_rng([seed, 1])``)
SPLIT_STREAM = 1
#: the case seeds' bound (the envs' ``draw_case_seed``)
CASE_SEED_BOUND = 2**31 - 1
#: the relative slack of ``share × count`` before it is floored: a decimal share is not exact in
#: binary (0.29 × 100 is 28.999999999999996), and the error of the product is ~1e-16 relative
SHARE_SLACK = 1e-12


@dataclass(frozen=True)
class BuildReport:
    """What a build did."""

    path: str
    level: str
    count: int
    splits: dict[str, int]
    duplicates: int
    seconds: float
    workers: int
    size_bytes: int
    sha256: str

    @property
    def cases_per_second(self) -> float:
        return self.count / self.seconds if self.seconds else float("inf")


def parse_splits(text: str | Mapping[str, float] | None) -> dict[str, float]:
    """``"train=0.8,val=0.1,test=0.1"`` (or a mapping) as ``{name: share}``; shares are
    positive and sum to 1."""
    if text is None:
        return dict(DEFAULT_SPLITS)
    if isinstance(text, str):
        out: dict[str, float] = {}
        for part in text.split(","):
            name, eq, share = part.strip().partition("=")
            name = name.strip()
            try:
                value = float(share)
            except ValueError:
                eq = ""
            if not eq or not name:
                raise ValueError(
                    f"--splits must look like train=0.8,val=0.1,test=0.1, got {text!r}"
                ) from None
            if name in out:
                raise ValueError(f"--splits names the split {name!r} twice: {text!r}")
            out[name] = value
    else:
        try:
            out = {str(k): float(v) for k, v in text.items()}
        except (TypeError, ValueError):
            raise ValueError(f"splits: the shares must be numbers, got {dict(text)!r}") from None
    if not out or any(not (v > 0) for v in out.values()) or abs(sum(out.values()) - 1) > 1e-9:
        raise ValueError(f"splits: the shares must be positive and sum to 1, got {out}")
    return out


def split_counts(shares: Mapping[str, float], count: int) -> dict[str, int]:
    """Cases per split: ``floor(share × count)`` (of the share as written: ``0.29`` of 100 is 29),
    the rest one each to the splits in order."""
    counts = {k: math.floor(v * count * (1 + SHARE_SLACK)) for k, v in shares.items()}
    for k in list(counts)[: count - sum(counts.values())]:
        counts[k] += 1
    empty = [k for k, n in counts.items() if n == 0]
    if empty:
        raise ValueError(
            f"--count {count} leaves the split(s) {empty} empty: give more cases or other shares"
        )
    return counts


def case_row(level: str, deck_size: int, seed: int) -> tuple[int, bytes, dict[str, int]]:
    """Generate, prove and measure one case: ``(seed, canonical JSON, metadata)``."""
    case = generate_case(level, seed, deck_size)
    ok, lines = check(case)
    if not ok:  # the generator verifies its cases: a bug, never a user error
        raise RuntimeError(f"case {level}/{seed} failed the check: {'; '.join(lines)}")
    order = np.random.default_rng(seed).permutation(len(case.cards))
    ded = Deduction(case.accomplice_possible)
    after_hand, needed = 0, len(order) + 1
    for n, i in enumerate(order, start=1):
        ded.add_facts(case.cards[int(i)].facts, validate=False)
        count = ded.count()
        if n == FIRST_HAND:
            after_hand = count
        if count == 1:
            needed = min(needed, n)
            if n >= FIRST_HAND:
                break
    meta = {
        "seed": seed,
        "num_cards": len(case.cards),
        "accomplice": int(case.solution.accomplice is not None),
        "cards_needed": needed,
        "candidates_after_hand": after_hand if after_hand else 1,
    }
    return seed, case_bytes(case), meta


def compress(data: bytes, zdict: bytes) -> bytes:
    """A case's JSON compressed with the bank's dictionary."""
    comp = zlib.compressobj(9, zdict=zdict)
    return comp.compress(data) + comp.flush()


def _rows(
    level: str, deck_size: int, seeds: list[int], zdict: bytes | None
) -> list[tuple[int, bytes, bytes, dict[str, int]]]:
    """Worker task: ``(seed, puzzle digest, compressed or raw JSON, metadata)`` per seed."""
    out = []
    for s in seeds:
        _, data, meta = case_row(level, deck_size, s)
        digest = puzzle_digest(json.loads(data))
        out.append((s, digest, compress(data, zdict) if zdict is not None else data, meta))
    return out


def _seed_stream(seed: int) -> Iterator[int]:
    rng, seen = np.random.default_rng(seed), set()
    while True:
        s = int(rng.integers(CASE_SEED_BOUND))
        if s not in seen:
            seen.add(s)
            yield s


Runner = Callable[[list[list[int]], bytes | None], list[list[tuple[int, bytes, bytes, dict]]]]


def _pool_context() -> Any:
    """``fork`` where it is safe (a POSIX process with one thread: the workers start in
    milliseconds with the parent's warm case tables), else ``forkserver``."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("forkserver")


def _local_runner(
    level: str, deck_size: int, workers: int
) -> tuple[Runner, Callable[[], None], int]:
    if workers == 1:
        return (lambda chunks, z: [_rows(level, deck_size, c, z) for c in chunks]), _nothing, 1
    pool = ProcessPoolExecutor(workers, mp_context=_pool_context())

    def run(chunks: list[list[int]], zdict: bytes | None) -> list:
        n = len(chunks)
        return list(pool.map(_rows, [level] * n, [deck_size] * n, chunks, [zdict] * n))

    return run, lambda: pool.shutdown(cancel_futures=True), workers


def _ray_runner(level: str, deck_size: int, address: str) -> tuple[Runner, Callable[[], None], int]:
    """Tasks on the Ray cluster at ``address`` (``"local"`` starts one here); the round size
    follows the cluster's CPUs."""
    try:
        import ray
    except ModuleNotFoundError as e:
        raise ValueError(
            f"--address needs Ray: {needs('a build on a Ray cluster', [e.name or 'ray'])}"
        ) from None

    ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
    remote = ray.remote(_rows)
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))

    def run(chunks: list[list[int]], zdict: bytes | None) -> list:
        return ray.get([remote.remote(level, deck_size, c, zdict) for c in chunks])

    return run, ray.shutdown, cpus


def _nothing() -> None:
    return None


def build_bank(
    out: str | os.PathLike,
    level: str,
    count: int,
    seed: int = 0,
    workers: int = 1,
    deck_size: int = DEFAULT_DECK_SIZE,
    splits: str | Mapping[str, float] | None = None,
    address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> BuildReport:
    """Build a bank of ``count`` distinct verified cases at ``out`` (see the module docstring).
    Bad arguments are a ``ValueError`` naming them, before any work; ``out`` is written only
    when the bank is whole."""
    if level not in LEVELS:
        raise ValueError(f"--level must be one of {list(LEVELS)}, got {level!r}")
    count = require_int("--count", count, 1, MAX_BANK_CASES)
    seed = require_int("--seed", seed, 0, 2**63 - 1)
    workers = require_int("--workers", workers, 1, MAX_BUILD_WORKERS)
    deck_size = require_int("--deck-size", deck_size, MIN_DECK_SIZE, MAX_DECK_SIZE)
    counts = split_counts(parse_splits(splits), count)
    if address is not None and (not isinstance(address, str) or not address.strip()):
        raise ValueError(
            f"--address must be a Ray cluster's address ('local', 'auto', 'HOST:PORT'), got {address!r}"
        )
    folder = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(folder):
        raise ValueError(f"OUT: the folder {folder} does not exist")
    if os.path.isdir(out):
        raise ValueError(f"OUT: {out} is a folder, not a bank file")
    t0 = time.perf_counter()
    seeds = _seed_stream(seed)
    first = [next(seeds) for _ in range(min(ZDICT_CASES, count))]
    raw = _rows(level, deck_size, first, None)  # (here: the workers fork with warm tables)
    zdict = b"".join(data for _, _, data, _ in raw)[-ZDICT_BYTES:]
    run, stop, parallel = (
        _ray_runner(level, deck_size, address)
        if address
        else _local_runner(level, deck_size, workers)
    )
    try:
        rows, duplicates = _generate(run, seeds, raw, zdict, count, parallel, progress)
    finally:
        stop()
    order = np.random.default_rng([seed, SPLIT_STREAM]).permutation(count)
    by_split, at = {}, 0
    for name, n in counts.items():
        by_split[name] = [rows[int(i)] for i in order[at : at + n]]
        at += n
    from parlour import __version__

    digest = write_bank(out, level, deck_size, seed, by_split, zdict, __version__)
    record_verified(digest)
    return BuildReport(
        path=str(out),
        level=level,
        count=count,
        splits=counts,
        duplicates=duplicates,
        seconds=time.perf_counter() - t0,
        workers=workers,
        size_bytes=os.path.getsize(out),
        sha256=digest,
    )


def _generate(
    run: Runner,
    seeds: Iterator[int],
    raw: list[tuple[int, bytes, bytes, dict]],
    zdict: bytes,
    count: int,
    workers: int,
    progress: Callable[[int, int], None] | None,
) -> tuple[list[tuple[bytes, dict[str, int]]], int]:
    """``count`` distinct ``(compressed JSON, metadata)`` rows in seed order (the dictionary's
    cases ``raw`` first) and how many duplicates were skipped."""
    rows: list[tuple[bytes, dict[str, int]]] = []
    seen: set[bytes] = set()
    duplicates = 0

    def keep(batch: list[tuple[int, bytes, bytes, dict]], compressed: bool) -> None:
        nonlocal duplicates
        for _, digest, data, meta in batch:
            if len(rows) == count:
                return
            if digest in seen:
                duplicates += 1
                continue
            seen.add(digest)
            rows.append((data if compressed else compress(data, zdict), meta))

    keep(raw, compressed=False)
    while len(rows) < count:
        todo = [next(seeds) for _ in range(min(count - len(rows), CHUNK * workers * ROUND_CHUNKS))]
        chunks = [todo[i : i + CHUNK] for i in range(0, len(todo), CHUNK)]
        for batch in run(chunks, zdict):
            keep(batch, compressed=True)
        if progress is not None:
            progress(len(rows), count)
    return rows, duplicates
