"""The RLlib env adapter: any parlour game as an RLlib ``MultiAgentEnv`` for self-play.

RLlib's ``PettingZooEnv`` does not fit our games (its masking modules read other observation
keys, and a knocked-out Awkward Guests player stays in ``env.agents``); this adapter steps the
raw AEC env itself. Per episode (``reset``), from the env's own ``np.random.Generator``:

1. the seats are shuffled over the slots ``slot_0 … slot_{n-1}`` (RLlib's agent ids): slot
   ``i`` plays seat ``perm[i]``; observations are egocentric, so a slot is just a seat;
2. ``slot_0`` is a policy slot (always the learner, :func:`parlour.train.rllib.league.map_slot`);
   every other slot is a scripted baseline with probability ``baseline_share`` (drawn from
   ``baselines`` by weight, acting inside ``step`` on its own observation and player view) and
   otherwise a policy slot (the learner or a frozen snapshot, by the ``policy_mapping_fn``).

| | |
|---|---|
| agent ids | ``slot_0`` … ``slot_{n-1}`` (only policy slots ever appear) |
| observation | ``{"observation": float32 vector, "action_mask": float32 0/1}`` of the slot to act (one at a time: the games are turn-based) |
| action | the game's ``Discrete`` action id (an illegal one raises ``ValueError``) |
| reward | each policy slot's AEC rewards as they are paid (final zero-sum reward at the end; RLlib adds rewards paid while a slot waits to its next step), plus the game's training-only shaping on policy actions (``Training.shaping``) |
| ``terminateds`` | every policy slot and ``__all__`` when the game ends; a round limit is a rule of the game and also a termination (no value bootstrap, as in :mod:`parlour.train.single_seat`) |
| ``infos`` | ``{}``; at the end of a game with knock-outs (``results()["out"]``) each policy slot's ``{"out": bool}`` (summed as RLlib's env-runner metric ``knocked_out_slots`` by :func:`knockout_callback`) |

Knock-outs (Awkward Guests): a knocked-out seat is never asked to act again and receives its
final reward when the game ends, like every other seat. ``env_config`` keys: ``game`` (a name
or a :class:`~parlour.games.Game`), ``players``, ``game_options``, ``baselines``
(spec → weight), ``baseline_share``, ``seed``, ``trust`` (``True``: baselines may be
pickle-bearing model files, ``parlour train --trust-model``; default refused,
:mod:`parlour.agents.trust`).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from parlour.games import get_game, make_raw_env
from parlour.train.opponents import OpponentPool

#: RLlib agent ids: ``slot_0`` … (slot 0 is the learner's)
SLOT_PREFIX = "slot_"
#: the upper bound of per-episode deal seeds drawn from the env's generator
SEED_BOUND = 2**62


def slot_ids(players: int) -> list[str]:
    return [f"{SLOT_PREFIX}{i}" for i in range(players)]


def adapted_space(aec: Any) -> gym.spaces.Dict:
    """The observation space of every slot: the game's with a float32 mask."""
    first = aec.possible_agents[0]
    n = aec.action_space(first).n
    return gym.spaces.Dict(
        {
            "observation": aec.observation_space(first)["observation"],
            "action_mask": gym.spaces.Box(0.0, 1.0, (n,), np.float32),
        }
    )


