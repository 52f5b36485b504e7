"""``parlour_audition`` — Audition as an OpenSpiel game (a Python ``pyspiel.Game``).

```python
import pyspiel
import parlour.openspiel

game = pyspiel.load_game("parlour_audition(players=2,variant=mini)")
state = game.new_initial_state()
while not state.is_terminal():
    if state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(np.random.choice(outcomes, p=probs)))
    else:
        state.apply_action(state.legal_actions()[0])
print(state.returns())
```

The rules are parlour's engine (:mod:`parlour.envs.audition.rules`): the OpenSpiel state holds
an engine state and adds explicit chance nodes for what the PettingZoo env draws from its
generator at ``reset``. Legal actions, observations and returns are the PettingZoo env's
(``tests/openspiel/test_audition_spiel.py`` plays both side by side).

Parameters
----------

| parameter | default | values |
|---|---|---|
| ``players`` | 2 | 2..6 |
| ``action_cards`` | ``""`` | variant 1 with fixed cards: kinds joined by ``+`` (``action_cards=pass_left+take_now``: on slots 0, 1, …; at most ``players``) |
| ``random_action_cards`` | 0 | variant 1 with random cards: that many distinct kinds on random slots (``0..players``; chance nodes) |
| ``uncertain_counts`` | ``False`` | variant 2: 5 cards stay unseen (never drawn) |
| ``variant`` | ``"standard"`` | ``"standard"`` or ``"mini"``: the mini table for exact solvers (2 players, 3 cards: numbers 1..2, slots of 2; :data:`~parlour.envs.audition.constants.MINI_TOP_NUMBER`) |
| ``reward_mode`` | ``"win"`` | ``"win"`` (zero-sum win reward) or ``"score"`` (points minus the mean, / 10) |

Chance nodes
------------

| when | outcomes (chance action ids) | probabilities |
|---|---|---|
| the deal, random action cards (``random_action_cards=k``): one node per slot, in seat order | ``0`` conductor, ``1..6`` an action-card kind (index of ``SLOT_KINDS``) | uniform over the placements of ``k`` distinct kinds on ``k`` slots (as the env's ``reset``) |
| the deal: the start seat | ``0..players-1`` | uniform |
| a card is drawn (after ``DRAW``; on taking ``draw_one`` while the deck is not empty) | the number ``v`` (``1..13``) | unseen copies of ``v`` / unseen cards |

Cards are dealt lazily: the deck order is not fixed at the start but drawn card by card from the
cards not yet seen, which is the same distribution as the env's shuffled deck (with variant 2,
the 5 cards never drawn are the removed ones).

Player actions are the env's ``Discrete(27)`` (``TAKE s``, ``DRAW``, ``PLACE s``, ``PASS``,
``CHOOSE v``): :mod:`parlour.envs.audition.rules`.

Observations
------------

| call | what |
|---|---|
| ``observation_tensor(p)`` | the env's observation of seat ``p`` (321 values, :mod:`parlour.envs.audition.observation`); the observer's ``dict`` has its named pieces (``phase``, ``slots`` ``(6, 23)``, ``players`` ``(6, 19)``, …) |
| ``observation_string(p)`` | the public table as the env's ``ansi`` render, and ``p``'s own drawn card and pending choice |
| ``information_state_string(p)`` | perfect recall: the settings, then every move in order as ``p`` saw it (other seats' drawn cards are ``?`` until placed) |
| ``information_state_tensor(p)`` | the observation tensor, then one row per move (``history``: ``(max moves, 50)``: mover one-hot (6 seats + chance), action one-hot (27), card or outcome seen one-hot (14), a hidden outcome flag, a filled-row flag) |

Returns: ``returns()`` is the env's reward of the game (``reward_mode``), paid at the end.

Version history
---------------

| version | change |
|---|---|
| 1 | first release |
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from itertools import permutations

import numpy as np
import pyspiel

from parlour.envs.audition import rules as R
from parlour.envs.audition.determinize import public_state
from parlour.envs.audition.observation import ObservationEncoder, pieces
from parlour.envs.audition.render import render_table
from parlour.envs.audition.view import AuditionView
from parlour.openspiel.common import check_observation_type, game_type, named_tensor

GAME_NAME = "parlour_audition"
VARIANTS = ("standard", "mini")
REWARD_MODES = ("win", "score")
DEFAULT_PARAMS: dict[str, object] = {
    "players": 2,
    "action_cards": "",
    "random_action_cards": 0,
    "uncertain_counts": False,
    "variant": "standard",
    "reward_mode": "win",
}
#: chance outcome ids: a card number (1..13), a slot kind (0..6) or a seat (0..5)
NUM_CHANCE_OUTCOMES = R.MAX_NUMBER + 1

#: the history rows of the information-state tensor: mover (6 seats + chance), action (27),
#: card or outcome seen (14), outcome hidden, row filled
_MOVER_COLUMNS = R.MAX_PLAYERS + 1
_ROW_ACTION = _MOVER_COLUMNS
_ROW_OUTCOME = _ROW_ACTION + R.NUM_ACTIONS
_ROW_HIDDEN = _ROW_OUTCOME + NUM_CHANCE_OUTCOMES
_ROW_FILLED = _ROW_HIDDEN + 1
HISTORY_ROW = _ROW_FILLED + 1

#: the kinds of chance node (``AuditionSpielState._chance``)
_KIND, _START, _CARD = "kind", "start", "card"


def config_of(params: dict[str, object]) -> R.AuditionConfig:
    """The engine's table of the game parameters (``ValueError`` naming a bad one)."""
    unknown = sorted(set(params) - set(DEFAULT_PARAMS))
    if unknown:
        raise ValueError(
            f"{GAME_NAME}: unknown parameter(s) {unknown}; parameters: {sorted(DEFAULT_PARAMS)}"
        )
    p = {**DEFAULT_PARAMS, **params}
    variant = p["variant"]
    if variant not in VARIANTS:
        raise ValueError(f"{GAME_NAME}: variant must be one of {list(VARIANTS)}, got {variant!r}")
    if p["reward_mode"] not in REWARD_MODES:
        raise ValueError(
            f"{GAME_NAME}: reward_mode must be one of {list(REWARD_MODES)}, "
            f"got {p['reward_mode']!r}"
        )
    players, count = p["players"], p["random_action_cards"]
    if not R.MIN_PLAYERS <= players <= R.MAX_PLAYERS:
        raise ValueError(
            f"{GAME_NAME}: players must be in {R.MIN_PLAYERS}..{R.MAX_PLAYERS}, got {players}"
        )
    if not 0 <= count <= players:
        raise ValueError(
            f"{GAME_NAME}: random_action_cards must be in 0..players={players}, got {count}"
        )
    kinds = tuple(k for k in str(p["action_cards"]).split("+") if k)
    if kinds and count:
        raise ValueError(
            f"{GAME_NAME}: give action_cards (fixed kinds) or random_action_cards (a count), "
            f"not both; got {p['action_cards']!r} and {count!r}"
        )
    mini = variant == "mini"
    if mini and (players != R.MIN_PLAYERS or kinds or count or p["uncertain_counts"]):
        raise ValueError(
            f"{GAME_NAME}: variant=mini is the plain {R.MIN_PLAYERS}-player table: players="
            f"{R.MIN_PLAYERS}, no action cards, uncertain_counts=False; got players={players}, "
            f"action_cards={p['action_cards']!r}, random_action_cards={count}, "
            f"uncertain_counts={p['uncertain_counts']}"
        )
    try:
        return R.AuditionConfig(players, kinds or count or (), p["uncertain_counts"], mini)
    except ValueError as error:  # (what is left: the kinds of action_cards)
        raise ValueError(f"{GAME_NAME}: {error}") from None


