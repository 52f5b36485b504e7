"""Where an Awkward Guests env's cases come from: :class:`CaseSource`, shared by the AEC env
(:mod:`parlour.envs.awkward_guests.env`), the solo env and the OpenSpiel game.

| source | what a reset deals |
|---|---|
| ``cases="generated"`` | a fresh ``generate_case(level, seed, deck_size)``, ``seed`` drawn from the env's generator (``case_workers``: generated ahead by background processes, :mod:`.case_prefetch`) |
| ``cases="classic"`` | one of the bundled classic cases of ``level``, chosen by the generator |
| ``cases=[paths]`` | one of the given case files (verified once, in the constructor), chosen by the generator |
| ``case_bank=``, ``case_split=`` | the next case of the split's epoch (:mod:`.case.bank`; docs/case_banks.md): a seeded reset draws a new permutation of the split, unseeded resets deal it in order, each case once, then a new permutation |
| ``reset(options={"case": ...})`` | the given case (the bank's epoch stays where it was) |
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import numpy as np

from parlour.envs._checks import require_int

from . import game as G
from .case.bank import CaseBank, open_bank
from .case.case import LEVELS, Case, load_case
from .case.classic import CLASSIC_CASES, classic_case_paths
from .case.generator import MAX_DECK_SIZE, MIN_DECK_SIZE, generate_case
from .case.verify import verified_case
from .case_prefetch import (
    MAX_CASE_WORKERS,
    CasePrefetcher,
    draw_case_seed,
    in_daemonic_process,
)

__all__ = [
    "CASE_SOURCES",
    "DEFAULT_CASE_SPLIT",
    "DEFAULT_LEVEL",
    "CaseSource",
    "classic_cases",
]

CASE_SOURCES = ("generated", "classic")
#: the level of generated and classic cases when none is given (a case bank plays its own)
DEFAULT_LEVEL = "easy"
#: the split a case bank deals from when none is given
DEFAULT_CASE_SPLIT = "train"


@functools.lru_cache(maxsize=len(LEVELS))
def classic_cases(level: str) -> list[Case]:
    """The bundled classic cases of ``level`` (loaded and validated once per process)."""
    paths = [
        p for (_, lv, _), p in zip(CLASSIC_CASES, classic_case_paths(), strict=True) if lv == level
    ]
    try:
        cases = [load_case(p) for p in paths]
    except (OSError, ValueError) as e:
        raise ValueError(f"cases='classic': cannot load the classic cases ({e})") from e
    if not cases:
        raise ValueError(f"cases='classic': there is no classic case of level {level!r}")
    return cases


class CaseSource:
    """Validated case settings shared by the AEC env and the solo Gymnasium env."""

    def __init__(
        self,
        level: Any,
        cases: Any,
        deck_size: Any,
        case_workers: Any = 0,
        case_bank: Any = None,
        case_split: Any = DEFAULT_CASE_SPLIT,
    ) -> None:
        if level is not None and level not in LEVELS:
            raise ValueError(f"level must be one of {list(LEVELS)}, got {level!r}")
        self.deck_size = require_int("deck_size", deck_size, MIN_DECK_SIZE, MAX_DECK_SIZE)
        self.case_workers = require_int("case_workers", case_workers, 0, MAX_CASE_WORKERS)
        self._prefetcher: CasePrefetcher | None = None
        self.bank: CaseBank | None = None
        self.split = range(0)
        self.split_name: str | None = None
        #: the bank epoch: (the split's order, the position of the next case), None: a new one
        self._epoch: tuple[np.ndarray, int] | None = None
        if case_bank is not None:
            self._open_bank(level, cases, case_bank, case_split)
            level = self.bank.level
        elif case_split != DEFAULT_CASE_SPLIT:
            raise ValueError(f"case_split={case_split!r} needs a case_bank")
        self.level = DEFAULT_LEVEL if level is None else level
        self.fixed: list[Case] | None = None
        if isinstance(cases, str):
            if cases not in CASE_SOURCES:
                raise ValueError(
                    f"cases must be one of {list(CASE_SOURCES)} or a list of case file paths, "
                    f"got {cases!r}"
                )
            self.kind = "bank" if self.bank is not None else cases
            if cases == "classic":
                self.fixed = classic_cases(self.level)
        elif isinstance(cases, Path | Case):
            self.kind = "files"
            self.fixed = [self._load(cases, 0)]
        elif isinstance(cases, list | tuple):
            if not cases:
                raise ValueError("cases: the list of case files is empty")
            self.kind = "files"
            self.fixed = [self._load(c, i) for i, c in enumerate(cases)]
        else:
            raise ValueError(
                f"cases must be one of {list(CASE_SOURCES)} or a list of case file paths, "
                f"got {cases!r}"
            )

        if self.case_workers:
            if self.kind != "generated":
                raise ValueError(
                    "case_workers needs cases='generated' and no case_bank (the other case "
                    f"sources generate nothing), got cases={cases!r}, case_bank={case_bank!r}"
                )
            if in_daemonic_process():
                raise ValueError(
                    "case_workers must be 0 in a daemonic process (e.g. a SubprocVecEnv "
                    "worker): it cannot start the case workers"
                )

    def _open_bank(self, level: Any, cases: Any, case_bank: Any, case_split: Any) -> None:
        if not (isinstance(cases, str) and cases == "generated"):
            raise ValueError(
                f"case_bank deals the cases: cases must stay 'generated', got {cases!r}"
            )
        try:
            bank = open_bank(case_bank)
        except OSError as e:
            raise ValueError(f"case_bank: cannot read {case_bank!r} ({e})") from e
        if level is not None and level != bank.level:
            raise ValueError(
                f"level={level!r}, but the case bank {bank.path} holds {bank.level!r} cases "
                "(leave level out to play the bank's)"
            )
        if not isinstance(case_split, str):
            raise ValueError(f"case_split must be a split name, got {case_split!r}")
        self.split = bank.split(case_split)
        self.bank, self.split_name = bank, case_split

    def describe(self) -> dict[str, Any]:
        """Where the cases come from, for a run's report: the bank, its checksum and the
        split, or the source (``generated``, ``classic``, ``files``) and level."""
        if self.bank is not None:
            return {**self.bank.describe(), "case_split": self.split_name, "cases": len(self.split)}
        return {"cases": self.kind, "level": self.level}

    @staticmethod
    def _load(c: Any, i: int) -> Case:
        if isinstance(c, Case):  # built in Python: the caller's (see verify.py)
            return c
        if not isinstance(c, str | Path):
            raise ValueError(f"cases[{i}] must be a case file path, got {c!r}")
        try:
            return verified_case(c)
        except OSError as e:
            raise ValueError(f"cases[{i}]: cannot read the case file {str(c)!r} ({e})") from e
        except ValueError as e:
            raise ValueError(f"cases[{i}]: {e}") from e

    def pick(self, rng: np.random.Generator) -> Case:
        if self.fixed is not None:
            if len(self.fixed) == 1:
                return self.fixed[0]
            return self.fixed[int(rng.integers(len(self.fixed)))]
        seed = draw_case_seed(rng)
        case = self._prefetcher.take(seed) if self._prefetcher is not None else None
        return case if case is not None else generate_case(self.level, seed, self.deck_size)

    def _bank_pick(
        self, rng: np.random.Generator, restart: bool
    ) -> tuple[Case, tuple[np.ndarray, int]]:
        """The next case of the bank's epoch and the epoch after it (a new epoch, a permutation
        of the split drawn from ``rng``, when ``restart`` or the last one is used up)."""
        assert self.bank is not None
        epoch = None if restart else self._epoch
        if epoch is None or epoch[1] >= len(epoch[0]):
            epoch = (rng.permutation(len(self.split)), 0)
        order, at = epoch
        return self.bank.case(self.split.start + int(order[at])), (order, at + 1)

    def new_game(
        self,
        config: G.GuestsConfig,
        rng: np.random.Generator,
        options: dict[str, Any],
        restart: bool = False,
    ) -> G.GuestsState:
        """A reset's game: ``options["case"]`` or the next case of this source, dealt with
        ``rng`` (``options["deck"]`` / ``["start"]`` fix the deal). ``restart`` (a reset with a
        seed) starts a new epoch of the bank's split; the epoch advances only when the deal
        succeeded."""
        if self.case_workers and self._prefetcher is None:
            self._prefetcher = CasePrefetcher(
                self.level, self.deck_size, config.num_players, self.case_workers
            )
        epoch = self._epoch
        if options.get("case") is not None:
            case = G.resolve_case(options["case"])
        elif self.bank is not None:
            case, epoch = self._bank_pick(rng, restart)
        else:
            case = self.pick(rng)
        game = G.new_game(config, case, rng, deck=options.get("deck"), start=options.get("start"))
        self._epoch = epoch
        if self._prefetcher is not None:
            self._prefetcher.dealt(rng)
        return game

    def close(self) -> None:
        """Stop the case workers, if any (a later reset starts new ones)."""
        if self._prefetcher is not None:
            self._prefetcher.close()

    @property
    def prefetcher(self) -> CasePrefetcher | None:
        """The case workers' end (``case_workers``; ``None`` before the first reset or without
        workers): ``hits`` / ``misses`` count the resets served by the workers / generated in
        this process; ``wait_ready()`` blocks until the next reset's case is ready."""
        return self._prefetcher
