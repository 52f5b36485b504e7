"""The ``parlour serve`` JSON API: no hidden information for a seat, bad requests refused with
a clear error and no change, games independent, abandoned games dropped, replays."""

from __future__ import annotations

import copy
import json
import threading
import time

import numpy as np
import pytest

from parlour.apps.web.errors import WebError
from parlour.apps.web.replay import load_replay
from parlour.apps.web.views import seat_state
from parlour.games import get_game
from tests.web.conftest import Live, start_server

GAMES = [
    ("audition", {"players": 3, "opponents": ["random", "audition.greedy"]}),
    ("guests", {"players": 3, "opponents": ["guests.deducer", "random"], "hints": True}),
]
#: states checked per game in the hidden-information test
CHECKS = 25


def new_game(live: Live, game: str, seed: int, **extra) -> tuple[str, dict]:
    status, data = live.call("POST", "/api/games", {"game": game, "seed": seed, **extra})
    assert status == 200, data
    return data["id"], data["state"]


#: keys only the end of a game (or an omniscient replay) may send
REVEAL_KEYS = {"final", "seats", "solution", "proof", "deck_top_first"}


def keys(x: object) -> set[str]:
    """Every key of every object inside the JSON value ``x``."""
    if isinstance(x, dict):
        return set(x).union(*(keys(v) for v in x.values()))
    if isinstance(x, list):
        return set().union(*(keys(v) for v in x))
    return set()


def unseen_card_texts(env, seat: int) -> list[str]:
    """Awkward Guests: the texts of the case's cards ``seat`` has never seen (nor the table)."""
    state = env.unwrapped.game
    seen = set(state.seen_log[seat]) | set(state.revealed)
    return [c.text for i, c in enumerate(state.tables.view_cards) if i not in seen]


@pytest.mark.parametrize(("game", "extra"), GAMES, ids=[g for g, _ in GAMES])
def test_no_hidden_information_in_any_response(live: Live, game: str, extra: dict) -> None:
    """Each state sent to a seat during play is exactly what the seat's own view gives when
    everything it may not see is dealt again (``Game.hidden_redeal``), holds no end-of-game
    reveal, and (Awkward Guests) never the text of a card the seat has not seen."""
    spec = get_game(game)
    redeal = spec.hidden_redeal
    rng = np.random.default_rng(0)
    key, state = new_game(live, game, seed=11, seat=1, **extra)
    session = live.app.state.games.sessions[key]
    checked = 0
    while not state["over"]:
        env = session.env
        sent = json.loads(json.dumps(state))
        assert not keys(sent) & REVEAL_KEYS
        text = json.dumps(sent)
        if game == "guests":
            for card_text in unseen_card_texts(env, 1):
                assert json.dumps(card_text)[1:-1] not in text
        other = copy.deepcopy(env)
        redeal(other.unwrapped, 1, rng)
        again = seat_state(session.spec, other, session.human, hints=session.settings.hints)
        again["version"] = sent["version"]
        assert isinstance(sent["undo"], bool)  # (the session's own: a half-built choice of yours)
        again["undo"] = sent["undo"]
        assert json.loads(json.dumps(again)) == sent
        checked += 1
        move = sent["moves"][int(rng.integers(len(sent["moves"])))]
        status, data = live.call(
            "POST", f"/api/games/{key}/move", {"action": move["action"], "version": sent["version"]}
        )
        assert status == 200, data
        for frame in data["frames"]:
            assert frame["state"]["over"] or not keys(frame) & REVEAL_KEYS
        state = data["state"]
    assert checked >= min(CHECKS, 3)
    assert "final" in state  # the end shows scores (and the solution)


