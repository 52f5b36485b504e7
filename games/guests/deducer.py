"""``guests.deducer``: the Awkward Guests baseline that reasons with the deduction engine.

It reads only ``player_view`` (:class:`parlour.envs.awkward_guests.view.GuestsView`): its notebook, its
hand (with who is known to have seen each card), the public table and its own decision. It keeps
an incremental :class:`~parlour.envs.awkward_guests.case.deduction.Deduction` over its notebook, so it always
knows the exact set of candidate solutions its own cards allow (every candidate weighted
equally).

| decision | what it does |
|---|---|
| ``inquiry`` | asks, one reference at a time, for the reference whose cards split its candidates best: the entropy of the partition "what the candidates say about this reference" (a suspect: murderer with which motive / accomplice with which motive / innocent; a room: which of its weapons is the murder weapon / none), minus a small penalty per earlier time it asked the same reference |
| ``offer`` | offers the matching cards that teach the asker least for their value: a card the asker has already seen (it is on the revealed pile, or the asker is known to have seen it) teaches nothing and is always offered; another card is offered when, on top of what the deducer knows the asker has seen, it rules out less than half the share of candidates its face value stands for |
| ``answer`` | accepts a bid it can cover (``YES`` is legal) while more than one candidate is left and an asked reference is still open for it (its split is not zero); otherwise declines |
| ``pay`` | pays with the cards least useful to the receiver: first those the receiver has already seen, then by the share of the receiver's known candidates they would rule out; among equals the least valuable single card that covers the rest of the bid, else the most valuable card (the solo deck learns nothing, so there only value counts) |
| ``solution`` | accuses exactly when one candidate is left (``p=1``, the default); the risk variant ``guests.deducer:p=P`` accuses as soon as one candidate has probability ≥ ``P`` (``1 / candidates`` ≥ ``P``), naming a candidate drawn with its own generator (with ``pick=rare``: drawn among :func:`rarest_candidates`; with ``pick=likely``: among :meth:`DeducerAgent.likeliest`); with ``odds=Q`` it also accuses once the likeliest candidate's chance under the case generator's odds is ≥ ``Q`` |
| ``murderer`` … ``accomplice_motive`` | names the chosen candidate |
| ``discard`` | keeps its most valuable cards (value pays for bids), preferring cards others have already seen (safe to offer and pay with) |

Strength (measured, see the issue-6 closing note and ``tests/agents/test_guests_deducer.py``):
it never accuses wrongly with ``p=1`` (the deduction engine is exact and cases are sound), and
it beats ``random`` by a wide margin at every player count: random players accuse at random and
are soon out.

Options: ``p`` (float in (0, 1], default 1); ``start`` (int ≥ 1, default 1): the round from
which ``p`` applies; before it the deducer waits for one candidate (``p=0.5,start=9``: no guess
in the first 8 rounds, while the other players are still far from the solution); ``threat``
(int ≥ 0, default 0: off): also accuse, naming a candidate drawn with its own generator, when at
most ``threat`` candidates are left and another player still in **declined every bid** made in
their turn this round (:func:`declined_this_round`, read from the public record of the last
turns; ``threat=5760``, every solution at ``medium``+: whatever the candidates left); ``pick``
(``uniform``, the default, or ``rare``): how a guess with several candidates left chooses the
candidate it names — ``uniform`` at random, ``rare`` at random among :func:`rarest_candidates`
(part by part, in naming order, the candidates whose choice of that part is the rarest among
those still kept), ``likely`` at random among :meth:`DeducerAgent.likeliest` (the candidates
with the highest weight under the case generator's odds,
:func:`~parlour.envs.awkward_guests.case.generator.odds.candidate_log_weights`); ``odds``
(float in [0, 1], default 0: off): also accuse once the likeliest candidate's chance under those
odds is at least ``odds``.

Why ``threat`` works (issue 34; docs/guests_training.md, "4 players, medium: reading the other
players"): a deducer declines a bid it can pay for almost only when one candidate is left (its
answer rule above), and then it accuses, rightly, in this very Solution phase — so a player who
waits then has lost. Declines are public. A bid declined because the player could not pay for
it looks the same, but such a player has usually accepted an earlier bid of the same turn: over
3,000 games of four plain deducers (``tools/guests_declines.py``), 93.7% of the turns whose
every bid was declined were taken with one candidate left (declining *some* bid: 60.2%).

Why ``pick=rare`` works (issue 34; docs/guests_training.md, "4 players, medium: which candidate
to guess"): the deduction engine weighs every candidate its notebook allows equally, but in
generated cases they are not equally likely. At each seat's first Solution phase with 2 to 8
candidates left, over 3,000 games of four plain deducers (``tools/guests_declines.py``, 7,915
such moments), a guess among :func:`rarest_candidates` names the solution 27.5% of the time,
one at random 21.9% (3 candidates: 44.8% against 33.3%; 2 candidates: no difference — each
choice is as rare as the other).

Why ``pick=likely`` and ``odds`` work (issue 34; docs/guests_training.md, "4 players, medium:
the generator's odds"): the generator's prior (a candidate without an accomplice is 15 times
as likely as one with), the confirming proof boxes and the sightings seen (the culprits are only
ever seen together) weigh the candidates left far from equally. At those same first Solution
phases with 2 to 8 candidates the likeliest candidate is the solution about 40% of the time, and
a player who accuses once the likeliest has a chance of at least 0.6 (or once another player
declined every bid, with at most 64 candidates left) and names it wins far more than one who
waits (``tools/guests_declines.py``, the ``pick=likely`` rule rows).
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests.case.board import WALTON
from parlour.envs.awkward_guests.case.cards import Card, card_exclusion_share
from parlour.envs.awkward_guests.case.deduction import Deduction
from parlour.envs.awkward_guests.case.generator.odds import candidate_log_weights
from parlour.envs.awkward_guests.case.solution import Solution, candidate_solutions
from parlour.envs.awkward_guests.game import accusation_actions

#: penalty (in bits) per earlier time this agent asked the same reference
REPEAT_PENALTY = 0.05
#: offer a card the asker may not have seen when it teaches less than this share of its value
TEACH_RATIO = 0.5
#: the ``pick`` option's values: how a guess chooses among the candidates left
PICKS = ("uniform", "rare", "likely")
#: log weights this close to the highest count as tied (``pick=likely``)
LIKELY_TIE = 1e-9
#: per-game memo of what a card would teach a seat (cleared when it grows past this)
TEACH_CACHE_SIZE = 4096

_ACCUSE_STEP = {
    "murderer": 0,
    "motive": 1,
    "weapon": 2,
    "accomplice": 3,
    "accomplice_motive": 4,
}


@functools.cache
def _reference_keys(accomplice_possible: bool) -> np.ndarray:
    """``keys[r, i]``: what candidate ``i`` says about reference ``r`` (an int label).

    Suspect ``s``: 0 innocent, ``1 + μ`` murderer with motive ``μ``, ``19 + α`` accomplice with
    motive ``α``. Room ``r``: 0 when the murder weapon is kept elsewhere, ``1 + w`` for weapon
    ``w`` kept there.
    """
    sols = candidate_solutions(accomplice_possible)
    motive = {m: i for i, m in enumerate(A.MOTIVES)}
    weapon = {w: i for i, w in enumerate(A.WEAPONS)}
    room_of = {w.id: w.room for w in WALTON.weapons}
    keys = np.zeros((len(A.REFERENCES), len(sols)), dtype=np.int16)
    for i, s in enumerate(sols):
        for r, ref in enumerate(A.REFERENCES):
            if ref == s.murderer:
                keys[r, i] = 1 + motive[s.motive]
            elif ref == s.accomplice:
                keys[r, i] = 19 + motive[s.accomplice_motive]
            elif room_of[s.weapon] == ref:
                keys[r, i] = 1 + weapon[s.weapon]
    keys.flags.writeable = False
    return keys


def declined_this_round(view: Any) -> bool:
    """Whether another player still in declined **every** bid made in their turn of this round
    (at least one; public: each seat's last turn record, ``view.last_turns``)."""
    for seat, turn in enumerate(view.last_turns):
        if seat == view.seat or turn is None or view.out[seat] or turn.round != view.round:
            continue
        if turn.bids and not any(bid.accepted for bid in turn.bids):
            return True
    return False


def rarest_candidates(candidates: list[Solution]) -> list[Solution]:
    """The candidates a ``pick=rare`` guess chooses among: part by part, in the order an
    accusation names them (murderer, motive, weapon, accomplice, accomplice motive), keep the
    candidates whose value of that part is the **rarest** among those still kept (ties: all of
    them). Non-empty when ``candidates`` is."""
    kept = list(candidates)
    for part in Solution._fields:
        counts: dict[Any, int] = {}
        for c in kept:
            counts[getattr(c, part)] = counts.get(getattr(c, part), 0) + 1
        fewest = min(counts.values())
        kept = [c for c in kept if counts[getattr(c, part)] == fewest]
    return kept


def split_scores(mask: np.ndarray, accomplice_possible: bool) -> np.ndarray:
    """Per reference, the entropy (bits) of how the candidates in ``mask`` split on it."""
    keys = _reference_keys(accomplice_possible)[:, mask]
    n = keys.shape[1]
    out = np.zeros(len(A.REFERENCES))
    if n <= 1:
        return out
    for r in range(len(A.REFERENCES)):
        counts = np.bincount(keys[r])
        p = counts[counts > 0] / n
        out[r] = float(-(p * np.log2(p)).sum())
    return out


class DeducerAgent:
    """The deduction-engine baseline (see the module docstring)."""

    def __init__(
        self,
        spec: str = "guests.deducer",
        seed: int | None = None,
        p: float = 1.0,
        start: int = 1,
        threat: int = 0,
        pick: str = "uniform",
        odds: float = 0.0,
    ):
        if isinstance(p, bool) or not isinstance(p, int | float) or not 0.0 < p <= 1.0:
            raise ValueError(f"guests.deducer option p must be in (0, 1], got {p!r}")
        if isinstance(start, bool) or not isinstance(start, int) or start < 1:
            raise ValueError(f"guests.deducer option start must be an int >= 1, got {start!r}")
        if isinstance(threat, bool) or not isinstance(threat, int) or threat < 0:
            raise ValueError(f"guests.deducer option threat must be an int >= 0, got {threat!r}")
        if isinstance(odds, bool) or not isinstance(odds, int | float) or not 0.0 <= odds <= 1.0:
            raise ValueError(f"guests.deducer option odds must be in [0, 1], got {odds!r}")
        if pick not in PICKS:
            raise ValueError(
                f"guests.deducer option pick must be one of {list(PICKS)}, got {pick!r}"
            )
        self.spec = spec
        self.threshold = float(p)
        self.start = start
        self.threat = threat
        self.pick = pick
        self.odds = float(odds)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)
        self._ded: Deduction | None = None
        self._noted = 0  # notebook cards already added to the deduction
        self._level: str | None = None
        self._target: Solution | None = None
        self._asked: dict[int, int] = {}
        self._forget_game()

    def _forget_game(self) -> None:
        """Drop the per-game memos (pure functions of what the game showed so far)."""
        self._known_cache: dict[tuple[int, frozenset[int]], Deduction] = {}
        self._teach_cache: dict[tuple[int, frozenset[int], int], float] = {}
        self._by_id: dict[int, Card] = {}
        self._shares: dict[int, float] = {}
        self._scores_key: bytes | None = None
        self._weights_key: int | None = None
        self._weights: np.ndarray | None = None
        self._scores: np.ndarray | None = None

    # -- knowledge ------------------------------------------------------------------------------

    def _sync(self, view: Any) -> Deduction:
        """The deduction over the whole notebook (incremental: the notebook only grows)."""
        if self._ded is None or view.level != self._level or len(view.notebook) < self._noted:
            # a new game without reset(): start over (never carry knowledge across games)
            self._ded = Deduction(view.accomplice_possible)
            self._noted = 0
            self._level = view.level
            self._target = None
            self._asked = {}
            self._forget_game()
        for card in view.notebook[self._noted :]:
            self._ded.add_facts(card.facts, validate=False)
            self._by_id[card.id] = card
        self._noted = len(view.notebook)
        return self._ded

    def candidates(self, view: Any) -> list[Solution]:
        """The candidate solutions the viewer's notebook allows."""
        return self._sync(view).candidates()

    def _share(self, card: Card) -> float:
        """:func:`card_exclusion_share` of a card of this game (memo by card id)."""
        share = self._shares.get(card.id)
        if share is None:
            share = self._shares[card.id] = card_exclusion_share(card.facts)
        return share

    def _split_scores(self, ded: Deduction, accomplice_possible: bool) -> np.ndarray:
        """:func:`split_scores` of the candidates left (memo of the last candidate set: the
        decisions of one inquiry, and the answers to its bids, share it)."""
        mask = ded.candidate_mask()
        key = mask.tobytes()
        if key != self._scores_key or self._scores is None:
            self._scores = split_scores(mask, accomplice_possible)
            self._scores_key = key
        return self._scores

    def _known_key(self, view: Any, seat: int) -> tuple[int, frozenset[int]]:
        """The cards the deducer knows ``seat`` has seen: revealed cards in its notebook and
        hand cards ``seat`` saw."""
        by_id = self._by_id  # (the notebook's cards by id, kept by _sync)
        ids = {cid for cid in view.revealed if cid in by_id}
        ids |= {h.id for h in view.hand if seat in h.seen_by}
        return seat, frozenset(ids)

    def _known_to(self, view: Any, seat: int) -> Deduction | None:
        """What the deducer knows ``seat`` has seen (revealed cards, hand cards it saw), as a
        deduction state; ``None`` for the solo deck (it learns nothing)."""
        if seat < 0:
            return None
        key = self._known_key(view, seat)
        by_id = self._by_id
        ids = key[1]
        ded = self._known_cache.get(key)
        if ded is None:
            ded = Deduction(view.accomplice_possible)
            for cid in sorted(ids):
                ded.add_facts(by_id[cid].facts, validate=False)
            if len(self._known_cache) > 64:
                self._known_cache.clear()
            self._known_cache[key] = ded
        return ded

    def _teaches(self, view: Any, card: Card, seat: int) -> float:
        """Share of ``seat``'s known candidates that ``card`` would rule out (0: nothing new)."""
        if card.id in view.revealed or seat < 0:  # (the solo deck learns nothing)
            return 0.0
        key = (*self._known_key(view, seat), card.id)
        teach = self._teach_cache.get(key)
        if teach is None:
            teach = self._teach_share(view, card, seat)
            if len(self._teach_cache) > TEACH_CACHE_SIZE:
                self._teach_cache.clear()
            self._teach_cache[key] = teach
        return teach

    def _teach_share(self, view: Any, card: Card, seat: int) -> float:
        known = self._known_to(view, seat)  # (a card ``seat`` has seen is in it: teaches 0)
        if known is None:
            return 0.0
        before = known.count()
        if before == 0:
            return 0.0
        after = known.clone()
        after.add_facts(card.facts, validate=False)
        return 1.0 - after.count() / before

    # -- acting ---------------------------------------------------------------------------------

    def act(self, observation: dict[str, np.ndarray], view: Any) -> int:
        legal = tuple(view.legal_actions)
        if not legal:
            raise ValueError("guests.deducer: act() called when it is not this player's decision")
        ded = self._sync(view)
        decision = view.decision
        if decision == "inquiry":
            return self._inquiry(view, ded, legal)
        if decision == "offer":
            return self._offer(view, legal)
        if decision == "answer":
            return self._answer(view, ded, legal)
        if decision == "pay":
            return self._pay(view, legal)
        if decision == "solution":
            return self._solution(view, ded, legal)
        if decision in _ACCUSE_STEP:
            return self._accuse(view, ded, legal, _ACCUSE_STEP[decision])
        if decision == "discard":
            return self._discard(view, legal)
        raise ValueError(f"guests.deducer: unknown decision {decision!r}")  # pragma: no cover

    def _inquiry(self, view: Any, ded: Deduction, legal: tuple[int, ...]) -> int:
        scores = self._split_scores(ded, view.accomplice_possible)
        best, best_score = legal[0], -math.inf
        for a in legal:
            r = a - A.REF_0
            s = scores[r] - REPEAT_PENALTY * self._asked.get(r, 0) + 1e-9 * self.rng.random()
            if s > best_score:
                best, best_score = a, s
        self._asked[best - A.REF_0] = self._asked.get(best - A.REF_0, 0) + 1
        return best

    def _card_actions(self, view: Any, legal: tuple[int, ...]) -> list[tuple[int, Any]]:
        slots = {h.slot: h for h in view.hand}
        return [
            (a, slots[a - A.CARD_0])
            for a in legal
            if A.CARD_0 <= a < A.CARD_0 + A.MAX_HAND and (a - A.CARD_0) in slots
        ]

    def _offer(self, view: Any, legal: tuple[int, ...]) -> int:
        asker = view.active_player
        best, best_ratio = A.NO, math.inf
        for a, h in self._card_actions(view, legal):
            teach = self._teaches(view, h.card, asker)
            ratio = teach / max(self._share(h.card), 1e-9)
            if (teach == 0.0 or ratio < TEACH_RATIO) and ratio < best_ratio:
                best, best_ratio = a, ratio
        return best if best in legal else A.NO

    def _answer(self, view: Any, ded: Deduction, legal: tuple[int, ...]) -> int:
        if A.YES not in legal or ded.count() <= 1:
            return A.NO
        scores = self._split_scores(ded, view.accomplice_possible)
        open_refs = any(scores[A.REFERENCES.index(r)] > 0 for r in view.asked)
        return A.YES if open_refs else A.NO

    def _pay(self, view: Any, legal: tuple[int, ...]) -> int:
        bid = next((b for b in view.bids if b.answering), None)
        receiver = bid.seat if bid is not None else -1
        owed = view.owed
        options = []
        for a, h in self._card_actions(view, legal):
            teach = self._teaches(view, h.card, receiver)
            covers = h.value >= owed
            options.append(((teach, not covers, h.value if covers else -h.value), a))
        return min(options)[1] if options else legal[0]

    def _threatened(self, view: Any) -> bool:
        """``threat`` is on and another player declined every bid of their turn this round."""
        return self.threat > 0 and declined_this_round(view)

    def _log_weights(self, view: Any) -> np.ndarray:
        """:func:`candidate_log_weights` of the notebook (memo per notebook length)."""
        if self._weights_key != len(view.notebook):
            facts = [f for card in view.notebook for f in card.facts]
            self._weights = candidate_log_weights(facts, view.level)
            self._weights_key = len(view.notebook)
        return self._weights

    def likeliest(self, view: Any) -> tuple[list[Solution], float]:
        """The candidates left with the highest :func:`candidate_log_weights` (ties: all of
        them) and the probability of each under those weights (1 with one candidate left)."""
        ded = self._sync(view)
        mask = ded.candidate_mask()
        weights = np.where(mask, self._log_weights(view), -np.inf)
        top = float(weights.max(initial=-np.inf))
        if not mask.any():
            return [], 0.0
        if top == -np.inf:  # (the model rules out every candidate left: weigh them equally)
            weights = np.where(mask, 0.0, -np.inf)
            top = 0.0
        best = np.flatnonzero(weights >= top - LIKELY_TIE)
        chance = 1.0 / float(np.exp(weights[mask] - top).sum())
        sols = candidate_solutions(view.accomplice_possible)
        return [sols[int(i)] for i in best], chance

    def _solution(self, view: Any, ded: Deduction, legal: tuple[int, ...]) -> int:
        count = ded.count()
        threshold = self.threshold if view.round >= self.start else 1.0
        if self._threatened(view):
            threshold = min(threshold, 1.0 / self.threat)
        guess = count >= 1 and 1.0 / count >= threshold - 1e-12
        likeliest: list[Solution] = []
        if count > 1 and (self.odds > 0.0 or (guess and self.pick == "likely")):
            likeliest, chance = self.likeliest(view)
            guess = guess or (self.odds > 0.0 and chance >= self.odds - 1e-12)
        if A.YES in legal and guess:
            cands = ded.candidates()
            if self.pick == "rare":
                cands = rarest_candidates(cands)
            elif self.pick == "likely" and count > 1:
                cands = likeliest  # (computed above: a guess with several candidates left)
            self._target = cands[int(self.rng.integers(len(cands)))]
            return A.YES
        self._target = None
        return A.NO if A.NO in legal else legal[0]

    def _accuse(self, view: Any, ded: Deduction, legal: tuple[int, ...], step: int) -> int:
        if self._target is None:  # (only if act() was not called for the YES)
            cands = ded.candidates() or list(candidate_solutions(view.accomplice_possible))
            self._target = cands[int(self.rng.integers(len(cands)))]
        acts = accusation_actions(self._target, view.accomplice_possible)
        a = acts[step]
        return a if a in legal else legal[0]

    def _discard(self, view: Any, legal: tuple[int, ...]) -> int:
        options = [
            ((h.value, len(h.seen_by), -h.id), a) for a, h in self._card_actions(view, legal)
        ]
        return min(options)[1] if options else legal[0]
