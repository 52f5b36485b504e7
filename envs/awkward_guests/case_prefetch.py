"""Case prefetch for the Awkward Guests envs: ``case_workers=k`` generates the next cases in ``k``
background processes, exactly the cases ``reset()`` would have generated itself.

A generated case costs 5–10 ms of CPU (``easy`` .. ``expert``), more than a whole 1–2-player
game of random play, so an env that plays many short games spends most of its time in
``reset()``. With ``case_workers`` the cases are generated ahead on other cores:

| step | what happens |
|---|---|
| the chain | after a deal, the env's generator is in a known state; if the game does not draw from it again (only a reshuffle of the discard pile does: rare with 1–4 players), the next ``reset()`` draws its case seed from that state, deals (a shuffle of ``deck_size`` cards, a start seat), and the one after draws from the state that leaves. :class:`CaseChain` computes those case seeds ahead: a few µs each, no case needed. |
| the workers | worker ``w`` generates the chain's cases ``w, w + k, w + 2k, …`` with ``generate_case(level, seed, deck_size)`` — the env's own call — and keeps up to ``ahead`` of them ready. |
| a reset | the env draws its case seed from its generator as always; if it is the seed the chain predicted next, the worker's case is used, else (a ``reset(seed=…)`` with a new seed, ``options`` that fix the case, deck or start seat, a reshuffle during the game) the env generates the case itself. After the deal the chain is checked against the generator and started again from it when they differ. |

So every game is the game ``case_workers=0`` plays (tests hold whole trajectories equal); only
the time changes. The chain is a prediction, never trusted: a case is used only for the exact
seed the env drew. The workers start at the first reset (``forkserver`` processes), stop at
``env.close()`` (and when the env is garbage-collected); a copy or pickle of the env gets its
own workers when it is first reset. A worker that dies makes the env warn once and generate its
cases itself from then on. A daemonic process (a ``SubprocVecEnv`` worker) cannot start
processes: ``case_workers`` is refused there.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import queue
import signal
import warnings
from typing import Any

import numpy as np

from .case.generator import generate_case
from .game.deal import draw_deck_order, draw_start

#: Generated cases get a seed drawn from ``0 .. CASE_SEED_BOUND - 1`` (the env's generator).
CASE_SEED_BOUND = 2**31 - 1
#: cases each worker keeps ready
DEFAULT_AHEAD = 4
#: how often (s) a blocked worker or env checks for news (a new chain, a dead worker)
POLL_S = 0.2
#: how long (s) ``close()`` waits for a worker to stop before terminating it
STOP_S = 2.0
#: most case workers an env may have
MAX_CASE_WORKERS = 32


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


def _work(
    index: int,
    workers: int,
    level: str,
    deck_size: int,
    num_players: int,
    commands: Any,
    out: Any,
) -> None:  # pragma: no cover - runs in the worker process (tested through the env)
    """A worker: for each chain it is sent (``(epoch, state)``; ``None`` stops it), generate the
    chain's cases ``index, index + workers, …`` into ``out`` as ``(epoch, position, seed, case)``
    until the next command arrives."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the env's process's to handle
    out.cancel_join_thread()  # on stop, cases still queued are dropped: never wait to flush them
    command = commands.get()
    while command is not None:
        epoch, state = command
        chain = CaseChain(state, num_players, deck_size)
        command = _serve_chain(chain, index, workers, level, epoch, commands, out)


def _serve_chain(
    chain: CaseChain, index: int, workers: int, level: str, epoch: int, commands: Any, out: Any
) -> Any:  # pragma: no cover - runs in the worker process
    """Generate this worker's cases of ``chain`` until a command arrives; return it."""
    position = -1
    while True:
        while True:  # on to this worker's next position
            seed, _ = chain.next()
            position += 1
            if position % workers == index:
                break
        item = (epoch, position, seed, generate_case(level, seed, chain.deck_size))
        while True:
            try:
                return commands.get_nowait()  # a new chain (or stop): the item is dropped
            except queue.Empty:
                pass
            try:
                out.put(item, timeout=POLL_S)  # waits while ``ahead`` cases are ready
                break
            except queue.Full:
                continue


