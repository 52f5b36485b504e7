"""What every conformance test shares: the registered games' configurations and ways to play.

The suite runs over every ``(game, players, options)`` of every registered game's
``configurations`` (:func:`parlour.games.all_games`). A game registered by the test suite
itself (the package ``tests.games``, if it exists) is imported first, so it runs too.

What the suite assumes of a game (the contract of :mod:`parlour.games`):

* ``make_raw_env(name, players, **options)`` builds the raw PettingZoo AEC env;
* the module of the game's ``make_env`` has an ``env(**kwargs)`` that returns the env as
  users get it (the raw env wrapped), taking the player count as ``players_option``; a module
  without one is wrapped in PettingZoo's ``OrderEnforcingWrapper``;
* observations are dicts with an ``"action_mask"`` (1 = legal) for the agent to act;
* ``raw_env.step`` raises ``ValueError`` (e.g. an ``IllegalActionError``) for an illegal
  action and leaves the state as it was;
* ``hidden_redeal`` is ``function(raw_env, seat, rng)`` that changes only what seat
  ``seat`` (the index in ``possible_agents``) may not see.
"""

from __future__ import annotations

import copy
import importlib
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from parlour.games import Game, all_games, make_raw_env

if importlib.util.find_spec("tests.games") is not None:
    importlib.import_module("tests.games")  # registers the suite's own toy game(s)


@dataclass(frozen=True)
class Config:
    """One configuration of a registered game."""

    spec: Game
    players: int
    options: dict[str, Any]

    @property
    def id(self) -> str:
        opts = "".join(f"-{k}={v}" for k, v in sorted(self.options.items()))
        return f"{self.spec.name}-{self.players}p{opts}"

    def raw_env(self) -> AECEnv:
        """The raw AEC env, built through the registry."""
        return make_raw_env(self.spec, self.players, **self.options)

    def env(self) -> AECEnv:
        """The env as users get it: the ``env()`` of the factory's module (the raw env with its
        wrappers), else the raw env in PettingZoo's ``OrderEnforcingWrapper``."""
        module = importlib.import_module(self.spec.make_env.__module__)
        factory = getattr(module, "env", None)
        if factory is None:
            return OrderEnforcingWrapper(self.raw_env())
        options = {
            k: v for k, v in self.options.items() if k not in self.spec.training.wrapper_options
        }
        wrapped = factory(**{self.spec.players_option: self.players}, **options)
        assert type(wrapped.unwrapped) is type(self.raw_env()), "env() wraps another env"
        return wrapped

    def hidden_redeal(self) -> Callable[[AECEnv, int, np.random.Generator], None]:
        redeal = self.spec.hidden_redeal
        assert redeal is not None, f"{self.spec.name} has no hidden_redeal in its Game"
        return redeal


CONFIGS: list[Config] = [
    Config(spec, players, dict(options))
    for spec in all_games()
    for players, options in spec.configurations
]
IDS = [c.id for c in CONFIGS]


# ----------------------------------------------------------------------------- playing


def is_done(env: AECEnv) -> bool:
    """No agent is left (every agent has taken its final ``step(None)``)."""
    return not env.agents


def random_action(env: AECEnv, rng: np.random.Generator) -> int | None:
    """A uniformly random legal action of the agent to act (``None`` when it is done)."""
    agent = env.agent_selection
    if env.terminations[agent] or env.truncations[agent]:
        return None
    mask = np.asarray(env.observe(agent)["action_mask"])
    legal = np.flatnonzero(mask)
    assert legal.size, f"{agent} is to act but its action mask is empty"
    return int(rng.choice(legal))


def freeze(x: Any) -> Any:
    """A hashable, ``==``-comparable image of nested dicts / lists / arrays / scalars."""
    if isinstance(x, dict):
        return tuple(sorted((str(k), freeze(v)) for k, v in x.items()))
    if isinstance(x, list | tuple):
        return tuple(freeze(v) for v in x)
    if isinstance(x, np.ndarray):
        return ("ndarray", x.dtype.str, x.shape, x.tobytes())
    if isinstance(x, np.generic):
        return freeze(x.item())
    return x


def observation(env: AECEnv, agent: str) -> Any:
    """``observe(agent)`` (observation and action mask) in comparable form."""
    return freeze(env.observe(agent))


def snapshot(env: AECEnv) -> Any:
    """Everything an env shows through the AEC API now: the agent to act, the agents, every
    agent's observation and mask, rewards, cumulative rewards, terminations, truncations, infos."""
    return freeze(
        {
            "agent_selection": env.agent_selection,
            "agents": list(env.agents),
            "observations": {a: env.observe(a) for a in env.agents},
            "rewards": env.rewards,
            "cumulative_rewards": env._cumulative_rewards,
            "terminations": env.terminations,
            "truncations": env.truncations,
            "infos": env.infos,
        }
    )


def play(env: AECEnv, rng: np.random.Generator, steps: int) -> int:
    """Play up to ``steps`` random legal steps (fewer if the game ends); returns how many."""
    for k in range(steps):
        if is_done(env):
            return k
        env.step(random_action(env, rng))
    return steps


def diverges(env: AECEnv, other: AECEnv, rng: np.random.Generator, steps: int) -> bool:
    """Whether ``other`` (a changed copy of ``env``) ever shows anything different from a copy
    of ``env`` when both play the same random legal actions for up to ``steps`` steps."""
    env = copy.deepcopy(env)
    for _ in range(steps):
        if snapshot(env) != snapshot(other):
            return True
        if is_done(env):
            return False
        action = random_action(env, rng)
        env.step(action)
        other.step(action)
    return snapshot(env) != snapshot(other)
