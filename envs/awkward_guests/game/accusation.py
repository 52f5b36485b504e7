"""The Solution phase and the results (docs/rules/awkward_guests.md, the Solution phase and rewards): the part of
:class:`~.state.GuestsState` that runs accusations and scores the game
(:class:`AccusationMixin`), and :func:`accusation_actions`.

Each remaining player decides in turn, hidden from the others, whether to accuse (``YES``:
murderer, motive, weapon and, from ``medium`` on, the accomplice and their motive). All correct
accusers win together; every wrong accuser is out (their hand is revealed) and a new Solution
phase starts for those left. Rulings and rewards: :mod:`parlour.envs.awkward_guests.game`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import actions as A
from ..case.solution import Solution
from .rules import (
    D_ACC_MOTIVE,
    D_ACCOMPLICE,
    D_MOTIVE,
    D_MURDERER,
    D_NONE,
    D_SOLUTION,
    D_WEAPON,
    NOBODY,
    SOLO_ROUND_PENALTY,
)

if TYPE_CHECKING:
    from .state import GuestsState

__all__ = ["AccusationMixin", "accusation_actions"]


class AccusationMixin:
    """The Solution phase and the results (mixed into :class:`~.state.GuestsState`, whose
    fields it uses)."""

    def _apply_accusation_decision(self: GuestsState, d: int, p: int, a: int) -> None:
        """Apply the legal action ``a`` of seat ``p`` in the Solution phase (whether to
        accuse, then the accusation step by step)."""
        if d == D_SOLUTION:
            if a == A.YES:
                self.accusations[p] = []
                self.decision = D_MURDERER
            else:
                self._next_solution_decider()
        elif d == D_MURDERER:
            self.accusations[p].append(a - A.SUSPECT_0)
            self.decision = D_MOTIVE
        elif d == D_MOTIVE:
            self.accusations[p].append(a - A.MOTIVE_0)
            self.decision = D_WEAPON
        elif d == D_WEAPON:
            self.accusations[p].append(a - A.WEAPON_0)
            if self.tables.accomplice_possible:
                self.decision = D_ACCOMPLICE
            else:
                self.accusations[p] += [NOBODY, NOBODY]
                self._next_solution_decider()
        elif d == D_ACCOMPLICE:
            if a == A.NO_ACCOMPLICE:
                self.accusations[p] += [NOBODY, NOBODY]
                self._next_solution_decider()
            else:
                self.accusations[p].append(a - A.SUSPECT_0)
                self.decision = D_ACC_MOTIVE
        else:  # D_ACC_MOTIVE
            self.accusations[p].append(a - A.MOTIVE_0)
            self._next_solution_decider()

    def _start_solution_phase(self: GuestsState) -> None:
        self.accusations = {}
        self.solution_queue = self.order_from(self.start)
        self._next_solution_decider()

    def _next_solution_decider(self: GuestsState) -> None:
        if self.solution_queue:
            self.current = self.solution_queue.pop(0)
            self.decision = D_SOLUTION
        else:
            self._resolve_solution()

    def accusation_solution(self: GuestsState, acc: list[int]) -> Solution:
        """The :class:`Solution` an accusation (five indices; a negative accomplice: none)
        names."""
        m, mu, w, a, al = acc
        return Solution(
            A.SUSPECTS[m],
            A.MOTIVES[mu],
            A.WEAPONS[w],
            None if a < 0 else A.SUSPECTS[a],
            None if al < 0 else A.MOTIVES[al],
        )

    def _resolve_solution(self: GuestsState) -> None:
        truth = tuple(self.case.solution)
        accs = self.accusations
        self.accusations = {}
        correct = [p for p, acc in accs.items() if tuple(self.accusation_solution(acc)) == truth]
        wrong = sorted(p for p in accs if p not in correct)
        self.accusation_log.extend((self.round, p, p in correct) for p in accs)
        n = self.config.num_players
        if correct:
            self._finish("win", sorted(correct))
            return
        if wrong:
            if n == 1:
                self._finish("loss", [])
                return
            if len(wrong) == len(self.remaining):
                self._finish("draw", [])
                return
            for p in wrong:
                self.out[p] = True
                self.newly_out.append(p)
            for p in wrong:
                hand = self.hands[p]
                self.hands[p] = []
                self.selected[p].clear()
                self.hand_version[p] += 1
                self.revealed.extend(hand)
                self._reveal(hand)
            left = self.remaining
            if len(left) == 1:
                self._finish("win", left)
                return
            self._start_solution_phase()
            return
        if self.round >= self.config.max_rounds:
            self._finish("truncated", [])
            return
        self._start_discard_phase()

    def _finish(self: GuestsState, result: str, winners: list[int]) -> None:
        self.result = result
        self.winners = winners
        self.decision = D_NONE
        self.current = -1
        self.solution_queue = []
        self.discard_queue = []

    # -- results ------------------------------------------------------------------------

    def returns(self: GuestsState) -> list[float]:
        """Each seat's total reward over the game (all zeros while it runs; see module docs)."""
        n = self.config.num_players
        if self.result is None:
            out = [0.0] * n
            if n > 1:
                for p in range(n):
                    if self.out[p]:
                        out[p] = -1.0 / (n - 1)
            return out
        if n == 1:
            if self.result == "win":
                return [1.0 - SOLO_ROUND_PENALTY * self.round]
            if self.result == "loss":  # wrong accusation
                return [-1.0]
            return [0.0]
        lose = -1.0 / (n - 1)
        if self.winners:
            share = n / (n - 1) / len(self.winners)
            return [share + lose if p in self.winners else lose for p in range(n)]
        k = sum(self.out)
        m = n - k
        return [lose if self.out[p] else k / ((n - 1) * m) for p in range(n)]

    def elimination_reward(self: GuestsState) -> float:
        """The reward a player gets when they are out (``−1/(n−1)``; 0 solo)."""
        n = self.config.num_players
        return -1.0 / (n - 1) if n > 1 else 0.0

    def scores(self: GuestsState) -> list[int]:
        """1 for a winner, 0 otherwise."""
        return [1 if p in self.winners else 0 for p in range(self.config.num_players)]

    @property
    def truncated(self: GuestsState) -> bool:
        return self.result == "truncated"

    # -- public bookkeeping used by observers --------------------------------------------

    def pending_accusation(self: GuestsState, seat: int) -> list[int] | None:
        """The partial accusation of ``seat`` while they are making it (hidden from others)."""
        if self.current == seat and D_MURDERER <= self.decision <= D_ACC_MOTIVE:
            return self.accusations.get(seat)
        return None


def accusation_actions(solution: Solution, accomplice_possible: bool) -> list[int]:
    """The action ids of a full accusation of ``solution`` (after ``YES``)."""
    acts = [
        A.SUSPECT_0 + A.SUSPECTS.index(solution.murderer),
        A.MOTIVE_0 + A.MOTIVES.index(solution.motive),
        A.WEAPON_0 + A.WEAPONS.index(solution.weapon),
    ]
    if accomplice_possible:
        if solution.accomplice is None:
            acts.append(A.NO_ACCOMPLICE)
        else:
            acts.append(A.SUSPECT_0 + A.SUSPECTS.index(solution.accomplice))
            acts.append(A.MOTIVE_0 + A.MOTIVES.index(solution.accomplice_motive))
    return acts
