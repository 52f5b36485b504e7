"""Batched self-play for SB3: one learner seat in each of ``N`` Audition games stepped as arrays.

:class:`BatchedSelfPlayVecEnv` is an SB3 ``VecEnv`` over the batched engine
(:mod:`parlour.envs.audition.batched`): what ``N`` copies of
:class:`~parlour.train.single_seat.SingleSeatEnv` in a ``SubprocVecEnv`` do, without processes
and with every opponent decision batched:

| part | batched how |
|---|---|
| the games | one :class:`~parlour.envs.audition.batched.BatchedAudition` of ``N`` games |
| learner | one seat per game, drawn from the env's generator at every deal |
| opponents | per seat and deal drawn from the pool (``opponents.baselines`` with their weights; a learner snapshot with probability ``snapshot_weight`` once one exists); per step all games where an opponent kind is to move decide together: ``random`` and ``audition.greedy`` vectorized (:mod:`parlour.games.audition.batched_agents`), each snapshot (and ``ppo:PATH`` baseline) one forward pass, ``audition.expert[:sims=N]`` one batch of rollouts for all its games' searches (:func:`~parlour.games.audition.rollouts.decide_many` on each game's player view, :func:`~parlour.envs.audition.batched_view.batched_view`: the scalar expert's decisions) |
| episode end | the learner's terminal reward (the AEC env's, ``reward_mode``) on the step after which its game ended, ``infos[i]`` with ``terminal_observation``, ``is_success``, ``seat``, ``scores``; the game is dealt again and played up to the learner's turn |
| masks | ``env_method("action_masks")`` (what ``MaskablePPO`` calls): the learner's ``(N, 27)`` legal masks |
| snapshots | ``env_method("add_snapshot", path)`` (what ``parlour train`` calls) |

Everything random comes from one ``np.random.Generator`` seeded by ``seed()`` (SB3 calls it
with the config's seed), so the same seed gives the same games, opponents and rewards.

:func:`make_batched_vec_env` is the Audition ``Training.batched_vec_env`` hook: it builds the
env for a training config, or returns ``None`` when the config asks for something it cannot
batch (an opponent spec other than ``random``, ``audition.greedy``, ``audition.expert[:sims=N]``,
``ppo:PATH[:sample]``), and
``parlour train`` then uses the per-game envs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from parlour.envs.audition import observation as O
from parlour.envs.audition import rules as R
from parlour.envs.audition.batched import ENV_OPTIONS, BatchedAudition
from parlour.envs.audition.batched_view import batched_view
from parlour.envs.audition.step_result import StepResult
from parlour.games.audition.batched_agents import greedy_actions, policy_actions, random_actions
from parlour.games.audition.rollouts import decide_many

#: opponent specs decided in batch (``ppo:`` specs too, see :func:`batchable`)
BATCHED_BASELINES = ("random", "audition.greedy")
#: the search opponent: ``audition.expert[:sims=N]``, its rollouts batched over the games
EXPERT = "audition.expert"


def batchable(spec: str) -> bool:
    """Whether an opponent spec can play inside the batched env."""
    return spec in BATCHED_BASELINES or spec.startswith("ppo:") or _is_expert(spec)


def _is_expert(spec: str) -> bool:
    """``audition.expert`` with or without options."""
    return spec.split(":")[0] == EXPERT


class BatchedSelfPlayVecEnv(VecEnv):
    """``num_envs`` Audition games, one learner seat each (see the module docstring)."""

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        game_options: Mapping[str, Any] | None = None,
        baselines: Mapping[str, float] | None = None,
        snapshot_weight: float = 0.0,
        max_snapshots: int = 5,
        seed: int | None = None,
        trust: bool = False,
    ) -> None:
        options = dict(game_options or {})
        #: whether pickle-bearing model files may load (``--trust-model``)
        self.trust = bool(trust)
        unknown = sorted(set(options) - set(ENV_OPTIONS))
        if unknown:
            raise ValueError(f"game_options: unknown {unknown}; allowed: {list(ENV_OPTIONS)}")
        baselines = dict(baselines or {"random": 1.0})
        for spec in baselines:
            if not batchable(spec):
                raise ValueError(
                    f"opponents: {spec!r} cannot play batched; batched specs: "
                    f"{list(BATCHED_BASELINES)}, {EXPERT}[:sims=N] and ppo:PATH[:sample]"
                )
        w = np.array(list(baselines.values()), float)
        if (w < 0).any() or w.sum() <= 0:
            raise ValueError(f"baseline weights must be >= 0 with a positive sum, got {baselines}")
        self.eng = BatchedAudition(num_envs, players, seed=seed, auto_reset=False, **options)
        size = O.layout_size(O.make_layout())
        obs_space = gym.spaces.Box(0.0, 1.0, (size,), np.float32)
        super().__init__(num_envs, obs_space, gym.spaces.Discrete(R.NUM_ACTIONS))
        self.players = players
        self.specs: list[str] = list(baselines)  # opponent kinds: baselines, then snapshots
        self._p = w / w.sum()
        self.snapshot_weight = float(snapshot_weight)
        self.max_snapshots = int(max_snapshots)
        self.snapshots: list[int] = []  # kinds of the snapshots in the pool
        self._evicted: list[int] = []  # snapshot kinds out of the pool, freed once no game has them
        self._policies: dict[int, Any] = {}
        self.rng = np.random.default_rng(seed)
        self._searchers: dict[int, Any] = {}  # kind -> an audition.expert (reads views)
        for k, spec in enumerate(self.specs):
            if spec.startswith("ppo:"):
                self._policies[k] = _load(spec, self.trust)
            elif _is_expert(spec):
                self._searchers[k] = _expert(spec, int(self.rng.integers(2**62)))
        self.seat = np.zeros(num_envs, np.int64)
        self.opp = np.zeros((num_envs, players), np.int64)  # seat -> opponent kind (-1: learner)
        self._actions = np.zeros(num_envs, np.int64)
        self._mask = np.zeros((num_envs, R.NUM_ACTIONS), bool)

    # -- the VecEnv API ------------------------------------------------------------------------

    def seed(self, seed: int | None = None) -> Sequence[None | int]:
        self.rng = np.random.default_rng(seed)
        self.eng.rng = np.random.default_rng(self.rng.integers(2**62))
        for agent in self._searchers.values():
            agent.reset(int(self.rng.integers(2**62)))
        return [seed] * self.num_envs

    def reset(self) -> np.ndarray:
        self._new_episodes(np.arange(self.num_envs))
        return self._observe()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, np.int64).reshape(self.num_envs)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict]]:
        ar = np.arange(self.num_envs)
        if not self._mask[ar, self._actions].all():
            bad = int(np.flatnonzero(~self._mask[ar, self._actions])[0])
            raise ValueError(
                f"illegal learner action {int(self._actions[bad])} in game {bad}; "
                f"legal: {np.flatnonzero(self._mask[bad]).tolist()}"
            )
        res = self.eng.step(self._actions)
        res.merge(self._play_opponents())
        rewards = res.rewards[ar, self.seat].astype(np.float32)
        done, scores, winners = res.done, res.scores, res.winners
        infos: list[dict[str, Any]] = [{} for _ in ar]
        d = np.flatnonzero(done)
        if len(d):
            terminal = self.eng.observe(self.seat, d)
            for j, i in enumerate(d):
                infos[i] = {
                    "terminal_observation": terminal[j],
                    "is_success": bool(winners[i, self.seat[i]]),
                    "seat": int(self.seat[i]),
                    "scores": scores[i].tolist(),
                }
            self._new_episodes(d)
        return self._observe(), rewards, done, infos

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions per game, ``(N, 27)`` bool."""
        return self._mask.copy()

    def add_snapshot(self, path: str) -> None:
        """Add a saved learner model to the opponent pool (the oldest beyond the limit leaves)."""
        spec = f"ppo:{path}:sample"
        k = len(self.specs)
        self.specs.append(spec)
        self._policies[k] = _load(spec, self.trust)
        self.snapshots.append(k)
        while len(self.snapshots) > self.max_snapshots:
            # games that drew it finish with it; no new deal draws it, and its network is
            # dropped once the last of those games is over (_free_evicted)
            self._evicted.append(self.snapshots.pop(0))
        self._free_evicted()

    def close(self) -> None:
        pass

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        idx = self._indices(indices)
        if method_name == "action_masks":
            return list(self._mask[idx])
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        return [result] * len(idx)

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None] * self.num_envs

    # -- internals -----------------------------------------------------------------------------

    def _indices(self, indices: Any) -> list[int]:
        return list(self._get_indices(indices))  # (SB3's VecEnv: None -> all, int -> [int])

    def _observe(self) -> np.ndarray:
        self._mask = self.eng.legal_mask()
        return self.eng.observe(self.seat)

    def _new_episodes(self, games: np.ndarray) -> None:
        """Deal ``games`` again, draw their learner seats and opponents, play to the learner."""
        while len(games):
            m, n = len(games), self.players
            self.eng.deal(games)
            self.seat[games] = self.rng.integers(n, size=m)
            kinds = self.rng.choice(len(self._p), size=(m, n), p=self._p)
            if self.snapshots:
                snap = self.rng.random((m, n)) < self.snapshot_weight
                pick = np.asarray(self.snapshots)[
                    self.rng.integers(len(self.snapshots), size=(m, n))
                ]
                kinds = np.where(snap, pick, kinds)
            kinds[np.arange(m), self.seat[games]] = -1
            self.opp[games] = kinds
            res = self._play_opponents()
            games = np.flatnonzero(res.done)  # (a game over before the learner moved: again)
        self._free_evicted()

    def _free_evicted(self) -> None:
        """Drop the networks of evicted snapshots that no game's seat holds any more."""
        if self._evicted:
            held = np.isin(self._evicted, self.opp)
            for k in np.asarray(self._evicted)[~held].tolist():
                del self._policies[k]
            self._evicted = np.asarray(self._evicted)[held].tolist()

    def _play_opponents(self) -> StepResult:
        """Opponents move (batched by kind) until the learner is to act in every live game;
        returns what ended meanwhile (merged over the engine steps)."""
        eng = self.eng
        total = StepResult.empty(self.num_envs, self.players)
        while True:
            idx = np.flatnonzero((eng.phase != R.PH_OVER) & (eng.current != self.seat))
            if len(idx) == 0:
                return total
            actions = np.zeros(self.num_envs, np.int64)
            kinds = self.opp[idx, eng.current[idx]]
            for k in np.unique(kinds):
                sub = idx[kinds == k]
                actions[sub] = self._decide(int(k), sub)
            total.merge(eng.step(actions, games=idx))

    def _decide(self, kind: int, games: np.ndarray) -> np.ndarray:
        spec = self.specs[kind]
        if spec == "random":
            return random_actions(self.eng.legal_mask()[games], self.rng)
        if spec == "audition.greedy":
            return greedy_actions(self.eng, games)
        if kind in self._searchers:  # every game's search rolled out as one batch
            agent, eng = self._searchers[kind], self.eng
            mask = eng.legal_mask()
            views = [batched_view(eng, int(g), int(eng.current[g]), mask) for g in games]
            return np.array(decide_many([(agent, None, v) for v in views]), np.int64)
        obs = self.eng.observe(self.eng.current, games)
        rng = self.rng if spec.endswith(":sample") else None
        return policy_actions(self._policies[kind], obs, self.eng.legal_mask()[games], rng)


