"""Games as plug-ins: the :class:`Game` protocol, and the registry that finds games.

Nothing generic in parlour (training, evaluation, tournaments, reports, ``parlour play``, the
web page) knows a game: each command resolves the game once, where it starts
(:func:`get_game`), and passes the :class:`Game` down. Everything game-specific outside
``parlour.envs`` lives in the game's plug-in package:

| game | plug-in | env | players | baselines |
|---|---|---|---|---|
| ``audition`` | :mod:`parlour.games.audition` | :func:`parlour.envs.audition.env.raw_env` | 2–6 | ``random``, ``audition.greedy``, ``audition.expert`` |
| ``guests`` | :mod:`parlour.games.guests` | :func:`parlour.envs.awkward_guests.env.raw_env` | 1–8 | ``random``, ``guests.deducer`` |

The built-in games register exactly as a third-party game does: through the ``parlour.games``
entry-point group of parlour's own ``pyproject.toml``.

A :class:`Game`
---------------

The core is what every command needs; the optional parts are separate, separately typed objects
(:mod:`parlour.games.parts`, :mod:`parlour.games.ui`):

| field | meaning |
|---|---|
| ``name`` | the registry name (letters, digits, ``_``, ``.``, ``-``) |
| ``make_env`` | the raw AEC env's constructor, called as ``make_env(**{players_option: n}, **options)`` |
| ``min_players``, ``max_players`` | the seat range |
| ``players_option`` | ``make_env``'s argument for the player count (default ``num_players``) |
| ``baselines`` | agent specs to measure a learner against, weakest first (default ``random``) |
| ``agents`` | the game's own agents: spec name -> ``builder(spec, seed, **options) -> Agent`` (options are the spec's ``name:key=value`` strings; a builder that takes ``trust`` gets ``--trust-model``) |
| ``configurations`` | (players, env options) pairs every cross-game test runs |
| ``hidden_redeal`` | ``function(raw_env, seat, rng)``: changes only what ``seat`` may not see (the leak tests check that ``seat``'s observation is unchanged by it) |
| ``training`` | :class:`~parlour.games.parts.Training`: features, policy, shaping, training-only options, batched self-play |
| ``evaluation`` | :class:`~parlour.games.parts.Evaluation`: statistics and report columns, batched tournaments |
| ``terminal`` | a :class:`~parlour.games.ui.TerminalUI` (``parlour play``); ``None``: not playable in the terminal |
| ``web`` | a :class:`~parlour.games.ui.WebUI` (``parlour serve``); ``None``: the page uses the default hooks (the view as JSON, moves as buttons) when the game has a ``terminal`` part, and leaves it out otherwise |

A game is pickled into worker processes (tournaments, ``SubprocVecEnv``): its callables must be
module-level functions or classes.

Naming a game
-------------

Wherever a game is named (``game:`` in a training config, ``--game`` of ``parlour eval``, the
game of ``parlour play``):

| name | resolves to |
|---|---|
| ``NAME`` of an entry point | ``[project.entry-points."parlour.games"]`` ``NAME = "pkg.module:GAME"`` of an installed package (parlour's own: ``audition``, ``guests``), loaded the first time ``NAME`` is asked for (:func:`all_games` loads them all) |
| ``NAME`` of a registered game | a game registered with :func:`register_game` in this process |
| ``pkg.module:ATTR`` | imports ``pkg.module``; ``ATTR`` is a :class:`Game`, registered on import |

Adding a game
-------------

A new game needs no edit of parlour: its env and one :class:`Game`, as the test game
``tests/games/countdown/`` shows (``docs/layout.md``, "Adding a game"). The smallest plug-in is

```python
GAME = register_game(Game(name="mygame", make_env=raw_env, min_players=2, max_players=4))
```

where ``raw_env`` returns a PettingZoo ``AECEnv`` with ``{"observation", "action_mask"}``
observations, ``player_view(agent)`` (what scripted agents and UIs read) and ``results()``
(``winners``, optionally ``scores`` and the game's statistics).

``make_raw_env(game, players, **options)`` returns the unwrapped AEC env (illegal actions raise
instead of ending the game, so a bug can never hide as a lost game).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from parlour.agents.model_document import add_class_source
from parlour.games.parts import Evaluation, Training, load_object
from parlour.games.ui import TerminalUI, WebUI

#: the entry-point group a package (parlour included) registers its games in
ENTRY_POINT_GROUP = "parlour.games"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")


@dataclass(frozen=True)
class Game:
    """A game: how to build its env, who plays it, and its optional parts (module docstring)."""

    #: the registry name (letters, digits, ``_``, ``.``, ``-``)
    name: str
    #: the raw AEC env's constructor
    make_env: Callable[..., Any]
    #: the seat range
    min_players: int
    max_players: int
    #: ``make_env``'s argument for the player count
    players_option: str = "num_players"
    #: agent specs to evaluate against, weakest first
    baselines: tuple[str, ...] = ("random",)
    #: the game's own agents: spec name -> builder(spec, seed, **options) -> Agent
    agents: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    #: (players, env options) pairs that every cross-game test (tests/conformance/) runs
    configurations: tuple[tuple[int, dict[str, Any]], ...] = ()
    #: function(raw_env, seat, rng): changes only what ``seat`` may not see
    hidden_redeal: Callable[..., None] | None = None
    #: training beyond the flat observation and SB3's policy
    training: Training = Training()
    #: evaluation beyond wins, scores and rewards
    evaluation: Evaluation = Evaluation()
    #: the ``parlour play`` UI (None: not playable in the terminal)
    terminal: TerminalUI | None = None
    #: the ``parlour serve`` page (None: the default hooks if the game has a terminal UI)
    web: WebUI | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _NAME.fullmatch(self.name):
            raise ValueError(
                f"Game name must be letters, digits, '_', '.' or '-' (no ':'), got {self.name!r}"
            )
        if not 1 <= self.min_players <= self.max_players:
            raise ValueError(
                f"Game {self.name}: need 1 <= min_players <= max_players, got "
                f"{self.min_players}..{self.max_players}"
            )

    @property
    def eval_baselines(self) -> tuple[str, ...]:
        """The agents of periodic evaluation during training: the training part's, else
        :attr:`baselines`."""
        return self.training.eval_baselines or self.baselines

    def option_defaults(self) -> dict[str, Any]:
        """The env's game options with their default values (from ``make_env``'s signature)."""
        return {
            name: p.default
            for name, p in inspect.signature(self.make_env).parameters.items()
            if p.default is not inspect.Parameter.empty and name != self.players_option
        }

    def evaluation_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """``options`` without the training-only ones (the game as it is evaluated)."""
        return {k: v for k, v in options.items() if k not in self.training.options}

    def split_options(self, options: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """``options`` split into (env options, wrapper options); wrapper options are checked.
        The reset source's own options (``Training.source_options``) are in neither."""
        env_options, wrapper = {}, {}
        for key, value in options.items():
            if key in self.training.wrapper_options:
                self.training.check_wrapper_option(key, value)
                wrapper[key] = value
            elif key not in self.training.source_options:
                env_options[key] = value
        return env_options, wrapper

    def source_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options ``Training.reset_source`` is built with: the env options and the
        reset source's own (``Training.source_options``)."""
        env_options, _ = self.split_options(options)
        own = {k: v for k, v in options.items() if k in self.training.source_options}
        return {**env_options, **own}


