"""``parlour eval``: a tournament between agents, printed and written as JSON, Markdown and PNG.

```
parlour eval --game audition --players 2 --agents ppo:runs/audition_2p/model.zip audition.greedy --games 2000
parlour eval --game guests --players 1 --agents guests.deducer random --games 200 --option level=medium
```

| option | meaning |
|---|---|
| ``--game`` | ``audition`` or ``guests`` (Awkward Guests; see :mod:`parlour.train.games`) |
| ``--players`` | seats at the table |
| ``--agents`` | agent specs (see :mod:`parlour.agents.factory`); fewer kinds than seats fill seats cyclically |
| ``--games`` | number of games (rounded up to whole deals: every arrangement on every deal) |
| ``--option KEY=VALUE`` | a game constructor option, value in YAML (``--option action_cards=2``) |
| ``--seed`` | first deal seed (deal ``d`` uses ``seed + d``) |
| ``--workers`` | processes (default: one per core) |
| ``--out`` | output folder (default ``runs/eval/<game>_<players>p_<time>``) |

Writes ``eval.json`` (format of :mod:`parlour.train.tournament`), ``eval.md`` and ``eval.png`` (win rates
with 95% intervals; the head-to-head matrix for more than two kinds).

The table (printed and in ``eval.md``) has one row per agent: games, wins, win rate, 95% CI,
mean score, mean reward; for Awkward Guests (``--game guests``) also ``solved`` (share of its
games won by a correct accusation; solo: the solve rate), ``rounds to solve`` (mean round of
its correct accusations) and ``wrong acc.`` (share of its accusations that were wrong, "of N"
accusations), and the mean game length in rounds.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import yaml

HELP = "play a tournament between agents and write JSON / Markdown / PNG results"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="audition", help="game name (default audition)")
    parser.add_argument("--players", type=int, default=2, help="seats (default 2)")
    parser.add_argument("--agents", nargs="+", required=True, help="agent specs")
    parser.add_argument("--games", type=int, default=1000, help="games (default 1000)")
    parser.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="game option (YAML)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=None, help="processes (default: cores)")
    parser.add_argument("--out", default=None, help="output folder")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")


def parse_options(items: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ValueError(f"--option takes KEY=VALUE, got {item!r}")
        options[key] = yaml.safe_load(value)
    return options


def run(args: argparse.Namespace) -> int:
    from parlour.train.tournament import run_tournament

    try:
        options = parse_options(args.option)
        result = run_tournament(
            args.game,
            args.players,
            args.agents,
            args.games,
            seed=args.seed,
            game_options=options,
            workers=args.workers,
            progress=not args.no_progress,
        )
    except (ValueError, FileNotFoundError) as exc:
        print(f"parlour eval: {exc}")
        return 2
    out = Path(
        args.out or f"runs/eval/{args.game}_{args.players}p_{time.strftime('%Y%m%d-%H%M%S')}"
    )
    paths = write_results(result, out, "eval")
    print_table(result)
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0


# -- output ---------------------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _opt(x: float | None, fmt: str) -> str:
    return "—" if x is None else fmt.format(x)


def has_guests_stats(result: dict[str, Any]) -> bool:
    """Whether the agents' entries carry the Awkward Guests statistics (see :mod:`parlour.train.tournament`)."""
    return bool(result["agents"]) and all(k in result["agents"][0] for k in GUESTS_STATS)


def guests_cells(a: dict[str, Any]) -> list[str]:
    """An agent entry's "solved", "rounds to solve" and "wrong acc." cells."""
    return [
        _opt(a["solved"], "{:.1%}"),
        _opt(a["mean_rounds"], "{:.1f}"),
        _opt(a["wrong_accusations"], "{:.1%}") + f" of {a['accusations']}",
    ]


def result_rows(result: dict[str, Any]) -> list[list[str]]:
    guests = has_guests_stats(result)
    rows = []
    for a in result["agents"]:
        lo, hi = a["ci95"]
        score = "—" if a["mean_score"] is None else f"{a['mean_score']:.2f}"
        rows.append(
            [
                a["spec"],
                str(a["games"]),
                f"{a['wins']:g}",
                _pct(a["win_rate"]),
                f"[{_pct(lo)}, {_pct(hi)}]",
                score,
                f"{a['mean_reward']:+.3f}",
            ]
            + (guests_cells(a) if guests else [])
        )
    return rows


HEADERS = ["agent", "games", "wins", "win rate", "95% CI", "mean score", "mean reward"]
#: the agent keys behind the extra Awkward Guests columns, and the columns
GUESTS_STATS = ("solved", "mean_rounds", "wrong_accusations", "accusations")
GUESTS_HEADERS = ["solved", "rounds to solve", "wrong acc."]
GUESTS_NOTE = (
    "solved: share of the agent's games it won by a correct accusation (solo: the solve rate); "
    "rounds to solve: mean round of its correct accusations; wrong acc.: share of its "
    "accusations that were wrong, of how many it made."
)


