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

from parlour.envs.audition import rules as R

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


#: ``float32(k * scale)`` for every count ``k`` a block can hold (the values the encoder writes)
_BY_4 = (np.arange(R.MAX_NUMBER + 1, dtype=np.float64) * 0.25).astype(np.float32)
_BY_13 = (np.arange(4 * R.MAX_NUMBER + 1, dtype=np.float64) * (1.0 / 13.0)).astype(np.float32)


class ObservationEncoder:
    """Encodes an :class:`~parlour.envs.audition.rules.AuditionState` for one observer at a time.

    Incremental: the buffer keeps the last observation written, and only the parts that changed
    since are rewritten. What changed is read from the state's change stamps (``slot_ver``,
    ``coll_ver``, ``pile_ver``; ``epoch`` — bumped by ``refresh()`` — or another state object
    means "everything"); the per-player rows are kept in seat order in ``_canon`` and copied
    into the egocentric block in the observer's order. The values written are exactly those of
    a from-scratch encoding (``tests/audition/test_observation_reference.py``).
    """

    def __init__(self, seer: bool = False) -> None:
        self.seer = seer
        self.layout = make_layout(seer)
        self.size = layout_size(self.layout)
        self._buf = np.zeros(self.size, np.float32)
        L = self.layout
        self._slots = self._buf[L["slots"]].reshape(R.MAX_PLAYERS, N_SLOT_FEATURES)
        self._players = self._buf[L["players"]].reshape(R.MAX_PLAYERS, N_PLAYER_FEATURES)
        self._canon = np.zeros((R.MAX_PLAYERS, N_PLAYER_FEATURES), np.float32)
        self._state: R.AuditionState | None = None
        self._epoch = -1

    # The buffers hold views into one another, which pickle / deepcopy would split apart:
    # a copied encoder is rebuilt from scratch instead (it holds no game information).
    def __getstate__(self) -> dict:
        return {"seer": self.seer}

    def __setstate__(self, state: dict) -> None:
        self.__init__(seer=state["seer"])

    def _start(self, state: R.AuditionState) -> None:
        """A new state (or one edited by hand): static blocks, and forget every cached part."""
        self._state = state
        self._epoch = state.epoch
        n = state.num_players
        L = self.layout
        buf = self._buf
        buf.fill(0.0)
        canon = self._canon
        canon.fill(0.0)
        k = len(R.SLOT_KINDS)
        self._slots[:n, :k] = np.eye(k, dtype=np.float32)[state.slot_kinds]
        self._slots[:n, k] = 1.0
        canon[:n, 0] = 1.0
        buf[L["num_players"].start + n - R.MIN_PLAYERS] = 1.0
        v = L["variants"].start
        buf[v] = float(any(kind != R.K_CONDUCTOR for kind in state.slot_kinds))
        buf[v + 1] = float(state.config.uncertain_counts)
        self._n = n
        self._order_arrays = [np.array([(p + i) % n for i in range(n)]) for p in range(n)]
        self._capacity = [state.slot_capacity(s) for s in range(n)]
        # flat indices and views used by encode()
        self._i_phase = L["phase"].start
        self._i_final = L["in_final"].start
        self._i_drawn = L["drawn_card"].start
        self._i_unseen = L["unseen"].start
        self._i_deck = L["deck_size"].start
        self._choice_view = buf[L["pending_choice"]]
        self._slot_counts = [self._slots[s, k + 3 :] for s in range(n)]
        self._slot_base = [L["slots"].start + s * N_SLOT_FEATURES + k + 1 for s in range(n)]
        self._coll_rows = [canon[p, 4 : 4 + R.MAX_NUMBER] for p in range(n)]
        self._players_out = self._players[:n]
        self._unseen_view = buf[L["unseen"]]
        self._discard_view = buf[L["discard"]]
        self._prev_phase = 0
        self._prev_drawn = -1
        self._choice_dirty = False
        # what the buffer / canon currently hold (None / -2: nothing yet)
        self._slot_ver: list[int] | None = None
        self._coll_ver: list[int] | None = None
        self._pile_ver: int | None = None
        self._unseen_adj = -1  # index of the unseen entry lowered for the drawer's card
        self._cur = -2
        self._last = -2
        self._taken: list[bool] | None = None
        self._queue: list[int] | None = None
        self._observer = -1

    def encode(self, state: R.AuditionState, observer: int) -> np.ndarray:
        """The observation of ``observer`` (a fresh array; the encoder keeps no reference)."""
        if state is not self._state or state.epoch != self._epoch:
            self._start(state)
        buf = self._buf
        n = self._n
        phase = state.phase
        over = phase == R.PH_OVER
        mine = state.current == observer and not over

        buf[self._i_phase + self._prev_phase] = 0.0
        buf[self._i_phase + phase] = 1.0
        self._prev_phase = phase
        buf[self._i_final] = state.in_final

        if self._prev_drawn >= 0:
            buf[self._prev_drawn] = 0.0
            self._prev_drawn = -1
        drawn = state.drawn if mine else 0
        if drawn:
            self._prev_drawn = self._i_drawn + drawn - 1
            buf[self._prev_drawn] = 1.0
        if mine and phase in _CHOICE_PHASES:
            np.multiply(state.choice[1:], 1.0 / 13.0, out=self._choice_view)
            self._choice_dirty = True
        elif self._choice_dirty:
            self._choice_view.fill(0.0)
            self._choice_dirty = False

        # slots (shared, table order): only the slots whose stamp moved
        slot_ver = state.slot_ver
        cached = self._slot_ver
        if slot_ver != cached:
            size, taken, cap = state.slot_size, state.slot_taken, self._capacity
            slots = state.slots
            for s in range(n):
                if cached is None or slot_ver[s] != cached[s]:
                    base = self._slot_base[s]
                    buf[base] = taken[s]
                    buf[base + 1] = (cap[s] - size[s]) * 0.25
                    _BY_4.take(slots[s, 1:], out=self._slot_counts[s])
            self._slot_ver = list(slot_ver)

        # per-player rows, seat order, in canon
        canon = self._canon
        dirty = observer != self._observer
        coll_ver = state.coll_ver
        cached = self._coll_ver
        if coll_ver != cached:
            points, colls = state.points, state.collections
            for p in range(n):
                if cached is None or coll_ver[p] != cached[p]:
                    canon[p, 3] = points[p] / SCORE_SCALE
                    _BY_13.take(colls[p, 1:], out=self._coll_rows[p])
            self._coll_ver = list(coll_ver)
            dirty = True
        current = -1 if over else state.current
        if current != self._cur:
            if self._cur >= 0:
                canon[self._cur, 1] = 0.0
            if current >= 0:
                canon[current, 1] = 1.0
            self._cur = current
            dirty = True
        if state.taken != self._taken:
            canon[:n, 2] = state.taken
            self._taken = list(state.taken)
            dirty = True
        if state.final_queue != self._queue:
            queue = state.final_queue
            for p in range(n):
                canon[p, 17] = p in queue
            self._queue = list(queue)
            dirty = True
        last = state.last_taker
        if last != self._last:
            if self._last >= 0:
                canon[self._last, 18] = 0.0
            if last >= 0:
                canon[last, 18] = 1.0
            self._last = last
            dirty = True
        if dirty:
            canon.take(self._order_arrays[observer], 0, self._players_out)
            self._observer = observer

        # unseen (public, minus the drawer's own card) and discard
        if state.pile_ver != self._pile_ver:
            _BY_13.take(state.public_unseen[1:], out=self._unseen_view)
            _BY_13.take(state.discard[1:], out=self._discard_view)
            self._pile_ver = state.pile_ver
            self._unseen_adj = -1
        elif self._unseen_adj >= 0:
            i = self._unseen_adj
            buf[i] = _BY_13[state.public_unseen[i - self._i_unseen + 1]]
            self._unseen_adj = -1
        if drawn:  # the drawer has seen their card
            i = self._unseen_adj = self._i_unseen + drawn - 1
            buf[i] -= 1.0 / 13.0
        buf[self._i_deck] = len(state.deck) / MAX_CARDS

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
