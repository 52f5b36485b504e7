"""The report of a ``parlour train`` run (SB3 backend), finished or stopped.

| function | what |
|---|---|
| :func:`run_report` | the ``report.json`` document: the run, its speed, the final evaluation, the history |
| :func:`interrupted_report` | the report of a run stopped by Ctrl-C or SIGTERM (no final table, ``"interrupted": true``), written with signals ignored, and its one line on stderr |
| :func:`imitation_summary` | the run's ``imitation.json`` (a first imitation stage), read back bounded |
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from parlour._files import read_regular_file
from parlour.agents.model_file import RUN_MODEL_FILE
from parlour.safe_stop import no_interrupts
from parlour.train.checkpoints import RunState
from parlour.train.config import TrainConfig
from parlour.train.evaluation import learner_summary

#: the shortest training time a steps/s figure divides by (a run of no steps takes ~0 s; both
#: backends' reports)
MIN_DURATION_S = 1e-9
#: the largest ``imitation.json`` read back into the report
MAX_IMITATION_BYTES = 16 * 1024 * 1024


def interrupted_report(
    cfg: TrainConfig,
    run_dir: Path,
    state: RunState,
    timesteps: int,
    steps_per_s: float,
    during: str | None,
    message: str,
) -> dict[str, Any]:
    """The report of a stopped run (no final table; ``"interrupted_during"``: ``during`` when
    given), written with signals ignored, and its one line on stderr."""
    from parlour.eval.report import write_report

    with no_interrupts():
        report = run_report(cfg, run_dir, state, timesteps, steps_per_s, 0.0, {})
        report["interrupted"] = True
        if during is not None:
            report["interrupted_during"] = during
        write_report(report, run_dir, cfg.game_spec)
        print(message, file=sys.stderr)
    return report


def run_report(
    cfg: TrainConfig,
    run_dir: Path,
    state: RunState,
    timesteps: int,
    steps_per_s: float,
    eval_time: float,
    final: dict[str, Any],
) -> dict[str, Any]:
    """The ``report.json`` of an SB3 run (:func:`parlour.eval.report.write_report` writes it
    with ``report.md`` and the chart)."""
    return {
        "name": cfg.name,
        "game": cfg.game_spec.name,
        "players": cfg.players,
        "game_options": cfg.game_options,
        "data": data_source(cfg),
        "timesteps": int(timesteps),
        "train_wall_time_s": round(state.wall_time, 1),
        "train_steps_per_s": round(steps_per_s, 1),  # periodic evaluations excluded
        "final_eval_wall_time_s": round(eval_time, 1),
        "model": str(run_dir / RUN_MODEL_FILE),
        "imitation": imitation_summary(run_dir),
        "final": learner_summary(final, cfg.game_spec),
        "final_tournaments": final,
        "history": state.history,
        "config": cfg.to_dict(),
    }


def data_source(cfg: TrainConfig) -> dict[str, Any] | None:
    """Where the run's games came from (the game's ``Training.data_source``; None: the game
    does not say)."""
    training = cfg.game_spec.training
    if training is None or training.data_source is None:
        return None
    return training.data_source(cfg.game_spec.evaluation_options(cfg.game_options))


def imitation_summary(run_dir: Path) -> dict[str, Any] | None:
    """The run's ``imitation.json`` (its first stage, :mod:`parlour.train.imitation`), or None."""
    path = run_dir / "imitation.json"
    if not path.is_file():
        return None
    return json.loads(read_regular_file(path, max_bytes=MAX_IMITATION_BYTES, what="imitation"))
