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

Declared layout and named views
-------------------------------

The layout is data: :data:`PIECES` (and :data:`SEER_PIECES`) list every piece with its name and
shape; the rows of ``slots`` and ``players`` are split into named fields by :data:`SLOT_FIELDS`
and :data:`PLAYER_FIELDS` (each field with its width and the scale its counts are divided by).
Readers never write an offset: :class:`ObservationView` wraps one observation or a batch
(NumPy array or torch tensor, ``(..., size)``) and hands out named views.

| call | shape | content |
|---|---|---|
| ``view["drawn_card"]`` | ``(..., 13)`` | a piece, in its declared shape (``view["slots"]``: ``(..., 6, 23)``) |
| ``view.field("slots", "musicians")`` | ``(..., 6, 13)`` | one field of every row (a one-column field: ``(..., 6)``) |
| ``view.counts("players", "collection")`` | ``(..., 6, 13)`` | a field times its scale, rounded: the integer counts |

| ``slots`` field | width | scale | ``players`` field | width | scale |
|---|---|---|---|---|---|
| ``kind`` | 7 | 1 | ``present`` | 1 | 1 |
| ``present`` | 1 | 1 | ``acting`` | 1 | 1 |
| ``taken`` | 1 | 1 | ``taken`` | 1 | 1 |
| ``room`` | 1 | 4 | ``score`` | 1 | 65 |
| ``musicians`` | 13 | 4 | ``collection`` | 13 | 13 |
| | | | ``to_choose`` | 1 | 1 |
| | | | ``last_taker`` | 1 | 1 |
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from parlour.envs.audition import rules as R

#: the most cards of one number in the game (number 13 has 13 copies): the scale of the
#: per-number card counts of a collection, the unseen cards and the discard row
CARD_COUNT_SCALE = R.MAX_NUMBER
SCORE_SCALE = float(R.QUARTET_POINTS * R.MAX_NUMBER)  # 13 quartets: an upper bound on points
#: the largest deck (6 players: 1 + 2 + ... + 13 = 91 cards): the scale of the deck size
MAX_CARDS = int(R.deck_composition(R.MAX_PLAYERS).sum())


@dataclass(frozen=True)
class Field:
    """A named run of columns in every row of a per-slot / per-player piece."""

    name: str
    width: int
    #: the encoded value is the quantity divided by ``scale`` (1: a flag or a one-hot)
    scale: float = 1.0


class Fields:
    """The fields of one row, in order: ``fields["musicians"]`` is their columns."""

    def __init__(self, *fields: Field) -> None:
        self.fields = {f.name: f for f in fields}
        self.columns: dict[str, slice | int] = {}
        pos = 0
        for f in fields:
            self.columns[f.name] = pos if f.width == 1 else slice(pos, pos + f.width)
            pos += f.width
        self.size = pos

    def __getitem__(self, name: str) -> slice | int:
        """The columns of field ``name``: an int for a one-column field, else a slice."""
        if name not in self.columns:
            raise KeyError(f"no field {name!r}; fields: {', '.join(self.columns)}")
        return self.columns[name]


SLOT_FIELDS = Fields(
    Field("kind", len(R.SLOT_KINDS)),  # one-hot: conductor, then the action cards
    Field("present", 1),  # the slot is at this table
    Field("taken", 1),  # taken this round
    Field("room", 1, R.SLOT_CAPACITY),  # room left
    Field("musicians", R.MAX_NUMBER, R.SLOT_CAPACITY),  # musicians per number
)
PLAYER_FIELDS = Fields(
    Field("present", 1),  # the seat is at this table
    Field("acting", 1),  # acting now
    Field("taken", 1),  # has taken a slot this round
    Field("score", 1, SCORE_SCALE),
    Field("collection", R.MAX_NUMBER, CARD_COUNT_SCALE),  # cards per number
    Field("to_choose", 1),  # still to choose in the final phase
    Field("last_taker", 1),  # took the last slot (starts the next round)
)
N_SLOT_FEATURES = SLOT_FIELDS.size  # 23
N_PLAYER_FEATURES = PLAYER_FIELDS.size  # 19


@dataclass(frozen=True)
class Piece:
    """A named piece of the observation vector: its shape, and the fields of its rows."""

    name: str
    shape: tuple[int, ...]  # (size,), or (rows, row size) for a per-slot / per-player piece
    fields: Fields | None = None

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


PIECES: tuple[Piece, ...] = (
    Piece("phase", (len(R.PHASES),)),
    Piece("in_final", (1,)),
    Piece("drawn_card", (R.MAX_NUMBER,)),
    Piece("pending_choice", (R.MAX_NUMBER,)),
    Piece("slots", (R.MAX_PLAYERS, N_SLOT_FEATURES), SLOT_FIELDS),
    Piece("players", (R.MAX_PLAYERS, N_PLAYER_FEATURES), PLAYER_FIELDS),
    Piece("unseen", (R.MAX_NUMBER,)),
    Piece("deck_size", (1,)),
    Piece("discard", (R.MAX_NUMBER,)),
    Piece("num_players", (R.MAX_PLAYERS - R.MIN_PLAYERS + 1,)),
    Piece("variants", (2,)),
)
SEER_PIECES: tuple[Piece, ...] = (
    Piece("seer_next", (R.MAX_NUMBER,)),
    Piece("seer_deck", (R.MAX_NUMBER,)),
    Piece("seer_removed", (R.MAX_NUMBER,)),
)


