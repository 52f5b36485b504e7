"""Games as plug-ins: the :class:`GameSpec` of a game, and the registry that finds them.

Nothing generic in ``parlour.train`` (training, evaluation, tournaments, reports, ``parlour
play``) knows a game: each command resolves the game once (:func:`get_game`) and passes its
:class:`GameSpec` down. Everything game-specific outside ``parlour.envs`` lives in the game's own
module, which builds its spec and registers it:

| game | module | env | players | baselines | PPO features |
|---|---|---|---|---|---|
| ``audition`` | :mod:`parlour.games.audition.plugin` | ``parlour.envs.audition.env.raw_env`` | 2–6 | ``random``, ``audition.greedy``, ``audition.expert`` | ``AuditionFeatures`` |
| ``guests`` | :mod:`parlour.games.guests.plugin` | ``parlour.envs.awkward_guests.env.raw_env`` | 1–8 | ``random``, ``guests.deducer`` | ``GuestsFeatures`` + ``GuestsPolicy`` |

Naming a game
-------------

Wherever a game is named (``game:`` in a training config, ``--game`` of ``parlour eval``, the
game of ``parlour play``):

| name | resolves to |
|---|---|
| ``audition``, ``guests`` | the built-in games (their modules are imported on first use) |
| ``NAME`` of a registered game | a game registered with :func:`register_game` in this process |
| ``NAME`` of an entry point | a third-party package's ``[project.entry-points."parlour.games"]`` ``NAME = "pkg.module:SPEC"``, loaded the first time ``NAME`` is asked for (:func:`all_games` loads them all) |
| ``pkg.module:ATTR`` | imports ``pkg.module``; ``ATTR`` is a :class:`GameSpec`, registered on import |

Adding a game
-------------

A new game needs no edit of parlour: its env and one plug-in module, as the test game
``tests/games/countdown/`` shows:

| file | holds |
|---|---|
| ``rules.py`` | the pure rules (state, legal actions, apply, rewards) |
| ``env.py`` | the raw PettingZoo AEC env: observations ``{"observation": Box, "action_mask": int8}`` (the mask never all zero for the agent to act), ``player_view(agent)`` (what scripted agents and the terminal UI read), ``results()`` (a dict, at any time) with ``winners`` (a list of agents) and optionally ``scores`` (agent → number) and the game's statistics; ``infos`` hold no strings or lists (``{}``) |
| ``plugin.py`` | the :class:`GameSpec`, registered with :func:`register_game`; and what it names: scripted agents, a :class:`Statistics` subclass, a ``PlayUI`` subclass, the hidden redeal (a features extractor and policy if the game wants its own) |
| ``__init__.py`` | imports the plug-in, so importing the package registers the game |

A spec is pickled into worker processes (tournaments, ``SubprocVecEnv``): its callables must be
module-level functions or classes.

:class:`GameSpec` fields and hooks
---------------------------------

| field | meaning |
|---|---|
| ``name`` | the registry name |
| ``env_factory`` | ``"module:callable"`` returning the raw AEC env |
| ``min_players``, ``max_players`` | seat range; ``players_option`` is the factory's argument for it |
| ``baselines`` | agent specs to measure a learner against, weakest first |
| ``eval_baselines`` | the cheap ones used for periodic evaluation in training (the default ``eval.agents``) |
| ``training_options`` | game options that shape training only: dropped for evaluation (:meth:`GameSpec.evaluation_options`) |
| ``wrapper_options`` | training options read by the single-seat wrapper, not the env: ``make_raw_env`` checks them and leaves them out |
| ``shaping`` | ``"module:Class"`` built with the wrapper options: a reward added to each learner step (:meth:`GameSpec.shaper`) |
| ``features_extractor``, ``policy`` | ``"module:Class"``: the SB3 features extractor and the MaskablePPO policy (``None``: SB3's defaults) |
| ``configurations`` | (players, env options) pairs that every cross-game test runs |
| ``hidden_redeal`` | ``"module:function(raw_env, seat, rng) -> None"``: changes only what ``seat`` may not see (the conformance suite's leak test checks that ``seat``'s observation is unchanged by it) |
| ``agents`` | the plug-in's own scripted agents: spec name → ``"module:builder(spec, seed, **options) -> Agent"`` (:func:`parlour.agents.factory.make_agent`) |
| ``stats`` | :class:`Statistics`: the game's own numbers in tournaments, training logs and reports, and their table columns |
| ``play_ui`` | the ``parlour play`` UI class (:class:`parlour.apps.play.PlayUI`); ``None``: not playable in the terminal |
| ``batched_vec_env`` | ``"module:function(cfg) -> VecEnv | None"``: the game's batched self-play training env (``vec_env: batched`` in a config); ``None`` from the function (or no hook): the per-game envs are used |
| ``reset_source`` | ``"module:function(env_options, seed) -> (() -> dict) | None"``: reset options prepared ahead of time for training (Awkward Guests: prefetched cases, :mod:`parlour.games.guests.case_pool`); used by the training envs (``SingleSeatEnv(prefetch=True)``) |
| ``batched_tournament`` | ``"module:function(players, specs, jobs, seed, game_options, *, trust) -> list[GameRecord] | None"``: plays tournament games in batch (same records as the per-game path on the same deals; ``trust``: pickle-bearing model files may load, ``--trust-model``); ``None``: the per-game path |

Methods the generic code calls: :meth:`GameSpec.factory`, :meth:`~GameSpec.extractor`,
:meth:`~GameSpec.policy_class`, :meth:`~GameSpec.shaper`, :meth:`~GameSpec.evaluation_options`,
:meth:`~GameSpec.split_options`, :meth:`~GameSpec.option_defaults`.

| :class:`Statistics` hook | used by |
|---|---|
| ``game_keys``, ``seat_keys`` | the tournament: the final ``results()``' numbers per game and per seat, into each :class:`~parlour.eval.tournament.GameRecord` |
| ``agent_stats(records, kind)``, ``tournament_stats(records)`` | the tournament result: per agent kind, and overall |
| ``agent_keys``, ``log_keys`` | training: the keys the learner's summaries keep, and those logged at each periodic evaluation |
| ``report_columns(solo)`` (``columns``), ``note``, ``solo_note``, ``solve_rate`` | :mod:`parlour.eval.report`: the extra table columns and the words around them |

``make_raw_env(game, players, **options)`` returns the unwrapped AEC env (illegal actions raise
instead of ending the game, so a bug can never hide as a lost game).
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from parlour.apps.play import PlayUI
    from parlour.eval.tournament import GameRecord

#: the entry-point group a third-party package registers its games in
ENTRY_POINT_GROUP = "parlour.games"
#: the modules of the games that come with parlour (each registers its ``SPEC`` on import)
BUILTIN_GAMES: tuple[str, ...] = ("parlour.games.audition.plugin", "parlour.games.guests.plugin")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")


@dataclass(frozen=True)
class Column:
    """One extra column of the result tables: its header and the cell of an agent entry."""

    header: str
    #: the cell text of a tournament agent entry (or a training summary of one)
    cell: Callable[[Mapping[str, Any]], str]
    #: also in the solo tables (False: the column repeats the solve rate there)
    solo: bool = True


@dataclass(frozen=True)
class Statistics:
    """A game's own numbers in tournaments, training logs and reports (this base has none).

    A game with statistics subclasses it (:class:`parlour.games.guests.plugin.GuestsStatistics`):
    the tournament records ``game_keys`` and ``seat_keys`` from each game's final ``results()`` and asks
    :meth:`agent_stats` / :meth:`tournament_stats` for the numbers of its result; the training
    summaries copy ``agent_keys``, log ``log_keys``; the tables add ``columns``.
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

    def agent_stats(self, records: Sequence[GameRecord], kind: int) -> dict[str, Any]:
        """The numbers of agent kind ``kind`` over the seats it held in ``records``."""
        return {}

    def tournament_stats(self, records: Sequence[GameRecord]) -> dict[str, Any]:
        """Numbers of the whole tournament (besides the ``mean_<game key>`` averages)."""
        return {}

    def report_columns(self, solo: bool) -> tuple[Column, ...]:
        """The columns of a table (``solo``: the learner and baselines each alone)."""
        return tuple(c for c in self.columns if c.solo or not solo)


