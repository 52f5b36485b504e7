"""Training configs: the YAML schema of ``parlour train CONFIG``, validated on load.

``CONFIG`` is a path to a YAML file, or the name of a config shipped with parlour (a name with
no folder and no suffix, e.g. ``audition_2p``: the ``parlour.configs`` package data;
:func:`resolve_config_path`, :func:`shipped_configs`).

Unknown keys, wrong types and out-of-range values raise :class:`ConfigError` naming the key
(``ppo.n_steps: expected int, got 'x'``). Every key is optional except ``name``; defaults below.
Validation resolves the game once (:attr:`TrainConfig.game_spec`) and checks the players, the
agent specs and the game options against it.

| key | type | default | meaning |
|---|---|---|---|
| ``name`` | str | — | run folder ``runs/<name>/`` |
| ``game`` | str | ``audition`` | game: a registered name or ``module:ATTR`` naming a ``Game`` (:mod:`parlour.games`) |
| ``players`` | int | 2 | seats |
| ``game_options`` | mapping | ``{}`` | env constructor options (Audition: ``action_cards``, ``uncertain_counts``, ``reward_mode``, ``mini``), and the game's training-only options |
| ``seed`` | int | 0 | seeds SB3/torch, the envs and the evaluations (a ``--resume`` session: a seed derived from it and the step it resumes at, ``train.session_seed``) |
| ``total_timesteps`` | int | 200000 | learner steps |
| ``n_envs`` | int | 2 | parallel envs |
| ``vec_env`` | ``subproc`` / ``dummy`` / ``batched`` | ``subproc`` | ``SubprocVecEnv`` (one process per env), in-process, or the game's batched env (``n_envs`` games in one process: Audition as arrays, Awkward Guests as :mod:`parlour.train.multi_game`; ``Training.batched_vec_env`` or ``Training.multi_game``, falling back to ``subproc``) |
| ``torch_threads`` | int | 1 | torch threads of the training process: 1 when the envs run in worker processes (more threads thrash against them); 2 pays on 2 free cores when the whole loop runs in one process (``vec_env: batched``) |
| ``opponents.baselines`` | mapping spec → weight | ``{random: 1}`` | baseline opponents and their weights (any agent spec of the game; Audition's ``vec_env: batched`` plays ``random``, ``audition.greedy``, ``audition.expert[:sims=N]`` and ``ppo:`` specs in batch, and falls back to ``subproc`` for others) |
| ``opponents.snapshot_every`` | int | 0 | learner steps between snapshots added to the pool (0: no self-play) |
| ``opponents.snapshot_weight`` | float | 0.5 | probability that an opponent seat is a snapshot (once one exists) |
| ``opponents.max_snapshots`` | int | 5 | snapshots kept (oldest dropped) |
| ``ppo.*`` | | see :class:`PPOConfig` | MaskablePPO hyper-parameters (``learning_rate_end``: decay the learning rate linearly to this value over the run; null keeps it constant), ``net_arch`` (a list of layer sizes for both networks, or SB3's ``{pi: [...], vf: [...]}``), ``activation`` (``tanh``/``relu``), ``features`` (use the game's feature extractor, ``Training.features_extractor``), ``features_extractor_kwargs`` (that extractor's options: its constructor's parameters annotated bool, int, float or str, e.g. Audition's ``count_indicators``) |
| ``eval.every`` | int | 50000 | learner steps between evaluations against ``eval.agents`` |
| ``eval.games`` | int | 200 | games per periodic evaluation and baseline |
| ``eval.agents`` | list | the game's cheap baselines | periodic evaluation opponents |
| ``eval.final_games`` | int | 1000 | games per final evaluation and baseline |
| ``eval.final_agents`` | list | same as ``eval.agents`` | final evaluation opponents |
| ``eval.workers`` | int or null | null (cores) | evaluation processes |
| ``checkpoint_every`` | int | 50000 | learner steps between checkpoints (for ``--resume``) |
| ``backend`` | ``sb3`` / ``rllib`` | ``sb3`` | the trainer: SB3 MaskablePPO in one process, or multi-agent PPO on RLlib (Ray; :mod:`parlour.train.rllib`) |
| ``rllib.*`` | | see :mod:`parlour.train.rllib.settings` | what only the RLlib backend has: env runners, learners, batch sizes, network, baseline share, cluster address |
| ``imitation.teacher`` | str or null | null | a warm start: this agent spec (e.g. ``guests.deducer``) plays the learner's seat first and the fresh network is fitted to its decisions before PPO starts (:mod:`parlour.train.imitation`; ``vec_env: dummy``, or ``batched`` for Awkward Guests) |
| ``imitation.*`` | | see :class:`ImitationConfig` | ``steps`` recorded, ``epochs``, ``batch_size``, ``learning_rate`` of the fit |
| ``init_from`` | str or null | null | start from the weights (and Adam state) of this ``model.safetensors`` (a Stable-Baselines3 ``.zip`` only with ``--trust-model``; a path from the current folder; same game, players, observation and network) instead of a fresh network: a second training stage (curriculum, fine-tuning) with its own opponents and hyper-parameters; the step count starts at 0; ignored by ``--resume`` (the checkpoint has the weights) |
"""

