"""An older parlour's run folder (SB3 zips: pickles) resumes after the conversion the
``--resume`` error names: its checkpoint ``latest.zip`` and its self-play snapshots
``snapshots/snapshot_N.zip``, each converted beside itself; the resumed run plays the converted
snapshots, so no ``--trust-model`` is needed (issue 31 review)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import yaml

from parlour.train.checkpoints import converted_snapshot
from parlour.train.config import config_from_dict

from .helpers import assert_clean_failure, run_main, tiny, write_config

LEGACY = Path(__file__).resolve().parents[1] / "data" / "legacy_audition_model.zip"
#: the step count of the older run's checkpoint and of its one snapshot
OLD_STEPS = 256


def _old_run(tmp_path: Path) -> tuple[Path, list[str]]:
    """A run folder as an older parlour left it (the legacy model as its checkpoint and as its
    snapshot, listed in ``state.json``), and the ``parlour train`` argv that resumes it."""
    ppo = {**tiny()["ppo"], "net_arch": [16], "activation": "tanh"}
    data = tiny(ppo=ppo, opponents={"snapshot_every": 100000, "baselines": {"random": 1.0}})
    data["total_timesteps"] = OLD_STEPS + 2 * data["ppo"]["n_steps"]
    run = tmp_path / "runs" / "tiny"
    (run / "checkpoints").mkdir(parents=True)
    (run / "snapshots").mkdir()
    (run / "config.yaml").write_text(yaml.safe_dump(config_from_dict(data).to_dict()))
    shutil.copy(LEGACY, run / "checkpoints" / "latest.zip")
    snapshot = run / "snapshots" / f"snapshot_{OLD_STEPS}.zip"
    shutil.copy(LEGACY, snapshot)
    state = {"timesteps": OLD_STEPS, "history": [], "snapshots": [str(snapshot)], "wall_time": 1}
    (run / "checkpoints" / "state.json").write_text(json.dumps(state))
    config = write_config(tmp_path / "tiny.yaml", data)
    argv = ["train", str(config), "--runs", str(tmp_path / "runs"), "--no-progress", "--resume"]
    return run, argv


def test_the_resume_error_names_the_checkpoint_and_snapshot_conversions(tmp_path, capsys):
    run, argv = _old_run(tmp_path)
    code, out, err = run_main(argv, capsys)
    latest = run / "checkpoints"
    convert = f"'parlour models convert {latest / 'latest.zip'} {latest / 'latest.safetensors'}"
    assert_clean_failure((code, out, err), convert + " --trust-model'")
    assert "likewise each self-play snapshot snapshots/X.zip to X.safetensors beside it" in err
    assert err.rstrip().endswith("(1 files)")  # (whole: not cut at the error line's limit)


def test_an_old_run_converted_as_the_error_says_resumes_without_trust(tmp_path, capsys):
    run, argv = _old_run(tmp_path)
    snapshot = run / "snapshots" / f"snapshot_{OLD_STEPS}.zip"
    pairs = [
        (run / "checkpoints" / "latest.zip", run / "checkpoints" / "latest.safetensors"),
        (snapshot, snapshot.with_suffix(".safetensors")),
    ]
    for src, dst in pairs:
        code, _, err = run_main(["models", "convert", str(src), str(dst), "--trust-model"], capsys)
        assert code == 0, err
    assert converted_snapshot(str(snapshot)) == str(snapshot.with_suffix(".safetensors"))
    code, _, err = run_main(argv, capsys)  # (no --trust-model)
    assert code == 0, err[-2000:]
    state = json.loads((run / "checkpoints" / "state.json").read_text())
    assert state["snapshots"] == [str(snapshot.with_suffix(".safetensors"))]
    assert json.loads((run / "report.json").read_text())["timesteps"] > OLD_STEPS


def test_an_unconverted_snapshot_is_kept(tmp_path):
    """A listed zip with nothing converted beside it stays as listed (loading it then needs
    ``--trust-model``, and says so)."""
    zipped = tmp_path / "snapshot_1.zip"
    zipped.write_bytes(b"PK")
    assert converted_snapshot(str(zipped)) == str(zipped)
