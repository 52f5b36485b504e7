"""Audition's training part: ``AuditionFeatures``, the PPO features extractor (torch).

PPO features
------------

Only soloists (exactly 1) and quartets (exactly 4) score in Audition, so "how many points would
this slot give me / my neighbour" is a sharply non-linear function of the observation that a
small MLP learns slowly. ``AuditionFeatures`` (an SB3 ``BaseFeaturesExtractor``, named with its
options in the model file) computes it from the observation vector itself — nothing beyond what
the player observes — and appends it to the raw vector:

| features | size | content (points / 5) |
|---|---|---|
| raw observation | ``D`` | unchanged |
| take gains | 6 × 6 | per player (egocentric) × slot: points change if that player took the slot now |
| place gains | 6 × 6 | the same with the observer's drawn card added to the slot (zeros when not placing) |
| choose deltas | 2 × 13 | per number: the observer's points change when losing one; the left neighbour's when receiving one |
| count indicators (``count_indicators=True`` only) | 6 × 13 × 5 | per player (egocentric) × number: 1 if the collection holds exactly 1, 2, 3, 4 / 5 or more cards of it (0 or 1, not divided) |

The count indicators are an option of the extractor
(``ppo.features_extractor_kwargs: {count_indicators: true}`` in a training config; saved with
the model, off by default so that models trained without them load unchanged): the raw vector
holds each count as ``count / 13``, from which "exactly 1" and "exactly 4" are bumps an MLP has
to carve out per number and player. As indicators they are inputs the first layer reads
directly; ``configs/audition_2p.yaml`` (``make run``) uses them (measured in
``docs/fast_training.md``, "Sixth round").

Empty seats and slots of smaller tables are zero (the gains are computed only over the seats and
slots some observation of the batch has: at 2 players 2 × 2 of the padded 6 × 6). The extractor
reads the observation through its named views
(:class:`parlour.envs.audition.observation.ObservationView`: pieces and the fields of a slot /
player row, no offsets); a test checks these gains against the engine.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

from parlour.envs.audition import observation as O
from parlour.envs.audition import rules as R

#: the feature values are points divided by this (a quartet's points)
POINTS_SCALE = float(R.QUARTET_POINTS)


#: ``count_indicators``: per player and number, 1 when the collection's count lies in
#: ``[low, high]`` (``high`` None: no upper end) — exactly 1 (a soloist), 2, 3, exactly 4 (a
#: quartet), 5 or more (scores nothing for the rest of the game)
COUNT_INDICATORS: tuple[tuple[int, int | None], ...] = (
    (1, 1),
    (2, 2),
    (3, 3),
    (R.QUARTET_SIZE, R.QUARTET_SIZE),
    (R.QUARTET_SIZE + 1, None),
)


def _points(counts: Any) -> Any:
    """Points per number of integer-valued counts (a torch tensor): soloists and quartets."""
    return (
        R.SOLOIST_POINTS * (counts == 1).float()
        + R.QUARTET_POINTS * (counts == R.QUARTET_SIZE).float()
    )


def _rows_used(present: Any) -> int:
    """1 + the last row (seat or slot) present in any observation of a ``(batch, rows)`` 0/1
    tensor; 0 for none."""
    if present.shape[0] == 0:
        return 0
    rows = present.amax(0).nonzero()
    return int(rows[-1, 0]) + 1 if rows.numel() else 0


_PIECES = O.pieces()
#: the padded seat and slot rows and the card numbers of the observation
SEATS, SLOTS = _PIECES["players"].shape[0], _PIECES["slots"].shape[0]
NUMBERS = _PIECES["drawn_card"].shape[0]


class AuditionFeatures(BaseFeaturesExtractor):
    """Raw observation + take / place / choose score arithmetic (see the module docstring)."""

    def __init__(self, observation_space: gym.spaces.Box, count_indicators: bool = False) -> None:
        size = O.layout_size(O.make_layout())
        if observation_space.shape[0] < size:
            raise ValueError(
                f"AuditionFeatures: observation of {observation_space.shape[0]} < {size}"
            )
        if not isinstance(count_indicators, bool):
            raise ValueError(
                f"AuditionFeatures: count_indicators must be true or false, "
                f"got {count_indicators!r}"
            )
        extra = 2 * SEATS * SLOTS + 2 * NUMBERS
        if count_indicators:
            extra += SEATS * NUMBERS * len(COUNT_INDICATORS)
        super().__init__(observation_space, observation_space.shape[0] + extra)
        self.count_indicators = count_indicators

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        b = obs.shape[0]
        view = O.ObservationView(obs)
        seat_present = view.field("players", "present")  # (b, seats)
        slot_present = view.field("slots", "present")  # (b, slots)
        # take / place gains only over the rows some observation of the batch has (a 2p
        # batch: 2 of 6 seats, 2 of 6 slots); the rest stay +0.0 (the padded computation's
        # gain times an absent row's 0 gave ±0.0 there)
        ns, nl = _rows_used(seat_present), _rows_used(slot_present)
        slot_counts = view.counts("slots", "musicians")[:, :nl]  # (b, nl, numbers)
        coll = view.counts("players", "collection")  # (b, SEATS, NUMBERS)
        drawn = view["drawn_card"].round()  # (b, numbers) one-hot or zeros
        held = coll[:, :ns]
        base = _points(held).sum(-1)[:, :, None]  # (b, ns, 1)
        present = seat_present[:, :ns, None] * slot_present[:, None, :nl]  # (b, ns, nl)
        take = obs.new_zeros(b, SEATS, SLOTS)
        place = obs.new_zeros(b, SEATS, SLOTS)
        gain = _points(held[:, :, None, :] + slot_counts[:, None, :, :]).sum(-1)
        take[:, :ns, :nl] = (gain - base) * present
        placed = slot_counts + drawn[:, None, :]
        gain = _points(held[:, :, None, :] + placed[:, None, :, :]).sum(-1)
        place[:, :ns, :nl] = (gain - base) * present * drawn.sum(-1)[:, None, None]
        me, left = coll[:, 0, :], coll[:, 1, :]
        lose = (_points(me - 1) - _points(me)) * (me > 0).float()
        give = _points(left + 1) - _points(left)
        feats = torch.cat(
            [take.reshape(b, SEATS * SLOTS), place.reshape(b, SEATS * SLOTS), lose, give], 1
        )
        if not self.count_indicators:
            return torch.cat([obs, feats / POINTS_SCALE], dim=1)
        indicators = obs.new_zeros(b, SEATS, NUMBERS, len(COUNT_INDICATORS))
        for k, (low, high) in enumerate(COUNT_INDICATORS):
            inside = held >= low if high is None else (held >= low) & (held <= high)
            indicators[:, :ns, :, k] = inside.float()
        return torch.cat([obs, feats / POINTS_SCALE, indicators.reshape(b, -1)], dim=1)
