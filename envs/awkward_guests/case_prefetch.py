"""Case prefetch for the Awkward Guests envs: ``case_workers=k`` generates the next cases in ``k``
background processes, exactly the cases ``reset()`` would have generated itself.

A generated case costs 5–10 ms of CPU (``easy`` .. ``expert``), more than a whole 1–2-player
game of random play, so an env that plays many short games spends most of its time in
``reset()``. With ``case_workers`` the cases are generated ahead on other cores:

| step | what happens |
|---|---|
| the chain | after a deal, the env's generator is in a known state; if the game does not draw from it again (only a reshuffle of the discard pile does: rare with 1–4 players), the next ``reset()`` draws its case seed from that state, deals (a shuffle of ``deck_size`` cards, a start seat), and the one after draws from the state that leaves. :class:`CaseChain` computes those case seeds ahead: a few µs each, no case needed. |
| the workers | worker ``w`` generates the chain's cases ``w, w + k, w + 2k, …`` with ``generate_case(level, seed, deck_size)`` — the env's own call — ``ahead × k`` to ``2 × ahead × k`` resets ahead of the env (1 while the chain has not been right yet: a loop of ``reset(seed=…)`` costs the workers one case per reset, not ``ahead``). |
| a reset | the env draws its case seed from its generator as always; the worker's case is used only if that seed is the one the chain predicted next and the case is the worker's case of that seed, else (a ``reset(seed=…)`` with a new seed, a reshuffle during the game, a worker that failed) the env generates the case itself. A reset with ``options["case"]`` draws no case seed. After the deal the chain is checked against the generator and started again from it when they differ (also after a fixed ``options["deck"]`` or ``["start"]``). |

So every game is the game ``case_workers=0`` plays (tests hold whole trajectories equal); only
the time changes. The workers start at the first reset (``forkserver`` processes: a script
that creates the env at its top level needs ``if __name__ == "__main__":``, as for any
multiprocessing), stop at ``env.close()`` (and when the env is garbage-collected); a copy or
pickle of the env gets its own workers when it is first reset. Each worker sends its cases
through its own pipe, so a worker that dies (even mid-case) or does not deliver within
``GIVE_UP_S`` makes the env warn once and generate its cases itself from then on; so does a
failure to start them. A daemonic process (a ``SubprocVecEnv`` or ``multiprocessing.Pool``
worker) cannot start processes: the constructor refuses ``case_workers`` there, and an env
pickled into one warns at its first reset and generates its cases itself.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import queue
import signal
import time
import warnings
from typing import Any

import numpy as np

from .case.generator import generate_case
from .game.deal import draw_deck_order, draw_start

#: Generated cases get a seed drawn from ``0 .. CASE_SEED_BOUND - 1`` (the env's generator).
CASE_SEED_BOUND = 2**31 - 1
#: cases per worker the workers may run ahead of the env (once the chain has been right: the
#: window is ``ahead × workers`` resets)
DEFAULT_AHEAD = 4
#: how often (s) the env, waiting for a case, checks that the worker is alive
POLL_S = 0.2
#: the env gives up on a worker that has not delivered a case for this long (s): one case takes
#: ~5-50 ms
GIVE_UP_S = 60.0
#: how often (s) an idle worker checks that the env's process is still alive
PARENT_CHECK_S = 1.0
#: how long (s) ``close()`` waits for a worker to stop before terminating it
STOP_S = 2.0
#: most case workers an env may have
MAX_CASE_WORKERS = 32


def in_daemonic_process() -> bool:
    """Whether this process is daemonic (a ``SubprocVecEnv`` or ``Pool`` worker): it cannot
    start the case workers."""
    return multiprocessing.current_process().daemon


def draw_case_seed(rng: np.random.Generator) -> int:
    """The case seed of a generated case: the first draw of a reset from the env's generator."""
    return int(rng.integers(CASE_SEED_BOUND))


class CaseChain:
    """The case seeds of the coming resets, if every game leaves the generator as its deal did.

    ``next()`` returns ``(case seed, generator state after that reset's deal)``: the reset's
    draws are :func:`draw_case_seed`, then the deal's :func:`draw_deck_order` (of ``deck_size``
    cards: a generated case has exactly that many) and :func:`draw_start` — the functions
    ``CaseSource`` and ``new_game`` call.
    """

    def __init__(self, state: dict[str, Any], num_players: int, deck_size: int) -> None:
        bit_generator = getattr(np.random, state["bit_generator"])()
        bit_generator.state = state
        self._rng = np.random.Generator(bit_generator)
        self.num_players, self.deck_size = num_players, deck_size

    def next(self) -> tuple[int, dict[str, Any]]:
        seed = draw_case_seed(self._rng)
        draw_deck_order(self._rng, self.deck_size)
        draw_start(self._rng, self.num_players)
        return seed, self._rng.bit_generator.state


