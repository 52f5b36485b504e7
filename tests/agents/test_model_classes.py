"""A model file of a game's own classes loads through the agents layer alone: nothing has to
import the game plug-ins first (``parlour.agents.ppo.load_policy`` is public API)."""

from __future__ import annotations

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
