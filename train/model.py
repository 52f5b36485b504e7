"""The MaskablePPO model of a training run: built from a config, or started from a saved one.

| function | what |
|---|---|
| :func:`build_model` | a fresh model with the config's hyper-parameters, network, the game's features extractor and policy, Adam options :data:`ADAM_OPTIONS` |
| :func:`learning_rate_schedule` | a constant rate, or SB3's linear schedule to ``ppo.learning_rate_end`` |
| :func:`init_weights` | ``init_from``: the weights and Adam state of a saved model (parlour's format; a Stable-Baselines3 zip only with ``--trust-model``) |
| :func:`save_model` | the model's policy (and Adam's state and step counts, for checkpoints) in parlour's model format, atomically; a diverged model (NaN / infinite weights) is :class:`TrainingDivergedError`, nothing written |
| :func:`load_checkpoint` | ``--resume``: a model built from the config, the checkpoint's weights, Adam state and step counts loaded into it |

Every model file a run writes is in parlour's format (:mod:`parlour.agents.model_file`), and
every file it reads back (its checkpoint, its snapshots, its evaluations) loads without running
code. :mod:`parlour.train.train` runs the training loop around it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from parlour.agents.trust import refuse_untrusted, require_finite
from parlour.errors import UserError
from parlour.train.config import TrainConfig


class TrainingDivergedError(UserError):
    """The model's weights hold NaN or infinite values: the run stops, nothing is written."""


def learning_rate_schedule(start: float, end: float | None) -> Any:
    """``start`` (constant) or SB3's linear schedule from ``start`` to ``end`` over the run."""
    if end is None:
        return start
    from stable_baselines3.common.utils import LinearSchedule

    return LinearSchedule(start, end, 1.0)


#: Adam's options: SB3's ``eps`` for Adam, and the multi-tensor ("foreach") step — on the CPU the
#: same arithmetic as the default per-tensor loop, bit for bit, in less time (measured: the
#: optimizer step was ~30% of an Awkward Guests update; docs/fast_training.md)
ADAM_OPTIONS = {"eps": 1e-5, "foreach": True}


def build_model(cfg: TrainConfig, vec_env: Any) -> Any:
    """A fresh MaskablePPO model with the config's hyper-parameters and network."""
    import torch
    from sb3_contrib import MaskablePPO

    p = cfg.ppo
    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[p.activation]
    net_arch = (
        {k: list(v) for k, v in p.net_arch.items()}
        if isinstance(p.net_arch, dict)
        else list(p.net_arch)
    )
    policy_kwargs: dict[str, Any] = {
        "net_arch": net_arch,
        "activation_fn": activation,
        "optimizer_kwargs": dict(ADAM_OPTIONS),
    }
    game = cfg.game_spec
    extractor = game.training.extractor() if p.features else None
    policy: Any = "MlpPolicy"
    if extractor is not None:
        policy_kwargs["features_extractor_class"] = extractor
        if p.features_extractor_kwargs:
            policy_kwargs["features_extractor_kwargs"] = dict(p.features_extractor_kwargs)
        policy = game.training.policy_class()
    return MaskablePPO(
        policy,
        vec_env,
        learning_rate=learning_rate_schedule(p.learning_rate, p.learning_rate_end),
        n_steps=p.n_steps,
        batch_size=p.batch_size,
        n_epochs=p.n_epochs,
        gamma=p.gamma,
        gae_lambda=p.gae_lambda,
        clip_range=p.clip_range,
        ent_coef=p.ent_coef,
        vf_coef=p.vf_coef,
        max_grad_norm=p.max_grad_norm,
        policy_kwargs=policy_kwargs,
        seed=cfg.seed,
        device="cpu",
        verbose=0,
    )


def _require_model_file(path: Path) -> None:
    if not path.is_file():
        raise SystemExit(f"parlour train: init_from: no model at {path}")


def init_weights(model: Any, path: Path, trust: bool = False) -> None:
    """Load the policy weights and the Adam state (when the file has one: a shipped model has
    not, and Adam starts afresh) of the model at ``path`` into ``model`` (the learning rate is
    the config's: SB3 sets it before every update). A Stable-Baselines3 zip loads only with
    ``trust`` (it runs code while it loads)."""
    from parlour.agents.model_file import load_into_model, sniff
    from parlour.agents.ppo import PICKLED_MODEL

    _require_model_file(path)
    if sniff(path) != "parlour":
        if not trust:
            try:
                refuse_untrusted(path, PICKLED_MODEL)
            except ValueError as exc:
                raise SystemExit(f"parlour train: init_from: {exc}") from None
        _init_from_zip(model, path)
        return
    try:
        load_into_model(model, path, counts=False)
    except ValueError as exc:
        raise SystemExit(f"parlour train: init_from: {exc}") from None


def _init_from_zip(model: Any, path: Path) -> None:
    """``init_from`` a trusted Stable-Baselines3 zip (unpickled: it runs its code)."""
    from parlour._legacy import legacy_module_paths

    try:
        with legacy_module_paths():
            model.set_parameters(str(path), exact_match=True, device="cpu")
    except (RuntimeError, ValueError, KeyError) as exc:
        raise SystemExit(
            f"parlour train: init_from: {path} does not fit this config's network "
            f"(game, players, observation, net_arch and features must match): {exc}"
        ) from None
    require_finite(model.policy.state_dict(), f"init_from: model {str(path)!r}")


def save_model(model: Any, path: Path, *, optimizer: bool = False) -> None:
    """Write ``model``'s policy to ``path`` in parlour's format (atomically); ``optimizer``:
    with Adam's state (checkpoints, and the run's model that ``init_from`` continues).
    :class:`TrainingDivergedError` when a weight is NaN or infinite: nothing is written."""
    from parlour.agents.model_file import save_policy

    try:
        require_finite(model.policy.state_dict(), "the learner")
    except ValueError as exc:
        raise TrainingDivergedError(
            f"training diverged at learner step {model.num_timesteps}: {exc}; nothing was "
            f"written to {path} (the last checkpoint is kept; try a lower ppo.learning_rate "
            "or ppo.max_grad_norm)"
        ) from None
    path.parent.mkdir(parents=True, exist_ok=True)
    save_policy(model.policy, path, model, optimizer=optimizer)


def load_checkpoint(cfg: TrainConfig, vec_env: Any, path: Path) -> Any:
    """A model built from ``cfg`` with the weights, Adam state and step counts of the
    checkpoint at ``path`` (parlour's format: no code runs)."""
    from parlour.agents.model_file import load_into_model

    model = build_model(cfg, vec_env)
    load_into_model(model, path, counts=True)
    return model
