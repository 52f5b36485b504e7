"""Issue 31, ``parlour serve``: games are bounded per client and in all, new games by rate,
and an attacker cannot keep the server full: its games expire by the idle timeout, and by the
absolute lifetime however often it touches them (a clock the test moves, no waiting)."""

from __future__ import annotations

import pytest

from parlour.apps.web.sessions import (
    DEFAULT_TIMEOUT_S,
    MAX_GAMES_PER_CLIENT,
    MAX_GAMES_TOTAL,
    MAX_LIFETIME_S,
    MAX_NEW_PER_MINUTE,
    RATE_WINDOW_S,
    Limits,
)
from tests.security._server_asgi import Clock, call, make_app, new_game, play_to_end

ATTACKER, VISITOR = "192.0.2.66", "192.0.2.7"
#: the probe: games asked for in one burst
BURST = 500


def test_the_defaults_are_the_documented_bounds() -> None:
    lim = Limits()
    assert (lim.timeout, lim.lifetime) == (DEFAULT_TIMEOUT_S, MAX_LIFETIME_S) == (1800, 14400)
    assert (
        (lim.total, lim.per_client, lim.per_minute)
        == (128, 32, MAX_NEW_PER_MINUTE)
        == (128, 32, 60)
    )
    assert MAX_GAMES_PER_CLIENT < MAX_GAMES_TOTAL  # one client never fills the server alone


def test_a_burst_of_500_games_is_refused_past_the_clients_bound() -> None:
    """500 games asked for at once: the attacker gets its ``per_client`` games, then 503s with
    a clear message; another client still plays at once."""
    clock = Clock()
    app = make_app(clock=clock)
    statuses = [new_game(app, client=ATTACKER, opponents=["random"]).status for _ in range(BURST)]
    assert statuses.count(200) == MAX_GAMES_PER_CLIENT
    assert set(statuses[MAX_GAMES_PER_CLIENT:]) == {503}
    refused = new_game(app, client=ATTACKER)
    assert refused.status == 503
    assert f"(at most {MAX_GAMES_PER_CLIENT} per client)" in refused.error
    assert "close a tab, or wait until a game is closed or dropped" in refused.error
    mine = new_game(app, client=VISITOR, seed=4)
    assert mine.status == 200
    play_to_end(app, mine.data["id"], mine.data["state"])


def test_the_total_bound_holds_across_clients_and_frees_at_the_idle_timeout() -> None:
    """Many addresses fill the server (503 for everyone), nobody touches their games: after
    the idle timeout (the test clock) a new page plays again — not after 30 real minutes."""
    clock = Clock()
    app = make_app(clock=clock, limits=Limits(total=6, per_client=2))
    for k in range(3):
        for _ in range(2):
            assert new_game(app, client=f"192.0.2.{k}").status == 200
    full = new_game(app, client=VISITOR)
    assert full.status == 503 and "the server is full: 6 games are open (at most 6)" in full.error
    clock.advance(DEFAULT_TIMEOUT_S - 1)
    assert new_game(app, client=VISITOR).status == 503  # not yet
    clock.advance(2)
    mine = new_game(app, client=VISITOR, seed=2)
    assert mine.status == 200, mine.data
    assert len(app.state.games.sessions) == 1


