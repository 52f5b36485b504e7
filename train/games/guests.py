"""The Awkward Guests plug-in: everything about it outside ``parlour.envs.awkward_guests``.

| part | here |
|---|---|
| spec | :data:`SPEC` (``guests``, 1–8 players, baselines ``random``, ``guests.deducer``) |
| reward shaping | :class:`GuestsShaping` (training only; the wrapper options below) |
| PPO features and policy | ``GuestsFeatures``, ``PriorHead``, ``GuestsPolicy`` (torch: built on first use, see :func:`parlour.train.games.lazy_classes`) |
| statistics | :class:`GuestsStatistics`: solved, rounds to solve, wrong accusations, in tournaments, training logs and reports |
| ``parlour play guests`` | :class:`GuestsUI` (``--level``; the ``notebook`` and ``undo`` commands) |
| ``parlour serve`` | :class:`~parlour.train.games.guests_web.GuestsWeb` (the page's map, hand, notebook, solution) |

Training-only options
---------------------

Dropped from the game options for evaluation; the single-seat wrapper reads them
(``wrapper_options``), and :class:`GuestsShaping` (built with them) adds a reward to each
learner step:

| option | meaning |
|---|---|
| ``accusation_shaping`` (float ≥ 0, default 0) | pays the learner for naming the parts of an accusation that its own notebook allows (zero on average for random naming) |
| ``solution_shaping`` (float ≥ 0, default 0) | charges the learner for accusing with more than one candidate left, or for not accusing with exactly one |

Awkward Guests trains on the env's ``observation_mode`` (``deduced`` in the shipped configs, or
``notebook``); ``GuestsFeatures`` reads the ``deduced_*`` blocks of it.

Statistics
----------

Tournament agent entries add ``accusations`` (made in all), ``wrong_accusations`` (the share of
them that were wrong; ``null``: none made), ``solved`` (share of its seat-games it solved by a
correct accusation; solo: the solve rate) and ``mean_rounds`` (mean round of its correct
accusations, i.e. rounds to a correct solution; ``null``: never solved); the result adds
``mean_rounds`` (rounds a game lasted) and ``wrong_accusations`` (share of all accusations). The
numbers come from the env's ``results()`` at the end of a game (``rounds``; per agent ``accusations``,
``wrong_accusations``, ``solved``). Tables add the columns :data:`GUESTS_HEADERS` (solo:
:data:`SOLO_HEADERS`, where "solved" is the solve rate itself).
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests.case.board import WALTON
from parlour.train.games import Column, GameSpec, Statistics, lazy_classes, register_game
from parlour.train.games.guests_web import DEFAULT_LEVEL, GuestsWeb
from parlour.train.play import Move, PlayUI

if TYPE_CHECKING:
    from parlour.train.tournament import GameRecord

# -- reward shaping -------------------------------------------------------------------------------


class GuestsShaping:
    """Awkward Guests training shaping from the learner's own deduction (two weights).

    Called before each learner step with the action about to be played; it reads only what
    the learner may know (the deduction engine over the cards that player has seen), never the
    hidden solution.

    **Naming** (``accusation_shaping = w``). When the learner names a part of its accusation
    (murderer, motive, weapon, accomplice or none, accomplice motive), let ``n`` be its legal
    choices and ``k`` of them *possible*: some candidate consistent with its notebook matches
    the accusation so far with that choice. The step is paid ``w · (1 − k/n)`` for a possible
    choice and ``−w · k/n`` for an impossible one (nothing once the accusation is impossible).
    A uniformly random choice earns 0 on average at every stage of the game, so it favours
    neither accusing nor waiting; it only pays for naming what the notebook allows — which a
    wrong accusation (−1 whatever was named) never teaches: with one candidate left a random
    accusation is right once in 360 (easy) or ~6000 (medium).

    **When** (``solution_shaping = v``). Deciding whether to accuse, the learner is charged
    ``−v`` for accusing with more than one candidate left and for going on with exactly one.
    Following the rule costs nothing, so there is nothing to farm; it is ``guests.deducer``'s
    rule and the best solo play, while with opponents a gamble can be worth its ``v``.
    """

    def __init__(self, accusation_shaping: float = 0.0, solution_shaping: float = 0.0) -> None:
        self.weight = float(accusation_shaping)
        self.solution_weight = float(solution_shaping)

    def __call__(self, aec: Any, agent: str, action: int) -> float:
        state = aec.game
        seat = aec.agent_name_mapping[agent]
        d = state.decision
        if state.current_player != seat:
            return 0.0
        if d == G.D_SOLUTION:
            if not self.solution_weight:
                return 0.0
            certain = aec.deduction(agent).count() == 1
            return 0.0 if (action == A.YES) == certain else -self.solution_weight
        if not self.weight or not G.D_MURDERER <= d <= G.D_ACC_MOTIVE:
            return 0.0
        before = list(state.accusations.get(seat, []))
        ok = aec.deduction(agent).candidate_mask()
        table = _candidate_table(state.tables.accomplice_possible)
        for i, value in enumerate(before):
            ok = ok & (table[:, i] == value)
        possible = set(table[ok, len(before)].tolist())
        if not possible:  # the accusation is already impossible
            return 0.0
        legal = [_part(d, int(a)) for a in np.flatnonzero(state.legal_mask())]
        share = sum(p in possible for p in legal) / len(legal)
        return self.weight * (float(_part(d, action) in possible) - share)


def _part(decision: int, action: int) -> int:
    """The accusation entry (engine order, -1 for "none") an action names at a decision."""

    if decision == G.D_MURDERER:
        return action - A.SUSPECT_0
    if decision in (G.D_MOTIVE, G.D_ACC_MOTIVE):
        return action - A.MOTIVE_0
    if decision == G.D_WEAPON:
        return action - A.WEAPON_0
    return -1 if action == A.NO_ACCOMPLICE else action - A.SUSPECT_0  # accomplice


@functools.cache
def _candidate_table(accomplice_possible: bool) -> np.ndarray:
    """(candidates, 5) ints in the engine's accusation order: murderer, motive, weapon,
    accomplice (-1: none), accomplice motive (-1: none), aligned with ``candidate_mask()``."""
    from parlour.envs.awkward_guests.case.solution import candidate_solutions

    def idx(names: tuple[str, ...], x: str | None) -> int:
        return -1 if x is None else names.index(x)

    rows = [
        (
            idx(A.SUSPECTS, s.murderer),
            idx(A.MOTIVES, s.motive),
            idx(A.WEAPONS, s.weapon),
            idx(A.SUSPECTS, s.accomplice),
            idx(A.MOTIVES, s.accomplice_motive),
        )
        for s in candidate_solutions(accomplice_possible)
    ]
    table = np.array(rows, np.int64)
    table.flags.writeable = False
    return table


# -- PPO features and policy (torch) --------------------------------------------------------------

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


def allowed_gate(layout: Mapping[str, slice]) -> np.ndarray:
    """The 0/1 tensor ``gate[decision, deduced bit, action]`` behind GuestsFeatures' per-action
    ``allowed`` features: an action naming a part of an accusation is allowed at its decision
    when the deduction's bit of that part is set. Sizes come from the board definition."""
    suspects, motives, weapons = len(WALTON.suspects), len(WALTON.motives), len(WALTON.weapons)
    dec = layout["pending_decision"]
    first = layout["deduced_murderers"].start
    ded_size = layout["deduced_accomplice_motives"].stop - first
    parts = {
        G.D_MURDERER: ("deduced_murderers", A.SUSPECT_0, suspects),
        G.D_MOTIVE: ("deduced_motives", A.MOTIVE_0, motives),
        G.D_WEAPON: ("deduced_weapons", A.WEAPON_0, weapons),
        G.D_ACCOMPLICE: ("deduced_accomplices", A.SUSPECT_0, suspects),
        G.D_ACC_MOTIVE: ("deduced_accomplice_motives", A.MOTIVE_0, motives),
    }
    gate = np.zeros((dec.stop - dec.start, ded_size, A.NUM_ACTIONS), np.float32)
    for decision, (name, action_0, size) in parts.items():
        start = layout[name].start - first
        for i in range(size):
            gate[decision, start + i, action_0 + i] = 1.0
    none = layout["deduced_accomplices"].start - first + suspects  # "no accomplice"
    gate[G.D_ACCOMPLICE, none, A.NO_ACCOMPLICE] = 1.0
    return gate


