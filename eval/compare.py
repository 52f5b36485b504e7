"""``parlour eval --compare KEY=V1,V2[,...]``: the same tournament once per value of a game option,
side by side.

```
parlour eval --game guests --players 2 --agents ppo:guests-2p-easy guests.deducer \\
    --option case_bank=easy --compare case_split=train,test --games 400
parlour eval --game audition --players 2 --agents audition.greedy random --compare action_cards=0,2
```

Every value plays the tournament ``parlour eval`` would play with ``--option KEY=V`` added: the
same agents, seed, games and workers (so, within each value, the same paired deals and seats; a
separate ``parlour eval --option KEY=V`` run with the same settings gives the same numbers). Each
run's usual files go to ``OUT/KEY=V/`` (``eval.json``, ``eval.md``, ``eval.png``, and replays
with ``--save-replays``); the comparison to ``OUT/compare.json`` and ``OUT/compare.md``, and its
table is printed.

| function | what |
|---|---|
| :func:`parse_compare` | the ``--compare`` text as a :class:`Comparison` (refused, with one line: no ``=``, an empty or repeated value, fewer than :data:`MIN_VALUES` values, a value that is not YAML or cannot be a folder name, the key also given as ``--option``) |
| :func:`check_values` | builds the tournament's env and agents for every value before any game is played (a value the game refuses fails here) |
| :func:`comparison_result` | the ``compare.json`` dictionary from the runs' results |
| :func:`comparison_markdown`, :func:`print_comparison`, :func:`write_comparison` | ``compare.md``, the terminal table, the files |
| :func:`share_cell`, :func:`mean_cell`, :func:`estimate_cell` | the table's cells (``tools/generalization.py`` builds its table with them) |

The table: one row per agent; the seat-games it held in each run (the same for every value), then
for each number the values side by side: the win rate (solo: the solve rate) with its Wilson 95%
interval, then each of the game's estimates (:class:`~parlour.games.parts.Estimate`: its
``Statistics.estimates``, from each agent entry's ``estimates``, :mod:`parlour.eval.tournament`)
with its 95% interval and, where the game says what its ``n`` counts, ``of n``. Awkward Guests:
solved, rounds to solve, wrong accusations (:mod:`parlour.games.guests.plugin`); a game without
estimates (Audition) gets the win rates only.

``compare.json``:

| key | meaning |
|---|---|
| ``game``, ``players``, ``agents`` (specs), ``seed`` | the settings every run shares |
| ``key``, ``values`` | the option compared and its values as given (the folder of each run is ``KEY=VALUE``) |
| ``runs`` | per value, in order: ``value``, ``option`` (the value read as YAML), ``folder``, ``game_options`` (as played), ``games``, ``deals``, ``workers``, ``wall_time_s`` |
| ``rows`` | per agent: ``spec`` and ``by_value`` (value -> ``games``, ``wins``, ``win_rate``, ``ci95``, ``mean_reward``, and the game's ``estimates`` when it has any) |
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from parlour._files import write_atomic
from parlour.errors import UserError
from parlour.eval.report import strict_json, wide_console
from parlour.models import seat_options

if TYPE_CHECKING:
    from parlour.games import Game
    from parlour.games.parts import Estimate

#: the fewest values a comparison takes
MIN_VALUES = 2
#: what a value may not contain: it names a folder (``OUT/KEY=VALUE``)
BAD_FOLDER_CHARS = re.compile(r"[/\\\x00]")
#: the keys of an agent entry a comparison keeps per value
ROW_KEYS = ("games", "wins", "win_rate", "ci95", "mean_reward")
#: the syntax, for the error messages
SYNTAX = "KEY=V1,V2[,...]"


@dataclass(frozen=True)
class Comparison:
    """An option and the values to compare (``labels``: as given; ``values``: read as YAML)."""

    key: str
    labels: tuple[str, ...]
    values: tuple[Any, ...]

    def folder(self, label: str) -> str:
        """The run's folder name in ``--out``: ``KEY=VALUE``."""
        return f"{self.key}={label}"

    def runs(self, options: Mapping[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
        """Each value's label and game options (``options`` with ``KEY`` set)."""
        for label, value in zip(self.labels, self.values, strict=True):
            yield label, {**options, self.key: value}


def parse_compare(text: str, options: Mapping[str, Any]) -> Comparison:
    """``--compare KEY=V1,V2[,...]`` as a :class:`Comparison` (``options``: the ``--option``
    items; the key may not be one of them); :class:`~parlour.errors.UserError` if it is bad."""
    import yaml

    key, eq, rest = text.partition("=")
    if not eq or not key.strip() or not rest:
        raise UserError(f"--compare takes {SYNTAX}, got {text!r}")
    if BAD_FOLDER_CHARS.search(key):
        raise UserError(f"--compare: the key {key!r} names a folder: no '/', '\\' or NUL")
    if key in options:
        raise UserError(
            f"--compare {key}: the key is also given as --option {key}=...; give it in one place"
        )
    labels = rest.split(",")
    if len(labels) < MIN_VALUES:
        raise UserError(
            f"--compare {key}: needs at least {MIN_VALUES} values ({SYNTAX}), got {rest!r}"
        )
    values = []
    for label in labels:
        if not label.strip() or label in (".", "..") or BAD_FOLDER_CHARS.search(label):
            raise UserError(
                f"--compare {key}: {label!r} is not a value (values name the folders "
                f"{key}=VALUE: not empty, no '/', '\\' or NUL), in {rest!r}"
            )
        try:
            values.append(yaml.safe_load(label))
        except yaml.YAMLError as exc:
            msg = " ".join(str(exc).split())
            raise UserError(f"--compare {key}: {label!r} is not a YAML value: {msg}") from None
    for i, label in enumerate(labels):
        for j in range(i):
            if labels[j] == label or _same(values[j], values[i]):
                raise UserError(
                    f"--compare {key}: {labels[j]!r} and {label!r} are the same value; "
                    "each value once"
                )
    return Comparison(key, tuple(labels), tuple(values))


def _same(a: Any, b: Any) -> bool:
    """The same YAML value (``1`` and ``1.0`` or ``true`` are different options)."""
    return type(a) is type(b) and a == b


def check_values(
    game: Game,
    players: int,
    specs: Sequence[str],
    options: Mapping[str, Any],
    comparison: Comparison,
    seed: int,
    *,
    trust: bool = False,
) -> None:
    """Build the env and agents of each value's tournament (as its first step would), so that
    a value the game or an agent refuses fails before any game is played; ``ValueError`` naming
    the value."""
    from parlour.eval.tournament import per_game_stepper

    for label, opts in comparison.runs(options):
        try:
            per_game_stepper(
                game, players, seat_options(list(specs), opts), list(specs), seed, trust
            )
        except (ValueError, OSError) as exc:  # (OSError: e.g. a file the value names is missing)
            raise ValueError(f"with {comparison.folder(label)}: {exc}") from None


def comparison_result(
    comparison: Comparison, results: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """``compare.json``: the settings, each run, and per agent its numbers for each value."""
    first = results[0]
    runs = [
        {
            "value": label,
            "option": value,
            "folder": comparison.folder(label),
            "game_options": r["game_options"],
            "games": r["games"],
            "deals": r["deals"],
            "workers": r["workers"],
            "wall_time_s": r["wall_time_s"],
        }
        for label, value, r in zip(comparison.labels, comparison.values, results, strict=True)
    ]
    rows = []
    for i, agent in enumerate(first["agents"]):
        by_value = {}
        for label, r in zip(comparison.labels, results, strict=True):
            entry = r["agents"][i]
            by_value[label] = {k: entry[k] for k in ROW_KEYS}
            if "estimates" in entry:
                by_value[label]["estimates"] = entry["estimates"]
        rows.append({"spec": agent["spec"], "by_value": by_value})
    return {
        "game": first["game"],
        "players": first["players"],
        "agents": [a["spec"] for a in first["agents"]],
        "seed": first["seed"],
        "key": comparison.key,
        "values": list(comparison.labels),
        "runs": runs,
        "rows": rows,
    }


# -- rendering -------------------------------------------------------------------------------------


def share_cell(value: float, ci: Sequence[float] | None) -> str:
    """A share and its interval as a cell: ``61.0% [56.1, 65.7]`` (the interval in %)."""
    interval = "" if ci is None else f" [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"
    return f"{100 * value:.1f}%{interval}"


def mean_cell(value: float, ci: Sequence[float] | None) -> str:
    """A mean and its interval as a cell: ``5.31 [5.02, 5.60]``."""
    interval = "" if ci is None else f" [{ci[0]:.2f}, {ci[1]:.2f}]"
    return f"{value:.2f}{interval}"


def estimate_cell(estimate: Estimate, entry: Mapping[str, Any] | None) -> str:
    """The cell of one estimate entry: the value, its interval, and ``of n`` (``—``: none)."""
    if entry is None or entry["value"] is None:
        return "—" + (" of 0" if estimate.counts else "")
    text = (share_cell if estimate.share else mean_cell)(entry["value"], entry["ci95"])
    return text + (f" of {entry['n']}" if estimate.counts else "")


def _estimates(compared: Mapping[str, Any], spec: Game) -> tuple[Estimate, ...]:
    """The game's estimates, when every row carries them (else the win rates only)."""
    stats = spec.evaluation.statistics
    cells = [v for row in compared["rows"] for v in row["by_value"].values()]
    keys = [e.key for e in stats.estimates]
    if not cells or not all(k in c.get("estimates", {}) for c in cells for k in keys):
        return ()
    return stats.estimate_columns(solo=compared["players"] == 1)


def comparison_headers(compared: Mapping[str, Any], spec: Game) -> list[str]:
    """The table's columns: agent, seat-games, then each number for each value."""
    rate = "solve rate" if compared["players"] == 1 else "win rate"
    names = [rate] + [e.header for e in _estimates(compared, spec)]
    return ["agent", "seat-games"] + [f"{n} ({v})" for n in names for v in compared["values"]]


def comparison_rows(compared: Mapping[str, Any], spec: Game) -> list[list[str]]:
    estimates = _estimates(compared, spec)
    values = compared["values"]
    rows = []
    for row in compared["rows"]:
        cells = [row["by_value"][v] for v in values]
        counts = sorted({c["games"] for c in cells})  # (the same for every value)
        line = [row["spec"], " / ".join(str(n) for n in counts)]
        line += [share_cell(c["win_rate"], c["ci95"]) for c in cells]
        for e in estimates:
            line += [estimate_cell(e, c["estimates"].get(e.key)) for c in cells]
        rows.append(line)
    return rows


def _settings_line(compared: Mapping[str, Any]) -> str:
    run = compared["runs"][0]
    others = [f"`{k}={v}`" for k, v in run["game_options"].items() if k != compared["key"]]
    table = (
        "solo (each agent plays every deal alone: the win rate is the solve rate)"
        if compared["players"] == 1
        else f"{compared['players']} players, seats rotated"
    )
    return (
        f"{compared['game']}, {table}; {run['games']} games ({run['deals']} deals) per value, "
        f"seed {compared['seed']}, the same agents and seeds for each value of "
        f"`{compared['key']}`; other options: {', '.join(others) or 'none'}. Win rates are per "
        "seat-game; each cell is the value and its 95% interval [low, high] (for a percentage, "
        "in %: Wilson)."
    )


def comparison_markdown(compared: Mapping[str, Any], spec: Game) -> str:
    """``compare.md``: the settings, the table, the game's note, the runs' folders."""
    values = ", ".join(f"`{v}`" for v in compared["values"])
    lines = [f"## {compared['game']}: `{compared['key']}` = {values}", ""]
    lines += [_settings_line(compared), ""]
    cols = comparison_headers(compared, spec)
    lines += ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(r) + " |" for r in comparison_rows(compared, spec)]
    note = spec.evaluation.statistics.estimates_note
    if _estimates(compared, spec) and note:
        lines += ["", note]
    lines += ["", "Runs:", ""]
    lines += [
        f"- [`{r['folder']}`]({r['folder']}/eval.md): {r['wall_time_s']:.0f} s, "
        f"{r['workers']} worker(s)"
        for r in compared["runs"]
    ]
    return "\n".join(lines) + "\n"


def print_comparison(compared: Mapping[str, Any], spec: Game) -> None:
    """The table in the terminal."""
    from rich.table import Table

    table = Table(title=f"{compared['game']} {compared['players']}p: {compared['key']} compared")
    headers = comparison_headers(compared, spec)
    rows = comparison_rows(compared, spec)
    for h in headers:
        table.add_column(h, justify="left" if h == "agent" else "right")
    for row in rows:
        table.add_row(*row)
    # wide enough for every cell on one line (rich's borders and padding: 3 per column, plus 1)
    widths = [max(len(c) for c in column) for column in zip(headers, *rows, strict=True)]
    wide_console(sum(widths) + 3 * len(widths) + 1).print(table)


def write_comparison(compared: Mapping[str, Any], out: Path, spec: Game) -> list[Path]:
    """``compare.json`` and ``compare.md`` in ``out`` (each written atomically)."""
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "compare.json", out / "compare.md"]
    write_atomic(paths[0], strict_json(compared))
    write_atomic(paths[1], comparison_markdown(compared, spec))
    return paths
