"""Build agents from spec strings, the same names in configs and on the command line.

| spec | game | agent |
|---|---|---|
| ``random`` | any | uniform over legal actions (:mod:`parlour.agents.random_agent`) |
| ``ppo:PATH`` | any | a trained MaskablePPO model, most probable legal action (:mod:`parlour.agents.ppo`): parlour's model format (``.safetensors``), or a Stable-Baselines3 zip only with ``trust=True`` (``--trust-model``: a zip runs code while it loads) |
| ``ppo:NAME`` | its own | a model shipped with parlour, by short name (``ppo:audition-2p``; ``parlour models`` lists them, :mod:`parlour.models`); refused for another game or player count |
| ``ppo:PATH:sample`` | any | the same, sampling from the masked policy (also ``ppo:NAME:sample``) |
| ``rllib:PATH[:sample]`` | any | a policy trained with ``backend: rllib`` (``runs/NAME/checkpoint``), loaded without Ray (:mod:`parlour.agents.rllib_agent`) |
| ``GAME.NAME[:key=value,...]`` | its game | the game's own agents (``Game.agents``: spec name → ``builder(spec, seed, **options)``): ``audition.greedy``, ``audition.expert``, ``audition.search`` (:mod:`parlour.games.audition`), ``guests.deducer`` (:mod:`parlour.games.guests`), ``countdown.careful`` of the test game |

Every game's agents are registered the same way, parlour's own included: in the game's
:class:`~parlour.games.Game` (``agents``). Options follow the name after a colon, comma
separated: ``audition.expert:sims=200``; a builder reads them with :func:`int_option` /
:func:`float_option` (bounded by :mod:`parlour.limits`). A builder with a ``model`` parameter plays
a trained model (``audition.search:model=PATH``): it is left out of :func:`known_agents`, listed by
:func:`model_agents`, and gets the caller's ``trust`` (``--trust-model``); a spec string can never
grant trust. An unknown name, an option the agent does not take, or an agent of another game
raise ``ValueError`` listing what is known. ``game`` is the :class:`~parlour.games.Game` object
(resolved once by the command).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from parlour.agents.base import Agent
from parlour.agents.random_agent import RandomAgent
from parlour.agents.trust import TRUST_FLAG
from parlour.models import (  # (the spec syntax: the models registry reads it too)
    check_model_fits,
    lookup,
    parse_spec,
    read_index,
    resolve_model_path,
)


class GameAgents(Protocol):
    """What building an agent reads of a game: its name and agents (a :class:`parlour.games.Game`)."""

    name: str
    agents: Mapping[str, Callable[..., Agent]]


#: the agents every game has (the game's own come from ``Game.agents``), as the errors list them
GENERIC_SPECS = ("random", "ppo:PATH[:sample]", "rllib:PATH[:sample]")


def float_option(name: str, value: str | None, default: float) -> float:
    """The number of option ``name`` of a spec string (``default`` when absent)."""
    if value is None:
        return default
    try:
        return float(value)
    except ValueError:
        raise ValueError(f"option {name} must be a number, got {value!r}") from None


def int_option(name: str, value: str | None, default: int, high: int | None = None) -> int:
    """The int of option ``name`` (``default`` when absent), at most ``high`` when given (the
    bounds of :mod:`parlour.limits`)."""
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ValueError(f"option {name} must be an int, got {value!r}") from None
    if high is not None and number > high:
        raise ValueError(f"option {name} must be <= {high:,}, got {number:,}")
    return number


def make_agent(
    spec: str,
    game: GameAgents,
    seed: int | None = None,
    players: int | None = None,
    *,
    trust: bool = False,
) -> Agent:
    """The agent named by ``spec`` for ``game`` (see the module table); ``players``, when
    known, lets a shipped model (``ppo:NAME``) refuse a table of another size at once.

    ``trust`` lets a model file that holds pickles (a Stable-Baselines3 zip, an RLlib
    checkpoint) load: such a file runs code while it loads (``--trust-model``,
    :mod:`parlour.agents.trust`); parlour's own model files load either way."""
    if not hasattr(game, "agents"):
        raise TypeError(f"make_agent takes a Game (get_game(name)), got {type(game).__name__}")
    if not isinstance(spec, str) or not spec:
        raise ValueError(f"agent spec must be a non-empty string, got {spec!r}")
    if spec.startswith("ppo:"):
        from parlour.agents.ppo import PPOAgent

        path = spec[4:]
        sample = path.endswith(":sample")
        if sample:
            path = path[: -len(":sample")]
        if not path:
            raise ValueError("agent spec 'ppo:PATH' needs the path of a saved model")
        shipped = lookup(path)
        if shipped is not None:
            check_model_fits(shipped, game.name, players, spec)
        return PPOAgent(
            spec, path, seed=seed, deterministic=not sample, shipped=shipped, trust=trust
        )
    if spec.startswith("rllib:"):
        from parlour.agents.rllib_agent import RLlibAgent

        path, sample = spec[len("rllib:") :].removesuffix(":sample"), spec.endswith(":sample")
        if not path:
            raise ValueError("agent spec 'rllib:PATH' needs the path of a run's checkpoint")
        return RLlibAgent(spec, path, seed=seed, deterministic=not sample, trust=trust)
    name, options = parse_spec(spec)
    if name == "random":
        builder: Callable[..., Agent] = _random
    elif name in game.agents:
        builder = game.agents[name]
    elif name.startswith("openspiel."):  # (OpenSpiel's bots: a game's plug-in offers them)
        raise ValueError(
            f"agent {name!r}: {game.name} offers no OpenSpiel bots (a game offers them in its "
            f"plug-in's agents: docs/openspiel.md); known agents: {', '.join(_known_specs(game))}"
        )
    elif "." in name and name.partition(".")[0] != game.name:  # (GAME.NAME: another game's)
        raise ValueError(
            f"agent {name!r} plays {name.partition('.')[0]}, not {game.name!r}; known agents: "
            f"{', '.join(_known_specs(game))}"
        )
    else:
        known = ", ".join(_known_specs(game))
        shipped = ", ".join(shipped_specs(game.name))
        raise ValueError(
            f"unknown agent {spec!r} for {game.name}; known agents: {known}"
            + (f"; shipped models: {shipped}" if shipped else "")
        )
    if "trust" in options:  # (only the caller grants trust, never a spec string)
        raise ValueError(f"agent {name!r}: trust is not an option (use {TRUST_FLAG})")
    if _takes(builder, "trust"):  # (a model option: the caller's trust decides what may load)
        options["trust"] = trust
    try:
        return builder(spec, seed, **options)
    except TypeError:
        raise ValueError(
            f"agent {name!r} does not take options {sorted(options)}; known agents: "
            f"{', '.join(_known_specs(game)[:-2])}"
        ) from None


