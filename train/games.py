"""The game registry: how the wrapper, training and evaluation build each game.

Nothing in ``train/`` names a game's classes directly; it asks this registry. Adding a game is
one :class:`GameSpec` entry in :data:`GAMES`.

| name | env | players | option of the player count | baselines | PPO features |
|---|---|---|---|---|---|
| ``audition`` | ``parlour.envs.audition.env.raw_env`` | 2–6 | ``num_players`` | ``random``, ``audition.greedy``, ``audition.expert`` | :class:`parlour.train.features.AuditionFeatures` |
| ``guests`` | ``parlour.envs.awkward_guests.env.raw_env`` | 1–8 | ``num_players`` | ``random``, ``guests.deducer`` | :class:`parlour.train.features.GuestsFeatures` |

``make_raw_env(game, players, **options)`` returns the unwrapped AEC env (illegal actions raise
instead of ending the game, so a bug can never hide as a lost game).

Training-only options
---------------------

``training_options`` are dropped from the game options for evaluation. Some of them are read by
the env itself (Audition's ``reward_mode``); ``wrapper_options`` are read by the single-seat
training wrapper instead (:class:`~parlour.train.single_seat.SingleSeatEnv`): ``make_raw_env`` ignores
them, and the game's ``shaping`` class (built with them) adds a reward to each learner step.

| game | option | meaning |
|---|---|---|
| ``audition`` | ``reward_mode`` | the env's reward (``win`` zero-sum / ``score``) |
| ``guests`` | ``accusation_shaping`` (float ≥ 0, default 0) | :class:`GuestsShaping`: pays the learner for naming the parts of an accusation that its own notebook allows (zero on average for random naming) |
| ``guests`` | ``solution_shaping`` (float ≥ 0, default 0) | :class:`GuestsShaping`: charges the learner for accusing with more than one candidate left, or for not accusing with exactly one |

Awkward Guests trains on the env's ``observation_mode`` (``deduced`` in the shipped configs, or
``notebook``); :class:`parlour.train.features.GuestsFeatures` reads the ``deduced_*`` blocks of it.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class GameSpec:
    """How to build one game and which agents measure it."""

    name: str
    env_factory: str  # "module:callable" returning the raw AEC env
    min_players: int
    max_players: int
    players_option: str  # constructor argument of the player count
    baselines: tuple[str, ...]  # agent specs to evaluate against, weakest first
    eval_baselines: tuple[str, ...]  # the cheap ones used for periodic evaluation in training
    training_options: tuple[str, ...] = ()  # options that shape training only (not eval)
    features_extractor: str | None = None  # "module:Class", an SB3 features extractor
    wrapper_options: tuple[str, ...] = ()  # training options read by the wrapper, not the env
    shaping: str | None = None  # "module:Class" built with the wrapper options (see above)
    policy: str | None = None  # "module:Class", the MaskablePPO policy used with the features
    #: (players, env options) pairs that every cross-game test (tests/conformance/) runs
    configurations: tuple[tuple[int, dict[str, Any]], ...] = ()
    #: "module:function(raw_env, seat, rng) -> None": changes only what ``seat`` may not see
    #: (the other seats' hidden cards, the deck order, a hidden solution); the conformance
    #: suite's leak test checks that ``seat``'s observation is unchanged by it
    hidden_redeal: str | None = None

    def policy_class(self) -> Any:
        """The policy for MaskablePPO (``"MlpPolicy"`` unless the game has its own)."""
        return "MlpPolicy" if self.policy is None else _load(self.policy)

    def extractor(self) -> type | None:
        if self.features_extractor is None:
            return None
        return _load(self.features_extractor)

    def factory(self) -> Callable[..., Any]:
        return _load(self.env_factory)

    def shaper(self, **wrapper_options: Any) -> Any:
        """The training reward shaping built with ``wrapper_options`` (None when all are 0)."""
        for key, value in wrapper_options.items():
            check_wrapper_option(self, key, value)
        if self.shaping is None or not any(wrapper_options.values()):
            return None
        return _load(self.shaping)(**wrapper_options)


def _load(path: str) -> Any:
    module, _, attr = path.partition(":")
    return getattr(importlib.import_module(module), attr)


def check_wrapper_option(spec: GameSpec, key: str, value: Any) -> None:
    """Wrapper options are reward-shaping weights: real numbers >= 0."""
    if key not in spec.wrapper_options:
        raise ValueError(f"{spec.name} has no wrapper option {key!r}")
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
        raise ValueError(f"{key} must be a number >= 0, got {value!r}")


class GuestsShaping:
    """Awkward Guests training shaping from the learner's own deduction (two weights).

    Called before each learner step with the action about to be played; it reads only what
    the learner may know (the deduction engine over the cards that player has seen), never the
    hidden solution.

    **Naming** (``accusation_shaping = w``). When the learner names a part of its accusation
    (murderer, motive, weapon, accomplice or none, accomplice motive), let ``n`` be its legal
    choices and ``k`` of them *possible*: some candidate consistent with its notebook matches
    the accusation so far with that choice. The step is paid ``w · (1 − k/n)`` for a possible
    choice and ``−w · k/n`` for an impossible one (nothing once the accusation is impossible).
    A uniformly random choice earns 0 on average at every stage of the game, so it favours
    neither accusing nor waiting; it only pays for naming what the notebook allows — which a
    wrong accusation (−1 whatever was named) never teaches: with one candidate left a random
    accusation is right once in 360 (easy) or ~6000 (medium).

    **When** (``solution_shaping = v``). Deciding whether to accuse, the learner is charged
    ``−v`` for accusing with more than one candidate left and for going on with exactly one.
    Following the rule costs nothing, so there is nothing to farm; it is ``guests.deducer``'s
    rule and the best solo play, while with opponents a gamble can be worth its ``v``.
    """

    def __init__(self, accusation_shaping: float = 0.0, solution_shaping: float = 0.0) -> None:
        from parlour.envs.awkward_guests.observation import ObservationEncoder

        self.weight = float(accusation_shaping)
        self.solution_weight = float(solution_shaping)
        self._encoder = ObservationEncoder("deduced")  # (its public per-seat deduction)

    def __call__(self, aec: Any, agent: str, action: int) -> float:
        from parlour.envs.awkward_guests import actions as A
        from parlour.envs.awkward_guests import game as G

        state = aec.game
        seat = aec.agent_name_mapping[agent]
        d = state.decision
        if state.current_player != seat:
            return 0.0
        if d == G.D_SOLUTION:
            if not self.solution_weight:
                return 0.0
            certain = self._encoder.deduction(state, seat).count() == 1
            return 0.0 if (action == A.YES) == certain else -self.solution_weight
        if not self.weight or not G.D_MURDERER <= d <= G.D_ACC_MOTIVE:
            return 0.0
        before = list(state.accusations.get(seat, []))
        ok = self._encoder.deduction(state, seat).candidate_mask()
        table = _candidate_table(state.tables.accomplice_possible)
        for i, value in enumerate(before):
            ok = ok & (table[:, i] == value)
        possible = set(table[ok, len(before)].tolist())
        if not possible:  # the accusation is already impossible
            return 0.0
        legal = [_part(d, int(a)) for a in np.flatnonzero(state.legal_mask())]
        share = sum(p in possible for p in legal) / len(legal)
        return self.weight * (float(_part(d, action) in possible) - share)


def _part(decision: int, action: int) -> int:
    """The accusation entry (engine order, -1 for "none") an action names at a decision."""
    from parlour.envs.awkward_guests import actions as A
    from parlour.envs.awkward_guests import game as G

    if decision == G.D_MURDERER:
        return action - A.SUSPECT_0
    if decision in (G.D_MOTIVE, G.D_ACC_MOTIVE):
        return action - A.MOTIVE_0
    if decision == G.D_WEAPON:
        return action - A.WEAPON_0
    return -1 if action == A.NO_ACCOMPLICE else action - A.SUSPECT_0  # accomplice


@functools.cache
def _candidate_table(accomplice_possible: bool) -> np.ndarray:
    """(candidates, 5) ints in the engine's accusation order: murderer, motive, weapon,
    accomplice (-1: none), accomplice motive (-1: none), aligned with ``candidate_mask()``."""
    from parlour.envs.awkward_guests import actions as A
    from parlour.envs.awkward_guests.case.solution import candidate_solutions

    def idx(names: tuple[str, ...], x: str | None) -> int:
        return -1 if x is None else names.index(x)

    rows = [
        (
            idx(A.SUSPECTS, s.murderer),
            idx(A.MOTIVES, s.motive),
            idx(A.WEAPONS, s.weapon),
            idx(A.SUSPECTS, s.accomplice),
            idx(A.MOTIVES, s.accomplice_motive),
        )
        for s in candidate_solutions(accomplice_possible)
    ]
    table = np.array(rows, np.int64)
    table.flags.writeable = False
    return table


GAMES: dict[str, GameSpec] = {
    "audition": GameSpec(
        name="audition",
        env_factory="parlour.envs.audition.env:raw_env",
        min_players=2,
        max_players=6,
        players_option="num_players",
        baselines=("random", "audition.greedy", "audition.expert"),
        eval_baselines=("random", "audition.greedy"),
        training_options=("reward_mode",),
        features_extractor="parlour.train.features:AuditionFeatures",
        configurations=(
            *((n, {}) for n in range(2, 7)),
            (2, {"action_cards": 2, "uncertain_counts": True}),
            (4, {"action_cards": 3}),
            (6, {"uncertain_counts": True}),
        ),
        hidden_redeal="parlour.envs.audition.hidden:redeal",
    ),
    "guests": GameSpec(
        name="guests",
        env_factory="parlour.envs.awkward_guests.env:raw_env",
        min_players=1,
        max_players=8,
        players_option="num_players",
        baselines=("random", "guests.deducer"),
        eval_baselines=("random", "guests.deducer"),
        training_options=("accusation_shaping", "solution_shaping"),
        wrapper_options=("accusation_shaping", "solution_shaping"),
        shaping="parlour.train.games:GuestsShaping",
        features_extractor="parlour.train.features:GuestsFeatures",
        policy="parlour.train.features:GuestsPolicy",
        configurations=(
            (1, {}),
            (2, {}),
            (3, {"level": "medium"}),
            (4, {"observation_mode": "deduced"}),
            (6, {"cases": "classic"}),
            (8, {"level": "hard"}),
        ),
        hidden_redeal="parlour.envs.awkward_guests.hidden:redeal",
    ),
}


def register_game(spec: GameSpec) -> GameSpec:
    """Add a game (a plug-in) to the registry; registering the same spec twice is a no-op."""
    known = GAMES.get(spec.name)
    if known is not None and known != spec:
        raise ValueError(f"a different game is already registered as {spec.name!r}")
    GAMES[spec.name] = spec
    return spec


def all_games() -> list[GameSpec]:
    """Every registered game, in registration order (the conformance suite runs over these)."""
    return list(GAMES.values())


def get_game(name: str) -> GameSpec:
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(GAMES)}")
    return GAMES[name]


def make_raw_env(game: str, players: int, **options: Any) -> Any:
    """The raw AEC env of ``game`` for ``players`` seats with the game's ``options``."""
    spec = get_game(game)
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"players must be an int, got {players!r}")
    if not spec.min_players <= players <= spec.max_players:
        raise ValueError(
            f"players for {game} must be in {spec.min_players}..{spec.max_players}, got {players}"
        )
    if spec.players_option in options:
        raise ValueError(f"give the player count as players, not {spec.players_option}")
    env_options = {}
    for key, value in options.items():
        if key in spec.wrapper_options:  # (read by the training wrapper: checked, not passed)
            check_wrapper_option(spec, key, value)
        else:
            env_options[key] = value
    return spec.factory()(**{spec.players_option: players}, **env_options)
