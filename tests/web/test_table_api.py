"""The ``parlour serve`` API for people: the game's log (a reloaded page resumes the game with
it), plain prompts, the rules panel, taking back a half-built choice, and the models loaded
before the first game."""

from __future__ import annotations

import re

import numpy as np
import pytest

from tests.web.conftest import Live
from tests.web.test_api import new_game

GAMES = [
    ("audition", {"players": 3, "opponents": ["random", "audition.greedy"]}),
    ("guests", {"players": 3, "opponents": ["guests.deducer", "random"]}),
]
#: moves played per game in the tests that walk through a game
MOVES = 60


def play(live: Live, key: str, state: dict, rng: np.random.Generator) -> tuple[dict, dict]:
    move = state["moves"][int(rng.integers(len(state["moves"])))]
    status, data = live.call(
        "POST", f"/api/games/{key}/move", {"action": move["action"], "version": state["version"]}
    )
    assert status == 200, data
    return move, data


@pytest.mark.parametrize(("game", "extra"), GAMES, ids=[g for g, _ in GAMES])
def test_the_log_is_what_the_person_saw_and_a_reload_gets_it(
    live: Live, game: str, extra: dict
) -> None:
    status, data = live.call("POST", "/api/games", {"game": game, "seed": 4, "seat": 1, **extra})
    key, state = data["id"], data["state"]
    assert "seed" not in live.call("GET", f"/api/games/{key}")[1]["setup"]  # (it would tell all)
    seen = [(f["agent"], f["text"], False) for f in data["frames"]]
    rng = np.random.default_rng(1)
    for _ in range(MOVES):
        if state["over"]:
            break
        move, data = play(live, key, state, rng)
        seen.append((state["agent"], move["name"], True))
        seen += [(f["agent"], f["text"], False) for f in data["frames"]]
        # the version counts the person's moves only: never how many steps the others took
        assert {f["state"]["version"] for f in data["frames"]} <= {state["version"] + 1}
        assert data["state"]["version"] == state["version"] + 1
        state = data["state"]
    status, got = live.call("GET", f"/api/games/{key}")
    assert status == 200
    assert got["state"] == state
    assert [(e["agent"], e["text"], e["mine"]) for e in got["log"]] == seen
    assert all(set(e) == {"agent", "text", "mine"} for e in got["log"])
    setup = got["setup"]
    assert (setup["game"], setup["seat"], setup["players"]) == (game, 1, extra["players"])
    assert setup["opponents"] == extra["opponents"]
    assert ("seed" in setup) == state["over"]  # (the seed only once the game is over)


@pytest.mark.parametrize(("game", "extra"), GAMES, ids=[g for g, _ in GAMES])
def test_a_prompt_whenever_the_person_decides(live: Live, game: str, extra: dict) -> None:
    key, state = new_game(live, game, seed=8, **extra)
    rng = np.random.default_rng(2)
    prompts = set()
    for _ in range(MOVES):
        if state["over"]:
            break
        assert isinstance(state["prompt"], str) and state["prompt"].strip()
        assert "_" not in re.sub(r"player_\d+", "", state["prompt"])  # (no engine ids)
        prompts.add(state["prompt"])
        state = play(live, key, state, rng)[1]["state"]
    assert len(prompts) > 1  # (not one sentence for everything)
    if state["over"]:
        assert state["prompt"] is None


def test_the_catalog_has_each_games_rules(live: Live) -> None:
    games = live.call("GET", "/api/catalog")[1]["games"]
    for g in games:
        if g["name"] in ("audition", "guests"):
            assert g["rules"], g["name"]
            for section in g["rules"]:
                assert set(section) == {"heading", "text"}
                assert section["heading"].strip() and section["text"].strip()


