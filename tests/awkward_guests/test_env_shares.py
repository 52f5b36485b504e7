"""``observation_mode="deduced_shares"``: its layout (``deduced_choices`` plus
``accusation_shares``), the rest of the observation held to ``deduced_choices`` on the same
states (a differential test), and ``accusation_shares`` held to the candidate solutions
themselves at every naming decision of guessing deducers."""

from __future__ import annotations

import collections

import numpy as np
import pytest

from parlour.envs.awkward_guests import observation as GO
from parlour.envs.awkward_guests.env import raw_env
from parlour.envs.awkward_guests.observation import ObservationEncoder

from .scenario_helpers import (
    ACCUSATION_BLOCKS,
    ACCUSATION_NAMES,
    ACCUSATION_PARTS,
    accusation_part_cells,
    candidates_matching_named_parts,
    deducer_decisions,
)

CHOICES = GO.make_layout("deduced_choices")
SHARES = GO.make_layout("deduced_shares")
PARTS, BLOCKS, NAMES = ACCUSATION_PARTS, ACCUSATION_BLOCKS, ACCUSATION_NAMES


def test_layout_is_deduced_choices_plus_the_shares_block():
    size = GO.layout_size(CHOICES)
    assert {k: v for k, v in SHARES.items() if k in CHOICES} == CHOICES
    assert SHARES["accusation_shares"] == slice(size, size + 70)
    assert GO.layout_size(SHARES) == size + 70
    env = raw_env(num_players=3, observation_mode="deduced_shares")
    assert env.observation_space("player_0")["observation"].shape == (size + 70,)


def test_unknown_observation_mode_lists_deduced_shares():
    with pytest.raises(ValueError, match="deduced_shares"):
        raw_env(num_players=2, observation_mode="shares")


@pytest.mark.parametrize(("players", "level", "p"), [(4, "medium", 0.2), (3, "hard", 0.1)])
def test_shares_are_the_counts_of_candidates_matching_the_named_parts(players, level, p):
    """Guessing deducers accuse with several candidates left: at each naming decision the
    pending part's share block is, per choice, (candidates left matching every part named so
    far that make it) / (candidates left matching them), read from the candidate solutions; every
    other cell is 0, on every other decision and for every other seat. Everything before the
    block is the ``deduced_choices`` observation of the same state."""
    uneven = 0
    spec = f"guests.deducer:p={p}"
    for env, name, obs, view, _ in deducer_decisions(players, level, spec, 6, "deduced_shares"):
        o = obs["observation"]
        seat = env.agent_name_mapping[name]
        plain = ObservationEncoder("deduced_choices").encode(env.game, seat)
        np.testing.assert_array_equal(o[: GO.layout_size(CHOICES)], plain)
        shares = o[SHARES["accusation_shares"]]
        for other in env.agents:
            if other != name:
                assert not env.observe(other)["observation"][SHARES["accusation_shares"]].any()
        if view.decision in PARTS:
            k = PARTS.index(view.decision)
            cands = candidates_matching_named_parts(env, name, view)
            counts = collections.Counter(getattr(c, PARTS[k]) for c in cands)
            expected = np.zeros(len(NAMES[k]) + (k >= 3), np.float32)
            for value, count in counts.items():
                index = len(NAMES[k]) if value is None else NAMES[k].index(value)
                expected[index] = count / len(cands)
            np.testing.assert_allclose(accusation_part_cells(shares, k), expected, rtol=1e-6)
            assert shares.sum() == pytest.approx(1.0, abs=1e-5)
            uneven += len(set(counts.values())) > 1
        else:
            assert not shares.any(), view.decision
    assert uneven  # (some choice was rarer than another)
