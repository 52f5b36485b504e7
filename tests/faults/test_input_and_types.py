"""Fault cases 7 (``play`` on huge input) and 8 (coercion: actions, decks, config values)."""

from __future__ import annotations

import io
import sys
import time

import numpy as np
import pytest

from parlour.apps.play import Move, Session
from parlour.envs import audition_v1, awkward_guests_v1
from parlour.envs.awkward_guests.solo import AwkwardGuestsSoloEnv
from parlour.train.config import ConfigError, config_from_dict

from .helpers import run_main, tiny

#: a bound for reading and refusing a 100 MB line (an unbounded read took minutes and ~GBs)
HUGE_LINE_LIMIT_S = 20


def _play(argv, text, capsys):
    old = sys.stdin
    sys.stdin = io.StringIO(text)
    try:
        code, out, err = run_main(["play", *argv], capsys)
    finally:
        sys.stdin = old
    return code, out, err


@pytest.mark.parametrize("text", ["²", "①", "٣", "1" * 5000, "+1", "1_0"])
def test_play_takes_only_ascii_move_numbers(capsys, text):
    code, out, err = _play(["audition", "--seed", "1"], f"{text}\nquit\n", capsys)
    assert code == 0 and "You left the game." in out and "Traceback" not in out + err


def test_parse_refuses_non_ascii_digits_and_accepts_ascii():
    ms = [Move(i, f"m{i}") for i in range(3)]
    assert Session.parse("2", ms) == ms[1]
    for text in ["²", "①", "٢"]:
        assert isinstance(Session.parse(text, ms), str)


def test_play_refuses_a_huge_line_quickly(capsys):
    t0 = time.perf_counter()
    code, out, err = _play(["audition", "--seed", "1"], "9" * 100_000_000 + "\nquit\n", capsys)
    assert time.perf_counter() - t0 < HUGE_LINE_LIMIT_S
    assert code == 0 and "too long" in out and "You left the game." in out


@pytest.mark.parametrize("action", [0.7, "0", True, 1.0, None, [0], np.float64(0)])
def test_solo_step_refuses_non_int_actions(action):
    env = AwkwardGuestsSoloEnv()
    env.reset(seed=0)
    before = env.game.num_moves
    _, reward, term, _, info = env.step(action)
    assert (reward, term) == (-1.0, True) and info["illegal_action"]
    assert env.game.num_moves == before


@pytest.mark.parametrize("kind", [int, np.int64, np.int32])
def test_solo_step_takes_python_and_numpy_ints(kind):
    env = AwkwardGuestsSoloEnv()
    env.reset(seed=0)
    a = int(np.flatnonzero(env.action_masks())[0])
    _, _, _, _, info = env.step(kind(a))
    assert not info.get("illegal_action")


def test_solo_step_takes_a_0d_int_array():
    env = AwkwardGuestsSoloEnv()
    env.reset(seed=0)
    a = int(np.flatnonzero(env.action_masks())[0])
    _, _, _, _, info = env.step(np.array(a))
    assert not info.get("illegal_action")


def _guests_deck():
    env = awkward_guests_v1.env(num_players=2)
    env.reset(seed=0)
    return env, list(env.unwrapped.game.tables.ids)


def test_guests_deck_refuses_floats_strings_and_bools_like_audition():
    env, ids = _guests_deck()
    for bad in ([float(i) for i in ids], [str(i) for i in ids], [True, *ids[1:]], "0123"):
        with pytest.raises(ValueError, match="options\\['deck'\\]"):
            env.reset(seed=1, options={"deck": bad})
    env.reset(seed=1, options={"deck": [np.int64(i) for i in ids]})  # NumPy ints are ints
    a = audition_v1.env(num_players=2)
    with pytest.raises(ValueError, match="options\\['deck'\\]"):
        a.reset(seed=1, options={"deck": [1.0] * 18})


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"ppo": {"clip_range": -0.2}}, "ppo.clip_range"),
        ({"ppo": {"gamma": 5}}, "ppo.gamma"),
        ({"ppo": {"gae_lambda": 2}}, "ppo.gae_lambda"),
        ({"ppo": {"learning_rate": float("nan")}}, "finite"),
        ({"ppo": {"max_grad_norm": 0}}, "ppo.max_grad_norm"),
        ({"eval": {"workers": -3}}, "eval.workers"),
        ({"opponents": {"baselines": {"random": 0.0}}}, "positive sum"),
    ],
)
def test_config_values_out_of_range_are_refused(change, message):
    with pytest.raises(ConfigError, match=message):
        config_from_dict(tiny(**change))
