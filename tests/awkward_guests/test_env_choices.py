"""``observation_mode="deduced_choices"``: its layout; ``hand_share`` / ``hand_teach`` held to
``guests.deducer``'s own measure (a differential test over whole games) and to a direct
recomputation from the documented definition; the ``accusation_*`` blocks held to the candidate
solutions themselves at every naming decision of guessing deducers."""

from __future__ import annotations

import numpy as np
import pytest

from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests import observation as GO
from parlour.envs.awkward_guests.case.cards import card_exclusion_share
from parlour.envs.awkward_guests.case.deduction import Deduction
from parlour.envs.awkward_guests.env import raw_env
from parlour.envs.awkward_guests.observation import ObservationEncoder
from parlour.envs.awkward_guests.teach import counterpart

from .scenario_helpers import (
    ACCUSATION_BLOCKS,
    ACCUSATION_NAMES,
    ACCUSATION_PARTS,
    candidates_matching_named_parts,
    deducer_decisions,
)

TEACH = GO.make_layout("deduced_choices")
ACCUSATION = slice(TEACH["accusation_murderers"].start, TEACH["accusation_accomplice_motives"].stop)


def test_layout_is_deduced_plus_hand_rows_and_accusation_blocks():
    deduced = GO.make_layout("deduced")
    size = GO.layout_size(deduced)
    assert {k: v for k, v in TEACH.items() if k in deduced} == deduced
    assert TEACH["hand_share"] == slice(size, size + 32)
    assert TEACH["hand_teach"] == slice(size + 32, size + 64)
    parts = ("murderers", "motives", "weapons", "accomplices", "accomplice_motives")
    for part in parts:  # the same shapes as the deduced_* blocks
        acc, ded = TEACH[f"accusation_{part}"], deduced[f"deduced_{part}"]
        assert acc.stop - acc.start == ded.stop - ded.start
    assert TEACH["accusation_murderers"].start == size + 64
    assert TEACH["accusation_accomplice_motives"].stop == GO.layout_size(TEACH) == size + 64 + 70
    env = raw_env(num_players=3, observation_mode="deduced_choices")
    assert env.observation_space("player_0")["observation"].shape == (GO.layout_size(TEACH),)


def test_unknown_observation_mode_names_the_allowed_values():
    with pytest.raises(ValueError, match="deduced_choices"):
        raw_env(num_players=2, observation_mode="teach")


def _by_definition(state: G.GuestsState, observer: int, seat: int, card: int) -> float:
    """hand_teach of one card, recomputed from the module docstring's definition."""
    if card in state.revealed:
        return 0.0
    known = [c for c in state.revealed if state.seen[observer, c]]
    known += [c for c in state.hands[observer] if state.known[observer, c] >> seat & 1]
    ded = Deduction(state.tables.accomplice_possible)
    for c in known:
        ded.add_facts(state.tables.cards[c].facts, validate=False)
    before = ded.count()
    if not before:
        return 0.0
    ded.add_facts(state.tables.cards[card].facts, validate=False)
    return 1.0 - ded.count() / before


def _assert_idle_seats_see_no_decision_blocks(env, acting: str) -> None:
    """hand_teach and accusation_* belong to the deciding seat: everyone else's are 0."""
    for other in env.agents:
        if other != acting:
            o = env.observe(other)["observation"]
            assert not o[TEACH["hand_teach"]].any(), other
            assert not o[ACCUSATION].any(), other


def _assert_other_seats_sight_does_not_show(env, seat: int, observation: np.ndarray) -> None:
    """Mark every hand card of ``seat`` as seen by each seat ``seat`` does not know to have
    seen it (their notebooks change, ``seat``'s knowledge does not): the observation of ``seat``
    must not change — hand_teach reads what ``seat`` knows, not what others saw."""
    state = env.game.clone()
    for q in range(state.num_players):
        for c in state.hands[seat]:
            if q != seat and not state.known[seat, c] >> q & 1 and not state.seen[q, c]:
                state.seen[q, c] = True
                state.seen_log[q].append(c)
    np.testing.assert_array_equal(
        ObservationEncoder("deduced_choices").encode(state, seat), observation
    )