def headers(result: dict[str, Any]) -> list[str]:
    """The table's columns: :data:`HEADERS`, plus :data:`GUESTS_HEADERS` for Awkward Guests."""
    return HEADERS + (GUESTS_HEADERS if has_guests_stats(result) else [])


def markdown(result: dict[str, Any], title: str | None = None) -> str:
    lines = []
    if title:
        lines += [f"## {title}", ""]
    rounds = f" ({result['mean_rounds']:.1f} rounds)" if "mean_rounds" in result else ""
    if result["players"] == 1:
        lines.append(
            f"{result['game']}, solo, {result['games']} games ({result['deals']} deals, each "
            f"agent plays every deal alone: the win rate is the solve rate), mean length "
            f"{result['mean_length']:.1f} steps{rounds}."
        )
    else:
        lines.append(
            f"{result['game']}, {result['players']} players, {result['games']} games "
            f"({result['deals']} paired deals, seats rotated), mean length {result['mean_length']:.1f} "
            f"steps{rounds}, even win rate {_pct(result['even_win_rate'])}."
        )
    cols = headers(result)
    lines += ["", "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(row) + " |" for row in result_rows(result)]
    if has_guests_stats(result):
        lines += ["", GUESTS_NOTE]
    if "head_to_head" in result:
        specs = [a["spec"] for a in result["agents"]]
        lines += ["", "Head to head (row finishes ahead of column):", ""]
        lines.append("| | " + " | ".join(specs) + " |")
        lines.append("|" + "---|" * (len(specs) + 1))
        for a in specs:
            cells = [
                "—"
                if b == a or result["head_to_head"][a].get(b) is None
                else _pct(result["head_to_head"][a][b])
                for b in specs
            ]
            lines.append(f"| {a} | " + " | ".join(cells) + " |")
        lines += ["", "Ratings (Bradley–Terry, Elo scale, mean 0):", ""]
        lines += [
            f"- {s}: {r:+.0f}" for s, r in sorted(result["ratings"].items(), key=lambda x: -x[1])
        ]
    return "\n".join(lines) + "\n"


def wide_console(width: int = 110):
    """A rich console at least ``width`` columns wide, so agent specs are never cut."""
    from rich.console import Console

    return Console(width=max(Console().width, width))


def print_table(result: dict[str, Any], title: str | None = None) -> None:
    from rich.table import Table

    table = Table(
        title=title
        or f"{result['game']} {result['players']}p — {result['games']} games ({result.get('wall_time_s', 0):.0f} s)"
    )
    for h in headers(result):
        table.add_column(h, justify="left" if h == "agent" else "right")
    for row in result_rows(result):
        table.add_row(*row)
    console = wide_console(150 if has_guests_stats(result) else 110)
    console.print(table)
    if "ratings" in result:
        console.print(
            "ratings: "
            + ", ".join(
                f"{s} {r:+.0f}" for s, r in sorted(result["ratings"].items(), key=lambda x: -x[1])
            )
        )


def plot(result: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    agents = result["agents"]
    h2h = "head_to_head" in result
    fig, axes = plt.subplots(1, 2 if h2h else 1, figsize=(11 if h2h else 6, 4), squeeze=False)
    ax = axes[0][0]
    specs = [a["spec"] for a in agents]
    rates = [a["win_rate"] for a in agents]
    # (clipped at 0: at a win rate of exactly 0 or 1 the Wilson bound can differ by rounding)
    err = [
        [max(0.0, r - a["ci95"][0]) for r, a in zip(rates, agents, strict=True)],
        [max(0.0, a["ci95"][1] - r) for r, a in zip(rates, agents, strict=True)],
    ]
    ax.bar(range(len(specs)), rates, yerr=err, capsize=4, color="tab:blue")
    solo = result["players"] == 1  # (no opponents: the win rate is the solve rate)
    if not solo:
        ax.axhline(result["even_win_rate"], color="grey", linestyle="--", linewidth=1)
    ax.set_xticks(
        range(len(specs)), [s if len(s) < 28 else "…" + s[-26:] for s in specs], rotation=15
    )
    ax.set_ylim(0, 1)
    ax.set_ylabel("solve rate (95% CI)" if solo else "win rate (95% CI)")
    ax.set_title(f"{result['game']} {result['players']}p, {result['games']} games")
    if h2h:
        ax2 = axes[0][1]
        m = [[result["head_to_head"][a].get(b) if a != b else None for b in specs] for a in specs]
        arr = [[float("nan") if x is None else x for x in row] for row in m]
        im = ax2.imshow(arr, vmin=0, vmax=1, cmap="RdBu")
        ax2.set_xticks(range(len(specs)), specs, rotation=30, fontsize=7)
        ax2.set_yticks(range(len(specs)), specs, fontsize=7)
        ax2.set_title("head to head (row ahead of column)")
        fig.colorbar(im, ax=ax2)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def write_results(result: dict[str, Any], out: Path, stem: str) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / f"{stem}.json", out / f"{stem}.md", out / f"{stem}.png"]
    paths[0].write_text(json.dumps(result, indent=2) + "\n")
    paths[1].write_text(markdown(result))
    plot(result, paths[2])
    return paths