def params_of_env(num_players: int, options: dict[str, object]) -> dict[str, object]:
    """The game parameters of the PettingZoo env ``audition_v1.env(num_players, **options)``
    (``action_cards``, ``uncertain_counts``, ``reward_mode``, ``mini``)."""
    unknown = sorted(set(options) - {"action_cards", "uncertain_counts", "reward_mode", "mini"})
    if unknown:
        raise ValueError(f"params_of_env: no {GAME_NAME} parameter for env option(s) {unknown}")
    params: dict[str, object] = {"players": num_players}
    cards = options.get("action_cards", ())
    if isinstance(cards, int):
        params["random_action_cards"] = cards
    elif cards:
        params["action_cards"] = "+".join(cards)
    for name in ("uncertain_counts", "reward_mode"):
        if name in options:
            params[name] = options[name]
    mini = options.get("mini", False)
    if not isinstance(mini, bool):
        raise ValueError(f"params_of_env: mini must be True or False, got {mini!r}")
    if mini:
        params["variant"] = "mini"
    return params


def _max_moves(config: R.AuditionConfig) -> tuple[int, int]:
    """(most player decisions, most chance nodes) of a game.

    Every card enters play by at most three decisions (``DRAW``, ``PLACE``, a ``take_now``
    answer); every ``TAKE`` removes at least one card from the slots and brings at most one
    follow-up decision; the final phase adds at most one ``PASS`` per seat. Chance: a node per
    drawn card, per slot (random action cards) and the start seat.
    """
    cards, n = config.num_cards, config.num_players
    return 5 * cards + n, cards + n + 1


