"""The action-masking PPO RLModule of the RLlib backend (owned here: RLlib's ``examples/`` is
not an API).

It is RLlib's default PPO torch module (MLP encoder, policy and value heads, built by
``PPOCatalog`` from ``model_config``: ``fcnet_hiddens``, ``fcnet_activation``) on the flat
``observation`` vector, plus the mask:

| input | ``{"observation": float32 vector, "action_mask": float32 0/1 vector}`` (:mod:`parlour.train.rllib.env`) |
|---|---|
| ``action_dist_inputs`` | the policy logits with every masked action set to ``MASKED_LOGIT`` (a float32 softmax gives it probability exactly 0, so sampling never picks it) |
| values | from ``observation`` only |

Every forward pass (inference, exploration, training, values) reads the mask, and none
mutates the batch it is given.

It lives in :mod:`parlour.agents` because both sides use it: the trainer
(:mod:`parlour.train.rllib.runner`) builds its learner from it, and the ``rllib:`` agent
rebuilds a safe export with it (:mod:`parlour.agents.rllib_export`). Importing it imports Ray.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns

#: the observation keys the module reads (our envs' keys: no renaming to RLlib's examples)
OBS_KEY = "observation"
MASK_KEY = "action_mask"
#: the logit of a masked action: far below any real logit, finite (no NaN in the loss)
MASKED_LOGIT = float(torch.finfo(torch.float32).min)


def split_observation(batch: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    """A copy of ``batch`` whose ``obs`` is the flat observation, and the mask."""
    obs = batch[Columns.OBS]
    if not isinstance(obs, dict) or OBS_KEY not in obs or MASK_KEY not in obs:
        raise ValueError(
            f"MaskedPPOModule needs observations {{{OBS_KEY!r}, {MASK_KEY!r}}}, got "
            f"{sorted(obs) if isinstance(obs, dict) else type(obs).__name__}"
        )
    inner = dict(batch)
    inner[Columns.OBS] = obs[OBS_KEY]
    return inner, obs[MASK_KEY]


def mask_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``logits`` with masked actions (``mask`` 0) set to :data:`MASKED_LOGIT`."""
    return torch.where(mask.to(torch.bool), logits, torch.full_like(logits, MASKED_LOGIT))


class MaskedPPOModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO module acting only on legal actions (see the module docstring)."""

    def __init__(self, *args: Any, observation_space: gym.Space | None = None, **kwargs: Any):
        if not isinstance(observation_space, gym.spaces.Dict) or {OBS_KEY, MASK_KEY} - set(
            observation_space.spaces
        ):
            raise ValueError(
                f"MaskedPPOModule needs a Dict observation space with {OBS_KEY!r} and "
                f"{MASK_KEY!r}, got {observation_space}"
            )
        self.observation_space_with_mask = observation_space
        super().__init__(*args, observation_space=observation_space[OBS_KEY], **kwargs)

    def setup(self) -> None:
        super().setup()  # the encoder is built on the flat observation space
        self.observation_space = self.observation_space_with_mask

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        inner, mask = split_observation(batch)
        out = super()._forward(inner, **kwargs)
        out[Columns.ACTION_DIST_INPUTS] = mask_logits(out[Columns.ACTION_DIST_INPUTS], mask)
        return out

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        inner, mask = split_observation(batch)
        out = super()._forward_train(inner, **kwargs)
        out[Columns.ACTION_DIST_INPUTS] = mask_logits(out[Columns.ACTION_DIST_INPUTS], mask)
        return out

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        if embeddings is None:
            batch, _ = split_observation(batch)
        return super().compute_values(batch, embeddings)