@pytest.mark.parametrize(
    ("players", "level", "seeds"),
    [(4, "medium", 3), (2, "easy", 3), (5, "hard", 2), (1, "easy", 2)],
)
def test_hand_teach_is_the_deducers_measure_at_every_offer_and_pay(players, level, seeds):
    """Whole games of deducers: at every decision, hand_share is each hand card's exclusion
    share; at the observer's offer/pay it is what the deducer itself computes for the card and
    the counterpart (and the definition recomputed from scratch); elsewhere 0."""
    exchanges = taught = 0
    for env, name, obs, view, agent in deducer_decisions(players, level, "guests.deducer", seeds):
        seat = env.agent_name_mapping[name]
        agent._sync(view)
        o = obs["observation"]
        share, teach = o[TEACH["hand_share"]], o[TEACH["hand_teach"]]
        assert not share[len(view.hand) :].any()
        for h in view.hand:
            assert share[h.slot] == np.float32(card_exclusion_share(h.card.facts))
        other = counterpart(env.game, seat)
        if view.decision == "offer":
            assert other == view.active_player
        elif view.decision == "pay":
            bid = next(b for b in view.bids if b.answering)
            assert other == (None if bid.seat == G.DECK_SEAT else bid.seat)
        else:
            assert other is None
        _assert_idle_seats_see_no_decision_blocks(env, name)
        if other is None:
            assert not teach.any(), view.decision
        else:
            _assert_other_seats_sight_does_not_show(env, seat, o)
            exchanges += 1
            hand = env.game.hands[seat]
            for h in view.hand:
                expected = agent._teaches(view, h.card, other)
                assert teach[h.slot] == np.float32(expected), (view.decision, h.slot)
                direct = _by_definition(env.game, seat, other, hand[h.slot])
                assert expected == pytest.approx(direct, abs=1e-12)
                taught += expected > 0
    if players > 1:
        assert exchanges and taught, (exchanges, taught)  # (the games did exchange cards)


def test_a_card_the_counterpart_has_seen_teaches_nothing():
    """Mark one teaching hand card as known to be seen by the counterpart: its hand_teach
    drops to 0."""
    checked = 0
    for env, name, obs, _, _ in deducer_decisions(3, "medium", "guests.deducer", 2):
        seat = env.agent_name_mapping[name]
        other = counterpart(env.game, seat)
        teach = obs["observation"][TEACH["hand_teach"]]
        if other is None or not teach.any():
            continue
        state = env.game.clone()
        slot = int(np.flatnonzero(teach > 0)[0])
        state.known[seat, state.hands[seat][slot]] |= 1 << other
        state.hand_version[seat] += 1
        after = ObservationEncoder("deduced_choices").encode(state, seat)[TEACH["hand_teach"]]
        assert after[slot] == 0.0
        checked += 1
    assert checked


PARTS, BLOCKS, NAMES = ACCUSATION_PARTS, ACCUSATION_BLOCKS, ACCUSATION_NAMES


@pytest.mark.parametrize(("players", "level", "p"), [(4, "medium", 0.2), (3, "hard", 0.1)])
def test_accusation_blocks_are_the_choices_of_candidates_matching_the_named_parts(
    players, level, p
):
    """Guessing deducers accuse with several candidates left: at each naming decision the
    pending part's block is exactly {that part of c : c a candidate left that matches every
    part named so far} (read from the candidate solutions), the other parts' blocks are 0, and
    all are 0 on every other decision."""
    narrowed = 0
    spec = f"guests.deducer:p={p}"
    for env, name, obs, view, _ in deducer_decisions(players, level, spec, 8):
        o = obs["observation"]
        blocks = [o[TEACH[f"accusation_{b}"]] for b in BLOCKS]
        _assert_idle_seats_see_no_decision_blocks(env, name)
        if view.decision in PARTS:
            k = PARTS.index(view.decision)
            cands = candidates_matching_named_parts(env, name, view)
            expected = np.zeros_like(blocks[k])
            for c in cands:
                value = getattr(c, PARTS[k])
                expected[len(NAMES[k]) if value is None else NAMES[k].index(value)] = 1.0
            assert cands and np.array_equal(blocks[k], expected), view.decision
            assert not any(b.any() for j, b in enumerate(blocks) if j != k)
            own = o[TEACH[f"deduced_{BLOCKS[k]}"]]
            narrowed += int(k > 0 and blocks[k].sum() < own.sum())
        else:
            assert not any(b.any() for b in blocks), view.decision
    assert narrowed  # (some named part did narrow what the next part allows)
