"""``rllib:PATH``: a policy trained with ``parlour train`` on the RLlib backend, playing one seat.

``PATH`` is one of

| PATH | what is loaded | trust needed |
|---|---|---|
| a ``.safetensors`` file | that safe export (:mod:`parlour.agents.rllib_export`) | no |
| a checkpoint folder (``runs/NAME/checkpoint``, ``runs/NAME/checkpoints/latest``) | its safe export ``policy.safetensors`` when it has one | no |
| a run folder (``runs/NAME``) | ``checkpoint/policy.safetensors`` | no |
| an RLlib checkpoint without an export (an ``Algorithm`` checkpoint, whose learner module is ``learner_group/learner/rl_module/learner``, or one saved RLModule folder) | ``RLModule.from_checkpoint``: pickles, which run code while they load | ``trust=True`` / ``--trust-model``; without it :class:`~parlour.agents.trust.UntrustedModelError` says why |

A safe export is rebuilt from parlour's own :class:`~parlour.agents.rllib_module.MaskedPPOModule`
and loaded strictly; every loaded module must have finite weights. No Ray cluster is started or
joined, so ``parlour eval`` and ``parlour play`` use it like any agent. :meth:`RLlibAgent.check_fits`
refuses a game whose observation size or action count differs from the module's. A run made
before parlour wrote safe exports is converted once with
:func:`parlour.train.rllib.export.export_checkpoint` (trusting it).

It acts through the module's inference pass, which masks illegal actions, and checks the mask
again itself: it never returns an illegal action. By default it plays the most probable legal
action; ``rllib:PATH:sample`` samples from the masked policy with its own
``np.random.Generator``. Loaded modules are cached per path, modification time and size within a
process; the cache keeps the :data:`MAX_CACHED_MODELS` most recently used.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from parlour.agents.base import MaskedLogitsAgent
from parlour.agents.rllib_export import EXPORT_NAME, is_export, read_export
from parlour.agents.trust import refuse_untrusted, require_finite

#: where an Algorithm checkpoint keeps the learning module
LEARNER_MODULE_PATH = Path("learner_group", "learner", "rl_module", "learner")
#: the final checkpoint inside a run folder
RUN_CHECKPOINT = "checkpoint"
#: loaded modules kept per process (least recently used dropped first): a long run's periodic
#: evaluations each add a path, and an agent holds its own module anyway
MAX_CACHED_MODELS = 8


@dataclass(frozen=True)
class LoadedModule:
    """A module ready to act and the sizes it was built for."""

    module: Any
    obs_shape: tuple[int, ...]
    actions: int


_CACHE: OrderedDict[tuple[str, int, int], LoadedModule] = OrderedDict()


def module_dir(path: str | os.PathLike) -> Path:
    """The RLModule folder of ``path`` (an Algorithm checkpoint or a module folder)."""
    path = Path(path)
    if not path.is_dir():
        raise FileNotFoundError(f"rllib: no checkpoint folder at {str(path)!r}")
    inner = path / LEARNER_MODULE_PATH
    if inner.is_dir():
        return inner
    if any(path.glob("module_state*")):
        return path
    raise FileNotFoundError(
        f"rllib: {str(path)!r} is neither an RLlib run checkpoint (no {LEARNER_MODULE_PATH}) "
        "nor a saved RLModule folder"
    )


def find_export(path: str | os.PathLike) -> Path | None:
    """The safe export ``path`` names (the file, or the one in a checkpoint or run folder)."""
    path = Path(path)
    if path.is_file() or is_export(path):
        return path if is_export(path) else None
    for candidate in (path / EXPORT_NAME, path / RUN_CHECKPOINT / EXPORT_NAME):
        if candidate.is_file():
            return candidate
    return None


def checkpoint_module_dir(path: Path) -> Path:
    """The RLModule folder of an RLlib checkpoint (or run) folder ``path``."""
    if path.is_file():
        raise ValueError(
            f"rllib: {str(path)!r} is a file but not a .safetensors export; give an export, a "
            "checkpoint folder or a run folder"
        )
    run_checkpoint = path / RUN_CHECKPOINT
    if not (path / LEARNER_MODULE_PATH).is_dir() and run_checkpoint.is_dir():
        return module_dir(run_checkpoint)
    return module_dir(path)


def _cache_key(path: Path) -> tuple[str, int, int]:
    stat_of = path
    if path.is_dir():  # a module folder: its state file says when it changed
        states = sorted(path.glob("module_state*"))
        stat_of = states[0] if states else path
    info = stat_of.stat()
    return str(path.resolve()), info.st_mtime_ns, info.st_size


def _cached(key: tuple[str, int, int], build: Any) -> LoadedModule:
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    loaded = build()
    _CACHE[key] = loaded
    while len(_CACHE) > MAX_CACHED_MODELS:
        _CACHE.popitem(last=False)
    return loaded


def _load_safe(path: Path) -> LoadedModule:
    module, document = read_export(path)
    return LoadedModule(module, tuple(document["observation"]["shape"]), document["action"]["n"])


def load_pickled(folder: Path) -> LoadedModule:
    """``RLModule.from_checkpoint`` (trusted: it unpickles), checked like a safe export."""
    from ray.rllib.core.rl_module.rl_module import RLModule

    try:
        module = RLModule.from_checkpoint(str(folder.resolve()))
    except Exception as exc:  # a corrupt checkpoint raises many kinds
        first = " ".join(str(exc).split())[:300] or type(exc).__name__
        raise ValueError(
            f"rllib: cannot load the RLlib checkpoint {str(folder)!r}: {first}"
        ) from None
    require_finite(module.state_dict(), f"rllib: {str(folder)!r}")
    module.eval()
    space = getattr(module, "observation_space", None)
    inner = space["observation"] if hasattr(space, "spaces") else space
    return LoadedModule(module, tuple(inner.shape), int(module.action_space.n))


def load(path: str | os.PathLike, *, trust: bool = False) -> LoadedModule:
    """The module ``path`` names (see the module docstring's table), cached."""
    import torch

    torch.set_num_threads(1)
    export = find_export(path)
    if export is not None:
        if not export.exists():
            raise FileNotFoundError(f"rllib: no export file at {str(export)!r}")
        return _cached(_cache_key(export), lambda: _load_safe(export))
    folder = checkpoint_module_dir(Path(path))
    if not trust:
        refuse_untrusted(path, "an RLlib checkpoint without parlour's safe export")
    return _cached(_cache_key(folder), lambda: load_pickled(folder))


def load_module(path: str | os.PathLike, *, trust: bool = False) -> Any:
    """The policy RLModule ``path`` names (a safe export, or with ``trust`` an RLlib
    checkpoint), on the CPU in eval mode."""
    return load(path, trust=trust).module


class RLlibAgent(MaskedLogitsAgent):
    """A trained RLlib policy acting with the mask (see the module docstring)."""

    kind = "rllib"

    def __init__(
        self,
        spec: str,
        path: str,
        seed: int | None = None,
        deterministic: bool = True,
        *,
        trust: bool = False,
    ) -> None:
        super().__init__(spec, path, seed, deterministic)
        self.loaded = load(path, trust=trust)
        self.module = self.loaded.module

    def check_fits(self, env: Any) -> None:
        """``ValueError`` unless the module's observation size and action count are ``env``'s."""
        agent = env.possible_agents[0]
        obs = tuple(env.observation_space(agent)["observation"].shape)
        actions = int(env.action_space(agent).n)
        mine = (self.loaded.obs_shape, self.loaded.actions)
        if mine != (obs, actions):
            raise ValueError(
                f"{self.spec}: the module was trained on observations of shape "
                f"{self.loaded.obs_shape} with {self.loaded.actions} actions, this game gives "
                f"{obs} with {actions} (a policy of another game, player count or observation "
                "mode?)"
            )

    def raw_logits(self, observation: dict[str, np.ndarray], mask: np.ndarray) -> np.ndarray:
        import torch
        from ray.rllib.core.columns import Columns

        obs = {
            "observation": torch.as_tensor(observation["observation"], dtype=torch.float32)[None],
            "action_mask": torch.as_tensor(mask, dtype=torch.float32)[None],
        }
        with torch.no_grad():
            out = self.module.forward_inference({Columns.OBS: obs})
        return out[Columns.ACTION_DIST_INPUTS][0].numpy()
