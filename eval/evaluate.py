"""``parlour eval``: a tournament between agents, printed and written as JSON, Markdown and PNG.

```
parlour eval --game audition --players 2 --agents ppo:runs/audition_2p/model.safetensors audition.greedy --games 2000
parlour eval --game guests --players 1 --agents guests.deducer random --games 200 --option level=medium
```

| option | meaning |
|---|---|
| ``--game`` | a game name (``audition``, ``guests``, a registered plug-in) or ``module:ATTR`` naming a ``Game`` (:mod:`parlour.games`) |
| ``--players`` | seats at the table |
| ``--agents`` | agent specs (see :mod:`parlour.agents.factory`; ``ppo:NAME`` plays a shipped model, ``parlour models`` lists them); fewer kinds than seats fill seats cyclically |
| ``--games`` | number of games, 1..1,000,000 (rounded up to whole deals: every arrangement on every deal; more than 2,000 arrangements per deal — e.g. 12 agents at 6 seats — are refused: :mod:`parlour.limits`) |
| ``--option KEY=VALUE`` | a game constructor option, value in YAML (``--option action_cards=2``) |
| ``--seed`` | first deal seed (deal ``d`` uses ``seed + d``) |
| ``--workers`` | processes, 1..256 (default: one per core) |
| ``--out`` | output folder (default ``runs/eval/<game>_<players>p_<time>``) |
| ``--overwrite`` | write into an existing non-empty ``--out`` (only ``eval.*`` and ``replays/replay_*.json`` are replaced; without it such a folder is refused before any game is played, and left as it was) |
| ``--save-replays K`` | also write the first ``K`` games as replays, ``<out>/replays/replay_KKKK.json`` (:mod:`parlour.eval.replay`; watch them with ``parlour serve --replays <out>/replays``) |

Writes ``eval.json`` (format of :mod:`parlour.eval.tournament`; strict JSON, a number that is
not finite is ``null``), ``eval.md`` and ``eval.png`` (win rates with 95% intervals; the
head-to-head matrix for more than two kinds), rendered by :mod:`parlour.eval.report`, each
written under a temporary name and moved into place.

The table (printed and in ``eval.md``) has one row per agent: games, wins, win rate, 95% CI,
mean score, mean reward, and the game's own columns (its ``Game.evaluation.statistics``; Awkward Guests:
``solved``, ``rounds to solve``, ``wrong acc.``, see :mod:`parlour.games.guests.plugin`).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from parlour.games.arguments import (
    game_argument,
    games_argument,
    parse_options,
    trust_argument,
    workers_argument,
)

HELP = "play a tournament between agents and write JSON / Markdown / PNG results"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game",
        type=game_argument,
        default="audition",
        help="game name or module:ATTR (default audition)",
    )
    parser.add_argument("--players", type=int, default=2, help="seats (default 2)")
    parser.add_argument("--agents", nargs="+", required=True, help="agent specs")
    parser.add_argument("--games", type=games_argument, default=1000, help="games (default 1000)")
    parser.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="game option (YAML)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--workers", type=workers_argument, default=None, help="processes (default: cores)"
    )
    parser.add_argument("--out", default=None, help="output folder")
    parser.add_argument(
        "--overwrite", action="store_true", help="write into an existing non-empty --out"
    )
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.add_argument(
        "--save-replays",
        type=int,
        default=0,
        metavar="K",
        help="write the first K games as replays",
    )
    trust_argument(parser)


def run(args: argparse.Namespace) -> int:
    from parlour.eval.report import check_out, print_table
    from parlour.eval.tournament import run_tournament

    spec = args.game  # (resolved by the argument parser: game_argument)
    if args.save_replays < 0:
        print(
            f"parlour eval: --save-replays must be >= 0, got {args.save_replays}", file=sys.stderr
        )
        return 2
    stamp = time.strftime("%Y%m%d-%H%M%S")
    out = Path(args.out or f"runs/eval/{spec.name}_{args.players}p_{stamp}")
    check_out(out, args.overwrite, "the evaluation's files")  # (before any game is played)
    try:
        options = parse_options(args.option)
        result = run_tournament(
            spec,
            args.players,
            args.agents,
            args.games,
            seed=args.seed,
            game_options=options,
            workers=args.workers,
            progress=not args.no_progress,
            trust=args.trust_model,
        )
    except (ValueError, FileNotFoundError) as exc:
        print(f"parlour eval: {exc}", file=sys.stderr)
        return 2
    paths = write_results_safely(result, out, spec)
    if args.save_replays:
        from parlour.eval.replay import save_tournament_replays

        paths.append(
            save_tournament_replays(
                spec,
                args.players,
                args.agents,
                args.seed,
                result["game_options"],  # (what was played: with a shipped model's options)
                min(args.save_replays, result["games"]),  # (only games that were played)
                out / "replays",
                trust=args.trust_model,
            )[0].parent
        )
    print_table(result, spec=spec)
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0


def write_results_safely(result: dict, out: Path, spec: object) -> list[Path]:
    """``write_results`` into ``out``; if that fails (the folder became unwritable, the disk is
    full), the results go to a fresh temporary folder instead of being lost."""
    from parlour._files import write_atomic
    from parlour.eval.report import strict_json, write_results

    try:
        return write_results(result, out, "eval", spec)
    except OSError as exc:
        rescue = Path(tempfile.mkdtemp(prefix="parlour-eval-")) / "eval.json"
        write_atomic(rescue, strict_json(result, indent=1))
        print(
            f"parlour eval: cannot write to {out} ({exc}); results saved in {rescue}",
            file=sys.stderr,
        )
        return [rescue]
