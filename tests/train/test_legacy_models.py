"""Models saved by the old code still load and play.

``tests/data/legacy_audition_model.zip`` was saved by parlour 0.1: it pickles the class path
``train.features.AuditionFeatures`` (a top-level ``train`` package, a module that is gone now).
``parlour._legacy.MOVED`` sends that name to :mod:`parlour.games.audition.training`; the load must
work from a folder holding the user's own ``train.py`` and ``agents/`` (which must neither
shadow parlour nor be disturbed).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from parlour._legacy import MOVED

LEGACY_MODEL = Path(__file__).parents[1] / "data" / "legacy_audition_model.zip"


@pytest.fixture
def users_folder(tmp_path, monkeypatch):
    """A working folder with the user's own ``train.py`` and ``agents/`` first on the path."""
    (tmp_path / "train.py").write_text("WHOSE = 'user'\n")
    (tmp_path / "agents").mkdir()
    (tmp_path / "agents" / "__init__.py").write_text("WHOSE = 'user'\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("train", "agents"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    import agents  # a user's package
    import train  # a user's package

    assert train.WHOSE == agents.WHOSE == "user"
    return tmp_path


def test_every_class_that_left_train_features_is_listed():
    assert {name for (old, name) in MOVED if old == "train.features"} == {
        "AuditionFeatures",
        "GuestsFeatures",
        "GuestsPolicy",
        "PriorHead",
    }
    import importlib

    for (_, name), module in MOVED.items():
        assert isinstance(getattr(importlib.import_module(module), name), type)


def test_legacy_model_loads_and_plays_a_full_game_beside_the_users_files(users_folder):
    from parlour.agents.ppo import PPOAgent, load_model
    from parlour.agents.random_agent import RandomAgent
    from parlour.envs import audition_v1
    from parlour.games.audition.training import AuditionFeatures

    model = load_model(LEGACY_MODEL, device="cpu")
    assert type(model.policy.features_extractor) is AuditionFeatures
    assert sys.modules["train"].WHOSE == "user" and sys.modules["agents"].WHOSE == "user"

    with pytest.raises(ValueError, match="holds pickled data"):  # (a zip: only when trusted)
        PPOAgent(f"ppo:{LEGACY_MODEL}", str(LEGACY_MODEL))
    learner = PPOAgent(f"ppo:{LEGACY_MODEL}", str(LEGACY_MODEL), trust=True)
    env = audition_v1.raw_env(num_players=2)
    env.reset(seed=5)
    players = {"player_0": learner, "player_1": RandomAgent("random", seed=5)}
    moves = 0
    rewards = dict.fromkeys(players, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        rewards[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        action = players[agent].act(obs, env.player_view(agent))
        assert obs["action_mask"][action] == 1
        env.step(action)
        moves += agent == "player_0"
    assert moves > 5 and env.game.is_terminal
    winners = env.unwrapped.results()["winners"]
    assert info == {} and set(winners) <= {"player_0", "player_1"} and winners
    assert sum(rewards.values()) == pytest.approx(0.0) and max(rewards.values()) > 0
    assert sys.modules["train"].WHOSE == "user"


#: (pickled from, name) -> the module that holds it now: the game plug-ins left
#: ``parlour.train.games`` when parlour was split into layers (``parlour._legacy.RENAMED``)
PRE_LAYERS = {
    ("parlour.train.games.audition", "AuditionFeatures"): "parlour.games.audition.training",
    ("parlour.train.games.guests", "GuestsFeatures"): "parlour.games.guests.policy",
    ("parlour.train.games.guests", "GuestsPolicy"): "parlour.games.guests.policy",
    ("parlour.train.games.guests_policy", "build_policy"): "parlour.games.guests.policy",
    ("parlour.train.games", "Game"): "parlour.games",
}


def _pickled_global(module: str, name: str) -> bytes:
    """A tiny pickle (protocol 2) of the object ``module.name``, by reference, as an older
    parlour wrote its classes into a model file."""
    return b"\x80\x02c" + f"{module}\n{name}\n".encode() + b"q\x00."


@pytest.mark.parametrize(("old", "name"), sorted(PRE_LAYERS))
def test_a_pickle_naming_a_pre_layers_module_path_resolves_to_the_new_home(old, name):
    import importlib
    import pickle

    from parlour._legacy import RENAMED, legacy_module_paths

    new = PRE_LAYERS[(old, name)]
    assert RENAMED[old] == new
    home = importlib.import_module(new)
    spec_before = home.__spec__
    data = _pickled_global(old, name)
    with pytest.raises(ModuleNotFoundError):  # (outside the loader: the old path is gone)
        pickle.loads(data)
    with legacy_module_paths():
        assert pickle.loads(data) is getattr(home, name)
    # afterwards the old names are gone again and the new home is untouched
    assert not any(
        m == "parlour.train.games" or m.startswith("parlour.train.games.") for m in sys.modules
    )
    assert "games" not in vars(importlib.import_module("parlour.train"))
    assert home.__spec__ is spec_before and home.__name__ == new
