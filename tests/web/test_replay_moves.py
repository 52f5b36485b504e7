"""Issue 36, the server side of replays: a replay's move list as each view saw it (a seat's the
same as a live game's frames, nothing private of another seat), and only replay documents listed.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from parlour.apps.web.app import find_replays
from parlour.apps.web.replay import Replay
from parlour.apps.web.sessions import GameSession, parse_settings
from tests.web.conftest import Live

#: (game, new-game request) of the live games replayed: the person at seat 1 of 3
LIVE_GAMES = [
    ("audition", {"players": 3, "opponents": ["random", "audition.greedy"]}),
    ("guests", {"players": 3, "opponents": ["guests.deducer", "random"]}),
]
SEAT = 1


def play_live(game: str, body: dict, seed: int) -> tuple[GameSession, list, list]:
    """A whole live game at seat :data:`SEAT` (random moves): the session, the person's own
    moves ``(step, name)`` and the frames' ``(agent, text)`` of the other seats' moves."""
    session = GameSession(parse_settings({"game": game, "seat": SEAT, "seed": seed, **body}))
    rng = np.random.default_rng(seed)
    frames = lines(session.opening)
    own = []
    state = session.state()
    while not state["over"]:
        move = state["moves"][int(rng.integers(len(state["moves"])))]
        own.append((len(session.actions) + 1, move["name"]))
        answer = session.move(move["action"], state["version"])
        frames += lines(answer["frames"])
        state = answer["state"]
    return session, own, frames


def lines(frames: list[dict]) -> list[tuple[str, str]]:
    """``(agent, text)`` of the frames, a line each: a text's later lines are the public events
    the move set off (agent ``""``), as the log shows them."""
    out = []
    for f in frames:
        first, *events = f["text"].split("\n")
        out += [(f["agent"], first)] + [("", e) for e in events]
    return out


def said(name: str, text: str) -> bool:
    """Whether the move name ``name`` appears in ``text`` as a whole phrase."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


@pytest.mark.parametrize(("game", "body"), LIVE_GAMES, ids=[g for g, _ in LIVE_GAMES])
def test_a_seats_moves_are_what_the_live_seat_saw_and_nothing_private(game, body) -> None:
    session, own, frames = play_live(game, body, seed=5)
    human = session.human
    replay = Replay(session.replay())
    seat = replay.moves(human)
    assert [(m["step"], m["text"]) for m in seat if m["agent"] == human] == own
    assert [(m["agent"], m["text"]) for m in seat if m["agent"] != human] == frames
    steps = [m["step"] for m in seat]
    assert steps == sorted(steps) and steps[0] >= 1 and steps[-1] <= replay.steps
    omniscient = replay.moves("omniscient")
    assert [m["step"] for m in omniscient if m["agent"]] == list(range(1, replay.steps + 1))
    events = [(m["step"], m["text"]) for m in omniscient if not m["agent"]]
    assert [(m["step"], m["text"]) for m in seat if not m["agent"]] == events  # (public)
    names = {m["step"]: (m["agent"], m["text"]) for m in omniscient if m["agent"]}
    private = 0
    for m in (m for m in seat if m["agent"]):
        mover, name = names[m["step"]]
        assert m["agent"] == mover
        if mover == human:
            assert m["text"] == name
        elif m["text"] != name:
            private += 1
            assert not said(name, m["text"]), (name, m["text"])
    assert private > 0  # (the other seats' moves were told as onlookers see them)
    assert replay.moves(human) is seat  # computed once per view


def test_the_moves_route_answers_each_view_and_refuses_bad_ones(live: Live) -> None:
    session, _, _ = play_live(*LIVE_GAMES[0], seed=3)
    doc = session.replay()
    status, data = live.call("POST", "/api/replays", {"replay": doc})
    assert status == 200, data
    rid = data["id"]
    replay = Replay(doc)
    for view in ("omniscient", "player_0", "player_2"):
        status, data = live.call("GET", f"/api/replays/{rid}/moves?view={view}")
        assert status == 200 and data == {"moves": replay.moves(view)}, data
    status, data = live.call("GET", f"/api/replays/{rid}/moves?view=player_9")
    assert status == 400
    assert (
        "view must be 'omniscient' or one of ['player_0', 'player_1', 'player_2']"
        in (data["error"])
    )
    status, data = live.call("GET", "/api/replays/nope/moves?view=player_0")
    assert status == 404
    unfinished = dict(doc, actions=doc["actions"][:4])
    unfinished.pop("results", None)
    rid = live.call("POST", "/api/replays", {"replay": unfinished})[1]["id"]
    status, data = live.call("GET", f"/api/replays/{rid}/moves?view=omniscient")
    assert status == 403 and "only for a replay of a finished game" in data["error"]
    status, data = live.call("GET", f"/api/replays/{rid}/moves?view=player_1")
    assert status == 200 and [m["step"] for m in data["moves"]][-1] <= 4


def test_only_replay_documents_are_listed(live: Live, tmp_path) -> None:
    """``parlour eval`` leaves ``eval.json`` beside its replays: it is not listed, nor is any
    JSON file that is not a replay document; opening it by name is refused as unlisted."""
    session, _, _ = play_live(*LIVE_GAMES[0], seed=4)
    folder = live.replays / "eval_run"
    (folder / "replays").mkdir(parents=True)
    replay = folder / "replays" / "replay_0000.json"
    replay.write_text(json.dumps(session.replay()))
    report = folder / "eval.json"
    report.write_text(json.dumps({"games": 4, "agents": ["random", "random"], "seed": 1}))
    (folder / "other.json").write_text(json.dumps([1, 2, 3]))
    assert set(find_replays([str(folder)])) == {str(replay)}
    assert find_replays([str(report)]) == {}
    listed = live.call("GET", "/api/replays")[1]["replays"]
    assert str(replay) in listed and str(report) not in listed
    status, data = live.call("POST", "/api/replays", {"name": str(report)})
    assert status == 404 and "no replay file" in data["error"]
    assert live.call("POST", "/api/replays", {"name": str(replay)})[0] == 200


def test_a_replay_frame_prompts_nobody() -> None:
    """A replay is watched: no seat's frame has moves or a prompt, even the seat that decides."""
    session, _, _ = play_live(*LIVE_GAMES[1], seed=6)
    replay = Replay(session.replay())
    for step in range(0, replay.steps, max(1, replay.steps // 10)):
        env = replay.env_at(step)
        if env.agents:
            frame = replay.frame(step, env.agent_selection)
            assert frame["moves"] == [] and frame["prompt"] is None


def test_the_events_of_the_persons_own_moves_are_in_the_replay_too() -> None:
    """Awkward Guests, 2 players: the person's own move settles accusations (who was wrong and
    is out, who won); the live log announces it, and so does the replay's list for that seat."""
    session, own, frames = play_live("guests", {"players": 2, "opponents": ["random"]}, seed=0)
    live_events = [text for agent, text in frames if agent == ""]
    assert live_events  # (this deal has them)
    replay = Replay(session.replay())
    seat = replay.moves(session.human)
    assert [m["text"] for m in seat if not m["agent"]] == live_events
    own_steps = {step for step, _ in own}
    assert any(m["step"] in own_steps for m in seat if not m["agent"])  # after the person's move
