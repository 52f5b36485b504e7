"""The shipped models (``parlour.models``): every entry plays by short name at its own table; names,
games and player counts are checked; ``parlour models`` lists and adds; ``parlour play`` and the web
table seat the registry's default.

The registry tests other than the per-entry ones point ``PARLOUR_MODELS_DIR`` at a temporary
registry holding a model from a tiny real ``parlour train`` run, added with ``parlour models add``.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import sys
from pathlib import Path

import pytest
import yaml

from parlour.agents.factory import check_agents_fit, make_agent
from parlour.apps.cli import main
from parlour.games import get_game, make_raw_env
from parlour.models import MODELS_DIR_ENV, read_index, seat_options, shipped_models

#: a tiny Audition run (in-process envs, a few hundred steps, a two-game final evaluation)
TINY = {
    "name": "tiny",
    "players": 2,
    "total_timesteps": 256,
    "n_envs": 1,
    "vec_env": "dummy",
    "opponents": {"baselines": {"random": 1.0}},
    "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 1, "net_arch": [8]},
    "eval": {"every": 100000, "games": 2, "final_games": 4, "workers": 1},
    "checkpoint_every": 100000,
}
#: games each shipped model plays in the per-entry test (argmax, sampling)
GAMES_PER_MODEL = {False: 2, True: 1}
SHIPPED = sorted(shipped_models().values(), key=lambda m: m.name)


@pytest.mark.parametrize("model", SHIPPED, ids=[m.name for m in SHIPPED])
@pytest.mark.parametrize("sample", [False, True], ids=["argmax", "sample"])
def test_every_shipped_model_plays_whole_games_by_short_name(model, sample):
    assert model.path.is_file() and model.card.is_file(), model
    assert model.summary() and not model.summary().startswith("(")
    game = get_game(model.game)
    spec = f"ppo:{model.name}" + (":sample" if sample else "")
    options = seat_options([spec], {})
    assert options == model.game_options
    env = make_raw_env(game, model.players, **options)
    agents = {
        a: make_agent(spec, game, seed=i, players=model.players)
        for i, a in enumerate(env.possible_agents)
    }
    check_agents_fit(agents.values(), env)
    for g in range(GAMES_PER_MODEL[sample]):
        env.reset(seed=g)
        steps = 0
        for name in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            action = agents[name].act(obs, env.player_view(name))
            assert obs["action_mask"][action] == 1, (model.name, g, steps, action)
            env.step(action)
            steps += 1
        assert steps > 0 and env.unwrapped.results()["winners"] is not None


def test_each_table_has_at_most_one_default_and_the_index_names_only_shipped_files():
    for m in read_index():
        assert m.path.is_file(), f"index lists {m.name} but {m.path} is missing"
    keys = [(m.game, m.players, json.dumps(m.game_options)) for m in read_index() if m.default]
    assert len(keys) == len(set(keys))


# -- a temporary registry ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished tiny ``parlour train`` run of 2-player Audition."""
    root = tmp_path_factory.mktemp("tiny_run")
    cfg = root / "tiny.yaml"
    cfg.write_text(yaml.safe_dump(TINY))
    assert main(["train", str(cfg), "--runs", str(root / "runs"), "--no-progress"]) == 0
    return root / "runs" / "tiny"