from __future__ import annotations

import dataclasses
import importlib.resources
import math
import os
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from parlour import games as registry  # (the game registry: registry.get_game(name))
from parlour._files import read_regular_file
from parlour.agents import factory
from parlour.agents.model_document import (
    extractor_option_rule,
    extractor_options,
    is_extractor_option,
)
from parlour.games import Game
from parlour.train.bounds import check_config, check_network
from parlour.train.rllib.settings import RLlibSettings

#: the package whose ``<name>.yaml`` data files are the shipped configs
CONFIG_PACKAGE = "parlour.configs"
CONFIG_SUFFIX = ".yaml"
#: the trainers of ``backend:``
BACKENDS = ("sb3", "rllib")
#: the allowed ``vec_env`` values
VEC_ENVS = ("subproc", "dummy", "batched")
#: the model files ``init_from`` names: parlour's format, or (with ``--trust-model``) an SB3 zip
INIT_FROM_SUFFIXES = (".safetensors", ".zip")
#: the largest config file read (the shipped ones are ~2 KB): ``/dev/zero`` or a 100 MB file is
#: refused before it is read
MAX_CONFIG_BYTES = 1 << 20


class ConfigError(ValueError):
    """A config file that does not match the schema."""


@dataclass
class OpponentsConfig:
    """Who plays the learner's opponents (:class:`parlour.train.opponents.OpponentPool`)."""

    #: baseline agent specs -> sampling weights (>= 0, a positive sum)
    baselines: dict[str, float] = field(default_factory=lambda: {"random": 1.0})
    #: learner steps between snapshots added to the pool (0: no self-play)
    snapshot_every: int = 0
    #: probability that an opponent seat is a snapshot, once one exists
    snapshot_weight: float = 0.5
    #: snapshots kept in the pool (the oldest is dropped)
    max_snapshots: int = 5