def pieces(seer: bool = False) -> dict[str, Piece]:
    """The observation's pieces by name, in order."""
    return {p.name: p for p in PIECES + (SEER_PIECES if seer else ())}


def make_layout(seer: bool = False) -> dict[str, slice]:
    """Ordered mapping piece name -> slice of the observation vector."""
    layout: dict[str, slice] = {}
    pos = 0
    for name, piece in pieces(seer).items():
        layout[name] = slice(pos, pos + piece.size)
        pos += piece.size
    return layout


def layout_size(layout: dict[str, slice]) -> int:
    return max(s.stop for s in layout.values())


class ObservationView:
    """Named views of Audition observations: a NumPy array or a torch tensor ``(..., size)``.

    ``view[name]`` is a piece in its declared shape, ``view.field(piece, name)`` one field of
    every row, ``view.counts(piece, name)`` that field times its scale, rounded (the module
    docstring has the table). Views share memory with the observation where the array allows.
    """

    def __init__(self, obs: Any, seer: bool = False) -> None:
        self.obs = obs
        self.pieces = pieces(seer)
        self.layout = make_layout(seer)
        size = layout_size(self.layout)
        if obs.shape[-1] < size:
            raise ValueError(
                f"obs: an Audition observation has {size} values (seer={seer}), got "
                f"shape {tuple(obs.shape)}"
            )

    def __getitem__(self, name: str) -> Any:
        piece = self._piece(name)
        block = self.obs[..., self.layout[name]]
        return block.reshape(*self.obs.shape[:-1], *piece.shape)

    def field(self, piece: str, name: str) -> Any:
        fields = self._piece(piece).fields
        if fields is None:
            raise ValueError(f"piece {piece!r} has no fields (pieces with fields: slots, players)")
        return self[piece][..., fields[name]]

    def counts(self, piece: str, name: str) -> Any:
        """Field ``name`` of ``piece`` times its scale, rounded to the integer counts."""
        scale = self._piece(piece).fields.fields[name].scale  # type: ignore[union-attr]
        return (self.field(piece, name) * scale).round()

    def _piece(self, name: str) -> Piece:
        if name not in self.pieces:
            raise KeyError(f"no observation piece {name!r}; pieces: {', '.join(self.pieces)}")
        return self.pieces[name]