def _guests_features() -> type:
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
        """

        def __init__(
            self, observation_space: gym.spaces.Box, hidden: tuple[int, ...] = FEATURES_HIDDEN
        ) -> None:
            n = int(observation_space.shape[0])
            sizes = {GO.layout_size(GO.make_layout(m)): m for m in GO.OBSERVATION_MODES}
            if n not in sizes:
                raise ValueError(
                    f"GuestsFeatures: an observation of {n} floats is not an Awkward Guests "
                    f"observation ({sizes})"
                )
            self.deduced = sizes[n] == "deduced"
            extra = A.NUM_ACTIONS + N_SOLUTION_FLAGS if self.deduced else 0
            super().__init__(observation_space, n + extra + hidden[-1])
            #: columns of the output holding ``PRIOR_SCALE · allowed`` (one per action), for
            #: GuestsPolicy; None without ``deduced_*`` blocks
            self.prior_slice = slice(n, n + A.NUM_ACTIONS) if self.deduced else None
            if self.deduced:  # allowed = (decision one-hot, deduced bits) by a fixed 0/1 tensor
                layout = GO.make_layout("deduced")
                self.register_buffer("gate", torch.as_tensor(allowed_gate(layout)))
                self.dec = layout["pending_decision"]
                self.ded = slice(
                    layout["deduced_murderers"].start, layout["deduced_accomplice_motives"].stop
                )
                self.solution = G.D_SOLUTION
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

    return GuestsFeatures


def _prior_head() -> type:
    import torch

    class PriorHead(torch.nn.Module):
        """Action logits ``linear(latent) + w · latent[prior]``: ``w`` is one learned scalar
        shared by every action (initialised to 0), ``latent[prior]`` one feature per action."""

        def __init__(self, linear: torch.nn.Linear, prior: slice) -> None:
            super().__init__()
            if prior.stop - prior.start != linear.out_features:
                raise ValueError(f"PriorHead: {prior} is not one column per action")
            self.linear = linear
            self.start, self.stop = prior.start, prior.stop
            self.prior_weight = torch.nn.Parameter(torch.zeros(()))

        def forward(self, latent: torch.Tensor) -> torch.Tensor:
            return self.linear(latent) + self.prior_weight * latent[:, self.start : self.stop]

    return PriorHead


def _guests_policy() -> type:
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    prior_head = sys.modules[__name__].PriorHead  # (built on first use, like this class)

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

        Only with ``ppo.net_arch: []`` (the heads read the extractor's output directly) and the
        ``deduced`` observation; otherwise it is the plain MaskablePPO policy.
        """

        def _build(self, lr_schedule: Any) -> None:
            super()._build(lr_schedule)
            prior = getattr(self.features_extractor, "prior_slice", None)
            if prior is None or len(self.mlp_extractor.policy_net) != 0:
                return
            self.action_net = prior_head(self.action_net, prior)
            self.optimizer = self.optimizer_class(
                self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs
            )

    return GuestsPolicy