@dataclass
class PPOConfig:
    """MaskablePPO hyper-parameters and network (SB3's names)."""

    #: Adam learning rate (at the start, with ``learning_rate_end``)
    learning_rate: float = 3e-4
    #: decay the learning rate linearly to this value over the run (None: constant)
    learning_rate_end: float | None = None
    #: steps per env per rollout
    n_steps: int = 1024
    #: minibatch size
    batch_size: int = 256
    #: passes over each rollout
    n_epochs: int = 5
    #: discount factor
    gamma: float = 1.0
    #: GAE lambda
    gae_lambda: float = 0.95
    #: PPO clip range
    clip_range: float = 0.2
    #: entropy bonus coefficient
    ent_coef: float = 0.01
    #: value loss coefficient
    vf_coef: float = 0.5
    #: gradient norm clip
    max_grad_norm: float = 0.5
    #: hidden layer sizes of the policy and value networks ([]: linear heads), or SB3's
    #: ``{pi: [...], vf: [...]}`` for a different size each
    net_arch: list[int] | dict[str, list[int]] = field(default_factory=lambda: [256, 256])
    #: hidden activation: tanh or relu
    activation: str = "tanh"
    #: use the game's features extractor and policy (``Training.features_extractor``)
    features: bool = True
    #: options of the game's features extractor (SB3's ``features_extractor_kwargs``; saved
    #: with the model), e.g. Audition's ``{count_indicators: true}``
    features_extractor_kwargs: dict[str, Any] = field(default_factory=dict)


@dataclass
class EvalConfig:
    """Evaluations during and after training (tournaments, :mod:`parlour.eval.tournament`)."""

    #: learner steps between periodic evaluations
    every: int = 50000
    #: games per periodic evaluation and opponent
    games: int = 200
    #: periodic evaluation opponents (None: the game's ``eval_baselines``)
    agents: list[str] | None = None
    #: games per final evaluation and opponent
    final_games: int = 1000
    #: final evaluation opponents (None: the same as ``agents``)
    final_agents: list[str] | None = None
    #: evaluation processes (None: one per core)
    workers: int | None = None


@dataclass
class ImitationConfig:
    """Behaviour cloning of a scripted teacher before PPO (:mod:`parlour.train.imitation`)."""

    #: the teacher's agent spec, playing the learner's seat (None: no imitation stage)
    teacher: str | None = None
    #: learner decisions to record (those of games unfinished at the end are dropped)
    steps: int = 100000
    #: passes over the recorded decisions
    epochs: int = 8
    #: minibatch size of the fit
    batch_size: int = 256
    #: Adam learning rate of the fit
    learning_rate: float = 1e-3


@dataclass
class TrainConfig:
    """One training run (the module docstring has the table)."""

    #: the run folder ``runs/<name>/``
    name: str
    #: the game: a registered name or "module:ATTR" naming a Game
    game: str = "audition"
    #: seats at the table
    players: int = 2
    #: env constructor options, and the game's training-only options
    game_options: dict[str, Any] = field(default_factory=dict)
    #: seeds SB3/torch, the envs and the evaluations
    seed: int = 0
    #: learner steps
    total_timesteps: int = 200000
    #: parallel training envs
    n_envs: int = 2
    #: subproc (one process per env), dummy (in-process) or batched (the game's batched env)
    vec_env: str = "subproc"
    #: torch threads of the training process (the PPO update and the learner's forward passes)
    torch_threads: int = 1
    #: the opponent pool
    opponents: OpponentsConfig = field(default_factory=OpponentsConfig)
    #: MaskablePPO
    ppo: PPOConfig = field(default_factory=PPOConfig)
    #: evaluations
    eval: EvalConfig = field(default_factory=EvalConfig)
    #: learner steps between checkpoints (for --resume)
    checkpoint_every: int = 50000
    #: behaviour cloning of a teacher before PPO (a new run's first stage)
    imitation: ImitationConfig = field(default_factory=ImitationConfig)
    #: start from the weights (and Adam state) of this model file (None: a fresh network)
    init_from: str | None = None
    #: the trainer: sb3 or rllib
    backend: str = "sb3"
    #: the RLlib backend's own settings
    rllib: RLlibSettings = field(default_factory=RLlibSettings)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @property
    def trust_model(self) -> bool:
        """Whether the run's agents (opponents, evaluation agents, the teacher) and
        ``init_from`` may be pickle-bearing model files, which run code while they load:
        ``parlour train --trust-model``. Never a config key (a config file cannot grant it)
        and not saved with the config."""
        return bool(self.__dict__.get("_trust_model", False))

    @trust_model.setter
    def trust_model(self, value: bool) -> None:
        self.__dict__["_trust_model"] = bool(value)

    @property
    def game_spec(self) -> Game:
        """The game's plug-in spec: resolved once (by validation, or on first use)."""
        spec = self.__dict__.get("_game_spec")
        if spec is None:
            spec = self.__dict__["_game_spec"] = registry.get_game(self.game)
        return spec


