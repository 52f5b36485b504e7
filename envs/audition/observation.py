"""Audition — observation vector layout and encoder.

The observation is a ``float32`` vector in ``[0, 1]`` of one size for 2–6 players (everything
per slot / per player is padded to 6), **egocentric**: per-player block 0 is the observer,
blocks 1.. follow in turn order (block 1 is the left neighbour who receives ``pass_left``).
Slots keep their table position (they are shared, not owned).

| name | size | content |
|---|---|---|
| ``phase`` | 8 | one-hot of ``turn, place, take_now, pass_left, discard_one, discard_own, final, over`` |
| ``in_final`` | 1 | the final phase has started (also during its follow-up decisions) |
| ``drawn_card`` | 13 | one-hot of the card the observer drew and must place (zeros for everyone else) |
| ``pending_choice`` | 13 | counts / 13 of the numbers a pending ``CHOOSE`` may name (observer's decision only) |
| ``slots`` | 6 × 23 | per slot: kind one-hot (7: conductor + 6 action cards), present, taken this round, room left / 4, musicians per number / 4 (13) |
| ``players`` | 6 × 19 | per player (egocentric): present, acting now, taken a slot this round, score / 65, collection per number / 13 (13), still to choose in the final phase, took the last slot (starts the next round) |
| ``unseen`` | 13 | initial composition minus everything the observer can see, per number / 13 |
| ``deck_size`` | 1 | cards left in the draw pile / 91 |
| ``discard`` | 13 | the public discard row per number / 13 |
| ``num_players`` | 5 | one-hot of 2..6 |
| ``variants`` | 2 | action cards in play, uncertain counts (variant 2) |

With ``seer=True`` (debugging only — it leaks hidden state) three blocks follow: ``seer_next``
(13, one-hot of the top card of the deck), ``seer_deck`` (13, the deck per number / 13) and
``seer_removed`` (13, the variant-2 removed cards per number / 13).

The encoder writes into a preallocated buffer and returns a copy, so a returned observation
never changes afterwards.
"""

from __future__ import annotations

import numpy as np

from envs.audition import rules as R

N_SLOT_FEATURES = len(R.SLOT_KINDS) + 3 + R.MAX_NUMBER  # 23
N_PLAYER_FEATURES = 4 + R.MAX_NUMBER + 2  # 19
SCORE_SCALE = 5.0 * R.MAX_NUMBER  # 13 quartets: an upper bound on points
MAX_CARDS = 91

_BLOCKS: tuple[tuple[str, int], ...] = (
    ("phase", len(R.PHASES)),
    ("in_final", 1),
    ("drawn_card", R.MAX_NUMBER),
    ("pending_choice", R.MAX_NUMBER),
    ("slots", R.MAX_PLAYERS * N_SLOT_FEATURES),
    ("players", R.MAX_PLAYERS * N_PLAYER_FEATURES),
    ("unseen", R.MAX_NUMBER),
    ("deck_size", 1),
    ("discard", R.MAX_NUMBER),
    ("num_players", R.MAX_PLAYERS - R.MIN_PLAYERS + 1),
    ("variants", 2),
)
_SEER_BLOCKS: tuple[tuple[str, int], ...] = (
    ("seer_next", R.MAX_NUMBER),
    ("seer_deck", R.MAX_NUMBER),
    ("seer_removed", R.MAX_NUMBER),
)


def make_layout(seer: bool = False) -> dict[str, slice]:
    """Ordered mapping block name -> slice of the observation vector."""
    layout: dict[str, slice] = {}
    pos = 0
    for name, size in _BLOCKS + (_SEER_BLOCKS if seer else ()):
        layout[name] = slice(pos, pos + size)
        pos += size
    return layout


def layout_size(layout: dict[str, slice]) -> int:
    return max(s.stop for s in layout.values())


