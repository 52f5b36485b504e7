"""Vectorized Audition players for the batched engine (:mod:`parlour.envs.audition.batched`).

Each decides for many games at once, and each makes exactly the decision of its scalar
counterpart on the same state (``tests/agents/test_audition_batched_agents.py``):

| function | scalar counterpart | reads |
|---|---|---|
| :func:`random_actions` | ``random`` (uniform over the legal actions) | the masks |
| :func:`greedy_actions` | ``audition.greedy`` (:func:`parlour.games.audition.greedy.greedy_action`) | the acting player's view: collections, slots, taken flags, its own drawn card, the pending slot and choice |
| :func:`policy_actions` | ``ppo:PATH[:sample]`` (:class:`parlour.agents.ppo.PPOAgent`) | the observations and masks (one forward pass for the batch) |

``random`` draws from a ``np.random.Generator`` of the caller's (not the scalar agent's stream:
the same distribution, not the same draws).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parlour.agents.ppo import policy_logits
from parlour.envs.audition import rules as R
from parlour.envs.audition.batched import PTS, BatchedAudition

#: a value below every real gain (an illegal choice)
_NEG = -(10**6)


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly drawn legal action per row of ``mask`` (``(m, A)`` bool, no empty row)."""
    counts = mask.sum(axis=1)
    if (counts == 0).any():
        raise ValueError("random_actions: a row of the mask has no legal action")
    k = (rng.random(len(mask)) * counts).astype(np.int64)  # the k-th legal action, 0-based
    return (np.cumsum(mask, axis=1) > k[:, None]).argmax(axis=1)


#: ``_GAIN[c * _COUNTS + x]``: the points change of ``c`` cards of a number when ``x`` more come
#: (one look-up instead of two; counts whose sum no collection reaches are 0)
_COUNTS = len(PTS)
_GAIN = np.array(
    [PTS[c + x] - PTS[c] if c + x < _COUNTS else 0 for c in range(_COUNTS) for x in range(_COUNTS)],
    np.int16,
)


def _gains(coll: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """Score change of collections ``coll (..., 14)`` when ``cards (..., 14)`` are added."""
    return _GAIN[coll * _COUNTS + cards].sum(axis=-1, dtype=np.int64)


def greedy_actions(eng: BatchedAudition, games: np.ndarray) -> np.ndarray:
    """``audition.greedy``'s decision for the player to act in each of ``games``."""
    g = np.asarray(games, np.int64)
    out = np.zeros(len(g), np.int64)
    if len(g) == 0:
        return out
    n = eng.n
    mask = eng.legal_mask()[g]
    me, ph = eng.current[g], eng.phase[g]
    mine = eng.coll[g, me]  # (m, 14)
    take_gain = np.zeros((len(g), n), np.int64)  # (m, n): needed to take (turn, final, take_now)
    takes = np.flatnonzero((ph == R.PH_TURN) | (ph == R.PH_FINAL) | (ph == R.PH_TAKE_NOW))
    take_gain[takes] = _gains(mine[takes, None, :], eng.slots[g[takes]])

    turn = (ph == R.PH_TURN) | (ph == R.PH_FINAL)
    t = np.flatnonzero(turn)
    if len(t):
        val = np.where(mask[t, :n], take_gain[t], _NEG)
        best = val.argmax(axis=1)
        best_gain = val[np.arange(len(t)), best]
        has = mask[t, :n].any(axis=1)
        final = ph[t] == R.PH_FINAL
        draw_ok = mask[t, R.DRAW]
        pick = np.where(has & ((best_gain > 0) | ~draw_ok), best, R.DRAW)
        pick_final = np.where(has & (best_gain >= 0), best, R.PASS)
        out[t] = np.where(final, pick_final, pick)

    p = np.flatnonzero(ph == R.PH_PLACE)
    if len(p):
        taken = eng.taken[g[p]]
        order = (me[p, None] + 1 + np.arange(n - 1)) % n  # the other seats after me
        free = ~taken[np.arange(len(p))[:, None], order]
        nxt = order[np.arange(len(p)), free.argmax(axis=1)]
        cards = eng.slots[g[p]]  # (a copy)
        cards[np.arange(len(p)), :, eng.drawn[g[p]]] += 1
        val = _gains(mine[p][:, None, :], cards)
        nxt_coll = eng.coll[g[p], nxt]
        val = val - np.where(free.any(axis=1)[:, None], _gains(nxt_coll[:, None, :], cards), 0)
        val = np.where(mask[p, R.PLACE_0 : R.PLACE_0 + n], val, _NEG)
        out[p] = R.PLACE_0 + val.argmax(axis=1)

    tn = np.flatnonzero(ph == R.PH_TAKE_NOW)
    if len(tn):
        s = eng.pending[g[tn]]
        out[tn] = np.where(take_gain[tn, s] > 0, R.TAKE_0 + s, R.PASS)

    c = np.flatnonzero(np.isin(ph, (R.PH_PASS_LEFT, R.PH_DISCARD_ONE, R.PH_DISCARD_OWN)))
    if len(c):
        m = mine[c, 1:]
        val = PTS[np.maximum(m - 1, 0)].astype(np.int64) - PTS[m]
        left = eng.coll[g[c], (me[c] + 1) % n, 1:]
        passing = (ph[c] == R.PH_PASS_LEFT)[:, None]
        val = val - np.where(passing, PTS[left + 1] - PTS[left], 0)
        val = np.where(mask[c, R.CHOOSE_0 + 1 :], val, _NEG)
        best = val.argmax(axis=1)
        best_val = val[np.arange(len(c)), best]
        own_pass = (ph[c] == R.PH_DISCARD_OWN) & (best_val <= 0)
        out[c] = np.where(own_pass, R.PASS, R.CHOOSE_0 + 1 + best)
    return out


def policy_actions(
    policy: Any,
    obs: np.ndarray,
    mask: np.ndarray,
    rng: np.random.Generator | None = None,
) -> np.ndarray:
    """The policy's argmax action per row, or (with ``rng``) one drawn from its distribution."""
    logits = policy_logits(policy, obs, mask)
    if rng is None:
        return logits.argmax(axis=1)
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    cdf = np.cumsum(p, axis=1)
    u = rng.random(len(p))[:, None] * cdf[:, -1:]
    pick = (cdf > u).argmax(axis=1)
    return np.where(mask[np.arange(len(p)), pick], pick, logits.argmax(axis=1))
