"""``parlour_awkward_guests`` — Awkward Guests as an OpenSpiel game (a Python ``pyspiel.Game``).

```python
import numpy as np
import pyspiel
import parlour.openspiel

game = pyspiel.load_game("parlour_awkward_guests(players=3,level=medium)")
state = game.new_initial_state()
while not state.is_terminal():
    if state.is_chance_node():  # the deal's seed: 8 uniform bytes
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(np.random.choice(outcomes, p=probs)))
    else:
        state.apply_action(state.legal_actions()[0])
print(state.returns())
```

The rules are parlour's engine (:mod:`parlour.envs.awkward_guests.game`), dealt exactly as the
PettingZoo env ``awkward_guests_v1`` deals at ``reset(seed=S)`` (the same
:class:`~parlour.envs.awkward_guests.env.CaseSource`: the case from ``S``'s generator, then the
deck order and the start seat). Legal actions, observations and returns are the env's
(``tests/openspiel/test_guests_spiel.py`` plays both side by side, every seat's observation
compared at every step).

Parameters
----------

| parameter | default | values |
|---|---|---|
| ``players`` | 2 | 1..8 (1: the solo mode, the deck bids; GENERAL_SUM, see Returns; pyspiel takes one-player Python games: ``random_sim_test`` passes) |
| ``level`` | ``"easy"`` | ``beginner``, ``very_easy``, ``easy``, ``medium``, ``hard``, ``very_hard``, ``expert`` |
| ``cases`` | ``"generated"`` | ``"generated"`` (``generate_case(level, seed, deck_size)`` per game) or ``"classic"`` (one of the level's bundled classic cases) |
| ``deck_size`` | 70 | cards per generated case, 24..200 |
| ``max_rounds`` | 30 | 1..1000: the game is truncated after the Solution phase of that round (the bound keeps ``max_game_length`` an int) |
| ``observation_mode`` | ``"notebook"`` | ``"notebook"``, ``"deduced"``, ``"deduced_choices"``, ``"deduced_shares"``, ``"deduced_odds"`` (the env's; the ``deduced`` modes run the deduction engine per observer: slower) |
| ``case_bank`` | ``""`` (none) | a case bank's file or a shipped bank's name (a level): the game's case is the one ``reset(seed=S)`` deals from the bank, the first of the epoch ``S`` starts; ``level`` must be the bank's |
| ``case_split`` | ``"train"`` | the bank's split to deal from |

``params_of_env(num_players, options)`` gives the parameters of the env
``awkward_guests_v1.env(num_players, **options)`` (``case_workers`` and ``render_mode`` change
no game; ``seer`` and case files have no parameter).

Chance
------

All the randomness of a game is the env seed ``S`` (an int in ``0 .. 2**64-1``): the case, the
deck order and the start seat are drawn at the deal from ``numpy.random.default_rng(S)``, and
the engine keeps that generator for the reshuffles during play (copied with every clone,
serialization and pickle). So a game is a function of ``S`` and the players' actions, and the
game is EXPLICIT_STOCHASTIC with ``S`` drawn by chance:

| when | outcomes (chance action ids) | probabilities |
|---|---|---|
| the first 8 nodes of every game, before the first decision | byte ``k`` of ``S`` (little-endian), ``0..255`` | uniform (``S`` uniform over ``0 .. 2**64-1``); the deal is made when the 8th is applied |

``game.new_initial_state_for_seed(S, options=None)`` applies ``S``'s bytes: it is the same game
as ``awkward_guests_v1.raw_env(...).reset(seed=S, options=options)`` (``options``: the env's
``reset`` options ``case`` / ``deck`` / ``start``, for tests; with them the history no longer
determines the deal). ``state.history()[:8]`` holds ``S``; ``state.env_seed`` is ``S``.

Why not SAMPLED_STOCHASTIC with a game generator (``rng_seed``): in pyspiel 2.0 a Python game
cannot be one in practice. (1) OpenSpiel serializes a sampled-stochastic game with its RNG state
(``Game::GetRNGState``), which has no Python hook: ``serialize_game_and_state``, pickling and
``random_sim_test(serialize=True)`` fail with "GetRNGState unimplemented". (2) Every C++ tensor
call (``state.observation_tensor(p)`` asks ``game.ObservationTensorSize()``) makes and writes a
new initial state: a sampled game would deal a throwaway game there, a case generation (~15 ms)
and a seed taken from the game's generator, at every call. Chance nodes for the seed give the
same games with neither problem (before the deal, a state's tensors are zeros: free).

Player actions are the env's ``Discrete(95)`` (``REF``, ``CARD``, ``YES``, ``NO``, ``SUSPECT``,
``MOTIVE``, ``WEAPON``, ``NO_ACCOMPLICE``: :mod:`parlour.envs.awkward_guests.actions`); the legal
actions are the env's action mask.

Observations
------------

| call | what |
|---|---|
| ``observation_tensor(p)`` | the env's observation of seat ``p`` (2313 values in ``notebook`` mode: :mod:`parlour.envs.awkward_guests.observation`); the observer's ``dict`` has its named pieces (``players`` ``(8, 13)``, ``last_turns`` ``(8, 57)``, ``hand`` ``(32, 40)``, the others flat). All zeros before the deal (explicit chance nodes) |
| ``observation_string(p)`` | the public table (the env's ``ansi`` render), then ``p``'s hand (id, value, text), selection, pending decision and the number of cards in its notebook |
| ``information_state_string(p)`` | perfect recall, one line per event ``p`` noticed: the settings, then for every move that ``p`` made or that changed what ``p`` observes, the mover and its action (``?`` when ``p`` cannot see it: another seat's cards, accusation, payment, discard) and the observable fields that changed (public: phase, round, decider, active and start seat, who is out, whose turn is done, hand sizes, bids, the asked references, the last-turn records, pile sizes, the result; ``p``'s own: its hand, selection, the seats known to have seen each hand card, its pending decision, every card it sees — id and an 8-hex digest of its content, since card ids mean different cards in different cases) |
| ``information_state_tensor(p)`` | the observation tensor, then ``history``: the last 32 events of the string as rows of 106 (mover, egocentric one-hot of 8, or the deal; the action one-hot (95) when ``p`` saw it; hidden action; filled row) |

Why events and not moves: a move ``p`` cannot see adds nothing to ``p``'s information state, so
the number of moves another player took (a 1-step ``NO`` or a 6-step accusation, the number of
cards selected before a bid is made) never shows. The string holds no card ``p`` has not seen,
no seed, no solution; since every field the env's encoder reads is in it, the string determines
the observation (``tests/openspiel/test_guests_spiel.py`` checks both). The tensor is not a
perfect-recall key for games of more than 32 events (a fixed size for the whole of a game
of up to ``max_game_length`` moves would be millions of floats): use the string as a key.

Returns
-------

The env's rewards, paid at the end (reward model TERMINAL; ``rewards()`` are 0 until then):
``returns()`` is the engine's ``returns()`` at a terminal state (the truncation at
``max_rounds`` included), zeros before. 2+ players: ZERO_SUM (a winner ``+1``, a player who is
out ``-1/(n-1)``, shares in a draw or truncation), ``min_utility = -1/(n-1)``,
``max_utility = 1``. Solo: GENERAL_SUM (``+1 - 0.01 × rounds`` for a correct accusation,
``-1`` for a wrong one, ``0`` at the round limit), ``max_utility = 0.99``,
``min_utility = min(-1, 1 - 0.01 × max_rounds)``. The game type of an instance says so (the
registered type says ZERO_SUM).

``max_game_length`` is a bound on player decisions: per round ``n`` turns of at most ``4``
references, ``33`` offer steps per other seat, one answer per bid and ``32`` payments, then at
most ``6n`` accusation steps per Solution phase (at most ``n`` phases) and ``29`` discards per
seat.

Version history
---------------

| version | change |
|---|---|
| 1 | first release |
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from parlour.envs._checks import check_reset_options, is_int
from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests.case.bank import open_bank
from parlour.envs.awkward_guests.case.case import LEVELS
from parlour.envs.awkward_guests.case.generator import MAX_DECK_SIZE, MIN_DECK_SIZE
from parlour.envs.awkward_guests.case_source import CASE_SOURCES, DEFAULT_CASE_SPLIT, CaseSource
from parlour.envs.awkward_guests.env import RESET_OPTIONS
from parlour.envs.awkward_guests.observation import (
    N_SEATS,
    N_SLOTS,
    OBSERVATION_MODES,
    ObservationEncoder,
    make_layout,
)
from parlour.envs.awkward_guests.render import render_table
from parlour.openspiel.common import check_observation_type, game_type, named_tensor
from parlour.openspiel.guests_log import (
    _ACTION,
    _CARD_DECISIONS,
    _LINES,
    _MOVER,
    _PREV,
    _PRIVATE,
    _PUBLIC,
    _TASK,
    LogEntry,
    _action_seen,
    _flat_log,
    _line,
    _linked_log,
    _noticed,
    _private_view,
    _public_view,
    _task,
    _task_text,
)

GAME_NAME = "parlour_awkward_guests"
MAX_ROUNDS_LIMIT = 1000
DEFAULT_PARAMS: dict[str, Any] = {
    "players": 2,
    "level": "easy",
    "cases": "generated",
    "deck_size": 70,
    "max_rounds": G.DEFAULT_MAX_ROUNDS,
    "observation_mode": "notebook",
    "case_bank": "",
    "case_split": DEFAULT_CASE_SPLIT,
}

#: the env seed: SEED_DIGITS chance nodes of SEED_BASE outcomes (a byte each, little-endian)
SEED_DIGITS = 8
SEED_BASE = 256
SEED_BOUND = SEED_BASE**SEED_DIGITS  # 2**64

#: the information-state tensor's history: the last HISTORY_WINDOW events, rows of
#: mover (8 egocentric seats, the deal), action one-hot, hidden action, row filled
HISTORY_WINDOW = 32
_ROW_DEAL = N_SEATS
_ROW_ACTION = N_SEATS + 1
_ROW_HIDDEN = _ROW_ACTION + A.NUM_ACTIONS
_ROW_FILLED = _ROW_HIDDEN + 1
HISTORY_ROW = _ROW_FILLED + 1  # 106

#: the observation pieces that are tables, and their rows (the others are flat)
_PIECE_ROWS = {"players": N_SEATS, "last_turns": N_SEATS, "hand": N_SLOTS}


# ----------------------------------------------------------------------------- parameters


@dataclass(frozen=True)
class GuestsSettings:
    """The validated parameters of a ``parlour_awkward_guests`` game."""

    players: int
    level: str
    cases: str
    deck_size: int
    max_rounds: int
    observation_mode: str
    case_bank: str = ""
    case_split: str = DEFAULT_CASE_SPLIT

    @property
    def engine_config(self) -> G.GuestsConfig:
        return G.GuestsConfig(self.players, self.max_rounds)


def _bad(name: str, allowed: str, value: Any) -> ValueError:
    return ValueError(f"{GAME_NAME}: {name} must be {allowed}, got {value!r}")


def _int_param(p: dict[str, Any], name: str, low: int, high: int) -> int:
    value = p[name]
    if not is_int(value) or not low <= value <= high:
        raise _bad(name, f"an int in {low}..{high}", value)
    return int(value)


def _choice_param(p: dict[str, Any], name: str, allowed: tuple[str, ...]) -> str:
    value = p[name]
    if value not in allowed:
        raise _bad(name, f"one of {list(allowed)}", value)
    return str(value)


def config_of(params: dict[str, Any]) -> GuestsSettings:
    """The settings of the game parameters (``ValueError`` naming a bad one and its values)."""
    unknown = sorted(set(params) - set(DEFAULT_PARAMS))
    if unknown:
        raise ValueError(
            f"{GAME_NAME}: unknown parameter(s) {unknown}; parameters: {sorted(DEFAULT_PARAMS)}"
        )
    p = {**DEFAULT_PARAMS, **params}
    if not isinstance(p["case_bank"], str) or not isinstance(p["case_split"], str):
        raise _bad("case_bank and case_split", "strings", (p["case_bank"], p["case_split"]))
    return GuestsSettings(
        players=_int_param(p, "players", G.MIN_PLAYERS, G.MAX_PLAYERS),
        level=_choice_param(p, "level", tuple(LEVELS)),
        cases=_choice_param(p, "cases", CASE_SOURCES),
        deck_size=_int_param(p, "deck_size", MIN_DECK_SIZE, MAX_DECK_SIZE),
        max_rounds=_int_param(p, "max_rounds", 1, MAX_ROUNDS_LIMIT),
        observation_mode=_choice_param(p, "observation_mode", OBSERVATION_MODES),
        case_bank=p["case_bank"],
        case_split=p["case_split"],
    )


#: the env's options that are game parameters (same name), and those that change no game
_ENV_PARAMS = (
    "level",
    "cases",
    "observation_mode",
    "deck_size",
    "max_rounds",
    "case_bank",
    "case_split",
)
_ENV_NO_GAME = ("case_workers", "render_mode")


def params_of_env(num_players: int, options: dict[str, Any]) -> dict[str, Any]:
    """The game parameters of the PettingZoo env ``awkward_guests_v1.env(num_players,
    **options)``: ``level`` (a case bank's, when only the bank is given), ``cases`` (``generated``
    / ``classic``), ``case_bank``, ``case_split``, ``observation_mode``,
    ``deck_size``, ``max_rounds``; ``case_workers`` and ``render_mode`` change no game and are
    left out; anything else (``seer``, case files) has no game parameter: ``ValueError``."""
    unknown = sorted(set(options) - set(_ENV_PARAMS) - set(_ENV_NO_GAME))
    if unknown:
        raise ValueError(f"params_of_env: no {GAME_NAME} parameter for env option(s) {unknown}")
    cases = options.get("cases", "generated")
    if not isinstance(cases, str) or cases not in CASE_SOURCES:
        raise ValueError(
            f"params_of_env: cases must be one of {list(CASE_SOURCES)} (case files are no "
            f"{GAME_NAME} parameter), got {cases!r}"
        )
    params = {"players": num_players, **{k: options[k] for k in _ENV_PARAMS if k in options}}
    if options.get("case_bank") is not None and "level" not in options:
        params["level"] = open_bank(options["case_bank"]).level  # (the env plays the bank's)
    if params.get("case_bank") is None:
        params.pop("case_bank", None)
    elif not isinstance(params["case_bank"], str):
        params["case_bank"] = str(params["case_bank"])  # (a path)
    return params


def max_game_length(players: int, max_rounds: int) -> int:
    """A bound on the player decisions of a game (see the module docstring)."""
    n = players
    hand = G.MAX_HAND
    turn = 4 + (hand + 1) * (n - 1) + max(n - 1, 1) + hand
    per_round = n * turn + 6 * n * n + (hand - G.KEEP_AFTER_DISCARD) * n
    return per_round * max_rounds


def utility_range(players: int, max_rounds: int) -> tuple[float, float]:
    """(min_utility, max_utility) of the engine's returns."""
    if players == 1:
        return min(-1.0, 1.0 - G.SOLO_ROUND_PENALTY * max_rounds), 1.0 - G.SOLO_ROUND_PENALTY
    return -1.0 / (players - 1), 1.0


