"""The game state of Awkward Guests: :class:`GuestsState` (rules: :mod:`parlour.envs.awkward_guests.game`).

:class:`GuestsState` is the plain, copyable data of :class:`~.data.GuestsData` (hands, deck,
piles, notebooks, the decision being taken) with the engine's public methods:

| method | what it does |
|---|---|
| ``legal_actions()`` | the legal action ids, ascending (empty once the game is over) |
| ``legal_mask(out=None)`` | the same as an ``int8`` mask of length 95 |
| ``apply(action)`` | plays a legal action of ``current_player`` (:func:`~.turns.apply_action`); an illegal one raises :class:`IllegalActionError` and changes nothing |
| ``returns()``, ``scores()``, ``elimination_reward()`` | the results (:mod:`~.accusation`) |
| ``clone()`` | an independent copy (``copy.deepcopy`` and ``pickle`` work too) |

It holds no rule itself: which actions are legal reads the data (and
:func:`~.exchange.can_accept`), the moves are :mod:`~.turns`, :mod:`~.exchange`,
:mod:`~.accusation` and :mod:`~.cards`.
"""

from __future__ import annotations

import numpy as np

from parlour.envs._checks import is_int

from .. import actions as A
from . import accusation, exchange, turns
from .data import GuestsData
from .rules import (
    D_ACC_MOTIVE,
    D_ACCOMPLICE,
    D_ANSWER,
    D_DISCARD,
    D_INQUIRY,
    D_MOTIVE,
    D_MURDERER,
    D_OFFER,
    D_PAY,
    D_SOLUTION,
    D_WEAPON,
    MASK_ACCOMPLICE,
    MASK_MOTIVES_OF,
    MASK_SUSPECTS,
    MASK_WEAPONS,
    MASK_YES_NO,
    MOTIVES_OF,
    IllegalActionError,
)

__all__ = ["GuestsState"]


class GuestsState(GuestsData):
    """A plain, copyable game state (the fields: :class:`~.data.GuestsData`). Build one with
    :func:`~.deal.new_game`."""

    # -- legality -----------------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        """Legal action ids in ascending order (empty once the game is over)."""
        d = self.decision
        if d == D_INQUIRY:
            asked = self.asked
            return [A.REF_0 + r for r in range(A.NUM_REFS) if r not in asked]
        if d == D_OFFER:
            am = self.asked_bits
            sel = self.selected[self.current]
            rm = self.tables.refmask
            acts = [
                A.CARD_0 + i
                for i, c in enumerate(self.hands[self.current])
                if rm[c] & am and c not in sel
            ]
            acts.append(A.NO)
            return acts
        if d == D_ANSWER:
            return [A.YES, A.NO] if exchange.can_accept(self) else [A.NO]
        if d in (D_PAY, D_DISCARD):
            sel = self.selected[self.current]
            return [A.CARD_0 + i for i, c in enumerate(self.hands[self.current]) if c not in sel]
        if d == D_SOLUTION:
            return [A.YES, A.NO]
        if d == D_MURDERER:
            return [A.SUSPECT_0 + s for s in range(len(A.SUSPECTS))]
        if d == D_MOTIVE:
            return [A.MOTIVE_0 + m for m in MOTIVES_OF[self.accusations[self.current][0]]]
        if d == D_WEAPON:
            return [A.WEAPON_0 + w for w in range(len(A.WEAPONS))]
        if d == D_ACCOMPLICE:
            m = self.accusations[self.current][0]
            return [A.SUSPECT_0 + s for s in range(len(A.SUSPECTS)) if s != m] + [A.NO_ACCOMPLICE]
        if d == D_ACC_MOTIVE:
            return [A.MOTIVE_0 + m for m in MOTIVES_OF[self.accusations[self.current][3]]]
        return []

    def legal_mask(self, out: np.ndarray | None = None) -> np.ndarray:
        """Legal actions as an ``int8`` mask of length 95 (written into ``out`` if given)."""
        const = self._constant_mask()
        if const is not None:
            if out is None:
                return const.copy()
            np.copyto(out, const)
            return out
        if out is None:
            mask = np.zeros(A.NUM_ACTIONS, np.int8)
        else:
            mask = out
            mask.fill(0)
        legal = self.legal_actions()
        if legal:
            mask[legal] = 1
        return mask

    def _constant_mask(self) -> np.ndarray | None:
        """The mask of a decision whose legal actions do not depend on the cards (the
        accusation steps), else ``None``."""
        d = self.decision
        if d == D_SOLUTION:
            return MASK_YES_NO
        if d == D_MURDERER:
            return MASK_SUSPECTS
        if d == D_WEAPON:
            return MASK_WEAPONS
        if d == D_MOTIVE:
            return MASK_MOTIVES_OF[self.accusations[self.current][0]]
        if d == D_ACCOMPLICE:
            return MASK_ACCOMPLICE[self.accusations[self.current][0]]
        if d == D_ACC_MOTIVE:
            return MASK_MOTIVES_OF[self.accusations[self.current][3]]
        return None

    # -- transitions --------------------------------------------------------------------

    def apply(self, action: int) -> None:
        """Apply ``action`` for :attr:`current_player`.

        Raises :class:`IllegalActionError` (and changes nothing) if it is not legal.
        """
        legal = self.legal_actions()
        if not is_int(action) or int(action) not in legal:
            name = A.action_name(action) if is_int(action) else "not an int"
            raise IllegalActionError(
                f"illegal action {action!r} ({name}) for seat {self.current} "
                f"in phase {self.phase_name!r} (decision {self.decision_name!r}); "
                f"legal: {[A.action_name(a) for a in legal]}"
            )
        turns.apply_action(self, int(action))

    # -- results ------------------------------------------------------------------------

    def returns(self) -> list[float]:
        """Each seat's total reward over the game (all zeros while it runs; see module docs)."""
        return accusation.returns(self)

    def elimination_reward(self) -> float:
        """The reward a player gets when they are out (``−1/(n−1)``; 0 solo)."""
        return accusation.elimination_reward(self)

    def scores(self) -> list[int]:
        """1 for a winner, 0 otherwise."""
        return accusation.scores(self)
