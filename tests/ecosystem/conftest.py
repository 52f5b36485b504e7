"""Settings of the ecosystem tests (one module per library page of ``docs/ecosystem``).

| setting | why |
|---|---|
| torch on one thread (per test, restored after) | tiny networks on a shared machine run several times faster |
| ``NUMBA_DISABLE_JIT=1`` (this process) | Tianshou's ``VectorReplayBuffer`` compiles two numba functions when it is created (5–15 s); as plain Python they cost nothing at these sizes. Only Tianshou uses numba here. |
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest

os.environ["NUMBA_DISABLE_JIT"] = "1"  # read when numba is imported ...
if "numba" in sys.modules:  # ... or, if it already is, when a function is decorated
    sys.modules["numba"].config.DISABLE_JIT = True


@pytest.fixture(autouse=True)
def _one_torch_thread() -> Iterator[None]:
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)
