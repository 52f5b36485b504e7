"""Fault cases 3 (silent nonsense: unsound / non-unique case files) and 7 (``case show`` time),
and deeply nested case JSON (case 6)."""

from __future__ import annotations

import json
import pickle
import time

import pytest

from parlour.envs import awkward_guests_v1
from parlour.envs.awkward_guests.case import load_case
from parlour.envs.awkward_guests.case.verify import check
from parlour.envs.awkward_guests.solo import AwkwardGuestsSoloEnv

from .helpers import assert_clean_failure, classic_case_json, files, run_main

#: a generous bound for ``case show`` of a 10 MB one-word card (35 s before, ~2 s now)
SHOW_LIMIT_S = 15


def _unsound(tmp_path):
    """Card 0 says the murder weapon (the pillow) was unused: a false fact."""
    d = classic_case_json()
    card = d["cards"][0]
    card["facts"][0]["weapon"] = d["solution"]["weapon"]
    card["refs"] = ["mortimer", "bedroom", "library"]
    path = tmp_path / "unsound.json"
    path.write_text(json.dumps(d))
    return path


def _deck_of(tmp_path, n):
    d = classic_case_json()
    d["cards"] = d["cards"][:n]
    path = tmp_path / f"deck{n}.json"
    path.write_text(json.dumps(d))
    return path


def _bad_cases(tmp_path):
    return [_unsound(tmp_path), _deck_of(tmp_path, 1), _deck_of(tmp_path, 5)]


def test_the_bad_case_files_are_what_case_check_rejects(tmp_path, capsys):
    for path in _bad_cases(tmp_path):
        code, out, _ = run_main(["case", "check", str(path)], capsys)
        assert code == 1 and "NOT sound and unique" in out


def test_env_refuses_bad_case_files_when_it_loads_them_with_case_checks_message(tmp_path):
    for path in _bad_cases(tmp_path):
        _, lines = check(load_case(path))
        with pytest.raises(ValueError, match="NOT sound and unique") as info:
            awkward_guests_v1.env(num_players=2, cases=[str(path)])
        assert all(line in str(info.value) for line in lines)
        with pytest.raises(ValueError, match="NOT sound and unique"):
            AwkwardGuestsSoloEnv(cases=[str(path)])


def test_reset_refuses_a_bad_case_file_and_changes_nothing(tmp_path):
    env = awkward_guests_v1.env(num_players=2)
    env.reset(seed=3)
    raw = env.unwrapped
    state = pickle.dumps((raw.game, raw._np_random))
    for path in _bad_cases(tmp_path):
        with pytest.raises(ValueError, match="NOT sound and unique"):
            env.reset(options={"case": str(path)})
        assert pickle.dumps((raw.game, raw._np_random)) == state


def test_a_sound_case_file_still_plays(tmp_path):
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(classic_case_json()))
    env = awkward_guests_v1.env(num_players=2, cases=[str(path)])
    env.reset(seed=0)
    assert env.agents


def test_deeply_nested_case_json_is_a_clear_error(tmp_path, capsys):
    path = tmp_path / "deep.json"
    path.write_text("[" * 200_000 + "]" * 200_000)
    before = files(tmp_path)
    for action in ("show", "check"):
        result = run_main(["case", action, str(path)], capsys)
        assert_clean_failure(result, "nested too deeply", before, files(tmp_path))
    with pytest.raises(ValueError, match="nested too deeply"):
        awkward_guests_v1.env(num_players=2, cases=[str(path)])


def test_case_show_of_a_huge_word_is_linear(tmp_path, capsys):
    d = classic_case_json()
    d["cards"][0]["text"] = "w" * 10_000_000
    path = tmp_path / "long.json"
    path.write_text(json.dumps(d))
    t0 = time.perf_counter()
    code, out, _ = run_main(["case", "show", str(path)], capsys)
    assert code == 0 and time.perf_counter() - t0 < SHOW_LIMIT_S
    assert out.count("w") >= 10_000_000
    wrapped = [line for line in out.splitlines() if line.startswith("    w")]
    assert len(wrapped) >= 10_000_000 // 96 and max(map(len, wrapped)) <= 96
