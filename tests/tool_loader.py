"""Load a script of ``tools/`` (not an installed package) as a module, once per test session."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_tool(filename: str) -> ModuleType:
    """``tools/<filename>`` as the module ``_parlour_tool_<stem>`` (cached in ``sys.modules``)."""
    name = f"_parlour_tool_{Path(filename).stem}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / filename)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # (dataclasses and the like look their module up)
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]  # (no half-loaded module for the next caller)
        raise
    return module