# -- the registry ---------------------------------------------------------------------------------

GAMES: dict[str, Game] = {}


def _entry_points(name: str | None = None) -> list[EntryPoint]:
    found = entry_points(group=ENTRY_POINT_GROUP)
    return sorted((ep for ep in found if name is None or ep.name == name), key=lambda e: e.name)


def _load_entry_point(ep: EntryPoint) -> Game:
    where = f"entry point {ep.name} = {ep.value!r} (group {ENTRY_POINT_GROUP})"
    try:
        game = ep.load()
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"{where} does not load: {exc}") from exc
    if not isinstance(game, Game):
        raise ValueError(f"{where} is a {type(game).__name__}, not a Game")
    if game.name != ep.name:
        raise ValueError(f"{where} names the game {game.name!r}: use that name for the entry point")
    return _add(game)


def _add(game: Game) -> Game:
    known = GAMES.get(game.name)
    if known is not None and known != game:
        raise ValueError(f"a different game is already registered as {game.name!r}")
    GAMES[game.name] = game
    return game


def register_game(game: Game) -> Game:
    """Add a game (a plug-in) to the registry; registering the same game twice is a no-op."""
    if not isinstance(game, Game):
        raise TypeError(f"register_game takes a Game, got {type(game).__name__}")
    if game.name not in GAMES:  # (an installed game's name is taken: load it to compare)
        for ep in _entry_points(game.name):
            _load_entry_point(ep)
    return _add(game)