def usage(name: str, builder: Callable[..., Any]) -> str:
    """How a spec of the agent ``name`` is written, from its builder's options:
    ``audition.expert[:sims=SIMS]``; a model agent's ``model`` first and required
    (``audition.search:model=MODEL[,sims=SIMS,...]``)."""
    options = [p for p in list(inspect.signature(builder).parameters)[2:] if p != "trust"]
    parts = [f"{p}={p.upper()}" for p in options if p != "model"]
    if "model" in options:
        return f"{name}:model=MODEL" + (f"[,{','.join(parts)}]" if parts else "")
    return f"{name}[:{','.join(parts)}]" if parts else name


def _known_specs(game: GameAgents) -> list[str]:
    """The specs an error lists: ``random``, the game's own agents with their options, then
    ``ppo:`` and ``rllib:`` (the last two)."""
    own = [usage(name, builder) for name, builder in game.agents.items()]
    return [GENERIC_SPECS[0], *own, *GENERIC_SPECS[1:]]


def _random(spec: str, seed: int | None) -> Agent:
    return RandomAgent(spec, seed)


def _takes(builder: Callable[..., Any], parameter: str) -> bool:
    return parameter in inspect.signature(builder).parameters


def shipped_specs(game: str, players: int | None = None) -> list[str]:
    """``ppo:NAME`` of every shipped model of ``game`` (and ``players``, when given)."""
    return [
        f"ppo:{m.name}"
        for m in read_index()
        if m.game == game and (players is None or m.players == players)
    ]


def spec_model_file(spec: str) -> str | None:
    """The model file (or run folder) an agent spec plays from — ``ppo:PATH[:sample]`` or a
    ``model=PATH`` option, a shipped model's name resolved — or None (a scripted agent)."""
    if spec.startswith("ppo:"):
        path = spec[len("ppo:") :].removesuffix(":sample")
    else:
        try:
            path = parse_spec(spec)[1].get("model")
        except ValueError:
            return None
        if path is None:
            return None
    return resolve_model_path(path)


def check_agents_fit(agents: Any, env: Any) -> None:
    """Let every agent that can check its fit to ``env`` do so (``ppo:`` models: observation
    and action sizes), so that a model of another game fails before any game is played."""
    for agent in agents:
        fits = getattr(agent, "check_fits", None)
        if fits is not None:
            fits(env)


def known_agents(game: GameAgents) -> list[str]:
    """Names of the agents of ``game`` that need no model: ``random`` and the game's own."""
    return ["random", *(n for n, b in game.agents.items() if not _takes(b, "model"))]


def model_agents(game: GameAgents) -> list[str]:
    """Names of the game's agents built on a trained model (``NAME:model=PATH``)."""
    return [n for n, b in game.agents.items() if _takes(b, "model")]


def describe(agent: Any) -> str:
    return getattr(agent, "spec", type(agent).__name__)
