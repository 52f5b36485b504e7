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

Model files are parlour's own format (``.safetensors``, :mod:`parlour.agents.model_file`: no code
runs when one loads). A Stable-Baselines3 zip (``MaskablePPO.save``, parlour 0.1 and older runs)
holds pickles, which run code while they load: it loads only with ``trust=True``
(``--trust-model`` on the command line), else :class:`~parlour.agents.trust.UntrustedModelError`
says why (``parlour models convert`` turns it into the safe format once). The file's content
decides, not its name.

Models are cached per file (path, device, inode, modification time and size) within a process,
so many seats and many games share one loaded network; the cache keeps the
:data:`MAX_CACHED_MODELS` most recently used networks (a long run's snapshots and evaluations do
not accumulate). An entry remembers whether the file was a pickle: a cached zip is refused
without trust exactly as an uncached one is. Zips saved by parlour 0.1 (class paths such as
``train.features.AuditionFeatures``) load through :func:`parlour._legacy.legacy_module_paths`.
"""

from __future__ import annotations

import contextlib
import os
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

import numpy as np

from parlour._legacy import legacy_module_paths
from parlour.agents.base import MaskedLogitsAgent
from parlour.agents.model_file import load_policy_file, sniff
from parlour.agents.trust import refuse_untrusted, require_finite
from parlour.models import ShippedModel, resolve_model_path

#: loaded policies kept per process (least recently used dropped first): a long run's snapshots
#: and periodic evaluations each add a path, and an agent holds its own policy anyway
MAX_CACHED_MODELS = 8
#: (path, device, inode, mtime in ns, size) -> (whether the file was a pickle-bearing zip, policy)
_CACHE: OrderedDict[tuple[str, int, int, int, int], tuple[bool, Any]] = OrderedDict()


def load_model(path: str | os.PathLike, **kwargs: Any) -> Any:
    """``MaskablePPO.load(path, **kwargs)``, also for models saved with parlour 0.1's paths.

    This unpickles the zip: it runs any code the file holds. Call it only for a file the
    caller trusts (``trust=True``; :func:`load_policy` checks)."""
    from sb3_contrib import MaskablePPO

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


def load_policy(path: str, trust: bool = False) -> Any:
    """The policy network of a saved model (cached, see the module docstring); ``path`` may be
    a shipped model's name (:func:`parlour.models.resolve_model_path`). A parlour model file
    loads as it is; a Stable-Baselines3 zip (pickles) only with ``trust``."""
    path = resolve_model_path(path)
    if not os.path.isfile(path):
        if os.path.isdir(path):
            raise FileNotFoundError(f"ppo: {path!r} is a folder, not a model file")
        if os.path.exists(path):  # (never opened: a FIFO would block the reader)
            raise ValueError(f"ppo: {path!r} is not a regular file (a FIFO, device or socket)")
        raise FileNotFoundError(f"ppo: no model file at {path!r}")
    info = os.stat(path)
    key = (os.path.abspath(path), info.st_dev, info.st_ino, info.st_mtime_ns, info.st_size)
    if key in _CACHE:
        _CACHE.move_to_end(key)
        pickled, policy = _CACHE[key]
        if pickled and not trust:  # (trusted once is not trusted now)
            refuse_untrusted(path, PICKLED_MODEL)
        return policy
    pickled, policy = _load_uncached(path, trust)
    _CACHE[key] = (pickled, policy)
    while len(_CACHE) > MAX_CACHED_MODELS:
        _CACHE.popitem(last=False)
    return policy


#: what a pickle-bearing model file is called in the refusal
PICKLED_MODEL = "a Stable-Baselines3 zip (or a parlour 0.1 model)"


def _load_uncached(path: str, trust: bool) -> tuple[bool, Any]:
    """(whether the file was a pickle-bearing zip, its policy network)."""
    try:
        kind = sniff(path)
    except OSError as exc:
        raise ValueError(f"ppo: cannot read {path!r}: {exc}") from None
    if kind == "parlour":
        with kept_global_rngs():  # (building the network draws its initial weights)
            return False, load_policy_file(path)
    if not trust:
        if kind == "unknown":
            raise ValueError(
                f"ppo: {path!r} is not a model file (neither parlour's .safetensors format nor "
                "a Stable-Baselines3 zip)"
            )
        refuse_untrusted(path, PICKLED_MODEL)
    try:
        with kept_global_rngs():  # (SB3's load seeds them: a trainer's streams must go on)
            model = load_model(path, device="cpu")
    except ModuleNotFoundError:  # a missing extra (torch): run_guarded names its install line
        raise
    except Exception as exc:  # a truncated / corrupt / foreign zip raises many kinds
        raise ValueError(f"ppo: cannot load a MaskablePPO model from {path!r}: {exc}") from None
    require_finite(model.policy.state_dict(), f"model {path!r}")
    model.policy.set_training_mode(False)
    return True, model.policy


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
        trust: bool = False,
    ) -> None:
        super().__init__(spec, path, seed, deterministic)
        #: the shipped model ``path`` names (None: a model file)
        self.shipped = shipped
        self.policy = load_policy(path if shipped is None else str(shipped.path), trust=trust)

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


def policy_logits(policy: Any, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Masked logits (``-inf`` on illegal actions) of an SB3 policy, one forward pass."""
    import torch

    with torch.no_grad():
        t = torch.as_tensor(obs, dtype=torch.float32)
        features = policy.extract_features(t, policy.pi_features_extractor)
        latent = policy.mlp_extractor.forward_actor(features)
        logits = policy.action_net(latent).numpy().astype(np.float64)
    logits[~mask] = -np.inf
    return logits
