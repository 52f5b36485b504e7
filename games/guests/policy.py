"""Awkward Guests PPO features and policy (torch): ``GuestsFeatures``, ``PriorHead``,
``GuestsPolicy``.

The training part of the Awkward Guests plug-in (``Training.features_extractor`` and
``Training.policy`` name ``parlour.games.guests.policy:GuestsFeatures`` and ``:GuestsPolicy``):
this module imports torch, and only training loads it — ``parlour play`` and ``parlour eval``
never do. Each class is built by a ``build_*`` function (they close over the sizes of the
observation) and kept at module level under its own name. The docstrings of the three classes are
the documentation: which features, why action-aligned, and what ``PriorHead`` adds.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests.case.board import WALTON
from parlour.envs.awkward_guests.solution_blocks import NUM_CANDIDATES

#: scale of GuestsFeatures' action-aligned features. Adam moves each weight by about the learning
#: rate per update whatever its gradient, and each action has its own weight on its own feature
#: (seen in a few of the rare accusations), so at scale 1 a logit would need thousands of
#: updates to follow it. Measured on solo easy: the learner named a part its deduction allows
#: with probability 0.23 at scale 4 (40k steps, batch 256), 0.28 at scale 20 (60k, batch 256)
#: and 0.51 at scale 100 (60k, batch 128; 0.58 at 150k); random naming: 0.18.
PRIOR_SCALE = 100.0
#: the hidden layers of GuestsFeatures' own MLP
FEATURES_HIDDEN = (256, 256)
#: GuestsFeatures' per-decision flags besides the per-action ones: exactly one candidate left,
#: more than one (both 0 unless deciding whether to accuse)
N_SOLUTION_FLAGS = 2
#: GuestsFeatures' per-hand-card features with ``observation_mode="deduced_choices"`` (one row of
#: 32 per feature, aligned with the card actions; all 0 unless the learner is offering or paying)
CARD_FEATURES = ("teach", "teach_per_share", "teaches_nothing", "covers_owed", "value")
#: ``teach_per_share`` is ``hand_teach / hand_share`` clipped to this
TEACH_PER_SHARE_CAP = 1.0
#: GuestsFeatures' timing features (``timing=True``; 0 unless deciding whether to accuse): the
#: round (``round / max_rounds``), and the round times the chance that a guess is right
N_TIMING_FEATURES = 2
#: GuestsFeatures' threat features (``threat=True``; 0 unless deciding whether to accuse):
#: another player still in declined every bid of their turn this round, and that times the
#: chance that a guess is right
N_THREAT_FEATURES = 2
#: GuestsFeatures' odds features (``observation_mode="deduced_odds"``; 0 unless deciding whether
#: to accuse): the chance of the likeliest candidate left (the largest ``accusation_odds``), and
#: "another player declined every bid" times the log-scaled count of candidates left
N_ODDS_FEATURES = 2
#: ``accusation_odds`` entries within this of the largest count as the likeliest (``likely``)
LIKELY_TOLERANCE = 1e-6


def allowed_gate(layout: Mapping[str, slice], prefix: str = "deduced") -> np.ndarray:
    """The 0/1 tensor ``gate[decision, bit, action]`` behind GuestsFeatures' per-action
    ``allowed`` features: an action naming a part of an accusation is allowed at its decision
    when that part's bit is set in the ``{prefix}_*`` blocks (``deduced``: each part on its own;
    ``accusation``: given the parts named so far). Sizes come from the board definition."""
    suspects, motives, weapons = len(WALTON.suspects), len(WALTON.motives), len(WALTON.weapons)
    dec = layout["pending_decision"]
    first = layout[f"{prefix}_murderers"].start
    size = layout[f"{prefix}_accomplice_motives"].stop - first
    parts = {
        G.D_MURDERER: ("murderers", A.SUSPECT_0, suspects),
        G.D_MOTIVE: ("motives", A.MOTIVE_0, motives),
        G.D_WEAPON: ("weapons", A.WEAPON_0, weapons),
        G.D_ACCOMPLICE: ("accomplices", A.SUSPECT_0, suspects),
        G.D_ACC_MOTIVE: ("accomplice_motives", A.MOTIVE_0, motives),
    }
    gate = np.zeros((dec.stop - dec.start, size, A.NUM_ACTIONS), np.float32)
    for decision, (name, action_0, count) in parts.items():
        start = layout[f"{prefix}_{name}"].start - first
        for i in range(count):
            gate[decision, start + i, action_0 + i] = 1.0
    none = layout[f"{prefix}_accomplices"].start - first + suspects  # "no accomplice"
    gate[G.D_ACCOMPLICE, none, A.NO_ACCOMPLICE] = 1.0
    return gate


def build_features() -> type:
    import gymnasium as gym
    import torch
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

    from parlour.envs.awkward_guests import observation as GO

    class GuestsFeatures(BaseFeaturesExtractor):
        """Awkward Guests: action-aligned deduction features, "wide and deep".

        Naming the parts of an accusation is a lookup in the observation's ``deduced_*``
        blocks (name a murderer they allow, …), and whether to accuse a test of
        ``deduced_count``, but a network has to learn 44 such lookups, gated by the pending
        decision, from accusations that are right once in hundreds. Like ``AuditionFeatures``,
        this computes them from the observation itself (nothing the player does not see):

        | features | size | content |
        |---|---|---|
        | raw observation | ``D`` | unchanged |
        | allowed | 95 | per action: 1 when the pending decision names a part of an accusation and the deduction still allows that part (suspects, motives, weapons, no accomplice; :func:`allowed_gate`) |
        | solution | 2 | deciding whether to accuse: exactly one candidate left / more than one |

        The output is ``[raw, PRIOR_SCALE · (allowed, solution), MLP(raw, allowed, solution)]``
        (MLP: :data:`FEATURES_HIDDEN`, tanh). Use it with ``ppo.net_arch: []``: the policy and
        value heads are then linear in it, so an action's logit can follow its own ``allowed``
        feature with one weight (scaled so that a few hundred updates suffice) while the MLP
        learns the rest, and ``GuestsPolicy`` adds one weight shared by all actions on the same
        features. With ``observation_mode="notebook"`` there are no ``deduced_*`` blocks to
        read: the output is ``[raw, MLP(raw)]``.

        With ``observation_mode="deduced_choices"``, ``allowed`` reads the ``accusation_*``
        blocks instead (what the candidates left allow *given the parts already named*, so that
        a guess names one candidate, not a mix of two), ``solution`` gains a third feature, the
        chance that a guess is right (``1 / candidates``, from ``deduced_count``), and it reads
        ``hand_share`` / ``hand_teach`` (:mod:`parlour.envs.awkward_guests.teach`) into
        :data:`CARD_FEATURES`, one row of 32 aligned with the card actions, on the learner's own
        ``offer`` or ``pay`` decision (all 0 otherwise):

        | card feature | per hand slot |
        |---|---|
        | ``teach`` | ``hand_teach``: the share of the counterpart's known candidates the card would rule out |
        | ``teach_per_share`` | ``hand_teach / hand_share``, clipped to :data:`TEACH_PER_SHARE_CAP`: what it teaches for what its face is worth |
        | ``teaches_nothing`` | 1 for a card in hand that teaches the counterpart nothing |
        | ``covers_owed`` | paying: the card's value alone covers what is still owed |
        | ``value`` | the card's value / 3 |

        The output is then ``[raw, PRIOR_SCALE · (allowed, solution, cards), MLP(all of them)]``
        and ``GuestsPolicy`` adds one shared weight per card feature to the card actions' logits.

        With ``timing=True`` (``ppo.features_extractor_kwargs: {timing: true}``; only with
        ``deduced_choices``), ``solution`` gains :data:`N_TIMING_FEATURES` more, so that the
        linear heads can make *when* to guess depend on the round: a guess between two
        candidates pays late in a 4-player race and loses early, and a network that must find
        the product of "round" and "chance" in its MLP did not learn that from imitation
        (docs/guests_training.md, issue 34):

        | timing feature | content (0 unless deciding whether to accuse) |
        |---|---|
        | ``round`` | the observation's ``round`` (round / max_rounds) |
        | ``round_chance`` | that round times the chance that a guess is right (``1 / candidates``) |

        With ``threat=True`` (``ppo.features_extractor_kwargs: {threat: true}``; only with
        ``deduced_choices``; after the timing features when both are on), ``solution`` gains
        :data:`N_THREAT_FEATURES` more, read from the public record of the last turns: another
        player declined every bid of their turn this round. A deducer declines a bid it can pay
        for only with one candidate left, and then accuses rightly in this Solution phase, so a
        player who waits has lost (``guests.deducer:threat=K``, docs/guests_training.md, issue
        34):

        | threat feature | content (0 unless deciding whether to accuse) |
        |---|---|
        | ``declined`` | 1 when another seat still in (``players``: present, not out) declined every bid of its ``last_turns`` record (at least one made, none accepted); at the Solution phase every seat still in has had its turn this round, so its record is this round's |
        | ``declined_chance`` | ``declined`` times the chance that a guess is right (``1 / candidates``): with a bias on ``declined``, "guess with at most K candidates left" is one weighted sum |

        With ``observation_mode="deduced_shares"`` (``deduced_choices`` plus the
        ``accusation_shares`` block), the output gains one more per-action block after those,
        ``rare``: on a decision naming a part of an accusation, ``allowed · (1 − share)`` per
        action, where ``share`` is the share of the candidates left (matching the parts named so
        far) that make that choice, so that the linear heads can name the rarest choice, as
        ``guests.deducer:pick=rare`` does (in generated cases a guess is right more often then;
        docs/guests_training.md). ``GuestsPolicy`` gives it one weight shared by every action,
        like ``allowed``.

        With ``observation_mode="deduced_odds"`` (``deduced_shares`` plus the
        ``accusation_odds`` block: the chance, under the case generator's odds, of the
        likeliest candidate left making each choice), the output gains, after ``rare``,
        :data:`N_ODDS_FEATURES` solution features and one more per-action block, ``likely``, so
        that the linear heads can accuse when a candidate is likely enough and name it, as
        ``guests.deducer:odds=Q,pick=likely`` does (docs/guests_training.md, "4 players,
        medium: the generator's odds"):

        | odds feature | content |
        |---|---|
        | ``top`` | deciding whether to accuse: the chance of the likeliest candidate left |
        | ``declined_count`` | deciding whether to accuse: ``declined`` (as the threat feature) times ``deduced_count`` (the log-scaled count of candidates left), so that "another player declined every bid and at most K candidates are left" is one weighted sum |
        | ``likely`` (per action) | naming a part: ``allowed`` where the action's ``accusation_odds`` is the largest (ties: all of them) |

        ``GuestsPolicy`` gives ``likely`` one weight shared by every action, like ``rare``.

        Models saved without the options read the same features as before.
        """

        def __init__(
            self,
            observation_space: gym.spaces.Box,
            hidden: tuple[int, ...] = FEATURES_HIDDEN,
            timing: bool = False,
            threat: bool = False,
        ) -> None:
            for name, flag in (("timing", timing), ("threat", threat)):
                if not isinstance(flag, bool):
                    raise ValueError(f"GuestsFeatures: {name} must be true or false, got {flag!r}")
            n = int(observation_space.shape[0])
            sizes = {GO.layout_size(GO.make_layout(m)): m for m in GO.OBSERVATION_MODES}
            if n not in sizes:
                raise ValueError(
                    f"GuestsFeatures: an observation of {n} floats is not an Awkward Guests "
                    f"observation ({sizes})"
                )
            mode = sizes[n]
            self.deduced = mode in GO.DEDUCED_MODES
            self.choices = mode in GO.CHOICE_MODES
            #: whether the output holds the per-action ``rare`` features (``deduced_shares``)
            self.shares = mode in GO.SHARE_MODES
            #: whether the output holds the odds features (``deduced_odds``)
            self.odds = mode == "deduced_odds"
            extra = A.NUM_ACTIONS + N_SOLUTION_FLAGS if self.deduced else 0
            extra += 1 if self.choices else 0  # (the guess's chance: 1 / candidates)
            for name, flag in (("timing", timing), ("threat", threat)):
                if flag and not self.choices:
                    raise ValueError(
                        f"GuestsFeatures: {name} needs observation_mode one of "
                        f"{list(GO.CHOICE_MODES)}, not {mode!r}"
                    )
            #: whether the output holds the timing features (``timing=True``)
            self.timing = timing
            #: columns of the output holding ``PRIOR_SCALE · timing features``; None without
            self.timing_slice = slice(n + extra, n + extra + N_TIMING_FEATURES) if timing else None
            extra += N_TIMING_FEATURES if timing else 0
            #: whether the output holds the threat features (``threat=True``)
            self.threat = threat
            #: columns of the output holding ``PRIOR_SCALE · threat features``; None without
            self.threat_slice = slice(n + extra, n + extra + N_THREAT_FEATURES) if threat else None
            extra += N_THREAT_FEATURES if threat else 0
            #: columns of the output holding ``PRIOR_SCALE · rare`` (one per action); None
            #: without ``deduced_shares``
            self.rare_slice = slice(n + extra, n + extra + A.NUM_ACTIONS) if self.shares else None
            extra += A.NUM_ACTIONS if self.shares else 0
            #: columns holding ``PRIOR_SCALE · odds features``; None without ``deduced_odds``
            self.odds_slice = slice(n + extra, n + extra + N_ODDS_FEATURES) if self.odds else None
            extra += N_ODDS_FEATURES if self.odds else 0
            #: columns holding ``PRIOR_SCALE · likely`` (one per action); None without
            self.likely_slice = slice(n + extra, n + extra + A.NUM_ACTIONS) if self.odds else None
            extra += A.NUM_ACTIONS if self.odds else 0
            cards = len(CARD_FEATURES) * GO.N_SLOTS if self.choices else 0
            super().__init__(observation_space, n + extra + cards + hidden[-1])
            #: columns of the output holding ``PRIOR_SCALE · allowed`` (one per action), for
            #: GuestsPolicy; None without ``deduced_*`` blocks
            self.prior_slice = slice(n, n + A.NUM_ACTIONS) if self.deduced else None
            #: columns of the output holding ``PRIOR_SCALE · card features`` (feature-major,
            #: ``len(CARD_FEATURES)`` rows of one column per hand slot); None without them
            self.card_slice = slice(n + extra, n + extra + cards) if self.choices else None
            layout = GO.make_layout(mode)
            if self.deduced:  # allowed = (decision one-hot, bits) by a fixed 0/1 tensor
                prefix = "accusation" if self.choices else "deduced"
                self.register_buffer("gate", torch.as_tensor(allowed_gate(layout, prefix)))
                self.dec = layout["pending_decision"]
                self.ded = slice(
                    layout[f"{prefix}_murderers"].start, layout[f"{prefix}_accomplice_motives"].stop
                )
                self.solution = G.D_SOLUTION
                self.count = layout["deduced_count"].start
                self.round = layout["round"].start
                self.players = layout["players"]
                self.last_turns = layout["last_turns"]
            if self.shares:
                self.acc_shares = layout["accusation_shares"]
            if self.odds:
                self.acc_odds = layout["accusation_odds"]
            if self.choices:
                self.hand = layout["hand"]
                self.share = layout["hand_share"]
                self.teach_cols = layout["hand_teach"]
                self.owed = layout["pending_amount"].start
                values = torch.zeros(GO.HAND_FEATURES)
                values[GO.H_VALUE : GO.H_VALUE + 3] = torch.arange(1.0, 4.0)
                self.register_buffer("values", values)
            layers: list[torch.nn.Module] = []
            last = n + extra + cards
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
            extra = [allowed, deciding * certain, deciding * (1 - certain)]
            if self.choices:
                log_count = obs[:, self.count : self.count + 1] * math.log(NUM_CANDIDATES)
                chance = deciding * torch.exp(-log_count)
                extra.append(chance)
                if self.timing:
                    round_ = obs[:, self.round : self.round + 1]
                    extra += [deciding * round_, chance * round_]  # (N_TIMING_FEATURES)
                if self.threat or self.odds:
                    declined = deciding * self._declined(obs)
                if self.threat:
                    extra += [declined, declined * chance]  # (N_THREAT_FEATURES)
                if self.shares:  # per action: allowed · (1 − its share of the candidates)
                    rare = obs[:, self.ded] * (1 - obs[:, self.acc_shares])
                    extra.append(torch.einsum("bd,bk,dka->ba", dec, rare, self.gate))
                if self.odds:
                    extra += self._odds(obs, dec, deciding, declined)
                extra.append(self._cards(obs, dec))
            extra = torch.cat(extra, dim=1)
            return torch.cat([obs, PRIOR_SCALE * extra, self.mlp(torch.cat([obs, extra], 1))], 1)

        def _odds(
            self,
            obs: torch.Tensor,
            dec: torch.Tensor,
            deciding: torch.Tensor,
            declined: torch.Tensor,
        ) -> list[torch.Tensor]:
            """The odds features (``top``, ``declined_count``) and the per-action ``likely``
            (``declined``: the threat feature, already times ``deciding``)."""
            odds = obs[:, self.acc_odds]
            top = odds.amax(dim=1, keepdim=True)
            declined_count = declined * obs[:, self.count : self.count + 1]
            best = obs[:, self.ded] * (odds >= top - LIKELY_TOLERANCE).float() * (odds > 0).float()
            likely = torch.einsum("bd,bk,dka->ba", dec, best, self.gate)
            return [deciding * top, declined_count, likely]

        def _declined(self, obs: torch.Tensor) -> torch.Tensor:
            """``(batch, 1)``: 1 when another seat still in (egocentric blocks 1.., present and
            not out) declined every bid of its last turn record (at least one made)."""
            b = obs.shape[0]
            players = obs[:, self.players].reshape(b, GO.N_SEATS, GO.N_PLAYER_FEATURES)
            still_in = players[:, 1:, GO.P_PRESENT] * (1 - players[:, 1:, GO.P_OUT])
            turns = obs[:, self.last_turns].reshape(b, GO.N_SEATS, GO.LAST_TURN_FEATURES)
            bids = turns[:, 1:, GO.LT_BIDS :].reshape(b, GO.N_SEATS - 1, GO.N_SEATS, -1)
            made = bids[..., GO.LAST_BID_FEATURES.index("made")]
            accepted = bids[..., GO.LAST_BID_FEATURES.index("accepted")]
            declined_all = made.amax(dim=2) * (1 - (made * accepted).amax(dim=2))
            return (still_in * declined_all).amax(dim=1, keepdim=True)

        def _cards(self, obs: torch.Tensor, dec: torch.Tensor) -> torch.Tensor:
            """:data:`CARD_FEATURES`, flattened feature-major (all 0 unless offering/paying)."""
            hand = obs[:, self.hand].reshape(obs.shape[0], GO.N_SLOTS, GO.HAND_FEATURES)
            present = hand[:, :, GO.H_PRESENT]
            value = hand @ self.values
            teach = obs[:, self.teach_cols]
            share = obs[:, self.share]
            paying = dec[:, G.D_PAY : G.D_PAY + 1]
            exchanging = dec[:, G.D_OFFER : G.D_OFFER + 1] + paying
            owed = obs[:, self.owed : self.owed + 1] * GO.BID_SCALE
            per_share = torch.clamp(teach / torch.clamp(share, min=1e-6), max=TEACH_PER_SHARE_CAP)
            rows = [
                teach,
                per_share,
                present * (teach == 0).float(),
                present * (value >= owed - 1e-3).float() * paying,
                value / 3.0,
            ]
            return (torch.stack(rows, 1) * exchanging.unsqueeze(2)).flatten(1)

    return GuestsFeatures


def build_prior_head() -> type:
    import torch

    class PriorHead(torch.nn.Module):
        """Action logits ``linear(latent) + w · latent[prior]``: ``w`` is one learned scalar
        shared by every action (initialised to 0), ``latent[prior]`` one feature per action.

        With ``cards`` (``(slice, card action 0)``: feature-major rows of one column per hand
        slot, as ``GuestsFeatures.card_slice``) the card actions' logits also get
        ``Σ_f v_f · latent[cards][f, slot]``, one learned scalar ``v_f`` per card feature
        (initialised to 0). With ``rare`` (one column per action, as
        ``GuestsFeatures.rare_slice``) they also get ``u · latent[rare]``, one more shared
        scalar ``u`` (initialised to 0); with ``likely`` (as ``GuestsFeatures.likely_slice``)
        likewise ``l · latent[likely]``."""

        def __init__(
            self,
            linear: torch.nn.Linear,
            prior: slice,
            cards: tuple[slice, int] | None = None,
            rare: slice | None = None,
            likely: slice | None = None,
        ) -> None:
            super().__init__()
            if prior.stop - prior.start != linear.out_features:
                raise ValueError(f"PriorHead: {prior} is not one column per action")
            self.linear = linear
            self.start, self.stop = prior.start, prior.stop
            self.prior_weight = torch.nn.Parameter(torch.zeros(()))
            self.cards: slice | None = None
            if cards is not None:
                self.cards, self.card_0 = cards
                width = self.cards.stop - self.cards.start
                self.slots = width // len(CARD_FEATURES)
                if self.slots * len(CARD_FEATURES) != width:
                    raise ValueError(f"PriorHead: {self.cards} is not {len(CARD_FEATURES)} rows")
                self.card_weights = torch.nn.Parameter(torch.zeros(len(CARD_FEATURES)))
            self.rare = rare
            if rare is not None:
                if rare.stop - rare.start != linear.out_features:
                    raise ValueError(f"PriorHead: {rare} is not one column per action")
                self.rare_weight = torch.nn.Parameter(torch.zeros(()))
            self.likely = likely
            if likely is not None:
                if likely.stop - likely.start != linear.out_features:
                    raise ValueError(f"PriorHead: {likely} is not one column per action")
                self.likely_weight = torch.nn.Parameter(torch.zeros(()))

        def forward(self, latent: torch.Tensor) -> torch.Tensor:
            logits = self.linear(latent) + self.prior_weight * latent[:, self.start : self.stop]
            if self.rare is not None:
                logits = logits + self.rare_weight * latent[:, self.rare]
            if self.likely is not None:
                logits = logits + self.likely_weight * latent[:, self.likely]
            if self.cards is None:
                return logits
            rows = latent[:, self.cards].reshape(latent.shape[0], len(CARD_FEATURES), self.slots)
            bonus = torch.einsum("bfs,f->bs", rows, self.card_weights)
            a, b = self.card_0, self.card_0 + self.slots
            return torch.cat([logits[:, :a], logits[:, a:b] + bonus, logits[:, b:]], dim=1)

    return PriorHead


def build_policy() -> type:
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    class GuestsPolicy(MaskableActorCriticPolicy):
        """MaskablePPO policy for Awkward Guests: ``PriorHead`` on ``GuestsFeatures``.

        With ``GuestsFeatures`` alone, each of the 44 accusation-naming actions follows its
        ``allowed`` feature through its own weight, which only the rare accusations of that very
        part train (measured: the learner named an allowed part with probability 0.51 after 60k
        steps, 0.58 after 150k, random naming 0.18; most of its accusations were wrong). Here
        the action logits also get ``w · PRIOR_SCALE · allowed[a]`` with one weight ``w`` shared
        by every action, so every accusation, of any part, teaches all of them at once. ``w``
        starts at 0 — the network starts with no preference for allowed parts and learns it
        from the reward like any other weight (nothing is masked: naming an excluded part stays
        legal).

        With ``observation_mode="deduced_choices"`` the card actions' logits also get one shared
        weight per card feature of ``GuestsFeatures`` (what a card would teach the counterpart,
        …), for the same reason: every offer and payment, of any hand slot, trains them. With
        ``deduced_shares`` the accusation-naming logits also get one shared weight on the
        ``rare`` features, with ``deduced_odds`` one more on the ``likely`` features.

        Only with ``ppo.net_arch: []`` (the heads read the extractor's output directly) and a
        ``deduced`` observation; otherwise it is the plain MaskablePPO policy.
        """

        def _build(self, lr_schedule: Any) -> None:
            super()._build(lr_schedule)
            prior = getattr(self.features_extractor, "prior_slice", None)
            if prior is None or len(self.mlp_extractor.policy_net) != 0:
                return
            card_slice = getattr(self.features_extractor, "card_slice", None)
            cards = None if card_slice is None else (card_slice, A.CARD_0)
            rare = getattr(self.features_extractor, "rare_slice", None)
            likely = getattr(self.features_extractor, "likely_slice", None)
            self.action_net = PriorHead(self.action_net, prior, cards, rare, likely)
            self.optimizer = self.optimizer_class(
                self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs
            )

    return GuestsPolicy


def _named(cls: type) -> type:
    """``cls`` as a module-level class of this module (it pickles and prints by that name)."""
    cls.__qualname__ = cls.__name__
    return cls


GuestsFeatures = _named(build_features())
PriorHead = _named(build_prior_head())
GuestsPolicy = _named(build_policy())