#: ``float32(k * scale)`` for every count ``k`` a block can hold (the values the encoder writes)
_BY_4 = (np.arange(R.MAX_NUMBER + 1, dtype=np.float64) * (1.0 / R.SLOT_CAPACITY)).astype(np.float32)
_BY_13 = (
    np.arange(R.SLOT_CAPACITY * R.MAX_NUMBER + 1, dtype=np.float64) * (1.0 / CARD_COUNT_SCALE)
).astype(np.float32)
# the encoder's columns (one-column fields are ints)
_S_KIND, _S_PRESENT, _S_TAKEN, _S_ROOM, _S_MUSICIANS = (
    SLOT_FIELDS[f] for f in ("kind", "present", "taken", "room", "musicians")
)
_P_PRESENT, _P_ACTING, _P_TAKEN, _P_SCORE, _P_COLLECTION, _P_TO_CHOOSE, _P_LAST = (
    PLAYER_FIELDS[f]
    for f in ("present", "acting", "taken", "score", "collection", "to_choose", "last_taker")
)


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
        self._slots[:n, _S_KIND] = np.eye(k, dtype=np.float32)[state.slot_kinds]
        self._slots[:n, _S_PRESENT] = 1.0
        canon[:n, _P_PRESENT] = 1.0
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
        self._slot_counts = [self._slots[s, _S_MUSICIANS] for s in range(n)]
        self._slot_base = [L["slots"].start + s * N_SLOT_FEATURES for s in range(n)]
        self._coll_rows = [canon[p, _P_COLLECTION] for p in range(n)]
        self._players_out = self._players[:n]
        self._unseen_view = buf[L["unseen"]]
        self._discard_view = buf[L["discard"]]
        # what the buffer holds of the small pieces (-1 / None: nothing written yet)
        self._prev_phase = -1
        self._in_final: bool | None = None
        self._deck_len = -1
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
        """The observation of ``observer`` (a fresh array; the encoder keeps no reference).

        The steps write into the one buffer in place: the decision pieces (here), then
        :meth:`_write_slots` (only if a slot stamp moved), :meth:`_write_players`,
        :meth:`_write_piles` and, with ``seer``, :meth:`_write_seer`.
        """
        if state is not self._state or state.epoch != self._epoch:
            self._start(state)
        buf = self._buf
        phase = state.phase
        over = phase == R.PH_OVER
        mine = state.current == observer and not over

        # the decision: phase, in_final, the observer's drawn card and pending choice
        if phase != self._prev_phase:
            if self._prev_phase >= 0:
                buf[self._i_phase + self._prev_phase] = 0.0
            buf[self._i_phase + phase] = 1.0
            self._prev_phase = phase
        if state.in_final != self._in_final:
            buf[self._i_final] = self._in_final = state.in_final
        if self._prev_drawn >= 0:
            buf[self._prev_drawn] = 0.0
            self._prev_drawn = -1
        drawn = state.drawn if mine else 0
        if drawn:
            self._prev_drawn = self._i_drawn + drawn - 1
            buf[self._prev_drawn] = 1.0
        if mine and phase in _CHOICE_PHASES:
            np.multiply(state.choice[1:], 1.0 / CARD_COUNT_SCALE, out=self._choice_view)
            self._choice_dirty = True
        elif self._choice_dirty:
            self._choice_view.fill(0.0)
            self._choice_dirty = False

        if state.slot_ver != self._slot_ver:
            self._write_slots(state)
        self._write_players(state, observer, over)
        self._write_piles(state, drawn)
        if self.seer:
            self._write_seer(state)
        return buf.copy()

    def _write_slots(self, state: R.AuditionState) -> None:
        """The slots (shared, table order): only the slots whose stamp moved."""
        buf = self._buf
        slot_ver = state.slot_ver
        cached = self._slot_ver
        size, taken, cap = state.slot_size, state.slot_taken, self._capacity
        slots = state.slots
        for s in range(self._n):
            if cached is None or slot_ver[s] != cached[s]:
                base = self._slot_base[s]
                buf[base + _S_TAKEN] = taken[s]
                buf[base + _S_ROOM] = (cap[s] - size[s]) * (1.0 / R.SLOT_CAPACITY)
                _BY_4.take(slots[s, 1:], out=self._slot_counts[s])
        self._slot_ver = list(slot_ver)

    def _write_players(self, state: R.AuditionState, observer: int, over: bool) -> None:
        """The per-player rows: updated in seat order in ``_canon`` (only what changed), then
        copied into the egocentric block when the observer or a row changed."""
        n = self._n
        canon = self._canon
        dirty = observer != self._observer
        coll_ver = state.coll_ver
        cached = self._coll_ver
        if coll_ver != cached:
            points, colls = state.points, state.collections
            for p in range(n):
                if cached is None or coll_ver[p] != cached[p]:
                    canon[p, _P_SCORE] = points[p] / SCORE_SCALE
                    _BY_13.take(colls[p, 1:], out=self._coll_rows[p])
            self._coll_ver = list(coll_ver)
            dirty = True
        current = -1 if over else state.current
        if current != self._cur:
            if self._cur >= 0:
                canon[self._cur, _P_ACTING] = 0.0
            if current >= 0:
                canon[current, _P_ACTING] = 1.0
            self._cur = current
            dirty = True
        if state.taken != self._taken:
            canon[:n, _P_TAKEN] = state.taken
            self._taken = list(state.taken)
            dirty = True
        if state.final_queue != self._queue:
            queue = state.final_queue
            for p in range(n):
                canon[p, _P_TO_CHOOSE] = p in queue
            self._queue = list(queue)
            dirty = True
        last = state.last_taker
        if last != self._last:
            if self._last >= 0:
                canon[self._last, _P_LAST] = 0.0
            if last >= 0:
                canon[last, _P_LAST] = 1.0
            self._last = last
            dirty = True
        if dirty:
            canon.take(self._order_arrays[observer], 0, self._players_out)
            self._observer = observer

    def _write_piles(self, state: R.AuditionState, drawn: int) -> None:
        """``unseen`` (public, minus the drawer's own ``drawn`` card), ``discard``, ``deck_size``."""
        buf = self._buf
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
            buf[i] -= 1.0 / CARD_COUNT_SCALE
        deck_len = len(state.deck)
        if deck_len != self._deck_len:
            buf[self._i_deck] = deck_len / MAX_CARDS
            self._deck_len = deck_len

    def _write_seer(self, state: R.AuditionState) -> None:
        """The seer blocks (debugging only): the top card, the deck and the removed cards."""
        buf = self._buf
        L = self.layout
        s = L["seer_next"].start
        buf[s : s + R.MAX_NUMBER] = 0.0
        if state.deck:
            buf[s + state.deck[-1] - 1] = 1.0
        deck = np.bincount(state.deck, minlength=R.MAX_NUMBER + 1)
        buf[L["seer_deck"]] = deck[1:] / CARD_COUNT_SCALE
        removed = np.bincount(state.removed, minlength=R.MAX_NUMBER + 1)
        buf[L["seer_removed"]] = removed[1:] / CARD_COUNT_SCALE


_CHOICE_PHASES = frozenset((R.PH_PASS_LEFT, R.PH_DISCARD_ONE, R.PH_DISCARD_OWN))
