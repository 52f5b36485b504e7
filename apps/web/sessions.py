"""Games in progress on the ``parlour serve`` page: one :class:`GameSession` per browser tab.

A session holds one raw env, the person's seat and the agents of the other seats. The person
moves with :meth:`GameSession.move` (checked against the env's legal-action mask and the
session's version, the count of the person's own moves and undos, so a stale move from an old
page is refused); the agents then play until
the person decides again or the game ends, and each of their steps is returned as a frame of the
person's own view (:func:`parlour.apps.web.views.seat_state`). Every game records its seed,
configuration and actions, so a finished game is also a replay (:mod:`parlour.apps.web.replay`).
It also keeps the game's log (:meth:`GameSession.log_entries`: the person's moves by name, the
agents' as the person saw them), so a reloaded page resumes the game with its log, and takes
back a half-built multi-step choice (:meth:`GameSession.undo`: the terminal UI's ``group``,
e.g. an accusation begun; only while no agent has moved since it began).

:class:`SessionStore` keeps the sessions, each behind its own lock (many tabs play at once), and
drops a session not touched for ``timeout`` seconds, or older than ``lifetime`` however often it
is touched (so nobody keeps the server full by polling their own games). It also bounds the
games open at once, per client (its IP address) and in all, and how fast a client may start
new ones (:class:`Limits`); a new game beyond them is refused with 503 (429: too fast) and a
message saying which bound and when room comes back.

| bound | default |
|---|---|
| ``timeout``: a game untouched this long is dropped | :data:`DEFAULT_TIMEOUT_S` (1800 s) |
| ``lifetime``: a game this old is dropped, touched or not | :data:`MAX_LIFETIME_S` (4 h) |
| ``total``: games open at once | :data:`MAX_GAMES_TOTAL` (128) |
| ``per_client``: games open at once per client address | :data:`MAX_GAMES_PER_CLIENT` (32) |
| ``per_minute``: new games per client address in any 60 s | :data:`MAX_NEW_PER_MINUTE` (60) |

Opened replays are kept by a store of their own with the same bounds.
"""

from __future__ import annotations

import copy
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour import (
    games,  # (module attributes: tests spy on games.make_raw_env, factory.make_agent)
)
from parlour.agents import factory
from parlour.apps.play import default_opponent
from parlour.apps.web.catalog import Catalog
from parlour.apps.web.errors import WebError
from parlour.apps.web.views import seat_state, to_move, web_part
from parlour.eval.replay import make_replay
from parlour.models import seat_options

#: seconds after which an untouched game is dropped
DEFAULT_TIMEOUT_S = 30 * 60
#: seconds after which any game is dropped, however often it is touched (a game lasts minutes)
MAX_LIFETIME_S = 4 * 60 * 60
#: games kept at once in all (each holds an env and its agents, models included)
MAX_GAMES_TOTAL = 128
#: games kept at once for one client address (a loopback server sees one address for all)
MAX_GAMES_PER_CLIENT = 32
#: new games one client address may start in any minute (each builds its agents)
MAX_NEW_PER_MINUTE = 60
#: the window of MAX_NEW_PER_MINUTE, seconds
RATE_WINDOW_S = 60.0
#: seeds are below this (integers JavaScript holds exactly: a replay survives the page)
MAX_SEED = 2**53
#: hex digits of a session id
ID_BYTES = 16


@dataclass
class GameSettings:
    """What a new game is: validated by :func:`make_game`."""

    game: str
    players: int
    seat: int
    opponents: list[str]
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    hints: bool = False
    #: the opponents as the catalog ids the page chose (what a reloaded page shows)
    opponent_ids: list[str] = field(default_factory=list)


def _int(body: Mapping[str, Any], key: str, default: int | None) -> int | None:
    value = body.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise WebError(f"{key} must be an integer, got {value!r}")
    return value