@dataclass(frozen=True)
class GameSpec:
    """How to build one game, which agents measure it and what it reports (module docstring)."""

    #: the registry name (letters, digits, ``_``, ``.``, ``-``)
    name: str
    #: "module:callable" returning the raw AEC env
    env_factory: str
    #: the seat range
    min_players: int
    max_players: int
    #: the env factory's argument for the player count
    players_option: str
    #: agent specs to evaluate against, weakest first
    baselines: tuple[str, ...]
    #: the cheap ones used for periodic evaluation in training
    eval_baselines: tuple[str, ...]
    #: options that shape training only (dropped for evaluation)
    training_options: tuple[str, ...] = ()
    #: "module:Class", an SB3 features extractor (None: the flat observation)
    features_extractor: str | None = None
    #: training options read by the single-seat wrapper, not the env
    wrapper_options: tuple[str, ...] = ()
    #: "module:Class" built with the wrapper options: a reward added to each learner step
    shaping: str | None = None
    #: "module:Class", the MaskablePPO policy used with the features (None: SB3's)
    policy: str | None = None
    #: (players, env options) pairs that every cross-game test (tests/conformance/) runs
    configurations: tuple[tuple[int, dict[str, Any]], ...] = ()
    #: "module:function(raw_env, seat, rng) -> None": changes only what ``seat`` may not see
    #: (the other seats' hidden cards, the deck order, a hidden solution); the conformance
    #: suite's leak test checks that ``seat``'s observation is unchanged by it
    hidden_redeal: str | None = None
    #: the plug-in's own scripted agents: spec name -> "module:builder(spec, seed, **options)"
    agents: Mapping[str, str] = field(default_factory=dict)
    #: the game's own numbers in tournaments, training logs and reports
    stats: Statistics = field(default_factory=Statistics)
    #: the ``parlour play`` UI (a :class:`parlour.apps.play.PlayUI` subclass), None: not playable
    play_ui: type[PlayUI] | None = None
    #: "module:function(env_options, seed) -> (() -> dict) | None": training reset options
    reset_source: str | None = None
    #: "module:function(cfg) -> VecEnv | None": batched self-play training (None: per-game envs)
    batched_vec_env: str | None = None
    #: "module:function(players, specs, jobs, seed, game_options) -> records | None": batched
    #: tournament games (None, or the function returning None: the per-game path)
    batched_tournament: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _NAME.fullmatch(self.name):
            raise ValueError(
                f"GameSpec name must be letters, digits, '_', '.' or '-' (no ':'), got {self.name!r}"
            )
        if not 1 <= self.min_players <= self.max_players:
            raise ValueError(
                f"GameSpec {self.name}: need 1 <= min_players <= max_players, got "
                f"{self.min_players}..{self.max_players}"
            )
        for key in self.wrapper_options:
            if key not in self.training_options:
                raise ValueError(
                    f"GameSpec {self.name}: wrapper option {key!r} must also be a training option"
                )

    def option_defaults(self) -> dict[str, Any]:
        """The env factory's game options with their default values (from its signature)."""
        import inspect

        return {
            name: p.default
            for name, p in inspect.signature(self.factory()).parameters.items()
            if p.default is not inspect.Parameter.empty and name != self.players_option
        }

    def policy_class(self) -> Any:
        """The policy for MaskablePPO (``"MlpPolicy"`` unless the game has its own)."""
        return "MlpPolicy" if self.policy is None else load_object(self.policy)

    def extractor(self) -> type | None:
        """The SB3 features extractor class (None: SB3's default, the flat observation)."""
        return None if self.features_extractor is None else load_object(self.features_extractor)

    def factory(self) -> Callable[..., Any]:
        return load_object(self.env_factory)

    def shaper(self, **wrapper_options: Any) -> Any:
        """The training reward shaping built with ``wrapper_options`` (None when all are 0)."""
        for key, value in wrapper_options.items():
            check_wrapper_option(self, key, value)
        if self.shaping is None or not any(wrapper_options.values()):
            return None
        return load_object(self.shaping)(**wrapper_options)

    def evaluation_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """``options`` without the training-only ones (the game as it is evaluated)."""
        return {k: v for k, v in options.items() if k not in self.training_options}

    def split_options(self, options: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """``options`` split into (env options, wrapper options); wrapper options are checked."""
        env_options, wrapper = {}, {}
        for key, value in options.items():
            if key in self.wrapper_options:
                check_wrapper_option(self, key, value)
                wrapper[key] = value
            else:
                env_options[key] = value
        return env_options, wrapper


def load_object(path: str) -> Any:
    """The object ``"module:attr"`` names (the module is imported)."""
    module, sep, attr = path.partition(":")
    if not sep or not module or not attr:
        raise ValueError(f"expected 'module:attr', got {path!r}")
    return getattr(importlib.import_module(module), attr)


def check_wrapper_option(spec: GameSpec, key: str, value: Any) -> None:
    """Wrapper options are reward-shaping weights: real numbers >= 0."""
    if key not in spec.wrapper_options:
        raise ValueError(f"{spec.name} has no wrapper option {key!r}")
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
        raise ValueError(f"{key} must be a number >= 0, got {value!r}")


def lazy_classes(module: str, builders: Mapping[str, Callable[[], type]]) -> Callable[[str], type]:
    """A module ``__getattr__`` (PEP 562) building the classes of ``builders`` on first access.

    A game module's PPO classes need torch (the ``train`` extra), which ``parlour play`` and
    ``parlour eval`` never import: the module defines them inside builder functions, and this
    builds each once, names it ``module.NAME`` (so models pickle it by that path) and stores it
    in the module.
    """

    def __getattr__(name: str) -> type:
        builder = builders.get(name)
        if builder is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        cls = builder()
        cls.__module__, cls.__qualname__, cls.__name__ = module, name, name
        setattr(sys.modules[module], name, cls)
        return cls

    return __getattr__


# -- the registry ---------------------------------------------------------------------------------

GAMES: dict[str, GameSpec] = {}
_builtins_loaded = False


def _load_builtins() -> None:
    global _builtins_loaded
    if not _builtins_loaded:
        _builtins_loaded = True  # (first: each module calls register_game on import)
        for module in BUILTIN_GAMES:
            importlib.import_module(module)


def register_game(spec: GameSpec) -> GameSpec:
    """Add a game (a plug-in) to the registry; registering the same spec twice is a no-op."""
    if not isinstance(spec, GameSpec):
        raise TypeError(f"register_game takes a GameSpec, got {type(spec).__name__}")
    _load_builtins()  # (first: a plug-in cannot take the name of a built-in game)
    known = GAMES.get(spec.name)
    if known is not None and known != spec:
        raise ValueError(f"a different game is already registered as {spec.name!r}")
    GAMES[spec.name] = spec
    return spec


def _entry_points(name: str | None = None) -> list[EntryPoint]:
    found = entry_points(group=ENTRY_POINT_GROUP)
    return [ep for ep in found if name is None or ep.name == name]


def _load_entry_point(ep: EntryPoint) -> GameSpec:
    where = f"entry point {ep.name} = {ep.value!r} (group {ENTRY_POINT_GROUP})"
    try:
        spec = ep.load()
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"{where} does not load: {exc}") from exc
    if not isinstance(spec, GameSpec):
        raise ValueError(f"{where} is a {type(spec).__name__}, not a GameSpec")
    if spec.name != ep.name:
        raise ValueError(f"{where} names the game {spec.name!r}: use that name for the entry point")
    return register_game(spec)


