"""Fault cases 1 (data loss) and 4 (lies in the record): run folders and ``--resume``."""

from __future__ import annotations

import yaml

from parlour.train.run_folder import RunLock

from .helpers import assert_clean_failure, files, run_main, tiny, write_config


def _train(tmp_path, capsys, cfg, *extra):
    path = write_config(tmp_path / "cfg.yaml", cfg)
    argv = ["train", str(path), "--runs", str(tmp_path / "runs"), "--no-progress", *extra]
    return run_main(argv, capsys)


def test_name_dotdot_is_refused_and_deletes_nothing(tmp_path, capsys, finished_run):
    before = files(tmp_path)
    result = _train(tmp_path, capsys, tiny(name=".."))
    assert_clean_failure(result, "name: a plain folder name", before, files(tmp_path))


def test_name_dot_is_refused_and_deletes_no_sibling_run(tmp_path, capsys, finished_run):
    before = files(tmp_path)
    result = _train(tmp_path, capsys, tiny(name="."))
    assert_clean_failure(result, "name: a plain folder name", before, files(tmp_path))


def test_name_with_a_separator_is_refused(tmp_path, capsys, finished_run):
    before = files(tmp_path)
    result = _train(tmp_path, capsys, tiny(name="tiny/../../x"))
    assert_clean_failure(result, "name: a plain folder name", before, files(tmp_path))


def test_rerunning_a_finished_run_without_resume_keeps_it(tmp_path, capsys, finished_run):
    before = files(tmp_path)
    result = _train(tmp_path, capsys, tiny())
    assert_clean_failure(result, "already holds a run", before, files(tmp_path))
    assert "--overwrite" in result[2]


def test_values_that_used_to_fail_late_are_refused_before_anything_is_deleted(
    tmp_path, capsys, finished_run
):
    before = files(tmp_path)
    for cfg, message in [
        (tiny(opponents={"baselines": {"random": 0.0}}), "positive sum"),
        (tiny(ppo={"gamma": 5}), "ppo.gamma"),
        (tiny(ppo={"learning_rate": float("inf")}), "finite number"),
    ]:
        result = _train(tmp_path, capsys, cfg, "--overwrite")
        assert_clean_failure(result, message, before, files(tmp_path))


def test_a_run_folder_in_use_is_refused(tmp_path, capsys):
    (tmp_path / "runs").mkdir()
    before = files(tmp_path)
    with RunLock(tmp_path / "runs" / "tiny"):  # another `parlour train` holds the folder
        result = _train(tmp_path, capsys, tiny())
    assert_clean_failure(result, "is in use by another parlour train", before, files(tmp_path))


def test_runs_that_is_a_file_is_refused(tmp_path, capsys):
    (tmp_path / "runs").write_text("not a folder")
    before = files(tmp_path)
    result = _train(tmp_path, capsys, tiny())
    assert_clean_failure(result, "--runs:", before, files(tmp_path))


def test_resume_with_a_changed_network_is_refused_and_the_record_kept(
    tmp_path, capsys, finished_run
):
    before = files(tmp_path)
    result = _train(tmp_path, capsys, tiny(ppo={"net_arch": [16, 16]}), "--resume")
    assert_clean_failure(result, "ppo.net_arch", before, files(tmp_path))


def test_resume_with_another_games_config_is_refused_before_config_yaml_changes(
    tmp_path, capsys, finished_run
):
    before = files(tmp_path)
    cfg = tiny(game="guests", players=1, eval={"agents": ["random"]})
    result = _train(tmp_path, capsys, cfg, "--resume")
    assert_clean_failure(result, "differs from the run's", before, files(tmp_path))
    assert "game" in result[2] and "players" in result[2]
    assert yaml.safe_load((finished_run / "config.yaml").read_text())["game"] == "audition"


def test_resume_with_a_truncated_checkpoint_is_a_clear_error(tmp_path, capsys, finished_run):
    before = files(tmp_path)
    result = _train(tmp_path, capsys, tiny(), "--resume")  # latest.safetensors is not one
    assert_clean_failure(result, "cannot load the checkpoint", before, files(tmp_path))


def test_resume_with_a_corrupt_state_is_a_clear_error(tmp_path, capsys, finished_run):
    (finished_run / "checkpoints" / "state.json").write_text('{"history": [')
    before = files(tmp_path)
    result = _train(tmp_path, capsys, tiny(), "--resume")
    assert_clean_failure(result, "corrupt checkpoint state", before, files(tmp_path))


def test_overwrite_replaces_a_finished_run_and_nothing_else(tmp_path, capsys, finished_run):
    result = _train(tmp_path, capsys, tiny(), "--overwrite")
    assert result[0] == 0, result[2][-2000:]
    assert (finished_run / "model.safetensors").read_bytes() != b"the finished model"
    assert (tmp_path / "keep.txt").read_text() == "a file beside the runs folder"
    assert '"timesteps": 256' in (finished_run / "report.json").read_text()