def parse_settings(body: Any, catalog: Catalog | None = None) -> GameSettings:
    """The settings of a new-game request (a JSON object), or a :class:`WebError`: the game, its
    options and the opponents are ids of ``catalog`` (:mod:`parlour.apps.web.catalog`; default:
    one without operator models), turned into agent specs and env options here."""
    catalog = catalog or Catalog([])
    if not isinstance(body, Mapping):
        raise WebError("the request must be a JSON object")
    known = {"game", "players", "seat", "opponents", "options", "seed", "hints"}
    unknown = sorted(set(body) - known)
    if unknown:
        raise WebError(f"unknown fields {unknown}; allowed: {sorted(known)}")
    name = body.get("game")
    try:
        spec = games.get_game(name) if isinstance(name, str) and ":" not in name else None
    except ValueError as exc:
        raise WebError(str(exc)) from None
    if spec is None or spec.terminal is None:
        raise WebError(f"game must be the name of a registered game, got {name!r}")
    ui = spec.terminal
    players, seat = _int(body, "players", None), _int(body, "seat", None)
    if players is None:  # (absent or null: the default)
        players = ui.default_players
    if not spec.min_players <= players <= spec.max_players:
        raise WebError(
            f"players for {spec.name} must be in {spec.min_players}..{spec.max_players}, "
            f"got {players}"
        )
    options = catalog.check_options(spec, body.get("options") or {})
    ids = body.get("opponents")
    if ids:
        opponents = catalog.resolve_opponents(spec, players, ids)
    else:
        opponents = ids = [default_opponent(spec, ui, players, dict(options))]
    seed = _int(body, "seed", None)
    if seed is not None and not 0 <= seed < MAX_SEED:
        raise WebError(f"seed must be in 0..{MAX_SEED - 1}, got {seed}")
    hints = body.get("hints", False)
    if not isinstance(hints, bool):
        raise WebError(f"hints must be true or false, got {hints!r}")
    return GameSettings(
        game=spec.name,
        players=players,
        seat=0 if seat is None else seat,
        opponents=opponents,
        options=options,
        seed=seed,
        hints=hints,
        opponent_ids=list(ids),
    )


def build_agents(spec: Any, env: Any, seat: int, specs: Sequence[str], seed: int | None) -> dict:
    """The agents of every seat but ``seat``, filled cyclically from ``specs``."""
    agents = {}
    players = len(env.possible_agents)
    others = [a for i, a in enumerate(env.possible_agents) if i != seat]
    for i, agent in enumerate(others):
        agent_seed = None if seed is None else seed + 1 + i
        agents[agent] = factory.make_agent(
            specs[i % len(specs)], spec, seed=agent_seed, players=players
        )
        agents[agent].reset(agent_seed)
    factory.check_agents_fit(agents.values(), env)
    return agents


