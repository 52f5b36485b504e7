"""Optional extras: which ``pip install "parlour[...]"`` a missing module needs.

``pip install parlour`` brings the environments and the scripted agents; the commands that
train, evaluate, serve or benchmark need an extra (``pyproject.toml``'s optional
dependencies). A command run without its extra ends with one line naming the extra to install
(:func:`hint`, used by :func:`parlour.errors.run_guarded`), never a bare
``No module named ...``; the modules a command always needs (:data:`COMMAND_NEEDS`) are checked
before it starts (:func:`parlour.errors.check_command`), so that no work is lost to a late
import. This module imports nothing of parlour (:mod:`parlour.errors` builds on it).

| extra | modules | needed by |
|---|---|---|
| ``train`` | torch, stable_baselines3, sb3_contrib, tensorboard, matplotlib, tqdm, openskill, safetensors | ``train``, ``eval`` (tqdm, matplotlib; torch for ``ppo:`` agents), ``league``; ``play`` / ``serve`` with a ``ppo:`` agent; ``bench``'s ``train`` section |
| ``web`` | starlette, uvicorn | ``serve`` |
| ``rllib`` | ray | ``train`` with ``backend: rllib``; ``rllib:`` agents need only the ``train`` extra |
| ``openspiel`` | pyspiel (open_spiel) | ``parlour.openspiel`` (the games as OpenSpiel games), the ``openspiel.*`` agents; also in ``bench`` |
| ``bench`` | pygame, rlcard, pyspiel (open_spiel), shimmy | ``bench``'s peers (without them the peers' ratios are left null) and its ``train`` section (its connect-four peer) |
| ``ecosystem`` | tianshou, torchrl, tensordict, supersuit | the recipes of docs/ecosystem/ |
"""

from __future__ import annotations

import importlib.util

#: top-level module -> the extra that installs it
MODULE_EXTRAS: dict[str, str] = {
    **dict.fromkeys(
        (
            "torch",
            "stable_baselines3",
            "sb3_contrib",
            "tensorboard",
            "matplotlib",
            "tqdm",
            "openskill",
            "safetensors",
        ),
        "train",
    ),
    **dict.fromkeys(("starlette", "uvicorn", "playwright"), "web"),
    "ray": "rllib",
    **dict.fromkeys(("pyspiel", "open_spiel"), "openspiel"),
    **dict.fromkeys(("pygame", "rlcard", "shimmy"), "bench"),
    **dict.fromkeys(("tianshou", "torchrl", "tensordict", "supersuit"), "ecosystem"),
}


#: the modules a subcommand needs whatever it is asked (checked before it starts, by
#: :func:`parlour.errors.check_command`); what depends on the arguments (``ppo:`` agents:
#: torch; ``backend: rllib``: ray) is named when its import fails (:func:`hint`)
COMMAND_NEEDS: dict[str, tuple[str, ...]] = {
    "train": ("torch", "stable_baselines3", "sb3_contrib", "tensorboard", "tqdm", "matplotlib"),
    "eval": ("tqdm", "matplotlib"),
    "league": ("tqdm", "matplotlib", "openskill"),
    "serve": ("starlette", "uvicorn"),
}


def install_line(extra: str) -> str:
    """``pip install "parlour[EXTRA]"``."""
    return f'pip install "parlour[{extra}]"'


def extra_of(exc: ImportError) -> str | None:
    """The extra that installs the module a ``ModuleNotFoundError`` names (None: another
    error, e.g. a name missing from an installed module of another version, is shown as it is)."""
    if not isinstance(exc, ModuleNotFoundError) or not exc.name:
        return None
    return MODULE_EXTRAS.get(exc.name.split(".")[0])


def needs(what: str, lost: list[str]) -> str:
    """``<what> needs the "train" extra (missing: torch): pip install "parlour[train]"`` for the
    missing modules ``lost`` (several extras: ``the "train" and "bench" extras ...``)."""
    extras = list(dict.fromkeys(MODULE_EXTRAS.get(m.split(".")[0], "?") for m in lost))
    names = " and ".join(f'"{e}"' for e in extras)
    return (
        f"{what} needs the {names} extra{'s' if len(extras) > 1 else ''} "
        f"(missing: {', '.join(lost)}): {install_line(','.join(extras))}"
    )


#: how many causes / contexts of an error :func:`missing_extra` looks through
MAX_CHAIN = 8


def missing_extra(exc: BaseException) -> ModuleNotFoundError | None:
    """The ``ModuleNotFoundError`` of an extra's module that ``exc`` is or was raised while
    handling (its ``__cause__`` / ``__context__``, e.g. a loader's "cannot load the model: import
    of torch halted"), or None."""
    seen: BaseException | None = exc
    for _ in range(MAX_CHAIN):
        if seen is None:
            return None
        if isinstance(seen, ModuleNotFoundError) and extra_of(seen) is not None:
            return seen
        seen = seen.__cause__ or seen.__context__
    return None


def hint(exc: ImportError) -> str:
    """The one-line message of an ``ImportError``: with the extra to install when the missing
    module is an extra's."""
    if extra_of(exc) is None:
        return str(exc)
    return needs("this command", [str(exc.name)])


def missing(modules: tuple[str, ...] | list[str]) -> list[str]:
    """The modules of ``modules`` that cannot be imported (found without importing them)."""
    out = []
    for name in modules:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # (a parent missing; a module set to None)
            found = False
        if not found:
            out.append(name)
    return out
