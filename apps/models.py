"""``parlour models``: the trained models shipped with parlour, and adding a run's model to them.

```
parlour models                                          # list them
parlour models add runs/audition_2p --name audition-2p --default
parlour models convert old/model.zip model.safetensors --trust-model
```

``parlour models`` (or ``parlour models list``) prints one line per shipped model: its agent
spec ``ppo:NAME``, game, players, game options, whether it is the default for its table (the
opponent ``parlour play`` seats), and its model card's summary line. The registry is
:mod:`parlour.models` (the ``models/`` folder, or ``$PARLOUR_MODELS_DIR``).

``parlour models add RUN --name NAME`` adds a finished ``parlour train`` run's model:

| option | meaning |
|---|---|
| ``RUN`` | the run folder (``runs/<name>``): its ``model.safetensors`` and ``report.json`` are read |
| ``--name NAME`` | the short name (``ppo:NAME``): letters, digits, ``_``, ``-``, ``.`` |
| ``--default`` | make it the default for its game, player count and options (the previous default loses the flag) |
| ``--overwrite`` | replace a shipped model of the same name (without it, the name must be new) |

It writes the run's policy to ``NAME.safetensors`` (parlour's model format, without Adam's
state: :func:`slim_copy`), the model card ``NAME.md`` (game, players, game options, learner steps,
training wall time, the run's final evaluation table and its config) and adds the entry to
``index.yaml`` (the game options recorded are the run's, without training-only ones). Nothing is
written when the run or the name is refused.

``parlour models convert SRC DST --trust-model`` turns a Stable-Baselines3 zip (a
``MaskablePPO.save``, a run of parlour before 0.3, a model of parlour 0.1) into parlour's model
format (:mod:`parlour.agents.model_file`), Adam's state included when the zip has one. The zip
is unpickled — it runs whatever code it holds — so the command needs ``--trust-model``: convert
only files you trust, once, and share the ``.safetensors`` file (docs/security.md). ``DST`` must
end in ``.safetensors``; an existing ``DST`` is replaced only with ``--overwrite``. The converted
network computes exactly what the zip's did (the same tensors, bit for bit).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from parlour._files import write_atomic
from parlour.agents.model_file import RUN_MODEL_FILE, SUFFIX
from parlour.agents.trust import TRUST_FLAG, refuse_untrusted
from parlour.models import INDEX_FILE, MODEL_SUFFIX, check_name, models_dir, read_index

HELP = "list the shipped trained models (ppo:NAME), add a run's model to them, convert a zip"
#: the header of a written index.yaml
INDEX_HEADER = """\
# The shipped trained models (parlour.models): one entry per NAME.safetensors / NAME.md of this folder.
# Written by `parlour models add RUN --name NAME [--default]`; see models/__init__.py for the keys.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    sub.add_parser("list", help="list the shipped models (the default)")
    add = sub.add_parser("add", help="add a finished run's model to the shipped models")
    add.add_argument(
        "run", help=f"the run folder (runs/<name>) holding {RUN_MODEL_FILE} and report.json"
    )
    add.add_argument("--name", required=True, help="the short name (ppo:NAME)")
    add.add_argument("--default", action="store_true", help="the default for its table")
    add.add_argument("--overwrite", action="store_true", help="replace a model of that name")
    convert = sub.add_parser(
        "convert", help="convert a Stable-Baselines3 zip to parlour's safe model format"
    )
    convert.add_argument("src", help="the zip (MaskablePPO.save, parlour 0.1 or an older run)")
    convert.add_argument("dst", help=f"the model file to write (ending in {SUFFIX})")
    convert.add_argument(
        TRUST_FLAG,
        dest="trust_model",
        action="store_true",
        help="load the zip although it runs code (pickles) while it loads: only a file you trust",
    )
    convert.add_argument("--overwrite", action="store_true", help="replace an existing DST")


def run(args: argparse.Namespace) -> int:
    if getattr(args, "action", None) == "add":
        model = add_model(Path(args.run), args.name, args.default, args.overwrite)
        print(f"added ppo:{model['name']} to {models_dir()}")
        return 0
    if getattr(args, "action", None) == "convert":
        convert_model(Path(args.src), Path(args.dst), args.trust_model, args.overwrite)
        print(f"wrote {args.dst} (parlour's model format: loading it runs no code)")
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
    if not (run / RUN_MODEL_FILE).is_file():
        old = " (a run of an older parlour: convert its model.zip with 'parlour models convert')"
        raise ValueError(
            f"RUN: no {RUN_MODEL_FILE} in {run} (a finished parlour train run folder)"
            + old * (run / "model.zip").is_file()
        )
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

    from parlour.games import get_game

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
    slim_copy(run / RUN_MODEL_FILE, folder / f"{name}{MODEL_SUFFIX}")
    write_atomic(folder / f"{name}.md", card)
    write_atomic(folder / INDEX_FILE, text)
    read_index(folder)  # the index written reads back
    return entry


def slim_copy(src: Path, dst: Path) -> None:
    """Write the policy of the model file ``src`` to ``dst`` without Adam's state (two thirds
    of a checkpoint): the same weights, bit for bit; fine-tuning from a shipped model starts Adam
    afresh. Both are parlour model files; ``dst`` is written atomically."""
    from parlour.agents.model_file import sniff, without_optimizer

    if sniff(src) != "parlour":
        raise ValueError(f"RUN: {str(src)!r} is not in parlour's model format")
    without_optimizer(src, dst)


def convert_model(src: Path, dst: Path, trust: bool, overwrite: bool = False) -> None:
    """Write the Stable-Baselines3 zip ``src`` to ``dst`` in parlour's model format (module
    docstring); ``UntrustedModelError`` without ``trust``, ``ValueError`` for a bad argument."""
    from parlour.agents.model_file import save_policy, sniff
    from parlour.agents.ppo import PICKLED_MODEL, kept_global_rngs, load_model

    if not src.is_file():
        raise ValueError(f"SRC: no model file at {str(src)!r}")
    if dst.suffix != SUFFIX:
        raise ValueError(f"DST: a model file name ending in {SUFFIX}, got {str(dst)!r}")
    if dst.exists() and not overwrite:
        raise ValueError(f"DST: {str(dst)!r} exists; use --overwrite to replace it")
    kind = sniff(src)
    if kind == "parlour":
        raise ValueError(f"SRC: {str(src)!r} is already in parlour's model format")
    if kind != "zip":
        raise ValueError(f"SRC: {str(src)!r} is not a Stable-Baselines3 zip")
    if not trust:
        refuse_untrusted(src, PICKLED_MODEL)
    try:
        with kept_global_rngs():
            model = load_model(src, device="cpu")
    except Exception as exc:  # a truncated / corrupt / foreign zip raises many kinds
        raise ValueError(f"SRC: cannot load a MaskablePPO model from {str(src)!r}: {exc}") from None
    has_adam = bool(model.policy.optimizer.state_dict()["state"])
    dst.parent.mkdir(parents=True, exist_ok=True)
    save_policy(model.policy, dst, model, optimizer=has_adam)


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
    else:  # (a rate per seat reads right only beside the share an even player would get)
        even = f"even share {100 / report['players']:.0f}%"
        parts = [f"{100 * s['win_rate']:.0f}% per seat vs {opp}" for opp, s in final.items()]
        parts[-1] += f" ({even})"
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

    from parlour.eval.report import report_headers, table_rows

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
