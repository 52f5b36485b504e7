"""When an Awkward Guests student accuses, next to its teacher: the solution decisions by round
and candidates left (and, with ``--by-decision``, the agreement per kind of decision).

```
.venv/bin/python tools/guests_timing.py --student ppo:guests-4p-medium-v1 \
    --teacher "guests.deducer:p=0.5,start=12" --games 150 --seed 5000
.venv/bin/python tools/guests_timing.py --student ppo:guests-4p-medium-v1 \
    --teacher "guests.deducer:p=0.5" --games 60 --seed 5000 --by-decision
.venv/bin/python tools/guests_timing.py --student ppo:guests-4p-medium \
    --teacher "guests.deducer:threat=8" --games 150 --seed 5000 --by-decline 8
```

(about 40 s for 150 games; a student trained by ``parlour train
configs/guests_4p_medium_timing.yaml`` is ``ppo:runs/guests_4p_medium_timing/model.safetensors``).
The teacher plays seat 1 of 4-player games (``--level``, the ``deduced_choices`` observation)
against three plain ``guests.deducer``; at each of its "accuse now?" decisions the student is
asked what it would do in the teacher's place (a ``ppo:`` student plays its most probable
action), and the teacher's action is played. The table counts those decisions by rounds
(``--bucket`` rounds per row, from round 1) and candidates left (4 stands for 4 or more), with
the share where the student chose as the teacher did and the share where the teacher accused.
Imitation scores one number over every decision, where accusing is about 1 in 30 of them; this
shows whether the timing itself was learnt. ``--by-decision`` asks the student at every decision
instead and prints its agreement per kind of decision (docs/guests_training.md, "4 players,
medium: what was tried next"). ``--by-decline CAP`` counts the "accuse now?" decisions by
whether another player declined every bid of their turn this round and by candidates left (1,
2 to CAP, more): how a student of ``guests.deducer:threat=CAP`` follows its teacher
(docs/guests_training.md, "4 players, medium: reading the other players"). The student reads the
``deduced_choices`` observation unless ``--observation-mode`` names another (a student trained
on ``deduced_shares`` needs ``--observation-mode deduced_shares``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.agents.base import Agent
from parlour.agents.factory import make_agent
from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests.case import LEVELS
from parlour.envs.awkward_guests.observation import DEDUCED_MODES
from parlour.games import get_game
from parlour.games.guests.deducer import declined_this_round
from parlour.train.single_seat import SingleSeatEnv, opponent_action

#: the table's last candidates row holds this many candidates or more
MAX_CANDIDATES_ROW = 4
#: the observation the student reads unless ``--observation-mode`` says otherwise
DEFAULT_MODE = "deduced_choices"
#: the teacher's seat (the three others are plain deducers)
TEACHER_SEAT = 1
#: the table size (the measure of issue 34: 4 players)
PLAYERS = 4
#: the decision kinds by their code in the game (``G.D_*``), for ``--by-decision``
DECISION_NAMES = {
    code: name[2:].lower()
    for name, code in vars(G).items()
    if name.startswith("D_") and isinstance(code, int)
}


@dataclass
class Cell:
    """The solution decisions of one (round bucket, candidates) cell."""

    decisions: int = 0
    agreed: int = 0
    teacher_accused: int = 0


@dataclass
class TeacherTable:
    """The teacher's 4-player table (seat :data:`TEACHER_SEAT`, three plain deducers) and the
    agents that read it."""

    env: SingleSeatEnv
    teacher: Agent
    student: Agent
    #: a plain deducer kept in sync with the teacher's seat: the candidates left
    counter: Any

    def ask_student(self) -> int:
        """The student's action in the teacher's place, now."""
        return opponent_action(self.env.aec, self.env.aec.agent_selection, self.student)

    def candidates_left(self) -> int:
        """The candidates the teacher's notebook allows now."""
        view = self.env.aec.player_view(self.env.aec.agent_selection)
        return len(self.counter.candidates(view))


