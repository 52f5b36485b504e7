"""The MaskablePPO model of a training run: built from a config, or started from a saved one.

| function | what |
|---|---|
| :func:`build_model` | a fresh model with the config's hyper-parameters, network, the game's features extractor and policy, Adam options :data:`ADAM_OPTIONS` |
| :func:`learning_rate_schedule` | a constant rate, or SB3's linear schedule to ``ppo.learning_rate_end`` |
| :func:`init_weights` | ``init_from``: the weights and Adam state of a saved ``model.zip`` |

:mod:`parlour.train.train` runs the training loop around it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from parlour.train.config import TrainConfig


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
    extractor = game.extractor() if p.features else None
    policy: Any = "MlpPolicy"
    if extractor is not None:
        policy_kwargs["features_extractor_class"] = extractor
        if p.features_extractor_kwargs:
            policy_kwargs["features_extractor_kwargs"] = dict(p.features_extractor_kwargs)
        policy = game.policy_class()
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


def init_weights(model: Any, path: Path) -> None:
    """Load the policy weights and the Adam state of the model at ``path`` into ``model`` (the
    learning rate is the config's: SB3 sets it before every update)."""
    _require_model_file(path)
    try:
        model.set_parameters(str(path), exact_match=True, device="cpu")
    except (RuntimeError, ValueError, KeyError) as exc:
        raise SystemExit(
            f"parlour train: init_from: {path} does not fit this config's network "
            f"(game, players, observation, net_arch and features must match): {exc}"
        ) from None
