"""Build agents from spec strings, the same names in configs and on the command line.

| spec | game | agent |
|---|---|---|
| ``random`` | any | uniform over legal actions (:mod:`parlour.agents.random_agent`) |
| ``audition.greedy`` | audition | one-ply greedy (:mod:`parlour.games.audition.greedy`) |
| ``audition.expert`` | audition | determinized Monte Carlo search (:mod:`parlour.games.audition.expert`); options ``sims=N`` |
| ``audition.search`` | audition | determinized search with rollouts by a trained PPO policy (:mod:`parlour.games.audition.search`); options ``model=PATH`` (required), ``sims=N``, ``rollout=policy`` or ``greedy``, ``top=K``, ``depth=D``, ``sample=0`` or ``1`` |
| ``guests.deducer`` | guests | deduction-engine baseline (:mod:`parlour.games.guests.deducer`); option ``p=P`` accuses once a candidate has probability ≥ P |
| ``ppo:PATH`` | any | a trained MaskablePPO model, most probable legal action (:mod:`parlour.agents.ppo`): parlour's model format (``.safetensors``), or a Stable-Baselines3 zip only with ``trust=True`` (``--trust-model``: a zip runs code while it loads) |
| ``ppo:NAME`` | its own | a model shipped with parlour, by short name (``ppo:audition-2p``; ``parlour models`` lists them, :mod:`parlour.models`); refused for another game or player count |
| ``ppo:PATH:sample`` | any | the same, sampling from the masked policy (also ``ppo:NAME:sample``) |
| ``rllib:PATH[:sample]`` | any | a policy trained with ``backend: rllib`` (``runs/NAME/checkpoint``), loaded without Ray (:mod:`parlour.agents.rllib_agent`) |

A game plug-in adds its own scripted agents (``GameSpec.agents``: spec name →
``"module:builder"``, called as ``builder(spec, seed, **options)``), e.g. ``countdown.careful``
of the test game in ``tests/games/countdown/``.

Options follow the name after a colon, comma separated: ``audition.expert:sims=200``
(``sims`` ≤ 10,000, ``top`` ≤ 27, ``depth`` ≤ 1,000: :mod:`parlour.limits`).
An unknown name, an option the agent does not take, or an agent of another game raise
``ValueError`` listing what is known. ``game`` is a :class:`~parlour.games.GameSpec` or a
game name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from parlour.agents.base import Agent
from parlour.agents.trust import TRUST_FLAG
from parlour.limits import MAX_SEARCH_DEPTH, MAX_SEARCH_TOP, MAX_SIMS
from parlour.models import parse_spec  # (the spec syntax: the registry reads it too)

if TYPE_CHECKING:
    from parlour.games import GameSpec

#: name -> (games it plays, or None for every game; builder(spec, seed, **options))
_BUILDERS: dict[str, tuple[tuple[str, ...] | None, Callable[..., Agent]]] = {}
#: agents that need a trained model (option ``model=PATH``): not in :func:`known_agents`
_NEEDS_MODEL: set[str] = set()


def _register(name: str, games: tuple[str, ...] | None, needs_model: bool = False):
    def deco(fn: Callable[..., Agent]) -> Callable[..., Agent]:
        _BUILDERS[name] = (games, fn)
        if needs_model:
            _NEEDS_MODEL.add(name)
        return fn

    return deco


@_register("random", None)
def _random(spec: str, seed: int | None) -> Agent:
    from parlour.agents.random_agent import RandomAgent

    return RandomAgent(spec, seed)


@_register("audition.greedy", ("audition",))
def _greedy(spec: str, seed: int | None) -> Agent:
    from parlour.games.audition.greedy import GreedyAgent

    return GreedyAgent(spec, seed)


@_register("audition.expert", ("audition",))
def _expert(spec: str, seed: int | None, sims: str | None = None) -> Agent:
    from parlour.games.audition.expert import DEFAULT_SIMS, ExpertAgent

    return ExpertAgent(spec, seed, sims=_int_option("sims", sims, DEFAULT_SIMS, MAX_SIMS))


@_register("audition.search", ("audition",), needs_model=True)
def _search(
    spec: str,
    seed: int | None,
    trust: bool = False,
    model: str | None = None,
    sims: str | None = None,
    rollout: str | None = None,
    top: str | None = None,
    depth: str | None = None,
    sample: str | None = None,
) -> Agent:
    from parlour.games.audition.search import DEFAULT_DEPTH, DEFAULT_SIMS, SearchAgent

    return SearchAgent(
        spec,
        seed,
        model=model,
        trust=trust,
        sims=_int_option("sims", sims, DEFAULT_SIMS, MAX_SIMS),
        rollout=rollout if rollout is not None else "policy",
        top=_int_option("top", top, 0, MAX_SEARCH_TOP),
        depth=_int_option("depth", depth, DEFAULT_DEPTH, MAX_SEARCH_DEPTH),
        sample=_int_option("sample", sample, 0),
    )


@_register("guests.deducer", ("guests",))
def _deducer(spec: str, seed: int | None, p: str | None = None) -> Agent:
    from parlour.games.guests.deducer import DeducerAgent

    return DeducerAgent(spec, seed, p=_float_option("p", p, 1.0))


KNOWN_SPECS = (
    "random",
    "audition.greedy",
    "audition.expert[:sims=N]",
    "audition.search:model=PATH[,sims=N,rollout=policy|greedy,top=K,depth=D,sample=0|1]",
    "guests.deducer[:p=P]",
    "ppo:PATH[:sample]",
    "rllib:PATH[:sample]",
)


def _float_option(name: str, value: str | None, default: float) -> float:
    if value is None:
        return default
    try:
        return float(value)
    except ValueError:
        raise ValueError(f"option {name} must be a number, got {value!r}") from None


def _int_option(name: str, value: str | None, default: int, high: int | None = None) -> int:
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
    game: GameSpec | str,
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
    from parlour.games import get_game, load_object

    game = get_game(game)
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
        from parlour.models import check_model_fits, lookup

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
    if name in game.agents:
        builder = load_object(game.agents[name])
    elif name in _BUILDERS:
        games, builder = _BUILDERS[name]
        if games is not None and game.name not in games:
            raise ValueError(f"agent {name!r} plays {', '.join(games)}, not {game.name!r}")
    else:
        known = ", ".join([*KNOWN_SPECS, *game.agents, *shipped_specs(game.name)])
        raise ValueError(f"unknown agent {spec!r}; known agents: {known}")
    if "trust" in options:  # (only the caller grants trust, never a spec string)
        raise ValueError(f"agent {name!r}: trust is not an option (use {TRUST_FLAG})")
    if name in _NEEDS_MODEL:  # (a model option: the caller's trust decides what may load)
        options["trust"] = trust
    try:
        return builder(spec, seed, **options)
    except TypeError:
        raise ValueError(
            f"agent {name!r} does not take options {sorted(options)}; known agents: "
            f"{', '.join([*KNOWN_SPECS, *game.agents])}"
        ) from None


def shipped_specs(game: str, players: int | None = None) -> list[str]:
    """``ppo:NAME`` of every shipped model of ``game`` (and ``players``, when given)."""
    from parlour.models import read_index

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
    from parlour.models import resolve_model_path

    return resolve_model_path(path)


def check_agents_fit(agents: Any, env: Any) -> None:
    """Let every agent that can check its fit to ``env`` do so (``ppo:`` models: observation
    and action sizes), so that a model of another game fails before any game is played."""
    for agent in agents:
        fits = getattr(agent, "check_fits", None)
        if fits is not None:
            fits(env)


def known_agents(game: GameSpec | str | None = None) -> list[str]:
    """Names of the scripted agents that need no model (for ``game`` if given: with the
    plug-in's own)."""
    return [n for n in _names(game) if n not in _NEEDS_MODEL]


def model_agents(game: GameSpec | str | None = None) -> list[str]:
    """Names of the agents built on a trained model (``NAME:model=PATH``), for ``game`` if given."""
    return [n for n in _names(game) if n in _NEEDS_MODEL]


def _names(game: GameSpec | str | None) -> list[str]:
    if game is None:
        return list(_BUILDERS)
    from parlour.games import get_game

    spec = get_game(game)
    ours = [n for n, (g, _) in _BUILDERS.items() if g is None or spec.name in g]
    return ours + list(spec.agents)


def describe(agent: Any) -> str:
    return getattr(agent, "spec", type(agent).__name__)
