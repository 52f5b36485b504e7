"""Issue 31, ``parlour serve``: the page chooses only from the server's catalog. No file path,
free-form agent spec or env option from HTTP reaches ``make_agent`` / ``make_raw_env``, and every
refused agent gets the same message (no oracle of which files exist)."""

from __future__ import annotations

import os
import shutil
import time

import pytest

from tests.security._server_asgi import call, make_app, new_game

#: agents a page must not name: files that exist, do not exist, a folder, a costly search
REFUSED_AGENTS = [
    "ppo:/etc/passwd",
    "ppo:/nonexistent",
    "ppo:/etc",
    "ppo:/etc/passwd:sample",
    "rllib:/etc",
    "audition.search:model=/etc/passwd",
    f"audition.expert:sims={10**12}",
    "audition.expert:sims=100",  # (even a harmless option: only catalog ids are taken)
    "audition.wizard",
    "guests.deducer",  # another game's agent
]


@pytest.fixture
def calls(monkeypatch) -> dict[str, list]:
    """Every call of ``make_agent`` and ``make_raw_env`` the app makes."""
    import parlour.agents.factory as factory
    import parlour.games as games

    seen: dict[str, list] = {"agents": [], "envs": []}
    make_agent, make_raw_env = factory.make_agent, games.make_raw_env

    def agent(spec, *args, **kwargs):
        seen["agents"].append(spec)
        return make_agent(spec, *args, **kwargs)

    def env(game, players, **options):
        seen["envs"].append(options)
        return make_raw_env(game, players, **options)

    monkeypatch.setattr(factory, "make_agent", agent)
    monkeypatch.setattr(games, "make_raw_env", env)
    return seen


def test_every_refused_agent_gets_the_same_error_and_reaches_no_loader(calls) -> None:
    app = make_app()
    errors = set()
    for spec in REFUSED_AGENTS:
        answer = new_game(app, opponents=[spec])
        assert answer.status == 400, (spec, answer.data)
        errors.add(answer.error)
    assert len(errors) == 1, errors  # one message: nothing tells /etc/passwd from /nonexistent
    (error,) = errors
    assert "must be one of the agents offered for 2-player audition" in error
    assert "/etc" not in error
    assert calls["agents"] == [] and calls["envs"] == []
    assert app.state.games.sessions == {}


@pytest.mark.parametrize(
    ("game", "options", "words"),
    [
        ("guests", {"cases": ["/etc/shadow"]}, "guests has no option 'cases'"),
        ("guests", {"case_workers": 32}, "no option 'case_workers'"),
        ("guests", {"seer": True}, "no option 'seer'"),
        ("guests", {"max_rounds": 10**9}, "no option 'max_rounds'"),
        ("guests", {"level": "impossible"}, "level must be one of"),
        ("audition", {"action_cards": True}, "action_cards must be one of"),  # True is not 1
        ("audition", {"action_cards": 99}, "action_cards must be one of"),
        ("audition", {"uncertain_counts": "yes"}, "uncertain_counts must be one of"),
        ("audition", ["not", "an", "object"], "must be a JSON object"),
    ],
)
def test_env_options_outside_the_catalog_are_refused(calls, game, options, words) -> None:
    app = make_app()
    answer = call(app, "POST", "/api/games", {"game": game, "players": 2, "options": options})
    assert answer.status == 400 and words in answer.error, answer.data
    assert calls["envs"] == [] and calls["agents"] == []


def test_a_fifo_named_as_a_case_file_does_not_hang_the_server(tmp_path, calls) -> None:
    fifo = tmp_path / "case.fifo"
    os.mkfifo(fifo)
    app = make_app()
    t0 = time.monotonic()
    answer = new_game(app, game="guests", options={"cases": [str(fifo)]})
    assert answer.status == 400 and "no option 'cases'" in answer.error
    assert time.monotonic() - t0 < 5 and calls["envs"] == []