class _WorkerChain:
    """A worker's view of the current chain: its positions ``index, index + workers, …`` below
    ``limit`` are to be generated."""

    def __init__(self, index: int, workers: int, epoch: int, chain: CaseChain, limit: int) -> None:
        self.index, self.workers = index, workers
        self.epoch, self.chain, self.limit = epoch, chain, limit
        self.position, self.seed = -1, -1
        self.advance()

    @property
    def has_work(self) -> bool:
        """Whether this worker's next position is below the limit."""
        return self.position < self.limit

    def advance(self) -> None:
        """On to this worker's next position."""
        while True:
            self.seed, _ = self.chain.next()
            self.position += 1
            if self.position % self.workers == self.index:
                return


def _work(
    index: int,
    workers: int,
    level: str,
    deck_size: int,
    num_players: int,
    commands: Any,
    out: Any,
) -> None:  # pragma: no cover - runs in the worker process (tested through the env)
    """A worker. Commands (oldest first): ``("chain", epoch, state, limit)`` a new chain;
    ``("limit", epoch, limit)`` generate up to that position; ``None`` stop. Cases go to the
    pipe ``out`` as ``(epoch, position, seed, case)``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the env's process's to handle
    current: _WorkerChain | None = None
    while True:
        busy = current is not None and current.has_work
        pending = [] if busy else [_wait_for_command(commands)]  # (nothing to do: wait)
        with contextlib.suppress(queue.Empty):  # and every other command that has arrived
            while True:
                pending.append(commands.get_nowait())
        for command in pending:
            if command is None:
                out.close()
                return
            if command[0] == "chain":
                _, epoch, state, limit = command
                chain = CaseChain(state, num_players, deck_size)
                current = _WorkerChain(index, workers, epoch, chain, limit)
            elif current is not None and command[1] == current.epoch:
                current.limit = command[2]
        if current is not None and current.has_work:
            seed = current.seed
            case = generate_case(level, seed, deck_size)
            try:
                out.send((current.epoch, current.position, seed, case))
            except OSError:  # the env closed its end: it is gone
                return
            current.advance()


def _wait_for_command(commands: Any) -> Any:  # pragma: no cover - runs in the worker process
    """The next command; ``None`` (stop) if the env's process has died meanwhile (killed: it
    could not say so)."""
    parent = multiprocessing.parent_process()
    while True:
        try:
            return commands.get(timeout=PARENT_CHECK_S)
        except queue.Empty:
            if parent is not None and not parent.is_alive():
                return None


class CasePrefetcher:
    """``workers`` processes generating the chain's cases (see the module docstring)."""

    def __init__(
        self, level: str, deck_size: int, num_players: int, workers: int, ahead: int = DEFAULT_AHEAD
    ) -> None:
        self.level, self.deck_size, self.num_players = level, deck_size, num_players
        self.workers, self.ahead = workers, ahead
        #: resets served from the workers / that drew a case seed the env generated itself
        self.hits = 0
        self.misses = 0
        self._procs: list[Any] = []
        self._commands: list[Any] = []
        self._out: list[Any] = []
        self._failed = False
        self._epoch = 0
        self._chain: CaseChain | None = None
        self._position = 0  # the chain position of the next reset
        self._limit = 0  # the workers generate the chain's positions below this
        self._next: tuple[int, dict[str, Any]] | None = None  # its (seed, state after its deal)
        self._expected: dict[str, Any] | None = None  # the state the last served reset leaves
        self._ready: tuple[tuple[int, int], Any] | None = None  # ((epoch, position), case)
        self._last_hit = False  # whether the last reset that drew a case seed was served

    # -- the env's two calls ---------------------------------------------------------------

    def take(self, seed: int) -> Any:
        """The case of ``seed`` from the workers if it is the chain's next one, else ``None``
        (the caller generates it)."""
        self._expected = None
        case = None
        if self._next is not None and self._next[0] == seed:
            case = self._receive(self._position, seed)
        self._last_hit = case is not None
        if case is None:
            self._chain = self._next = None
            self.misses += 1
            return None
        self._expected = self._next[1]
        self._position += 1
        self._next = self._chain.next()
        self.hits += 1
        if self._limit - self._position < self._window:  # (raised in steps of the window:
            self._limit = self._position + 2 * self._window  # each command wakes a thread)
            self._send_all(("limit", self._epoch, self._limit))
        return case

    def dealt(self, rng: np.random.Generator) -> None:
        """After a deal from ``rng`` (the env's generator): keep the chain if ``rng`` is where
        it predicted, else start a new chain from ``rng``."""
        expected, self._expected = self._expected, None
        if self._failed:
            return
        state = rng.bit_generator.state
        if expected is not None and state == expected:  # (set only by a hit on this chain)
            return
        self._start_chain(state)

    def wait_ready(self) -> bool:
        """Block until the next reset's case is ready, if the chain predicts one (benchmarks
        call it so that the workers' start-up is not timed); whether one is ready."""
        if self._next is None or not self._procs:
            return False
        if self._ready is None or self._ready[0] != (self._epoch, self._position):
            case = self._receive(self._position, self._next[0])
            if case is None:
                return False
            self._ready = ((self._epoch, self._position), case)
        return True

    # -- workers ----------------------------------------------------------------------------

    @property
    def _window(self) -> int:
        """Resets the workers may run ahead of the env once the chain has been right."""
        return self.ahead * self.workers

    def _start_chain(self, state: dict[str, Any]) -> None:
        if not self._procs and not self._start_workers():
            return
        self._drain()
        self._epoch += 1
        # after a reset the chain served, run ahead at once; after one it missed, generate only
        # the next reset's case until the chain is right again
        self._limit = self._window if self._last_hit else 1
        self._send_all(("chain", self._epoch, state, self._limit))
        self._chain = CaseChain(state, self.num_players, self.deck_size)
        self._position = 0
        self._next = self._chain.next()
        self._expected = None
        self._ready = None

    def _start_workers(self) -> bool:
        if in_daemonic_process():
            self._fail("a daemonic process (e.g. a SubprocVecEnv or Pool worker) cannot start them")
            return False
        ctx = multiprocessing.get_context("forkserver")
        try:
            for index in range(self.workers):
                commands = ctx.Queue()
                commands.cancel_join_thread()  # (a command to a dead worker never blocks an exit)
                reader, writer = ctx.Pipe(duplex=False)
                proc = ctx.Process(
                    target=_work,
                    args=(index, self.workers, self.level, self.deck_size, self.num_players)
                    + (commands, writer),
                    daemon=True,
                    name=f"parlour-case-worker-{index}",
                )
                try:
                    proc.start()
                except BaseException:  # (this worker's queue and pipe: never kept)
                    commands.close()
                    reader.close()
                    writer.close()
                    raise
                self._commands.append(commands)
                self._out.append(reader)
                self._procs.append(proc)
                writer.close()  # the worker holds the only write end: its death ends the pipe
        except Exception as e:  # (e.g. a script without a __main__ guard, no more processes)
            self._fail(f"they could not be started ({type(e).__name__}: {e})")
            return False
        return True

    def _send_all(self, command: tuple) -> None:
        for commands in self._commands:
            commands.put(command)

    def _drain(self) -> None:
        """Drop the cases the workers have sent so far (a new chain makes them all stale)."""
        for reader in self._out:
            self._drain_one(reader)

    @staticmethod
    def _drain_one(reader: Any) -> None:
        try:
            while reader.poll(0):
                reader.recv()
        except (EOFError, OSError):
            pass  # (a dead worker: found when its next case is awaited)

    def _receive(self, position: int, seed: int) -> Any:
        """The worker's case of ``position`` of this chain (checked to be the case of ``seed``),
        or ``None`` if the worker failed."""
        if self._ready is not None:
            key, case = self._ready
            self._ready = None
            if key == (self._epoch, position):
                return case
        worker = position % self.workers
        reader, waited = self._out[worker], 0.0
        while True:
            try:
                if not reader.poll(POLL_S):
                    waited += POLL_S
                    if waited >= GIVE_UP_S or not self._procs[worker].is_alive():
                        self._fail(f"case worker {worker} stopped or stalled")
                        return None
                    continue
                epoch, got, got_seed, case = reader.recv()
            except (EOFError, OSError):  # the worker died, perhaps mid-case
                self._fail(f"case worker {worker} stopped")
                return None
            if epoch == self._epoch and got == position:
                if got_seed != seed or case.seed != seed:  # pragma: no cover - never observed
                    return None
                return case
            if epoch == self._epoch and got > position:  # pragma: no cover - never observed
                return None  # (positions are served in order: a gap means a lost case)
            # a case of an earlier chain (or of a position already passed): dropped

    def _fail(self, why: str) -> None:
        warnings.warn(
            f"case_workers: {why}; this env generates its cases itself from now on",
            RuntimeWarning,
            stacklevel=5,
        )
        self._failed = True  # (first: whatever close() meets, the env generates its cases)
        self.close()

    def close(self) -> None:
        """Stop the workers (a later reset starts new ones, unless a worker failed)."""
        for commands in self._commands:
            with contextlib.suppress(OSError, ValueError):  # (a queue already closed)
                commands.put(None)
        deadline = time.monotonic() + STOP_S
        for proc, reader in zip(self._procs, self._out, strict=True):
            while proc.is_alive() and time.monotonic() < deadline:
                self._drain_one(reader)  # (a worker blocked on a full pipe reads its stop)
                proc.join(POLL_S / 10)
            if proc.is_alive():  # pragma: no cover - a worker stuck in a case
                proc.terminate()
                proc.join()
        for commands in self._commands:
            commands.close()
        for reader in self._out:
            reader.close()
        self._procs, self._commands, self._out = [], [], []
        self._chain, self._next, self._expected, self._ready = None, None, None, None

    def __del__(self) -> None:
        if getattr(self, "_procs", None):
            self.close()

    # -- copies get their own workers ----------------------------------------------------

    def __getstate__(self) -> dict[str, Any]:
        return {
            "args": (self.level, self.deck_size, self.num_players, self.workers, self.ahead),
            "failed": self._failed,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(*state["args"])  # type: ignore[misc]
        self._failed = state["failed"]
