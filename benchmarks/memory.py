"""Peak memory of one environment, measured in a fresh subprocess as its own peak resident set
size (``VmHWM`` of ``/proc/self/status``; ``ru_maxrss`` would not do: Linux keeps the parent's
peak across ``fork`` + ``exec``)."""

from __future__ import annotations

import subprocess
import sys

_ONE_ENV = """
import numpy as np
def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
base = hwm()
from {module} import env as make
e = make({kwargs})
e.reset(seed=0)
rng = np.random.default_rng(0)
for _ in range({games}):
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    e.reset()
print(hwm(), base)
"""


def env_peak_rss_mib(module: str, kwargs: str = "", games: int = 20) -> tuple[float, float]:
    """(peak RSS of a process that imports and plays ``games`` games, RSS after bare numpy
    import) in MiB."""
    code = _ONE_ENV.format(module=module, kwargs=kwargs, games=games)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    peak, base = (int(x) for x in out.stdout.split()[-2:])
    return peak / 1024.0, base / 1024.0
