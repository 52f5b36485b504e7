"""The optional parts of a :class:`~parlour.games.Game`: training and evaluation.

A game needs none of them: without a :class:`Training` part it trains on the flat observation
with SB3's default policy and no shaping; without an :class:`Evaluation` part its tournaments
report wins, scores and rewards only. The user interfaces are parts too
(:mod:`parlour.games.ui`).

Every part is a plain object built from module-level functions and classes (a
:class:`~parlour.games.Game` is pickled into worker processes). The only names given as
``"module:ATTR"`` are the ones whose module imports torch or Stable-Baselines3
(:attr:`Training.features_extractor`, :attr:`Training.policy`, :attr:`Training.batched_vec_env`):
they load when training needs them, so ``parlour eval`` and ``parlour play`` never import torch.

:class:`Training`
-----------------

| field | meaning |
|---|---|
| ``eval_baselines`` | the cheap agent specs of periodic evaluation during training (the default ``eval.agents``; ``None``: the game's ``baselines``) |
| ``options`` | game options that shape training only: dropped for evaluation (:meth:`Game.evaluation_options <parlour.games.Game.evaluation_options>`) |
| ``wrapper_options`` | those of ``options`` the single-seat wrapper reads, not the env (reward-shaping weights ≥ 0) |
| ``source_options`` | those of ``options`` only the ``reset_source`` reads, not the env (Awkward Guests: ``case_levels``, a mix of levels to train on) |
| ``shaping`` | a class built with the wrapper options: a reward added to each learner step (:meth:`Training.shaper`) |
| ``features_extractor``, ``policy`` | ``"module:Class"``: the SB3 features extractor and the MaskablePPO policy (``None``: SB3's) |
| ``reset_source`` | ``function(env_options, seed, *, process=False, prefetch=None) -> source | None`` (``env_options`` with the ``source_options`` set): reset options prepared ahead of time; ``source()`` gives the next reset's options, ``source.close()`` stops it (Awkward Guests: prefetched cases, in a thread, or with ``process`` in a child process keeping ``prefetch`` ready) |
| ``batched_vec_env`` | ``"module:function(cfg) -> VecEnv | None"``: the game's batched self-play env (``vec_env: batched``) |
| ``multi_game`` | without a batched env of its own: ``vec_env: batched`` plays ``n_envs`` single-seat games in the trainer's process, network opponents decided in one forward pass (:mod:`parlour.train.multi_game`; Awkward Guests) |
| ``data_source`` | ``function(env_options) -> dict``: where the run's games come from, recorded in ``report.json`` as ``data`` (Awkward Guests: the case bank, its SHA-256 and split, or the generated cases' level) |

:class:`Evaluation`
-------------------

| field | meaning |
|---|---|
| ``statistics`` | :class:`Statistics`: the game's own numbers in tournaments, training logs and reports |
| ``batched_tournament`` | ``function(players, specs, seed, game_options, *, trust) -> Stepper | Lockstep | None``: how tournament games are played in batch (:mod:`parlour.games.stepping`; ``None``: one game at a time) |

| :class:`Statistics` hook | used by |
|---|---|
| ``game_keys``, ``seat_keys`` | the tournament: the final ``results()``' numbers per game and per seat |
| ``agent_stats(records, kind)``, ``tournament_stats(records)`` | the tournament result: per agent kind, and overall |
| ``agent_keys``, ``log_keys`` | training: the keys the learner's summaries keep, and those logged at each periodic evaluation |
| ``report_columns(solo)`` (``columns``), ``note``, ``solo_note``, ``solve_rate`` | the reports: extra table columns and the words around them |
| ``estimates`` (:class:`Estimate`), ``agent_estimates(records, kind)`` | the numbers shown with 95% intervals: the tournament result's ``agents[i].estimates`` (estimate entries of :mod:`parlour.games.intervals`: a share's Wilson interval, a mean's ``mean ± 1.96·sd/√n``) and the columns of ``parlour eval --compare`` (:mod:`parlour.eval.compare`), with ``estimates_note`` under them |
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.games.stepping import GameRecord


def load_object(path: str) -> Any:
    """The object ``"module:attr"`` names (the module is imported)."""
    module, sep, attr = path.partition(":")
    if not sep or not module or not attr:
        raise ValueError(f"expected 'module:attr', got {path!r}")
    return getattr(importlib.import_module(module), attr)


@dataclass(frozen=True)
class Column:
    """One extra column of the result tables: its header and the cell of an agent entry."""

    header: str
    #: the cell text of a tournament agent entry (or a training summary of one)
    cell: Callable[[Mapping[str, Any]], str]
    #: also in the solo tables (False: the column repeats the solve rate there)
    solo: bool = True


@dataclass(frozen=True)
class Estimate:
    """One of a game's per-agent numbers shown with its 95% interval (``parlour eval
    --compare``): the agent entry's ``estimates[key]``, an estimate entry
    (:mod:`parlour.games.intervals`)."""

    key: str
    header: str
    #: a share, shown as a percentage (else a mean, shown as a number)
    share: bool = True
    #: what its ``n`` counts, shown in the cell as "of n <counts>" ("": not shown)
    counts: str = ""
    #: also in the solo tables (False: it repeats the solve rate there)
    solo: bool = True


@dataclass(frozen=True)
class Statistics:
    """A game's own numbers in tournaments, training logs and reports (this base has none).

    A game with statistics subclasses it (:class:`parlour.games.guests.plugin.GuestsStatistics`):
    the tournament records ``game_keys`` and ``seat_keys`` from each game's final ``results()`` and
    asks :meth:`agent_stats` / :meth:`tournament_stats` for the numbers of its result; the
    training summaries copy ``agent_keys``, log ``log_keys``; the tables add ``columns``.
    """

    #: numbers of the final ``results()`` (``results[key]``), recorded per game; the result has ``mean_<key>``
    game_keys: tuple[str, ...] = ()
    #: per-agent numbers of the final ``results()`` (``results[key][agent]``), recorded per seat
    seat_keys: tuple[str, ...] = ()
    #: the keys :meth:`agent_stats` adds to an agent entry (copied into the training summaries)
    agent_keys: tuple[str, ...] = ()
    #: agent keys logged during training as ``eval/<key>_vs_<opponent>`` (numbers or None)
    log_keys: tuple[str, ...] = ()
    #: the extra table columns
    columns: tuple[Column, ...] = ()
    #: the note printed under a table that has the columns (explaining them)
    note: str = ""
    #: the note printed under a solo training table
    solo_note: str = ""
    #: what the solve rate of a solo game counts (the heading of a solo training report)
    solve_rate: str = "share of games won"
    #: the numbers :meth:`agent_estimates` gives, in the order of the comparison tables
    estimates: tuple[Estimate, ...] = ()
    #: the note printed under a comparison table that has the estimates (explaining them)
    estimates_note: str = ""

    def agent_stats(self, records: Sequence[GameRecord], kind: int) -> dict[str, Any]:
        """The numbers of agent kind ``kind`` over the seats it held in ``records``."""
        return {}

    def tournament_stats(self, records: Sequence[GameRecord]) -> dict[str, Any]:
        """Numbers of the whole tournament (besides the ``mean_<game key>`` averages)."""
        return {}

    def agent_estimates(self, records: Sequence[GameRecord], kind: int) -> dict[str, Any]:
        """Per key of :attr:`estimates`, the estimate entry (``{"value", "ci95", "n"}``,
        :mod:`parlour.games.intervals`) of agent kind ``kind`` over the seats it held."""
        return {}

    def estimate_columns(self, solo: bool) -> tuple[Estimate, ...]:
        """The estimates of a comparison table (``solo``: each agent alone)."""
        return tuple(e for e in self.estimates if e.solo or not solo)

    def report_columns(self, solo: bool) -> tuple[Column, ...]:
        """The columns of a table (``solo``: the learner and baselines each alone)."""
        return tuple(c for c in self.columns if c.solo or not solo)


@dataclass(frozen=True)
class Evaluation:
    """How a game is evaluated beyond wins, scores and rewards (module docstring)."""

    #: the game's own numbers in tournaments, training logs and reports
    statistics: Statistics = Statistics()
    #: how tournament games are played in batch: function(players, specs, seed, game_options, *,
    #: trust) -> Stepper | Lockstep | None (:mod:`parlour.games.stepping`); None: one at a time
    batched_tournament: Callable[..., Any] | None = None


@dataclass(frozen=True)
class Training:
    """How a game is trained beyond the flat observation and SB3's policy (module docstring)."""

    #: the cheap agent specs of periodic evaluation during training (None: the game's baselines)
    eval_baselines: tuple[str, ...] | None = None
    #: game options that shape training only (dropped for evaluation)
    options: tuple[str, ...] = ()
    #: those of ``options`` the single-seat wrapper reads (reward-shaping weights >= 0)
    wrapper_options: tuple[str, ...] = ()
    #: those of ``options`` only the reset source reads (neither the env nor the wrapper)
    source_options: tuple[str, ...] = ()
    #: a class built with the wrapper options: a reward added to each learner step
    shaping: Callable[..., Any] | None = None
    #: "module:Class", an SB3 features extractor (None: the flat observation)
    features_extractor: str | None = None
    #: "module:Class", the MaskablePPO policy used with the features (None: SB3's)
    policy: str | None = None
    #: function(env_options, seed, *, process=False, prefetch=None) -> source | None: training
    #: reset options prepared ahead (``source()``: the next reset's; ``source.close()``)
    reset_source: Callable[..., Any] | None = None
    #: "module:function(cfg) -> VecEnv | None": batched self-play training (None: per-game envs)
    batched_vec_env: str | None = None
    #: without ``batched_vec_env``: ``vec_env: batched`` runs many single-seat games in one process
    multi_game: bool = False
    #: function(env_options) -> dict: where the games come from (``report.json`` ``data``)
    data_source: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None

    def __post_init__(self) -> None:
        for key in self.wrapper_options:
            if key not in self.options:
                raise ValueError(f"wrapper option {key!r} must also be a training option")
        for key in self.source_options:
            if key not in self.options or key in self.wrapper_options:
                raise ValueError(
                    f"source option {key!r} must be a training option and not a wrapper option"
                )

    def extractor(self) -> type | None:
        """The SB3 features extractor class (None: SB3's default, the flat observation)."""
        return None if self.features_extractor is None else load_object(self.features_extractor)

    def policy_class(self) -> Any:
        """The policy for MaskablePPO (``"MlpPolicy"`` unless the game has its own)."""
        return "MlpPolicy" if self.policy is None else load_object(self.policy)

    def check_wrapper_option(self, key: str, value: Any) -> None:
        """Wrapper options are reward-shaping weights: real numbers >= 0."""
        if key not in self.wrapper_options:
            raise ValueError(f"no wrapper option {key!r} (known: {list(self.wrapper_options)})")
        if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
            raise ValueError(f"{key} must be a number >= 0, got {value!r}")

    def shaper(self, **wrapper_options: Any) -> Any:
        """The training reward shaping built with ``wrapper_options`` (None when all are 0)."""
        for key, value in wrapper_options.items():
            self.check_wrapper_option(key, value)
        if self.shaping is None or not any(wrapper_options.values()):
            return None
        return self.shaping(**wrapper_options)