class ObservationEncoder:
    """Encodes an :class:`~envs.audition.rules.AuditionState` for one observer at a time."""

    def __init__(self, seer: bool = False) -> None:
        self.seer = seer
        self.layout = make_layout(seer)
        self.size = layout_size(self.layout)
        self._buf = np.zeros(self.size, np.float32)
        L = self.layout
        self._slots = self._buf[L["slots"]].reshape(R.MAX_PLAYERS, N_SLOT_FEATURES)
        self._players = self._buf[L["players"]].reshape(R.MAX_PLAYERS, N_PLAYER_FEATURES)
        self._static_key: tuple | None = None
        self._orders: list[np.ndarray] = []
        self._composition = np.zeros(R.MAX_NUMBER + 1, np.int16)

    # The buffers hold views into one another, which pickle / deepcopy would split apart:
    # a copied encoder is rebuilt from scratch instead (it holds no game information).
    def __getstate__(self) -> dict:
        return {"seer": self.seer}

    def __setstate__(self, state: dict) -> None:
        self.__init__(seer=state["seer"])

    def _set_static(self, state: R.AuditionState) -> None:
        """Blocks that do not change during a game (kinds, player count, variants)."""
        n = state.num_players
        key = (n, tuple(state.slot_kinds), state.config.uncertain_counts)
        if key == self._static_key:
            return
        self._static_key = key
        L = self.layout
        buf = self._buf
        buf.fill(0.0)
        k = len(R.SLOT_KINDS)
        self._slots[:n, :k] = np.eye(k, dtype=np.float32)[state.slot_kinds]
        self._slots[:n, k] = 1.0
        self._players[:n, 0] = 1.0
        buf[L["num_players"].start + n - R.MIN_PLAYERS] = 1.0
        v = L["variants"].start
        buf[v] = float(any(kind != R.K_CONDUCTOR for kind in state.slot_kinds))
        buf[v + 1] = float(state.config.uncertain_counts)
        self._n = n
        self._orders = [[(p + i) % n for i in range(n)] for p in range(n)]
        self._order_arrays = [np.array(o) for o in self._orders]
        self._capacity = [state.slot_capacity(s) for s in range(n)]
        # flat indices and views used by encode()
        self._i_phase = L["phase"].start
        self._i_final = L["in_final"].start
        self._i_drawn = L["drawn_card"].start
        self._i_unseen = L["unseen"].start
        self._i_deck = L["deck_size"].start
        self._i_slots = L["slots"].start
        self._i_players = L["players"].start
        self._choice_view = buf[L["pending_choice"]]
        self._slot_counts = self._slots[:n, k + 3 :]
        self._coll_counts = self._players[:n, 4 : 4 + R.MAX_NUMBER]
        self._unseen_view = buf[L["unseen"]]
        self._discard_view = buf[L["discard"]]
        self._prev_phase = 0
        self._prev_drawn = -1
        self._choice_dirty = False

    def encode(self, state: R.AuditionState, observer: int) -> np.ndarray:
        """The observation of ``observer`` (a fresh array; the encoder keeps no reference)."""
        self._set_static(state)
        buf = self._buf
        n = self._n
        over = state.phase == R.PH_OVER
        mine = state.current == observer and not over

        buf[self._i_phase + self._prev_phase] = 0.0
        buf[self._i_phase + state.phase] = 1.0
        self._prev_phase = state.phase
        buf[self._i_final] = state.in_final

        if self._prev_drawn >= 0:
            buf[self._prev_drawn] = 0.0
            self._prev_drawn = -1
        drawn = state.drawn if mine else 0
        if drawn:
            self._prev_drawn = self._i_drawn + drawn - 1
            buf[self._prev_drawn] = 1.0
        if mine and state.phase in _CHOICE_PHASES:
            np.multiply(state.choice[1:], 1.0 / 13.0, out=self._choice_view)
            self._choice_dirty = True
        elif self._choice_dirty:
            self._choice_view.fill(0.0)
            self._choice_dirty = False

        base = self._i_slots + len(R.SLOT_KINDS) + 1
        size, taken, cap = state.slot_size, state.slot_taken, self._capacity
        for s in range(n):
            buf[base] = taken[s]
            buf[base + 1] = (cap[s] - size[s]) * 0.25
            base += N_SLOT_FEATURES
        np.multiply(state.slots[:, 1:], 0.25, out=self._slot_counts)

        current = -1 if over else state.current
        points, ptaken = state.points, state.taken
        queue, last = state.final_queue, state.last_taker
        base = self._i_players + 1
        for p in self._orders[observer]:
            buf[base] = p == current
            buf[base + 1] = ptaken[p]
            buf[base + 2] = points[p] / SCORE_SCALE
            buf[base + 16] = p in queue
            buf[base + 17] = p == last
            base += N_PLAYER_FEATURES
        np.multiply(
            state.collections[self._order_arrays[observer], 1:], 1.0 / 13.0, out=self._coll_counts
        )

        np.multiply(state.public_unseen[1:], 1.0 / 13.0, out=self._unseen_view)
        if drawn:  # the drawer has seen their card
            buf[self._i_unseen + drawn - 1] -= 1.0 / 13.0
        buf[self._i_deck] = len(state.deck) / MAX_CARDS
        np.multiply(state.discard[1:], 1.0 / 13.0, out=self._discard_view)

        if self.seer:
            L = self.layout
            s = L["seer_next"].start
            buf[s : s + R.MAX_NUMBER] = 0.0
            if state.deck:
                buf[s + state.deck[-1] - 1] = 1.0
            deck = np.bincount(state.deck, minlength=R.MAX_NUMBER + 1)
            buf[L["seer_deck"]] = deck[1:] / 13.0
            removed = np.bincount(state.removed, minlength=R.MAX_NUMBER + 1)
            buf[L["seer_removed"]] = removed[1:] / 13.0
        return buf.copy()


_CHOICE_PHASES = frozenset((R.PH_PASS_LEFT, R.PH_DISCARD_ONE, R.PH_DISCARD_OWN))
