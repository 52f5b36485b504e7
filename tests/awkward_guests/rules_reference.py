"""Awkward Guests reference model: the rules of docs/rules/awkward_guests.md written independently of the engine.

:class:`RefGame` is a coroutine: ``run()`` yields ``(seat, decision, legal_action_set)`` for
every decision and receives the action taken; its state (hands, notebooks, deck, piles, bids,
who is out, the result and ``returns()``) is plain Python. :class:`ControlledRng` replaces the
engine's reshuffle generator so that both shuffle the discard pile identically.
``tests/awkward_guests/test_rules_reference_model.py`` runs the two in lock-step.
"""

from __future__ import annotations

import numpy as np

from .scenario_helpers import (
    ACCOMPLICE_LEVELS,
    CARD0,
    MOT0,
    MOTIVE_IDS,
    NO,
    NOACC,
    REF0,
    REFS,
    SUS0,
    SUSPECTS,
    WEA0,
    WEAPONS,
    YES,
    mot_act,
    motives_of,
)


class RefGame:
    """The rules of docs/rules/awkward_guests.md written independently, as a coroutine.

    ``run()`` yields ``(seat, decision, legal_action_set)`` and receives the action taken.
    """

    def __init__(self, case, n, deck_ids, start, max_rounds, shuffle_seed):
        self.case = case
        self.n = n
        self.val = {c.id: c.value for c in case.cards}
        self.refs = {c.id: set(c.refs) for c in case.cards}
        self.acc_possible = case.level in ACCOMPLICE_LEVELS
        self.deck = list(deck_ids)  # top first
        self.hands = [[] for _ in range(n)]
        self.sel = [[] for _ in range(n)]
        self.discard: list[int] = []
        self.revealed: list[int] = []
        self.table: list[int] = []
        self.out = [False] * n
        self.seen = [set() for _ in range(n)]
        self.known = [dict() for _ in range(n)]
        self.start = start
        self.round = 1
        self.max_rounds = max_rounds
        self.result = None
        self.winners: list[int] = []
        self.newly_out: list[int] = []
        self.bids_pub: list[tuple[int, int, int]] = []
        self.asked: list[str] = []
        self.g = np.random.default_rng(shuffle_seed)
        self.small = n <= 2
        for p in range(n):
            self.draw_to(p, 6)

    # -- helpers
    def remaining(self):
        return [p for p in range(self.n) if not self.out[p]]

    def order_from(self, s, include=True):
        ks = range(0 if include else 1, self.n)
        return [(s + k) % self.n for k in ks if not self.out[(s + k) % self.n]]

    def see(self, p, cards, who=None):
        for c in cards:
            self.seen[p].add(c)
            self.known[p].setdefault(c, set()).update({p} | set(who or ()))

    def reshuffle(self):
        if not self.discard:
            return
        pile = sorted(self.discard)
        perm = self.g.permutation(len(pile))
        order = [pile[j] for j in perm]
        self.discard = []
        shown = order[:3]
        self.revealed += shown
        for p in self.remaining():
            self.see(p, shown, range(self.n))
        self.deck = order[3:]

    def draw_one(self):
        if not self.deck:
            self.reshuffle()
            if not self.deck:
                return None
        return self.deck.pop(0)

    def draw_to(self, p, k):
        for _ in range(max(0, k)):
            c = self.draw_one()
            if c is None:
                break
            self.hands[p].append(c)
            self.hands[p].sort()
            self.see(p, [c])

    def hand_value(self, cards):
        return sum(self.val[c] for c in cards)

    # -- game
    def run(self):
        while True:
            for a in self.order_from(self.start):
                yield from self.turn(a)
            self.asked = []
            if (yield from self.solution_phase()):
                return
            if self.round >= self.max_rounds:
                self.result = "truncated"
                return
            yield from self.discard_phase()
            nxt = self.order_from(self.start, include=False)
            if nxt:
                self.start = nxt[0]
            for p in self.order_from(self.start):
                self.draw_to(p, 6 - len(self.hands[p]))
            self.round += 1

    def turn(self, a):
        self.bids_pub = []
        self.asked = []
        k = 4 if self.n <= 2 else 2
        asked_idx: list[int] = []
        while len(asked_idx) < k:
            act = yield (a, "inquiry", {r for r in range(16) if r not in asked_idx})
            asked_idx.append(act - REF0)
            self.asked.append(REFS[act - REF0])
        asked = set(self.asked)
        if self.n == 1:
            yield from self.solo_exchange(a, asked)
            self.bids_pub = []
            return
        bids = []
        for q in self.order_from(a, include=False):
            hand = self.hands[q]
            match = [c for c in hand if self.refs[c] & asked]
            if not match:
                continue
            while True:
                lg = {CARD0 + i for i, c in enumerate(hand) if c in match and c not in self.sel[q]}
                act = yield (q, "offer", lg | {NO})
                if act == NO:
                    break
                self.sel[q].append(hand[act - CARD0])
            if self.sel[q]:
                cards = sorted(self.sel[q])
                bids.append((q, cards))
                self.bids_pub.append((q, self.hand_value(cards), len(cards)))
        if not bids:
            self.no_offer_draw(a)
            self.bids_pub = []
            return
        hand = self.hands[a]
        accepted = []
        received = 0
        for q, cards in bids:
            value = self.hand_value(cards)
            avail = self.hand_value([c for c in hand if c not in self.sel[a]])
            ok = avail >= value
            if ok and not self.small:  # the documented hand-cap ruling (32)
                if len(hand) - len(self.sel[a]) - 1 + received + len(cards) > 32:
                    ok = False
                if len(self.hands[q]) - len(cards) + value > 32:
                    ok = False
            act = yield (a, "answer", {YES, NO} if ok else {NO})
            if act == YES:
                received += len(cards)
                owed, pay = value, []
                while owed > 0:
                    lg = {CARD0 + i for i, c in enumerate(hand) if c not in self.sel[a]}
                    act = yield (a, "pay", lg)
                    c = hand[act - CARD0]
                    self.sel[a].append(c)
                    pay.append(c)
                    owed -= self.val[c]
                accepted.append((q, cards, pay))
        gained = []
        for q, cards, pay in accepted:
            self.hands[q] = [c for c in self.hands[q] if c not in cards]
            self.hands[a] = [c for c in self.hands[a] if c not in pay]
            self.see(a, cards, [q])
            self.see(a, pay, [q])
            self.see(q, pay, [a])
            self.see(q, cards, [a])
            if self.small:
                self.discard += cards + pay
            else:
                gained += cards
                self.hands[q] = sorted(self.hands[q] + pay)
        self.hands[a] = sorted(self.hands[a] + gained)
        for p in range(self.n):
            self.sel[p] = []
        self.bids_pub = []

    def no_offer_draw(self, a):
        if self.small:
            drawn = []
            for _ in range(2):
                c = self.draw_one()
                if c is None:
                    break
                drawn.append(c)
            self.see(a, drawn)
            self.discard += drawn
        else:
            self.draw_to(a, min(3, 32 - len(self.hands[a])))

    def solo_exchange(self, a, asked):
        looked = []
        for _ in range(5):
            c = self.draw_one()
            if c is None:
                break
            looked.append(c)
        match = [c for c in looked if self.refs[c] & asked]
        rest = [c for c in looked if not self.refs[c] & asked]
        self.deck += rest  # bottom, in the order looked at (ruling)
        if not match:
            self.no_offer_draw(a)
            return
        self.table = sorted(match)
        value = self.hand_value(match)
        self.bids_pub = [(-1, value, len(match))]
        hand = self.hands[a]
        ok = self.hand_value(hand) >= value
        act = yield (a, "answer", {YES, NO} if ok else {NO})
        if act == YES:
            owed, pay = value, []
            while owed > 0:
                lg = {CARD0 + i for i, c in enumerate(hand) if c not in pay}
                act = yield (a, "pay", lg)
                c = hand[act - CARD0]
                self.sel[a].append(c)
                pay.append(c)
                owed -= self.val[c]
            self.see(a, match)
            self.discard += match + pay
            self.hands[a] = [c for c in hand if c not in pay]
            self.sel[a] = []
        else:
            self.deck += sorted(match)  # ruling: declined cards to the bottom (by id)
        self.table = []

    def solution_phase(self):
        truth = tuple(self.case.solution)
        while True:
            accs = {}
            for p in self.order_from(self.start):
                act = yield (p, "solution", {YES, NO})
                if act == NO:
                    continue
                m = (yield (p, "murderer", {SUS0 + i for i in range(6)})) - SUS0
                ms = SUSPECTS[m]
                mu = (yield (p, "motive", {mot_act(x) for x in motives_of(ms)})) - MOT0
                w = (yield (p, "weapon", {WEA0 + i for i in range(20)})) - WEA0
                acc = accm = None
                if self.acc_possible:
                    lg = {SUS0 + i for i in range(6) if i != m} | {NOACC}
                    x = yield (p, "accomplice", lg)
                    if x != NOACC:
                        acc = SUSPECTS[x - SUS0]
                        y = yield (p, "accomplice_motive", {mot_act(z) for z in motives_of(acc)})
                        accm = MOTIVE_IDS[y - MOT0]
                accs[p] = (ms, MOTIVE_IDS[mu], WEAPONS[w], acc, accm)
            if not accs:
                return False
            correct = sorted(p for p, s in accs.items() if s == truth)
            wrong = sorted(p for p in accs if p not in correct)
            if correct:
                self.result, self.winners = "win", correct
                return True
            if self.n == 1:
                self.result = "loss"
                return True
            if len(wrong) == len(self.remaining()):
                self.result = "draw"
                return True
            for p in wrong:
                self.out[p] = True
                self.newly_out.append(p)
            for p in wrong:
                hand, self.hands[p] = self.hands[p], []
                self.revealed += hand
                for q in self.remaining():
                    self.see(q, hand, range(self.n))
            if len(self.remaining()) == 1:
                self.result, self.winners = "win", self.remaining()
                return True

    def discard_phase(self):
        for p in self.order_from(self.start):
            hand = self.hands[p]
            if len(hand) <= 3:
                continue
            while len(hand) - len(self.sel[p]) > 3:
                lg = {CARD0 + i for i, c in enumerate(hand) if c not in self.sel[p]}
                act = yield (p, "discard", lg)
                self.sel[p].append(hand[act - CARD0])
            self.discard += self.sel[p]
            self.hands[p] = [c for c in hand if c not in self.sel[p]]
            self.sel[p] = []

    def returns(self):
        n = self.n
        if n == 1:
            if self.result == "win":
                return [1 - 0.01 * self.round]
            return [-1.0 if self.result == "loss" else 0.0]
        lose = -1 / (n - 1)
        if self.winners:
            return [
                n / ((n - 1) * len(self.winners)) + lose if p in self.winners else lose
                for p in range(n)
            ]
        k = sum(self.out)
        m = n - k
        return [lose if self.out[p] else k / ((n - 1) * m) for p in range(n)]


class ControlledRng:
    """Stands in for the engine's generator: a reshuffle puts the pile (sorted by card) in the
    order given by our own generator, so the reference model can shuffle identically."""

    def __init__(self, state, seed):
        self.game = state
        self.g = np.random.default_rng(seed)

    def permutation(self, k):
        pile = list(self.game.discard)
        assert len(pile) == k, "the engine reshuffles something other than its discard pile"
        pos = sorted(range(k), key=lambda i: pile[i])
        return np.array([pos[j] for j in self.g.permutation(k)])
