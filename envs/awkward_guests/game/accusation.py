"""The Solution phase and the results (docs/rules/awkward_guests.md, the Solution phase and
rewards): functions over the game's data.

Each remaining player decides in turn, hidden from the others, whether to accuse (``YES``:
murderer, motive, weapon and, from ``medium`` on, the accomplice and their motive). All correct
accusers win together; every wrong accuser is out (their hand is revealed) and a new Solution
phase starts for those left. Rulings and rewards: :mod:`parlour.envs.awkward_guests.game`.

| function | what it does |
|---|---|
| :func:`start_solution_phase` | every remaining player decides, in seat order from the start player |
| :func:`apply_accusation_decision` | applies a legal ``solution`` / ``murderer`` / … / ``accomplice_motive`` action |
| :func:`accusation_solution` | the :class:`Solution` an accusation (five indices) names |
| :func:`accusation_actions` | the action ids of a full accusation of a solution (after ``YES``) |
| :func:`returns`, :func:`scores`, :func:`elimination_reward` | each seat's total reward, 1 per winner, the reward of a player who is out |

Both phase functions return ``True`` when the Solution phase ended with nobody accusing before
the round limit: the Discard phase follows (:mod:`~.turns` starts it).
"""

from __future__ import annotations

from .. import actions as A
from ..case.solution import Solution
from . import cards
from .data import GuestsData
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

__all__ = [
    "start_solution_phase",
    "apply_accusation_decision",
    "accusation_solution",
    "accusation_actions",
    "returns",
    "scores",
    "elimination_reward",
]


def apply_accusation_decision(state: GuestsData, d: int, p: int, a: int) -> bool:
    """Apply the legal action ``a`` of seat ``p`` in the Solution phase (whether to accuse,
    then the accusation step by step). ``True``: the Discard phase follows."""
    if d == D_SOLUTION:
        if a == A.YES:
            state.accusations[p] = []
            state.decision = D_MURDERER
            return False
        return _next_solution_decider(state)
    acc = state.accusations[p]
    if d == D_MURDERER:
        acc.append(a - A.SUSPECT_0)
        state.decision = D_MOTIVE
    elif d == D_MOTIVE:
        acc.append(a - A.MOTIVE_0)
        state.decision = D_WEAPON
    elif d == D_WEAPON:
        acc.append(a - A.WEAPON_0)
        if state.tables.accomplice_possible:
            state.decision = D_ACCOMPLICE
        else:
            acc += [NOBODY, NOBODY]
            return _next_solution_decider(state)
    elif d == D_ACCOMPLICE:
        if a == A.NO_ACCOMPLICE:
            acc += [NOBODY, NOBODY]
            return _next_solution_decider(state)
        acc.append(a - A.SUSPECT_0)
        state.decision = D_ACC_MOTIVE
    else:  # D_ACC_MOTIVE
        acc.append(a - A.MOTIVE_0)
        return _next_solution_decider(state)
    return False


def start_solution_phase(state: GuestsData) -> bool:
    """A Solution phase starts for the remaining players. ``True``: the Discard phase follows."""
    state.accusations = {}
    state.solution_queue = state.order_from(state.start)
    return _next_solution_decider(state)


def _next_solution_decider(state: GuestsData) -> bool:
    if state.solution_queue:
        state.current = state.solution_queue.pop(0)
        state.decision = D_SOLUTION
        return False
    return _resolve_solution(state)


def accusation_solution(acc: list[int]) -> Solution:
    """The :class:`Solution` an accusation (five indices; a negative accomplice: none) names."""
    m, mu, w, a, al = acc
    return Solution(
        A.SUSPECTS[m],
        A.MOTIVES[mu],
        A.WEAPONS[w],
        None if a < 0 else A.SUSPECTS[a],
        None if al < 0 else A.MOTIVES[al],
    )


def _resolve_solution(state: GuestsData) -> bool:
    """Everyone still in has decided: winners, or the wrong accusers out, or the round limit,
    or (``True``) the Discard phase."""
    truth = tuple(state.case.solution)
    accs = state.accusations
    state.accusations = {}
    correct = [p for p, acc in accs.items() if tuple(accusation_solution(acc)) == truth]
    wrong = sorted(p for p in accs if p not in correct)
    state.accusation_log.extend((state.round, p, p in correct) for p in accs)
    state.accused.extend(tuple(acc) for acc in accs.values())
    n = state.config.num_players
    if correct:
        _finish(state, "win", sorted(correct))
        return False
    if wrong:
        if n == 1:
            _finish(state, "loss", [])
            return False
        if len(wrong) == len(state.remaining):
            _finish(state, "draw", [])
            return False
        for p in wrong:
            state.out[p] = True
            state.newly_out.append(p)
        for p in wrong:
            hand = state.hands[p]
            state.hands[p] = []
            state.selected[p].clear()
            state.hand_version[p] += 1
            state.revealed.extend(hand)
            cards.reveal(state, hand)
        left = state.remaining
        if len(left) == 1:
            _finish(state, "win", left)
            return False
        return start_solution_phase(state)
    if state.round >= state.config.max_rounds:
        _finish(state, "truncated", [])
        return False
    return True


def _finish(state: GuestsData, result: str, winners: list[int]) -> None:
    state.result = result
    state.winners = winners
    state.decision = D_NONE
    state.current = -1
    state.solution_queue = []
    state.discard_queue = []


# -- results ----------------------------------------------------------------------------


def returns(state: GuestsData) -> list[float]:
    """Each seat's total reward over the game (all zeros while it runs, but ``−1/(n−1)`` for a
    player who is out; see :mod:`parlour.envs.awkward_guests.game`)."""
    n = state.config.num_players
    if state.result is None:
        out = [0.0] * n
        if n > 1:
            for p in range(n):
                if state.out[p]:
                    out[p] = -1.0 / (n - 1)
        return out
    if n == 1:
        if state.result == "win":
            return [1.0 - SOLO_ROUND_PENALTY * state.round]
        if state.result == "loss":  # wrong accusation
            return [-1.0]
        return [0.0]
    lose = -1.0 / (n - 1)
    if state.winners:
        share = n / (n - 1) / len(state.winners)
        return [share + lose if p in state.winners else lose for p in range(n)]
    k = sum(state.out)
    m = n - k
    return [lose if state.out[p] else k / ((n - 1) * m) for p in range(n)]


def elimination_reward(state: GuestsData) -> float:
    """The reward a player gets when they are out (``−1/(n−1)``; 0 solo)."""
    n = state.config.num_players
    return -1.0 / (n - 1) if n > 1 else 0.0


def scores(state: GuestsData) -> list[int]:
    """1 for a winner, 0 otherwise."""
    return [1 if p in state.winners else 0 for p in range(state.config.num_players)]


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
