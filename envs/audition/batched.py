"""Audition — a batched rules engine: ``N`` games held as NumPy arrays and stepped together.

A second implementation of :mod:`parlour.envs.audition.rules` for training and evaluation at
scale (PGX-style: every game of the batch moves one decision per :meth:`BatchedAudition.step`).
It is held to the rules engine: from the same deal (deck order, removed cards, action-card
slots, start seat) and the same actions, every mask, observation (the AEC env's, bit for bit),
reward and final score is equal — ``tests/audition/test_batched_differential.py`` checks this
over every configuration on a recorded seed list.

```python
from parlour.envs.audition.batched import BatchedAudition

eng = BatchedAudition(num_games=4096, num_players=2, seed=0)
mask = eng.legal_mask()                          # (N, 27) bool
obs = eng.observe(eng.current)                   # (N, 321) float32, each game's player to act
res = eng.step(actions)                          # StepResult: rewards (N, n), done, scores, ...
```

| member | shape | meaning |
|---|---|---|
| ``reset(seeds=None)`` | | deal every game: ``seeds[i]`` deals game ``i`` exactly as ``audition_v1`` ``reset(seed=seeds[i])`` does; ``None`` deals from the engine's own generator |
| ``step(actions)`` | ``(N,)`` ints | one decision in every game (the current player's; illegal → ``IllegalActionError``, nothing changed); finished games are dealt again from the engine's generator (auto-reset) |
| ``legal_mask()`` | ``(N, 27)`` bool | the current player's legal actions |
| ``observe(observers)`` | ``(N, 321)`` float32 | the observation of seat ``observers[i]`` of game ``i`` (the AEC env's) |
| ``current``, ``phase`` | ``(N,)`` | the seat to act, the phase id (:data:`~parlour.envs.audition.rules.PHASES`) |
| ``points``, ``quartets`` | ``(N, n)`` | current points and scoring quartets per seat |
| ``round``, ``start`` | ``(N,)`` | the round (from 1) and the seat that began the game (the player view's; the rules do not read them) |
| ``batched_view(eng, game, seat)`` | | the player view of one seat of one game (:mod:`parlour.envs.audition.batched_view`), as the AEC env's ``player_view`` |
| ``load(states)`` | | copy rules-engine deals (:class:`~parlour.envs.audition.rules.AuditionState`, no move made) into the batch |
| ``deal=False`` (constructor) | | no deal at construction: the caller fills every game with ``load`` / ``load_positions`` |
| ``mini=True`` (constructor) | | the mini table (``AuditionConfig(mini=True)``, ``audition_v1.env(mini=True)``: 3 cards, slots of 2) |
| ``load_positions(states)`` | | copy rules-engine states at any point of a game (search agents' determinized worlds) |
| ``load_hidden(games, decks, removed, drawn)`` | | replace the hidden cards of loaded games (sampled worlds of one position) |

:class:`~parlour.envs.audition.step_result.StepResult` of a step: ``rewards (N, n)`` (non-zero only in games that just ended: the
AEC env's terminal rewards for ``reward_mode``), ``done (N,)``, and for the games that ended
their final ``scores``, ``quartets`` and ``winners`` (``(N, n)`` bool) — read before the
auto-reset dealt them again. ``seer`` observations are not provided (debugging only).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from parlour.envs.audition import observation as O
from parlour.envs.audition import rules as R
from parlour.envs.audition.step_result import StepResult

#: the ``audition_v1`` env options the batched engine plays (others, e.g. ``seer`` or
#: ``render_mode``, have no batched counterpart)
ENV_OPTIONS = ("action_cards", "uncertain_counts", "reward_mode", "mini")
_NUM = R.MAX_NUMBER + 1  # per-number arrays have index 0 unused, like the rules engine
#: winners: points first, then scoring quartets (``key = points * _TIE + quartets``)
_TIE = R.MAX_NUMBER + 1
#: points of exactly ``c`` cards of one number, for every count a collection can reach
PTS = np.array([R.count_points(c) for c in range(2 * R.MAX_NUMBER + 2)], np.int16)
QUARTET = (np.arange(2 * R.MAX_NUMBER + 2) == R.QUARTET_SIZE).astype(np.int16)
_L = O.make_layout()
OBS_SIZE = O.layout_size(_L)
_SLOT_F = O.N_SLOT_FEATURES
_PLAYER_F = O.N_PLAYER_FEATURES
_KINDS = len(R.SLOT_KINDS)
_SF = {f: O.SLOT_FIELDS[f] for f in ("kind", "present", "taken", "room", "musicians")}
_PF = {
    f: O.PLAYER_FIELDS[f]
    for f in ("present", "acting", "taken", "score", "collection", "to_choose", "last_taker")
}
_ONE_13 = np.float32(1.0 / O.CARD_COUNT_SCALE)
#: (engine array, rules-state attribute) pairs that :meth:`BatchedAudition.load_positions` copies
_POSITION_FIELDS = (
    ("kinds", "slot_kinds"), ("slots", "slots"), ("size", "slot_size"),
    ("slot_taken", "slot_taken"), ("coll", "collections"), ("discard", "discard"),
    ("unseen", "public_unseen"), ("taken", "taken"), ("current", "current"), ("phase", "phase"),
    ("drawn", "drawn"), ("pending", "pending_slot"), ("choice", "choice"),
    ("deck_emptied", "deck_emptied"), ("in_final", "in_final"), ("emptied_by", "emptied_by"),
    ("last_taker", "last_taker"), ("points", "points"), ("quartets", "quartet_counts"),
    ("moves", "num_moves"), ("round", "round"), ("start", "start_player"),
)  # fmt: skip


def _setting(config: R.AuditionConfig) -> tuple[int, bool, bool]:
    """What a loaded position must share with the engine (its slot kinds are its own)."""
    return config.num_players, config.uncertain_counts, config.mini


class BatchedAudition:
    """``num_games`` Audition games of one configuration as arrays (module docstring)."""

    def __init__(
        self,
        num_games: int,
        num_players: int = 2,
        action_cards: tuple[str, ...] | list[str] | int = (),
        uncertain_counts: bool = False,
        reward_mode: str = "win",
        seed: int | None = None,
        auto_reset: bool = True,
        deal: bool = True,
        mini: bool = False,
    ) -> None:
        if isinstance(num_games, bool) or not isinstance(num_games, int) or num_games < 1:
            raise ValueError(f"num_games must be an int >= 1, got {num_games!r}")
        if isinstance(action_cards, list):
            action_cards = tuple(action_cards)
        self.config = R.AuditionConfig(num_players, action_cards, uncertain_counts, mini)
        if reward_mode not in ("win", "score"):
            raise ValueError(f"reward_mode must be one of ['win', 'score'], got {reward_mode!r}")
        self.reward_mode = reward_mode
        self.auto_reset = auto_reset
        self.N = N = num_games
        self.n = n = self.config.num_players
        self.rng = np.random.default_rng(seed)
        cards = self.config.full_deck()
        self._full = np.array(cards, np.int8)
        self.C = C = len(cards)
        self._composition = self.config.composition()
        #: musicians a slot of each kind holds (the table's: AuditionConfig.capacity)
        self._cap = np.array([self.config.capacity(k) for k in range(len(R.SLOT_KINDS))], np.int16)
        self._ar = np.arange(N)
        self._seats = np.arange(n)
        self.kinds = np.zeros((N, n), np.int8)
        self.deck = np.zeros((N, C), np.int8)  # top card first
        self.removed = np.zeros((N, R.NUM_REMOVED_UNCERTAIN), np.int8)
        self.dpos = np.zeros(N, np.int64)  # index of the top card in ``deck``
        self.dlen = np.zeros(N, np.int64)  # cards in play (C minus the removed ones)
        self.slots = np.zeros((N, n, _NUM), np.int16)
        self.size = np.zeros((N, n), np.int16)
        self.slot_taken = np.zeros((N, n), bool)
        self.coll = np.zeros((N, n, _NUM), np.int16)
        self.discard = np.zeros((N, _NUM), np.int16)
        self.unseen = np.zeros((N, _NUM), np.int16)  # composition minus face-up cards
        self.taken = np.zeros((N, n), bool)
        self.to_choose = np.zeros((N, n), bool)  # still in the final queue
        self.current = np.zeros(N, np.int64)
        self.phase = np.zeros(N, np.int64)
        self.drawn = np.zeros(N, np.int64)
        self.pending = np.full(N, -1, np.int64)
        self.choice = np.zeros((N, _NUM), np.int16)
        self.deck_emptied = np.zeros(N, bool)
        self.in_final = np.zeros(N, bool)
        self.emptied_by = np.full(N, -1, np.int64)
        self.last_taker = np.full(N, -1, np.int64)
        self.points = np.zeros((N, n), np.int64)
        self.quartets = np.zeros((N, n), np.int64)
        self.moves = np.zeros(N, np.int64)
        self.round = np.ones(N, np.int64)  # from 1 (the view's; the rules ignore it)
        self.start = np.zeros(N, np.int64)  # the seat that began the game
        self._static = np.zeros((N, OBS_SIZE), np.float32)  # the per-deal observation blocks
        self._mask: np.ndarray | None = None  # the legal mask of the current state (a cache)
        if deal:  # (False: the caller loads every game with load / load_positions)
            self.reset()

    # -- dealing ----------------------------------------------------------------------------

    def reset(self, seeds: Sequence[int] | np.ndarray | None = None) -> None:
        """Deal every game (``seeds``: as ``audition_v1`` ``reset(seed=seeds[i])``)."""
        if seeds is None:
            self.deal(self._ar)
            return
        seeds = list(seeds)
        if len(seeds) != self.N:
            raise ValueError(f"seeds: need {self.N} seeds (one per game), got {len(seeds)}")
        states = [R.new_game(self.config, np.random.default_rng(int(s))) for s in seeds]
        self.load(states)

    def load(self, states: Sequence[R.AuditionState], games: np.ndarray | None = None) -> None:
        """Copy fresh rules-engine deals (no move made yet) into ``games`` (default: all)."""
        idx = self._ar if games is None else np.asarray(games)
        if len(states) != len(idx):
            raise ValueError(f"states: need {len(idx)} states, got {len(states)}")
        if any(st.config != self.config or st.num_moves for st in states):  # (before any write)
            raise ValueError("states must be fresh deals of this engine's configuration")
        for i, st in zip(idx, states, strict=True):
            self.kinds[i] = st.slot_kinds
            self.deck[i, : len(st.deck)] = st.deck[::-1]
            self.dlen[i] = len(st.deck)
            self.removed[i, : len(st.removed)] = st.removed
            self.current[i] = st.current
            self.start[i] = st.start_player
        self._clear(idx)

    def load_positions(
        self, states: Sequence[R.AuditionState], games: np.ndarray | None = None
    ) -> None:
        """Copy rules-engine states at any point of a game (e.g. a search agent's determinized
        worlds, :func:`parlour.envs.audition.determinize.determinize`) into ``games``
        (default: all); the same state may be given for several games. Each state's player
        count, uncertain-counts setting and table (mini or not) must be the engine's; its slot
        kinds are its own."""
        idx = self._ar if games is None else np.asarray(games, np.int64)
        if len(states) != len(idx):
            raise ValueError(f"states: need {len(idx)} states, got {len(states)}")
        first: dict[int, int] = {}  # each distinct state is read once
        distinct: list[R.AuditionState] = []
        for st in states:
            if id(st) not in first:
                first[id(st)] = len(distinct)
                distinct.append(st)
        copy = np.array([first[id(st)] for st in states], np.int64)
        for st in distinct:
            if _setting(st.config) != _setting(self.config):
                raise ValueError(
                    "states must have this engine's player count and uncertain-counts setting, "
                    "and be of the mini table exactly when the engine is"
                )
        self._mask = None
        deck = np.zeros((len(distinct), self.C), np.int8)
        removed = np.zeros((len(distinct), R.NUM_REMOVED_UNCERTAIN), np.int8)
        to_choose = np.zeros((len(distinct), self.n), bool)
        for k, st in enumerate(distinct):  # ragged: the deck, the removed cards, the queue
            deck[k, : len(st.deck)] = st.deck[::-1]
            removed[k, : len(st.removed)] = st.removed
            to_choose[k, st.final_queue] = True
        self.deck[idx], self.removed[idx], self.to_choose[idx] = (
            deck[copy],
            removed[copy],
            to_choose[copy],
        )
        self.dpos[idx] = 0
        self.dlen[idx] = np.array([len(st.deck) for st in distinct], np.int64)[copy]
        for name, attr in _POSITION_FIELDS:
            getattr(self, name)[idx] = np.array([getattr(st, attr) for st in distinct])[copy]
        self._write_static(idx)

    def load_hidden(
        self, games: np.ndarray, decks: np.ndarray, removed: np.ndarray, drawn: np.ndarray
    ) -> None:
        """Replace the hidden cards of ``games`` (loaded by :meth:`load_positions`): ``decks``
        ``(m, k)`` in the rules engine's order (top card last), ``removed`` ``(m, r)``, the
        drawn cards ``(m,)`` — e.g. samples of :func:`~parlour.envs.audition.determinize.sample_hidden`."""
        g = np.asarray(games, np.int64)
        k = decks.shape[1]
        self._mask = None
        self.deck[g] = 0
        self.deck[g, :k] = decks[:, ::-1]
        self.dpos[g] = 0
        self.dlen[g] = k
        self.removed[g] = 0
        self.removed[g, : removed.shape[1]] = removed
        self.drawn[g] = drawn

    def deal(self, idx: np.ndarray) -> None:
        """Deal the games ``idx`` again from the engine's own generator (vectorized)."""
        m = len(idx)
        if m == 0:
            return
        rng, n, cfg = self.rng, self.n, self.config
        ac = cfg.action_cards
        kinds = np.zeros((m, n), np.int8)
        if isinstance(ac, int):
            if ac:
                chosen = np.argsort(rng.random((m, len(R.ACTION_KINDS))), axis=1)[:, :ac]
                where = np.argsort(rng.random((m, n)), axis=1)[:, :ac]
                np.put_along_axis(kinds, where, (chosen + 1).astype(np.int8), axis=1)
        else:
            kinds[:, : len(ac)] = [R.SLOT_KINDS.index(k) for k in ac]
        self.kinds[idx] = kinds
        perm = np.argsort(rng.random((m, self.C)), axis=1)
        deck = self._full[perm]
        if cfg.uncertain_counts:
            self.removed[idx] = deck[:, -R.NUM_REMOVED_UNCERTAIN :]
            deck[:, -R.NUM_REMOVED_UNCERTAIN :] = 0
            self.dlen[idx] = self.C - R.NUM_REMOVED_UNCERTAIN
        else:
            self.dlen[idx] = self.C
        self.deck[idx] = deck
        self.current[idx] = self.start[idx] = rng.integers(n, size=m)
        self._clear(idx)

    def _clear(self, idx: np.ndarray) -> None:
        """Everything but the deal back to the start of a game, for the games ``idx``."""
        self._mask = None
        self.dpos[idx] = 0
        for a in (self.slots, self.size, self.slot_taken, self.coll, self.discard, self.taken):
            a[idx] = 0
        for a in (self.to_choose, self.choice, self.deck_emptied, self.in_final):
            a[idx] = 0
        for a in (self.points, self.quartets, self.moves, self.phase, self.drawn):
            a[idx] = 0
        self.pending[idx] = -1
        self.round[idx] = 1
        self.emptied_by[idx] = -1
        self.last_taker[idx] = -1
        self.unseen[idx] = self._composition
        self._write_static(idx)

    def _write_static(self, idx: np.ndarray) -> None:
        """The observation blocks fixed by the deal (slot kinds, presence, table size)."""
        st = self._static
        st[idx] = 0.0
        n = self.n
        slots = st[:, _L["slots"]].reshape(self.N, R.MAX_PLAYERS, _SLOT_F)
        kind_cols = np.arange(_SF["kind"].start, _SF["kind"].stop)
        onehot = np.eye(_KINDS, dtype=np.float32)[self.kinds[idx]]  # (m, n, 7)
        block = slots[idx]
        block[:, :n, kind_cols] = onehot
        block[:, :n, _SF["present"]] = 1.0
        slots[idx] = block
        st[idx, _L["num_players"].start + n - R.MIN_PLAYERS] = 1.0
        v = _L["variants"].start
        st[idx, v] = (self.kinds[idx] != R.K_CONDUCTOR).any(axis=1)
        st[idx, v + 1] = float(self.config.uncertain_counts)

    # -- queries ----------------------------------------------------------------------------

    def deck_left(self) -> np.ndarray:
        return self.dlen - self.dpos

    def legal_mask(self) -> np.ndarray:
        """``(N, 27)`` bool: the legal actions of each game's player to act (a fresh array)."""
        if self._mask is None:
            self._mask = self._compute_mask()
        return self._mask.copy()

    def _compute_mask(self) -> np.ndarray:
        N, n = self.N, self.n
        mask = np.zeros((N, R.NUM_ACTIONS), bool)
        ph = self.phase
        room = (self.size < self._cap[self.kinds]) & ~self.slot_taken  # (N, n)
        turn = (ph == R.PH_TURN) | (ph == R.PH_FINAL)
        mask[:, :n] = turn[:, None] & ~self.slot_taken & (self.size > 0)
        mask[:, R.DRAW] = (ph == R.PH_TURN) & (self.deck_left() > 0) & room.any(axis=1)
        mask[:, R.PLACE_0 : R.PLACE_0 + n] = (ph == R.PH_PLACE)[:, None] & room
        tn = np.flatnonzero(ph == R.PH_TAKE_NOW)
        mask[tn, self.pending[tn]] = True
        choosing = (ph == R.PH_PASS_LEFT) | (ph == R.PH_DISCARD_ONE) | (ph == R.PH_DISCARD_OWN)
        mask[:, R.CHOOSE_0 + 1 :] = choosing[:, None] & (self.choice[:, 1:] > 0)
        mask[:, R.PASS] = (ph == R.PH_FINAL) | (ph == R.PH_TAKE_NOW) | (ph == R.PH_DISCARD_OWN)
        return mask

    def observe(
        self, observers: np.ndarray | Sequence[int], games: np.ndarray | None = None
    ) -> np.ndarray:
        """``(N, 321)`` float32: game ``i`` as seat ``observers[i]`` sees it (the AEC env's);
        with ``games`` (indices) only those games, ``(len(games), 321)``."""
        g: Any = slice(None) if games is None else np.asarray(games, np.int64)
        N, n = (self.N if games is None else len(g)), self.n
        ar = np.arange(N)
        obs = self._static.copy() if games is None else self._static[g]
        me = np.asarray(observers, np.int64)
        if games is not None and me.shape == (self.N,):
            me = me[g]
        phase, cur, drawn = self.phase[g], self.current[g], self.drawn[g]
        over = phase == R.PH_OVER
        mine = (cur == me) & ~over
        obs[ar, _L["phase"].start + phase] = 1.0
        obs[:, _L["in_final"].start] = self.in_final[g]
        drawer = np.flatnonzero(mine & (drawn > 0))
        obs[drawer, _L["drawn_card"].start + drawn[drawer] - 1] = 1.0
        ch = np.flatnonzero(mine & (phase >= R.PH_PASS_LEFT) & (phase <= R.PH_DISCARD_OWN))
        rows = ch if games is None else g[ch]
        obs[ch, _L["pending_choice"]] = O._BY_13[self.choice[rows, 1:]]
        slots = obs[:, _L["slots"]].reshape(N, R.MAX_PLAYERS, _SLOT_F)
        slots[:, :n, _SF["taken"]] = self.slot_taken[g]
        room = (self._cap[self.kinds[g]] - self.size[g]).astype(np.float64) * (
            1.0 / R.SLOT_CAPACITY
        )
        slots[:, :n, _SF["room"]] = room
        slots[:, :n, _SF["musicians"]] = O._BY_4[self.slots[g, :, 1:]]
        # per-player rows in seat order, then rotated to the observer's order
        canon = np.zeros((N, n, _PLAYER_F), np.float32)
        canon[:, :, _PF["present"]] = 1.0
        canon[:, :, _PF["acting"]] = (self._seats == cur[:, None]) & ~over[:, None]
        canon[:, :, _PF["taken"]] = self.taken[g]
        canon[:, :, _PF["score"]] = self.points[g] / O.SCORE_SCALE
        canon[:, :, _PF["collection"]] = O._BY_13[self.coll[g, :, 1:]]
        canon[:, :, _PF["to_choose"]] = self.to_choose[g]
        canon[:, :, _PF["last_taker"]] = self._seats == self.last_taker[g, None]
        order = (me[:, None] + self._seats) % n
        players = canon[ar[:, None], order]  # (N, n, 19)
        p0 = _L["players"].start
        obs[:, p0 : p0 + n * _PLAYER_F] = players.reshape(N, -1)
        unseen = O._BY_13[self.unseen[g, 1:]]
        col = drawn[drawer] - 1
        unseen[drawer, col] = unseen[drawer, col] - _ONE_13
        obs[:, _L["unseen"]] = unseen
        obs[:, _L["deck_size"].start] = (self.dlen[g] - self.dpos[g]) / O.MAX_CARDS
        obs[:, _L["discard"]] = O._BY_13[self.discard[g, 1:]]
        return obs

    # -- transitions --------------------------------------------------------------------------

    def step(
        self, actions: np.ndarray | Sequence[int], games: np.ndarray | None = None
    ) -> StepResult:
        """One decision in every game, or only in ``games`` (a bool mask or indices; the
        other games' actions are ignored and nothing changes there)."""
        a = np.asarray(actions)
        if a.shape != (self.N,) or not np.issubdtype(a.dtype, np.integer):
            raise ValueError(f"actions must be {self.N} ints, got shape {a.shape} {a.dtype}")
        sel = np.ones(self.N, bool)
        if games is not None:
            sel = np.zeros(self.N, bool)
            sel[games] = True
        a = np.where(sel, a, 0).astype(np.int64)
        ok = (a >= 0) & (a < R.NUM_ACTIONS)
        legal = self.legal_mask() if self._mask is None else self._mask
        ok[ok] = legal[self._ar[ok], a[ok]]
        ok |= ~sel
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            raise R.IllegalActionError(
                f"illegal action {int(a[i])} ({R.action_name(int(a[i]))}) in game {i} for "
                f"seat {int(self.current[i])} in phase {R.PHASES[int(self.phase[i])]!r}; "
                f"legal: {[R.action_name(x) for x in np.flatnonzero(legal[i])]}"
            )
        self.moves[sel] += 1
        self._mask = None
        ph = np.where(sel, self.phase, -1)
        turn = (ph == R.PH_TURN) | (ph == R.PH_FINAL)
        self._draw(np.flatnonzero(turn & (a == R.DRAW)))
        self._end_action(np.flatnonzero(turn & (a == R.PASS)))
        take = np.flatnonzero(turn & (a < R.DRAW))
        self._take(take, a[take])
        self._place(np.flatnonzero(ph == R.PH_PLACE), a)
        tn = ph == R.PH_TAKE_NOW
        self._end_action(np.flatnonzero(tn & (a == R.PASS)))
        tk = np.flatnonzero(tn & (a != R.PASS))
        self.pending[np.flatnonzero(tn)] = -1
        self._take(tk, a[tk])
        self._choose(np.flatnonzero((ph >= R.PH_PASS_LEFT) & (ph <= R.PH_DISCARD_OWN)), a, ph)
        return self._finish(sel)

    def _draw(self, idx: np.ndarray) -> None:
        if len(idx) == 0:
            return
        self.drawn[idx] = self.deck[idx, self.dpos[idx]]
        self.dpos[idx] += 1
        self._mark_empty(idx)
        self.phase[idx] = R.PH_PLACE

    def _mark_empty(self, idx: np.ndarray) -> None:
        if len(idx) == 0:
            return
        e = idx[self.dpos[idx] >= self.dlen[idx]]
        self.deck_emptied[e] = True
        self.emptied_by[e] = self.current[e]

    def _rescore(self, idx: np.ndarray, seats: np.ndarray) -> None:
        if len(idx) == 0:
            return
        c = self.coll[idx, seats]
        self.points[idx, seats] = PTS[c].sum(axis=1)
        self.quartets[idx, seats] = QUARTET[c].sum(axis=1)

    def _place(self, idx: np.ndarray, a: np.ndarray) -> None:
        if len(idx) == 0:
            return
        s = a[idx] - R.PLACE_0
        d = self.drawn[idx]
        self.slots[idx, s, d] += 1
        self.size[idx, s] += 1
        self.unseen[idx, d] -= 1
        self.drawn[idx] = 0
        now = self.kinds[idx, s] == R.K_TAKE_NOW
        self.phase[idx[now]] = R.PH_TAKE_NOW
        self.pending[idx[now]] = s[now]
        self._end_action(idx[~now])

    def _choose(self, idx: np.ndarray, a: np.ndarray, ph: np.ndarray) -> None:
        if len(idx) == 0:
            return
        act = a[idx]
        p = self.current[idx]
        give = act != R.PASS
        g, v, pg = idx[give], act[give] - R.CHOOSE_0, p[give]
        self.coll[g, pg, v] -= 1
        left = ph[g] == R.PH_PASS_LEFT
        gl, gd = g[left], g[~left]
        nb = (pg[left] + 1) % self.n
        self.coll[gl, nb, v[left]] += 1
        self.discard[gd, v[~left]] += 1
        self._rescore(g, pg)
        self._rescore(gl, nb)
        self.choice[idx] = 0
        self._end_action(idx)

    def _take(self, idx: np.ndarray, s: np.ndarray) -> None:
        if len(idx) == 0:
            return
        p = self.current[idx]
        kind = self.kinds[idx, s]
        came = self.slots[idx, s].copy()
        before_any = self.coll[idx, p].any(axis=1)
        before = self.coll[idx, p].copy()
        self.coll[idx, p] += came
        self.slots[idx, s] = 0
        self.size[idx, s] = 0
        self.slot_taken[idx, s] = True
        self.taken[idx, p] = True
        self.last_taker[idx] = p
        to_pass = kind == R.K_PASS_LEFT
        to_disc = kind == R.K_DISCARD_ONE
        own = (kind == R.K_DISCARD_OWN) & before_any
        self.phase[idx[to_pass]] = R.PH_PASS_LEFT
        self.phase[idx[to_disc]] = R.PH_DISCARD_ONE
        self.phase[idx[own]] = R.PH_DISCARD_OWN
        self.choice[idx[to_pass | to_disc]] = came[to_pass | to_disc]
        self.choice[idx[own]] = before[own]
        one = np.flatnonzero((kind == R.K_DRAW_ONE) & (self.dpos[idx] < self.dlen[idx]))
        g = idx[one]
        card = self.deck[g, self.dpos[g]]
        self.dpos[g] += 1
        self.coll[g, p[one], card] += 1
        self.unseen[g, card] -= 1
        self._mark_empty(g)
        self._rescore(idx, p)
        self._end_action(idx[~(to_pass | to_disc | own)])

    def _end_action(self, idx: np.ndarray) -> None:
        """The current player's action (with its follow-ups) is complete, in games ``idx``."""
        if len(idx) == 0:
            return
        fin = self.in_final[idx]
        self._next_final(idx[fin], self.current[idx[fin]])
        rest = idx[~fin]
        em = self.deck_emptied[rest]
        e = rest[em]
        self.deck_emptied[e] = False
        self.in_final[e] = True
        self.to_choose[e] = ~self.taken[e]
        self._next_final(e, self.emptied_by[e])
        rest = rest[~em]
        full = self.taken[rest].all(axis=1)
        self._new_round(rest[full])
        go = rest[~full]
        self.current[go] = self._next_seat(go, self.current[go], ~self.taken[go])
        self.phase[go] = R.PH_TURN

    def _next_seat(self, idx: np.ndarray, frm: np.ndarray, ok: np.ndarray) -> np.ndarray:
        """Per game the first seat after ``frm`` (cyclically, ``frm`` itself last) with ``ok``."""
        n = self.n
        order = (frm[:, None] + 1 + self._seats) % n  # (m, n): frm+1, ..., frm
        good = ok[np.arange(len(idx))[:, None], order]
        return order[np.arange(len(idx)), good.argmax(axis=1)]

    def _next_final(self, idx: np.ndarray, frm: np.ndarray) -> None:
        if len(idx) == 0:
            return
        left = self.to_choose[idx].any(axis=1)
        g = idx[left]
        q = self._next_seat(g, frm[left], self.to_choose[g])
        self.current[g] = q
        self.to_choose[g, q] = False
        self.phase[g] = R.PH_FINAL
        self.phase[idx[~left]] = R.PH_OVER

    def _new_round(self, idx: np.ndarray) -> None:
        if len(idx) == 0:
            return
        out = self.dpos[idx] >= self.dlen[idx]
        self.phase[idx[out]] = R.PH_OVER
        g = idx[~out]
        self.slots[g] = 0
        self.size[g] = 0
        self.slot_taken[g] = False
        self.taken[g] = False
        self.current[g] = self.last_taker[g]
        self.phase[g] = R.PH_TURN
        self.round[g] += 1

    def _finish(self, sel: np.ndarray) -> StepResult:
        """Terminal rewards of the games that just ended, then their auto-reset."""
        N, n = self.N, self.n
        done = (self.phase == R.PH_OVER) & sel
        rewards = np.zeros((N, n))
        scores = np.zeros((N, n), np.int64)
        quartets = np.zeros((N, n), np.int64)
        winners = np.zeros((N, n), bool)
        lengths = np.zeros(N, np.int64)
        d = np.flatnonzero(done)
        if len(d):
            self._mask = None
            pts, q = self.points[d], self.quartets[d]
            key = pts * _TIE + q
            win = key == key.max(axis=1, keepdims=True)
            rewards[d] = self.terminal_rewards(pts, win)
            scores[d], quartets[d], winners[d], lengths[d] = pts, q, win, self.moves[d]
            if self.auto_reset:
                self.deal(d)
        return StepResult(rewards, done, scores, quartets, winners, lengths)

    def terminal_rewards(self, points: np.ndarray, winners: np.ndarray) -> np.ndarray:
        """The AEC env's terminal rewards (``reward_mode``) from final points and winners."""
        n = self.n
        if self.reward_mode == "win":
            share = n / (n - 1) / winners.sum(axis=1, keepdims=True)
            return np.where(winners, share, 0.0) - 1.0 / (n - 1)
        mean = points.sum(axis=1, keepdims=True) / n
        return (points - mean) / 10.0