def _expert(spec: str, seed: int) -> Any:
    """The ``audition.expert[:sims=N]`` of ``spec`` (its options checked as ``parlour eval``
    checks them)."""
    from parlour.games.audition.plugin import expert_agent
    from parlour.models import parse_spec

    _, options = parse_spec(spec)
    unknown = sorted(set(options) - {"sims"})
    if unknown:
        raise ValueError(f"opponents: {spec!r}: unknown options {unknown}; allowed: ['sims']")
    return expert_agent(spec, seed, **options)


def _load(spec: str, trust: bool = False) -> Any:
    from parlour.agents.ppo import load_policy

    path = spec[len("ppo:") :]
    if path.endswith(":sample"):
        path = path[: -len(":sample")]
    return load_policy(path, trust=trust)


def make_batched_vec_env(cfg: Any) -> VecEnv | None:
    """The ``Training.batched_vec_env`` hook: the batched env for a training config, wrapped in
    SB3's ``VecMonitor``; ``None`` when the config has an opponent it cannot batch."""
    from stable_baselines3.common.vec_env import VecMonitor

    o = cfg.opponents
    if not all(batchable(s) for s in o.baselines):
        return None
    env = BatchedSelfPlayVecEnv(
        cfg.n_envs,
        cfg.players,
        cfg.game_options,
        o.baselines,
        snapshot_weight=o.snapshot_weight,
        max_snapshots=o.max_snapshots,
        seed=cfg.seed,
        trust=cfg.trust_model,
    )
    return VecMonitor(env, info_keywords=("is_success",))
