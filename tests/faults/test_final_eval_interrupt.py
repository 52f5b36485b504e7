"""A signal during the final evaluation (issue 31 review): training is done and saved, so Ctrl-C
or SIGTERM there writes the interrupted report (no final table), prints one line and exits 130;
``--resume`` then trains no further step and plays the final evaluation (SB3 backend; the RLlib
one: tests/faults/test_rllib_interrupt.py)."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

from parlour.train import train as train_module
from parlour.train.checkpoints import STATE_FILE

from .helpers import assert_clean_failure, run_main, tiny, write_config

#: a final_games count no periodic evaluation uses (the signal is sent at the final one)
FINAL_GAMES = 3


def _sigterm_at_final_evaluation(monkeypatch) -> list[int]:
    """``evaluate_agent`` sends SIGTERM to this process when it starts the final evaluation;
    returns the list of the games counts it was called with."""
    real, calls = train_module.evaluate_agent, []

    def evaluate(cfg, learner, agents, games, *args, **kwargs):
        calls.append(games)
        if games == FINAL_GAMES:
            os.kill(os.getpid(), signal.SIGTERM)
        return real(cfg, learner, agents, games, *args, **kwargs)

    monkeypatch.setattr(train_module, "evaluate_agent", evaluate)
    return calls


def test_sigterm_during_the_final_evaluation_writes_the_interrupted_report(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    def unhandled(signum, frame):  # (without the run's handler: fail the test, not pytest)
        raise RuntimeError("SIGTERM reached pytest's handler")

    data = tiny(eval={"final_games": FINAL_GAMES})
    argv = ["train", str(write_config(tmp_path / "tiny.yaml", data))]
    argv += ["--runs", str(tmp_path / "runs"), "--no-progress"]
    run = tmp_path / "runs" / "tiny"
    outer = signal.signal(signal.SIGTERM, unhandled)
    try:
        calls = _sigterm_at_final_evaluation(monkeypatch)
        result = run_main(argv, capsys)
        assert calls == [FINAL_GAMES]
        assert_clean_failure(result, "interrupted during the final evaluation", code=130)
        assert "--resume plays the final evaluation" in result[2]
        report = json.loads((run / "report.json").read_text())
        assert report["interrupted"] is True and report["interrupted_during"] == "final evaluation"
        assert report["timesteps"] == data["total_timesteps"] and report["final"] == {}
        assert "Interrupted** during the final evaluation" in (run / "report.md").read_text()
        assert (run / "model.safetensors").is_file()
        state = json.loads((run / "checkpoints" / STATE_FILE).read_text())
        assert state["timesteps"] == data["total_timesteps"]
        assert not any(h.get("final") for h in state["history"])

        # --resume: no further step, only the final evaluation
        monkeypatch.undo()
        code, out, err = run_main([*argv, "--resume"], capsys)
        assert code == 0, err
    finally:
        signal.signal(signal.SIGTERM, outer)
    assert f"training done: {data['total_timesteps']} steps" in out
    report = json.loads((run / "report.json").read_text())
    assert "interrupted" not in report and report["timesteps"] == data["total_timesteps"]
    assert report["final"] and [h["final"] for h in report["history"] if "final" in h] == [True]
    assert "Interrupted" not in (run / "report.md").read_text()
