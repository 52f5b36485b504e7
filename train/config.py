"""Training configs: the YAML schema of ``parlour train CONFIG``, validated on load.

Unknown keys, wrong types and out-of-range values raise :class:`ConfigError` naming the key
(``ppo.n_steps: expected int, got 'x'``). Every key is optional except ``name``; defaults below.

| key | type | default | meaning |
|---|---|---|---|
| ``name`` | str | — | run folder ``runs/<name>/`` |
| ``game`` | str | ``audition`` | game (:mod:`parlour.train.games`) |
| ``players`` | int | 2 | seats |
| ``game_options`` | mapping | ``{}`` | env constructor options (``action_cards``, ``uncertain_counts``, ``reward_mode``) |
| ``seed`` | int | 0 | seeds SB3/torch, the envs and the evaluations |
| ``total_timesteps`` | int | 200000 | learner steps |
| ``n_envs`` | int | 2 | parallel envs |
| ``vec_env`` | ``subproc`` / ``dummy`` | ``subproc`` | ``SubprocVecEnv`` (one process per env) or in-process |
| ``opponents.baselines`` | mapping spec → weight | ``{random: 1}`` | baseline opponents and their weights |
| ``opponents.snapshot_every`` | int | 0 | learner steps between snapshots added to the pool (0: no self-play) |
| ``opponents.snapshot_weight`` | float | 0.5 | probability that an opponent seat is a snapshot (once one exists) |
| ``opponents.max_snapshots`` | int | 5 | snapshots kept (oldest dropped) |
| ``ppo.*`` | | see :class:`PPOConfig` | MaskablePPO hyper-parameters (``learning_rate_end``: decay the learning rate linearly to this value over the run; null keeps it constant), ``net_arch`` (list of ints), ``activation`` (``tanh``/``relu``), ``features`` (use the game's feature extractor, :mod:`parlour.train.features`) |
| ``eval.every`` | int | 50000 | learner steps between evaluations against ``eval.agents`` |
| ``eval.games`` | int | 200 | games per periodic evaluation and baseline |
| ``eval.agents`` | list | the game's cheap baselines | periodic evaluation opponents |
| ``eval.final_games`` | int | 1000 | games per final evaluation and baseline |
| ``eval.final_agents`` | list | same as ``eval.agents`` | final evaluation opponents |
| ``eval.workers`` | int or null | null (cores) | evaluation processes |
| ``checkpoint_every`` | int | 50000 | learner steps between checkpoints (for ``--resume``) |
| ``init_from`` | str or null | null | start from the weights (and Adam state) of this ``model.zip`` (a path from the current folder; same game, players, observation and network) instead of a fresh network: a second training stage (curriculum, fine-tuning) with its own opponents and hyper-parameters; the step count starts at 0; ignored by ``--resume`` (the checkpoint has the weights) |
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml


class ConfigError(ValueError):
    """A config file that does not match the schema."""


@dataclass
class OpponentsConfig:
    baselines: dict[str, float] = field(default_factory=lambda: {"random": 1.0})
    snapshot_every: int = 0
    snapshot_weight: float = 0.5
    max_snapshots: int = 5


@dataclass
class PPOConfig:
    learning_rate: float = 3e-4
    learning_rate_end: float | None = None
    n_steps: int = 1024
    batch_size: int = 256
    n_epochs: int = 5
    gamma: float = 1.0
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    net_arch: list[int] = field(default_factory=lambda: [256, 256])
    activation: str = "tanh"
    features: bool = True


@dataclass
class EvalConfig:
    every: int = 50000
    games: int = 200
    agents: list[str] | None = None
    final_games: int = 1000
    final_agents: list[str] | None = None
    workers: int | None = None


@dataclass
class TrainConfig:
    name: str
    game: str = "audition"
    players: int = 2
    game_options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    total_timesteps: int = 200000
    n_envs: int = 2
    vec_env: str = "subproc"
    opponents: OpponentsConfig = field(default_factory=OpponentsConfig)
    ppo: PPOConfig = field(default_factory=PPOConfig)
    eval: EvalConfig = field(default_factory=EvalConfig)
    checkpoint_every: int = 50000
    init_from: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


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
    unknown = sorted(set(data) - set(fields))
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


def _validate(cfg: TrainConfig) -> None:
    from parlour.train.games import get_game

    def need(ok: bool, msg: str) -> None:
        if not ok:
            raise ConfigError(msg)

    try:
        spec = get_game(cfg.game)
    except ValueError as exc:
        raise ConfigError(f"game: {exc}") from None
    need(
        spec.min_players <= cfg.players <= spec.max_players,
        f"players: must be in {spec.min_players}..{spec.max_players}, got {cfg.players}",
    )
    need(cfg.name.strip() != "" and "/" not in cfg.name, f"name: a folder name, got {cfg.name!r}")
    need(cfg.total_timesteps > 0, "total_timesteps: must be > 0")
    need(cfg.n_envs >= 1, "n_envs: must be >= 1")
    need(cfg.vec_env in ("subproc", "dummy"), f"vec_env: subproc or dummy, got {cfg.vec_env!r}")
    need(cfg.checkpoint_every > 0, "checkpoint_every: must be > 0")
    need(
        cfg.init_from is None or cfg.init_from.endswith(".zip"),
        f"init_from: a model .zip path or null, got {cfg.init_from!r}",
    )
    o = cfg.opponents
    need(o.snapshot_every >= 0, "opponents.snapshot_every: must be >= 0")
    need(0.0 <= o.snapshot_weight <= 1.0, "opponents.snapshot_weight: must be in [0, 1]")
    need(o.max_snapshots >= 1, "opponents.max_snapshots: must be >= 1")
    need(bool(o.baselines), "opponents.baselines: at least one")
    need(all(w >= 0 for w in o.baselines.values()), "opponents.baselines: weights must be >= 0")
    p = cfg.ppo
    need(p.n_steps >= 1 and p.batch_size >= 1 and p.n_epochs >= 1, "ppo: sizes must be >= 1")
    need(p.learning_rate > 0, "ppo.learning_rate: must be > 0")
    need(
        p.learning_rate_end is None or 0 <= p.learning_rate_end <= p.learning_rate,
        "ppo.learning_rate_end: must be in [0, ppo.learning_rate] or null",
    )
    need(p.activation in ("tanh", "relu"), f"ppo.activation: tanh or relu, got {p.activation!r}")
    need(all(w >= 1 for w in p.net_arch), "ppo.net_arch: layer sizes must be >= 1")
    e = cfg.eval
    need(e.every > 0 and e.games > 0 and e.final_games > 0, "eval: every/games must be > 0")
    if e.agents is None:
        e.agents = list(spec.eval_baselines)
    if e.final_agents is None:
        e.final_agents = list(e.agents)
    from parlour.agents.factory import make_agent

    for where, specs in (
        ("opponents.baselines", list(o.baselines)),
        ("eval.agents", e.agents),
        ("eval.final_agents", e.final_agents),
    ):
        for s in specs:
            try:
                make_agent(s, cfg.game)
            except (ValueError, FileNotFoundError) as exc:
                raise ConfigError(f"{where}: {exc}") from None
    try:  # the game options are checked by building the env once
        from parlour.train.games import make_raw_env

        make_raw_env(cfg.game, cfg.players, **cfg.game_options)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"game_options: {exc}") from None


def load_config(path: str | Path) -> TrainConfig:
    """Read and validate a YAML training config."""
    path = Path(path)
    if not path.exists():
        raise ConfigError(f"no config file at {str(path)!r}")
    try:
        data = yaml.safe_load(path.read_text())
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {exc}") from None
    return config_from_dict(data)


def config_from_dict(data: Any) -> TrainConfig:
    cfg = _build(TrainConfig, data)
    _validate(cfg)
    return cfg
