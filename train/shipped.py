"""``parlour models``: the trained models shipped with parlour, and adding a run's model to them.

```
parlour models                                          # list them
parlour models add runs/audition_2p --name audition-2p --default
```

``parlour models`` (or ``parlour models list``) prints one line per shipped model: its agent
spec ``ppo:NAME``, game, players, game options, whether it is the default for its table (the
opponent ``parlour play`` seats), and its model card's summary line. The registry is
:mod:`parlour.models` (the ``models/`` folder, or ``$PARLOUR_MODELS_DIR``).

``parlour models add RUN --name NAME`` adds a finished ``parlour train`` run's model:

| option | meaning |
|---|---|
| ``RUN`` | the run folder (``runs/<name>``): its ``model.zip`` and ``report.json`` are read |
| ``--name NAME`` | the short name (``ppo:NAME``): letters, digits, ``_``, ``-``, ``.`` |
| ``--default`` | make it the default for its game, player count and options (the previous default loses the flag) |
| ``--overwrite`` | replace a shipped model of the same name (without it, the name must be new) |

It copies ``model.zip`` to ``NAME.zip``, writes the model card ``NAME.md`` (game, players, game
options, learner steps, training wall time, the run's final evaluation table and its config) and
adds the entry to ``index.yaml`` (the game options recorded are the run's, without training-only
ones). Nothing is written when the run or the name is refused.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from parlour.models import INDEX_FILE, check_name, models_dir, read_index

HELP = "list the shipped trained models (ppo:NAME), or add a run's model to them"
#: the header of a written index.yaml
INDEX_HEADER = """\
# The shipped trained models (parlour.models): one entry per NAME.zip / NAME.md of this folder.
# Written by `parlour models add RUN --name NAME [--default]`; see models/__init__.py for the keys.
"""


#: the member of an SB3 model zip that holds the optimizer's state
OPTIMIZER_FILE = "policy.optimizer.pth"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    sub.add_parser("list", help="list the shipped models (the default)")
    add = sub.add_parser("add", help="add a finished run's model to the shipped models")
    add.add_argument("run", help="the run folder (runs/<name>) holding model.zip and report.json")
    add.add_argument("--name", required=True, help="the short name (ppo:NAME)")
    add.add_argument("--default", action="store_true", help="the default for its table")
    add.add_argument("--overwrite", action="store_true", help="replace a model of that name")


def run(args: argparse.Namespace) -> int:
    if getattr(args, "action", None) == "add":
        model = add_model(Path(args.run), args.name, args.default, args.overwrite)
        print(f"added ppo:{model['name']} to {models_dir()}")
        return 0
    print_models()
    return 0


def print_models() -> None:
    """One line per shipped model (and where the registry is)."""
    models = read_index()
    folder = models_dir()
    if not models:
        print(f"no shipped models in {folder}")
        return
    print(f"shipped models ({folder}); play one as ppo:NAME")
    for m in models:
        flag = "  [default]" if m.default else ""
        missing = "" if m.path.is_file() else f"  (MISSING {m.path.name})"
        print(f"  ppo:{m.name}  {m.describe()}{flag}{missing}")
        print(f"      {m.summary()}")


def _read_run(run: Path) -> dict[str, Any]:
    if not (run / "model.zip").is_file():
        raise ValueError(f"RUN: no model.zip in {run} (a finished parlour train run folder)")
    try:
        report = json.loads((run / "report.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"RUN: cannot read {run / 'report.json'}: {exc}") from None
    needed = ("game", "players", "game_options", "timesteps", "final", "config")
    if not isinstance(report, dict) or any(k not in report for k in needed):
        raise ValueError(f"RUN: {run / 'report.json'} is not a parlour train report")
    return report


def add_model(run: Path, name: str, default: bool, overwrite: bool) -> dict[str, Any]:
    """Copy the run's model into the registry with a card and an index entry (module table)."""
    import yaml

    from parlour.train.games import get_game

    check_name(name)
    report = _read_run(run)
    spec = get_game(report["game"])
    folder = models_dir()
    models = read_index(folder)
    if any(m.name == name for m in models) and not overwrite:
        raise ValueError(f"--name: a shipped model {name!r} exists; use --overwrite to replace it")
    entry: dict[str, Any] = {
        "name": name,
        "game": spec.name,
        "players": int(report["players"]),
        "game_options": spec.evaluation_options(report["game_options"] or {}),
        "default": bool(default),
    }
    entries = []
    for m in models:
        if m.name == name:
            continue
        same_table = (m.game, m.players, m.game_options) == (
            entry["game"],
            entry["players"],
            entry["game_options"],
        )
        entries.append(
            {
                "name": m.name,
                "game": m.game,
                "players": m.players,
                "game_options": m.game_options,
                "default": m.default and not (default and same_table),
            }
        )
    entries.append(entry)
    card = model_card(name, report, spec)  # (everything is built before anything is written)
    text = INDEX_HEADER + yaml.safe_dump({"models": entries}, sort_keys=False)
    folder.mkdir(parents=True, exist_ok=True)
    slim_copy(run / "model.zip", folder / f"{name}.zip")
    (folder / f"{name}.md").write_text(card, encoding="utf-8")
    (folder / INDEX_FILE).write_text(text, encoding="utf-8")
    read_index(folder)  # the index written reads back
    return entry


