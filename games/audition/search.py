"""``audition.search``: determinized search on top of a learned policy (reads the view and the
observation only).

Like ``audition.expert`` (:mod:`parlour.games.audition.expert`) it samples worlds consistent
with its player view (:func:`parlour.envs.audition.determinize.determinize`, with its own
``np.random.Generator``), tries every candidate action in every world (common random numbers)
and picks the action with the best mean of ``win reward + 0.1 · score reward``, but the rollouts
are played by a trained PPO policy for every seat — one batched forward pass over all rollout
games per step (:mod:`parlour.games.audition.rollouts`) — and the policy may also prune the
candidates and cut rollouts short:

| option | default | meaning |
|---|---|---|
| ``model`` | (required) | a shipped model's short name (``audition-2p``; ``parlour models``), a model file (``ppo:`` prefix optional; a Stable-Baselines3 zip only with ``--trust-model``), or a run folder holding ``model.safetensors`` |
| ``sims`` | 100 | rollouts per decision, split over the searched actions (at least one world each) |
| ``rollout`` | ``policy`` | who plays every seat in the rollouts: ``policy`` (the network) or ``greedy`` (``audition.greedy``) |
| ``top`` | 0 | search only the ``top`` most probable legal actions under the policy (0: all) |
| ``depth`` | 20 | stop a rollout at the searcher's first decision after ``depth`` decisions and score it with the value head (+ 0.1 · score reward so far); 0: play every rollout to the end |
| ``sample`` | 0 | 1: rollout moves drawn from the masked policy (the agent's generator); 0: most probable |

Spec: ``audition.search:model=audition-2p,sims=100,top=4``. Ties between equally
valued actions go to the one the policy prefers. A decision with one candidate left is taken at
once. Deterministic under the agent's seed.

Player count: the observation has one size for every table, so a model does not say which
player count it was trained for; when the model is a shipped one, or its file sits in a run
folder (its ``config.yaml`` names ``players``), a game of another player count raises
``ValueError`` (``check_fits`` before a tournament, else on the first decision). A model of another game (observation / action sizes)
is refused the same way.

Strength and cost (``docs/agents.md``): with an 800k-step 2-player development model and the
default options it wins 65.5% of 1000 2-player games against ``audition.expert`` (95% CI
62.6–68.4%; the model alone: 32.6% on the same deals), at about 0.7 CPU seconds per game in a
tournament (the lockstep path, :mod:`parlour.eval.lockstep`, batches the rollouts of many
games' decisions into one forward pass per step).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from parlour.agents.model_file import RUN_MODEL_FILE
from parlour.agents.ppo import PPOAgent, policy_logits
from parlour.envs.audition.determinize import sample_hidden
from parlour.games.audition.batched_agents import greedy_actions
from parlour.games.audition.rollouts import (
    Cut,
    Decision,
    Plan,
    policy_player,
    value_estimate,
)
from parlour.models import lookup, read_index

DEFAULT_SIMS = 100
#: decisions after which a rollout is cut and scored by the value head (the strongest per second
#: of those measured at 2 players: docs/agents.md)
DEFAULT_DEPTH = 20
ROLLOUTS = ("policy", "greedy")
#: the model file name inside a run folder
MODEL_FILE = RUN_MODEL_FILE


def resolve_model(model: str | None) -> str:
    """The model file named by the ``model`` option (a file, or a run folder holding one)."""
    if not model:
        raise ValueError("audition.search: option model=PATH is required (a PPO model file)")
    path = model.removeprefix("ppo:")
    shipped = lookup(path)  # a shipped model's short name (parlour models lists them)
    if shipped is not None:
        return str(shipped.path)
    if os.path.isdir(path):
        path = os.path.join(path, MODEL_FILE)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"audition.search: no model file at {path!r} (option model)")
    return path


def trained_players(model_path: str) -> int | None:
    """The player count of the run that saved ``model_path`` (its folder's ``config.yaml``), or
    of the shipped model it is."""
    for m in read_index():
        if m.path.resolve() == Path(model_path).resolve():
            return m.players
    config = Path(model_path).parent / "config.yaml"
    if not config.is_file():
        return None
    import yaml

    try:
        data = yaml.safe_load(config.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return None
    players = data.get("players") if isinstance(data, dict) else None
    return players if isinstance(players, int) and not isinstance(players, bool) else None


def _count(name: str, value: int, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"audition.search: {name} must be an int >= {low}, got {value!r}")
    return value


class SearchAgent:
    """Determinized search with policy rollouts (see the module docstring)."""

    def __init__(
        self,
        spec: str = "audition.search",
        seed: int | None = None,
        model: str | None = None,
        sims: int = DEFAULT_SIMS,
        rollout: str = "policy",
        top: int = 0,
        depth: int = DEFAULT_DEPTH,
        sample: int = 0,
        trust: bool = False,
    ) -> None:
        self.spec = spec
        self.sims = _count("sims", sims, 1)
        self.top = _count("top", top, 0)
        self.depth = _count("depth", depth, 0)
        if rollout not in ROLLOUTS:
            raise ValueError(
                f"audition.search: rollout must be one of {list(ROLLOUTS)}, got {rollout!r}"
            )
        if sample not in (0, 1) or isinstance(sample, bool):
            raise ValueError(f"audition.search: sample must be 0 or 1, got {sample!r}")
        self.rollout, self.sample = rollout, bool(sample)
        self.path = resolve_model(model)
        # loads (cached) and checks the network; a pickle-bearing zip only with ``trust``
        self._ppo = PPOAgent(spec, self.path, trust=trust)
        self.policy = self._ppo.policy
        self.players = trained_players(self.path)
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def check_fits(self, env: Any) -> None:
        """``ValueError`` unless the model fits ``env``: observation / action sizes and (when
        its run folder says) the player count."""
        self._ppo.check_fits(env)
        self._check_players(len(env.possible_agents))

    def _check_players(self, n: int) -> None:
        if self.players is not None and self.players != n:
            raise ValueError(
                f"{self.spec}: the model was trained for {self.players} players "
                f"({self._players_source()}), this game has {n}"
            )

    def _players_source(self) -> str:
        config = Path(self.path).parent / "config.yaml"
        return str(config) if config.is_file() else f"the shipped model {self.path}"

    def candidates(self, observation: dict[str, np.ndarray], legal: list[int]) -> list[int]:
        """The legal actions to search, most probable under the policy first (``top`` of them)."""
        obs = np.asarray(observation["observation"], np.float32)[None]
        mask = np.asarray(observation["action_mask"], bool)[None]
        logits = policy_logits(self.policy, obs, mask)[0]
        order = sorted(legal, key=lambda a: -logits[a])  # stable: ties keep the id order
        return order[: self.top] if self.top else order

    def plan(self, observation: dict[str, np.ndarray], view: Any) -> int | Plan:
        """The action if there is nothing to search, else the sampled worlds' :class:`Plan`
        (rolled out alone by :meth:`act`, or batched with other games' by
        :func:`~parlour.games.audition.rollouts.decide_many`)."""
        legal = list(view.legal_actions)
        if not legal:
            raise ValueError("audition.search: act() called when it is not this player's turn")
        self._check_players(view.num_players)
        if len(legal) == 1:
            return legal[0]
        actions = self.candidates(observation, legal)
        if len(actions) == 1:
            return actions[0]
        base, hidden = sample_hidden(view, self.rng, max(1, self.sims // len(actions)))
        # plans of one key share a batch: the same player and cut (a sampling player draws from
        # this agent's own generator, so its plans are batched with no other agent's)
        key = (self.rollout, id(self.policy), self.depth, id(self) if self.sample else None)
        if self.rollout == "greedy":
            play = greedy_actions
        else:
            play = policy_player(self.policy, self.rng if self.sample else None)
        cut = Cut(self.depth, value_estimate(self.policy)) if self.depth else None

        def choose(values: np.ndarray) -> int:
            return int(actions[int(np.argmax(values.sum(axis=0)))])

        return Plan(Decision(base, hidden, actions, view.seat), play, cut, key, choose)

    def act(self, observation: dict[str, np.ndarray], view: Any) -> int:
        plan = self.plan(observation, view)
        return plan.run() if isinstance(plan, Plan) else plan
