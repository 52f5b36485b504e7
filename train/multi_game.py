"""Many single-seat games in one process: an SB3 ``VecEnv`` with batched network opponents.

:class:`MultiGameVecEnv` holds ``N`` :class:`~parlour.train.single_seat.SingleSeatEnv` games of
any game in the trainer's own process — what ``N`` of them in a ``SubprocVecEnv`` do, without
the processes, the pipes and the one-observation-at-a-time policy calls:

| part | how |
|---|---|
| the games | ``N`` :class:`~parlour.train.single_seat.SingleSeatEnv` (each its own raw AEC env, opponent pool, generator and reward shaping): every observation, reward and episode is what that env gives |
| learner | SB3 runs its policy once per step on the ``(N, D)`` observations (MaskablePPO: with ``action_masks()``, ``(N, A)``) |
| scripted opponents | played inside each game (``random``, ``guests.deducer``, …), as in the single-seat env |
| network opponents | learner snapshots and ``ppo:PATH`` baselines: the games are stepped together (:meth:`SingleSeatEnv.step_steps`) and every pending decision of one network is decided in **one forward pass** (:func:`parlour.agents.ppo.policy_logits`), each agent then choosing with its own generator (:meth:`MaskedLogitsAgent.choose`) |
| reset sources (Awkward Guests' cases) | the game's ``Training.reset_source``, started once in a **child process** (its own core; Awkward Guests: one :class:`~parlour.games.guests.case_pool.CasePool`), hands reset options to the games in the order they reset: unique per run, reproducible |
| episode end | ``infos[i]`` is the single-seat env's final info plus ``terminal_observation``; the game is reset at once |
| seeding | ``seed(s)``: game ``i`` resets with seed ``s + i`` (as SB3's ``DummyVecEnv``), the case pool is seeded from ``s`` |

:func:`multi_game_vec_env` is what ``vec_env: batched`` builds for a game whose training part
sets ``multi_game`` (Awkward Guests): ``n_envs`` games, wrapped in SB3's ``VecMonitor``.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from parlour.agents.ppo import policy_logits
from parlour.games import Game, require_game
from parlour.train.opponents import OpponentPool
from parlour.train.single_seat import SingleSeatEnv

#: cases the child process keeps ready (about two rollouts' worth of resets of 64 games)
CASE_PREFETCH = 256

Steps = Generator[tuple[str, Any], int, Any]


class MultiGameVecEnv(VecEnv):
    """``num_envs`` single-seat games in one process (see the module docstring)."""

    def __init__(
        self,
        game: Game,
        num_envs: int,
        players: int = 2,
        game_options: Mapping[str, Any] | None = None,
        baselines: Mapping[str, float] | None = None,
        snapshot_weight: float = 0.0,
        max_snapshots: int = 5,
        case_process: bool = True,
        trust: bool = False,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be an int >= 1, got {num_envs!r}")
        self.game_spec = require_game(game, "MultiGameVecEnv")
        options = dict(game_options or {})
        self.games = [
            SingleSeatEnv(
                self.game_spec,
                players,
                options,
                OpponentPool(self.game_spec, baselines, snapshot_weight, max_snapshots, trust),
            )
            for _ in range(num_envs)
        ]
        for g in self.games:
            g.defer_policies = True
        first = self.games[0]
        super().__init__(num_envs, first.observation_space, first.action_space)
        self._source_options = first.source_options
        self._case_process = case_process
        self._pool: Any = None
        self._seeds: list[int | None] = [None] * num_envs
        self._seeded = False
        self._actions = np.zeros(num_envs, np.int64)

    # -- the VecEnv API ------------------------------------------------------------------------

    def seed(self, seed: int | None = None) -> Sequence[None | int]:
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        self._seeds = [seed + i for i in range(self.num_envs)]
        self._seeded = True
        self._start_cases(seed)
        return list(self._seeds)

    def reset(self) -> np.ndarray:
        if not self._seeded:  # (SB3 seeds first; unseeded, the games draw fresh entropy)
            self.seed(None)
        seeds, self._seeds = self._seeds, [None] * self.num_envs
        everyone = list(range(self.num_envs))
        results = self._drive(
            everyone, [g.reset_steps(seed=s) for g, s in zip(self.games, seeds, strict=True)]
        )
        self.reset_infos = [info for _, info in results]
        return np.stack([obs for obs, _ in results])

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, np.int64).reshape(self.num_envs)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict]]:
        actions = self._actions.tolist()
        masks = self.action_masks()
        for i, a in enumerate(
            actions
        ):  # (checked before any game moves: a bad call changes nothing)
            if not 0 <= a < masks.shape[1] or not masks[i, a]:
                raise ValueError(
                    f"illegal learner action {a} in game {i}; "
                    f"legal: {np.flatnonzero(masks[i]).tolist()}"
                )
        everyone = list(range(self.num_envs))
        results = self._drive(
            everyone, [g.step_steps(a) for g, a in zip(self.games, actions, strict=True)]
        )
        obs = np.stack([r[0] for r in results])
        rewards = np.array([r[1] for r in results], np.float32)
        dones = np.array([r[2] or r[3] for r in results], bool)
        infos = [dict(r[4]) for r in results]
        ended = np.flatnonzero(dones).tolist()
        if ended:
            fresh = self._drive(ended, [self.games[i].reset_steps() for i in ended])
            for i, (o, reset_info) in zip(ended, fresh, strict=True):
                infos[i]["terminal_observation"] = obs[i].copy()  # (obs[i] becomes o)
                obs[i] = o
                self.reset_infos[i] = reset_info  # (as SB3's own VecEnvs do on auto-reset)
        return obs, rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions per game, ``(N, A)`` bool."""
        return np.stack([g.action_masks() for g in self.games])

    def add_snapshot(self, path: str) -> None:
        """Add a saved learner model to every game's opponent pool (one network in memory)."""
        for g in self.games:
            g.add_snapshot(path)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self.games[i], attr_name) for i in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        for i in self._indices(indices):
            setattr(self.games[i], attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        if method_name == "add_snapshot":  # (load the network once, not per game call)
            self.add_snapshot(*method_args, **method_kwargs)
            return [None] * len(self._indices(indices))
        return [
            getattr(self.games[i], method_name)(*method_args, **method_kwargs)
            for i in self._indices(indices)
        ]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [isinstance(self.games[i], wrapper_class) for i in self._indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None] * self.num_envs

    # -- internals -----------------------------------------------------------------------------

    def _indices(self, indices: Any) -> list[int]:
        return list(self._get_indices(indices))  # (SB3's VecEnv: None -> all, int -> [int])

    def _start_cases(self, seed: int) -> None:
        """One reset source for every game (the game's ``Training.reset_source`` in a child
        process), seeded by ``seed``; none where the game prepares nothing (fixed cases, games
        without a source)."""
        make_source = self.game_spec.training.reset_source
        if make_source is None or not self._case_process:
            return
        source = make_source(self._source_options, seed, process=True, prefetch=CASE_PREFETCH)
        if source is None:
            return
        if self._pool is not None:
            self._pool.close()
        self._pool = source
        for g in self.games:
            g.set_reset_source(source)

    def _drive(self, games: list[int], steps: list[Steps]) -> list[Any]:
        """Run the ``*_steps`` generators of ``games`` to their ends together: each round, the
        pending decisions of one network are decided in one forward pass."""
        results: list[Any] = [None] * len(steps)
        pending: dict[int, tuple[str, Any]] = {}

        def advance(j: int, action: int | None) -> None:
            try:
                pending[j] = next(steps[j]) if action is None else steps[j].send(action)
            except StopIteration as stop:
                results[j] = stop.value

        for j in range(len(steps)):
            advance(j, None)
        while pending:
            requests, pending = pending, {}
            by_policy: dict[int, list[int]] = {}
            for j, (_, opponent) in requests.items():
                by_policy.setdefault(id(opponent.policy), []).append(j)
            for js in by_policy.values():
                aecs = [self.games[games[j]].aec for j in js]
                actions = _decide(aecs, [requests[j] for j in js])
                for j, action in zip(js, actions, strict=True):
                    advance(j, action)
        return results


def _decide(aecs: list[Any], requests: list[tuple[str, Any]]) -> list[int]:
    """The actions of pending decisions of one network (``(agent, opponent)`` in ``aecs``):
    one forward pass, then each opponent chooses with its own generator."""
    obs = np.stack(
        [aec.observe(agent)["observation"] for aec, (agent, _) in zip(aecs, requests, strict=True)]
    )
    mask = np.stack(
        [aec.action_mask(agent) for aec, (agent, _) in zip(aecs, requests, strict=True)]
    ).astype(bool)
    logits = policy_logits(requests[0][1].policy, obs, mask)
    return [opponent.choose(logits[k]) for k, (_, opponent) in enumerate(requests)]


def multi_game_vec_env(cfg: Any) -> VecEnv:
    """``vec_env: batched`` for a game with ``Training.multi_game`` (Awkward Guests):
    ``cfg.n_envs`` games of the config's game in one process (:class:`MultiGameVecEnv`), wrapped in
    SB3's ``VecMonitor``."""
    from stable_baselines3.common.vec_env import VecMonitor

    o = cfg.opponents
    env = MultiGameVecEnv(
        cfg.game_spec,
        cfg.n_envs,
        cfg.players,
        cfg.game_options,
        o.baselines,
        snapshot_weight=o.snapshot_weight,
        max_snapshots=o.max_snapshots,
        trust=cfg.trust_model,
    )
    return VecMonitor(env, info_keywords=("is_success",))