def _game_type() -> pyspiel.GameType:
    return game_type(GAME_NAME, "parlour Audition", (R.MIN_PLAYERS, R.MAX_PLAYERS), DEFAULT_PARAMS)


class AuditionSpielGame(pyspiel.Game):
    """``parlour_audition``: the parameters of the module docstring."""

    def __init__(self, params: dict[str, object] | None = None) -> None:
        params = dict(params or {})
        self.config = config_of(params)
        self.reward_mode = str({**DEFAULT_PARAMS, **params}["reward_mode"])
        n = self.config.num_players
        decisions, chances = _max_moves(self.config)
        self.max_history = decisions + chances
        if self.reward_mode == "win":
            low, high = R.win_rewards(n, [1])[0], 1.0
        else:  # (points − mean) / 10: at most every card scoring, against nothing
            top = float(self.config.num_cards * R.QUARTET_POINTS) / 10.0
            low, high = -top, top
        info = pyspiel.GameInfo(
            num_distinct_actions=R.NUM_ACTIONS,
            max_chance_outcomes=NUM_CHANCE_OUTCOMES,
            num_players=n,
            min_utility=float(low),
            max_utility=float(high),
            utility_sum=0.0,
            max_game_length=decisions,
        )
        super().__init__(_game_type(), info, params)
        self.initial_engine = _initial_engine(self.config)

    def new_initial_state(self) -> AuditionSpielState:
        return AuditionSpielState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params=None
    ) -> AuditionObserver:
        if params:
            raise ValueError(f"{GAME_NAME}: observer parameters are not supported, got {params}")
        return AuditionObserver(
            self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        )


#: the mover of a chance node in a :class:`Move`
CHANCE = -1


@dataclass(frozen=True)
class Move:
    """One move of a game as the players saw it."""

    mover: int  # a seat, or CHANCE
    action: int  # a player's action id (-1 for chance)
    public: int = -1  # the card or outcome everybody saw (the card a PLACE put down), else -1
    drawer: int = -1  # a chance card seen only by this seat (a DRAW's card), else -1
    private: int = -1  # that card

    def seen_by(self, seat: int) -> int:
        """The card or outcome ``seat`` saw at this move (-1: none, or hidden from it)."""
        return self.private if self.drawer == seat else self.public


@dataclass
class _Play:
    """Everything a game of ``parlour_audition`` holds (one attribute of the state: OpenSpiel
    clones a Python state by deep-copying its attributes, and this copy is the fast one)."""

    engine: R.AuditionState  # the cards not yet drawn are 0 in its deck
    reward_mode: str
    kinds_to_place: int  # random action cards still to place (one chance node per slot)
    kind_slot: int  # the next slot a chance node gives a kind (num_players: all given)
    start_dealt: bool = False
    waiting: int | None = None  # the player action waiting for a drawn card (DRAW, draw_one)
    moves: list[Move] = field(default_factory=list)  # as the players saw them

    def __deepcopy__(self, memo: dict) -> _Play:
        new = copy.copy(self)
        new.engine = self.engine.clone()
        new.moves = list(self.moves)  # (a Move is immutable)
        return new


def _initial_engine(config: R.AuditionConfig) -> R.AuditionState:
    """The engine state before the deal's chance nodes: fixed action cards on their slots (or
    conductors, given a kind by chance), seat 0 to start, placeholder cards (0) in the deck."""
    n = config.num_players
    ac = config.action_cards
    kinds = [R.SLOT_KINDS.index(k) for k in ac] if isinstance(ac, tuple) else []
    kinds += [R.K_CONDUCTOR] * (n - len(kinds))
    removed = R.NUM_REMOVED_UNCERTAIN if config.uncertain_counts else 0
    state = R.AuditionState(
        config=config,
        slot_kinds=kinds,
        deck=[0] * (config.num_cards - removed),
        removed=[0] * removed,
        slots=np.zeros((n, R.MAX_NUMBER + 1), np.int16),
        slot_size=[0] * n,
        slot_taken=[False] * n,
        collections=np.zeros((n, R.MAX_NUMBER + 1), np.int16),
        discard=np.zeros(R.MAX_NUMBER + 1, np.int16),
        taken=[False] * n,
        current=0,
        start_player=0,
    )
    state.refresh()
    return state


