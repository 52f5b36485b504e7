"""Games as plug-ins: the registry, ``module:ATTR`` names, entry points, and the test game
Countdown (``tests/games/countdown/``, no file of parlour names it) through ``parlour train``,
``parlour eval`` and ``parlour play``."""

from __future__ import annotations

import dataclasses
import io
import json
import sys
from importlib.metadata import EntryPoint

import numpy as np
import pytest
import yaml

import tests.games  # noqa: F401  (registers every test game)
from parlour import games as registry
from parlour.apps.cli import main
from parlour.games import Game, all_games, get_game, make_raw_env, register_game
from tests.games.countdown.plugin import GAME as COUNTDOWN

REFERENCE = "tests.games.countdown.plugin:GAME"
#: a second spec of the same game under another name, for the entry-point tests
ENTRY_POINT_SPEC = dataclasses.replace(COUNTDOWN, name="countdown_ep")


@pytest.fixture
def clean_registry(monkeypatch):
    """The registry as it is now, restored afterwards (tests may register games)."""
    monkeypatch.setattr(registry, "GAMES", dict(registry.GAMES))


INSTALLED = list(registry.entry_points(group=registry.ENTRY_POINT_GROUP))


def _entry_points(monkeypatch, *points: tuple[str, str]) -> None:
    """The installed entry points (parlour's own games among them) and ``points``."""
    found = [EntryPoint(name, value, registry.ENTRY_POINT_GROUP) for name, value in points]
    monkeypatch.setattr(registry, "entry_points", lambda group: [*INSTALLED, *found])


# -- the registry -------------------------------------------------------------------------------


def test_builtin_games_are_entry_points_like_any_other():
    points = {ep.name: ep.value for ep in INSTALLED}
    assert points["audition"] == "parlour.games.audition.plugin:GAME"
    assert points["guests"] == "parlour.games.guests.plugin:GAME"


def test_builtin_games_come_first_and_importing_tests_games_adds_countdown():
    names = [g.name for g in all_games()]
    assert names[:2] == ["audition", "guests"] and "countdown" in names
    assert get_game("countdown") is COUNTDOWN is get_game(COUNTDOWN)
    for spec in all_games():
        assert spec.configurations and spec.min_players <= spec.max_players
        for players, options in spec.configurations:
            env = make_raw_env(spec, players, **options)
            assert len(env.possible_agents) == players


def test_a_game_is_named_by_module_and_attribute(clean_registry):
    assert get_game(REFERENCE) is COUNTDOWN
    with pytest.raises(ValueError, match="no module 'no_such_module'"):
        get_game("no_such_module:SPEC")
    with pytest.raises(ValueError, match="has no such attribute"):
        get_game("tests.games.countdown.plugin:NOTHING")


def test_unknown_games_and_bad_specs_give_clear_errors(clean_registry):
    with pytest.raises(ValueError, match=r"unknown game 'chess'; known games: audition, .*guests"):
        get_game("chess")
    with pytest.raises(ValueError, match="is a dict, not a Game"):
        get_game("tests.games.countdown.env:LAYOUT")
    with pytest.raises(ValueError, match="a different game is already registered as 'audition'"):
        register_game(dataclasses.replace(COUNTDOWN, name="audition"))
    with pytest.raises(ValueError, match="no ':'"):
        dataclasses.replace(COUNTDOWN, name="count:down")
    with pytest.raises(ValueError, match="min_players <= max_players"):
        dataclasses.replace(COUNTDOWN, min_players=3, max_players=2)
    with pytest.raises(ValueError, match="players for countdown must be in 2..3, got 4"):
        make_raw_env(get_game("countdown"), 4)
    with pytest.raises(ValueError, match="start must be an int in 1..40"):
        make_raw_env(get_game("countdown"), 2, start=0)
    assert register_game(COUNTDOWN) is COUNTDOWN  # the same spec again: a no-op


def test_entry_points_are_found_lazily_by_name(monkeypatch, clean_registry):
    _entry_points(monkeypatch, ("countdown_ep", "tests.train.test_plugins:ENTRY_POINT_SPEC"))
    assert "countdown_ep" not in registry.GAMES  # (nothing loaded before it is asked for)
    assert get_game("countdown_ep") is ENTRY_POINT_SPEC
    assert "countdown_ep" in [g.name for g in all_games()]


