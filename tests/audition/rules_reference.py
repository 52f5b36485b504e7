"""Audition reference model: the rules as ``docs/rules/audition.md`` states them, independent of the engine.

:class:`Ref` plays a game from a fixed deck order (top first), start seat and slot kinds, with
plain Python lists; ``legal()`` lists the legal actions, ``step(a)`` applies one, and
``expected_obs(observer, layout, uncertain)`` builds the observation the documented layout table (``docs/envs/audition.md``)
describes. ``tests/audition/test_rules_reference_model.py`` runs it in lock-step with the env.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from tests.audition.driver import CHOOSE, DRAW, KINDS, PASS, PHASES, PLACE, TAKE, TOP, points_of


class Ref:
    """The rules as docs/rules/audition.md states them, independent of the implementation."""

    def __init__(self, n, kinds, deck, start, uncertain):
        self.n = n
        self.kinds = list(kinds)
        cards = list(deck)
        self.removed = cards[-5:] if uncertain else []
        self.deck = cards[:-5] if uncertain else cards  # top first
        self.slots = [[] for _ in range(n)]
        self.slot_taken = [False] * n
        self.taken = [False] * n
        self.coll = [[0] * 14 for _ in range(n)]
        self.discard = [0] * 14
        self.cur = start
        self.phase = "turn"
        self.drawn = 0
        self.pending = -1
        self.choice = [0] * 14
        self.emptier = None
        self.in_final = False
        self.queue: list[int] = []
        self.last_taker = None
        self.round = 1

    def cap(self, s):
        return 2 if self.kinds[s] == "max_two" else 4

    def room(self, s):
        return self.cap(s) - len(self.slots[s])

    def legal(self) -> list[int]:
        n, ph = self.n, self.phase
        if ph in ("turn", "final"):
            acts = [TAKE(s) for s in range(n) if not self.slot_taken[s] and self.slots[s]]
            if ph == "final":
                return acts + [PASS]
            if self.deck and any(not self.slot_taken[s] and self.room(s) > 0 for s in range(n)):
                acts.append(DRAW)
            return sorted(acts)
        if ph == "place":
            return [PLACE(s) for s in range(n) if not self.slot_taken[s] and self.room(s) > 0]
        if ph == "take_now":
            return [TAKE(self.pending), PASS]
        if ph in ("pass_left", "discard_one", "discard_own"):
            acts = [CHOOSE(v) for v in range(1, 14) if self.choice[v]]
            return ([PASS] if ph == "discard_own" else []) + acts
        return []

    def step(self, a: int) -> None:
        assert a in self.legal()
        ph, p = self.phase, self.cur
        if ph in ("turn", "final"):
            if a == DRAW:
                self.drawn = self.deck.pop(0)
                if not self.deck:
                    self.emptier = p
                self.phase = "place"
            elif a == PASS:
                self.finish()
            else:
                self.take(a)
        elif ph == "place":
            s = a - 7
            self.slots[s].append(self.drawn)
            self.drawn = 0
            if self.kinds[s] == "take_now":
                self.phase, self.pending = "take_now", s
            else:
                self.finish()
        elif ph == "take_now":
            s, self.pending = self.pending, -1
            if a == PASS:
                self.finish()
            else:
                self.take(s)
        elif ph == "pass_left":
            v = a - 13
            self.coll[p][v] -= 1
            self.coll[(p + 1) % self.n][v] += 1
            self.finish()
        else:  # discard_one / discard_own
            if a != PASS:
                v = a - 13
                self.coll[p][v] -= 1
                self.discard[v] += 1
            self.finish()

    def take(self, s: int) -> None:
        p = self.cur
        came = Counter(self.slots[s])
        before = list(self.coll[p])
        for v, k in came.items():
            self.coll[p][v] += k
        self.slots[s] = []
        self.slot_taken[s] = True
        self.taken[p] = True
        self.last_taker = p
        kind = self.kinds[s]
        if kind in ("pass_left", "discard_one"):
            self.phase = kind
            self.choice = [came.get(v, 0) for v in range(14)]
            return
        if kind == "discard_own" and sum(before) > 0:
            self.phase = kind
            self.choice = before
            return
        if kind == "draw_one" and self.deck:
            c = self.deck.pop(0)
            self.coll[p][c] += 1
            if not self.deck:
                self.emptier = p
        self.finish()

    def finish(self) -> None:
        self.choice = [0] * 14
        n = self.n
        if self.in_final:
            self.next_final()
            return
        if self.emptier is not None:
            self.in_final = True
            e = self.emptier
            self.queue = [(e + k) % n for k in range(1, n + 1) if not self.taken[(e + k) % n]]
            self.next_final()
            return
        if all(self.taken):
            if not self.deck:
                self.phase = "over"
                return
            self.round += 1
            self.slots = [[] for _ in range(n)]
            self.slot_taken = [False] * n
            self.taken = [False] * n
            self.cur = self.last_taker
            self.phase = "turn"
            return
        for k in range(1, n + 1):
            q = (self.cur + k) % n
            if not self.taken[q]:
                self.cur = q
                break
        self.phase = "turn"

    def next_final(self) -> None:
        if self.queue:
            self.cur = self.queue.pop(0)
            self.phase = "final"
        else:
            self.phase = "over"

    # -- public information
    def points(self):
        return [points_of(c) for c in self.coll]

    def winners(self):
        pq = self.points()
        best = max(pq)
        return [p for p in range(self.n) if pq[p] == best]

    def unseen(self, observer):
        comp = [0] + [k if k <= TOP[self.n] else 0 for k in range(1, 14)]
        u = list(comp)
        for v in range(14):
            u[v] -= sum(c[v] for c in self.coll) + self.discard[v]
        for sl in self.slots:
            for v in sl:
                u[v] -= 1
        if self.drawn and observer == self.cur and self.phase == "place":
            u[self.drawn] -= 1
        return u

    def expected_obs(self, o: int, L: dict[str, slice], uncertain: bool) -> np.ndarray:
        size = max(s.stop for s in L.values())
        x = np.zeros(size, np.float32)
        n = self.n
        over = self.phase == "over"
        mine = (not over) and self.cur == o
        x[L["phase"].start + PHASES.index(self.phase)] = 1
        x[L["in_final"].start] = float(self.in_final)
        if mine and self.phase == "place":
            x[L["drawn_card"].start + self.drawn - 1] = 1
        if mine and self.phase in ("pass_left", "discard_one", "discard_own"):
            x[L["pending_choice"]] = np.array(self.choice[1:], np.float32) / 13
        sl = x[L["slots"]].reshape(6, 23)
        for s in range(n):
            sl[s, KINDS.index(self.kinds[s])] = 1
            sl[s, 7] = 1
            sl[s, 8] = float(self.slot_taken[s])
            sl[s, 9] = self.room(s) / 4
            c = Counter(self.slots[s])
            sl[s, 10:] = [c.get(v, 0) / 4 for v in range(1, 14)]
        x[L["slots"]] = sl.ravel()
        pl = x[L["players"]].reshape(6, 19)
        pts = self.points()
        for i in range(n):
            q = (o + i) % n
            pl[i, 0] = 1
            pl[i, 1] = float((not over) and q == self.cur)
            pl[i, 2] = float(self.taken[q])
            pl[i, 3] = pts[q][0] / 65
            pl[i, 4:17] = np.array(self.coll[q][1:], np.float32) / 13
            pl[i, 17] = float(q in getattr(self, "queue", []))  # still to choose in the final phase
            pl[i, 18] = float(q == self.last_taker)  # took the last slot: starts the next round
        x[L["players"]] = pl.ravel()
        x[L["unseen"]] = np.array(self.unseen(o)[1:], np.float32) / 13
        x[L["deck_size"].start] = len(self.deck) / 91
        x[L["discard"]] = np.array(self.discard[1:], np.float32) / 13
        x[L["num_players"].start + n - 2] = 1
        x[L["variants"].start] = float(any(k != "conductor" for k in self.kinds))
        x[L["variants"].start + 1] = float(uncertain)
        return x