def adapt_observation(obs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """An env observation as the module reads it (float32 mask)."""
    return {
        "observation": np.asarray(obs["observation"], np.float32),
        "action_mask": np.asarray(obs["action_mask"], np.float32),
    }


class SelfPlayEnv(MultiAgentEnv):
    """One game of ours for RLlib self-play (see the module docstring)."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        config = dict(config or {})
        if "game" not in config:
            raise ValueError("env_config needs 'game': a Game or a game name")
        self.game = get_game(config["game"])  # (RLlib builds the env from its config)
        self.players = int(config.get("players", 2))
        env_options, wrapper_options = self.game.split_options(config.get("game_options", {}))
        self.aec = make_raw_env(self.game, self.players, **env_options)
        self.shaper = self.game.training.shaper(**wrapper_options)
        self.baseline_share = float(config.get("baseline_share", 0.0))
        if not 0.0 <= self.baseline_share <= 1.0:
            raise ValueError(f"baseline_share must be in [0, 1], got {self.baseline_share}")
        self.pool = OpponentPool(
            self.game,
            config.get("baselines") or {"random": 1.0},
            trust=config.get("trust") is True,
        )
        worker = getattr(config, "worker_index", 0)
        vector = getattr(config, "vector_index", 0)
        self.rng = np.random.default_rng([int(config.get("seed", 0)), worker, vector])
        self.possible_agents = slot_ids(self.players)
        self.agents: list[str] = []
        space = adapted_space(self.aec)
        action = self.aec.action_space(self.aec.possible_agents[0])
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, action)
        self._slot_of: dict[str, str] = {}  # game agent -> slot (policy slots only)
        self._scripted: dict[str, Any] = {}  # game agent -> scripted agent
        self._pending: dict[str, float] = {}  # slot -> reward not yet handed to RLlib
        self._started: set[str] = set()  # slots that have received an observation
        self._turn: str | None = None  # the slot whose action step() expects

    # -- MultiAgentEnv API --------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        while True:
            self._deal(options)
            obs, _, done = self._advance()
            if not done:  # (a game over before any policy move is redrawn)
                return obs, {}

    def step(
        self, action_dict: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict]:
        if self._turn is None or set(action_dict) != {self._turn}:
            raise ValueError(
                f"step() expects an action for {self._turn!r} only, got {sorted(action_dict)}"
            )
        agent = self.aec.agent_selection
        action = int(action_dict[self._turn])
        mask = self.aec.observe(agent)["action_mask"]
        if not 0 <= action < mask.size or not mask[action]:
            raise ValueError(f"illegal action {action} for {self._turn}")
        if self.shaper is not None:
            self._pending[self._turn] += float(self.shaper(self.aec, agent, action))
        self._play(action)
        obs, rewards, done = self._advance()
        terms = {"__all__": done}
        infos: dict[str, Any] = {}
        if done:
            terms.update(dict.fromkeys(obs, True))
            infos = self._final_infos(obs)
        return obs, rewards, terms, {"__all__": False}, infos

    # -- internals ----------------------------------------------------------------------------

    def _deal(self, options: dict[str, Any] | None) -> None:
        """Shuffle seats over slots, draw the scripted seats, reset the game."""
        rng = self.rng
        seats = self.aec.possible_agents
        perm = rng.permutation(self.players)
        self._slot_of, self._scripted = {}, {}
        for i, seat_index in enumerate(perm):
            agent = seats[int(seat_index)]
            if i > 0 and rng.random() < self.baseline_share:
                spec = self.pool.sample(rng)
                scripted = self.pool.agent(spec, agent)
                scripted.reset(int(rng.integers(SEED_BOUND)))
                self._scripted[agent] = scripted
            else:
                self._slot_of[agent] = f"{SLOT_PREFIX}{i}"
        self._pending = dict.fromkeys(self._slot_of.values(), 0.0)
        self._started = set()
        self._turn = None
        self.agents = sorted(self._slot_of.values())
        self.aec.reset(seed=int(rng.integers(SEED_BOUND)), options=options)

    def _play(self, action: int | None) -> None:
        """One AEC step; the rewards a move pays are added to the policy slots' pending rewards
        (a ``None`` step removes a finished agent and pays nothing: ``rewards`` still holds the
        last move's, which must not be counted twice)."""
        self.aec.step(action)
        if action is None:
            return
        for agent, slot in self._slot_of.items():
            self._pending[slot] += float(self.aec.rewards.get(agent, 0.0))

    def _final_infos(self, final: dict[str, Any]) -> dict[str, Any]:
        """``{"out": bool}`` per finished slot, for games with knock-outs."""
        out = self.aec.results().get("out")
        if out is None:
            return {}
        return {slot: {"out": bool(out[a])} for a, slot in self._slot_of.items() if slot in final}

    def _collect(self) -> dict[str, float]:
        """The pending rewards of the slots RLlib has seen (others keep theirs)."""
        out = {s: self._pending[s] for s in self._started}
        for s in out:
            self._pending[s] = 0.0
        return out

    def _advance(self) -> tuple[dict[str, Any], dict[str, float], bool]:
        """Let scripted seats act until a policy slot must act or the game is over."""
        aec = self.aec
        while aec.agents:
            agent = aec.agent_selection
            if aec.terminations[agent] or aec.truncations[agent]:
                self._play(None)
                continue
            obs = aec.observe(agent)
            if agent in self._slot_of:
                slot = self._turn = self._slot_of[agent]
                rewards = self._collect()
                self._started.add(slot)
                return {slot: adapt_observation(obs)}, rewards, False
            self._play(self._scripted[agent].act(obs, aec.player_view(agent)))
        self._turn = None
        rewards = self._collect()
        final = {
            slot: adapt_observation(aec.observe(agent))
            for agent, slot in self._slot_of.items()
            if slot in self._started
        }
        return final, rewards, True


def knockout_callback(*, episode: Any, metrics_logger: Any = None, **_: Any) -> None:
    """RLlib ``on_episode_end`` callback: log ``knocked_out_slots``, the policy slots knocked
    out in the episode (summed over the iteration), for games with knock-outs."""
    infos = episode.get_infos(-1)
    outs = [bool(i.get("out")) for i in infos.values() if isinstance(i, dict) and "out" in i]
    if outs and metrics_logger is not None:
        metrics_logger.log_value(KNOCKOUT_METRIC, sum(outs), reduce="sum")


#: the env runners' metric counting knocked-out policy slots
KNOCKOUT_METRIC = "knocked_out_slots"
