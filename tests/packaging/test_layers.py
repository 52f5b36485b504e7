"""The import layers of ``.importlinter`` hold, and no module imports itself in a circle.

- ``lint-imports`` (import-linter, the contracts in ``.importlinter``) passes: no package
  imports a layer above it, not even inside a function or under ``if TYPE_CHECKING:``.
- ``tools/layers.py`` finds no cycle group, counting every import (module level, inside
  functions, under ``TYPE_CHECKING``).
- Every ``parlour/<name>`` link is a relative symlink to the top-level folder ``../<name>``.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _layers_tool():
    spec = importlib.util.spec_from_file_location("_parlour_layers_tool", ROOT / "tools/layers.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules[spec.name] = module  # (dataclasses and the like look their module up)
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


def test_lint_imports_passes():
    if not LINT_IMPORTS.exists():
        pytest.skip(f"no {LINT_IMPORTS} (install the dev extra)")
    proc = subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]
    assert "0 broken" in proc.stdout


def test_no_import_cycles_counting_every_import():
    tool = _layers_tool()
    edges = tool.graph(tool.modules_of(ROOT))
    groups = tool.cycles(edges, type_checking=True)
    assert groups == [], f"import cycles (all imports): {groups}"


def test_the_layers_tool_sees_function_level_and_type_checking_imports(tmp_path):
    # (the cycle test above must not pass because the tool misses an import kind)
    package = tmp_path / "parlour"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def f():\n    from parlour import b\n")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from parlour.a import f\n"
    )
    tool = _layers_tool()
    edges = tool.graph(tool.modules_of(tmp_path))
    assert tool.cycles(edges, type_checking=True) == [["parlour.a", "parlour.b"]]


def test_parlour_links_are_relative_symlinks_to_the_top_level_folders():
    links = sorted(p for p in (ROOT / "parlour").iterdir() if p.is_symlink())
    assert links, "parlour/ holds no links to the top-level folders"
    for link in links:
        assert os.readlink(link) == f"../{link.name}", f"{link} -> {os.readlink(link)}"
        assert link.resolve() == (ROOT / link.name).resolve()
        assert link.resolve().is_dir()
    # every top-level package folder is linked (a new folder needs its link)
    linked = {p.name for p in links}
    for name in ("envs", "agents", "models", "games", "eval", "train", "apps", "benchmarks"):
        assert name in linked, f"parlour/{name} is missing"
