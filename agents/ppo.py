"""``ppo:PATH``: a trained ``MaskablePPO`` model (sb3-contrib) playing one seat.

``PATH`` is a model file, or the short name of a model shipped with parlour (``ppo:audition-2p``,
:mod:`parlour.models`; ``parlour models`` lists them): an existing file wins. A shipped model
knows its game and player count and refuses any other (:meth:`PPOAgent.check_fits`).

It reads only ``observation`` (the flat vector and the action mask) and always acts with the
mask: illegal logits are set to ``-inf`` before the choice, so it never returns an illegal
action. By default it plays the most probable legal action (``deterministic``); with
``ppo:PATH:sample`` it samples from the masked policy with its own ``np.random.Generator``
(used for the self-play snapshots of the opponent pool). Torch runs on the CPU with one thread
per process (evaluation and training workers run one process per core).

Models are cached per path and file modification time within a process, so many seats and
many games share one loaded network; the cache keeps the :data:`MAX_CACHED_MODELS` most recently
used networks (a long run's snapshots and evaluations do not accumulate). Models saved by parlour 0.1 (class paths such as
``train.features.AuditionFeatures``) load through :func:`parlour._legacy.legacy_module_paths`.
"""

from __future__ import annotations

import contextlib
import os
from collections import OrderedDict
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from parlour.agents.base import MaskedLogitsAgent

if TYPE_CHECKING:
    from parlour.models import ShippedModel

#: loaded policies kept per process (least recently used dropped first): a long run's snapshots
#: and periodic evaluations each add a path, and an agent holds its own policy anyway
MAX_CACHED_MODELS = 8
_CACHE: OrderedDict[tuple[str, float], Any] = OrderedDict()


def load_model(path: str | os.PathLike, **kwargs: Any) -> Any:
    """``MaskablePPO.load(path, **kwargs)``, also for models saved with parlour 0.1's paths."""
    from sb3_contrib import MaskablePPO

    from parlour._legacy import legacy_module_paths

    with legacy_module_paths():
        return MaskablePPO.load(path, **kwargs)


@contextlib.contextmanager
def kept_global_rngs() -> Iterator[None]:
    """Restore Python's, NumPy's and torch's global random states after the block. SB3's
    ``load`` seeds all three with the saved model's seed, so every evaluation or snapshot a
    trainer loaded restarted the trainer's own streams (its action sampling and minibatch
    order) from that seed."""
    import random

    import torch

    # (the legacy global NumPy state is what SB3 seeds and uses: kept, not used here)
    states = random.getstate(), np.random.get_state(), torch.get_rng_state()  # noqa: NPY002
    try:
        yield
    finally:
        random.setstate(states[0])
        np.random.set_state(states[1])  # noqa: NPY002
        torch.set_rng_state(states[2])


def load_policy(path: str) -> Any:
    """The policy network of a saved MaskablePPO model (cached per path and mtime); ``path`` may
    be a shipped model's name (:func:`parlour.models.resolve_model_path`)."""
    from parlour.models import resolve_model_path

    path = resolve_model_path(path)
    if not os.path.isfile(path):
        if os.path.isdir(path):
            raise FileNotFoundError(f"ppo: {path!r} is a folder, not a model file")
        raise FileNotFoundError(f"ppo: no model file at {path!r}")

    key = (os.path.abspath(path), os.path.getmtime(path))
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    try:
        with kept_global_rngs():  # (SB3's load seeds them: a trainer's streams must go on)
            model = load_model(path, device="cpu")
    except ModuleNotFoundError:  # a missing extra (torch): run_guarded names its install line
        raise
    except Exception as exc:  # a truncated / corrupt / foreign zip raises many kinds
        raise ValueError(f"ppo: cannot load a MaskablePPO model from {path!r}: {exc}") from None
    model.policy.set_training_mode(False)
    _CACHE[key] = model.policy
    while len(_CACHE) > MAX_CACHED_MODELS:
        _CACHE.popitem(last=False)
    return model.policy


class PPOAgent(MaskedLogitsAgent):
    """A MaskablePPO policy acting with the mask (see the module docstring)."""

    kind = "ppo"

    def __init__(
        self,
        spec: str,
        path: str,
        seed: int | None = None,
        deterministic: bool = True,
        shipped: ShippedModel | None = None,
    ) -> None:
        super().__init__(spec, path, seed, deterministic)
        #: the shipped model ``path`` names (None: a model file)
        self.shipped = shipped
        self.policy = load_policy(path if shipped is None else str(shipped.path))

    def check_fits(self, env: Any) -> None:
        """``ValueError`` unless the model's observation and action sizes are ``env``'s (and,
        for a shipped model, its player count)."""
        if self.shipped is not None and len(env.possible_agents) != self.shipped.players:
            raise ValueError(
                f"{self.spec} is a model of {self.shipped.describe()}; this table has "
                f"{len(env.possible_agents)} players (parlour models lists the shipped models)"
            )
        agent = env.possible_agents[0]
        obs = tuple(env.observation_space(agent)["observation"].shape)
        actions = int(env.action_space(agent).n)
        m_obs = tuple(self.policy.observation_space.shape)
        m_actions = int(getattr(self.policy.action_space, "n", -1))
        if (m_obs, m_actions) != (obs, actions):
            raise ValueError(
                f"{self.spec}: the model was trained on observations of shape {m_obs} with "
                f"{m_actions} actions, this game gives {obs} with {actions} (a model of another "
                "game, player count or observation mode?)"
            )

    def raw_logits(self, observation: dict[str, np.ndarray], mask: np.ndarray) -> np.ndarray:
        import torch

        policy = self.policy
        with torch.no_grad():
            obs = torch.as_tensor(observation["observation"], dtype=torch.float32)[None]
            features = policy.extract_features(obs, policy.pi_features_extractor)
            latent = policy.mlp_extractor.forward_actor(features)
            return policy.action_net(latent)[0].numpy()