class CasePrefetcher:
    """``workers`` processes generating the chain's cases (see the module docstring)."""

    def __init__(
        self, level: str, deck_size: int, num_players: int, workers: int, ahead: int = DEFAULT_AHEAD
    ) -> None:
        self.level, self.deck_size, self.num_players = level, deck_size, num_players
        self.workers, self.ahead = workers, ahead
        #: resets served from the workers / generated in the env's process (since the start)
        self.hits = 0
        self.misses = 0
        self._procs: list[Any] = []
        self._commands: list[Any] = []
        self._out: list[Any] = []
        self._failed = False
        self._epoch = 0
        self._chain: CaseChain | None = None
        self._position = 0  # the chain position of the next reset
        self._next: tuple[int, dict[str, Any]] | None = None  # its (seed, state after its deal)
        self._expected: dict[str, Any] | None = None  # the state the last served reset leaves
        self._ready: tuple[tuple[int, int], Any] | None = None  # ((epoch, position), case)

    # -- the env's two calls ---------------------------------------------------------------

    def take(self, seed: int) -> Any:
        """The case of ``seed`` from the workers if it is the chain's next one, else ``None``
        (the caller generates it)."""
        self._expected = None
        if self._chain is None or self._next is None or self._next[0] != seed:
            self._chain = None
            self.misses += 1
            return None
        case = self._receive(self._position)
        if case is None:
            self._chain = None
            self.misses += 1
            return None
        self._expected = self._next[1]
        self._position += 1
        self._next = self._chain.next()
        self.hits += 1
        return case

    def dealt(self, rng: np.random.Generator) -> None:
        """After a deal from ``rng`` (the env's generator): keep the chain if ``rng`` is where
        it predicted, else start a new chain from ``rng``."""
        expected, self._expected = self._expected, None
        if self._failed:
            return
        state = rng.bit_generator.state
        if self._chain is not None and expected is not None and state == expected:
            return
        self._start_chain(state)

    # -- workers ----------------------------------------------------------------------------

    def _start_chain(self, state: dict[str, Any]) -> None:
        if not self._procs:
            self._start_workers()
        self._epoch += 1
        for commands in self._commands:
            commands.put((self._epoch, state))
        self._chain = CaseChain(state, self.num_players, self.deck_size)
        self._position = 0
        self._next = self._chain.next()
        self._expected = None

    def _start_workers(self) -> None:
        ctx = multiprocessing.get_context("forkserver")
        for index in range(self.workers):
            commands, out = ctx.Queue(), ctx.Queue(maxsize=self.ahead)
            commands.cancel_join_thread()  # (a command to a dead worker never blocks an exit)
            proc = ctx.Process(
                target=_work,
                args=(index, self.workers, self.level, self.deck_size, self.num_players)
                + (commands, out),
                daemon=True,
                name=f"parlour-case-worker-{index}",
            )
            proc.start()
            self._procs.append(proc)
            self._commands.append(commands)
            self._out.append(out)

    def wait_ready(self) -> bool:
        """Block until the next reset's case is ready, if the chain predicts one (benchmarks
        call it so that the workers' start-up is not timed); whether one is ready."""
        if self._chain is None or not self._procs:
            return False
        if self._ready is None or self._ready[0] != (self._epoch, self._position):
            case = self._receive(self._position)
            if case is None:
                return False
            self._ready = ((self._epoch, self._position), case)
        return True

    def _receive(self, position: int) -> Any:
        if self._ready is not None:
            key, case = self._ready
            self._ready = None
            if key == (self._epoch, position):
                return case
        worker = position % self.workers
        while True:
            try:
                epoch, got, _seed, case = self._out[worker].get(timeout=POLL_S)
            except queue.Empty:
                if not self._procs[worker].is_alive():
                    self._fail(worker)
                    return None
                continue
            if epoch == self._epoch and got == position:
                return case
            if epoch == self._epoch and got > position:  # pragma: no cover - never observed
                return None  # (positions are served in order: a gap means a lost case)
            # a case of an earlier chain (or of a position already passed): dropped

    def _fail(self, worker: int) -> None:
        code = self._procs[worker].exitcode
        warnings.warn(
            f"case_workers: case worker {worker} stopped (exit code {code}); this env "
            "generates its cases itself from now on",
            RuntimeWarning,
            stacklevel=4,
        )
        self.close()
        self._failed = True

    def close(self) -> None:
        """Stop the workers (a later reset starts new ones, unless a worker failed)."""
        for commands in self._commands:
            with contextlib.suppress(OSError, ValueError):  # (a queue already closed)
                commands.put(None)
        for proc in self._procs:
            proc.join(STOP_S)
            if proc.is_alive():  # pragma: no cover - a worker stuck in a case
                proc.terminate()
                proc.join()
        for q in self._commands + self._out:
            q.close()
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
