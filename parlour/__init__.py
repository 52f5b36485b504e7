"""parlour: multi-agent RL environments for two published table games, and agents that play them.

```python
import parlour  # registers the environments (nothing else is imported until it is used)
from parlour.envs import audition_v1, awkward_guests_v1

env = audition_v1.env(num_players=2)
```

Importing ``parlour`` registers the environments with PettingZoo and Gymnasium: at once when
those libraries are already imported, else the moment they are (see :mod:`parlour._registration`).
The installed package also ships ``parlour.pth``, which imports ``parlour`` when Python starts,
so ``gymnasium.make("parlour/AwkwardGuestsSolo-v1")`` works in a fresh interpreter (and in
subprocess workers) without importing anything first. Importing ``parlour`` itself is cheap:
it loads no NumPy, Gymnasium or PettingZoo.

| subpackage | what it holds |
|---|---|
| :mod:`parlour.envs` | the environments (PettingZoo AEC, the solo Gymnasium env) and their rules engines |
| :mod:`parlour.agents` | generic agents built from agent specs (``random``, ``ppo:PATH``, ``rllib:PATH``), the model file format |
| :mod:`parlour.models` | the shipped trained models (``ppo:NAME``), their cards and index |
| :mod:`parlour.games` | the game protocol (:class:`parlour.games.Game`), the registry, the built-in plug-ins with their agents and UIs |
| :mod:`parlour.eval` | tournaments, the league, reports, replays |
| :mod:`parlour.train` | ``parlour train``: the SB3 and RLlib trainers |
| :mod:`parlour.apps` | the ``parlour`` command line, terminal play, the web table, model administration |
| :mod:`parlour.benchmarks` | throughput figures beside PettingZoo and OpenSpiel peers |

The layers these form, and what each may import, are in ``docs/layout.md``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from parlour._registration import AEC_ENVS, GYMNASIUM_ENVS, install

__version__ = "0.2.0"
__all__ = ["AEC_ENVS", "GYMNASIUM_ENVS", "__version__"]

_SUBPACKAGES = ("agents", "apps", "benchmarks", "envs", "eval", "games", "models", "train")

install()


def __getattr__(name: str) -> ModuleType:
    if name in _SUBPACKAGES:
        return importlib.import_module(f"parlour.{name}")
    raise AttributeError(f"module 'parlour' has no attribute {name!r}")
