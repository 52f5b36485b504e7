"""``parlour eval``: a tournament between agents, printed and written as JSON, Markdown and PNG.

```
parlour eval --game audition --players 2 --agents ppo:runs/audition_2p/model.safetensors audition.greedy --games 2000
parlour eval --game guests --players 1 --agents guests.deducer random --games 200 --option level=medium
parlour eval --game guests --players 2 --agents ppo:guests-2p-easy guests.deducer --option case_bank=easy --compare case_split=train,test --games 400
```

| option | meaning |
|---|---|
| ``--game`` | a game name (``audition``, ``guests``, a registered plug-in) or ``module:ATTR`` naming a ``Game`` (:mod:`parlour.games`) |
| ``--players`` | seats at the table |
| ``--agents`` | agent specs (see :mod:`parlour.agents.factory`; ``ppo:NAME`` plays a shipped model, ``parlour models`` lists them); fewer kinds than seats fill seats cyclically |
| ``--seats N [N ...]`` | seats per agent, in ``--agents`` order, adding up to ``--players``: ``--agents ppo:audition-3p audition.expert --seats 1 2`` seats the model alone against two experts (each rotation of the table on every deal) instead of filling seats cyclically |
| ``--games`` | number of games, 1..1,000,000 (rounded up to whole deals: every arrangement on every deal; more than 2,000 arrangements per deal — e.g. 12 agents at 6 seats — are refused: :mod:`parlour.limits`) |
| ``--option KEY=VALUE`` | a game constructor option, value in YAML (``--option action_cards=2``) |
| ``--seed`` | first deal seed (deal ``d`` uses ``seed + d``) |
| ``--workers`` | processes, 1..256 (default: one per core); ``1`` plays in this process, a model on one torch thread (as each worker process does) |
| ``--out`` | output folder (default ``runs/eval/<game>_<players>p_<time>``) |
| ``--overwrite`` | write into an existing non-empty ``--out`` (only ``eval.*`` and ``replays/replay_*.json`` are replaced; without it such a folder is refused before any game is played, and left as it was) |
| ``--compare KEY=V1,V2[,...]`` | play the same tournament (agents, seed, games, workers) once per value of game option ``KEY`` (``--option KEY=V`` added; each value read as YAML): each run's files in ``<out>/KEY=V/``, the values side by side in ``<out>/compare.json`` and ``compare.md`` and printed (:mod:`parlour.eval.compare`). Refused before any game: fewer than 2 values, a repeated or empty one, one that is not YAML, ``KEY`` also given as ``--option``, a value the game refuses |
| ``--save-replays K`` | also write the first ``K`` games as replays, ``<out>/replays/replay_KKKK.json`` (:mod:`parlour.eval.replay`; watch them with ``parlour serve --replays <out>/replays``) |

Writes ``eval.json`` (format of :mod:`parlour.eval.tournament`; strict JSON, a number that is
not finite is ``null``), ``eval.md`` and ``eval.png`` (win rates with 95% intervals; the
head-to-head matrix for more than two kinds), rendered by :mod:`parlour.eval.report`, each
written under a temporary name and moved into place.

The table (printed and in ``eval.md``) has one row per agent: seat-games (the seats it held over
all games: an agent in two seats of a game counts it twice), wins, win rate, 95% CI,
mean score, mean reward, and the game's own columns (its ``Game.evaluation.statistics``; Awkward Guests:
``solved``, ``rounds to solve``, ``wrong acc.``, see :mod:`parlour.games.guests.plugin`).

With ``--compare`` the table is one row per agent with, for each value side by side, the win rate
(solo: solve rate) with its Wilson 95% interval and the game's numbers with their 95% intervals
(its ``Statistics.estimates``; Awkward Guests: solved, rounds to solve, wrong accusations), as
:mod:`parlour.eval.compare` describes; ``--overwrite`` then also replaces ``compare.*`` and the
runs' folders' ``eval.*``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

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
    parser.add_argument(
        "--seats",
        nargs="+",
        type=int,
        default=None,
        help="seats per agent, in --agents order, adding up to --players (e.g. --seats 1 2: "
        "the first agent alone against two copies of the second)",
    )
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
    parser.add_argument(
        "--compare",
        default=None,
        metavar="KEY=V1,V2",
        help="play the tournament once per value of game option KEY, side by side",
    )
    trust_argument(parser)


def run(args: argparse.Namespace) -> int:
    from parlour.eval.report import check_out, print_table

    spec = args.game  # (resolved by the argument parser: game_argument)
    if args.save_replays < 0:
        print(
            f"parlour eval: --save-replays must be >= 0, got {args.save_replays}", file=sys.stderr
        )
        return 2
    stamp = time.strftime("%Y%m%d-%H%M%S")
    out = Path(args.out or f"runs/eval/{spec.name}_{args.players}p_{stamp}")
    try:
        options = parse_options(args.option)
        seats_table(args)  # (a bad --seats is refused before any game)
        comparison = None
        if args.compare is not None:
            from parlour.eval.compare import parse_compare

            comparison = parse_compare(args.compare, options)
    except ValueError as exc:
        print(f"parlour eval: {exc}", file=sys.stderr)
        return 2
    check_out(out, args.overwrite, "the evaluation's files")  # (before any game is played)
    if comparison is not None:
        return run_comparison(args, spec, out, options, comparison)
    try:
        result = play(args, spec, options)
    except (ValueError, FileNotFoundError) as exc:
        print(f"parlour eval: {exc}", file=sys.stderr)
        return 2
    paths = write_run(args, spec, result, out)
    print_table(result, spec=spec)
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0


def seats_table(args: argparse.Namespace) -> list[tuple[int, ...]] | None:
    """The seat arrangements of ``--seats`` (None: the default cyclic filling); ``ValueError``."""
    from parlour.eval.tournament import seat_table

    if args.seats is None:
        return None
    return seat_table(args.seats, len(args.agents), args.players)


def play(args: argparse.Namespace, spec: Any, options: dict[str, Any], desc: str = "eval") -> dict:
    """The tournament the arguments ask for, with the game options ``options``."""
    from parlour.eval.tournament import run_tournament

    return run_tournament(
        spec,
        args.players,
        args.agents,
        args.games,
        seed=args.seed,
        game_options=options,
        workers=args.workers,
        progress=not args.no_progress,
        desc=desc,
        trust=args.trust_model,
        table=seats_table(args),
    )


def write_run(args: argparse.Namespace, spec: Any, result: dict, out: Path) -> list[Path]:
    """A run's files in ``out``: ``eval.*`` and, with ``--save-replays``, the replays."""
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
                table=seats_table(args),
            )[0].parent
        )
    return paths


