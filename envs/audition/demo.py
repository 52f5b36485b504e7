"""``parlour demo audition``: watch one rendered Audition game between uniform random agents.

Every move is printed with the public table after it (``render_mode="ansi"``), then the final
scores and winners. Options: ``--players N`` (2–6), ``--seed S``, ``--action-cards K`` (random
action cards, variant 1), ``--uncertain-counts`` (variant 2), ``--quiet`` (only the result).
"""

from __future__ import annotations

import argparse

import numpy as np

from parlour.envs.audition import rules as R

HELP = "watch one rendered game between random agents"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=["audition"], help="the game to watch")
    parser.add_argument("--players", type=int, default=2, help="2..6 (default 2)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--action-cards", type=int, default=0, help="random action cards")
    parser.add_argument("--uncertain-counts", action="store_true", help="variant 2")
    parser.add_argument("--quiet", action="store_true", help="print only the result")


def run(args: argparse.Namespace) -> int:
    from parlour.envs import audition_v1

    if args.seed < 0:
        raise ValueError(f"--seed must be an int >= 0, got {args.seed}")
    env = audition_v1.env(
        num_players=args.players,
        action_cards=args.action_cards,
        uncertain_counts=args.uncertain_counts,
        render_mode="ansi",
    )
    env.reset(seed=args.seed)
    rng = np.random.default_rng(args.seed)
    if not args.quiet:
        print(env.render())
    moves = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        moves += 1
        if not args.quiet:
            print(f"\n{agent}: {R.action_name(action)}")
            print(env.render())
    final = env.unwrapped.results()
    print(
        f"\nGame over after {moves} moves. Scores: {final['scores']}. Winners: {final['winners']}"
    )
    return 0
