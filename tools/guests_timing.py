"""When an Awkward Guests student accuses, next to its teacher: the solution decisions by round
and candidates left.

```
.venv/bin/python tools/guests_timing.py --student ppo:runs/guests_4p_medium_timing/model.safetensors \\
    --teacher "guests.deducer:p=0.5,start=12" --games 150 --seed 5000
```

(about 40 s for 150 games). The teacher plays seat 1 of 4-player games (``--level``, the
``deduced_choices`` observation) against three plain ``guests.deducer``; at each of its
"accuse now?" decisions the student is asked what it would do in the teacher's place (a
``ppo:`` student plays its most probable action), and the teacher's action is played. The
table counts those decisions by round bucket (``--bucket`` rounds each) and candidates left (4
stands for 4 or more), with the share where the student chose as the teacher did and the share
where the teacher accused. Imitation scores one number over every decision, where accusing is
about 1 in 30 of them; this shows whether the timing itself was learnt
(docs/guests_training.md, "4 players, medium: what was tried next").
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass

from parlour.agents.factory import make_agent
from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.games import get_game
from parlour.train.single_seat import SingleSeatEnv, opponent_action

#: the table's last candidates row holds this many candidates or more
MAX_CANDIDATES_ROW = 4
#: the teacher's seat (the three others are plain deducers)
TEACHER_SEAT = 1
PLAYERS = 4


@dataclass
class Cell:
    """The solution decisions of one (round bucket, candidates) cell."""

    decisions: int = 0
    agreed: int = 0
    teacher_accused: int = 0


def solution_agreement(
    student: str, teacher: str, games: int, seed: int, level: str = "medium", bucket: int = 4
) -> dict[tuple[int, int], Cell]:
    """``{(first round of the bucket, candidates capped at 4): Cell}`` over ``games`` games
    seeded ``seed``, ``seed + 1``, …"""
    game = get_game("guests")
    options = {"level": level, "observation_mode": "deduced_choices"}
    env = SingleSeatEnv(game, PLAYERS, options, opponents=["guests.deducer"], seat=TEACHER_SEAT)
    teach = make_agent(teacher, game, seed=seed, players=PLAYERS)
    learn = make_agent(student, game, seed=seed, players=PLAYERS)
    counter = make_agent("guests.deducer", game, seed=seed, players=PLAYERS)
    cells: dict[tuple[int, int], Cell] = {}
    for g in range(games):
        env.reset(seed=seed + g)
        for agent in (teach, learn, counter):
            agent.reset(seed=seed + g)
        done = False
        while not done:
            name = env.aec.agent_selection
            action = opponent_action(env.aec, name, teach)
            if env.aec.game.decision == G.D_SOLUTION:
                view = env.aec.player_view(name)
                choice = opponent_action(env.aec, name, learn)
                left = min(len(counter.candidates(view)), MAX_CANDIDATES_ROW)
                key = (env.aec.game.round // bucket * bucket, left)
                cell = cells.setdefault(key, Cell())
                cell.decisions += 1
                cell.agreed += choice == action
                cell.teacher_accused += action == A.YES
            _, _, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
    return dict(sorted(cells.items()))


def table(cells: dict[tuple[int, int], Cell], bucket: int) -> str:
    """The cells as a markdown table."""
    lines = [
        "| rounds | candidates | decisions | student as teacher | teacher accused |",
        "|---|---|---|---|---|",
    ]
    for (first, left), c in cells.items():
        more = "+" if left == MAX_CANDIDATES_ROW else ""
        lines.append(
            f"| {first}–{first + bucket - 1} | {left}{more} | {c.decisions} | "
            f"{c.agreed / c.decisions:.0%} | {c.teacher_accused / c.decisions:.0%} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--student", required=True, help="agent spec, e.g. ppo:PATH")
    parser.add_argument("--teacher", default="guests.deducer:p=0.5,start=12", help="agent spec")
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--level", default="medium")
    parser.add_argument("--bucket", type=int, default=4, help="rounds per row")
    args = parser.parse_args(argv)
    if args.games < 1 or args.bucket < 1:
        parser.error("--games and --bucket must be >= 1")
    cells = solution_agreement(
        args.student, args.teacher, args.games, args.seed, args.level, args.bucket
    )
    print(table(cells, args.bucket))


if __name__ == "__main__":
    main()