def run_comparison(
    args: argparse.Namespace, spec: Any, out: Path, options: dict[str, Any], comparison: Any
) -> int:
    """``--compare``: the tournament once per value, each run's files in ``OUT/KEY=VALUE``, then
    ``compare.json`` / ``compare.md`` (:mod:`parlour.eval.compare`)."""
    from parlour.eval.compare import (
        check_values,
        comparison_result,
        print_comparison,
        write_comparison,
    )
    from parlour.eval.report import print_table

    # (a value the game or an agent refuses: one line, exit 2, before any game is played)
    check_values(
        spec, args.players, args.agents, options, comparison, args.seed, trust=args.trust_model
    )
    results, paths = [], []
    try:
        for label, opts in comparison.runs(options):
            folder = comparison.folder(label)
            result = play(args, spec, opts, desc=folder)
            paths += write_run(args, spec, result, out / folder)
            title = f"{folder}: {result['games']} games ({result['wall_time_s']:.0f} s)"
            print_table(result, title=title, spec=spec)
            results.append(result)
    except (ValueError, FileNotFoundError) as exc:
        print(f"parlour eval: {exc}", file=sys.stderr)
        return 2
    compared = comparison_result(comparison, results)
    paths += write_comparison(compared, out, spec)
    print_comparison(compared, spec)
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
