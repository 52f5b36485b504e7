"""``observation_mode="deduced_odds"``: its layout (``deduced_shares`` plus ``accusation_odds``),
the rest of the observation held to ``deduced_shares`` on the same states (a differential test),
and ``accusation_odds`` held to the candidate solutions weighed by
:func:`candidate_log_weights` at every Solution and naming decision of guessing deducers."""

from __future__ import annotations

import numpy as np
import pytest

from parlour.envs.awkward_guests import observation as GO
from parlour.envs.awkward_guests.case.generator.odds import candidate_log_weights
from parlour.envs.awkward_guests.case.solution import candidate_index
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

SHARES = GO.make_layout("deduced_shares")
ODDS = GO.make_layout("deduced_odds")
PARTS, BLOCKS, NAMES = ACCUSATION_PARTS, ACCUSATION_BLOCKS, ACCUSATION_NAMES


def test_layout_is_deduced_shares_plus_the_odds_block():
    size = GO.layout_size(SHARES)
    assert {k: v for k, v in ODDS.items() if k in SHARES} == SHARES
    assert ODDS["accusation_odds"] == slice(size, size + 70)
    env = raw_env(num_players=3, observation_mode="deduced_odds")
    assert env.observation_space("player_0")["observation"].shape == (size + 70,)


def test_unknown_observation_mode_lists_deduced_odds():
    with pytest.raises(ValueError, match="deduced_odds"):
        raw_env(num_players=2, observation_mode="odds")


def _expected(env, name, view, cands, part: int) -> np.ndarray:
    """Per choice of ``part``: the largest normalised weight of a candidate making it."""
    seat = env.agent_name_mapping[name]
    facts = [f for card in view.notebook for f in card.facts]
    weights = candidate_log_weights(facts, view.level)[[candidate_index(c) for c in cands]]
    chance = np.exp(weights - weights.max())
    chance /= chance.sum()
    out = np.zeros(len(NAMES[part]) + (part >= 3), np.float32)
    for c, p in zip(cands, chance, strict=True):
        value = getattr(c, PARTS[part])
        index = len(NAMES[part]) if value is None else NAMES[part].index(value)
        out[index] = max(out[index], p)
    assert seat == view.seat
    return out


@pytest.mark.parametrize(("players", "level"), [(4, "medium"), (3, "hard")])
def test_odds_are_the_likeliest_candidates_chances(players, level):
    """At each of the deciding seat's Solution decisions the murderer block holds, per murderer,
    the chance of its likeliest candidate (the largest entry is the deducer's
    ``likeliest`` chance); at each naming decision the pending part's block, among the
    candidates matching the parts named so far; 0 everywhere else and for every other seat."""
    spec = "guests.deducer:threat=64,odds=0.6,pick=likely"
    solutions = named = 0
    for env, name, obs, view, agent in deducer_decisions(players, level, spec, 4, "deduced_odds"):
        o = obs["observation"]
        seat = env.agent_name_mapping[name]
        plain = ObservationEncoder("deduced_shares").encode(env.game, seat)
        np.testing.assert_array_equal(o[: GO.layout_size(SHARES)], plain)
        odds = o[ODDS["accusation_odds"]]
        for other in env.agents:
            if other != name:
                assert not env.observe(other)["observation"][ODDS["accusation_odds"]].any()
        if view.decision == "solution":
            cands = agent.candidates(view)
            expected = _expected(env, name, view, cands, 0)
            np.testing.assert_allclose(
                accusation_part_cells(odds, 0), expected, rtol=1e-5, atol=1e-7
            )
            assert odds.max() == pytest.approx(agent.likeliest(view)[1], rel=1e-5)
            solutions += 1
        elif view.decision in PARTS:
            k = PARTS.index(view.decision)
            cands = candidates_matching_named_parts(env, name, view)
            expected = _expected(env, name, view, cands, k)
            np.testing.assert_allclose(
                accusation_part_cells(odds, k), expected, rtol=1e-5, atol=1e-7
            )
            assert np.count_nonzero(odds) == np.count_nonzero(expected)
            named += k > 0
        else:
            assert not odds.any(), view.decision
    assert solutions and named
