"""The optimised (incremental, cached) observation encoder equals a plain reference encoding
written from the layout table of ``parlour.envs.awkward_guests.observation``, for every observer, at
every step of random games (a second game reuses the encoder's buffers).

The ``last_turns`` block is checked against :class:`TurnTracker`, a record of every seat's last
turn kept here independently of the engine's own record: it watches each step's decision and
action (asks, bids closed, answers, payment steps) and the turn counter, and never reads
``GuestsState.last_turns``."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.envs import awkward_guests_v1
from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests.case.board import WALTON
from parlour.envs.awkward_guests.case.case import LEVELS
from parlour.envs.awkward_guests.case.deduction import Deduction
from parlour.envs.awkward_guests.case.facts import FACT_TYPES

from .game_helpers import generated_case

PHASES = ("inquiry", "offer", "exchange", "solution", "discard", "over")
DECISIONS = (
    "inquiry",
    "offer",
    "answer",
    "pay",
    "solution",
    "murderer",
    "motive",
    "weapon",
    "accomplice",
    "accomplice_motive",
    "discard",
)
SUS = list(WALTON.suspects)
MOT = [m.id for m in WALTON.motives]
WEA = [w.id for w in WALTON.weapons]
REFS = list(WALTON.references)
ALIBI = list(WALTON.alibi_rooms)
NON_STUDY = [r for r in WALTON.rooms if r != "study"]
PAIRS = [(a, b) for i, a in enumerate(SUS) for b in SUS[i + 1 :]]


def reference_notebook(facts: list[dict]) -> np.ndarray:
    signs = np.zeros(10)
    weapons = np.zeros(20)
    passages = np.zeros(14)
    before = np.zeros((6, 4))
    at_murder = np.zeros((6, 9))
    counts = np.zeros((4, 8))
    claims = np.zeros((6, 11))
    boxes = np.zeros((18, 3, 2))
    together = np.zeros(15)
    apart = np.zeros(15)
    alone = np.zeros(6)
    pas = [(p.frm, p.to) for p in WALTON.passages]
    for f in facts:
        t = f["type"]
        if t == "sign_absent":
            signs[list(WALTON.signs).index(f["sign"])] = 1
        elif t == "weapon_unused":
            weapons[WEA.index(f["weapon"])] = 1
        elif t == "passage_unused":
            passages[pas.index((f["from"], f["to"]))] = 1
        elif t == "seen_before":
            before[SUS.index(f["suspect"]), ALIBI.index(f["room"])] = 1
        elif t == "seen_at_murder":
            at_murder[SUS.index(f["suspect"]), NON_STUDY.index(f["room"])] = 1
        elif t == "guest_count":
            counts[ALIBI.index(f["room"]), f["count"]] = 1
        elif t == "claim":
            row = claims[SUS.index(f["suspect"])]
            row[0] = 1
            row[1 + ALIBI.index(f["room"])] = 1
            for w in f["with"]:
                row[5 + SUS.index(w)] = 1
        elif t in ("testimony", "evidence"):
            mot = WALTON.motive(f["motive"])
            box = 2 if t == "evidence" else list(mot.testifiers).index(f["speaker"])
            boxes[MOT.index(mot.id), box, 0 if f["verdict"] == "confirms" else 1] = 1
        elif t == "together":
            together[PAIRS.index(tuple(f["suspects"]))] = 1
        elif t == "apart":
            apart[PAIRS.index(tuple(f["suspects"]))] = 1
        elif t == "alone":
            alone[SUS.index(f["suspect"])] = 1
    parts = [signs, weapons, passages, before, at_murder, counts, claims, boxes]
    return np.concatenate([p.ravel() for p in parts] + [together, apart, alone])


class TurnTracker:
    """Per seat, the public record of its last finished turn, followed step by step:
    ``(asked refs, [(bidder, value, count, accepted, cards paid), ...])`` or ``None``; cleared
    when the seat's next turn starts."""

    def __init__(self, n: int) -> None:
        self.rec: list[tuple | None] = [None] * n

    def before(self, state: G.GuestsState) -> tuple:
        d = G.DECISIONS[state.decision]
        bids = [[b.seat, b.value, b.count, b.status, len(b.payment)] for b in state.bids]
        sel = state.selected[state.current] if d == "offer" else set()
        offer = (sum(state.tables.values[c] for c in sel), len(sel))
        return (
            d,
            state.active,
            state.current,
            list(state.asked),
            bids,
            state.answering,
            offer,
            (state.turns_taken),
        )

    def after(self, snap: tuple, action: int, state: G.GuestsState) -> None:
        d, active, current, asked, bids, answering, offer, turns = snap
        if d == "inquiry":
            asked.append(action - A.REF_0)
        elif d == "offer" and action == A.NO and offer[1]:
            bids.append([current, offer[0], offer[1], 0, 0])
        elif d == "answer":
            bids[answering][3] = 1 if action == A.YES else 2
        elif d == "pay":
            bids[answering][4] += 1
        if state.turns_taken > turns:  # the turn of ``active`` ended with this step
            self.rec[active] = (
                asked,
                [(s, v, c, st == 1, paid if st == 1 else 0) for s, v, c, st, paid in bids],
            )
        # a turn that starts is an inquiry with nothing asked yet
        if G.DECISIONS[state.decision] == "inquiry" and not state.asked:
            self.rec[state.active] = None