class GameSession:
    """One person's game against agents (see the module docstring)."""

    def __init__(self, settings: GameSettings) -> None:
        self.settings = settings
        self.spec = games.get_game(settings.game)
        self.ui = self.spec.terminal
        try:  # seated shipped models bring the options they were trained with (e.g. observation)
            settings.options = seat_options(settings.opponents, settings.options)
            self.env = games.make_raw_env(self.spec, settings.players, **settings.options)
        except TypeError as exc:  # an option the env does not take
            raise WebError(f"options: {exc}") from None
        except ValueError as exc:
            raise WebError(str(exc)) from None
        n = len(self.env.possible_agents)
        if not 0 <= settings.seat < n:
            raise WebError(f"seat must be in 0..{n - 1}, got {settings.seat}")
        if settings.seed is None:
            settings.seed = secrets.randbelow(MAX_SEED)
        self.human = self.env.possible_agents[settings.seat]
        try:
            self.agents = build_agents(
                self.spec, self.env, settings.seat, settings.opponents, settings.seed
            )
        except (ValueError, FileNotFoundError) as exc:
            raise WebError(f"opponents: {exc}") from None
        self.env.reset(seed=settings.seed)
        self.actions: list[int] = []
        #: the log: ``{"agent", "text", "mine"}`` per move the person saw (agent "": an event)
        self.log: list[dict[str, Any]] = []
        #: the person's moves and undos so far: the state's ``version`` (it never counts the
        #: agents' steps, whose number would tell how many steps a hidden choice took)
        self.turns = 0
        #: (choice group, env copy, actions, log entries) at the start of the person's
        #: half-built choice
        self.snapshot: tuple[str, Any, int, int] | None = None
        self.lock = threading.Lock()
        self.opening = self._play_agents()  # the agents seated before the person move first

    @property
    def version(self) -> int:
        """The person's moves and undos so far: a move must name the version it was chosen at
        (a page that is behind is refused)."""
        return self.turns

    def state(self) -> dict[str, Any]:
        state = seat_state(self.spec, self.env, self.human, hints=self.settings.hints)
        state["version"] = self.version
        state["undo"] = self.can_undo()
        return state

    def log_entries(self) -> list[dict[str, Any]]:
        """The game's log so far (a reloaded page shows it again)."""
        return [dict(e) for e in self.log]

    def setup(self) -> dict[str, Any]:
        """What the person chose (a reloaded page names the seats with it); never the seed
        while the game runs."""
        s = self.settings
        out = {
            "game": s.game,
            "players": s.players,
            "seat": s.seat,
            "opponents": list(s.opponent_ids),
            "options": {k: v for k, v in s.options.items() if k in self._form_options()},
            "hints": s.hints,
        }
        if to_move(self.env) is None:
            out["seed"] = s.seed
        return out

    def _form_options(self) -> set[str]:
        return {o["name"] for o in web_part(self.spec).options()}

    def can_undo(self) -> bool:
        """Whether the person has a half-built choice to take back: a multi-step choice begun,
        the person still deciding within it, and nothing played since but its steps."""
        snap = self.snapshot
        return (
            snap is not None
            and snap[2] < len(self.actions)
            and to_move(self.env) == self.human
            and self.ui.group(self.env, self.human) == snap[0]
        )

    def undo(self, version: Any) -> dict[str, Any]:
        """Take back the person's half-built choice (chosen at ``version``): the game as it was
        before its first step, the log likewise."""
        self._check_version(version)
        if not self.can_undo():
            raise WebError("nothing to undo: no half-built choice of yours", status=409)
        group, env, actions, logged = self.snapshot  # type: ignore[misc]
        self.env = copy.deepcopy(env)
        del self.actions[actions:]
        del self.log[logged:]
        self.turns += 1
        return {"state": self.state(), "frames": [], "undone": group, "log": self.log_entries()}

    def _check_version(self, version: Any) -> None:
        if isinstance(version, bool) or not isinstance(version, int):
            raise WebError(f"version must be an integer (the state's version), got {version!r}")
        if version != self.version:
            raise WebError(
                f"stale move: it was chosen at version {version}, the game is at version "
                f"{self.version}; reload the state",
                status=409,
            )

    def move(self, action: Any, version: Any) -> dict[str, Any]:
        """Play the person's ``action`` (chosen at ``version``), then the agents' moves: the
        new state and the frames of the agents' steps."""
        self._check_version(version)
        if to_move(self.env) is None:
            raise WebError("the game is over", status=409)
        if to_move(self.env) != self.human:
            raise WebError("it is not your turn", status=409)
        moves = {m["action"]: m["name"] for m in self.state()["moves"]}
        if isinstance(action, bool) or not isinstance(action, int) or action not in moves:
            raise WebError(f"illegal move {action!r}; legal actions now: {list(moves)}")
        group = self.ui.group(self.env, self.human)
        if group is None:
            self.snapshot = None
        elif self.snapshot is None or self.snapshot[0] != group:
            self.snapshot = (group, copy.deepcopy(self.env), len(self.actions), len(self.log))
        before = self.ui.view(self.env, self.human)
        self._step(action)
        self.turns += 1
        self.log.append({"agent": self.human, "text": moves[action], "mine": True})
        frames = self._announce(before, action) + self._play_agents()
        return {"state": self.state(), "frames": frames}

    def _announce(self, before: Any, action: int) -> list[dict[str, Any]]:
        """The public events the person's own move set off (e.g. an accusation settled: who was
        wrong and is out, who won): the lines after the first of what an onlooker is told of it,
        as frames of no agent."""
        seat = self.env.possible_agents.index(self.human)
        said = self.ui.describe_other(before, self.ui.view(self.env, self.human), seat, action)
        frames = []
        for line in (said or "").split("\n")[1:]:
            self.log.append({"agent": "", "text": line, "mine": False})
            frames.append({"agent": "", "text": line, "state": self.state()})
        return frames

    def _step(self, action: int) -> None:
        self.env.step(action)
        self.actions.append(action)

    def _play_agents(self) -> list[dict[str, Any]]:
        """Let the agents play until the person decides or the game ends: one frame per step
        (the mover, what the person saw of it, and the person's state after it)."""
        env, frames = self.env, []
        while True:
            agent = to_move(env)
            if agent is None or agent == self.human:
                return frames
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            self.snapshot = None  # (an agent moves: the person's choice, if any, is complete)
            obs = env.observe(agent)
            action = int(self.agents[agent].act(obs, env.player_view(agent)))
            before = self.ui.view(env, self.human)
            self._step(action)
            seat = env.possible_agents.index(agent)
            said = self.ui.describe_other(before, self.ui.view(env, self.human), seat, action)
            if said is not None:
                self.log.append({"agent": agent, "text": said, "mine": False})
                frames.append({"agent": agent, "text": said, "state": self.state()})

    def replay(self) -> dict[str, Any]:
        """The finished game as a replay document (:mod:`parlour.eval.replay`); refused
        while it runs (its seed and the agents' moves would tell every hidden card)."""
        if to_move(self.env) is not None:
            raise WebError("the game is not over: its replay is given once it ends", status=409)
        s = self.settings
        specs = {a: self.agents[a].spec for a in self.agents} | {self.human: "human"}
        results = self.env.unwrapped.results()
        agents = [specs[a] for a in self.env.possible_agents]
        return make_replay(s.game, s.players, s.options, s.seed, agents, self.actions, results)


