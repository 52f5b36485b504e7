"""A prefetching pool of freshly generated Awkward Guests cases (case generation off the
critical path of training).

A generated case costs 12–17 ms (easy) and more at higher levels, while a 1–2-player game lasts
17–40 steps, so resets dominate Awkward Guests training. :class:`CasePool` generates the cases
ahead of time in a background thread and hands them out in a fixed order:

| property | how |
|---|---|
| seeded, reproducible | the case seeds are drawn from ``np.random.default_rng(seed)``; cases are generated and handed out in that order, whatever the timing |
| unique per run | a case whose content (``Case.to_json()``) was already handed out is skipped (and so is a repeated case seed); a resumed run's session draws a stream of its own (``parlour.train.train.session_seed``), so across the sessions of a resumed run a case repeats only by chance: about ``n1 · n2 / 2**31`` for sessions of ``n1`` and ``n2`` cases (0.4% for 3,000 each); the same holds between the pools of a per-game run's ``SubprocVecEnv`` workers (each env has its own pool): one pool serves every game only in the in-process batched env |
| off the critical path | a background thread fills a queue of ``prefetch`` cases; it runs while the env's process would otherwise wait (a ``SubprocVecEnv`` worker during the PPO update, the trainer inside torch, which releases the GIL); ``process=True`` generates in a child process instead (its own core: what the in-process batched training env uses, :mod:`parlour.train.multi_game`; not possible inside a daemonic ``SubprocVecEnv`` worker); ``background=False`` generates in the caller (the same cases in every mode) |

```python
pool = CasePool("easy", seed=0)
env.reset(seed=s, options={"case": pool.next()})
pool.close()
```
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import queue
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from parlour.envs.awkward_guests.case_prefetch import draw_case_seed  # (as the env draws them)

#: cases kept ready by default
DEFAULT_PREFETCH = 64
#: how often (s) a producer waiting on a full queue checks whether the pool was closed
STOP_POLL_S = 0.5


def case_stream(level: str | Sequence[str], deck_size: int, seed: int) -> Iterator[tuple[int, Any]]:
    """``(case seed, case)`` pairs in the pool's order: unique seeds, unique case contents.
    ``level`` may be a sequence of levels: the cases cycle through it (a mix of levels; a level
    named twice comes twice as often)."""
    from parlour.envs.awkward_guests.case.generator import generate_case

    levels = (level,) if isinstance(level, str) else tuple(level)
    rng = np.random.default_rng(seed)
    made = 0
    seen_seeds: set[int] = set()
    seen_cases: set[bytes] = set()
    while True:
        s = draw_case_seed(rng)
        if s in seen_seeds:
            continue
        seen_seeds.add(s)
        case = generate_case(levels[made % len(levels)], s, deck_size)
        made += 1
        # (a digest, not the ~30 KB JSON itself: a long run serves hundreds of thousands)
        key = hashlib.sha256(json.dumps(case.to_json(), sort_keys=True).encode()).digest()
        if key in seen_cases:
            continue
        seen_cases.add(key)
        yield s, case


def _produce(
    stream: Iterator[tuple[int, Any]],
    out: queue.Queue,
    stop: threading.Event,
    parent_alive: Callable[[], bool] | None = None,
) -> None:
    """Put the stream's items into ``out`` until ``stop`` is set (or, in a child process, its
    parent has died: killed, it could not set ``stop``)."""
    for item in stream:
        while not stop.is_set():
            if parent_alive is not None and not parent_alive():
                return
            try:
                out.put(item, timeout=STOP_POLL_S)  # waits while the queue is full
                break
            except queue.Full:
                continue
        if stop.is_set():
            return


def _produce_in_child(
    level: str | tuple[str, ...], deck_size: int, seed: int, out: Any, stop: Any
) -> None:  # pragma: no cover - runs in the child process
    from parlour.safe_stop import workers_ignore_interrupts

    workers_ignore_interrupts()  # Ctrl-C is the trainer's to handle (it closes the pool)
    out.cancel_join_thread()  # (on close the queued cases are dropped: never wait to flush them)
    parent = multiprocessing.parent_process()
    _produce(case_stream(level, deck_size, seed), out, stop, parent and parent.is_alive)


#: how long (s) ``close()`` waits for the child process to stop before terminating it
CHILD_STOP_S = 5.0


class CasePool:
    """Freshly generated cases, prefetched in order (see the module docstring)."""

    def __init__(
        self,
        level: str | Sequence[str] = "easy",
        deck_size: int = 70,
        seed: int = 0,
        prefetch: int = DEFAULT_PREFETCH,
        background: bool = True,
        process: bool = False,
    ) -> None:
        from parlour.envs.awkward_guests.case_source import CaseSource

        if not isinstance(level, str):  # a mix of levels (case_levels)
            level = tuple(level)
            if not level or not all(isinstance(x, str) for x in level):
                raise ValueError(f"case_levels: a non-empty list of levels, got {list(level)!r}")
        for one in (level,) if isinstance(level, str) else level:
            CaseSource(one, "generated", deck_size)  # checks level and deck_size (ValueError)
        if isinstance(prefetch, bool) or not isinstance(prefetch, int) or prefetch < 1:
            raise ValueError(f"prefetch must be an int >= 1, got {prefetch!r}")
        self.level, self.deck_size, self.seed = level, deck_size, seed
        self.served: list[int] = []  # the case seeds handed out so far
        self._closed = False
        self._stream = case_stream(level, deck_size, seed)
        self._thread: threading.Thread | multiprocessing.process.BaseProcess | None = None
        if background and process:
            ctx = multiprocessing.get_context("forkserver")
            self._queue = ctx.Queue(maxsize=prefetch)
            self._stop = ctx.Event()
            self._thread = ctx.Process(
                target=_produce_in_child,
                args=(level, deck_size, seed, self._queue, self._stop),
                daemon=True,
            )
            self._thread.start()
        elif background:
            self._queue = queue.Queue(maxsize=prefetch)
            self._stop = threading.Event()
            self._thread = threading.Thread(
                target=_produce, args=(self._stream, self._queue, self._stop), daemon=True
            )
            self._thread.start()

    def __call__(self) -> dict[str, Any]:
        """The reset options of the next game: ``{"case": the next case}``."""
        return {"case": self.next()}

    def next(self) -> Any:
        """The next case (blocks only if the background thread has not generated it yet)."""
        if self._closed:
            raise RuntimeError("case pool: closed (the background generator stopped)")
        if self._thread is None:
            s, case = next(self._stream)
        else:
            s, case = self._get()
        self.served.append(s)
        return case

    def _get(self) -> tuple[int, Any]:
        while True:
            try:
                return self._queue.get(timeout=STOP_POLL_S)
            except queue.Empty:
                if self._thread is None or not self._thread.is_alive():
                    raise RuntimeError(
                        "case pool: the background generator stopped (closed, or it failed)"
                    ) from None

    def close(self) -> None:
        """Stop the background thread or process (the pool hands out no more cases: ``next()``
        raises ``RuntimeError``)."""
        self._closed = True
        if self._thread is not None:
            self._stop.set()
            self._thread.join(CHILD_STOP_S)
            if isinstance(self._thread, multiprocessing.process.BaseProcess):
                if self._thread.is_alive():  # pragma: no cover - a child stuck in generation
                    self._thread.terminate()
                    self._thread.join()
                self._queue.close()
            self._thread = None

    def __del__(self) -> None:
        if getattr(self, "_thread", None) is not None:
            self.close()


def guests_reset_source(
    env_options: dict[str, Any], seed: int, *, process: bool = False, prefetch: int | None = None
) -> CasePool | None:
    """The Awkward Guests ``Training.reset_source``: a :class:`CasePool` seeded with ``seed``
    (of the levels ``case_levels`` lists, in turn, when set; each case plays at its own level)
    (called per reset, it gives ``{"case": next prefetched case}``), generating in a background
    thread, or with ``process`` in a child process keeping ``prefetch`` cases ready; ``None``
    unless the env generates its cases (a fixed pool of classic or file cases, or a case bank,
    needs no generation)."""
    if env_options.get("cases", "generated") != "generated" or env_options.get("case_bank"):
        return None  # (a bank's cases cost a decode, not a generation: the env deals them)
    more = {} if prefetch is None else {"prefetch": prefetch}
    level, deck_size = env_options.get("level", "easy"), env_options.get("deck_size", 70)
    mix = env_options.get("case_levels")
    if mix is not None:  # (a list of levels, or one string "beginner,hard")
        level = [x.strip() for x in mix.split(",")] if isinstance(mix, str) else mix
    return CasePool(level, deck_size, seed, process=process, **more)


def guests_data_source(env_options: Mapping[str, Any]) -> dict[str, Any]:
    """The Awkward Guests ``Training.data_source``: the case bank (its name or file, SHA-256,
    level, split and the split's size), or the case source and level."""
    from parlour.envs.awkward_guests.case_source import DEFAULT_CASE_SPLIT, CaseSource

    source = CaseSource(
        env_options.get("level"),
        env_options.get("cases", "generated"),
        env_options.get("deck_size", 70),
        case_bank=env_options.get("case_bank"),
        case_split=env_options.get("case_split", DEFAULT_CASE_SPLIT),
    )
    return source.describe()