__getattr__ = lazy_classes(
    __name__,
    {"GuestsFeatures": _guests_features, "PriorHead": _prior_head, "GuestsPolicy": _guests_policy},
)


# -- statistics -----------------------------------------------------------------------------------


def _opt(x: float | None, fmt: str) -> str:
    return "—" if x is None else fmt.format(x)


def _solved_cell(a: Mapping[str, Any]) -> str:
    return _opt(a["solved"], "{:.1%}")


def _rounds_cell(a: Mapping[str, Any]) -> str:
    return _opt(a["mean_rounds"], "{:.1f}")


def _wrong_cell(a: Mapping[str, Any]) -> str:
    return _opt(a["wrong_accusations"], "{:.1%}") + f" of {a['accusations']}"


@dataclass(frozen=True)
class GuestsStatistics(Statistics):
    """Solved, rounds to solve and wrong accusations (see the module docstring)."""

    game_keys: tuple[str, ...] = ("rounds",)
    seat_keys: tuple[str, ...] = ("accusations", "wrong_accusations", "solved")
    agent_keys: tuple[str, ...] = ("solved", "mean_rounds", "wrong_accusations", "accusations")
    log_keys: tuple[str, ...] = ("solved", "mean_rounds", "wrong_accusations")
    columns: tuple[Column, ...] = (
        Column("solved", _solved_cell, solo=False),  # (solo: the solve rate itself)
        Column("rounds to solve", _rounds_cell),
        Column("wrong acc.", _wrong_cell),
    )
    note: str = (
        "solved: share of the agent's games it won by a correct accusation (solo: the solve "
        "rate); rounds to solve: mean round of its correct accusations; wrong acc.: share of its "
        "accusations that were wrong, of how many it made."
    )
    solo_note: str = (
        "rounds to solve: mean round of the correct accusations; wrong acc.: share of the "
        "accusations that were wrong, of how many were made (an accusation ends a solo game)."
    )
    solve_rate: str = "share of games solved by a correct accusation"

    def agent_stats(self, records: Sequence[GameRecord], kind: int) -> dict[str, Any]:
        seats = [(rec, s) for rec in records for s, k in enumerate(rec.kinds) if k == kind]
        stats = [rec.seat_stats[s] if rec.seat_stats else {} for rec, s in seats]
        made = sum(st.get("accusations", 0.0) for st in stats)
        wrong = sum(st.get("wrong_accusations", 0.0) for st in stats)
        solved = sum(st.get("solved", 0.0) for st in stats)
        # a correct accusation ends the game: the round it ended in is the round it was solved in
        solve_rounds = sum(
            st.get("solved", 0.0) * rec.extras.get("rounds", 0.0)
            for (rec, _), st in zip(seats, stats, strict=True)
        )
        return {
            "accusations": int(round(made)),
            "wrong_accusations": wrong / made if made else None,
            "solved": solved / len(seats) if seats else None,
            "mean_rounds": solve_rounds / solved if solved else None,
        }

    def tournament_stats(self, records: Sequence[GameRecord]) -> dict[str, Any]:
        made = sum(s.get("accusations", 0.0) for rec in records for s in rec.seat_stats)
        wrong = sum(s.get("wrong_accusations", 0.0) for rec in records for s in rec.seat_stats)
        return {"wrong_accusations": wrong / made if made else None}