def test_undo_takes_back_a_half_built_choice_and_only_that(live: Live) -> None:
    """Walk random Awkward Guests games: whenever a half-built choice can be taken back, take it
    back and get the game as it was before the choice's first step (state and log); after an
    agent's move there is never anything to undo."""
    undone = 0
    for seed in range(3):
        key, state = new_game(live, "guests", seed=seed, players=2, opponents=["guests.deducer"])
        rng = np.random.default_rng(seed)
        start, start_log = state, live.call("GET", f"/api/games/{key}")[1]["log"]
        for _ in range(MOVES * 2):
            if state["over"]:
                break
            if not state["undo"]:
                start, start_log = state, live.call("GET", f"/api/games/{key}")[1]["log"]
            elif rng.random() < 0.5:
                status, data = live.call(
                    "POST", f"/api/games/{key}/undo", {"version": state["version"]}
                )
                assert status == 200, data
                assert data["frames"] == [] and data["undone"]
                assert data["state"]["version"] == state["version"] + 1  # (a new version)
                assert {**data["state"], "version": start["version"]} == start
                assert data["log"] == start_log
                assert live.call("GET", f"/api/games/{key}")[1]["log"] == start_log
                state = data["state"]
                undone += 1
                continue
            _, data = play(live, key, state, rng)
            if data["frames"]:
                assert not data["state"]["undo"]
            state = data["state"]
    assert undone >= 3


def test_undo_refusals_change_nothing(live: Live) -> None:
    key, state = new_game(live, "guests", seed=1, players=1)
    assert not state["undo"]
    status, data = live.call("POST", f"/api/games/{key}/undo", {"version": state["version"]})
    assert status == 409 and "nothing to undo" in data["error"]
    refs = [m for m in state["moves"] if (m["target"] or "").startswith("ref:")]
    _, data = play(live, key, {**state, "moves": refs[:1]}, np.random.default_rng(0))
    after = data["state"]
    assert after["undo"]
    for body, code, words in (
        ({"version": after["version"] - 1}, 409, "stale"),
        ({"version": "1"}, 400, "version must be an integer"),
        ({}, 400, '{"version": <int>}'),
        ({"version": after["version"], "x": 1}, 400, '{"version": <int>}'),
    ):
        status, data = live.call("POST", f"/api/games/{key}/undo", body)
        assert status == code and words in data["error"], (body, data)
    assert live.call("GET", f"/api/games/{key}")[1]["state"] == after
    status, data = live.call("POST", "/api/games/nosuch/undo", {"version": 0})
    assert status == 404


def test_warm_up_loads_the_default_models_before_the_first_game() -> None:
    import os

    from parlour.agents import ppo
    from parlour.apps.serve import warm_up
    from parlour.games import all_games
    from parlour.models import read_index

    first = {g.name: g.terminal.default_players for g in all_games() if g.terminal is not None}
    defaults = [m.name for m in read_index() if m.default and first.get(m.game) == m.players]
    assert "audition-2p" in defaults  # (Guests opens at 3 players: no shipped model there)
    ppo._CACHE.clear()
    assert warm_up() == defaults
    cached = {key[0] for key in ppo._CACHE}
    assert cached == {os.path.abspath(m.path) for m in read_index() if m.name in defaults}


def test_the_events_of_the_persons_own_move_are_announced(live: Live) -> None:
    """An accusation round the person's own move settles is announced like any other (who was
    wrong and is out, who won): frames of no agent, in the log too."""
    announced = 0
    for seed in range(8):
        key, state = new_game(live, "guests", seed=seed, players=2, opponents=["random"])
        rng = np.random.default_rng(seed)
        events = []
        while not state["over"]:
            _, data = play(live, key, state, rng)
            events += [f["text"] for f in data["frames"] if f["agent"] == ""]
            state = data["state"]
        log = live.call("GET", f"/api/games/{key}")[1]["log"]
        assert [e["text"] for e in log if e["agent"] == ""] == events
        assert all("accused wrongly" in t or "win" in t or "nobody" in t.lower() for t in events)
        announced += len(events)
        if announced:
            break
    assert announced, "no accusation settled by the person's move in 8 games"