def _teacher_decisions(
    student: str, teacher: str, games: int, seed: int, level: str, mode: str = DEFAULT_MODE
) -> Iterator[tuple[TeacherTable, int]]:
    """``(table, the teacher's action)`` at every decision of the teacher's seat in ``games``
    games seeded ``seed``, ``seed + 1``, …; the teacher's action is played after each."""
    game = get_game("guests")
    options = {"level": level, "observation_mode": mode}
    env = SingleSeatEnv(game, PLAYERS, options, opponents=["guests.deducer"], seat=TEACHER_SEAT)
    table = TeacherTable(
        env,
        make_agent(teacher, game, seed=seed, players=PLAYERS),
        make_agent(student, game, seed=seed, players=PLAYERS),
        make_agent("guests.deducer", game, seed=seed, players=PLAYERS),
    )
    for g in range(games):
        env.reset(seed=seed + g)
        for agent in (table.teacher, table.student, table.counter):
            agent.reset(seed=seed + g)
        done = False
        while not done:
            action = opponent_action(env.aec, env.aec.agent_selection, table.teacher)
            yield table, action
            _, _, terminated, truncated, _ = env.step(action)
            done = terminated or truncated


def _solution_cells(
    student: str,
    teacher: str,
    games: int,
    seed: int,
    level: str,
    key: Callable[[Any], Any],
    mode: str = DEFAULT_MODE,
) -> dict[Any, Cell]:
    """``{key(table): Cell}`` at the teacher's "accuse now?" decisions, sorted by key."""
    cells: dict[Any, Cell] = {}
    for table, action in _teacher_decisions(student, teacher, games, seed, level, mode):
        if table.env.aec.game.decision != G.D_SOLUTION:
            continue
        cell = cells.setdefault(key(table), Cell())
        cell.decisions += 1
        cell.agreed += table.ask_student() == action
        cell.teacher_accused += action == A.YES
    return dict(sorted(cells.items()))


def solution_agreement(
    student: str,
    teacher: str,
    games: int,
    seed: int,
    level: str = "medium",
    bucket: int = 4,
    mode: str = DEFAULT_MODE,
) -> dict[tuple[int, int], Cell]:
    """``{(first round of the bucket, candidates capped at 4): Cell}`` over ``games`` games
    seeded ``seed``, ``seed + 1``, … (buckets start at round 0: the first holds rounds 1 to
    ``bucket - 1``)."""

    def key(table: TeacherTable) -> tuple[int, int]:
        first = table.env.aec.game.round // bucket * bucket
        return first, min(table.candidates_left(), MAX_CANDIDATES_ROW)

    return _solution_cells(student, teacher, games, seed, level, key, mode)


def decision_agreement(
    student: str,
    teacher: str,
    games: int,
    seed: int,
    level: str = "medium",
    mode: str = DEFAULT_MODE,
) -> dict[str, tuple[int, int]]:
    """``{decision kind: (decisions, where the student chose as the teacher)}`` over every
    decision of the teacher's seat in ``games`` games (the same games as
    :func:`solution_agreement`)."""
    counts: dict[str, list[int]] = {}
    for table, action in _teacher_decisions(student, teacher, games, seed, level, mode):
        count = counts.setdefault(DECISION_NAMES[table.env.aec.game.decision], [0, 0])
        count[0] += 1
        count[1] += table.ask_student() == action
    return {kind: (n, agreed) for kind, (n, agreed) in counts.items()}


