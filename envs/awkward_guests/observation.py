"""Awkward Guests — observation vector layout and encoder.

The observation is a ``float32`` vector in ``[0, 1]`` of **one size for every player count and
level** (per-player blocks padded to 8 seats, the hand to 32 slots). It is **egocentric**:
per-player block 0 is the observer, blocks 1.. follow in seat order (block ``j`` is seat
``(observer + j) mod n``). It holds only what the observer may know: their notebook and hand,
the public table and their own pending decision — never another hand, the deck order, the
solution, or anybody else's pending accusation.

| name | size | content |
|---|---|---|
| ``phase`` | 6 | public phase one-hot: ``inquiry, offer, exchange, solution, discard, over`` |
| ``pending_decision`` | 11 | the observer's own decision one-hot (all zero when someone else decides): ``inquiry, offer, answer, pay, solution, murderer, motive, weapon, accomplice, accomplice_motive, discard`` |
| ``pending_accusation`` | 51 | the observer's accusation in progress: murderer (6), motive (18), weapon (20), accomplice (6 suspects + none) |
| ``pending_amount`` | 2 | value still to pay for the accepted bid / 30 (clipped); cards still to discard / 32 |
| ``round`` | 1 | round / max_rounds |
| ``level`` | 7 | level one-hot (``beginner`` … ``expert``) |
| ``num_players`` | 8 | player count one-hot (1..8) |
| ``rules`` | 3 | an accomplice is possible (medium+); 1–2 player rules; solo |
| ``players`` | 8 × 13 | per seat (egocentric): present, out, deciding now, active (turn) player (during a turn only), start player, hand size / 32, turn done this round, bid made, bid value / 30 (clipped), bid card count / 32, bid accepted, bid declined, bid being answered |
| ``asked`` | 16 | the references asked this turn (suspects, then rooms) |
| ``last_turns`` | 8 × 57 | the public record of each seat's most recent finished turn, kept until that seat's next turn starts (:mod:`~parlour.envs.awkward_guests.game.record`); per seat (egocentric, as ``players``), pieces :data:`LAST_TURN_PIECES`: ``recorded`` (1: the seat has a record), ``asked`` (16: the references it asked), ``bids`` (8 × 5: per bidder seat, egocentric as ``players``: bid made, value / 30 (clipped), card count / 32, accepted, cards the accepted bid was paid with / 32) — never which cards |
| ``piles`` | 4 | deck, discard pile, revealed pile sizes / case size; case size / 200 |
| ``hand`` | 32 × 40 | per hand slot (sorted by card id): present, value one-hot (1, 2, 3), refs (16), count of each fact type / 3 (12, in :data:`~parlour.envs.awkward_guests.case.facts.FACT_TYPES` order), known to have been seen by the other seats (7, egocentric blocks 1..7), selected (offered / promised / to discard) |
| ``notebook`` | 364 | the notebook grid (:mod:`parlour.envs.awkward_guests.notebook`) |

Solo: the deck's bid is shown in per-player block 1 (whose ``present`` flag stays 0), and in
bidder block 1 of the player's ``last_turns`` record.

``observation_mode="deduced"`` appends the deduction engine's view of the observer's own
notebook (:class:`~parlour.envs.awkward_guests.case.deduction.Deduction`, one per seat, fed incrementally
with each newly seen card): ``deduced_murderers`` (6), ``deduced_motives`` (18),
``deduced_weapons`` (20), ``deduced_accomplices`` (6 suspects + none), ``deduced_accomplice_
motives`` (18 + none) — 1 where still possible — and ``deduced_count`` (1):
``log(candidates) / log(5760)`` (0 when exactly one candidate is left).

``observation_mode="deduced_choices"`` appends, after the ``deduced_*`` blocks, the deduction's
view of the observer's choices now:

* what each hand card would teach (:mod:`~parlour.envs.awkward_guests.teach`): ``hand_share``
  (32: per hand slot, the share of all candidates the card alone rules out) and ``hand_teach``
  (32: on the observer's own ``offer`` or ``pay`` decision, the share of the counterpart's known
  candidates the card would rule out — counterpart: the asker at ``offer``, the bidder being
  answered at ``pay``; 0 on any other decision);
* on the observer's own decision naming a part of its accusation, ``accusation_murderers`` (6),
  ``accusation_motives`` (18), ``accusation_weapons`` (20), ``accusation_accomplices`` (6 + none),
  ``accusation_accomplice_motives`` (18 + none): 1 for each choice of the part being named that
  some candidate left makes **together with the parts named so far** (the ``deduced_*`` blocks
  are each part on its own: with two candidates left, naming one's murderer and the other's
  motive is allowed by both blocks yet certainly wrong); only that part's block is set.

``observation_mode="deduced_shares"`` is ``deduced_choices`` plus ``accusation_shares`` (70, laid
out as the ``accusation_*`` blocks and set on the same decisions): for each of those choices, the
share of the candidates left that match the parts named so far and make it. The candidates are
not equally likely: in generated cases a guess is right more often when it names the rarest
choice, part by part (``guests.deducer:pick=rare``, docs/guests_training.md).

``observation_mode="deduced_odds"`` is ``deduced_shares`` plus ``accusation_odds`` (70, laid out
as the ``accusation_*`` blocks): on the observer's own Solution decision the murderer block, on
its naming decisions the block of the part being named — per choice, the chance of the
likeliest candidate that makes it (among the candidates left matching the parts named so far),
with the candidates weighed by the case generator's odds
(:func:`~parlour.envs.awkward_guests.case.generator.odds.candidate_log_weights`: the
generator's prior, the proof-box verdicts and the sightings seen). At the Solution decision its
largest entry is the chance of the likeliest candidate left; 0 on every other decision. The
likeliest candidate is the solution far more often than the rarest (``guests.deducer:pick=likely``,
docs/guests_training.md, "4 players, medium: the generator's odds").

``seer=True`` (debugging only — it leaks the hidden solution) appends ``seer_solution`` (70):
murderer (6), motive (18), weapon (20), accomplice (6 + none), accomplice motive (18 + none).

The encoder keeps one notebook (and deduction) per seat and adds only newly seen cards; it
writes into a preallocated buffer and returns a copy.
"""