@pytest.mark.parametrize("game", ["audition", "guests"])
def test_illegal_and_stale_moves_are_refused_and_change_nothing(live: Live, game: str) -> None:
    key, state = new_game(live, game, seed=3)
    legal = {m["action"] for m in state["moves"]}
    illegal = next(a for a in range(1000) if a not in legal)
    v = state["version"]
    for body, status_expected, words in (
        ({"action": illegal, "version": v}, 400, "illegal move"),
        ({"action": "7", "version": v}, 400, "illegal move"),
        ({"action": min(legal), "version": v + 5}, 409, "stale move"),
        ({"action": min(legal), "version": v - 1}, 409, "stale move"),
        ({"action": min(legal)}, 400, '"version"'),
    ):
        status, data = live.call("POST", f"/api/games/{key}/move", body)
        assert status == status_expected, data
        assert words in data["error"]
        assert live.call("GET", f"/api/games/{key}")[1]["state"] == state
    status, data = live.call("POST", f"/api/games/{key}/move", raw=b"{not json")
    assert status == 400 and "not JSON" in data["error"]
    # the same move twice: the second one is stale
    body = {"action": state["moves"][0]["action"], "version": v}
    assert live.call("POST", f"/api/games/{key}/move", body)[0] == 200
    status, data = live.call("POST", f"/api/games/{key}/move", body)
    assert status == 409 and "stale move" in data["error"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"game": "audition", "players": 9}, "players for audition must be in 2..6"),
        ({"game": "audition", "seat": 4}, "seat must be in 0..1"),
        # (issue 31: an agent outside the catalog gets one message, whatever it names)
        ({"game": "audition", "opponents": ["audition.wizard"]}, "must be one of the agents"),
        ({"game": "guests", "opponents": ["audition.greedy"]}, "must be one of the agents"),
        ({"game": "guests", "options": {"level": "impossible"}}, "level must be one of"),
        ({"game": "audition", "options": {"colour": 1}}, "options"),
        ({"game": "audition", "turbo": True}, "unknown fields ['turbo']"),
        ({"game": "audition", "players": "two"}, "players must be an integer"),
    ],
)
def test_bad_new_game_requests(live: Live, body: dict, words: str) -> None:
    before = len(live.app.state.games.sessions)
    status, data = live.call("POST", "/api/games", body)
    assert status == 400, data
    assert words in data["error"]
    assert len(live.app.state.games.sessions) == before