def _game_type(
    utility: pyspiel.GameType.Utility = pyspiel.GameType.Utility.ZERO_SUM,
) -> pyspiel.GameType:
    return game_type(
        GAME_NAME,
        "parlour Awkward Guests: The Walton Case",
        (G.MIN_PLAYERS, G.MAX_PLAYERS),
        DEFAULT_PARAMS,
        utility,
    )


def pieces(observation_mode: str = "notebook") -> dict[str, tuple[int, ...]]:
    """The named pieces of the observation tensor and their shapes, in order."""
    out: dict[str, tuple[int, ...]] = {}
    for name, sl in make_layout(observation_mode).items():
        size = sl.stop - sl.start
        rows = _PIECE_ROWS.get(name)
        out[name] = (rows, size // rows) if rows else (size,)
    return out


# ----------------------------------------------------------------------------- the deal


class _LazyRng:
    """The engine's generator, held as its state (a dict) and rebuilt only when the engine
    draws from it (a reshuffle): copying a state copies a reference, not a generator
    (``copy.deepcopy`` of a NumPy generator takes ~55 µs). Pickling keeps the state."""

    __slots__ = ("_state", "_gen")

    def __init__(self, state: dict[str, Any]) -> None:
        self._state: dict[str, Any] | None = state
        self._gen: np.random.Generator | None = None

    def _generator(self) -> np.random.Generator:
        if self._gen is None:
            bit_generator = getattr(np.random, self._state["bit_generator"])()
            bit_generator.state = self._state
            self._gen = np.random.Generator(bit_generator)
            self._state = None
        return self._gen

    def snapshot(self) -> dict[str, Any]:
        """The generator's state now (never changed in place: copies share it)."""
        return self._state if self._gen is None else self._gen.bit_generator.state

    def __getattr__(self, name: str) -> Any:
        return getattr(self._generator(), name)

    def __deepcopy__(self, memo: dict) -> _LazyRng:
        return _LazyRng(self.snapshot())

    def __reduce__(self) -> tuple:
        return (_LazyRng, (self.snapshot(),))


class _Dealer:
    """What a game deals from: the table and the case source (as the env's)."""

    def __init__(self, settings: GuestsSettings) -> None:
        self.config = settings.engine_config
        self.source = CaseSource(
            settings.level,
            settings.cases,
            settings.deck_size,
            case_bank=settings.case_bank or None,
            case_split=settings.case_split,
        )

    def deal(self, seed: int, options: dict[str, Any] | None = None) -> G.GuestsState:
        """The env's ``reset(seed=seed, options=options)`` deal."""
        options = check_reset_options(options, RESET_OPTIONS)
        rng = np.random.default_rng(seed)
        engine = self.source.new_game(self.config, rng, options, restart=True)
        engine.rng = _LazyRng(rng.bit_generator.state)
        return engine


# ----------------------------------------------------------------------------- the state


@dataclass
class _Play:
    """Everything a game of ``parlour_awkward_guests`` holds (one attribute of the state:
    OpenSpiel clones a Python state by deep-copying its attributes, and this copy is the fast
    one: the engine's own ``clone``, the log shared)."""

    engine: G.GuestsState | None = None  # None before the deal
    seed: int | None = None  # the env seed, once known
    digits: tuple[int, ...] = ()  # the seed's bytes drawn so far
    options: dict[str, Any] | None = None  # new_initial_state_for_seed's reset options
    log: tuple | None = None  # the newest node of the game's log
    #: per seat, (hand_version, notebook size) when its private view was last made
    keys: tuple[tuple[int, int], ...] = ()

    def deal(self, dealer: _Dealer, seed: int) -> None:
        options, self.options = self.options, None
        self.engine = dealer.deal(seed, options)
        self.seed = seed
        self.keys = ((-1, -1),) * self.engine.num_players
        self.log_move(-1, G.D_NONE, -1, -1)

    def log_move(self, mover: int, decision: int, action: int, card: int) -> None:
        """Add the move just made to the log, with the views after it (``mover`` -1: the
        deal; ``card``: the id of the card a ``CARD`` action picked, else -1)."""
        eng = self.engine
        head = self.log
        public = _public_view(eng)
        if head is None:
            privates = [None] * eng.num_players
        else:
            if public == head[_PUBLIC]:
                public = head[_PUBLIC]  # (reused: "is" tells a change)
            privates = list(head[_PRIVATE])
        keys = list(self.keys)
        current = eng.current
        version = eng.hand_version
        seen_log = eng.seen_log
        for p, old in enumerate(privates):
            key = (version[p], len(seen_log[p]))
            if key == keys[p] and p != current and old[_TASK] is None:
                continue  # (nothing of p's changed)
            keys[p] = key
            privates[p] = _private_view(eng, p, old)
        self.keys = tuple(keys)
        lines = [None] * len(privates)
        self.log = (head, mover, decision, action, card, public, tuple(privates), lines)

    def __deepcopy__(self, memo: dict) -> _Play:
        new = _Play.__new__(_Play)  # (not copy.copy: that would pickle the log)
        new.__dict__.update(self.__dict__)
        if self.engine is not None:
            new.engine = self.engine.clone()
        return new

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["log"] = _flat_log(self.log)  # (pickling a long linked list would recurse)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state = dict(state)
        state["log"] = _linked_log(state["log"])
        self.__dict__.update(state)


class GuestsSpielGame(pyspiel.Game):
    """``parlour_awkward_guests``: the parameters of the module docstring."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.settings = config_of(params)
        s = self.settings
        n = s.players
        low, high = utility_range(n, s.max_rounds)
        solo = n == 1
        info = pyspiel.GameInfo(
            num_distinct_actions=A.NUM_ACTIONS,
            max_chance_outcomes=SEED_BASE,
            num_players=n,
            min_utility=low,
            max_utility=high,
            utility_sum=None if solo else 0.0,
            max_game_length=max_game_length(n, s.max_rounds),
        )
        # the type of an instance tells its utility (the registered type says ZERO_SUM)
        utility = pyspiel.GameType.Utility
        super().__init__(
            _game_type(utility.GENERAL_SUM if solo else utility.ZERO_SUM), info, params
        )
        self.dealer = _Dealer(s)

    def new_initial_state(self) -> GuestsSpielState:
        return GuestsSpielState(self)

    def new_initial_state_for_seed(
        self, seed: int, options: dict[str, Any] | None = None
    ) -> GuestsSpielState:
        """The state right after the deal with env seed ``seed`` (``0 .. 2**64-1``): the
        seed's chance nodes applied (the history holds them), the same game as
        ``awkward_guests_v1.raw_env(...).reset(seed=seed, options=options)`` (with ``options``
        the history no longer determines the deal)."""
        if not is_int(seed) or not 0 <= seed < SEED_BOUND:
            raise ValueError(f"{GAME_NAME}: seed must be an int in 0..2**64-1, got {seed!r}")
        seed = int(seed)
        state = GuestsSpielState(self)
        state._g.options = check_reset_options(options, RESET_OPTIONS) or None
        for k in range(SEED_DIGITS):
            state.apply_action((seed >> (8 * k)) & (SEED_BASE - 1))
        return state

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params=None
    ) -> GuestsObserver:
        if params:
            raise ValueError(f"{GAME_NAME}: observer parameters are not supported, got {params}")
        return GuestsObserver(
            self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        )


class GuestsSpielState(pyspiel.State):
    """A game of ``parlour_awkward_guests``: the deal's seed, then an engine state."""

    def __init__(self, game: GuestsSpielGame) -> None:
        super().__init__(game)
        # (the only attribute: OpenSpiel's clone deep-copies every attribute of a Python state)
        self._g = _Play()

    # -- the engine ------------------------------------------------------------------------

    @property
    def engine(self) -> G.GuestsState | None:
        """The engine state (hidden information included); ``None`` before the deal."""
        return self._g.engine

    @property
    def env_seed(self) -> int | None:
        """The env seed of the deal (``None`` before it)."""
        return self._g.seed

    # -- OpenSpiel API ---------------------------------------------------------------------

    def current_player(self) -> int:
        eng = self._g.engine
        if eng is None:
            return pyspiel.PlayerId.CHANCE
        if eng.decision == G.D_NONE:
            return pyspiel.PlayerId.TERMINAL
        return eng.current

    def _legal_actions(self, player: int) -> list[int]:
        eng = self._g.engine
        if eng is None or eng.decision == G.D_NONE or player != eng.current:
            return []
        return eng.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._g.engine is not None:
            raise ValueError(f"{GAME_NAME}: chance_outcomes: not a chance node")
        p = 1.0 / SEED_BASE
        return [(d, p) for d in range(SEED_BASE)]

    def _apply_action(self, action: int) -> None:
        play = self._g
        eng = play.engine
        if eng is None:  # a byte of the seed
            if not 0 <= action < SEED_BASE:
                raise ValueError(f"{GAME_NAME}: seed byte {action} is not in 0..{SEED_BASE - 1}")
            play.digits = (*play.digits, int(action))
            if len(play.digits) == SEED_DIGITS:
                seed = sum(d << (8 * k) for k, d in enumerate(play.digits))
                play.deal(self.get_game().dealer, seed)
            return
        mover = eng.current
        decision = eng.decision
        card = -1  # the card a CARD action picks (its id)
        slot = action - A.CARD_0
        if 0 <= slot < len(eng.hands[mover]) and decision in _CARD_DECISIONS:
            card = eng.tables.ids[eng.hands[mover][slot]]
        eng.apply(action)  # raises IllegalActionError (a ValueError), state unchanged
        play.log_move(mover, decision, action, card)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {len(self._g.digits)}: {action}"
        # the env's names (a CARD action is a hand slot: naming its card would show the card
        # to whoever reads action strings)
        return A.action_name(action)

    def is_terminal(self) -> bool:
        eng = self._g.engine
        return eng is not None and eng.decision == G.D_NONE

    def returns(self) -> list[float]:
        eng = self._g.engine
        n = self.get_game().num_players()
        if eng is None or eng.decision != G.D_NONE:
            return [0.0] * n
        return [float(r) for r in eng.returns()]

    def __str__(self) -> str:
        eng = self._g.engine
        if eng is None:
            return f"the deal: seed bytes {list(self._g.digits)}"
        ids = eng.tables.ids
        lines = [
            f"env seed {self._g.seed}; decision {eng.decision_name} of seat {eng.current}",
            render_table(eng, [f"player_{p}" for p in range(eng.num_players)]),
        ]
        for p in range(eng.num_players):
            sel = sorted(ids[c] for c in eng.selected[p])
            lines.append(f"p{p} hand {[ids[c] for c in eng.hands[p]]} selected {sel}")
        lines.append(f"deck (top first) {[ids[c] for c in reversed(eng.deck)]}")
        lines.append(
            f"discard {[ids[c] for c in eng.discard]}; table {[ids[c] for c in eng.table]}"
        )
        lines.append(f"accusations {eng.accusations}")
        return "\n".join(lines)

    # -- what a seat saw (the observer reads these) -----------------------------------------

    def log_entries(self, player: int, last: int | None = None) -> list[LogEntry]:
        """What seat ``player`` noticed, one entry per move, oldest first (``last``: only the
        last that many); empty before the deal."""
        play = self._g
        eng = play.engine
        if eng is None:
            return []
        out = []
        node = play.log
        while node is not None and (last is None or len(out) < last):
            line = _line(eng, node, player)
            if line:
                seen = _action_seen(node, player)
                out.append(LogEntry(node[_MOVER], node[_ACTION] if seen else -1, not seen, line))
            node = node[_PREV]
        out.reverse()
        return out

    def recent_moves(self, player: int, last: int) -> list[tuple[int, int, bool]]:
        """``(mover, action, hidden)`` of the last ``last`` entries of :meth:`log_entries`,
        oldest first (without their text: the information-state tensor's rows)."""
        play = self._g
        out: list[tuple[int, int, bool]] = []
        node = play.log if play.engine is not None else None
        while node is not None and len(out) < last:
            line = node[_LINES][player]
            if line or (line is None and _noticed(node, player)):
                seen = _action_seen(node, player)
                out.append((node[_MOVER], node[_ACTION] if seen else -1, not seen))
            node = node[_PREV]
        out.reverse()
        return out

    def log_lines(self, player: int) -> list[str]:
        """The lines of :meth:`log_entries` (the information-state string after its header)."""
        play = self._g
        eng = play.engine
        lines = []
        node = play.log if eng is not None else None
        while node is not None:
            line = node[_LINES][player]
            if line is None:
                line = _line(eng, node, player)
            if line:
                lines.append(line)
            node = node[_PREV]
        lines.reverse()
        return lines


class GuestsObserver:
    """The PyObserver of ``parlour_awkward_guests`` (``perfect_recall`` False: the env's
    observation; True: the information state, the observation and a window of the log)."""

    def __init__(self, game: GuestsSpielGame, iig_obs_type: pyspiel.IIGObservationType) -> None:
        check_observation_type(GAME_NAME, iig_obs_type)
        self.perfect_recall = iig_obs_type.perfect_recall
        self.settings = game.settings
        self._encoder = ObservationEncoder(game.settings.observation_mode)
        shapes = list(pieces(game.settings.observation_mode).items())
        if self.perfect_recall:
            shapes.append(("history", (HISTORY_WINDOW, HISTORY_ROW)))
        self.tensor, self.dict = named_tensor(shapes)
        self._obs_size = self._encoder.size
        self._history = self.tensor[self._obs_size :]

    def set_from(self, state: GuestsSpielState, player: int) -> None:
        eng = state.engine
        if eng is None:
            self.tensor.fill(0.0)
            return
        self.tensor[: self._obs_size] = self._encoder.encode(eng, player)
        if not self.perfect_recall:
            return
        history = self._history  # (the "history" piece, flat)
        history.fill(0.0)
        n = eng.num_players
        cells: list[int] = []
        for row, (mover, action, hidden) in enumerate(state.recent_moves(player, HISTORY_WINDOW)):
            base = row * HISTORY_ROW
            cells += (base + (_ROW_DEAL if mover < 0 else (mover - player) % n), base + _ROW_FILLED)
            if action >= 0:
                cells.append(base + _ROW_ACTION + action)
            if hidden:
                cells.append(base + _ROW_HIDDEN)
        history[cells] = 1.0

    def string_from(self, state: GuestsSpielState, player: int) -> str:
        s = self.settings
        eng = state.engine
        if self.perfect_recall:
            lines = [
                f"seat {player}; {s.players} players, level {s.level}, {s.cases} cases, "
                f"deck {s.deck_size}, max rounds {s.max_rounds}"
            ]
            lines += state.log_lines(player)
            return "\n".join(lines)
        if eng is None:
            return f"seat {player}; the deal"
        cards = eng.tables.cards
        lines = [f"seat {player}", render_table(eng, [f"player_{p}" for p in range(s.players)])]
        lines.append(f"your hand ({len(eng.hands[player])} cards):")
        for c in eng.hands[player]:
            mark = "*" if c in eng.selected[player] else " "
            lines.append(f" {mark}#{cards[c].id} ({cards[c].value}) {cards[c].text}")
        task = _task(eng, player)
        if task is not None:
            lines.append(f"your decision: {_task_text(task)}")
        lines.append(f"your notebook: {len(eng.seen_log[player])} cards seen")
        return "\n".join(lines)


pyspiel.register_game(_game_type(), GuestsSpielGame)

__all__ = [
    "GAME_NAME",
    "DEFAULT_PARAMS",
    "SEED_BASE",
    "SEED_DIGITS",
    "SEED_BOUND",
    "HISTORY_WINDOW",
    "HISTORY_ROW",
    "GuestsSettings",
    "GuestsSpielGame",
    "GuestsSpielState",
    "GuestsObserver",
    "LogEntry",
    "config_of",
    "params_of_env",
    "max_game_length",
    "pieces",
    "utility_range",
]