class AuditionSpielState(pyspiel.State):
    """A game of ``parlour_audition``: an engine state and the chance nodes of the deal."""

    def __init__(self, game: AuditionSpielGame) -> None:
        super().__init__(game)
        config = game.config
        ac = config.action_cards
        kinds_to_place = ac if isinstance(ac, int) else 0
        self._g = _Play(
            engine=game.initial_engine.clone(),
            reward_mode=game.reward_mode,
            kinds_to_place=kinds_to_place,
            kind_slot=0 if kinds_to_place else config.num_players,
        )

    # -- the engine ------------------------------------------------------------------------

    @property
    def engine(self) -> R.AuditionState:
        """The engine state (hidden information included; the cards not yet drawn are 0)."""
        return self._g.engine

    def _chance(self) -> str | None:
        if self._g.kind_slot < self.engine.num_players:
            return _KIND
        if not self._g.start_dealt:
            return _START
        if self._g.waiting is not None:
            return _CARD
        return None

    # -- OpenSpiel API ---------------------------------------------------------------------

    def current_player(self) -> int:
        if self._chance() is not None:
            return pyspiel.PlayerId.CHANCE
        if self.engine.is_terminal:
            return pyspiel.PlayerId.TERMINAL
        return self.engine.current

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        return self.engine.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        kind = self._chance()
        n = self.engine.num_players
        if kind == _KIND:
            left_slots = n - self._g.kind_slot
            used = {k for k in self.engine.slot_kinds[: self._g.kind_slot] if k != R.K_CONDUCTOR}
            free = [k for k in range(1, len(R.SLOT_KINDS)) if k not in used]
            p_card = self._g.kinds_to_place / left_slots
            outcomes = [(R.K_CONDUCTOR, 1.0 - p_card)] if p_card < 1.0 else []
            if p_card > 0.0:
                outcomes += [(k, p_card / len(free)) for k in free]
            return outcomes
        if kind == _START:
            return [(s, 1.0 / n) for s in range(n)]
        if kind == _CARD:
            unseen = self.engine.public_unseen
            total = int(unseen.sum())
            return [(v, int(unseen[v]) / total) for v in range(1, R.MAX_NUMBER + 1) if unseen[v]]
        raise ValueError("chance_outcomes: not a chance node")

    def _apply_action(self, action: int) -> None:
        kind = self._chance()
        engine = self.engine
        if kind == _KIND:
            outcomes = dict(self.chance_outcomes())
            if action not in outcomes:
                raise ValueError(f"{GAME_NAME}: slot kind {action} is not a chance outcome here")
            engine.slot_kinds[self._g.kind_slot] = action
            if action != R.K_CONDUCTOR:
                self._g.kinds_to_place -= 1
            self._g.kind_slot += 1
            engine.refresh()  # (the slots' capacities follow their kinds)
            self._g.moves.append(Move(CHANCE, -1, action))
            return
        if kind == _START:
            if not 0 <= action < engine.num_players:
                raise ValueError(f"{GAME_NAME}: start seat {action} is not a chance outcome")
            engine.current = engine.start_player = action
            engine.refresh()
            self._g.start_dealt = True
            self._g.moves.append(Move(CHANCE, -1, action))
            return
        if kind == _CARD:
            if not 1 <= action <= R.MAX_NUMBER or engine.public_unseen[action] <= 0:
                raise ValueError(f"{GAME_NAME}: card {action} is not among the unseen cards")
            waiting, self._g.waiting = self._g.waiting, None
            drawer = engine.current
            engine.deck[-1] = action
            engine.apply(waiting)
            if waiting == R.DRAW:  # the drawer's own until placed
                self._g.moves.append(Move(CHANCE, -1, -1, drawer, action))
            else:  # draw_one: face up at once
                self._g.moves.append(Move(CHANCE, -1, action))
            return
        if action not in engine.legal_actions():
            raise ValueError(
                f"{GAME_NAME}: illegal action {action} ({R.action_name(action)}) for seat "
                f"{engine.current}; legal: {engine.legal_actions()}"
            )
        mover = engine.current
        placed = engine.drawn if engine.phase == R.PH_PLACE else -1
        if self._draws_card(action):
            self._g.waiting = action  # the card comes from the next (chance) node
        else:
            engine.apply(action)
        self._g.moves.append(Move(mover, action, placed))

    def _draws_card(self, action: int) -> bool:
        engine = self.engine
        if not engine.deck:
            return False
        if action == R.DRAW:
            return True
        is_take = engine.phase in (R.PH_TURN, R.PH_FINAL) and R.TAKE_0 <= action < R.DRAW
        return is_take and engine.slot_kinds[action - R.TAKE_0] == R.K_DRAW_ONE

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            kind = self._chance()
            if kind == _KIND:
                return f"slot {self._g.kind_slot}: {R.SLOT_KINDS[action]}"
            if kind == _START:
                return f"start: seat {action}"
            return f"card {action}"
        return R.action_name(action)

    def is_terminal(self) -> bool:
        return self._chance() is None and self.engine.is_terminal

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.engine.num_players
        return [float(r) for r in self.engine.returns(self._g.reward_mode)]

    def __str__(self) -> str:
        agents = [f"player_{p}" for p in range(self.engine.num_players)]
        return render_table(self.engine, agents)

    # -- what a player saw (the observer reads these) ---------------------------------------

    def move_records(self) -> list[Move]:
        """Every move so far, as the players saw it."""
        return list(self._g.moves)


