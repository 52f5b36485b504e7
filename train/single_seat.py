"""The single-seat Gymnasium env: any game of ours as one learner against an opponent pool.

This is what SB3's ``MaskablePPO`` trains on. Per episode (``reset``):

1. the learner's seat is drawn from the env's own seeded generator (``reset(seed=...)``);
2. every other seat gets an opponent drawn from the :class:`~parlour.train.opponents.OpponentPool`;
3. opponents play inside ``reset()``/``step()`` until it is the learner's turn, each acting on
   **its own** observation, mask and player view (never the learner's).

| | |
|---|---|
| ``observation_space`` | the game's flat ``Box`` observation (the learner's, egocentric) |
| ``action_space`` | the game's ``Discrete`` actions |
| ``action_masks()`` | the learner's current legal-action mask (``bool``), for ``MaskablePPO`` |
| reward | the learner's AEC reward since its previous step (``env.last()``); in our games the final zero-sum reward, paid on the learner's **last** step — also when the game ends on an opponent's move, and also for a losing seat; plus the game's training-only reward shaping, if a wrapper option turns it on (``GameSpec.shaping``; Awkward Guests' ``accusation_shaping``, ``solution_shaping``) |
| ``terminated`` | the learner's game is over: it won, lost, drew, was knocked out, or the game hit its own round limit |
| ``truncated`` | always ``False`` (see below) |
| final ``info`` | ``seat``, ``scores``, ``winners`` (from the AEC env's ``results()`` when the learner's episode ends), ``opponents`` (specs per seat), ``is_success``, ``round_limit`` (the game ended at its round limit: the AEC truncation); games with knock-outs (``results()["out"]``, Awkward Guests) also ``out`` (the learner was knocked out) |

It works for every player count (1 = solo: no opponents at all, the learner is seat 0) and
every game of :mod:`parlour.train.games` (``game``: a :class:`~parlour.train.games.GameSpec`, or
a name resolved once here). It steps the *raw* AEC env, so an illegal learner action
raises ``ValueError`` instead of ending the game.

**Players who are out.** In Awkward Guests a wrong accusation knocks a player out while the
game goes on; the AEC env keeps that agent (never selected again) and pays its final reward
when the game ends. A knocked-out learner's episode ends at once all the same: on the first
step after which ``results()["out"][learner]`` holds (read cheaply from the engine's ``out``
flags), with its final reward from ``results()["returns"]`` (less what it was paid before);
the rest of the game is not played. Knocked-out opponents are never asked again.

**Round limits are terminations.** A game's round limit (Awkward Guests' ``max_rounds``) is a
rule of the game with a final reward, and the round is part of the observation, so the episode
really ends: it is reported as ``terminated`` (with ``info["round_limit"]``), never as
``truncated``, because SB3 would add the value of the last observation to the reward of a
truncated episode (a "time limit" bootstrap) and blur the draw reward.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from parlour.train.games import GameSpec, get_game, make_raw_env
from parlour.train.opponents import OpponentPool


class SingleSeatEnv(gym.Env):
    """One learner seat of a multi-player AEC game (see the module docstring)."""

    metadata = {"render_modes": []}

    def __init__(
        self,
        game: GameSpec | str = "audition",
        players: int = 2,
        game_options: dict[str, Any] | None = None,
        opponents: OpponentPool | Sequence[str] | None = None,
        seat: int | None = None,
    ) -> None:
        super().__init__()
        self.spec = get_game(game)
        self.game = self.spec.name
        env_options, wrapper_options = self.spec.split_options(game_options or {})
        self.aec = make_raw_env(self.spec, players, **env_options)
        self.shaper = self.spec.shaper(**wrapper_options)
        first = self.aec.possible_agents[0]
        self.observation_space = self.aec.observation_space(first)["observation"]
        self.action_space = self.aec.action_space(first)
        if opponents is None or not isinstance(opponents, OpponentPool):
            opponents = OpponentPool(self.spec, {s: 1.0 for s in (opponents or ["random"])})
        self.pool = opponents
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat must be in 0..{players - 1}, got {seat}")
        self.fixed_seat = seat
        self.learner: str = first
        self.opponent_specs: dict[str, str] = {}
        self._mask = np.zeros(self.action_space.n, bool)
        self._paid = 0.0
        self._done = True

    # -- gymnasium API ----------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        agents = self.aec.possible_agents
        while True:
            seat = (
                self.fixed_seat if self.fixed_seat is not None else int(rng.integers(len(agents)))
            )
            self.learner = agents[seat]
            self.aec.reset(seed=int(rng.integers(2**62)), options=options)
            self.opponent_specs = {}
            self._opponents = {}
            self._paid = 0.0  # AEC reward handed to the learner so far in this game
            for a in agents:
                if a == self.learner:
                    continue
                spec = self.pool.sample(rng)
                agent = self.pool.agent(spec, a)
                agent.reset(int(rng.integers(2**62)))
                self.opponent_specs[a] = spec
                self._opponents[a] = agent
            obs, _, term, trunc, info = self._advance()
            if not (term or trunc):  # (a game over before the learner's first move is redrawn)
                break
        self._done = False
        return obs["observation"], {"seat": seat, **info}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("step() called after the episode ended; call reset() first")
        action = int(action)
        if not 0 <= action < self._mask.size or not self._mask[action]:
            raise ValueError(
                f"illegal learner action {action}; legal: {np.flatnonzero(self._mask).tolist()}"
            )
        shaping = self.shaper(self.aec, self.learner, action) if self.shaper else 0.0
        self.aec.step(action)
        obs, reward, term, trunc, info = self._advance()
        reward = float(reward) + shaping
        info = dict(info)
        done = bool(term or trunc)
        if done:
            self._done = True
            seat = self.aec.possible_agents.index(self.learner)
            info["seat"] = seat
            info["opponents"] = dict(self.opponent_specs)
            info.update(self._final_results())
            info["is_success"] = self.learner in info["winners"]
            info["round_limit"] = bool(trunc)
        return obs["observation"], float(reward), done, False, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as a ``bool`` array (all False once the episode ended)."""
        return self._mask.copy()

    def add_snapshot(self, path: str) -> None:
        """Add a saved learner model to this env's opponent pool (called via ``env_method``)."""
        self.pool.add_snapshot(path)

    # -- internals ----------------------------------------------------------------------------

    def _final_results(self) -> dict[str, Any]:
        """``scores``, ``winners`` (and ``out``, where the game has knock-outs) of the final ``results()``."""
        results = self.aec.results()
        final = {"scores": results.get("scores", {}), "winners": results["winners"]}
        if "out" in results:
            final["out"] = bool(results["out"][self.learner])
        return final

    def _knocked_out(self) -> bool:
        """The learner is out of a game that goes on without it (``results()["out"]``, read
        from the engine's per-seat ``out`` flags: this runs after every step)."""
        out = getattr(self.aec.game, "out", None)
        if out is None or not out[self.aec.agent_name_mapping[self.learner]]:
            return False
        return not (self.aec.terminations[self.learner] or self.aec.truncations[self.learner])

    def _advance(self) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Let opponents act until the learner must act or its game is over."""
        aec = self.aec
        while aec.agents:
            if self._knocked_out():  # its final reward is known now: the episode ends here
                self._mask[:] = False
                reward = aec.results()["returns"][self.learner] - self._paid
                self._paid += reward
                return aec.observe(self.learner), reward, True, False, {}
            agent = aec.agent_selection
            obs, reward, term, trunc, info = aec.last()
            if agent == self.learner:
                if term or trunc:
                    self._mask[:] = False
                else:
                    self._mask[:] = obs["action_mask"].astype(bool)
                self._paid += reward
                return obs, reward, term, trunc, info
            if term or trunc:
                aec.step(None)
                continue
            aec.step(self._opponents[agent].act(obs, aec.player_view(agent)))
        raise RuntimeError(f"the game ended without a last step for the learner {self.learner}")