def test_all_games_loads_every_entry_point_and_bad_ones_are_named(monkeypatch, clean_registry):
    _entry_points(monkeypatch, ("countdown_ep", "tests.train.test_plugins:ENTRY_POINT_SPEC"))
    names = [g.name for g in all_games()]
    assert names[:2] == ["audition", "guests"] and names.count("countdown_ep") == 1
    _entry_points(monkeypatch, ("broken", "no_such_module:SPEC"))
    with pytest.raises(
        ValueError, match=r"entry point broken = 'no_such_module:SPEC'.*does not load"
    ):
        get_game("broken")
    _entry_points(monkeypatch, ("other_name", "tests.train.test_plugins:ENTRY_POINT_SPEC"))
    with pytest.raises(ValueError, match="names the game 'countdown_ep'"):
        all_games()


# -- the smallest plug-in ------------------------------------------------------------------------


def test_a_game_with_only_the_four_core_fields_evaluates_and_trains(clean_registry):
    """``Game(name, make_env, min_players, max_players)``: the defaults fill the rest (baselines
    ``random``, no parts); tournaments, reports and the single-seat training env take it."""
    from parlour.eval.report import markdown
    from parlour.eval.tournament import run_tournament
    from parlour.train.single_seat import SingleSeatEnv
    from tests.games.countdown.env import raw_env

    minimal = register_game(
        Game(name="countdown_min", make_env=raw_env, min_players=2, max_players=3)
    )
    assert get_game("countdown_min") is minimal
    assert minimal.baselines == minimal.eval_baselines == ("random",)
    assert minimal.terminal is None and minimal.web is None and minimal.hidden_redeal is None
    result = run_tournament(minimal, 2, ["random"], 4, workers=1, progress=False)
    assert result["game"] == "countdown_min" and result["agents"][0]["games"] == 8
    assert "| random |" in markdown(result, spec=minimal)
    env = SingleSeatEnv(minimal, 2, {}, ["random"])
    obs, _ = env.reset(seed=0)
    assert obs.shape == env.observation_space.shape and env.action_masks().any()
    with pytest.raises(
        ValueError, match="'countdown.careful' plays countdown, not 'countdown_min'"
    ):
        run_tournament(minimal, 2, ["countdown.careful", "random"], 2, progress=False)
    with pytest.raises(ValueError, match="unknown agent 'countdown_min.x' for countdown_min"):
        run_tournament(minimal, 2, ["countdown_min.x", "random"], 2, progress=False)


def test_below_the_entry_points_a_game_is_an_object_not_a_name():
    from parlour.agents.factory import make_agent
    from parlour.eval.league import run_league
    from parlour.eval.tournament import play_games, run_tournament
    from parlour.train.multi_game import MultiGameVecEnv
    from parlour.train.opponents import OpponentPool
    from parlour.train.single_seat import SingleSeatEnv

    calls = {
        "make_raw_env": lambda: make_raw_env("countdown", 2),
        "make_agent": lambda: make_agent("random", "countdown"),
        "run_tournament": lambda: run_tournament("countdown", 2, ["random"], 2, progress=False),
        "play_games": lambda: play_games("countdown", 2, ["random"], 2, progress=False),
        "run_league": lambda: run_league("countdown", 2, ["random", "countdown.careful"], 2),
        "SingleSeatEnv": lambda: SingleSeatEnv("countdown", 2),
        "OpponentPool": lambda: OpponentPool("countdown", {"random": 1.0}),
        "MultiGameVecEnv": lambda: MultiGameVecEnv("countdown", 2, 2),
    }
    for where, call in calls.items():
        with pytest.raises(TypeError, match=rf"{where} takes a Game \(get_game\(name\)\), got str"):
            call()


# -- the test game itself --------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "options"), COUNTDOWN.configurations)
def test_countdown_mask_is_never_empty_for_the_agent_to_act(players, options):
    env = make_raw_env(get_game("countdown"), players, **options)
    rng = np.random.default_rng(players)
    for seed in range(30):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            assert obs["action_mask"].any()
            others = [a for a in env.agents if a != agent]
            assert not any(env.observe(a)["action_mask"].any() for a in others)
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert info == {}
        results = env.unwrapped.results()
        assert results["over"] and set(results["winners"]) <= set(env.possible_agents)


def test_countdown_redeal_changes_only_what_the_seat_cannot_see():
    from tests.games.countdown.plugin import redeal

    env = make_raw_env(get_game("countdown"), 3)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    changed = 0
    for seat, agent in enumerate(env.possible_agents):
        before = {a: env.observe(a)["observation"] for a in env.possible_agents}
        hidden = [env.game.hands[p] for p in range(3) if p != seat] + [env.game.deck]
        redeal(env, seat, rng)
        np.testing.assert_array_equal(env.observe(agent)["observation"], before[agent])
        changed += hidden != [env.game.hands[p] for p in range(3) if p != seat] + [env.game.deck]
    assert changed


