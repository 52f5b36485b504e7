"""The generalization table of the shipped Awkward Guests models: train cases against held-out
test cases of a case bank (``docs/results.md``).

```
.venv/bin/python tools/generalization.py docs/generalization.md [--games 400] [--seed 0]
    [--workers N] [--runs runs/generalization] [--models NAME ...]
```

For each shipped Guests model (``parlour models``; its player count and game options from
``models/index.yaml``; ``--models`` picks some) it runs two ``parlour eval --compare
case_split=train,test`` commands on the shipped bank of the model's level
(``--option case_bank=LEVEL``, and the model's game options):

| row | agents | games |
|---|---|---|
| the model | ``ppo:NAME guests.deducer`` at the model's player count, seats rotated (solo: ``ppo:NAME`` alone) | ``--games`` per split |
| the control | ``guests.deducer`` in every seat (solo: alone). The deducer reasons from the rules and the cards it has seen: it cannot have memorised the training cases, so a difference between its train and test numbers is a difference between the splits, not overfitting | the same deals as the model's run (its deal count: one seat arrangement per deal) |

Each split is played on the same seeds (``--seed``); within a split the model and the control
play the same deals. The bank's splits are disjoint (``parlour case bank info``). The table's
"trained on" column says what the model saw: most shipped models were trained on generated
cases, before banks, so neither split was seen in training and the table says whether their
play holds across the bank's splits; ``guests-2p-easy-bank`` was trained on the easy bank's
train split only (``configs/guests_2p_easy_bank.yaml``), so its test column is a held-out test
(the control measures how much the splits themselves differ).

It writes ``OUT`` (Markdown: the table, what its columns mean, the exact commands with their
wall times) and ``OUT`` with the suffix ``.json`` (every row's numbers, the commands, the wall
times, and each command's ``compare.json``), and keeps each command's folder under ``--runs``
(``NAME`` and ``NAME-control``: ``compare.*`` and each split's ``eval.*``). The cells are
:mod:`parlour.eval.compare`'s: the value and its 95% interval (Wilson for shares; ``mean ±
1.96·sd/√n`` for rounds to solve), with ``of n`` (solves, accusations) where it counts something
other than seat-games.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from parlour._files import write_atomic
from parlour.apps.cli import main as parlour_main
from parlour.envs.awkward_guests.case_source import DEFAULT_CASE_SPLIT
from parlour.eval.compare import estimate_cell, share_cell
from parlour.eval.report import strict_json
from parlour.eval.tournament import arrangements
from parlour.games import get_game
from parlour.games.guests.web import DEFAULT_LEVEL
from parlour.models import ShippedModel, shipped_models

GAME = "guests"
#: the scripted agent every model plays against, and the control
DEDUCER = "guests.deducer"
#: the option compared and its values
SPLIT_KEY, SPLITS = "case_split", ("train", "test")
#: games per split per row unless ``--games`` says otherwise
DEFAULT_GAMES = 400
DEFAULT_RUNS = Path("runs/generalization")


def guests_models(names: list[str] | None) -> list[ShippedModel]:
    """The shipped Guests models (``names``: only those), by player count then name."""
    models = {n: m for n, m in shipped_models().items() if m.game == GAME}
    if names:
        unknown = sorted(set(names) - set(models))
        if unknown:
            raise SystemExit(
                f"--models: not shipped Guests models: {unknown}; known: {sorted(models)}"
            )
        models = {n: models[n] for n in names}
    return sorted(models.values(), key=lambda m: (m.players, m.name))


def level_of(model: ShippedModel) -> str:
    """The level the model was trained on (the env's default when its options name none)."""
    return str(model.game_options.get("level", DEFAULT_LEVEL))


def trained_on(model: ShippedModel) -> str:
    """What the model's training dealt: a bank's split, or generated cases."""
    options = model.game_options
    if options.get("case_bank"):
        return f"bank {options['case_bank']}, {options.get(SPLIT_KEY, DEFAULT_CASE_SPLIT)} split"
    return "generated cases"


def eval_argv(
    model: ShippedModel, agents: list[str], games: int, args: argparse.Namespace, out: Path
) -> list[str]:
    """The ``parlour eval`` arguments of one row."""
    # (a model trained on a bank names its split: the compared option replaces it)
    trained = {k: v for k, v in model.game_options.items() if k != SPLIT_KEY}
    options = {"case_bank": level_of(model), **trained}
    argv = ["eval", "--game", GAME, "--players", str(model.players), "--agents", *agents]
    for key, value in options.items():
        argv += ["--option", f"{key}={value}"]
    argv += ["--compare", f"{SPLIT_KEY}={','.join(SPLITS)}", "--games", str(games)]
    argv += ["--seed", str(args.seed), "--out", str(out), "--overwrite", "--no-progress"]
    if args.workers is not None:
        argv += ["--workers", str(args.workers)]
    return argv


def run_eval(argv: list[str]) -> tuple[dict[str, Any], float]:
    """Run ``parlour eval`` in this process: its ``compare.json`` and the wall time."""
    t0 = time.perf_counter()
    code = parlour_main(argv)
    wall = time.perf_counter() - t0
    if code != 0:
        raise SystemExit(f"parlour {shlex.join(argv)} failed (exit {code})")
    out = Path(argv[argv.index("--out") + 1])
    return json.loads((out / "compare.json").read_text()), wall


def model_rows(model: ShippedModel, args: argparse.Namespace) -> list[dict[str, Any]]:
    """The model's row and its control row (each: its command, numbers and wall time)."""
    solo = model.players == 1
    agents = [f"ppo:{model.name}"] if solo else [f"ppo:{model.name}", DEDUCER]
    # the control plays the model run's deals: one arrangement per deal (a single kind)
    deals = -(-args.games // len(arrangements(len(agents), model.players)))
    rows = []
    for role, specs, games, folder in (
        ("model", agents, args.games, model.name),
        ("control", [DEDUCER], deals, f"{model.name}-control"),
    ):
        argv = eval_argv(model, specs, games, args, args.runs / folder)
        compared, wall = run_eval(argv)
        seating = "alone" if solo else ("every seat" if role == "control" else f"vs {DEDUCER}")
        rows.append(
            {
                "model": model.name,
                "players": model.players,
                "bank": level_of(model),
                "trained_on": trained_on(model) if role == "model" else "(scripted)",
                "role": role,
                "agent": f"{specs[0]} ({seating})",
                "command": "parlour " + shlex.join(argv),
                "wall_time_s": round(wall, 1),
                "tournaments_wall_time_s": sum(r["wall_time_s"] for r in compared["runs"]),
                "row": compared["rows"][0],  # (the model, or the deducer of the control)
                "compare": compared,
            }
        )
        print(f"{model.name} {role}: {wall:.0f} s", file=sys.stderr)
    return rows


def headers() -> list[str]:
    stats = get_game(GAME).evaluation.statistics
    names = ["win rate"] + [e.header for e in stats.estimates]
    return ["model", "trained on", "players", "bank", "agent", "seat-games"] + [
        f"{n} ({s})" for n in names for s in SPLITS
    ]


def table_row(row: dict[str, Any]) -> list[str]:
    stats = get_game(GAME).evaluation.statistics
    cells = [row["row"]["by_value"][s] for s in SPLITS]
    line = [row["model"], row["trained_on"], str(row["players"]), row["bank"], row["agent"]]
    line.append(str(cells[0]["games"]))
    line += [share_cell(c["win_rate"], c["ci95"]) for c in cells]
    for e in stats.estimates:  # (solo too: solved is the solve rate there)
        line += [estimate_cell(e, c["estimates"].get(e.key)) for c in cells]
    return line


def markdown(rows: list[dict[str, Any]], args: argparse.Namespace) -> str:
    stats = get_game(GAME).evaluation.statistics
    cols = headers()
    lines = [
        "## Generalization: train against held-out test cases",
        "",
        f"Each shipped Awkward Guests model against `{DEDUCER}` at its player count (solo: "
        f"alone) on the shipped case bank of its level, `{SPLIT_KEY}=train` beside "
        f"`{SPLIT_KEY}=test` (disjoint splits); {args.games} games per split per model row, "
        f"seed {args.seed}. Control rows: `{DEDUCER}` in every seat on the same deal seeds "
        "(it cannot overfit: a gap there is a gap between the splits; with every seat its own, "
        "its win rate is the share of games someone won over the players: its other columns "
        "are the control). Rates are per seat-game; each cell is the value and its 95% "
        "interval [low, high] (percentages: Wilson).",
        "",
        "| " + " | ".join(cols) + " |",
        "|" + "---|" * len(cols),
    ]
    lines += ["| " + " | ".join(table_row(r)) + " |" for r in rows]
    lines += ["", stats.estimates_note + " Solo, solved is the solve rate (the win rate).", ""]
    lines += ["Commands (each row's wall time, both splits, on this machine):", "", "```"]
    for r in rows:
        lines.append(f"{r['command']}   # {r['wall_time_s']:.0f} s")
    lines += ["```", ""]
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", type=Path, help="the Markdown file (the JSON beside it, .json)")
    p.add_argument("--games", type=int, default=DEFAULT_GAMES, help="games per split per row")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=None, help="processes (default: one per core)")
    p.add_argument("--runs", type=Path, default=DEFAULT_RUNS, help="the commands' folders")
    p.add_argument("--models", nargs="+", default=None, help="only these shipped models")
    args = p.parse_args(argv)
    if args.games < 1:
        p.error(f"--games must be >= 1, got {args.games}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    t0 = time.perf_counter()
    rows = [row for model in guests_models(args.models) for row in model_rows(model, args)]
    result = {
        "games": args.games,
        "seed": args.seed,
        "workers": args.workers,
        "wall_time_s": round(time.perf_counter() - t0, 1),
        "rows": rows,
    }
    text = markdown(rows, args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(args.out, text)
    write_atomic(args.out.with_suffix(".json"), strict_json(result, indent=1))
    print(text)
    print(f"wrote {args.out}, {args.out.with_suffix('.json')}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