class AuditionObserver:
    """The PyObserver of ``parlour_audition`` (``perfect_recall`` False: the env's observation;
    True: the information state, the observation followed by the move history)."""

    def __init__(self, game: AuditionSpielGame, iig_obs_type: pyspiel.IIGObservationType) -> None:
        check_observation_type(GAME_NAME, iig_obs_type)
        self.perfect_recall = iig_obs_type.perfect_recall
        self._encoder = ObservationEncoder()
        self._max_history = game.max_history
        shapes = [(p.name, p.shape) for p in pieces().values()]
        if self.perfect_recall:
            shapes.append(("history", (self._max_history, HISTORY_ROW)))
        self.tensor, self.dict = named_tensor(shapes)
        self._obs_size = self._encoder.size

    def set_from(self, state: AuditionSpielState, player: int) -> None:
        self.tensor[: self._obs_size] = self._encoder.encode(state.engine, player)
        if not self.perfect_recall:
            return
        history = self.dict["history"]
        history.fill(0.0)
        for row, move in enumerate(state.move_records()):
            history[row, move.mover if move.mover >= 0 else R.MAX_PLAYERS] = 1.0
            if move.action >= 0:
                history[row, _ROW_ACTION + move.action] = 1.0
            seen = move.seen_by(player)
            if seen >= 0:
                history[row, _ROW_OUTCOME + seen] = 1.0
            elif move.drawer >= 0:
                history[row, _ROW_HIDDEN] = 1.0
            history[row, _ROW_FILLED] = 1.0

    def string_from(self, state: AuditionSpielState, player: int) -> str:
        engine = state.engine
        if not self.perfect_recall:
            agents = [f"player_{p}" for p in range(engine.num_players)]
            lines = [f"seat {player}", render_table(engine, agents)]
            if engine.current == player and engine.drawn:
                lines.append(f"your drawn card: {engine.drawn}")
            if engine.current == player and engine.choice.any():
                choice = [v for v in range(1, R.MAX_NUMBER + 1) if engine.choice[v]]
                lines.append(f"you may choose: {choice}")
            return "\n".join(lines)
        config = engine.config
        words = [
            f"seat {player}",
            f"players {config.num_players}",
            f"cards {config.num_cards}",
            f"removed {len(engine.removed)}",
        ]
        for move in state.move_records():
            seen = move.seen_by(player)
            if move.mover >= 0:
                card = f"({seen})" if seen >= 0 else ""
                words.append(f"p{move.mover}:{R.action_name(move.action)}{card}")
            else:
                words.append(f"c:{seen if seen >= 0 else '?'}")
        return " ".join(words)


# ----------------------------------------------------------------------------- search


def state_from_view(game: AuditionSpielGame, view: AuditionView) -> AuditionSpielState:
    """A ``parlour_audition`` state of what ``view`` shows, for a search from its player's
    decision (the env's player view: :mod:`parlour.envs.audition.view`).

    The state holds no hidden card: the deck (and the variant-2 removed cards) are placeholders
    that chance nodes fill card by card from the unseen cards, so every state is one the player
    cannot tell from the real game. Its move history starts here (information states compare
    positions of this one search). The view must be of the player to act."""
    if view.current_player != view.seat:
        raise ValueError(f"state_from_view: the view of seat {view.seat} is not of the seat to act")
    if _table(view.config) != _table(game.config):
        raise ValueError(
            f"state_from_view: the view's table {view.config} is not this game's {game.config}"
        )
    engine = public_state(view)
    engine.deck = [0] * view.deck_size
    engine.removed = [0] * view.num_removed
    engine.refresh()
    state = game.new_initial_state()
    state._g = _Play(engine, game.reward_mode, kinds_to_place=0, kind_slot=view.num_players)
    state._g.start_dealt = True
    return state