def slim_copy(src: Path, dst: Path) -> None:
    """Copy a saved MaskablePPO model without its Adam moments (two thirds of the file): the
    weights are the same; the optimizer state kept is the empty one of a fresh Adam, which SB3's
    loader accepts (fine-tuning from a shipped model starts Adam afresh)."""
    import io
    import zipfile

    import torch

    tmp = dst.with_name(dst.name + ".tmp")
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == OPTIMIZER_FILE:
                state = torch.load(io.BytesIO(data), map_location="cpu", weights_only=False)
                state["state"] = {}
                buffer = io.BytesIO()
                torch.save(state, buffer)
                data = buffer.getvalue()
            zout.writestr(item.filename, data)
    os.replace(tmp, dst)


def _summary_line(report: dict[str, Any], spec: Any) -> str:
    final = report["final"]
    what = f"MaskablePPO for {report['players']}-player {spec.name}"
    options = spec.evaluation_options(report["game_options"] or {})
    if options:
        what += f" ({', '.join(f'{k}={v}' for k, v in options.items())})"
    if report["players"] == 1:
        parts = [
            f"solve rate {100 * s['win_rate']:.0f}% (with {opp} alone: "
            f"{100 * s['baseline']['win_rate']:.0f}%)"
            for opp, s in final.items()
            if "baseline" in s
        ][:1]
    else:
        parts = [f"{100 * s['win_rate']:.0f}% vs {opp}" for opp, s in final.items()]
    return f"{what}, {report['timesteps']} learner steps: {'; '.join(parts)}."


def _imitation_rows(imitation: dict[str, Any] | None) -> list[str]:
    """The card's row for a run that imitated a teacher first (:mod:`parlour.train.imitation`)."""
    if not imitation:
        return []
    agreement = imitation["epochs"][-1]["agreement"]
    return [
        f"| first stage | imitation of `{imitation['teacher']}`: {imitation['decisions_kept']} "
        f"of its decisions, the teacher's action chosen in {agreement:.1%} of them after the fit "
        "(in the wall time) |"
    ]


def model_card(name: str, report: dict[str, Any], spec: Any) -> str:
    """The model card ``NAME.md`` from a run's ``report.json`` (the first line after the title
    is the summary ``parlour models`` prints)."""
    import yaml

    from parlour.train.report import report_headers, table_rows

    options = spec.evaluation_options(report["game_options"] or {})
    cols = report_headers(report, spec)
    how = (
        "solo: the learner and each baseline play the same deals alone"
        if (report["players"] == 1)
        else "the learner's win rate, seats rotated, paired deals"
    )
    lines = [
        f"# {name}",
        "",
        _summary_line(report, spec),
        "",
        "| | |",
        "|---|---|",
        f"| agent spec | `ppo:{name}` |",
        f"| game | {spec.name} |",
        f"| players | {report['players']} |",
        f"| game options | `{json.dumps(options)}` |",
        f"| learner steps | {report['timesteps']} |",
        f"| training wall time | {report.get('train_wall_time_s', 0):.0f} s |",
        *_imitation_rows(report.get("imitation")),
        f"| training config | `{report['config'].get('name', '?')}` (below) |",
        "",
        f"## Final evaluation of the run ({how}; Wilson 95% CI)",
        "",
        "| " + " | ".join(cols) + " |",
        "|" + "---|" * len(cols),
        *("| " + " | ".join(r) + " |" for r in table_rows(report, spec)),
        "",
        "## Training config",
        "",
        "```yaml",
        yaml.safe_dump(report["config"], sort_keys=False).rstrip(),
        "```",
    ]
    return "\n".join(lines) + "\n"