# ruff: noqa: F405  (the layout names come from .observation_layout)
from __future__ import annotations

import numpy as np

from . import game as G
from .case.board import WALTON
from .case.case import LEVELS
from .case.deduction import Deduction
from .case.facts import FACT_TYPES
from .case.generator.odds import candidate_log_weights
from .notebook import NOTEBOOK_SIZE, card_cells
from .observation_layout import *  # noqa: F403  (re-exported: the layout is this module's API)
from .solution_blocks import (
    accusation_blocks,
    accusation_odds,
    deduced_vector,
    solution_vector,
)
from .teach import TeachTable

_TYPE_IDX = {t: i for i, t in enumerate(FACT_TYPES)}
_REF_IDX = {r: i for i, r in enumerate(WALTON.references)}


def card_row(card) -> np.ndarray:
    """The static part of a hand row (present, value, refs, fact type counts)."""
    row = np.zeros(HAND_FEATURES, np.float32)
    row[H_PRESENT] = 1.0
    row[H_VALUE + int(card.value) - 1] = 1.0
    for r in card.refs:
        row[H_REFS + _REF_IDX[r]] = 1.0
    for f in card.facts:
        row[H_TYPES + _TYPE_IDX[f["type"]]] += 1.0 / 3.0
    return row


class _CaseCache:
    """Per-case encoder tables: static hand rows and notebook cells per card index."""

    def __init__(self, tables: G.CaseTables) -> None:
        self.tables = tables
        self.rows = np.stack([card_row(c) for c in tables.cards]).astype(np.float32)
        self.cells = [np.array(card_cells(c), np.intp) for c in tables.cards]


def _ego_bits(n: int, observer: int) -> np.ndarray:
    """(256, 7): for a bitmask of seats, which egocentric blocks 1..7 are set."""
    table = np.zeros((256, N_SEATS - 1), np.float32)
    masks = np.arange(256)
    for j in range(1, n):
        seat = (observer + j) % n
        table[:, j - 1] = (masks >> seat) & 1
    return table