def test_catalog_values_play_and_build_only_what_the_server_chose(calls) -> None:
    app = make_app()
    games = {g["name"]: g for g in call(app, "GET", "/api/catalog").data["games"]}
    audition = games["audition"]
    assert "audition.expert" in audition["agents"]
    assert not any("/" in a or "sims" in a for a in audition["agents"])
    options = {o["name"]: o["choices"][1] for o in audition["options"] if o["choices"] != "bool"}
    answer = new_game(app, opponents=["audition.expert"], options=options, seed=3)
    assert answer.status == 200, answer.data
    assert calls["agents"] == ["audition.expert"]  # the default options: bounded cost
    assert calls["envs"] == [options]


def test_the_operators_models_are_offered_by_id_never_by_path(tmp_path, calls) -> None:
    """``parlour serve --model PATH``: the page names the model ``ppo:#1``; the server builds
    ``ppo:PATH`` (untrusted); the path itself, sent by a page, is refused; a file that is no
    parlour model (its game unknown) is offered nowhere."""
    from parlour.models import find_model

    model = tmp_path / "mine.safetensors"
    shutil.copyfile(find_model("audition-2p").path, model)
    junk = tmp_path / "mine.zip"
    junk.write_bytes(b"not a model")
    app = make_app(models=[str(model), str(junk)])
    games = {g["name"]: g for g in call(app, "GET", "/api/catalog").data["games"]}
    audition = games["audition"]
    assert "ppo:#1" in audition["agents"] and "audition.search:model=#1" in audition["agents"]
    assert audition["labels"]["ppo:#1"] == f"Your model: {model}"
    assert not any("#2" in a for g in games.values() for a in g["agents"])
    refused = new_game(app, opponents=[f"ppo:{model}"])
    assert refused.status == 400 and "must be one of the agents offered" in refused.error
    assert calls["agents"] == []
    answer = new_game(app, opponents=["ppo:#1"])
    assert calls["agents"] == [f"ppo:{model}"]  # the server's own path, from its catalog
    assert answer.status == 200, answer.data
    for unknown in ("ppo:#2", "ppo:#3"):
        assert new_game(app, opponents=[unknown]).error == refused.error
    assert calls["agents"] == [f"ppo:{model}"]


def test_shipped_models_are_taken_only_at_their_own_player_count(tmp_path, monkeypatch, calls):
    import json

    entries = [{"name": "web-2p", "game": "audition", "players": 2, "default": True}]
    (tmp_path / "web-2p.safetensors").write_bytes(b"(listed only)")
    (tmp_path / "index.yaml").write_text(json.dumps({"models": entries}))
    monkeypatch.setenv("PARLOUR_MODELS_DIR", str(tmp_path))
    app = make_app()
    three = call(app, "POST", "/api/games", {"game": "audition", "players": 3,
                                             "opponents": ["ppo:web-2p"]})  # fmt: skip
    assert three.status == 400 and "offered for 3-player audition" in three.error
    assert calls["agents"] == []
    two = new_game(app, opponents=["ppo:web-2p"])
    assert calls["agents"] == ["ppo:web-2p"]  # offered at 2 players (the file is no model)
    assert two.status == 400


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("seed", 2**80, "seed must be in 0.."),
        ("seed", -1, "seed must be in 0.."),
        ("hints", "yes", "hints must be true or false"),
        ("opponents", "random", "opponents must be a list"),
        ("opponents", ["random"] * 50, "opponents must be a list of 1..6"),
    ],
)
def test_other_new_game_fields_are_bounded(field, value, words) -> None:
    answer = new_game(make_app(), **{field: value})
    assert answer.status == 400 and words in answer.error, answer.data


#: odd JSON values for every field of a new game
ODD_VALUES = [None, True, 0, 1.5, -1, 10**30, "", "x" * 1000, [], [None], {}, {"a": {"b": 1}}]


@pytest.mark.parametrize("field", ["game", "players", "seat", "opponents", "options", "seed",
                                   "hints"])  # fmt: skip
def test_odd_values_of_every_field_are_answered_never_a_500(field) -> None:
    app = make_app()
    for value in ODD_VALUES:
        body = {"game": "audition", "players": 2, "opponents": ["random"], field: value}
        answer = call(app, "POST", "/api/games", body)
        assert answer.status in (200, 400), (field, value, answer.data)  # (null: the default)


def test_zero_players_is_refused_not_defaulted() -> None:
    answer = new_game(make_app(), players=0)
    assert answer.status == 400 and "players for audition must be in 2..6" in answer.error