def test_an_attacker_touching_its_games_cannot_keep_them_past_the_lifetime() -> None:
    clock = Clock()
    app = make_app(clock=clock, limits=Limits(total=4, per_client=4))
    keys = [new_game(app, client=ATTACKER).data["id"] for _ in range(4)]
    assert new_game(app, client=VISITOR).status == 503
    step = DEFAULT_TIMEOUT_S / 2
    for _ in range(int(MAX_LIFETIME_S // step)):  # polled well within the idle timeout
        clock.advance(step)
        for key in keys:
            assert call(app, "GET", f"/api/games/{key}").status == 200
    clock.advance(step)  # now older than the lifetime
    assert call(app, "GET", f"/api/games/{keys[0]}").status == 404
    assert new_game(app, client=VISITOR).status == 200
    assert set(app.state.games.sessions).isdisjoint(keys)


def test_new_games_are_bounded_by_rate() -> None:
    clock = Clock()
    app = make_app(clock=clock, limits=Limits(per_minute=5))
    made = []
    for _ in range(5):
        answer = new_game(app, client=ATTACKER)
        assert answer.status == 200
        made.append(answer.data["id"])
        call(app, "DELETE", f"/api/games/{made[-1]}")  # closing them does not reset the rate
    fast = new_game(app, client=ATTACKER)
    assert fast.status == 429 and "at most 5 in 60 s; wait a moment" in fast.error
    assert new_game(app, client=VISITOR).status == 200  # another client is not slowed
    clock.advance(RATE_WINDOW_S)
    assert new_game(app, client=ATTACKER).status == 200


def test_refused_requests_do_not_count_against_the_rate() -> None:
    app = make_app(clock=Clock(), limits=Limits(per_minute=2))
    for _ in range(10):
        assert new_game(app, client=ATTACKER, opponents=["ppo:/etc"]).status == 400
    assert new_game(app, client=ATTACKER).status == 200


def test_opened_replays_are_bounded_too() -> None:
    clock = Clock()
    app = make_app(clock=clock, limits=Limits(per_client=2, total=8))
    game = new_game(app, seed=5)
    play_to_end(app, game.data["id"], game.data["state"])
    doc = call(app, "GET", f"/api/games/{game.data['id']}/replay").data
    for _ in range(2):
        assert call(app, "POST", "/api/replays", {"replay": doc}, client=ATTACKER).status == 200
    more = call(app, "POST", "/api/replays", {"replay": doc}, client=ATTACKER)
    assert more.status == 503 and "replays open from your address" in more.error
    assert call(app, "POST", "/api/replays", {"replay": doc}, client=VISITOR).status == 200
    clock.advance(MAX_LIFETIME_S + 1)
    assert call(app, "POST", "/api/replays", {"replay": doc}, client=ATTACKER).status == 200


# (the page showing a full server's message: tests/web/test_browser_table.py, in Chromium)


@pytest.mark.parametrize("bad", [0, -1, float("nan")])
def test_limits_refuse_nonsense(bad) -> None:
    with pytest.raises(ValueError, match="must be a number > 0"):
        Limits(total=bad)
    with pytest.raises(ValueError, match="timeout must be"):
        Limits(timeout=bad)


def test_serve_refuses_a_nan_timeout(capsys) -> None:
    """A NaN idle timeout would keep every game forever (no comparison with NaN is true)."""
    from parlour.apps.cli import main

    assert main(["serve", "--timeout", "nan"]) == 2
    assert "--timeout must be > 0" in capsys.readouterr().out


def test_ipv6_clients_are_counted_by_their_64_network() -> None:
    """One host may hold a whole /64: its addresses share one client's bound."""
    app = make_app(clock=Clock(), limits=Limits(per_client=2))
    for k in (1, 2):
        assert new_game(app, client=f"2001:db8:1:2::{k}", opponents=["random"]).status == 200
    refused = new_game(app, client="2001:db8:1:2::ffff", opponents=["random"])
    assert refused.status == 503 and "from your address" in refused.error
    assert new_game(app, client="2001:db8:1:3::1", opponents=["random"]).status == 200


def test_the_rate_of_quiet_clients_is_forgotten() -> None:
    clock = Clock()
    app = make_app(clock=clock)
    for k in range(20):
        new_game(app, client=f"192.0.2.{k}", opponents=["random"])
    assert len(app.state.games.started) == 20
    clock.advance(RATE_WINDOW_S)
    new_game(app, client=VISITOR, opponents=["random"])
    assert list(app.state.games.started) == [VISITOR]


def test_requests_refused_after_the_catalog_check_do_not_count_against_the_rate() -> None:
    """A request that passes the catalog but is refused when its game is built (a seat past the
    table) does not use up the client's rate: the refusal is a 400 each time, never a 429, and a
    good game still starts (found by review: it counted before the game was built)."""
    app = make_app(clock=Clock(), limits=Limits(per_minute=2))
    for _ in range(3):
        assert new_game(app, client=ATTACKER, seat=5).status == 400
    assert new_game(app, client=ATTACKER).status == 200
    assert new_game(app, client=ATTACKER).status == 200
    assert new_game(app, client=ATTACKER).status == 429  # (two kept games: the rate is used)
