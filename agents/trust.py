"""Which model files may run code when they load, and the checks every loaded model passes.

A file that Python's ``pickle`` reads can run any code while it loads. Stable-Baselines3 zips
(``data`` holds cloudpickled objects, ``*.pth`` are ``torch.save`` pickles), RLlib checkpoints
(``*.pkl``, ``module_state.pt``) and models saved by parlour 0.1 are such files. parlour's own
model format (weights in ``safetensors``, everything else in JSON) cannot run code, and loads
without asking. A pickle-bearing file loads only when the caller says it trusts it: the
``--trust-model`` flag of the ``parlour`` commands, ``trust=True`` in Python. Without it the
loader raises :class:`UntrustedModelError` (a ``ValueError``: one line from the command line)
saying why. ``docs/security.md`` describes the threat.

| name | what |
|---|---|
| :data:`TRUST_FLAG` | the command-line flag that lets pickle-bearing model files load |
| :class:`UntrustedModelError` | raised for a pickle-bearing file loaded without trust |
| :func:`refuse_untrusted` | raise it, naming the file and what it is |
| :func:`require_finite` | ``ValueError`` naming the first tensor holding NaN or infinity (every load and save) |
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, NoReturn

#: the command-line flag (and, as ``trust=True``, the Python argument) that lets a model file
#: which can run code (a pickle) load
TRUST_FLAG = "--trust-model"


class UntrustedModelError(ValueError):
    """A model file that can run code when it loads was given without ``--trust-model``."""


def refuse_untrusted(path: str | os.PathLike, what: str) -> NoReturn:
    """Raise :class:`UntrustedModelError` for ``path``, a ``what`` (e.g. "a Stable-Baselines3
    zip") that holds pickled data."""
    raise UntrustedModelError(
        f"{os.fspath(path)!r} is {what}: it holds pickled data, which runs code while it loads. "
        f"Load it only if you trust where it came from, with {TRUST_FLAG} (trust=True in "
        "Python), or convert it once to parlour's safe format ('parlour models convert', "
        "docs/security.md)"
    )


def require_finite(tensors: Mapping[str, Any], what: str) -> None:
    """``ValueError`` naming ``what`` and the first tensor with a NaN or infinite value.

    ``tensors`` maps names to torch tensors or NumPy arrays (floating point ones are checked)."""
    for name, value in tensors.items():
        finite = _all_finite(value)
        if finite is False:
            raise ValueError(
                f"{what}: tensor {name!r} holds NaN or infinite values (a diverged training "
                "run?); refused"
            )


def _all_finite(value: Any) -> bool | None:
    """True/False for a floating-point tensor or array, None for anything else."""
    is_floating = getattr(value, "is_floating_point", None)
    if callable(is_floating):  # a torch tensor
        if not is_floating():
            return None
        import torch

        return bool(torch.isfinite(value).all())
    import numpy as np

    if isinstance(value, np.ndarray) and np.issubdtype(value.dtype, np.floating):
        return bool(np.isfinite(value).all())
    return None