def test_countdown_careful_agent_beats_random():
    from parlour.eval.tournament import run_tournament

    r = run_tournament(
        COUNTDOWN, 2, ["countdown.careful", "random"], 200, workers=1, progress=False
    )
    careful, rnd = r["agents"]
    assert careful["ci95"][0] > 0.5 and careful["bust_rate"] < rnd["bust_rate"]
    with pytest.raises(ValueError, match="unknown agent 'countdown.reckless'.*countdown.careful"):
        run_tournament(COUNTDOWN, 2, ["countdown.reckless", "random"], 2, progress=False)


# -- through the commands ----------------------------------------------------------------------------


def test_parlour_train_runs_the_plugin_game_named_in_the_config(tmp_path, capsys):
    config = {
        "name": "tiny_countdown",
        "game": REFERENCE,
        "players": 3,
        "game_options": {"start": 12},
        "total_timesteps": 256,
        "n_envs": 2,
        "vec_env": "dummy",
        "opponents": {"baselines": {"random": 1, "countdown.careful": 1}, "snapshot_every": 128},
        "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 1, "net_arch": [16]},
        "eval": {"every": 128, "games": 3, "final_games": 6, "workers": 1},
        "checkpoint_every": 128,
    }
    path = tmp_path / "countdown.yaml"
    path.write_text(yaml.safe_dump(config))
    runs = tmp_path / "runs"
    assert main(["train", str(path), "--runs", str(runs), "--no-progress"]) == 0
    run = runs / "tiny_countdown"
    report = json.loads((run / "report.json").read_text())
    assert report["game"] == "countdown" and report["config"]["game"] == REFERENCE
    assert report["timesteps"] >= 256 and [h["timesteps"] for h in report["history"]] == [128, 256]
    for opp in ("random", "countdown.careful"):
        final = report["final"][opp]
        assert final["games"] >= 6 and 0.0 <= final["bust_rate"] <= 1.0
    assert "bust rate" in (run / "report.md").read_text()
    header = (run / "logs" / "progress.csv").read_text().splitlines()[0].split(",")
    assert "eval/bust_rate_vs_random" in header
    assert list((run / "snapshots").glob("*.safetensors"))
    assert "bust rate" in capsys.readouterr().out

    # the model plays the game through the ppo agent spec, in an evaluation by name
    out = tmp_path / "ev"
    args = ["eval", "--game", "countdown", "--players", "3", "--option", "start=12"]
    args += ["--agents", f"ppo:{run / 'model.safetensors'}", "countdown.careful", "--games", "6"]
    assert main([*args, "--workers", "1", "--out", str(out), "--no-progress"]) == 0
    data = json.loads((out / "eval.json").read_text())
    assert data["game"] == "countdown" and data["agents"][0]["games"] >= 6


def test_parlour_eval_runs_the_plugin_game_in_worker_processes(tmp_path, capsys):
    out = tmp_path / "ev"
    args = ["eval", "--game", REFERENCE, "--agents", "countdown.careful", "random", "--games", "8"]
    assert main([*args, "--workers", "2", "--out", str(out), "--no-progress"]) == 0
    data = json.loads((out / "eval.json").read_text())
    assert data["game"] == "countdown" and data["workers"] == 2 and data["games"] == 8
    assert {"bust_rate"} <= set(data["agents"][0])
    md = (out / "eval.md").read_text()
    assert "| bust rate |" in md and "took the counter below 0" in md
    assert "countdown.careful" in capsys.readouterr().out


def _play(argv: list[str], lines: list[str], capsys) -> tuple[int, str]:
    old = sys.stdin
    sys.stdin = io.StringIO("".join(line + "\n" for line in lines))
    try:
        code = main(["play", *argv])
    finally:
        sys.stdin = old
    return code, capsys.readouterr().out


@pytest.mark.parametrize("game", ["countdown", REFERENCE])
def test_parlour_play_plays_the_plugin_game_to_the_end(game, capsys):
    code, out = _play([game, "--seed", "4", "--players", "3"], ["0", "help", "1"] * 40, capsys)
    assert code == 0 and "Game over." in out
    assert "There is no move 0" in out and "commands: help, quit" in out
    assert "Your hand:" in out and "plays a " in out  # the person's hand, the others' moves
    assert "Winner(s):" in out.split("Game over.")[1]
    assert "player_1: countdown.careful" in out  # the UI's default opponent


def test_parlour_play_rejects_flags_the_game_does_not_take(capsys):
    with pytest.raises(SystemExit):
        _play(["countdown", "--level", "easy"], ["quit"], capsys)
    assert "unrecognized arguments: --level easy" in capsys.readouterr().err
    code, _ = _play(["countdown", "--option", "start=5", "--seed", "1"], ["quit"], capsys)
    assert code == 0