def _from_module(reference: str) -> Game:
    try:
        game = load_object(reference)
    except ModuleNotFoundError as exc:
        raise ValueError(f"game {reference!r}: no module {exc.name!r}") from None
    except AttributeError:
        module = reference.partition(":")[0]
        raise ValueError(f"game {reference!r}: module {module} has no such attribute") from None
    if not isinstance(game, Game):
        raise ValueError(f"game {reference!r} is a {type(game).__name__}, not a Game")
    return register_game(game)


def get_game(game: Game | str) -> Game:
    """The :class:`Game` a command names: a registered or entry-point name, or
    ``"module:ATTR"`` (see the module docstring); a :class:`Game` is returned as is. Called
    once, where a command starts: everything below receives the object."""
    if isinstance(game, Game):
        return game
    if not isinstance(game, str) or not game:
        raise ValueError(f"game must be a game name or 'module:ATTR', got {game!r}")
    if ":" in game:
        return _from_module(game)
    if game not in GAMES:
        for ep in _entry_points(game):
            return _load_entry_point(ep)
        known = sorted({*GAMES, *(ep.name for ep in _entry_points())})
        raise ValueError(
            f"unknown game {game!r}; known games: {', '.join(known)} (or 'module:ATTR' naming "
            "a Game)"
        )
    return GAMES[game]


def all_games() -> list[Game]:
    """Every game: the installed ones (entry points, parlour's own first), then those registered."""
    installed = [GAMES.get(ep.name) or _load_entry_point(ep) for ep in _entry_points()]
    installed.sort(key=lambda g: g.make_env.__module__.split(".")[0] != "parlour")
    return installed + [game for game in GAMES.values() if game not in installed]


def require_game(game: Any, where: str) -> Game:
    """``game`` if it is a :class:`Game`; else a ``TypeError`` saying ``where`` takes one (below
    the entry points a game is an object: resolve a name once with :func:`get_game`)."""
    if not isinstance(game, Game):
        raise TypeError(f"{where} takes a Game (get_game(name)), got {type(game).__name__}")
    return game


def make_raw_env(game: Game, players: int, **options: Any) -> Any:
    """The raw AEC env of ``game`` for ``players`` seats with the game's ``options``
    (wrapper options are checked and left out: the training wrapper reads them)."""
    require_game(game, "make_raw_env")
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"players must be an int, got {players!r}")
    if not game.min_players <= players <= game.max_players:
        raise ValueError(
            f"players for {game.name} must be in {game.min_players}..{game.max_players}, "
            f"got {players}"
        )
    if game.players_option in options:
        raise ValueError(f"give the player count as players, not {game.players_option}")
    env_options, _ = game.split_options(options)
    return game.make_env(**{game.players_option: players}, **env_options)


def model_classes(kind: str) -> dict[str, type]:
    """The classes the installed games' training parts name, by class name, for ``kind``
    ``"policy"`` or ``"features_extractor"`` (what a model file may name: parlour's own code)."""
    found: dict[str, type] = {}
    for game in _loadable_games():
        reference = getattr(game.training, kind)
        if reference is not None:
            cls = load_object(reference)
            found.setdefault(cls.__name__, cls)
    return found


def _loadable_games() -> list[Game]:
    """Every game that loads: one broken third-party entry point must not stop a model file of
    another game from loading (:func:`all_games` raises for it, naming it)."""
    games = []
    for ep in _entry_points():
        try:
            games.append(GAMES.get(ep.name) or _load_entry_point(ep))
        except ValueError:
            continue
    return games + [game for game in GAMES.values() if game not in games]


add_class_source(model_classes)