GUESTS_STATISTICS = GuestsStatistics()
#: the extra columns of the Awkward Guests tables; solo (the learner and the baselines alone)
GUESTS_HEADERS = [c.header for c in GUESTS_STATISTICS.report_columns(solo=False)]
SOLO_HEADERS = ["agent", "games", "solve rate", "95% CI", "mean reward"] + [
    c.header for c in GUESTS_STATISTICS.report_columns(solo=True)
]


# -- parlour play ---------------------------------------------------------------------------------

#: decision -> the multi-step choice it belongs to (``undo`` goes back to that choice's start)
CHOICE_GROUPS = {
    "inquiry": "inquiry",
    "offer": "offer",
    "answer": "exchange",
    "pay": "exchange",
    "solution": "accusation",
    "murderer": "accusation",
    "motive": "accusation",
    "weapon": "accusation",
    "accomplice": "accusation",
    "accomplice_motive": "accusation",
    "discard": "discard",
}
#: wide enough that a card line is never shortened (the session wraps lines to 80 columns)
CARD_LINE_WIDTH = 10_000


class GuestsUI(GuestsWeb, PlayUI):
    """What ``parlour play guests`` shows: the hand, the notebook, undo, the proof at the end
    (and ``parlour serve``'s page: :class:`~parlour.train.games.guests_web.GuestsWeb`)."""

    default_players = 3
    default_opponent = "guests.deducer"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--level", default=None, help="case level (default easy)")

    def env_options(self, args: argparse.Namespace) -> dict[str, Any]:
        return {"level": getattr(args, "level", None) or DEFAULT_LEVEL}

    def moves(self, env: Any, agent: str) -> list[Move]:
        from parlour.envs.awkward_guests.moves import describe

        view = env.player_view(agent)
        return [Move(a, describe(view, a)) for a in view.legal_actions]

    def private(self, env: Any, agent: str) -> str:
        from parlour.envs.awkward_guests.moves import card_line

        view = env.player_view(agent)
        lines = [f"You are {agent}. Your hand ({len(view.hand)} cards):"]
        for h in view.hand:
            mark = "*" if h.selected else " "
            lines.append(f" {mark} {card_line(h.card, CARD_LINE_WIDTH)}")
        if view.owed:
            lines.append(f"Still to pay: value {view.owed}.")
        if view.to_discard:
            lines.append(f"Still to discard: {view.to_discard} card(s).")
        acc = view.pending_accusation
        if acc is not None:
            parts = [x for x in (acc.murderer, acc.motive, acc.weapon, acc.accomplice) if x]
            lines.append("Your accusation so far: " + (", ".join(parts) or "-"))
        return "\n".join(lines)

    def describe_other(self, before: Any, after: Any, seat: int, action: int) -> str | None:
        from parlour.envs.awkward_guests.moves import describe_public

        return describe_public(before, after, seat, action)

    def group(self, env: Any, agent: str) -> str | None:
        return CHOICE_GROUPS.get(env.player_view(agent).decision)

    def extra_commands(self) -> dict[str, str]:
        return {
            "notebook": "show your investigation sheet",
            "undo": "take back the half-built choice (asked references, offer, exchange, "
            "accusation or discard) before it is committed",
        }

    def run_extra(self, command: str, env: Any, agent: str) -> str:
        from parlour.envs.awkward_guests.moves import notebook_sheet

        if command == "notebook":
            return notebook_sheet(env.player_view(agent))
        raise KeyError(command)

    def final(self, env: Any, results: dict[str, Any]) -> str:
        from parlour.envs.awkward_guests.moves import card_line, proof

        case = env.game.case  # the game is over: the solution may be shown
        sol = case.solution
        winners = ", ".join(results["winners"]) or "none"
        lines = [f"Result: {results['result']}; winner(s): {winners}"]
        lines.append(
            f"The solution: {sol.murderer} killed Mr. Walton for '{sol.motive}' with the "
            f"{sol.weapon}"
            + (
                f", helped by {sol.accomplice} ('{sol.accomplice_motive}')."
                if sol.accomplice
                else "."
            )
        )
        lines.append("The cards that prove it:")
        lines.extend("  " + card_line(c, CARD_LINE_WIDTH) for c in proof(case))
        return "\n".join(lines)


SPEC = register_game(
    GameSpec(
        name="guests",
        env_factory="parlour.envs.awkward_guests.env:raw_env",
        min_players=G.MIN_PLAYERS,
        max_players=G.MAX_PLAYERS,
        players_option="num_players",
        baselines=("random", "guests.deducer"),
        eval_baselines=("random", "guests.deducer"),
        training_options=("accusation_shaping", "solution_shaping"),
        wrapper_options=("accusation_shaping", "solution_shaping"),
        shaping=f"{__name__}:GuestsShaping",
        features_extractor=f"{__name__}:GuestsFeatures",
        policy=f"{__name__}:GuestsPolicy",
        configurations=(
            (1, {}),
            (2, {}),
            (3, {"level": "medium"}),
            (4, {"observation_mode": "deduced"}),
            (6, {"cases": "classic"}),
            (8, {"level": "hard"}),
        ),
        hidden_redeal="parlour.envs.awkward_guests.hidden:redeal",
        stats=GUESTS_STATISTICS,
        play_ui=GuestsUI,
        reset_source="parlour.train.case_pool:guests_reset_source",
        batched_vec_env="parlour.train.multi_game:guests_batched_vec_env",
    )
)