def _check(value: Any, tp: Any, key: str) -> Any:
    """``value`` converted to / checked against the annotation ``tp``."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        if value is None and type(None) in args:
            return None
        errors = []
        for a in args:
            if a is type(None):
                continue
            try:
                return _check(value, a, key)
            except ConfigError as exc:
                errors.append(str(exc))
        raise ConfigError(errors[0])
    if dataclasses.is_dataclass(tp):
        return _build(tp, value, key)
    if origin is list:
        if not isinstance(value, list):
            raise ConfigError(f"{key}: expected a list, got {value!r}")
        (item,) = typing.get_args(tp)
        return [_check(v, item, f"{key}[{i}]") for i, v in enumerate(value)]
    if origin is dict:
        if not isinstance(value, dict):
            raise ConfigError(f"{key}: expected a mapping, got {value!r}")
        kt, vt = typing.get_args(tp)
        return {_check(k, kt, key): _check(v, vt, f"{key}.{k}") for k, v in value.items()}
    if tp is Any:
        return value
    if tp is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{key}: expected true or false, got {value!r}")
        return value
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(f"{key}: expected a number, got {value!r}")
        if not math.isfinite(value):
            raise ConfigError(f"{key}: expected a finite number, got {value!r}")
        return float(value)
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{key}: expected int, got {value!r}")
        return value
    if tp is str:
        if not isinstance(value, str):
            raise ConfigError(f"{key}: expected a string, got {value!r}")
        return value
    raise ConfigError(f"{key}: unsupported type {tp}")  # pragma: no cover


def _build(cls: type, data: Any, prefix: str = "") -> Any:
    if not isinstance(data, dict):
        raise ConfigError(f"{prefix or 'config'}: expected a mapping, got {data!r}")
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields), key=str)  # (YAML keys may be ints too)
    if unknown:
        where = f" in {prefix}" if prefix else ""
        raise ConfigError(f"unknown key(s){where}: {unknown}; allowed: {sorted(fields)}")
    kwargs = {}
    for name, f in fields.items():
        key = f"{prefix}.{name}" if prefix else name
        if name in data:
            kwargs[name] = _check(data[name], hints[name], key)
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise ConfigError(f"missing required key {key!r}")
    return cls(**kwargs)


def with_defaults(data: dict[str, Any]) -> dict[str, Any]:
    """A saved config mapping (a run folder's ``config.yaml``) with each key it lacks set to
    its default: a run written before a key existed compares equal to a config that leaves the
    key at its default (``--resume``, :func:`parlour.train.run_folder.check_resume`). A mapping
    this schema cannot read is returned as it is (the comparison then names what differs)."""
    try:
        return _build(TrainConfig, data).to_dict()
    except ConfigError:
        return data


def check_run_name(name: str) -> None:
    """``ValueError`` unless ``name`` is a plain folder name (no separators, not ``.``/``..``)."""
    bad = (
        not name.strip()
        or name in (".", "..")
        or "/" in name
        or "\\" in name
        or (os.altsep is not None and os.altsep in name)
        or "\0" in name
    )
    if bad:
        raise ValueError(
            f"name: a plain folder name (no '/' or '\\', not '.' or '..'), got {name!r}"
        )


def _check_extractor_kwargs(cfg: TrainConfig) -> None:
    """``ppo.features_extractor_kwargs``: only for the SB3 backend with the game's extractor in
    use; each key a parameter of the extractor's constructor with a type annotation, each value
    of that type."""
    key = "ppo.features_extractor_kwargs"
    p = cfg.ppo
    if cfg.backend != "sb3":
        raise ConfigError(f"{key}: only with backend: sb3, got backend: {cfg.backend}")
    if not p.features:
        raise ConfigError(f"{key}: needs ppo.features: true (the game's extractor)")
    extractor = cfg.game_spec.training.extractor()
    if extractor is None:
        raise ConfigError(f"{key}: the game {cfg.game!r} has no features extractor")
    options = extractor_options(extractor)
    for name, value in p.features_extractor_kwargs.items():
        if name not in options:
            raise ConfigError(
                f"{key}: unknown option {name!r} of {extractor.__name__}; "
                f"allowed: {sorted(options)}"
            )
        _check(value, options[name], f"{key}.{name}")
        if not is_extractor_option(value, options[name]):  # (the model file's bounds)
            raise ConfigError(f"{key}.{name}: {extractor_option_rule(options[name], value)}")


def _validate(cfg: TrainConfig) -> None:
    def need(ok: bool, msg: str) -> None:
        if not ok:
            raise ConfigError(msg)

    try:
        spec = cfg.game_spec
    except ValueError as exc:
        raise ConfigError(f"game: {exc}") from None
    need(
        spec.min_players <= cfg.players <= spec.max_players,
        f"players: must be in {spec.min_players}..{spec.max_players}, got {cfg.players}",
    )
    try:
        check_run_name(cfg.name)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    need(cfg.total_timesteps > 0, "total_timesteps: must be > 0")
    try:
        check_config(cfg)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    need(0 <= cfg.seed < 2**32, f"seed: must be in 0..2**32 - 1 (what SB3 takes), got {cfg.seed}")
    need(cfg.n_envs >= 1, "n_envs: must be >= 1")
    need(cfg.vec_env in VEC_ENVS, f"vec_env: one of {', '.join(VEC_ENVS)}, got {cfg.vec_env!r}")
    need(cfg.checkpoint_every > 0, "checkpoint_every: must be > 0")
    need(cfg.torch_threads >= 1, f"torch_threads: must be >= 1, got {cfg.torch_threads}")
    need(
        cfg.init_from is None or cfg.init_from.endswith(INIT_FROM_SUFFIXES),
        f"init_from: a model file path ({' or '.join(INIT_FROM_SUFFIXES)}) or null, "
        f"got {cfg.init_from!r}",
    )
    need(cfg.backend in BACKENDS, f"backend: one of {', '.join(BACKENDS)}, got {cfg.backend!r}")
    need(cfg.backend == "sb3" or cfg.init_from is None, "init_from: only with backend: sb3")
    im = cfg.imitation
    if im.teacher is not None:
        need(cfg.backend == "sb3", f"imitation: only with backend: sb3, got backend: {cfg.backend}")
        need(cfg.init_from is None, "imitation: a fresh network only, not with init_from")
        need(cfg.vec_env != "subproc", "imitation: vec_env: dummy or batched, got vec_env: subproc")
        need(im.steps >= 1, f"imitation.steps: must be >= 1, got {im.steps}")
        need(im.epochs >= 1, f"imitation.epochs: must be >= 1, got {im.epochs}")
        need(im.batch_size >= 1, f"imitation.batch_size: must be >= 1, got {im.batch_size}")
        need(im.learning_rate > 0, f"imitation.learning_rate: must be > 0, got {im.learning_rate}")
    for problem in cfg.rllib.problems():
        need(False, problem)
    o = cfg.opponents
    need(o.snapshot_every >= 0, "opponents.snapshot_every: must be >= 0")
    need(0.0 <= o.snapshot_weight <= 1.0, "opponents.snapshot_weight: must be in [0, 1]")
    need(o.max_snapshots >= 1, "opponents.max_snapshots: must be >= 1")
    need(bool(o.baselines), "opponents.baselines: at least one")
    need(all(w >= 0 for w in o.baselines.values()), "opponents.baselines: weights must be >= 0")
    need(sum(o.baselines.values()) > 0, "opponents.baselines: the weights must have a positive sum")
    p = cfg.ppo
    need(p.n_steps >= 1 and p.batch_size >= 1 and p.n_epochs >= 1, "ppo: sizes must be >= 1")
    # (SB3 normalises each minibatch's advantages: a minibatch of one is NaN)
    need(p.batch_size >= 2, f"ppo.batch_size: must be >= 2, got {p.batch_size}")
    need(
        p.n_steps * cfg.n_envs >= 2,
        f"ppo.n_steps x n_envs: a rollout needs >= 2 steps, got {p.n_steps} x {cfg.n_envs}",
    )
    need(  # (SB3's last minibatch holds the rest of the rollout: one sample is NaN too)
        p.n_steps * cfg.n_envs % p.batch_size != 1,
        f"ppo.batch_size: a rollout of ppo.n_steps x n_envs = {p.n_steps * cfg.n_envs} steps "
        f"leaves a last minibatch of one sample with batch_size {p.batch_size}; choose another",
    )
    need(p.learning_rate > 0, "ppo.learning_rate: must be > 0")
    need(
        p.learning_rate_end is None or 0 <= p.learning_rate_end <= p.learning_rate,
        "ppo.learning_rate_end: must be in [0, ppo.learning_rate] or null",
    )
    need(0 < p.gamma <= 1, f"ppo.gamma: must be in (0, 1], got {p.gamma}")
    need(0 <= p.gae_lambda <= 1, f"ppo.gae_lambda: must be in [0, 1], got {p.gae_lambda}")
    need(p.clip_range > 0, f"ppo.clip_range: must be > 0, got {p.clip_range}")
    need(p.ent_coef >= 0 and p.vf_coef >= 0, "ppo.ent_coef, ppo.vf_coef: must be >= 0")
    need(p.max_grad_norm > 0, f"ppo.max_grad_norm: must be > 0, got {p.max_grad_norm}")
    need(p.activation in ("tanh", "relu"), f"ppo.activation: tanh or relu, got {p.activation!r}")
    if isinstance(p.net_arch, dict):
        need(
            sorted(p.net_arch) == ["pi", "vf"],
            f"ppo.net_arch: a list of layer sizes, or a mapping with the keys pi and vf, "
            f"got the keys {sorted(p.net_arch)}",
        )
        need(
            cfg.backend == "sb3" or cfg.rllib.net_arch is not None,
            "ppo.net_arch: {pi, vf} is SB3's form; with backend: rllib set rllib.net_arch",
        )
    layers = p.net_arch["pi"] + p.net_arch["vf"] if isinstance(p.net_arch, dict) else p.net_arch
    need(all(w >= 1 for w in layers), "ppo.net_arch: layer sizes must be >= 1")
    if p.features_extractor_kwargs:
        _check_extractor_kwargs(cfg)
    e = cfg.eval
    need(e.every > 0 and e.games > 0 and e.final_games > 0, "eval: every/games must be > 0")
    need(
        e.workers is None or e.workers >= 1, f"eval.workers: must be >= 1 or null, got {e.workers}"
    )
    if e.agents is None:
        e.agents = list(spec.eval_baselines)
    if e.final_agents is None:
        e.final_agents = list(e.agents)
    need(bool(e.agents), "eval.agents: at least one agent (or leave it out: the game's baselines)")
    need(bool(e.final_agents), "eval.final_agents: at least one agent (or leave it out)")
    try:  # the game options are checked by building the env once
        env = registry.make_raw_env(spec, cfg.players, **cfg.game_options)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"game_options: {exc}") from None
    try:
        try:  # (the network's size: on the env's observation)
            check_network(cfg, env)
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        for where, s in agent_specs(cfg):
            try:  # (a model of another game or table refuses now, not mid-run)
                agent = factory.make_agent(s, spec, players=cfg.players, trust=cfg.trust_model)
                factory.check_agents_fit([agent], env)
            except (ValueError, FileNotFoundError) as exc:
                raise ConfigError(f"{where}: {exc}") from None
    finally:
        env.close()


def agent_specs(cfg: TrainConfig) -> list[tuple[str, str]]:
    """``(config key, spec)`` of every agent the run plays with or against (``eval.agents``
    and ``eval.final_agents`` as validation fills them in)."""
    e, teacher = cfg.eval, cfg.imitation.teacher
    return [
        (where, spec)
        for where, specs in (
            ("opponents.baselines", list(cfg.opponents.baselines)),
            ("eval.agents", e.agents or []),
            ("eval.final_agents", e.final_agents or []),
            ("imitation.teacher", [teacher] if teacher is not None else []),
        )
        for spec in specs
    ]


def shipped_configs() -> list[str]:
    """The names of the configs shipped with parlour (``parlour train NAME``)."""
    folder = importlib.resources.files(CONFIG_PACKAGE)
    return sorted(
        f.name.removesuffix(CONFIG_SUFFIX)
        for f in folder.iterdir()
        if f.is_file() and f.name.endswith(CONFIG_SUFFIX)
    )


def resolve_config_path(config: str | Path) -> Any:
    """The file of ``config``: a path to a YAML file, or the name of a shipped config (no
    folder, no suffix: ``audition_2p``) — ``importlib.resources.files("parlour.configs") /
    "audition_2p.yaml"``."""
    path = Path(config)
    if path.exists():
        return path
    is_name = path.name == str(config) and not path.suffix
    if not is_name:
        raise ConfigError(f"no config file at {str(config)!r}")
    shipped = importlib.resources.files(CONFIG_PACKAGE) / f"{config}{CONFIG_SUFFIX}"
    if not shipped.is_file():
        raise ConfigError(
            f"no config file or shipped config named {str(config)!r}; shipped configs: "
            f"{', '.join(shipped_configs())}"
        )
    return shipped


def load_config(path: str | Path, trust: bool = False) -> TrainConfig:
    """Read and validate a YAML training config (a path, or a shipped config's name);
    ``trust``: its agents and ``init_from`` may be pickle-bearing model files
    (:attr:`TrainConfig.trust_model`)."""
    source = resolve_config_path(path)
    try:
        if isinstance(source, Path):  # a user's file: a regular file of a bounded size
            raw = read_regular_file(source, max_bytes=MAX_CONFIG_BYTES, what="config")
        else:  # a shipped config (package data)
            raw = source.read_bytes()
    except (OSError, ValueError) as exc:  # (a folder, FIFO, device, too large, unreadable)
        raise ConfigError(f"cannot read the config: {exc}") from None
    try:
        data = yaml.load(raw.decode("utf-8"), Loader=UniqueKeyLoader)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{source}: not valid YAML: {' '.join(str(exc).split())}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{source}: cannot read the config: {exc}") from None
    return config_from_dict(data, trust)


class UniqueKeyLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that refuses a mapping with a repeated key (YAML forbids them;
    PyYAML would keep the last silently)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if not isinstance(key, typing.Hashable):
                continue  # (SafeLoader reports an unhashable key itself)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r}", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def config_from_dict(data: Any, trust: bool = False) -> TrainConfig:
    """The validated config of a mapping; ``trust``: :attr:`TrainConfig.trust_model`."""
    cfg = _build(TrainConfig, data)
    cfg.trust_model = trust
    _validate(cfg)
    return cfg


def to_yaml(data: dict[str, Any]) -> str:
    """``data`` (a config's :meth:`TrainConfig.to_dict`) as the YAML of a run's ``config.yaml``."""
    return yaml.safe_dump(data, sort_keys=False)
