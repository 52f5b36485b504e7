"""Rendering results: Markdown, PNG and terminal tables of tournaments and training runs.

``parlour eval`` and ``parlour train`` both render here. Each function takes the result (or
report) dictionary and the game's :class:`~parlour.games.Game` (looked up by the
dictionary's ``game`` when not given); a game adds its own columns and notes through its
``stats`` (:class:`~parlour.games.parts.Statistics`), and nothing here knows a game.

| what | tournament (``parlour eval``, :mod:`parlour.eval.tournament` result) | training run (``parlour train`` report) |
|---|---|---|
| Markdown | :func:`markdown` (``eval.md``; also each final tournament of a report) | :func:`report_markdown` (``report.md``) |
| PNG | :func:`plot` (``eval.png``: win rates with 95% intervals; the head-to-head matrix for more than two kinds) | :func:`plot_learning_curve` (``learning_curve.png``) |
| terminal | :func:`print_table` | :func:`print_report` |
| files | :func:`write_results` (``<stem>.json``, ``.md``, ``.png``) | :func:`write_report` (``report.json``, ``report.md``, ``learning_curve.png``) |

Files
-----

Every file is written under a temporary name and moved into place (:mod:`parlour._files`), so
a kill or a full disk never leaves half of one. The JSON files are strict JSON
(:func:`strict_json`): a number that is not finite (NaN, infinity: e.g. a mean over no games)
is written as ``null``, never as the ``NaN`` / ``Infinity`` that other JSON parsers refuse.
:func:`check_out` refuses an output folder that is not empty unless ``--overwrite``
(``parlour eval``, ``parlour league``), before anything is played.

Tables
------

| table | columns |
|---|---|
| tournament | :data:`HEADERS` + the game's columns |
| training, with opponents | :data:`REPORT_HEADERS` + the game's columns |
| training, solo (``players: 1``) | :data:`SOLO_BASE_HEADERS` + the game's solo columns: the learner, then each baseline on the same deals |

Solo there are no opponents: the win rate is the solve rate, and the report's heading says what
a solve is (``stats.solve_rate``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from parlour._files import atomic_path, write_atomic
from parlour.errors import UserError
from parlour.safe_stop import FINAL_EVALUATION

if TYPE_CHECKING:
    from parlour.games import Column, Game

#: (an agent's "seat-games": the seats it held, over all games — two seats of one game count
#: twice — the number its rates are over)
HEADERS = ["agent", "seat-games", "wins", "win rate", "95% CI", "mean score", "mean reward"]
#: (the last: where the interval lies against the even share of a seat, 1 / players)
REPORT_HEADERS = ["opponent", "seat-games", "win rate", "95% CI", "mean reward", "CI vs even share"]
SOLO_BASE_HEADERS = ["agent", "games", "solve rate", "95% CI", "mean reward"]
#: terminal width of a table without, and with, the game's extra columns
NARROW, WIDE = 110, 150
#: the longest agent spec shown in full under a bar of the plot (longer ones keep their end)
PLOT_LABEL = 28
PLOT_DPI = 100


def finite(data: Any) -> Any:
    """``data`` with every float that is not finite (NaN, +-infinity; NumPy's too) made None,
    and NumPy scalars and arrays made plain Python (mappings and sequences are copied)."""
    if isinstance(data, np.ndarray | np.generic):
        data = data.tolist()
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, Mapping):
        return {k: finite(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [finite(v) for v in data]
    return data


def strict_json(data: Any, indent: int | None = 2) -> str:
    """``data`` as strict JSON text (NaN and infinities as ``null``: :func:`finite`)."""
    return json.dumps(finite(data), indent=indent, allow_nan=False) + "\n"


def check_out(out: Path, overwrite: bool, what: str) -> None:
    """Refuse ``--out`` when it is a file, or a non-empty folder without ``--overwrite``
    (``what``: the files that would be written into it, for the message)."""
    if out.exists() and not out.is_dir():
        raise UserError(f"--out: {out} is a file, not a folder")
    if out.is_dir() and any(out.iterdir()) and not overwrite:
        raise UserError(
            f"--out: {out} exists and is not empty; use --overwrite to write {what} into it, "
            "or another folder"
        )


def save_figure(fig: Any, path: Path, dpi: int = PLOT_DPI) -> None:
    """A matplotlib figure as a PNG at ``path`` (atomically)."""
    with atomic_path(path) as tmp:
        fig.savefig(tmp, dpi=dpi, format="png")


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(ci: list[float]) -> str:
    return f"[{_pct(ci[0])}, {_pct(ci[1])}]"


def wide_console(width: int = NARROW):
    """A rich console at least ``width`` columns wide, so agent specs are never cut."""
    from rich.console import Console

    return Console(width=max(Console().width, width))


# -- tournaments ------------------------------------------------------------------------------


def _game_columns(entries: list[Mapping[str, Any]], spec: Game, solo: bool) -> tuple[Column, ...]:
    """The game's columns, when every entry carries the game's statistics (a result written
    without them, e.g. by hand, gets the plain table)."""
    keys = spec.evaluation.statistics.agent_keys
    if not entries or not all(k in e for e in entries for k in keys):
        return ()
    return spec.evaluation.statistics.report_columns(solo=solo)


def _columns(result: Mapping[str, Any], spec: Game) -> tuple[Column, ...]:
    return _game_columns(result["agents"], spec, solo=False)


def headers(result: Mapping[str, Any], spec: Game) -> list[str]:
    """The table's columns: :data:`HEADERS` plus the game's own."""
    return HEADERS + [c.header for c in _columns(result, spec)]


def result_rows(result: Mapping[str, Any], spec: Game) -> list[list[str]]:
    columns = _columns(result, spec)
    rows = []
    for a in result["agents"]:
        score = "—" if a["mean_score"] is None else f"{a['mean_score']:.2f}"
        rows.append(
            [
                a["spec"],
                str(a["games"]),
                f"{a['wins']:g}",
                _pct(a["win_rate"]),
                _ci(a["ci95"]),
                score,
                f"{a['mean_reward']:+.3f}",
            ]
            + [c.cell(a) for c in columns]
        )
    return rows


def _game_means(result: Mapping[str, Any], spec: Game) -> str:
    """`` (5.2 rounds)`` for each of the game's per-game numbers the result averages."""
    keys = [k for k in spec.evaluation.statistics.game_keys if f"mean_{k}" in result]
    return "".join(f" ({result[f'mean_{k}']:.1f} {k})" for k in keys)


def _head_to_head_lines(result: Mapping[str, Any]) -> list[str]:
    specs = [a["spec"] for a in result["agents"]]
    lines = ["", "Head to head (row finishes ahead of column):", ""]
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
    ranked = sorted(result["ratings"].items(), key=lambda x: -x[1])
    return lines + [f"- {s}: {r:+.0f}" for s, r in ranked]


def markdown(result: Mapping[str, Any], title: str | None = None, *, spec: Game) -> str:
    """A tournament as Markdown: settings, the table, the game's note, head to head."""

    lines = [f"## {title}", ""] if title else []
    means = _game_means(result, spec)
    if result["players"] == 1:
        lines.append(
            f"{result['game']}, solo, {result['games']} games ({result['deals']} deals, each "
            f"agent plays every deal alone: the win rate is the solve rate), mean length "
            f"{result['mean_length']:.1f} steps{means}."
        )
    else:
        lines.append(
            f"{result['game']}, {result['players']} players, {result['games']} games "
            f"({result['deals']} paired deals, seats rotated), mean length "
            f"{result['mean_length']:.1f} steps{means}, even win rate "
            f"{_pct(result['even_win_rate'])}."
        )
    cols = headers(result, spec)
    lines += ["", "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(row) + " |" for row in result_rows(result, spec)]
    if _columns(result, spec) and spec.evaluation.statistics.note:
        lines += ["", spec.evaluation.statistics.note]
    if "head_to_head" in result:
        lines += _head_to_head_lines(result)
    return "\n".join(lines) + "\n"


def print_table(result: Mapping[str, Any], title: str | None = None, *, spec: Game) -> None:
    from rich.table import Table

    table = Table(
        title=title
        or f"{result['game']} {result['players']}p — {result['games']} games "
        f"({result.get('wall_time_s', 0):.0f} s)"
    )
    for h in headers(result, spec):
        table.add_column(h, justify="left" if h == "agent" else "right")
    for row in result_rows(result, spec):
        table.add_row(*row)
    console = wide_console(WIDE if _columns(result, spec) else NARROW)
    console.print(table)
    if "ratings" in result:
        ranked = sorted(result["ratings"].items(), key=lambda x: -x[1])
        console.print("ratings: " + ", ".join(f"{s} {r:+.0f}" for s, r in ranked))


def plot(result: Mapping[str, Any], path: Path) -> None:
    """``eval.png``: win (solo: solve) rates with 95% intervals, and the head-to-head matrix."""
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
    labels = [s if len(s) < PLOT_LABEL else "…" + s[2 - PLOT_LABEL :] for s in specs]
    ax.set_xticks(range(len(specs)), labels, rotation=15)
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
    save_figure(fig, path)
    plt.close(fig)


def write_results(result: Mapping[str, Any], out: Path, stem: str, spec: Game) -> list[Path]:
    """``<stem>.json``, ``<stem>.md`` and ``<stem>.png`` of a tournament in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / f"{stem}.json", out / f"{stem}.md", out / f"{stem}.png"]
    write_atomic(paths[0], strict_json(result))
    write_atomic(paths[1], markdown(result, spec=spec))
    plot(result, paths[2])
    return paths


# -- training reports -----------------------------------------------------------------------------


def _report_columns(report: Mapping[str, Any], spec: Game) -> tuple[Column, ...]:
    entries = list(report["final"].values())
    return _game_columns(entries, spec, solo=report["players"] == 1)


def report_headers(report: Mapping[str, Any], spec: Game) -> list[str]:
    """The final table's columns (solo: the learner and the baselines, each alone)."""
    base = SOLO_BASE_HEADERS if report["players"] == 1 else REPORT_HEADERS
    return base + [c.header for c in _report_columns(report, spec)]


def report_rows(report: Mapping[str, Any], spec: Game) -> list[list[str]]:
    """With opponents: one row per opponent, the learner's results against it."""
    columns = _report_columns(report, spec)
    even = 1.0 / report["players"]
    rows = []
    for opp, s in report["final"].items():
        lo, hi = s["ci95"]
        verdict = (
            f"above {_pct(even)}"
            if lo > even
            else f"below {_pct(even)}"
            if hi < even
            else f"not separated from {_pct(even)}"
        )
        rows.append(
            [opp, str(s["games"]), _pct(s["win_rate"]), _ci(s["ci95"])]
            + [f"{s['mean_reward']:+.3f}", verdict]
            + [c.cell(s) for c in columns]
        )
    return rows


def _solo_row(name: str, s: Mapping[str, Any], columns: tuple[Column, ...]) -> list[str]:
    return [name, str(s["games"]), _pct(s["win_rate"]), _ci(s["ci95"])] + [
        f"{s['mean_reward']:+.3f}",
        *(c.cell(s) for c in columns),
    ]


def solo_rows(report: Mapping[str, Any], spec: Game) -> list[list[str]]:
    """Solo: the learner, then each baseline, on the same deals. Every final tournament plays
    the learner on the same deals, so its row is shown once (again only if it differs)."""
    columns = _report_columns(report, spec)
    learner: list[list[str]] = []
    baselines = []
    for opp, s in report["final"].items():
        row = _solo_row("learner", s, columns)
        if not learner or row[1:] != learner[0][1:]:
            learner.append(row if not learner else [f"learner (with {opp})", *row[1:]])
        if "baseline" in s:
            baselines.append(_solo_row(opp, s["baseline"], columns))
    return learner + baselines


def table_rows(report: Mapping[str, Any], spec: Game) -> list[list[str]]:
    """The final table's rows (solo: :func:`solo_rows`)."""
    return solo_rows(report, spec) if report["players"] == 1 else report_rows(report, spec)


def _history_lines(report: Mapping[str, Any], columns: tuple[Column, ...]) -> list[str]:
    """The table of the evaluations during training (solo: the learner's solve rate)."""
    history = report["history"]
    if not history:
        return ["(none: the run was shorter than eval.every)"]
    steps = [f"{h['timesteps']}{' (final)' if h.get('final') else ''}" for h in history]
    walls = [f"{h['wall_time_s']:.0f} s" for h in history]
    if report["players"] == 1:
        cols = ["steps", "wall time", "solve rate", "95% CI", *(c.header for c in columns)]
        cells = []
        for h in history:
            row = _solo_row("", next(iter(h["results"].values())), columns)
            cells.append(row[2:4] + row[5:])
    else:
        # every opponent any evaluation had (the final one may have others: eval.final_agents)
        opps = list(dict.fromkeys(o for h in history for o in h["results"]))
        cols = ["steps", "wall time", *(f"vs {o}" for o in opps)]
        cells = [
            [_pct(h["results"][o]["win_rate"]) if o in h["results"] else "—" for o in opps]
            for h in history
        ]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for step, wall, row in zip(steps, walls, cells, strict=True):
        lines.append(f"| {step} | {wall} | " + " | ".join(row) + " |")
    return lines


def report_markdown(report: Mapping[str, Any], spec: Game) -> str:
    """``report.md``: the run, the final table, the learning curve, the history, the final
    tournaments."""

    columns = _report_columns(report, spec)
    lines = [
        f"# Training report: {report['name']}",
        "",
        f"{report['game']}, {report['players']} players, options {report['game_options'] or '{}'}; "
        f"{report['timesteps']} learner steps in {report['train_wall_time_s']:.0f} s of training "
        f"(the last session ran at {report['train_steps_per_s']:.0f} steps/s, periodic "
        "evaluations excluded); final evaluation "
        f"{report['final_eval_wall_time_s']:.0f} s.",
        "",
    ]
    # (an RLlib run's checkpoints hold pickles: its resume needs the trust flag)
    resume = "--resume --trust-model" if report.get("backend") == "rllib" else "--resume"
    if report.get("interrupted_during") == FINAL_EVALUATION:
        lines += [
            f"**Interrupted** during the final evaluation, after {report['timesteps']} learner "
            "steps of training (Ctrl-C or SIGTERM): the model and the checkpoint were saved, "
            f"the final evaluation was not finished; `parlour train CONFIG {resume}` plays it.",
            "",
        ]
    elif report.get("interrupted"):
        lines += [
            f"**Interrupted** at {report['timesteps']} learner steps (Ctrl-C or SIGTERM): the "
            "model and a checkpoint were saved there, the final evaluation was not played; "
            f"`parlour train CONFIG {resume}` continues the run.",
            "",
        ]
    imitation = report.get("imitation")
    if imitation:
        last = imitation["epochs"][-1]
        lines += [
            f"First stage, imitation of `{imitation['teacher']}` (included in the training time): "
            f"{imitation['decisions_kept']} of its decisions ({imitation['teacher_games']} games) "
            f"recorded in {imitation['record_wall_time_s']:.0f} s, fitted in "
            f"{imitation['fit_wall_time_s']:.0f} s ({last['epoch']} epochs); the network then "
            f"chose the teacher's action in {last['agreement']:.1%} of them.",
            "",
        ]
    solo = report["players"] == 1
    if solo:
        lines.append(
            "## Final evaluation (solo: the learner and each baseline play the same deals alone; "
            f"solve rate = {spec.evaluation.statistics.solve_rate}, Wilson 95% CI)"
        )
    else:
        lines.append(
            "## Final evaluation (learner's win rate, seats rotated, paired deals, Wilson 95% CI)"
        )
    cols = report_headers(report, spec)
    lines += ["", "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(r) + " |" for r in table_rows(report, spec)]
    note = (
        spec.evaluation.statistics.solo_note
        if solo
        else spec.evaluation.statistics.note
        if columns
        else ""
    )
    if note:
        lines += ["", note]
    lines += ["", "![learning curve](learning_curve.png)", "", "## Evaluations during training", ""]
    lines += _history_lines(report, columns)
    lines += ["", "## Final tournaments", ""]
    for opp, r in report["final_tournaments"].items():
        title = f"with {opp} (the same deals, each alone)" if solo else f"vs {opp}"
        lines.append(markdown(r, title, spec=spec))
    return "\n".join(lines) + "\n"


def _curve(ax: Any, points: list[tuple[int, Mapping[str, Any]]], label: str) -> None:
    """One rate over training with its 95% band."""
    x = np.array([t for t, _ in points])
    y = np.array([s["win_rate"] for _, s in points])
    lo = np.array([s["ci95"][0] for _, s in points])
    hi = np.array([s["ci95"][1] for _, s in points])
    (line,) = ax.plot(x, y, marker="o", label=label)
    ax.fill_between(x, lo, hi, alpha=0.2, color=line.get_color())


def plot_learning_curve(report: Mapping[str, Any], path: Path) -> None:
    """``learning_curve.png``: the learner's win rate against each baseline over training
    (solo: its solve rate, with each baseline's final solve rate dashed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    by_step = {h["timesteps"]: h for h in report["history"]}  # (a final eval beats a periodic one)
    history = [by_step[t] for t in sorted(by_step)]
    if report["players"] == 1:
        learner = [
            (h["timesteps"], next(iter(h["results"].values()))) for h in history if h["results"]
        ]
        _curve(ax, learner, "learner")
        for i, (opp, s) in enumerate(report["final"].items()):
            if "baseline" in s:
                rate = s["baseline"]["win_rate"]
                ax.axhline(
                    rate,
                    color=f"C{i + 1}",
                    linestyle="--",
                    linewidth=1,
                    label=f"{opp} (final deals)",
                )
        ax.set_ylabel("solve rate (95% CI)")
        ax.set_title(f"{report['name']}: solve rate (solo)")
    else:
        for opp in report["final"]:
            _curve(
                ax,
                [(h["timesteps"], h["results"][opp]) for h in history if opp in h["results"]],
                f"vs {opp}",
            )
        even = 1.0 / report["players"]
        ax.axhline(even, color="grey", linestyle="--", linewidth=1, label="even")
        ax.set_ylabel("win rate (95% CI)")
        ax.set_title(f"{report['name']}: win rate against the baselines")
    ax.set_xlabel("learner steps")
    ax.set_ylim(0, 1)
    ax.legend(loc="lower right")
    fig.tight_layout()
    save_figure(fig, path)
    plt.close(fig)


def write_report(report: Mapping[str, Any], run_dir: Path, spec: Game) -> None:
    """``report.json``, ``report.md`` and ``learning_curve.png`` in ``run_dir``."""
    write_atomic(run_dir / "report.json", strict_json(report))
    write_atomic(run_dir / "report.md", report_markdown(report, spec))
    plot_learning_curve(report, run_dir / "learning_curve.png")


def print_report(report: Mapping[str, Any], spec: Game) -> None:
    """The final table in the terminal."""
    from rich.table import Table

    table = Table(
        title=f"{report['name']}: {report['timesteps']} steps, train "
        f"{report['train_wall_time_s']:.0f} s + eval {report['final_eval_wall_time_s']:.0f} s"
    )
    left = ("opponent", "agent", REPORT_HEADERS[-1])
    for h in report_headers(report, spec):
        table.add_column(h, justify="left" if h in left else "right")
    for row in table_rows(report, spec):
        table.add_row(*row)
    solo = report["players"] == 1
    wide_console(WIDE if solo or _report_columns(report, spec) else NARROW).print(table)