@pytest.fixture
def registry(tmp_path: Path, tiny_run: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``PARLOUR_MODELS_DIR`` -> a fresh folder holding the tiny run as ``tiny-2p`` (default)."""
    folder = tmp_path / "models"
    monkeypatch.setenv(MODELS_DIR_ENV, str(folder))
    assert main(["models", "add", str(tiny_run), "--name", "tiny-2p", "--default"]) == 0
    return folder


def _play(argv: list[str], capsys) -> str:
    old = sys.stdin
    sys.stdin = io.StringIO("quit\n")
    try:
        assert main(["play", *argv]) == 0
    finally:
        sys.stdin = old
    return capsys.readouterr().out


def test_models_add_writes_the_card_and_the_index_and_models_lists_it(registry, tiny_run, capsys):
    (model,) = read_index(registry)
    assert (model.name, model.game, model.players, model.default) == (
        "tiny-2p",
        "audition",
        2,
        True,
    )
    card = model.card.read_text()
    assert card.startswith("# tiny-2p\n") and "| players | 2 |" in card
    assert "| random | 4 |" in card  # the run's final evaluation table
    assert model.summary().startswith("MaskablePPO for 2-player audition, ")
    _same_weights_no_adam_moments(model.path, tiny_run / "model.safetensors")
    capsys.readouterr()
    assert main(["models"]) == 0
    out = capsys.readouterr().out
    assert "ppo:tiny-2p  2-player audition  [default]" in out and model.summary() in out


def _same_weights_no_adam_moments(shipped: Path, trained: Path) -> None:
    """The shipped copy holds the trained weights and no optimizer state (the run's has one)."""
    import torch

    from parlour.agents.model_file import OPTIMIZER_PREFIX, read_model_file

    (doc_a, slim), (doc_b, full) = read_model_file(shipped), read_model_file(trained)
    assert doc_a == doc_b
    assert not any(k.startswith(OPTIMIZER_PREFIX) for k in slim)
    assert any(k.startswith(OPTIMIZER_PREFIX) for k in full)
    weights = {k: v for k, v in full.items() if not k.startswith(OPTIMIZER_PREFIX)}
    assert slim.keys() == weights.keys()
    assert all(torch.equal(slim[k], weights[k]) for k in slim)


def test_a_short_name_resolves_and_a_file_path_wins(registry, tiny_run, tmp_path, monkeypatch):
    agent = make_agent("ppo:tiny-2p", get_game("audition"), players=2)
    assert agent.shipped is not None and agent.shipped.name == "tiny-2p"
    monkeypatch.chdir(tmp_path)
    shutil.copyfile(tiny_run / "model.safetensors", tmp_path / "tiny-2p")  # a file of that name
    assert make_agent("ppo:tiny-2p", get_game("audition"), players=3).shipped is None


def test_unknown_names_wrong_games_and_wrong_player_counts_are_refused(registry):
    with pytest.raises(ValueError, match=r"no shipped model of that name; shipped models: tiny-2p"):
        make_agent("ppo:tiny-3p", get_game("audition"))
    with pytest.raises(ValueError, match="model of 2-player audition; it cannot play guests"):
        make_agent("ppo:tiny-2p", get_game("guests"))
    with pytest.raises(ValueError, match="it cannot play 3-player audition"):
        make_agent("ppo:tiny-2p", get_game("audition"), players=3)
    agent = make_agent("ppo:tiny-2p:sample", get_game("audition"))  # (player count unknown here)
    with pytest.raises(ValueError, match="this table has 3 players"):
        check_agents_fit([agent], make_raw_env(get_game("audition"), 3))


def test_cli_refuses_a_shipped_model_at_the_wrong_table(registry, tmp_path, capsys):
    from tests.faults.helpers import assert_clean_failure, files, run_main

    before = files(tmp_path)
    for argv, message in [
        (["eval", "--agents", "ppo:tiny-2p", "random", "--players", "3"], "3-player audition"),
        (
            ["eval", "--game", "guests", "--agents", "ppo:tiny-2p", "random"],
            "cannot play 2-player guests",
        ),
        (["eval", "--agents", "ppo:nope", "random"], "shipped models: tiny-2p"),
        (["play", "audition", "--players", "4", "--opponents", "ppo:tiny-2p"], "4-player"),
    ]:
        out = ["--out", str(tmp_path / "out"), "--no-progress"] if argv[0] == "eval" else []
        assert_clean_failure(run_main([*argv, *out], capsys), message, before, files(tmp_path))


def test_play_seats_the_registry_default_only_at_its_table(registry, capsys):
    assert "player_1: ppo:tiny-2p" in _play(["audition", "--seed", "1"], capsys)
    out = _play(["audition", "--seed", "1", "--players", "3"], capsys)
    assert "player_1: audition.greedy" in out  # no 3-player model: the UI's default
    out = _play(["audition", "--seed", "1", "--option", "action_cards=2"], capsys)
    assert "player_1: audition.greedy" in out  # another variant: not the model's table
    out = _play(["audition", "--seed", "1", "--opponents", "random"], capsys)
    assert "player_1: random" in out


def test_without_a_default_play_seats_the_scripted_default(registry, capsys):
    index = registry / "index.yaml"
    index.write_text(index.read_text().replace("default: true", "default: false"))
    assert "player_1: audition.greedy" in _play(["audition", "--seed", "1"], capsys)


def test_a_shipped_model_brings_its_game_options_to_the_table(registry, tiny_run):
    data = yaml.safe_load((registry / "index.yaml").read_text())
    for name, uc in (("tiny-uc", True), ("tiny-plain", False)):
        shutil.copyfile(registry / "tiny-2p.safetensors", registry / f"{name}.safetensors")
        data["models"].append(
            {"name": name, "game": "audition", "players": 2,
             "game_options": {"uncertain_counts": uc}, "default": False}
        )  # fmt: skip
    (registry / "index.yaml").write_text(yaml.safe_dump(data))
    assert seat_options(["ppo:tiny-uc", "random"], {}) == {"uncertain_counts": True}
    assert seat_options(["ppo:tiny-uc"], {"uncertain_counts": False}) == {
        "uncertain_counts": False
    }  # the table's own setting wins
    with pytest.raises(ValueError, match="give the game option uncertain_counts explicitly"):
        seat_options(["ppo:tiny-uc", "ppo:tiny-plain"], {})
    # a search agent on a shipped model brings that model's options too
    search = "audition.search:sims=4,model=tiny-uc"
    assert seat_options([search, "random"], {}) == {"uncertain_counts": True}
    with pytest.raises(ValueError, match="give the game option uncertain_counts explicitly"):
        seat_options([search, "ppo:tiny-plain"], {})
    from parlour.eval.tournament import run_tournament

    result = run_tournament(
        get_game("audition"), 2, ["ppo:tiny-uc", "random"], 2, workers=1, progress=False
    )
    assert result["game_options"] == {"uncertain_counts": True}


def test_the_registry_refuses_a_malformed_index(tmp_path):
    index = tmp_path / "index.yaml"
    cases = [
        ("models: 3", "a list 'models'"),
        ("models: [{name: a, game: audition}]", "missing keys ['players']"),
        ("models: [{name: a, game: audition, players: 2, colour: red}]", "unknown keys ['colour']"),
        ("models: [{name: a/b, game: audition, players: 2}]", "a model name is"),
        ("models: [{name: a, game: audition, players: 0}]", "players must be an int >= 1"),
        (
            "models: [{name: a, game: audition, players: 2, default: true},"
            " {name: b, game: audition, players: 2, default: true}]",
            "both the default for 2-player audition",
        ),
        ("models: [{name: a, game: x, players: 2}, {name: a, game: x, players: 2}]", "twice"),
    ]
    for text, message in cases:
        index.write_text(text)
        with pytest.raises(ValueError, match=re.escape(message)):
            read_index(tmp_path)
    index.unlink()
    assert read_index(tmp_path) == []


def test_models_add_refuses_bad_runs_and_taken_names(registry, tiny_run, tmp_path, capsys):
    from tests.faults.helpers import assert_clean_failure, files, run_main

    (tmp_path / "empty").mkdir()
    before = files(tmp_path)
    for argv, message in [
        ([str(tiny_run), "--name", "tiny-2p"], "exists; use --overwrite"),
        ([str(tiny_run), "--name", "bad/name"], "a model name is"),
        ([str(tmp_path / "empty"), "--name", "x"], "no model.safetensors"),
    ]:
        result = run_main(["models", "add", *argv], capsys)
        assert_clean_failure(result, message, before, files(tmp_path))
    assert main(["models", "add", str(tiny_run), "--name", "tiny-2p", "--overwrite"]) == 0
    assert [m.name for m in read_index(registry)] == ["tiny-2p"]


def test_the_web_table_offers_shipped_models_only_at_their_game_and_seat_count(registry):
    from parlour.apps.web.catalog import Catalog
    from parlour.apps.web.sessions import parse_settings

    games = {g["name"]: g for g in Catalog([]).games()}
    entry, search = games["audition"]["shipped"]
    assert entry["spec"] == "ppo:tiny-2p" and entry["players"] == 2 and entry["default"]
    assert search["spec"] == "audition.search:model=tiny-2p" and search["players"] == 2
    assert not search["default"]  # offered beside the model, never seated by default
    assert games["guests"]["shipped"] == []
    assert not any("tiny" in a for g in games.values() for a in g["agents"])
    assert parse_settings({"game": "audition", "players": 2}).opponents == ["ppo:tiny-2p"]
    assert parse_settings({"game": "audition", "players": 3}).opponents == ["audition.greedy"]


def test_the_shipped_registry_is_the_package_folder_unless_overridden(monkeypatch, tmp_path):
    import parlour.models as pm

    monkeypatch.delenv(MODELS_DIR_ENV, raising=False)
    assert pm.models_dir() == Path(pm.__file__).resolve().parent
    monkeypatch.setenv(MODELS_DIR_ENV, str(tmp_path))
    assert pm.models_dir() == tmp_path and pm.shipped_models() == {}
    assert all(pm.is_model_name(n) for n in ("audition-2p", "guests-4p-medium", "a.b"))
    assert not any(pm.is_model_name(n) for n in ("x.zip", "x.safetensors", "runs/x", "", "-x"))