@dataclass(frozen=True)
class Limits:
    """The bounds of a :class:`SessionStore` (the module table)."""

    timeout: float = DEFAULT_TIMEOUT_S
    lifetime: float = MAX_LIFETIME_S
    total: int = MAX_GAMES_TOTAL
    per_client: int = MAX_GAMES_PER_CLIENT
    per_minute: int = MAX_NEW_PER_MINUTE

    def __post_init__(self) -> None:
        for name in ("timeout", "lifetime", "total", "per_client", "per_minute"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
                raise ValueError(f"limits: {name} must be a number > 0, got {value!r}")


@dataclass
class _Kept:
    client: str
    created: float
    touched: float


class SessionStore:
    """The games (or open replays) of all tabs: create, find (touching), drop, and expire
    (module docstring); ``clock``: seconds (monotonic), replaceable in tests."""

    def __init__(
        self,
        limits: Limits | None = None,
        what: str = "game",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limits, self.what, self.clock = limits or Limits(), what, clock
        self.sessions: dict[str, Any] = {}
        self.kept: dict[str, _Kept] = {}
        self.started: dict[str, deque[float]] = {}  # client -> times of its recent new games
        self.lock = threading.Lock()

    @property
    def timeout(self) -> float:
        return self.limits.timeout

    def expire(self) -> list[str]:
        """Drop the sessions untouched for ``timeout`` seconds or older than ``lifetime``."""
        now, lim = self.clock(), self.limits
        with self.lock:
            old = [
                k
                for k, m in self.kept.items()
                if now - m.touched > lim.timeout or now - m.created > lim.lifetime
            ]
            for k in old:
                del self.sessions[k], self.kept[k]
        return old

    def _room(self, client: str) -> None:
        """Raise the 503 of a full store (in all, or for ``client``); under ``self.lock``."""
        lim = self.limits
        when = (
            f"close a tab, or wait until a {self.what} is closed or dropped "
            f"({lim.timeout:g} s untouched, or {lim.lifetime:g} s old)"
        )
        if len(self.sessions) >= lim.total:
            raise WebError(
                f"the server is full: {len(self.sessions)} {self.what}s are open (at most "
                f"{lim.total}); {when}",
                503,
            )
        mine = sum(1 for m in self.kept.values() if m.client == client)
        if mine >= lim.per_client:
            raise WebError(
                f"too many {self.what}s open from your address: {mine} (at most "
                f"{lim.per_client} per client); {when}",
                503,
            )

    def admit(self, client: str) -> None:
        """Refuse a new session of ``client`` beyond the bounds (503) or the rate (429), before
        any work; a session counts against the rate only once :meth:`add` keeps it, so a refused
        request (400) never uses up the client's rate."""
        self.expire()
        now = self.clock()
        with self.lock:
            self._room(client)
            if len(self._recent(client, now)) >= self.limits.per_minute:
                raise WebError(
                    f"too many new {self.what}s from your address: at most "
                    f"{self.limits.per_minute} in {RATE_WINDOW_S:g} s; wait a moment",
                    429,
                )

    def _recent(self, client: str, now: float) -> deque:
        """The start times of ``client``'s sessions in the last :data:`RATE_WINDOW_S` (call with
        the lock held); the clients of no recent session are forgotten."""
        quiet = [c for c, t in self.started.items() if not t or now - t[-1] >= RATE_WINDOW_S]
        for gone in quiet:
            del self.started[gone]
        recent = self.started.setdefault(client, deque())
        while recent and now - recent[0] >= RATE_WINDOW_S:
            recent.popleft()
        return recent

    def add(self, item: Any, client: str = "") -> str:
        """Keep ``item`` under a new id (for ``client``), within the bounds; it counts against
        the client's rate."""
        key = secrets.token_hex(ID_BYTES)
        now = self.clock()
        with self.lock:
            self._room(client)
            self.sessions[key] = item
            self.kept[key] = _Kept(client, now, now)
            self._recent(client, now).append(now)
        return key

    def create(self, body: Any, client: str = "", catalog: Catalog | None = None) -> tuple:
        """A new game from a new-game request of ``client`` (its catalog ids: ``catalog``)."""
        self.expire()
        with self.lock:
            self._room(client)  # (a full store refuses before any work)
        settings = parse_settings(body, catalog)
        self.admit(client)
        session = GameSession(settings)
        return self.add(session, client), session

    def get(self, key: str) -> Any:
        self.expire()
        with self.lock:
            session, kept = self.sessions.get(key), self.kept.get(key)
            if kept is not None:
                kept.touched = self.clock()
        if session is None:
            raise WebError(f"no {self.what} {key!r} (it was closed, timed out or never was)", 404)
        return session

    def drop(self, key: str) -> bool:
        with self.lock:
            self.kept.pop(key, None)
            return self.sessions.pop(key, None) is not None