def _table(config: R.AuditionConfig) -> tuple:
    """What tells two tables apart (no action cards: ``()`` and ``0`` alike)."""
    return (config.num_players, config.action_cards or (), config.uncertain_counts, config.mini)


def resample(
    state: AuditionSpielState, player: int, rng: np.random.Generator
) -> AuditionSpielState:
    """A state ``player`` cannot tell from ``state``, drawn with the probabilities of the game
    (an ISMCTS resampler: ``ISMCTSBot.set_resampler``).

    A ``parlour_audition`` state hides one thing: the card another seat has drawn and not yet
    placed (the deck is drawn by chance nodes, never fixed in advance). That card is drawn
    again from what ``player`` has not seen; everything else is copied."""
    world = state.clone()
    engine = world.engine
    if engine.phase != R.PH_PLACE or engine.current == player or world.is_chance_node():
        return world
    unseen = engine.unseen_counts(player)  # (it counts the drawer's card as unseen)
    card = int(rng.choice(R.MAX_NUMBER + 1, p=unseen / unseen.sum()))
    engine.drawn = card
    engine.refresh()
    if world._g.moves:  # (a state from a view starts its history at the view)
        last = world._g.moves[-1]
        world._g.moves[-1] = Move(last.mover, last.action, last.public, last.drawer, card)
    return world


class EngineRolloutEvaluator:
    """OpenSpiel's ``RandomRolloutEvaluator`` (uniform random play to the end, the mean of
    ``rollouts`` games) on the engine itself: the unseen cards are shuffled into the deck once
    per rollout, which draws them with the chance nodes' probabilities, and the game is played
    on the engine state (no OpenSpiel state per move). ``evaluate`` and ``prior`` are the
    ``open_spiel.python.algorithms.mcts.Evaluator`` protocol."""

    def __init__(self, rollouts: int, rng: np.random.Generator) -> None:
        if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1:
            raise ValueError(f"rollouts must be a positive int, got {rollouts!r}")
        self.rollouts = rollouts
        self.rng = rng

    def evaluate(self, state: AuditionSpielState) -> np.ndarray:
        total = np.zeros(state.engine.num_players)
        for _ in range(self.rollouts):
            total += self._play_out(state)
        return total / self.rollouts

    def _play_out(self, state: AuditionSpielState) -> np.ndarray:
        engine = state.engine.clone()
        pool = engine.public_unseen.copy()
        if engine.drawn:
            pool[engine.drawn] -= 1
        cards = [v for v in range(1, R.MAX_NUMBER + 1) for _ in range(int(pool[v]))]
        self.rng.shuffle(cards)
        engine.deck = cards[: len(engine.deck)]
        engine.removed = cards[len(engine.deck) :]
        engine.refresh()
        if state._g.waiting is not None:
            engine.apply(state._g.waiting)
        integers = self.rng.integers
        while not engine.is_terminal:
            legal = engine.legal_actions()
            engine.apply(legal[int(integers(len(legal)))])
        return np.array(engine.returns(state._g.reward_mode))

    def prior(self, state: AuditionSpielState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]


def all_kind_placements(num_players: int, count: int) -> list[tuple[int, ...]]:
    """Every slot-kind tuple with ``count`` distinct action cards (a test helper: the chance
    nodes' distribution is uniform over these)."""
    out = []
    kinds = range(1, len(R.SLOT_KINDS))
    for slots in permutations(range(num_players), count):
        if list(slots) != sorted(slots):
            continue
        for chosen in permutations(kinds, count):
            row = [R.K_CONDUCTOR] * num_players
            for s, k in zip(slots, chosen, strict=True):
                row[s] = k
            out.append(tuple(row))
    return out


pyspiel.register_game(_game_type(), AuditionSpielGame)

__all__ = [
    "GAME_NAME",
    "state_from_view",
    "resample",
    "EngineRolloutEvaluator",
    "Move",
    "DEFAULT_PARAMS",
    "AuditionSpielGame",
    "AuditionSpielState",
    "AuditionObserver",
    "config_of",
    "params_of_env",
]
