"""The install layout (everything else is in pyproject.toml).

The repository keeps its top-level folders; the wheel maps them under one namespace:

| folder | installs as |
|---|---|
| ``parlour/`` | ``parlour`` (``__version__``, registration) |
| ``envs/``, ``agents/``, ``train/``, ``benchmarks/`` | ``parlour.envs``, ``parlour.agents``, … |
| ``configs/`` | ``parlour.configs`` (the shipped YAML configs, as package data) |
| ``models/`` | ``parlour.models`` (the shipped trained models, their cards and index, as package data) |
| ``parlour.pth`` | ``site-packages/parlour.pth``: imports ``parlour`` at start-up (registration) |
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).parent
PACKAGE_DIRS: dict[str, str] = {
    "parlour": "parlour",
    "parlour.envs": "envs",
    "parlour.agents": "agents",
    "parlour.train": "train",
    "parlour.benchmarks": "benchmarks",
    "parlour.configs": "configs",
    "parlour.models": "models",
}
PTH_FILE = "parlour.pth"


def find_packages() -> list[str]:
    """Every folder with an ``__init__.py`` below the mapped folders, as dotted names."""
    found: list[str] = []
    for package, folder in PACKAGE_DIRS.items():
        for init in sorted((HERE / folder).rglob("__init__.py")):
            relative = init.parent.relative_to(HERE / folder).parts
            if "__pycache__" not in relative:
                found.append(".".join((package, *relative)))
    return found


class BuildPyWithPth(build_py):
    """Also puts :data:`PTH_FILE` at the top of the wheel (next to ``parlour/``)."""

    def run(self) -> None:
        super().run()
        self.copy_file(str(HERE / PTH_FILE), os.path.join(self.build_lib, PTH_FILE))

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        return [*super().get_outputs(include_bytecode), os.path.join(self.build_lib, PTH_FILE)]


setup(
    packages=find_packages(),
    package_dir={package: folder for package, folder in PACKAGE_DIRS.items()},
    cmdclass={"build_py": BuildPyWithPth},
)
