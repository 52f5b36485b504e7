"""``ppo:PATH``: a trained ``MaskablePPO`` model (sb3-contrib) playing one seat.

It reads only ``observation`` (the flat vector and the action mask) and always acts with the
mask: illegal logits are set to ``-inf`` before the choice, so it never returns an illegal
action. By default it plays the most probable legal action (``deterministic``); with
``ppo:PATH:sample`` it samples from the masked policy with its own ``np.random.Generator``
(used for the self-play snapshots of the opponent pool). Torch runs on the CPU with one thread
per process (evaluation and training workers run one process per core).

Models are cached per path and file modification time within a process, so many seats and
many games share one loaded network. Models saved by parlour 0.1 (class paths such as
``train.features.AuditionFeatures``) load through :func:`parlour._legacy.legacy_module_paths`.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

_CACHE: dict[tuple[str, float], Any] = {}


def load_model(path: str | os.PathLike, **kwargs: Any) -> Any:
    """``MaskablePPO.load(path, **kwargs)``, also for models saved with parlour 0.1's paths."""
    from sb3_contrib import MaskablePPO

    from parlour._legacy import legacy_module_paths

    with legacy_module_paths():
        return MaskablePPO.load(path, **kwargs)


def load_policy(path: str) -> Any:
    """The policy network of a saved MaskablePPO model (cached per path and mtime)."""
    if not os.path.exists(path):
        raise FileNotFoundError(f"ppo: no model file at {path!r}")
    import torch

    key = (os.path.abspath(path), os.path.getmtime(path))
    if key not in _CACHE:
        torch.set_num_threads(1)
        model = load_model(path, device="cpu")
        model.policy.set_training_mode(False)
        _CACHE[key] = model.policy
    return _CACHE[key]


class PPOAgent:
    """A MaskablePPO policy acting with the mask (see the module docstring)."""

    def __init__(
        self, spec: str, path: str, seed: int | None = None, deterministic: bool = True
    ) -> None:
        self.spec = spec
        self.path = path
        self.deterministic = deterministic
        self.policy = load_policy(path)
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def logits(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        """Masked action logits (``-inf`` on illegal actions)."""
        import torch

        policy = self.policy
        with torch.no_grad():
            obs = torch.as_tensor(observation["observation"], dtype=torch.float32)[None]
            features = policy.extract_features(obs, policy.pi_features_extractor)
            latent = policy.mlp_extractor.forward_actor(features)
            logits = policy.action_net(latent)[0].numpy().astype(np.float64)
        mask = np.asarray(observation["action_mask"], bool)
        if not mask.any():
            raise ValueError("ppo: act() called with an all-zero action mask")
        logits[~mask] = -np.inf
        return logits

    def act(self, observation: dict[str, np.ndarray], view: Any = None) -> int:
        logits = self.logits(observation)
        if self.deterministic:
            return int(np.argmax(logits))
        p = np.exp(logits - logits.max())
        p /= p.sum()
        return int(self.rng.choice(p.size, p=p))
