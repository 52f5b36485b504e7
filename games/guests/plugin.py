r"""The Awkward Guests plug-in: everything about it outside ``parlour.envs.awkward_guests``.

| part | here |
|---|---|
| the game | :data:`GAME` (``guests``, 1–8 players; the ``parlour.games`` entry point ``guests``) |
| agents | ``guests.deducer[:p=P][,start=R][,threat=K][,pick=rare\|likely][,odds=Q]`` (:mod:`~parlour.games.guests.deducer`) |
| baselines | ``random``, ``guests.deducer`` |
| reward shaping | :class:`GuestsShaping` (training only; the wrapper options below) |
| PPO features and policy | ``GuestsFeatures``, ``PriorHead``, ``GuestsPolicy`` (:mod:`parlour.games.guests.policy`, torch: loaded by training only) |
| training resets | prefetched cases (:mod:`parlour.games.guests.case_pool`) |
| statistics | :class:`GuestsStatistics`: solved, rounds to solve, wrong accusations, in tournaments, training logs and reports |
| ``parlour play guests`` | :class:`GuestsTerminal` (``--level``; the ``notebook`` and ``undo`` commands) |
| ``parlour serve`` | :class:`~parlour.games.guests.web.GuestsWeb` (the page's map, hand, notebook, solution) |

Training-only options
---------------------

Dropped from the game options for evaluation; the single-seat wrapper reads the shaping weights
(``wrapper_options``), and :class:`GuestsShaping` (built with them) adds a reward to each
learner step; the case pool reads ``case_levels``:

| option | meaning |
|---|---|
| ``accusation_shaping`` (float ≥ 0, default 0) | pays the learner for naming the parts of an accusation that its own notebook allows (zero on average for random naming) |
| ``solution_shaping`` (float ≥ 0, default 0) | charges the learner for accusing with more than one candidate left, or for not accusing with exactly one |
| ``case_levels`` (a list of levels, or one string ``"beginner,hard"``; default: ``level`` only) | the generated training cases cycle through these levels (a level listed twice comes twice as often), each case played at its own level; ``level`` stays the level of the run's evaluations. Read by the case pool, not the env or the wrapper (``source_options``) |

Awkward Guests trains on the env's ``observation_mode`` (``deduced`` or ``deduced_choices`` in the
shipped configs, or ``notebook``); ``GuestsFeatures`` reads the ``deduced_*`` blocks of it and,
with ``deduced_choices``, what each hand card would teach the counterpart of an offer or payment.

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

The same three numbers come with 95% intervals in each agent entry's ``estimates``
(:meth:`GuestsStatistics.agent_estimates`; the columns of ``parlour eval --compare``): ``solved``
(Wilson, over its seat-games), ``mean_rounds`` (``mean ± 1.96·sd/√n`` over the rounds of the
seat-games it solved, from each game's ``rounds``) and ``wrong_accusations`` (Wilson, over its
accusations), each with its ``n``.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from parlour.agents.base import Agent
from parlour.agents.factory import float_option, int_option
from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests.case.board import WALTON
from parlour.envs.awkward_guests.env import raw_env
from parlour.envs.awkward_guests.hidden import redeal
from parlour.envs.awkward_guests.moves import (
    card_line,
    describe,
    describe_public,
    notebook_sheet,
    proof,
)
from parlour.envs.awkward_guests.solution_blocks import next_part_choices
from parlour.games import Game
from parlour.games.guests.case_pool import guests_data_source, guests_reset_source
from parlour.games.guests.deducer import DeducerAgent
from parlour.games.guests.web import DEFAULT_LEVEL, GuestsWeb
from parlour.games.guests.words import (
    accusation_line,
    accusations_made,
    outcome_line,
    solution_line,
    solution_names,
)
from parlour.games.intervals import mean_estimate, share_estimate
from parlour.games.parts import Column, Estimate, Evaluation, Statistics, Training
from parlour.games.stepping import GameRecord
from parlour.games.ui import Move, TerminalUI

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
    wrong accusation (the same loss whatever was named) never teaches: with one candidate left a random
    accusation is right once in 360 (easy) or ~6000 (medium). Once the learner names what its
    notebook allows, though, every accusation is paid, right or wrong: ``ppo:guests-4p-medium-v1``
    earns +0.70 per accusation at ``w = 0.2`` (+0.70 for its 37 right and its 32 wrong
    accusations alike, 150 games against three deducers; issue 34), half the swing between a
    win and a loss at 4 players — a bonus for guessing. Drop it for a stage that should learn
    when to accuse.

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
        possible = set(next_part_choices(aec.deduction(agent), before))
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


# -- PPO features and policy (torch): parlour.games.guests.policy -------------------------


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
    estimates: tuple[Estimate, ...] = (
        Estimate("solved", "solved", solo=False),  # (solo: the solve rate itself)
        Estimate("mean_rounds", "rounds to solve", share=False, counts="solves"),
        Estimate("wrong_accusations", "wrong acc.", counts="accusations"),
    )
    estimates_note: str = (
        "solved: share of the agent's seat-games it won by a correct accusation (Wilson 95% "
        "interval); rounds to solve: mean round of its correct accusations, over the seat-games "
        "it solved (mean ± 1.96·sd/√n); wrong acc.: share of its accusations that were wrong "
        "(Wilson 95% interval over the accusations)."
    )

    def agent_stats(self, records: Sequence[GameRecord], kind: int) -> dict[str, Any]:
        seats, stats = _seats(records, kind)
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

    def agent_estimates(self, records: Sequence[GameRecord], kind: int) -> dict[str, Any]:
        seats, stats = _seats(records, kind)
        made = sum(st.get("accusations", 0.0) for st in stats)
        wrong = sum(st.get("wrong_accusations", 0.0) for st in stats)
        solved = sum(st.get("solved", 0.0) for st in stats)
        # the rounds of the seat-games it solved (a correct accusation ends the game)
        rounds = [
            rec.extras.get("rounds", 0.0)
            for (rec, _), st in zip(seats, stats, strict=True)
            if st.get("solved", 0.0)
        ]
        return {
            "solved": share_estimate(solved, len(seats)),
            "mean_rounds": mean_estimate(rounds),
            "wrong_accusations": share_estimate(wrong, int(round(made))),
        }


def _seats(
    records: Sequence[GameRecord], kind: int
) -> tuple[list[tuple[GameRecord, int]], list[Mapping[str, float]]]:
    """The (record, seat) pairs agent kind ``kind`` held, and their seat statistics."""
    seats = [(rec, s) for rec in records for s, k in enumerate(rec.kinds) if k == kind]
    return seats, [rec.seat_stats[s] if rec.seat_stats else {} for rec, s in seats]


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


class GuestsTerminal(TerminalUI):
    """What ``parlour play guests`` shows: the hand, the notebook, undo, the proof at the end."""

    default_players = 3
    default_opponent = "guests.deducer"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--level", default=None, help="case level (default easy)")

    def env_options(self, args: argparse.Namespace) -> dict[str, Any]:
        return {"level": getattr(args, "level", None) or DEFAULT_LEVEL}

    def moves(self, env: Any, agent: str) -> list[Move]:
        view = env.player_view(agent)
        return [Move(a, describe(view, a)) for a in view.legal_actions]

    def private(self, env: Any, agent: str) -> str:
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
            parts = [
                "no accomplice" if x == "none" else WALTON.display(x)
                for x in (acc.murderer, acc.motive, acc.weapon, acc.accomplice)
                if x
            ]
            lines.append("Your accusation so far: " + (", ".join(parts) or "-"))
        return "\n".join(lines)

    def describe_other(self, before: Any, after: Any, seat: int, action: int) -> str | None:
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
        if command == "notebook":
            return notebook_sheet(env.player_view(agent))
        raise KeyError(command)

    def final(self, env: Any, results: dict[str, Any], agent: str | None = None) -> str:
        """The outcome from ``agent``'s point of view (None: an onlooker's), the solution and
        every accusation made in display names, and the cards that prove the solution."""
        case = env.unwrapped.game.case  # the game is over: the solution may be shown
        lines = [outcome_line(results, agent)]
        lines.append(f"The solution: {solution_line(solution_names(case.solution))}.")
        lines.extend(accusation_line(acc, agent) for acc in accusations_made(env.unwrapped.game))
        lines.append("The cards that prove it:")
        lines.extend("  " + card_line(c, CARD_LINE_WIDTH) for c in proof(case))
        return "\n".join(lines)


def deducer_agent(
    spec: str,
    seed: int | None,
    p: str | None = None,
    start: str | None = None,
    threat: str | None = None,
    pick: str | None = None,
    odds: str | None = None,
) -> Agent:
    """``guests.deducer[:p=P][,start=R][,threat=K][,pick=rare|likely][,odds=Q]``: reasons with
    the deduction engine; accuses once a candidate has probability >= P (from round R on; before
    it, once one candidate is left), or with at most K candidates left once another player
    declined every bid this round, or once the likeliest candidate under the case generator's
    odds has probability >= Q; a guess names the rarest choice part by part with ``pick=rare``,
    the likeliest candidate with ``pick=likely``."""
    return DeducerAgent(
        spec,
        seed,
        p=float_option("p", p, 1.0),
        start=int_option("start", start, 1),
        threat=int_option("threat", threat, 0),
        pick="uniform" if pick is None else pick,
        odds=float_option("odds", odds, 0.0),
    )


GAME = Game(
    name="guests",
    make_env=raw_env,
    min_players=G.MIN_PLAYERS,
    max_players=G.MAX_PLAYERS,
    baselines=("random", "guests.deducer"),
    agents={"guests.deducer": deducer_agent},
    configurations=(
        (1, {}),
        (2, {}),
        (2, {"level": "expert", "case_workers": 1}),
        (3, {"level": "medium"}),
        (4, {"observation_mode": "deduced"}),
        (5, {"level": "medium", "observation_mode": "deduced_choices"}),
        (4, {"level": "medium", "observation_mode": "deduced_shares"}),
        (4, {"level": "medium", "observation_mode": "deduced_odds"}),
        (6, {"cases": "classic"}),
        (8, {"level": "hard"}),
        (1, {"case_bank": "easy"}),
        (4, {"case_bank": "medium", "case_split": "test"}),
    ),
    hidden_redeal=redeal,
    training=Training(
        options=("accusation_shaping", "solution_shaping", "case_levels"),
        wrapper_options=("accusation_shaping", "solution_shaping"),
        source_options=("case_levels",),
        shaping=GuestsShaping,
        features_extractor="parlour.games.guests.policy:GuestsFeatures",
        policy="parlour.games.guests.policy:GuestsPolicy",
        reset_source=guests_reset_source,
        multi_game=True,
        data_source=guests_data_source,
    ),
    evaluation=Evaluation(statistics=GUESTS_STATISTICS),
    terminal=GuestsTerminal(),
    web=GuestsWeb(),
)
