"""The install layout (everything else is in pyproject.toml).

Folder paths are import paths: ``parlour/`` is the package, and each of its capability
subpackages is a link to the repository's top-level folder of the same name
(``parlour/envs -> ../envs``, … ``parlour/apps -> ../apps``), so ``parlour.envs.audition.rules``
is the file ``parlour/envs/audition/rules.py`` for Python, import-linter, IDEs and type checkers
alike, while the top-level folders stay where a reader looks for them (``docs/layout.md``).

| folder | installs as |
|---|---|
| ``parlour/`` | ``parlour`` (``__version__``, registration, the shared foundations) |
| ``envs/``, ``agents/``, ``games/``, ``eval/``, ``train/``, ``apps/``, ``benchmarks/`` | ``parlour.envs``, ``parlour.agents``, … (through the links in ``parlour/``) |
| ``configs/`` | ``parlour.configs`` (the shipped YAML configs, as package data) |
| ``models/`` | ``parlour.models`` (the shipped trained models, their cards and index, as package data) |
| ``parlour.pth`` | ``site-packages/parlour.pth``: imports ``parlour`` at start-up (registration) |
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).parent
PTH_FILE = "parlour.pth"


class BuildPyWithPth(build_py):
    """Also puts :data:`PTH_FILE` at the top of the wheel (next to ``parlour/``)."""

    def run(self) -> None:
        super().run()
        self.copy_file(str(HERE / PTH_FILE), os.path.join(self.build_lib, PTH_FILE))

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        return [*super().get_outputs(include_bytecode), os.path.join(self.build_lib, PTH_FILE)]


setup(
    # find_packages follows the links in parlour/ (os.walk(followlinks=True))
    packages=find_packages(include=["parlour", "parlour.*"]),
    cmdclass={"build_py": BuildPyWithPth},
)
