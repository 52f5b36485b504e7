"""Issue 36, the new-game form's catalog: a readable label for every agent offered, and the
operator's models offered (and accepted) only for the game they fit."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

from parlour.apps.web.catalog import Catalog, agent_label, model_spaces
from parlour.games import get_game
from parlour.models import find_model
from tests.web.conftest import Live, start_server


@pytest.fixture(scope="module")
def with_models(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Live, str]]:
    """A server given an Audition model (a copy of a shipped one) and a file that is no model."""
    from parlour.apps.web.app import create_app

    folder = tmp_path_factory.mktemp("models")
    model = folder / "mine.safetensors"
    shutil.copyfile(find_model("audition-2p").path, model)
    (folder / "junk.safetensors").write_bytes(b"\x08\x00\x00\x00\x00\x00\x00\x00{}")
    app = create_app(models=[str(model), str(folder / "junk.safetensors")])
    url, server, thread = start_server(app)
    yield Live(url, app, folder), str(model)
    server.should_exit = True
    thread.join(timeout=10)


def catalog(live: Live) -> dict[str, dict]:
    status, data = live.call("GET", "/api/catalog")
    assert status == 200, data
    return {g["name"]: g for g in data["games"]}


def test_every_offered_agent_has_a_readable_label(with_models) -> None:
    live, model = with_models
    games = catalog(live)
    for game in games.values():
        ids = game["agents"] + [m["spec"] for m in game["shipped"]]
        assert set(game["labels"]) == set(ids), game["name"]
        assert all(game["labels"][i] and game["labels"][i] != i for i in ids), game["labels"]
    audition, guests = games["audition"]["labels"], games["guests"]["labels"]
    assert audition["random"] == guests["random"] == "Random (any legal move)"
    assert audition["audition.greedy"] == "Greedy (scripted)"
    assert audition["audition.expert"] == "Expert (scripted)"
    assert guests["guests.deducer"] == "Deducer (scripted)"
    assert audition["ppo:audition-3p"] == "Model audition-3p"
    assert audition["audition.search:model=audition-3p"] == "Search on model audition-3p"
    assert audition["ppo:#1"] == f"Your model: {model}"
    assert audition["audition.search:model=#1"] == f"Search on your model: {model}"
    shipped = next(m for m in games["audition"]["shipped"] if m["spec"] == "ppo:audition-3p")
    assert shipped["label"] == "Model audition-3p" and shipped["summary"]
    assert agent_label("countdown.careful") == "Careful (scripted)"  # (the generic fallback)


def test_an_operator_model_is_offered_and_taken_only_for_its_own_game(with_models) -> None:
    live, model = with_models
    games = catalog(live)
    audition, guests = games["audition"], games["guests"]
    assert {"ppo:#1", "audition.search:model=#1"} <= set(audition["agents"])
    assert audition["players_of"]["ppo:#1"] == [2, 3, 4, 5, 6]  # (no count recorded: all fit)
    assert not any("#" in a for a in guests["agents"]) and guests["players_of"] == {}
    assert not any("#2" in a for g in games.values() for a in g["agents"])  # not a model
    body = {"game": "guests", "players": 2, "opponents": ["ppo:#1"], "seed": 1}
    before = len(live.app.state.games.sessions)
    status, data = live.call("POST", "/api/games", body)
    assert (
        status == 400 and "must be one of the agents offered for 2-player guests" in (data["error"])
    )
    assert model not in data["error"] and len(live.app.state.games.sessions) == before
    status, data = live.call("POST", "/api/games", dict(body, game="audition"))
    assert status == 200, data
    assert live.app.state.games.sessions[data["id"]].settings.opponents == [f"ppo:{model}"]


def test_a_models_sizes_come_from_its_header_only(tmp_path) -> None:
    assert model_spaces(str(find_model("audition-2p").path)) == ((321,), 27)
    for junk in (b"", b"PK\x03\x04zip", b"\xff" * 8 + b"{}", b"\x02\x00\x00\x00\x00\x00\x00\x00{}"):
        path = tmp_path / "m.safetensors"
        path.write_bytes(junk)
        assert model_spaces(str(path)) is None
    assert model_spaces(str(tmp_path)) is None and model_spaces(str(tmp_path / "no")) is None
    assert Catalog([str(tmp_path / "no")]).fits(get_game("audition")) == {}