def _from_module(reference: str) -> GameSpec:
    try:
        spec = load_object(reference)
    except ModuleNotFoundError as exc:
        raise ValueError(f"game {reference!r}: no module {exc.name!r}") from None
    except AttributeError:
        module = reference.partition(":")[0]
        raise ValueError(f"game {reference!r}: module {module} has no such attribute") from None
    if not isinstance(spec, GameSpec):
        raise ValueError(f"game {reference!r} is a {type(spec).__name__}, not a GameSpec")
    return register_game(spec)


def get_game(game: GameSpec | str) -> GameSpec:
    """The spec of ``game``: a spec (returned as is), a registered or entry-point name, or
    ``"module:ATTR"`` (see the module docstring)."""
    if isinstance(game, GameSpec):
        return game
    if not isinstance(game, str) or not game:
        raise ValueError(f"game must be a game name or 'module:ATTR', got {game!r}")
    if ":" in game:
        return _from_module(game)
    _load_builtins()
    if game not in GAMES:
        for ep in _entry_points(game):
            return _load_entry_point(ep)
        known = sorted({*GAMES, *(ep.name for ep in _entry_points())})
        raise ValueError(
            f"unknown game {game!r}; known games: {', '.join(known)} (or 'module:ATTR' naming "
            "a GameSpec)"
        )
    return GAMES[game]


def all_games() -> list[GameSpec]:
    """Every game: the built-in ones, then those registered or found as entry points."""
    _load_builtins()
    for ep in _entry_points():
        if ep.name not in GAMES:
            _load_entry_point(ep)
    builtin = [importlib.import_module(module).SPEC for module in BUILTIN_GAMES]
    return builtin + [spec for spec in GAMES.values() if spec not in builtin]


def make_raw_env(game: GameSpec | str, players: int, **options: Any) -> Any:
    """The raw AEC env of ``game`` for ``players`` seats with the game's ``options``
    (wrapper options are checked and left out: the training wrapper reads them)."""
    spec = get_game(game)
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"players must be an int, got {players!r}")
    if not spec.min_players <= players <= spec.max_players:
        raise ValueError(
            f"players for {spec.name} must be in {spec.min_players}..{spec.max_players}, "
            f"got {players}"
        )
    if spec.players_option in options:
        raise ValueError(f"give the player count as players, not {spec.players_option}")
    env_options, _ = spec.split_options(options)
    return spec.factory()(**{spec.players_option: players}, **env_options)
