"""A model file of a game's own classes loads through the agents layer alone: nothing has to
import the game plug-ins first (``parlour.agents.ppo.load_policy`` is public API)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytest.importorskip("sb3_contrib")

SCRIPT = """
import sys
from parlour.agents.ppo import load_policy
assert "parlour.games" not in sys.modules
for name in ("guests-2p-easy", "audition-2p"):
    policy = load_policy(name)
    print(name, type(policy).__name__, type(policy.features_extractor).__name__)
"""


def test_a_shipped_model_loads_without_importing_the_games_first():
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "guests-2p-easy GuestsPolicy GuestsFeatures" in done.stdout
    assert "audition-2p MaskableActorCriticPolicy AuditionFeatures" in done.stdout


def test_a_broken_third_party_plug_in_does_not_stop_parlours_models_loading(tmp_path):
    """A distribution whose ``parlour.games`` entry point does not load: naming that game still
    says so, but parlour's own model files (and their classes) load."""
    dist = tmp_path / "brokenplug-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: brokenplug\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[parlour.games]\nbroken = no_such_module:GAME\n")
    script = SCRIPT + (
        "\nfrom parlour.games import get_game\n"
        "try:\n    get_game('broken')\nexcept ValueError as exc:\n    print('refused:', exc)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "guests-2p-easy GuestsPolicy GuestsFeatures" in done.stdout
    assert "refused: entry point broken = 'no_such_module:GAME'" in done.stdout
