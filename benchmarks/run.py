"""``parlour bench``: every figure of docs/performance.md#targets in one run, with ratios to peers.

| section | ours | peer (same run) | target |
|---|---|---|---|
| AEC steps/s, masked random play through ``env()`` | ``audition_v1`` 2/4/6p ± variants; ``awkward_guests_v1`` 1–8p easy/expert, also with the ``reset()`` time left out ("resets excluded") | ``tictactoe_v3`` (Audition), ``hanabi_v5`` (Awkward Guests; also resets excluded); ``connect_four_v3``, ``leduc_holdem_v4``, ``texas_holdem_v4`` listed | ≥ 2× tictactoe; ≥ hanabi |
| batched steps/s (masks + observations, batch 4,096) | :mod:`parlour.benchmarks.batched_throughput` | ``audition_v1`` AEC env, OpenSpiel C++ ``kuhn_poker`` | ≥ 10× the AEC env, ≥ 2× ``kuhn_poker`` |
| engine steps/s (legal actions + apply) | Audition engine | OpenSpiel ``python_kuhn_poker``, ``python_liars_poker`` (C++ ``kuhn_poker``, ``leduc_poker`` listed) | ≥ the Python games |
| Awkward Guests case engine | generation per level (median/p95), add one card, solve 70 cards, ``reset()`` | — | < 50 ms, < 1 ms, < 50 ms |
| training steps/s | MaskablePPO on Audition 2p; Awkward Guests 2p easy per-game (``guests_2p_easy``) and batched (``guests_2p_easy_batched``), whole training and rollout phases alone | MaskablePPO on ``connect_four_v3``, same settings (Audition); the per-game run (Guests batched) | ≥ connect four; Guests ≥ 5× the per-game run (issue 16) |
| peak memory | one env process (Audition 6p, Awkward Guests 8p); a 2-process training run (train section) | ``tictactoe_v3`` env process | — |

Every rate is the median of ``repeats`` interleaved timed blocks (so machine noise hits ours and
the peers alike); each figure records its steps and repeats. The peers come from the ``bench``
extra (``pip install -e .[bench]``); a missing peer is reported and its ratios left null.

Each section's table is printed as soon as the section finishes (a whole run takes tens of
minutes), and ``--json PATH`` is rewritten after each one: ``{"figures": [...], "sections":
[the sections finished], "complete": false}``, then ``true`` at the end. Ctrl-C stops with exit
code 130 and leaves the file with the sections finished so far. A ``--json`` path that cannot
be written (a folder, a missing or read-only folder) is refused (exit code 2) before anything is
measured.

``parlour bench [--quick] [--json PATH] [--steps N] [--repeats R] [--sections aec,engine,batched,guests,train,memory]``
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from parlour.train.cli import positive_int

HELP = "measure throughput against PettingZoo / OpenSpiel peers (not part of make test)"
SECTIONS = ("aec", "engine", "batched", "guests", "train", "memory")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true", help="fewer steps and repeats")
    parser.add_argument("--json", default=None, help="write the figures to this JSON file")
    parser.add_argument(
        "--steps", type=positive_int, default=None, help="AEC steps per timed block"
    )
    parser.add_argument(
        "--repeats", type=positive_int, default=None, help="timed blocks per figure"
    )
    parser.add_argument(
        "--sections",
        default=",".join(SECTIONS),
        help=f"comma-separated subset of {','.join(SECTIONS)}",
    )


def _figure(name, value, unit, peer=None, peer_value=None, **extra) -> dict[str, Any]:
    ratio = value / peer_value if peer_value else None
    return {
        "name": name,
        "value": value,
        "unit": unit,
        "peer": peer if peer_value else None,
        "peer_value": peer_value,
        "ratio": ratio,
        **extra,
    }


def _interleaved(cases: dict[str, Callable[[int], Any]], repeats: int) -> dict[str, Any]:
    """Median per case over ``repeats`` interleaved runs; a case returning a tuple of figures
    gets the median of each."""
    samples: dict[str, list] = {k: [] for k in cases}
    for r in range(repeats):
        for name, run in cases.items():
            samples[name].append(run(r))
    out: dict[str, Any] = {}
    for k, v in samples.items():
        if isinstance(v[0], tuple):
            out[k] = tuple(statistics.median(x) for x in zip(*v, strict=True))
        else:
            out[k] = statistics.median(v)
    return out


#: the Awkward Guests peer, also measured with its resets left out of the timing
GUESTS_PEER = "hanabi_v5"
RESETS_EXCLUDED = "resets excluded"


def aec_figures(steps: int, repeats: int) -> list[dict]:
    from parlour.benchmarks import aec_throughput as A

    peers, ours = A.peers(), A.ours()

    def both(name: str) -> bool:  # also timed with the resets left out
        return name == GUESTS_PEER or name.startswith("awkward_guests")

    cases = {
        name: (
            (lambda r, make=make: A.aec_rates(make, steps, seed=r))
            if both(name)
            else (lambda r, make=make: A.aec_steps_per_second(make, steps, seed=r))
        )
        for name, make in {**peers, **ours}.items()
    }
    measured = _interleaved(cases, repeats)
    rates = {k: v[0] if isinstance(v, tuple) else v for k, v in measured.items()}
    no_resets = {k: v[1] for k, v in measured.items() if isinstance(v, tuple)}
    figs = []
    for name in peers:
        figs.append(_figure(f"AEC {name}", rates[name], "steps/s", steps=steps, repeats=repeats))
    for name in ours:
        peer = "tictactoe_v3" if name.startswith("audition") else GUESTS_PEER
        figs.append(
            _figure(
                f"AEC {name}",
                rates[name],
                "steps/s",
                peer,
                rates.get(peer),
                steps=steps,
                repeats=repeats,
            )
        )
    # Awkward Guests per step: the same runs, with every reset()'s time left out (ours draw a
    # new case per reset; the peer's resets are left out alike)
    peer_nr = no_resets.get(GUESTS_PEER)
    if peer_nr:
        figs.append(
            _figure(
                f"AEC {GUESTS_PEER}, {RESETS_EXCLUDED}",
                peer_nr,
                "steps/s",
                steps=steps,
                repeats=repeats,
            )
        )
    for name in ours:
        if name in no_resets:
            figs.append(
                _figure(
                    f"AEC {name}, {RESETS_EXCLUDED}",
                    no_resets[name],
                    "steps/s",
                    f"{GUESTS_PEER}, {RESETS_EXCLUDED}",
                    peer_nr,
                    steps=steps,
                    repeats=repeats,
                )
            )
    return figs


def engine_figures(steps: int, repeats: int) -> list[dict]:
    from parlour.benchmarks import engine_throughput as E

    ours = E.cases(steps)
    try:
        peers = E.peer_cases(steps)
        peers["python_kuhn_poker"](0)
    except ImportError as exc:
        print(f"OpenSpiel peers unavailable (install the bench extra): {exc}")
        peers = {}
    rates = _interleaved({**peers, **ours}, repeats)
    figs = [
        _figure(f"engine {n}", rates[n], "steps/s", steps=steps, repeats=repeats) for n in peers
    ]
    for name in ours:
        for peer in ("python_kuhn_poker", "python_liars_poker"):
            figs.append(
                _figure(
                    f"{name} vs {peer}",
                    rates[name],
                    "steps/s",
                    peer,
                    rates.get(peer),
                    steps=steps,
                    repeats=repeats,
                )
            )
    return figs


def guests_figures(quick: bool) -> list[dict]:
    try:
        module = importlib.import_module("parlour.benchmarks.guests")
    except ImportError as exc:
        print(f"Awkward Guests benchmarks unavailable: {exc}")
        return []
    return module.figures(quick=quick)


def train_figures(quick: bool) -> list[dict]:
    try:
        module = importlib.import_module("parlour.benchmarks.training_throughput")
    except ImportError as exc:
        print(f"training throughput unavailable (needs the train extra): {exc}")
        return []
    return module.figures(quick=quick)


def memory_figures() -> list[dict]:
    from parlour.benchmarks.memory import env_peak_rss_mib

    ours, base = env_peak_rss_mib("parlour.envs.audition_v1", "num_players=6, action_cards=6")
    figs = []
    try:
        peer, _ = env_peak_rss_mib("pettingzoo.classic.tictactoe_v3")
    except Exception as exc:  # the peer's import needs pygame (bench extra)
        print(f"tictactoe_v3 memory peer unavailable: {exc}")
        peer = None
    figs.append(
        _figure("peak RSS, one audition_v1 6p env (process)", ours, "MiB", "tictactoe_v3", peer)
    )
    figs.append(_figure("RSS of python + numpy alone", base, "MiB"))
    try:
        ours_g, _ = env_peak_rss_mib(
            "parlour.envs.awkward_guests_v1", "num_players=8, level='expert'", 3
        )
        figs.append(_figure("peak RSS, one awkward_guests_v1 8p env (process)", ours_g, "MiB"))
    except Exception as exc:
        print(f"awkward_guests_v1 memory unavailable: {exc}")
    return figs


def print_table(figures: list[dict]) -> None:
    print(f"{'figure':<58}{'value':>14} {'unit':<8}{'peer':>28}{'peer value':>14}{'ratio':>8}")
    for f in figures:
        pv = f"{f['peer_value']:,.1f}" if f["peer_value"] else "-"
        ratio = f"{f['ratio']:.2f}x" if f["ratio"] else "-"
        print(
            f"{f['name']:<58}{f['value']:>14,.2f} {f['unit']:<8}{f['peer'] or '-':>28}{pv:>14}{ratio:>8}"
        )


def _measure(section: str, steps: int, repeats: int, quick: bool) -> list[dict]:
    """The figures of one section."""
    if section == "aec":
        return aec_figures(steps, repeats)
    if section == "engine":
        return engine_figures(steps * 5, repeats)
    if section == "batched":
        from parlour.benchmarks import batched_throughput

        return batched_throughput.figures(steps, repeats, _figure, _interleaved)
    if section == "guests":
        return guests_figures(quick)
    if section == "train":
        return train_figures(quick)
    return memory_figures()


def _json_path_problem(path: Path) -> str | None:
    """Why ``--json`` cannot be written (a folder, a missing or read-only folder), else None."""
    if path.is_dir():
        return "is a folder"
    if not path.parent.is_dir():
        return f"is in a folder that does not exist ({path.parent})"
    if not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        return "cannot be written"
    return None


def _write_json(path: str, figures: list[dict], done: list[str], complete: bool) -> None:
    """``{"figures", "sections", "complete"}``, replaced whole (a temporary file renamed over
    it), so an interrupted bench leaves the sections finished so far in a valid file."""
    tmp = Path(f"{path}.tmp")
    tmp.write_text(
        json.dumps({"figures": figures, "sections": done, "complete": complete}, indent=2)
    )
    tmp.replace(path)


def run(args: argparse.Namespace) -> int:
    sections = [s.strip() for s in args.sections.split(",") if s.strip()]
    unknown = set(sections) - set(SECTIONS)
    if unknown:
        print(f"unknown sections {sorted(unknown)}; allowed: {', '.join(SECTIONS)}")
        return 2
    if args.json:  # checked before the long work, not after it
        problem = _json_path_problem(Path(args.json))
        if problem:
            print(f"parlour bench: --json: {args.json} {problem}", file=sys.stderr)
            return 2
    steps, repeats = (3000, 3) if args.quick else (20000, 5)
    steps = args.steps or steps
    repeats = args.repeats or repeats
    t0 = time.perf_counter()
    figures: list[dict] = []
    done: list[str] = []
    try:
        for section in (s for s in SECTIONS if s in sections):  # each printed as it finishes
            t_section = time.perf_counter()
            figs = _measure(section, steps, repeats, args.quick)
            print(f"\n[{section}: {time.perf_counter() - t_section:.0f} s]", flush=True)
            print_table(figs)
            figures += figs
            done.append(section)
            if args.json:
                _write_json(args.json, figures, done, complete=False)
    except KeyboardInterrupt:
        kept = f" after {', '.join(done)} (printed above)" if done else ""
        if done and args.json:
            kept += f"; {args.json} holds them"
        print(f"\nparlour bench: interrupted{kept}", file=sys.stderr)
        return 130
    if len(done) > 1:
        print("\n[all sections]")
        print_table(figures)
    print(f"\n({time.perf_counter() - t0:.0f} s)")
    if args.json:
        _write_json(args.json, figures, done, complete=True)
        print(f"wrote {args.json}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="parlour bench", description=HELP)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