def reference(
    state: G.GuestsState, me: int, layout: dict, mode: str, turns: TurnTracker
) -> np.ndarray:
    n = state.num_players
    size = max(s.stop for s in layout.values())
    obs = np.zeros(size, np.float64)
    b = {name: obs[sl] for name, sl in layout.items()}
    d = G.DECISIONS[state.decision]
    over = d == "none"
    mine = not over and state.current == me
    b["phase"][PHASES.index(state.phase_name)] = 1
    if mine:
        b["pending_decision"][DECISIONS.index(d)] = 1
        if d == "pay":
            b["pending_amount"][0] = min(state.owed / 30, 1)
        if d == "discard":
            b["pending_amount"][1] = (len(state.hands[me]) - len(state.selected[me]) - 3) / 32
        if d in ("motive", "weapon", "accomplice", "accomplice_motive"):
            acc = state.accusations[me]
            b["pending_accusation"][acc[0]] = 1
            if len(acc) > 1:
                b["pending_accusation"][6 + acc[1]] = 1
            if len(acc) > 2:
                b["pending_accusation"][24 + acc[2]] = 1
            if len(acc) > 3:
                b["pending_accusation"][44 + (6 if acc[3] < 0 else acc[3])] = 1
    b["round"][0] = state.round / state.config.max_rounds
    b["level"][LEVELS.index(state.case.level)] = 1
    b["num_players"][n - 1] = 1
    b["rules"][:] = [state.case.accomplice_possible, n <= 2, n == 1]
    players = b["players"].reshape(8, 13)
    in_turn = d in ("inquiry", "offer", "answer", "pay")
    for j in range(n):
        s = (me + j) % n
        row = players[j]
        row[0] = 1
        row[1] = state.out[s]
        row[6] = not state.out[s] and (
            not in_turn or (s != state.active and s not in state.turn_queue)
        )
        row[2] = not over and s == state.current
        row[3] = in_turn and s == state.active
        row[4] = s == state.start
        row[5] = len(state.hands[s]) / 32
    for k, bid in enumerate(state.bids):
        j = 1 if bid.seat < 0 else (bid.seat - me) % n
        row = players[j]
        row[7] = 1
        row[8] = min(bid.value / 30, 1)
        row[9] = bid.count / 32
        row[10] = bid.status == 1
        row[11] = bid.status == 2
        row[12] = k == state.answering and d in ("answer", "pay")
    for r in state.asked:
        b["asked"][r] = 1
    last = b["last_turns"].reshape(8, 57)
    for s, rec in enumerate(turns.rec):
        if rec is None:
            continue
        row = last[(s - me) % n]
        row[0] = 1
        for r in rec[0]:
            row[1 + r] = 1
        for bidder, value, count, accepted, paid in rec[1]:
            j = 1 if bidder < 0 else (bidder - me) % n
            row[17 + 5 * j : 17 + 5 * j + 5] = [
                1,
                min(value / 30, 1),
                count / 32,
                accepted,
                paid / 32,
            ]
    num = state.tables.num_cards
    b["piles"][:] = [
        len(state.deck) / num,
        len(state.discard) / num,
        len(state.revealed) / num,
        min(num / 200, 1),
    ]
    hand = b["hand"].reshape(32, 40)
    for i, k in enumerate(state.hands[me]):
        card = state.tables.cards[k]
        row = hand[i]
        row[0] = 1
        row[card.value] = 1
        for r in card.refs:
            row[4 + REFS.index(r)] = 1
        for f in card.facts:
            row[20 + FACT_TYPES.index(f["type"])] += 1 / 3
        for j in range(1, n):
            row[32 + j - 1] = bool(int(state.known[me, k]) >> ((me + j) % n) & 1)
        row[39] = k in state.selected[me]
    facts = [f for k in state.seen_log[me] for f in state.tables.cards[k].facts]
    b["notebook"][:] = reference_notebook(facts)
    if mode == "deduced":
        ded = Deduction(state.case.accomplice_possible)
        ded.add_facts(facts)
        poss = ded.possible()
        for s in poss["murderers"]:
            b["deduced_murderers"][SUS.index(s)] = 1
        for m in poss["motives"]:
            b["deduced_motives"][MOT.index(m)] = 1
        for w in poss["weapons"]:
            b["deduced_weapons"][WEA.index(w)] = 1
        for s in poss["accomplices"]:
            b["deduced_accomplices"][6 if s is None else SUS.index(s)] = 1
        for m in poss["accomplice_motives"]:
            b["deduced_accomplice_motives"][18 if m is None else MOT.index(m)] = 1
        c = ded.count()
        b["deduced_count"][0] = 0 if c == 1 else math.log(c) / math.log(5760)
    return obs.astype(np.float32)


@settings(max_examples=8)
@given(
    n=st.integers(1, 8),
    level=st.sampled_from(["beginner", "easy", "medium", "expert"]),
    mode=st.sampled_from(["notebook", "deduced"]),
    seed=st.integers(0, 2**31),
)
def test_encoder_matches_reference_for_every_observer(n, level, mode, seed):
    cases = [generated_case(level, 61), generated_case(level, 62, 30)]
    env = awkward_guests_v1.raw_env(
        num_players=n, level=level, cases=cases, observation_mode=mode, max_rounds=4
    )
    rng = np.random.default_rng(seed)
    for game in range(2):
        env.reset(seed=seed + game)
        turns = TurnTracker(n)
        steps = 0
        while env.agents and steps < 90:
            for agent in rng.permutation(env.possible_agents):
                seat = env.agent_name_mapping[agent]
                got = env.observe(agent)["observation"]
                want = reference(env.game, seat, env.observation_layout, mode, turns)
                np.testing.assert_allclose(got, want, atol=1e-6)
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            mask = env.observe(agent)["action_mask"]
            a = int(rng.choice(np.flatnonzero(mask)))
            if env.game.decision == G.D_SOLUTION and rng.random() < 0.7:
                a = A.NO
            snap = turns.before(env.game)
            env.step(a)
            turns.after(snap, a, env.game)
            steps += 1
