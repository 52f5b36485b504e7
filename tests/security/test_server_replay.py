"""Issue 31, ``parlour serve``: no replay and no omniscient view of an unfinished game. A running
game's replay (its seed and actions) is refused; a replay document that stops before the end
shows seats' views only; an uploaded replay may set only the catalog's game options."""

from __future__ import annotations

import pytest

from tests.security._server_asgi import call, make_app, new_game, play_to_end


@pytest.mark.parametrize("game", ["audition", "guests"])
def test_a_running_games_replay_is_refused(game) -> None:
    app = make_app()
    started = new_game(app, game=game, opponents=["random"])
    key = started.data["id"]
    answer = call(app, "GET", f"/api/games/{key}/replay")
    assert answer.status == 409 and "the game is not over" in answer.error
    assert "seed" not in answer.data
    play_to_end(app, key, started.data["state"])
    done = call(app, "GET", f"/api/games/{key}/replay")
    assert done.status == 200 and done.data["results"]


def _unfinished_doc(app, game: str) -> tuple[dict, int]:
    """A finished game's replay cut to its first half (what a running game's replay was)."""
    started = new_game(app, game=game, opponents=["random"], seed=6)
    play_to_end(app, started.data["id"], started.data["state"])
    doc = call(app, "GET", f"/api/games/{started.data['id']}/replay").data
    half = len(doc["actions"]) // 2
    cut = {k: v for k, v in doc.items() if k != "results"}
    return {**cut, "actions": doc["actions"][:half]}, half


@pytest.mark.parametrize("game", ["audition", "guests"])
def test_an_unfinished_replay_posted_back_shows_no_omniscient_view(game) -> None:
    app = make_app()
    doc, half = _unfinished_doc(app, game)
    opened = call(app, "POST", "/api/replays", {"replay": doc})
    assert opened.status == 200, opened.data
    summary = opened.data["summary"]
    assert summary["finished"] is False and "omniscient" not in summary["views"]
    rid = opened.data["id"]
    for step in (0, half):
        omni = call(app, "GET", f"/api/replays/{rid}/frame?step={step}&view=omniscient")
        assert omni.status == 403 and "only for a replay of a finished game" in omni.error
        assert "seats" not in omni.data and "final" not in omni.data
    default = call(app, "GET", f"/api/replays/{rid}/frame?step={half}")  # (the default view)
    assert default.status == 403
    seat = call(app, "GET", f"/api/replays/{rid}/frame?step={half}&view=player_0")
    assert seat.status == 200 and "final" not in seat.data


def test_a_finished_replay_keeps_its_omniscient_view() -> None:
    app = make_app()
    started = new_game(app, opponents=["random"], seed=9)
    play_to_end(app, started.data["id"], started.data["state"])
    doc = call(app, "GET", f"/api/games/{started.data['id']}/replay").data
    opened = call(app, "POST", "/api/replays", {"replay": doc})
    assert opened.data["summary"]["views"][0] == "omniscient"
    frame = call(app, "GET", f"/api/replays/{opened.data['id']}/frame?step=1&view=omniscient")
    assert frame.status == 200 and set(frame.data["seats"]) == {"player_0", "player_1"}


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"level": "easy", "cases": ["/etc/shadow"]}, "no option 'cases'"),
        ({"case_workers": 32}, "no option 'case_workers'"),
        ({"observation_mode": "seer"}, "observation_mode must be one of"),
        ({"seer": True}, "no option 'seer'"),
    ],
)
def test_an_uploaded_replay_may_set_only_the_catalogs_options(monkeypatch, options, words):
    import parlour.games as games

    built: list = []
    monkeypatch.setattr(games, "make_raw_env", lambda *a, **k: built.append(k))
    doc = {"format": "parlour-replay", "version": 1, "game": "guests", "players": 2,
           "options": options, "seed": 1, "actions": []}  # fmt: skip
    answer = call(make_app(), "POST", "/api/replays", {"replay": doc})
    assert answer.status == 400 and words in answer.error, answer.data
    assert built == []


def test_an_uploaded_replay_with_a_shipped_models_options_opens() -> None:
    """The options a shipped model was trained with (``parlour eval`` writes them) are fine."""
    from parlour.models import read_index

    model = next(m for m in read_index() if m.game == "guests" and m.game_options)
    doc = {"format": "parlour-replay", "version": 1, "game": "guests",
           "players": model.players, "options": dict(model.game_options), "seed": 1,
           "actions": []}  # fmt: skip
    answer = call(make_app(), "POST", "/api/replays", {"replay": doc})
    assert answer.status == 200, answer.data


def test_a_listed_replay_file_that_is_a_fifo_does_not_hang(tmp_path) -> None:
    import os
    import time

    fifo = tmp_path / "replay.json"
    os.mkfifo(fifo)
    app = make_app(replays=[str(tmp_path)])
    t0 = time.monotonic()
    listed = call(app, "GET", "/api/replays")
    assert listed.status == 200 and listed.data["replays"] == []  # (no replay document)
    answer = call(app, "POST", "/api/replays", {"name": str(fifo)})
    assert answer.status == 404 and "no replay file" in answer.error
    assert time.monotonic() - t0 < 5
    from parlour.apps.web.errors import WebError
    from parlour.apps.web.replay import load_replay

    with pytest.raises(WebError, match="not a regular file"):
        load_replay(fifo)
    assert time.monotonic() - t0 < 5


@pytest.mark.parametrize("seed", [-1, 2**64, 10**300])
def test_a_replays_seed_out_of_range_is_a_400(seed) -> None:
    doc = {"format": "parlour-replay", "version": 1, "game": "audition", "players": 2,
           "seed": seed, "actions": []}  # fmt: skip
    answer = call(make_app(), "POST", "/api/replays", {"replay": doc})
    assert answer.status == 400 and "replay: seed must be in 0.." in answer.error


@pytest.mark.parametrize("step", ["9" * 5000, "\u00b2", "1.5", "-1", ""])
def test_a_frames_odd_step_is_a_400(step) -> None:
    from urllib.parse import quote

    app = make_app()
    doc = {"format": "parlour-replay", "version": 1, "game": "audition", "players": 2,
           "seed": 1, "actions": []}  # fmt: skip
    rid = call(app, "POST", "/api/replays", {"replay": doc}).data["id"]
    answer = call(app, "GET", f"/api/replays/{rid}/frame?step={quote(step)}&view=player_0")
    assert answer.status == 400 and "step must be an integer" in answer.error


#: odd JSON values for every field of an uploaded replay
ODD_VALUES = [None, True, 0, 1.5, -1, 10**30, "", "x" * 1000, [], [None], {}, {"a": {"b": 1}}]


@pytest.mark.parametrize(
    "field", ["format", "version", "game", "players", "options", "seed", "agents", "actions",
              "results"],
)  # fmt: skip
def test_odd_values_of_every_replay_field_are_answered_never_a_500(field) -> None:
    app = make_app()
    for value in ODD_VALUES:
        doc = {"format": "parlour-replay", "version": 1, "game": "audition", "players": 2,
               "seed": 1, "actions": [], field: value}  # fmt: skip
        answer = call(app, "POST", "/api/replays", {"replay": doc})
        assert answer.status in (200, 400), (field, value, answer.data)
