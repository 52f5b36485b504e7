"""Audition feature extractor for the PPO policy: the raw observation plus score arithmetic.

Only soloists (exactly 1) and quartets (exactly 4) score in Audition, so "how many points would
this slot give me / my neighbour" is a sharply non-linear function of the observation that a
small MLP learns slowly. :class:`AuditionFeatures` (an SB3 ``BaseFeaturesExtractor``, saved
inside ``model.zip``) computes it from the observation vector itself — nothing beyond what the
player observes — and appends it to the raw vector:

| features | size | content (points / 5) |
|---|---|---|
| raw observation | ``D`` | unchanged |
| take gains | 6 × 6 | per player (egocentric) × slot: points change if that player took the slot now |
| place gains | 6 × 6 | the same with the observer's drawn card added to the slot (zeros when not placing) |
| choose deltas | 2 × 13 | per number: the observer's points change when losing one; the left neighbour's when receiving one |

Empty seats and slots of smaller tables are zero. The block offsets come from
:mod:`envs.audition.observation` (a test checks these gains against the engine).
"""

from __future__ import annotations

import gymnasium as gym
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

from envs.audition import observation as O
from envs.audition import rules as R

N = R.MAX_NUMBER
P = R.MAX_PLAYERS
SLOT_PRESENT = len(R.SLOT_KINDS)  # offset of the "slot present" flag in a slot block
SLOT_COUNTS = len(R.SLOT_KINDS) + 3  # offset of the musician counts (/4) in a slot block
PLAYER_COLL = 4  # (offset 0 is the "player present" flag) offset of the collection counts (/13) in a player block


def _points(counts: torch.Tensor) -> torch.Tensor:
    """Points per number of integer-valued counts: 1 → 1, 4 → 5, else 0."""
    return (counts == 1).float() + 5.0 * (counts == 4).float()


class AuditionFeatures(BaseFeaturesExtractor):
    """Raw observation + take / place / choose score arithmetic (see the module docstring)."""

    def __init__(self, observation_space: gym.spaces.Box) -> None:
        layout = O.make_layout()
        size = O.layout_size(layout)
        if observation_space.shape[0] < size:
            raise ValueError(
                f"AuditionFeatures: observation of {observation_space.shape[0]} < {size}"
            )
        super().__init__(observation_space, observation_space.shape[0] + 2 * P * P + 2 * N)
        self.slots = layout["slots"]
        self.players = layout["players"]
        self.drawn = layout["drawn_card"]

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        b = obs.shape[0]
        slots = obs[:, self.slots].reshape(b, P, O.N_SLOT_FEATURES)
        slot_counts = torch.round(slots[:, :, SLOT_COUNTS : SLOT_COUNTS + N] * 4.0)  # (b, 6, 13)
        players = obs[:, self.players].reshape(b, P, O.N_PLAYER_FEATURES)
        coll = torch.round(players[:, :, PLAYER_COLL : PLAYER_COLL + N] * 13.0)  # (b, 6, 13)
        drawn = torch.round(obs[:, self.drawn])  # (b, 13) one-hot or zeros

        base = _points(coll).sum(-1)  # (b, 6)
        present = (
            players[:, :, 0, None] * slots[:, None, :, SLOT_PRESENT]
        )  # (b, 6 players, 6 slots)
        take = _points(coll[:, :, None, :] + slot_counts[:, None, :, :]).sum(-1) - base[:, :, None]
        placed = slot_counts + drawn[:, None, :]
        place = _points(coll[:, :, None, :] + placed[:, None, :, :]).sum(-1) - base[:, :, None]
        take = take * present
        place = place * present * drawn.sum(-1)[:, None, None]  # only while placing
        me, left = coll[:, 0, :], coll[:, 1, :]
        lose = (_points(me - 1) - _points(me)) * (me > 0).float()
        give = _points(left + 1) - _points(left)
        feats = torch.cat([take.reshape(b, -1), place.reshape(b, -1), lose, give], dim=1) / 5.0
        return torch.cat([obs, feats], dim=1)