def test_each_game_draws_from_its_own_plugin(live: Live) -> None:
    """The page loads a game's drawing from its plug-in (``Game.web.script()``) as
    ``/games/<name>.js``, for offered games only; the catalog says which games have one."""
    import urllib.error
    import urllib.request

    status, data = live.call("GET", "/api/catalog")
    scripts = {g["name"]: g["script"] for g in data["games"]}
    assert scripts["audition"] and scripts["guests"] and not scripts.get("countdown", False)
    for name in ("audition", "guests"):
        with urllib.request.urlopen(f"{live.url}/games/{name}.js", timeout=60) as res:
            text = res.read().decode()
            assert res.headers["Content-Type"].startswith("text/javascript")
        assert f"PARLOUR_GAMES.{name}" in text or f'PARLOUR_GAMES["{name}"]' in text
        assert text == get_game(name).web.script()
    for bad in ("nope", "countdown", "..%2Fapp", "audition.js%00", "..%2F..%2Fstatic%2Fapp"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{live.url}/games/{bad}.js", timeout=60)
        assert refused.value.code == 404


def test_unknown_game_id(live: Live) -> None:
    status, data = live.call("GET", "/api/games/nope")
    assert status == 404 and "no game 'nope'" in data["error"]
    status, data = live.call("POST", "/api/games/nope/move", {"action": 0, "version": 0})
    assert status == 404
    key, _ = new_game(live, "audition", seed=2)
    assert live.call("DELETE", f"/api/games/{key}") == (200, {"closed": True})
    status, data = live.call("GET", f"/api/games/{key}")
    assert status == 404 and "it was closed" in data["error"]


def test_concurrent_games_are_independent(live: Live) -> None:
    """Two games of the same deal: moves in one never touch the other; many tabs at once."""
    a, state_a = new_game(live, "audition", seed=5)
    b, state_b = new_game(live, "audition", seed=5)
    assert state_a == state_b
    body = {"action": state_a["moves"][-1]["action"], "version": state_a["version"]}
    assert live.call("POST", f"/api/games/{a}/move", body)[0] == 200
    assert live.call("GET", f"/api/games/{b}")[1]["state"] == state_b

    errors: list[str] = []

    def tab(seed: int) -> None:
        try:
            key, state = new_game(live, "guests" if seed % 2 else "audition", seed=seed)
            for _ in range(5):
                if state["over"]:
                    break
                move = {"action": state["moves"][0]["action"], "version": state["version"]}
                status, data = live.call("POST", f"/api/games/{key}/move", move)
                assert status == 200, data
                state = data["state"]
        except Exception as exc:  # (reported below)
            errors.append(repr(exc))

    threads = [threading.Thread(target=tab, args=(s,)) for s in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_abandoned_games_are_dropped() -> None:
    from parlour.apps.web.app import create_app

    timeout = 0.5
    app = create_app(timeout=timeout)
    url, server, thread = start_server(app)
    try:
        live = Live(url, app, None)
        key, _ = new_game(live, "audition", seed=1)
        assert live.call("GET", f"/api/games/{key}")[0] == 200
        time.sleep(timeout * 2)
        status, data = live.call("GET", f"/api/games/{key}")
        assert status == 404 and "timed out" in data["error"]
        assert key not in app.state.games.sessions
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def test_replays_open_step_and_refuse_bad_documents(live: Live) -> None:
    key, state = new_game(live, "audition", seed=8)
    while not state["over"]:
        move = {"action": state["moves"][0]["action"], "version": state["version"]}
        state = live.call("POST", f"/api/games/{key}/move", move)[1]["state"]
    status, data = live.call("POST", f"/api/games/{key}/move", {"action": 0, "version": 999})
    assert status == 409 and "stale move" in data["error"]
    version = state["version"]
    status, data = live.call("POST", f"/api/games/{key}/move", {"action": 0, "version": version})
    assert status == 409 and "the game is over" in data["error"]
    doc = live.call("GET", f"/api/games/{key}/replay")[1]
    (live.replays / "mine.json").write_text(json.dumps(doc))
    (live.replays / "broken.json").write_text("{")
    listed = live.call("GET", "/api/replays")[1]["replays"]
    assert str(live.replays / "mine.json") in listed
    assert str(live.replays / "broken.json") not in listed  # (not a replay: left out)
    with pytest.raises(WebError, match="does not parse"):
        load_replay(live.replays / "broken.json")
    status, data = live.call("POST", "/api/replays", {"name": str(live.replays / "mine.json")})
    assert status == 200, data
    rid, steps = data["id"], data["summary"]["steps"]
    assert steps == len(doc["actions"]) > 0
    last = live.call("GET", f"/api/replays/{rid}/frame?step={steps}&view=player_0")[1]
    assert last["over"] and last["final"] == state["final"] and last["moves"] == []
    assert last["view"] == state["view"]
    omni = live.call("GET", f"/api/replays/{rid}/frame?step=3&view=omniscient")[1]
    assert set(omni["seats"]) == {"player_0", "player_1"} and "deck_top_first" in omni["final"]
    for query, words in (
        (f"step={steps + 1}&view=player_0", "step must be in 0.."),
        ("step=x&view=player_0", "step must be an integer"),
        ("step=1&view=player_7", "view must be 'omniscient' or one of"),
    ):
        status, data = live.call("GET", f"/api/replays/{rid}/frame?{query}")
        assert status == 400 and words in data["error"]
    bad_action = dict(doc, actions=[*doc["actions"][:3], 999])
    for body, words in (
        ({"name": str(live.replays / "broken.json")}, "no replay file"),
        ({"name": "elsewhere.json"}, "no replay file"),
        ({"replay": bad_action}, "does not replay: action 3 (999) is illegal"),
        ({"replay": dict(doc, actions=[*doc["actions"], 0])}, "the game ended before action"),
        ({"replay": dict(doc, seed=doc["seed"] + 1)}, "does not replay"),
        ({"replay": dict(doc, format="other")}, "format must be 'parlour-replay'"),
        ({"replay": dict(doc, game="chess")}, "unknown game 'chess'"),
        ({"replay": {"game": "audition"}}, "missing fields"),
        ({"replay": dict(doc, game=7)}, "game must be a game name"),
    ):
        status, data = live.call("POST", "/api/replays", body)
        assert status in (400, 404) and words in data["error"], (words, data)
    # the open replay is untouched by the bad ones
    again = live.call("GET", f"/api/replays/{rid}/frame?step={steps}&view=player_0")[1]
    assert again == last


def test_eval_save_replays_writes_replays_that_replay(tmp_path) -> None:
    from parlour.apps.cli import main
    from parlour.apps.web.replay import load_replay

    out = tmp_path / "eval"
    code = main(
        [
            "eval", "--game", "audition", "--agents", "random", "audition.greedy", "--games", "4",
            "--workers", "1", "--no-progress", "--out", str(out), "--save-replays", "3", "--seed", "4",
        ]
    )  # fmt: skip
    assert code == 0
    files = sorted((out / "replays").glob("*.json"))
    assert len(files) == 3
    report = json.loads((out / "eval.json").read_text())
    for f in files:
        doc = json.loads(f.read_text())
        replay = load_replay(f)  # replays to the recorded results
        assert doc["seed"] in (4, 5) and doc["results"]["winners"]
        assert sorted(doc["agents"]) == ["audition.greedy", "random"]
        assert replay.frame(replay.steps, "omniscient")["over"]
    assert report["games"] == 4


def test_replay_schema_document_matches_the_code(tmp_path) -> None:
    """docs/web/replay.schema.json names exactly the fields the code reads and writes."""
    from pathlib import Path

    from parlour.eval import replay as R

    schema = json.loads(
        (Path(__file__).parents[2] / "docs" / "web" / "replay.schema.json").read_text()
    )
    assert tuple(schema["properties"]) == R.FIELDS
    assert tuple(schema["required"]) == R.REQUIRED
    assert schema["properties"]["format"]["const"] == R.FORMAT
    assert schema["properties"]["version"]["const"] == R.VERSION
    doc = R.make_replay("audition", 2, {}, 1, ["random", "random"], [6], {"x": 1})
    assert set(doc) <= set(schema["properties"]) and set(schema["required"]) <= set(doc)


def test_every_game_with_a_ui_plays_on_the_page_with_the_default_hooks() -> None:
    """Every registered game with a terminal UI (the toy game ``countdown`` has no web part: it
    gets the default page hooks) plays a whole game through sessions: each state is JSON, its
    moves are the mask's."""
    import importlib

    from parlour.apps.web.sessions import GameSession, parse_settings
    from parlour.games import all_games

    importlib.import_module("tests.games")  # registers the toy game
    specs = [s for s in all_games() if s.terminal is not None]
    assert "countdown" in {s.name for s in specs} and get_game("countdown").web is None
    rng = np.random.default_rng(0)
    for spec in specs:
        settings = parse_settings({"game": spec.name, "opponents": ["random"], "seed": 2})
        session = GameSession(settings)
        state = session.state()
        while not state["over"]:
            json.dumps(state)
            mask = session.env.observe(session.human)["action_mask"]
            assert sorted(m["action"] for m in state["moves"]) == list(np.flatnonzero(mask))
            move = state["moves"][int(rng.integers(len(state["moves"])))]
            state = session.move(move["action"], state["version"])["state"]
        assert "final" in json.loads(json.dumps(state))


def test_eval_save_replays_replays_the_games_played_with_a_shipped_models_options(tmp_path):
    """A shipped model brings the options it was trained with (its observation mode): the
    replays are of those games, and of no more games than were played."""
    from parlour.apps.cli import main

    out = tmp_path / "eval"
    code = main(
        [
            "eval", "--game", "guests", "--players", "2", "--agents", "ppo:guests-2p-easy",
            "random", "--games", "2", "--workers", "1", "--no-progress", "--out", str(out),
            "--save-replays", "6", "--seed", "1",
        ]
    )  # fmt: skip
    assert code == 0
    report = json.loads((out / "eval.json").read_text())
    files = sorted((out / "replays").glob("*.json"))
    assert len(files) == report["games"] == 2
    for f in files:
        assert json.loads(f.read_text())["options"] == report["game_options"]
