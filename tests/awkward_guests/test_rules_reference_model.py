"""Awkward Guests against an independent reference model of the rules
(:mod:`tests.awkward_guests.rules_reference`): random games of every player count and several
levels run in lock-step — every decision's seat and legal set, hands, notebooks, deck, piles,
bids, the "seen by" marks, who is out — and end with the same result and rewards. The
engine's reshuffles go through :class:`~tests.awkward_guests.rules_reference.ControlledRng`.
"""

from __future__ import annotations

import numpy as np
import pytest

from parlour.envs import awkward_guests_v1
from parlour.envs.awkward_guests.view import make_view

from .game_helpers import generated_case, seen_ids
from .rules_reference import ControlledRng, RefGame
from .scenario_helpers import ACCOMPLICE_LEVELS, NO, YES, accusation


def _policy(rng, dec, lg, plan, truth_acts, p_accuse):
    if plan:
        return plan.pop(0)
    lg = sorted(lg)
    if dec == "solution":
        if rng.random() < p_accuse:
            if rng.random() < 0.5:
                plan[:] = truth_acts
            return YES
        return NO
    if dec == "offer":
        cards = [x for x in lg if x != NO]
        if not cards or rng.random() < 0.35:
            return NO
        return int(rng.choice(cards))
    if dec == "answer":
        return YES if YES in lg and rng.random() < 0.7 else NO
    return int(rng.choice(lg))


def _compare(st, ref, req, all_ids):
    seat, dec, lg = req
    n = ref.n
    assert st.current_player == seat, (st.current_player, req[:2])
    assert st.decision_name == dec
    assert set(st.legal_actions()) == lg, (dec, sorted(st.legal_actions()), sorted(lg))
    assert set(int(i) for i in np.flatnonzero(st.legal_mask())) == lg
    ids = st.tables.ids
    for p in range(n):
        assert st.hand_ids(p) == ref.hands[p], p
        assert seen_ids(st, p) == ref.seen[p], p
    assert [ids[k] for k in reversed(st.deck)] == ref.deck
    assert sorted(ids[k] for k in st.discard) == sorted(ref.discard)
    assert sorted(ids[k] for k in st.revealed) == sorted(ref.revealed)
    assert sorted(ids[k] for k in st.table) == sorted(ref.table)
    assert list(st.out) == ref.out
    assert st.start == ref.start and st.round == ref.round
    total = sorted(sum(ref.hands, []) + ref.deck + ref.discard + ref.revealed + ref.table)
    assert total == all_ids  # every card exactly once
    v = make_view(st, seat)
    assert [(b.seat, b.value, b.count) for b in v.bids] == ref.bids_pub
    if dec in ("inquiry", "offer", "answer", "pay"):
        assert list(v.asked) == ref.asked
    for h in v.hand:  # "known to have been seen by" other seats
        assert set(h.seen_by) == ref.known[seat].get(h.id, set()) - {seat}, h.id
        assert h.selected == (h.id in ref.sel[seat])
    assert v.hand_sizes == tuple(len(h) for h in ref.hands)


LOCKSTEP = [
    # (players, level, deck size, seed, max rounds, accusation probability)
    (1, "easy", 24, 1, 12, 0.05),
    (1, "medium", 40, 2, 8, 0.05),
    (2, "easy", 24, 3, 12, 0.04),
    (2, "medium", 70, 4, 10, 0.04),
    (3, "easy", 24, 5, 10, 0.03),
    (3, "hard", 40, 6, 10, 0.03),
    (4, "medium", 30, 7, 8, 0.03),
    (5, "beginner", 40, 8, 8, 0.03),
    (6, "easy", 24, 9, 6, 0.03),
    (7, "very_hard", 50, 10, 6, 0.03),
    (8, "medium", 24, 11, 6, 0.03),
    (8, "easy", 70, 12, 6, 0.02),
    # many (mostly wrong) accusations: solo losses, players out, games without a winner
    (1, "easy", 24, 13, 12, 0.3),
    (2, "easy", 40, 14, 10, 0.3),
    (3, "medium", 40, 15, 10, 0.25),
    (4, "easy", 24, 16, 10, 0.2),
]


@pytest.mark.parametrize("n,level,deck_size,seed,max_rounds,p_acc", LOCKSTEP)
def test_lockstep_against_reference_rules_and_rewards(n, level, deck_size, seed, max_rounds, p_acc):
    for sub in range(2):
        s = seed * 100 + sub
        case = generated_case(level, s, deck_size)
        rng = np.random.default_rng(s)
        deck = [int(x) for x in rng.permutation([c.id for c in case.cards])]
        start = int(rng.integers(n))
        env = awkward_guests_v1.raw_env(num_players=n, level=level, max_rounds=max_rounds)
        env.reset(seed=s, options={"case": case, "deck": deck, "start": start})
        st = env.game
        st.rng = ControlledRng(st, s)
        ref = RefGame(case, n, deck, start, max_rounds, s)
        all_ids = sorted(c.id for c in case.cards)
        truth_acts = accusation(case.solution, case.level in ACCOMPLICE_LEVELS)
        plan: list[int] = []
        tot = {a: 0.0 for a in env.possible_agents}
        gen = ref.run()
        req = next(gen)
        steps = 0
        while True:
            _compare(st, ref, req, all_ids)
            assert env.agent_selection == f"player_{req[0]}"
            act = _policy(rng, req[1], req[2], plan, truth_acts, p_acc)
            env.step(act)
            for a, r in env.rewards.items():
                tot[a] += r
            ref.newly_out = []
            try:
                req = gen.send(act)
            except StopIteration:
                req = None
            steps += 1
            for p in ref.newly_out:  # the loss is final at once, paid when the game ends
                a = f"player_{p}"
                assert env.results()["out"][a]
                assert env.results()["returns"][a] == pytest.approx(-1 / (n - 1))
                if req is not None:
                    assert not env.terminations[a] and env.rewards[a] == 0.0
            if req is None:
                break
            assert not st.is_terminal
            # players who are out stay agents and are never selected: no dead steps mid-game
            assert env.agents == env.possible_agents and not any(env.terminations.values())
        # game over
        assert st.is_terminal and st.result == ref.result and st.winners == ref.winners
        expect = ref.returns()
        assert st.returns() == pytest.approx(expect)
        trunc = ref.result == "truncated"
        results = env.results()
        assert env.agents == env.possible_agents
        for a in env.agents:
            out = results["out"][a]
            assert env.truncations[a] == (trunc and not out)
            assert env.terminations[a] == (not trunc or out)
            assert env.infos[a] == {}
        assert results["winners"] == [f"player_{p}" for p in ref.winners]
        assert results["scores"] == {f"player_{p}": int(p in ref.winners) for p in range(n)}
        assert results["returns"] == pytest.approx({f"player_{p}": r for p, r in enumerate(expect)})
        while env.agents:
            env.step(None)
            for a, r in env.rewards.items():
                tot[a] += r
        assert [tot[f"player_{p}"] for p in range(n)] == pytest.approx(expect)
        if n > 1:
            assert sum(tot.values()) == pytest.approx(0.0, abs=1e-9)