def decline_agreement(
    student: str,
    teacher: str,
    games: int,
    seed: int,
    level: str = "medium",
    cap: int = 8,
    mode: str = DEFAULT_MODE,
) -> dict[tuple[bool, str], Cell]:
    """``{(another player declined every bid this round, candidates "1" / "2–cap" / ">cap"):
    Cell}`` at the teacher's "accuse now?" decisions (the same games as
    :func:`solution_agreement`): how a student of ``guests.deducer:threat=cap`` follows it."""

    def key(table: TeacherTable) -> tuple[bool, str]:
        aec = table.env.aec
        left = table.candidates_left()
        band = "1" if left == 1 else f"2–{cap}" if left <= cap else f">{cap}"
        return declined_this_round(aec.player_view(aec.agent_selection)), band

    return _solution_cells(student, teacher, games, seed, level, key, mode)


def decline_table(cells: dict[tuple[bool, str], Cell]) -> str:
    """:func:`decline_agreement` as a markdown table."""
    lines = [
        "| declined this round | candidates | decisions | student as teacher | teacher accused |",
        "|---|---|---|---|---|",
    ]
    for (declined, band), c in cells.items():
        lines.append(
            f"| {'yes' if declined else 'no'} | {band} | {c.decisions} | "
            f"{c.agreed / c.decisions:.0%} | {c.teacher_accused / c.decisions:.0%} |"
        )
    return "\n".join(lines)


def table(cells: dict[tuple[int, int], Cell], bucket: int) -> str:
    """The cells as a markdown table (rows labelled by the rounds they hold)."""
    lines = [
        "| rounds | candidates | decisions | student as teacher | teacher accused |",
        "|---|---|---|---|---|",
    ]
    for (first, left), c in cells.items():
        more = "+" if left == MAX_CANDIDATES_ROW else ""
        lines.append(
            f"| {max(first, 1)}–{first + bucket - 1} | {left}{more} | {c.decisions} | "
            f"{c.agreed / c.decisions:.0%} | {c.teacher_accused / c.decisions:.0%} |"
        )
    return "\n".join(lines)


def decision_table(counts: dict[str, tuple[int, int]]) -> str:
    """:func:`decision_agreement` as a markdown table."""
    lines = ["| decision | decisions | student as teacher |", "|---|---|---|"]
    for kind, (n, agreed) in counts.items():
        lines.append(f"| {kind} | {n} | {agreed / n:.1%} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--student", required=True, help="agent spec, e.g. ppo:PATH")
    parser.add_argument("--teacher", default="guests.deducer:p=0.5,start=12", help="agent spec")
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--level", default="medium", choices=LEVELS)
    parser.add_argument("--bucket", type=int, default=4, help="rounds per row")
    parser.add_argument(
        "--observation-mode",
        default=DEFAULT_MODE,
        choices=DEDUCED_MODES,
        help="the observation the student reads (a model trained on deduced_shares needs it)",
    )
    parser.add_argument(
        "--by-decision", action="store_true", help="agreement per kind of decision instead"
    )
    parser.add_argument(
        "--by-decline",
        type=int,
        metavar="CAP",
        help="'accuse now?' agreement by declines this round and candidates (1, 2-CAP, >CAP)",
    )
    args = parser.parse_args(argv)
    if args.by_decline is not None and args.by_decline < 2:
        parser.error(f"--by-decline must be >= 2, got {args.by_decline}")
    for name in ("games", "bucket"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be >= 1, got {getattr(args, name)}")
    try:
        if args.by_decline is not None:
            decline_cells = decline_agreement(
                args.student,
                args.teacher,
                args.games,
                args.seed,
                args.level,
                args.by_decline,
                args.observation_mode,
            )
            print(decline_table(decline_cells))
            return
        if args.by_decision:
            counts = decision_agreement(
                args.student, args.teacher, args.games, args.seed, args.level, args.observation_mode
            )
            print(decision_table(counts))
            return
        cells = solution_agreement(
            args.student,
            args.teacher,
            args.games,
            args.seed,
            args.level,
            args.bucket,
            args.observation_mode,
        )
    except (ValueError, OSError) as err:  # (an unknown agent spec, no such model file, …)
        parser.error(str(err))
    print(table(cells, args.bucket))


if __name__ == "__main__":
    main()
