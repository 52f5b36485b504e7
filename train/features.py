"""Feature extractors for the PPO policy: the raw observation plus what a small MLP learns slowly.

* :class:`AuditionFeatures` — Audition score arithmetic (below).
* :class:`GuestsFeatures` — Awkward Guests: which accusation parts the observation's own
  deduction allows, per action, and whether exactly one candidate is left (its docstring).
* :class:`GuestsPolicy` — the MaskablePPO policy used with it: the action logits add one shared,
  learned weight times those per-action features (its docstring).

Audition
--------

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
:mod:`parlour.envs.audition.observation` (a test checks these gains against the engine).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

from parlour.envs.audition import observation as O
from parlour.envs.audition import rules as R

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


#: scale of GuestsFeatures' action-aligned features. Adam moves each weight by about the learning
#: rate per update whatever its gradient, and each action has its own weight on its own feature
#: (seen in a few of the rare accusations), so at scale 1 a logit would need thousands of
#: updates to follow it. Measured on solo easy: the learner named a part its deduction allows
#: with probability 0.23 at scale 4 (40k steps, batch 256), 0.28 at scale 20 (60k, batch 256)
#: and 0.51 at scale 100 (60k, batch 128; 0.58 at 150k); random naming: 0.18.
PRIOR_SCALE = 100.0


class GuestsFeatures(BaseFeaturesExtractor):
    """Awkward Guests: action-aligned deduction features, "wide and deep".

    Naming the parts of an accusation is a lookup in the observation's ``deduced_*`` blocks
    (name a murderer they allow, …), and whether to accuse a test of ``deduced_count``, but a
    network has to learn 44 such lookups, gated by the pending decision, from accusations that
    are right once in hundreds. Like :class:`AuditionFeatures`, this computes them from the
    observation itself (nothing the player does not see):

    | features | size | content |
    |---|---|---|
    | raw observation | ``D`` | unchanged |
    | allowed | 95 | per action: 1 when the pending decision names a part of an accusation and the deduction still allows that part (suspects, motives, weapons, no accomplice) |
    | solution | 2 | deciding whether to accuse: exactly one candidate left / more than one |

    The output is ``[raw, PRIOR_SCALE · (allowed, solution), MLP(raw, allowed, solution)]``
    (MLP: two tanh layers of 256). Use it with ``ppo.net_arch: []``: the policy and value heads
    are then linear in it, so an action's logit can follow its own ``allowed`` feature with one
    weight (scaled so that a few hundred updates suffice) while the MLP learns the rest, and
    :class:`GuestsPolicy` (the "guests" game's policy in :mod:`parlour.train.games`) adds one weight
    shared by all actions on the same features.

    With ``observation_mode="notebook"`` there are no ``deduced_*`` blocks to read: the output
    is ``[raw, MLP(raw)]``.
    """

    def __init__(self, observation_space: gym.spaces.Box, hidden: tuple[int, ...] = (256, 256)):
        from parlour.envs.awkward_guests import actions as GA
        from parlour.envs.awkward_guests import game as GG
        from parlour.envs.awkward_guests import observation as GO

        layout = GO.make_layout("deduced")
        n = int(observation_space.shape[0])
        sizes = {GO.layout_size(GO.make_layout(m)): m for m in GO.OBSERVATION_MODES}
        if n not in sizes:
            raise ValueError(
                f"GuestsFeatures: an observation of {n} floats is not an Awkward Guests "
                f"observation ({sizes})"
            )
        self.deduced = sizes[n] == "deduced"
        extra = GA.NUM_ACTIONS + 2 if self.deduced else 0
        super().__init__(observation_space, n + extra + hidden[-1])
        #: columns of the output holding ``PRIOR_SCALE · allowed`` (one per action), for
        #: :class:`GuestsPolicy`; None without ``deduced_*`` blocks
        self.prior_slice = slice(n, n + GA.NUM_ACTIONS) if self.deduced else None
        if self.deduced:  # allowed = (decision one-hot, deduced bits) -> 95 by a fixed 0/1 tensor
            dec = layout["pending_decision"]
            ded = slice(
                layout["deduced_murderers"].start, layout["deduced_accomplice_motives"].stop
            )
            blocks = {
                GG.D_MURDERER: ("deduced_murderers", GA.SUSPECT_0, 6),
                GG.D_MOTIVE: ("deduced_motives", GA.MOTIVE_0, 18),
                GG.D_WEAPON: ("deduced_weapons", GA.WEAPON_0, 20),
                GG.D_ACCOMPLICE: ("deduced_accomplices", GA.SUSPECT_0, 6),
                GG.D_ACC_MOTIVE: ("deduced_accomplice_motives", GA.MOTIVE_0, 18),
            }
            gate = torch.zeros(dec.stop - dec.start, ded.stop - ded.start, GA.NUM_ACTIONS)
            for d, (name, first, size) in blocks.items():
                start = layout[name].start - ded.start
                for i in range(size):
                    gate[d, start + i, first + i] = 1.0
            none = layout["deduced_accomplices"].start - ded.start + 6
            gate[GG.D_ACCOMPLICE, none, GA.NO_ACCOMPLICE] = 1.0
            self.register_buffer("gate", gate)
            self.dec, self.ded = dec, ded
            self.solution = GG.D_SOLUTION
            self.count = layout["deduced_count"].start
        layers: list[torch.nn.Module] = []
        last = n + extra
        for h in hidden:
            layers += [torch.nn.Linear(last, h), torch.nn.Tanh()]
            last = h
        self.mlp = torch.nn.Sequential(*layers)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        if not self.deduced:
            return torch.cat([obs, self.mlp(obs)], dim=1)
        dec = obs[:, self.dec]
        allowed = torch.einsum("bd,bk,dka->ba", dec, obs[:, self.ded], self.gate)
        deciding = dec[:, self.solution : self.solution + 1]
        certain = (obs[:, self.count : self.count + 1] == 0).float()
        extra = torch.cat([allowed, deciding * certain, deciding * (1 - certain)], dim=1)
        return torch.cat([obs, PRIOR_SCALE * extra, self.mlp(torch.cat([obs, extra], 1))], 1)


class PriorHead(torch.nn.Module):
    """Action logits ``linear(latent) + w · latent[prior]``: ``w`` is one learned scalar shared by
    every action (initialised to 0), ``latent[prior]`` one feature per action."""

    def __init__(self, linear: torch.nn.Linear, prior: slice) -> None:
        super().__init__()
        if prior.stop - prior.start != linear.out_features:
            raise ValueError(f"PriorHead: {prior} is not one column per action")
        self.linear = linear
        self.start, self.stop = prior.start, prior.stop
        self.prior_weight = torch.nn.Parameter(torch.zeros(()))

    def forward(self, latent: torch.Tensor) -> torch.Tensor:
        return self.linear(latent) + self.prior_weight * latent[:, self.start : self.stop]


def _maskable_policy() -> type:
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    return MaskableActorCriticPolicy


class GuestsPolicy(_maskable_policy()):  # type: ignore[misc]
    """MaskablePPO policy for Awkward Guests: :class:`PriorHead` on :class:`GuestsFeatures`.

    With :class:`GuestsFeatures` alone, each of the 44 accusation-naming actions follows its
    ``allowed`` feature through its own weight, which only the rare accusations of that very part
    train (measured: the learner named an allowed part with probability 0.51 after 60k steps,
    0.58 after 150k, random naming 0.18; most of its accusations were wrong). Here the action
    logits also get ``w · PRIOR_SCALE · allowed[a]`` with one weight ``w`` shared by every action,
    so every accusation, of any part, teaches all of them at once. ``w`` starts at 0 — the
    network starts with no preference for allowed parts and learns it from the reward like any
    other weight (nothing is masked: naming an excluded part stays legal).

    Only with ``ppo.net_arch: []`` (the heads read the extractor's output directly) and the
    ``deduced`` observation; otherwise it is the plain MaskablePPO policy.
    """

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        prior = getattr(self.features_extractor, "prior_slice", None)
        if prior is None or len(self.mlp_extractor.policy_net) != 0:
            return
        self.action_net = PriorHead(self.action_net, prior)
        self.optimizer = self.optimizer_class(
            self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs
        )
