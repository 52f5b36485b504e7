"""``rllib:PATH``: a policy trained with ``parlour train`` on the RLlib backend, playing one seat.

``PATH`` is a run's ``checkpoint`` folder (``runs/NAME/checkpoint``, an RLlib ``Algorithm``
checkpoint: the learner module is read from ``learner_group/learner/rl_module/learner``), or
the folder of one saved RLModule. The module is loaded with ``RLModule.from_checkpoint``: no Ray
cluster is started or joined, so ``parlour eval`` and ``parlour play`` use it like any agent.

It acts through :class:`~parlour.train.rllib.module.MaskedPPOModule`'s inference pass, which
masks illegal actions, and checks the mask again itself: it never returns an illegal action.
By default it plays the most probable legal action; ``rllib:PATH:sample`` samples from the
masked policy with its own ``np.random.Generator``. Modules are cached per path and
modification time within a process.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from parlour.agents.base import MaskedLogitsAgent

#: where an Algorithm checkpoint keeps the learning module
LEARNER_MODULE_PATH = Path("learner_group", "learner", "rl_module", "learner")
_CACHE: dict[tuple[str, float], Any] = {}


def module_dir(path: str | os.PathLike) -> Path:
    """The RLModule folder of ``path`` (an Algorithm checkpoint or a module folder)."""
    path = Path(path)
    if not path.is_dir():
        raise FileNotFoundError(f"rllib: no checkpoint folder at {str(path)!r}")
    inner = path / LEARNER_MODULE_PATH
    if inner.is_dir():
        return inner
    if (path / "module_state.pt").exists() or any(path.glob("module_state*")):
        return path
    raise FileNotFoundError(
        f"rllib: {str(path)!r} is neither an RLlib run checkpoint (no {LEARNER_MODULE_PATH}) "
        "nor a saved RLModule folder"
    )


def load_module(path: str | os.PathLike) -> Any:
    """The learner RLModule saved at ``path`` (cached per folder and mtime), on the CPU."""
    folder = module_dir(path)
    key = (str(folder.resolve()), folder.stat().st_mtime)
    if key not in _CACHE:
        import torch
        from ray.rllib.core.rl_module.rl_module import RLModule

        torch.set_num_threads(1)
        module = RLModule.from_checkpoint(str(folder.resolve()))
        module.eval()
        _CACHE[key] = module
    return _CACHE[key]


class RLlibAgent(MaskedLogitsAgent):
    """A trained RLlib policy acting with the mask (see the module docstring)."""

    kind = "rllib"

    def __init__(
        self, spec: str, path: str, seed: int | None = None, deterministic: bool = True
    ) -> None:
        super().__init__(spec, path, seed, deterministic)
        self.module = load_module(path)

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