class ObservationEncoder:
    """Encodes a :class:`~parlour.envs.awkward_guests.game.GuestsState` for one observer at a time."""

    def __init__(self, observation_mode: str = "notebook", seer: bool = False) -> None:
        if observation_mode not in OBSERVATION_MODES:
            raise ValueError(
                f"observation_mode must be one of {list(OBSERVATION_MODES)}, "
                f"got {observation_mode!r}"
            )
        self.observation_mode = observation_mode
        self.deduced = observation_mode in DEDUCED_MODES
        self.choices = observation_mode in CHOICE_MODES
        self.shares = observation_mode in SHARE_MODES
        self.odds = observation_mode == "deduced_odds"
        self.teach = TeachTable() if self.choices else None
        self.seer = seer
        self.layout = make_layout(observation_mode, seer)
        self.size = layout_size(self.layout)
        self._buf = np.zeros(self.size, np.float32)
        L = self.layout
        self._players = self._buf[L["players"]].reshape(N_SEATS, N_PLAYER_FEATURES)
        self._hand = self._buf[L["hand"]].reshape(N_SLOTS, HAND_FEATURES)
        self._nb_view = self._buf[L["notebook"]]
        self._lt_view = self._buf[L["last_turns"]]
        self._i_phase = L["phase"].start
        self._i_dec = L["pending_decision"].start
        self._i_acc = L["pending_accusation"].start
        self._i_players = L["players"].start
        self._i_asked = L["asked"].start
        self._i_last = L["last_turns"].start
        self._i_amount = L["pending_amount"].start
        self._i_round = L["round"].start
        self._i_piles = L["piles"].start
        if self.deduced:
            self._ded_view = self._buf[L["deduced_murderers"].start : L["deduced_count"].stop]
        if self.choices:
            self._share_view = self._buf[L["hand_share"]]
            self._teach_view = self._buf[L["hand_teach"]]
            self._acc_view = self._buf[
                L["accusation_murderers"].start : L["accusation_accomplice_motives"].stop
            ]
        if self.shares:
            self._acc_share_view = self._buf[L["accusation_shares"]]
        if self.odds:
            self._acc_odds_view = self._buf[L["accusation_odds"]]
        if seer:
            self._seer_view = self._buf[L["seer_solution"]]
        self._cache: _CaseCache | None = None
        self._static_key: tuple | None = None
        self._state_id: int | None = None
        self._logs: list | None = None
        self._reset_dynamic()

    # A copied encoder is rebuilt from scratch (its buffers are views into one another, and
    # it holds no game information of its own: everything is recomputed from the state).
    def __getstate__(self) -> dict:
        return {"observation_mode": self.observation_mode, "seer": self.seer}

    def __setstate__(self, state: dict) -> None:
        self.__init__(**state)

    def _reset_dynamic(self) -> None:
        self._nb = np.zeros((N_SEATS, NOTEBOOK_SIZE), np.float32)
        self._synced = [0] * N_SEATS
        self._deds: list[Deduction | None] = [None] * N_SEATS
        self._ded_vec: list[np.ndarray | None] = [None] * N_SEATS
        self._ded_synced = [0] * N_SEATS
        # per seat: (notebook cards seen, candidate_log_weights over them)
        self._log_weights: list[tuple[int, np.ndarray] | None] = [None] * N_SEATS
        self._hand_blocks = np.zeros((N_SEATS, N_SLOTS, HAND_FEATURES), np.float32)
        self._hand_ver = [-1] * N_SEATS
        self._hand_len = [0] * N_SEATS
        self._hand_key: tuple | None = None
        self._nb_key: tuple | None = None
        self._dirty: list[int] = []
        self._lt_cache: list[tuple | None] = [None] * N_SEATS  # (last_turns, idx, val)
        # the observer and the last_turns record whose cells the buffer holds now
        self._lt_observer = -1
        self._lt_record: tuple | None = None
        if self.teach is not None:
            self.teach.reset()
        # whether the buffer holds a non-zero hand_teach / accusation_* / accusation_odds now
        self._teach_set = self._acc_set = self._odds_set = False

    def _set_static(self, state: G.GuestsState) -> None:
        """Blocks that do not change during a game; per-case tables; per-game notebooks."""
        tables = state.tables
        if self._cache is None or self._cache.tables is not tables:
            self._cache = _CaseCache(tables)
        n = state.num_players
        key = (n, tables.level, tables.accomplice_possible, id(tables))
        logs = state.seen_log
        if key == self._static_key and self._logs is logs:
            return
        self._static_key = key
        self._logs = logs
        self._reset_dynamic()
        L = self.layout
        buf = self._buf
        buf.fill(0.0)
        buf[L["level"].start + LEVELS.index(tables.level)] = 1.0
        buf[L["num_players"].start + n - 1] = 1.0
        r = L["rules"].start
        buf[r] = float(tables.accomplice_possible)
        buf[r + 1] = float(n <= 2)
        buf[r + 2] = float(n == 1)
        self._players[:n, P_PRESENT] = 1.0
        self._n = n
        self._ego = [_ego_bits(n, p) for p in range(n)]
        self._orders = [[(p + j) % n for j in range(n)] for p in range(n)]
        self._block_of = [{s: j for j, s in enumerate(o)} for o in self._orders]
        self._num_cards = tables.num_cards
        buf[self._i_piles + 3] = min(tables.num_cards / MAX_CASE_CARDS, 1.0)
        if self.seer:
            self._seer_view[:] = solution_vector(tables.case.solution)

    # -- notebooks ------------------------------------------------------------------------

    def _sync_notebook(self, state: G.GuestsState, seat: int) -> np.ndarray:
        log = state.seen_log[seat]
        k = self._synced[seat]
        if k < len(log):
            nb = self._nb[seat]
            cells = self._cache.cells
            for c in log[k:]:
                nb[cells[c]] = 1.0
            self._synced[seat] = len(log)
        return self._nb[seat]

    def notebook(self, state: G.GuestsState, seat: int) -> np.ndarray:
        """The notebook grid of ``seat`` (a copy)."""
        self._set_static(state)
        return self._sync_notebook(state, seat).copy()

    def deduction(self, state: G.GuestsState, seat: int) -> Deduction:
        """The (incrementally fed) deduction state over ``seat``'s notebook."""
        self._set_static(state)
        ded = self._deds[seat]
        if ded is None:
            ded = Deduction(state.tables.accomplice_possible)
            self._deds[seat] = ded
        log = state.seen_log[seat]
        k = self._ded_synced[seat]
        if k < len(log):
            cards = state.tables.cards
            for c in log[k:]:
                ded.add_facts(cards[c].facts, validate=False)
            self._ded_synced[seat] = len(log)
            self._ded_vec[seat] = None
        return ded

    def log_weights(self, state: G.GuestsState, seat: int) -> np.ndarray:
        """:func:`~parlour.envs.awkward_guests.case.generator.odds.candidate_log_weights` of
        ``seat``'s notebook (recomputed only when it grew)."""
        self._set_static(state)
        log = state.seen_log[seat]
        cached = self._log_weights[seat]
        if cached is None or cached[0] != len(log):
            cards = state.tables.cards
            facts = [f for c in log for f in cards[c].facts]
            cached = (len(log), candidate_log_weights(facts, state.tables.level))
            self._log_weights[seat] = cached
        return cached[1]

    def _deduced(self, state: G.GuestsState, seat: int) -> np.ndarray:
        ded = self.deduction(state, seat)
        vec = self._ded_vec[seat]
        if vec is None:
            vec = deduced_vector(ded)
            self._ded_vec[seat] = vec
        return vec

    # -- encoding -------------------------------------------------------------------------

    def _hand_block(self, state: G.GuestsState, seat: int) -> np.ndarray:
        """The hand block of ``seat`` (cached per seat until its ``hand_version`` changes)."""
        ver = state.hand_version[seat]
        block = self._hand_blocks[seat]
        if self._hand_ver[seat] != ver:
            hand = state.hands[seat]
            h = len(hand)
            old = self._hand_len[seat]
            if old > h:
                block[h:old] = 0.0
            if h:
                idx = np.fromiter(hand, np.intp, h)
                block[:h] = self._cache.rows[idx]
                block[:h, H_SEEN:H_SELECTED] = self._ego[seat][state.known[seat, idx]]
                sel = state.selected[seat]
                if sel:
                    for slot, c in enumerate(hand):
                        if c in sel:
                            block[slot, H_SELECTED] = 1.0
            self._hand_len[seat] = h
            self._hand_ver[seat] = ver
        return block

    def _last_turns_cells(self, turns: tuple, block_of: dict[int, int]) -> tuple[list, list]:
        """Indices and values of the ``last_turns`` block (egocentric seats and bidders)."""
        idx: list[int] = []
        val: list[float] = []
        for t in turns:
            if t is None:
                continue
            b = self._i_last + block_of[t.seat] * LAST_TURN_FEATURES
            idx.append(b + LT_RECORDED)
            val.append(1.0)
            for r in t.asked:
                idx.append(b + LT_ASKED + r)
                val.append(1.0)
            for bid in t.bids:
                j = 1 if bid.seat == G.DECK_SEAT else block_of[bid.seat]
                k = b + LT_BIDS + j * N_BID_FEATURES
                idx += (k, k + 1, k + 2)
                val += (1.0, min(bid.value / BID_SCALE, 1.0), bid.count / N_SLOTS)
                if bid.accepted:
                    idx += (k + 3, k + 4)
                    val += (1.0, min(bid.paid / N_SLOTS, 1.0))
        return idx, val

    def encode(self, state: G.GuestsState, observer: int) -> np.ndarray:
        """The observation of ``observer`` (a fresh array; the encoder keeps no reference).

        The small blocks' (index, value) cells (:meth:`_decision_cells`, :meth:`_player_cells`,
        asked, piles) replace last call's cells in one fancy-index write; the last turns, hand
        and notebook blocks are rewritten only when they changed.
        """
        self._set_static(state)
        buf = self._buf
        decision = state.decision
        if self._dirty:
            buf[self._dirty] = 0.0
        idx: list[int] = []
        val: list[float] = []
        self._decision_cells(state, observer, decision, idx, val)
        self._player_cells(state, observer, decision, idx, val)
        ia = self._i_asked
        for r in state.asked:
            idx.append(ia + r)
            val.append(1.0)
        if observer != self._lt_observer or state.last_turns is not self._lt_record:
            self._write_last_turns(state, observer)
        p = self._i_piles
        num = self._num_cards
        idx += (p, p + 1, p + 2)
        val += (len(state.deck) / num, len(state.discard) / num, len(state.revealed) / num)
        buf[idx] = val
        self._dirty = idx
        self._write_private(state, observer)
        return buf.copy()

    def _decision_cells(
        self, state: G.GuestsState, observer: int, decision: int, idx: list, val: list
    ) -> None:
        """Cells of ``phase``, ``round`` and, on the observer's own decision,
        ``pending_decision``, ``pending_amount`` and ``pending_accusation``."""
        add_i = idx.append
        add_v = val.append
        add_i(self._i_phase + G.DECISION_PHASE[decision])
        add_v(1.0)
        if state.current == observer and decision != G.D_NONE:
            add_i(self._i_dec + decision)
            add_v(1.0)
            if decision == G.D_PAY:
                add_i(self._i_amount)
                add_v(min(state.owed / BID_SCALE, 1.0))
            elif decision == G.D_DISCARD:
                left = len(state.hands[observer]) - len(state.selected[observer])
                add_i(self._i_amount + 1)
                add_v((left - G.KEEP_AFTER_DISCARD) / N_SLOTS)
            elif decision > G.D_SOLUTION:
                part = state.accusations.get(observer, ())
                base = self._i_acc
                for j, v in enumerate(part[:4]):
                    if j == 3 and v < 0:
                        add_i(base + _ACC_OFFSETS[3] + N_SUSPECTS)
                    else:
                        add_i(base + _ACC_OFFSETS[j] + v)
                    add_v(1.0)
        add_i(self._i_round)
        add_v(state.round / state.config.max_rounds)

    def _player_cells(
        self, state: G.GuestsState, observer: int, decision: int, idx: list, val: list
    ) -> None:
        """Cells of the egocentric ``players`` rows: status, hand size, active and start
        seat, and the bids of the current inquiry."""
        add_i = idx.append
        add_v = val.append
        block_of = self._block_of[observer]
        pbase = self._i_players
        F = N_PLAYER_FEATURES
        cur = state.current if decision != G.D_NONE else -1
        done_all = decision >= G.D_SOLUTION
        queue = state.turn_queue
        active = state.active
        out = state.out
        hands = state.hands
        for j, s in enumerate(self._orders[observer]):
            b = pbase + j * F
            if out[s]:
                add_i(b + P_OUT)
                add_v(1.0)
            elif done_all or (s != active and s not in queue):
                add_i(b + P_TURN_DONE)
                add_v(1.0)
            if s == cur:
                add_i(b + P_DECIDING)
                add_v(1.0)
            add_i(b + P_HAND)
            add_v(len(hands[s]) / N_SLOTS)
        if decision < G.D_SOLUTION:
            add_i(pbase + block_of[active] * F + P_ACTIVE)
            add_v(1.0)
        add_i(pbase + block_of[state.start] * F + P_START)
        add_v(1.0)
        if state.bids:
            answering = state.answering if decision in (G.D_ANSWER, G.D_PAY) else -1
            for k, bid in enumerate(state.bids):
                b = pbase + (1 if bid.seat == G.DECK_SEAT else block_of[bid.seat]) * F
                idx += (b + P_BID, b + P_BID_VALUE, b + P_BID_COUNT)
                val += (1.0, min(bid.value / BID_SCALE, 1.0), bid.count / N_SLOTS)
                if bid.status == 1:
                    add_i(b + P_ACCEPTED)
                    add_v(1.0)
                elif bid.status == 2:
                    add_i(b + P_DECLINED)
                    add_v(1.0)
                if k == answering:
                    add_i(b + P_ANSWERING)
                    add_v(1.0)

    def _write_last_turns(self, state: G.GuestsState, observer: int) -> None:
        """The public record of each seat's last turn, called only when the observer or the
        record changed (the engine replaces the immutable ``last_turns`` tuple on a change);
        its cells are cached per observer."""
        lt = state.last_turns
        cached = self._lt_cache[observer]
        if cached is None or cached[0] is not lt:
            i, v = self._last_turns_cells(lt, self._block_of[observer])
            cached = (lt, np.array(i, np.intp), np.array(v, np.float32))
            self._lt_cache[observer] = cached
        self._lt_view.fill(0.0)
        self._buf[cached[1]] = cached[2]
        self._lt_observer = observer
        self._lt_record = lt

    def _write_private(self, state: G.GuestsState, observer: int) -> None:
        """The observer's hand and notebook (copied in only when the observer or its content
        changed), in the ``deduced`` modes the deduction, and in ``deduced_choices`` what each
        hand card would teach and what the accusation being named still allows."""
        hkey = (observer, state.hand_version[observer])
        if hkey != self._hand_key:
            self._hand[:] = self._hand_block(state, observer)
            if self.choices:
                self.teach.write_share(state, observer, self._share_view)
            self._hand_key = hkey
        nb = self._sync_notebook(state, observer)
        nkey = (observer, self._synced[observer])
        if nkey != self._nb_key:
            self._nb_view[:] = nb
            self._nb_key = nkey
        if self.deduced:
            self._ded_view[:] = self._deduced(state, observer)
        if self.choices:
            self._write_choices(state, observer)

    def _write_choices(self, state: G.GuestsState, observer: int) -> None:
        """``hand_teach`` and the ``accusation_*`` blocks: set only on the observer's own
        offer / pay, or naming decision (and zeroed once after it)."""
        teaching = self.teach.write_teach(state, observer, self._teach_view)
        if not teaching and self._teach_set:
            self._teach_view.fill(0.0)
        self._teach_set = teaching
        naming = state.current == observer and G.D_MURDERER <= state.decision <= G.D_ACC_MOTIVE
        if naming:
            named = state.accusations.get(observer, ())
            ded = self.deduction(state, observer)
            allowed, shares = accusation_blocks(ded, named)
            self._acc_view[:] = allowed
            if self.shares:
                self._acc_share_view[:] = shares
        elif self._acc_set:
            self._acc_view.fill(0.0)
            if self.shares:
                self._acc_share_view.fill(0.0)
        self._acc_set = naming
        if self.odds:
            self._write_odds(state, observer)

    def _write_odds(self, state: G.GuestsState, observer: int) -> None:
        """``accusation_odds``: set on the observer's own Solution decision (the murderer
        block, nothing named) and naming decisions (and zeroed once after them)."""
        deciding = state.current == observer and G.D_SOLUTION <= state.decision <= G.D_ACC_MOTIVE
        if deciding:
            named = state.accusations.get(observer, ()) if state.decision != G.D_SOLUTION else ()
            ded = self.deduction(state, observer)
            weights = self.log_weights(state, observer)
            self._acc_odds_view[:] = accusation_odds(ded, named, weights)
        elif self._odds_set:
            self._acc_odds_view.fill(0.0)
        self._odds_set = deciding


_ACC_OFFSETS = (0, N_SUSPECTS, N_SUSPECTS + N_MOTIVES, N_SUSPECTS + N_MOTIVES + N_WEAPONS)
