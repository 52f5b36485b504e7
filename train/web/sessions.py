"""Games in progress on the ``parlour serve`` page: one :class:`GameSession` per browser tab.

A session holds one raw env, the person's seat and the agents of the other seats. The person
moves with :meth:`GameSession.move` (checked against the env's legal-action mask and the
session's step counter, so a stale move from an old page is refused); the agents then play until
the person decides again or the game ends, and each of their steps is returned as a frame of the
person's own view (:func:`parlour.train.web.views.seat_state`). Every game records its seed,
configuration and actions, so a finished game is also a replay (:mod:`parlour.train.web.replay`).

:class:`SessionStore` keeps the sessions, each behind its own lock (many tabs play at once), and
drops a session not touched for ``timeout`` seconds.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.models import seat_options
from parlour.train.web.views import seat_state, to_move

#: seconds after which an untouched game is dropped
DEFAULT_TIMEOUT_S = 30 * 60
#: games kept at once (a new game beyond it is refused until one ends or times out)
DEFAULT_MAX_SESSIONS = 256
#: hex digits of a session id
ID_BYTES = 16


class WebError(ValueError):
    """A bad request: the message says what was wrong (the HTTP status is ``status``)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


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


def _int(body: Mapping[str, Any], key: str, default: int | None) -> int | None:
    value = body.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise WebError(f"{key} must be an integer, got {value!r}")
    return value


def parse_settings(body: Any) -> GameSettings:
    """The settings of a new-game request (a JSON object), or a :class:`WebError`."""
    from parlour.train.games import get_game

    if not isinstance(body, Mapping):
        raise WebError("the request must be a JSON object")
    known = {"game", "players", "seat", "opponents", "options", "seed", "hints"}
    unknown = sorted(set(body) - known)
    if unknown:
        raise WebError(f"unknown fields {unknown}; allowed: {sorted(known)}")
    name = body.get("game")
    try:
        spec = get_game(name) if isinstance(name, str) and ":" not in name else None
    except ValueError as exc:
        raise WebError(str(exc)) from None
    if spec is None or spec.play_ui is None:
        raise WebError(f"game must be the name of a registered game, got {name!r}")
    ui = spec.play_ui()
    players = _int(body, "players", ui.default_players)
    options = body.get("options") or {}
    if not isinstance(options, Mapping):
        raise WebError(f"options must be a JSON object of game options, got {options!r}")
    opponents = body.get("opponents")
    if not opponents:
        from parlour.train.play import default_opponent

        opponents = [
            default_opponent(spec, ui, players, dict(options)) if players else ui.default_opponent
        ]
    if not isinstance(opponents, list) or not all(isinstance(o, str) for o in opponents):
        raise WebError(f"opponents must be a list of agent specs, got {opponents!r}")
    return GameSettings(
        game=spec.name,
        players=players,
        seat=_int(body, "seat", 0),
        opponents=list(opponents),
        options=dict(options),
        seed=_int(body, "seed", None),
        hints=bool(body.get("hints", False)),
    )


def build_agents(spec: Any, env: Any, seat: int, specs: Sequence[str], seed: int | None) -> dict:
    """The agents of every seat but ``seat``, filled cyclically from ``specs``."""
    from parlour.agents.factory import check_agents_fit, make_agent

    agents = {}
    players = len(env.possible_agents)
    others = [a for i, a in enumerate(env.possible_agents) if i != seat]
    for i, agent in enumerate(others):
        agent_seed = None if seed is None else seed + 1 + i
        agents[agent] = make_agent(specs[i % len(specs)], spec, seed=agent_seed, players=players)
        agents[agent].reset(agent_seed)
    check_agents_fit(agents.values(), env)
    return agents


class GameSession:
    """One person's game against agents (see the module docstring)."""

    def __init__(self, settings: GameSettings) -> None:
        from parlour.train.games import get_game, make_raw_env

        self.settings = settings
        self.spec = get_game(settings.game)
        self.ui = self.spec.play_ui()
        try:  # seated shipped models bring the options they were trained with (e.g. observation)
            settings.options = seat_options(settings.opponents, settings.options)
            self.env = make_raw_env(self.spec, settings.players, **settings.options)
        except TypeError as exc:  # an option the env does not take
            raise WebError(f"options: {exc}") from None
        except ValueError as exc:
            raise WebError(str(exc)) from None
        n = len(self.env.possible_agents)
        if not 0 <= settings.seat < n:
            raise WebError(f"seat must be in 0..{n - 1}, got {settings.seat}")
        if settings.seed is None:
            settings.seed = secrets.randbelow(2**31)
        self.human = self.env.possible_agents[settings.seat]
        try:
            self.agents = build_agents(
                self.spec, self.env, settings.seat, settings.opponents, settings.seed
            )
        except (ValueError, FileNotFoundError) as exc:
            raise WebError(f"opponents: {exc}") from None
        self.env.reset(seed=settings.seed)
        self.actions: list[int] = []
        self.lock = threading.Lock()
        self.touched = time.monotonic()
        self.opening = self._play_agents()  # the agents seated before the person move first

    @property
    def version(self) -> int:
        """The number of actions played: a move must name the version it was chosen at."""
        return len(self.actions)

    def state(self) -> dict[str, Any]:
        state = seat_state(self.ui, self.env, self.human, hints=self.settings.hints)
        state["version"] = self.version
        return state

    def move(self, action: Any, version: Any) -> dict[str, Any]:
        """Play the person's ``action`` (chosen at ``version``), then the agents' moves: the
        new state and the frames of the agents' steps."""
        if isinstance(version, bool) or not isinstance(version, int):
            raise WebError(f"version must be an integer (the state's version), got {version!r}")
        if version != self.version:
            raise WebError(
                f"stale move: it was chosen at version {version}, the game is at version "
                f"{self.version}; reload the state",
                status=409,
            )
        if to_move(self.env) is None:
            raise WebError("the game is over", status=409)
        if to_move(self.env) != self.human:
            raise WebError("it is not your turn", status=409)
        legal = [m["action"] for m in self.state()["moves"]]
        if isinstance(action, bool) or not isinstance(action, int) or action not in legal:
            raise WebError(f"illegal move {action!r}; legal actions now: {legal}")
        self._step(action)
        frames = self._play_agents()
        return {"state": self.state(), "frames": frames}

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
            obs = env.observe(agent)
            action = int(self.agents[agent].act(obs, env.player_view(agent)))
            before = self.ui.view(env, self.human)
            self._step(action)
            seat = env.possible_agents.index(agent)
            said = self.ui.describe_other(before, self.ui.view(env, self.human), seat, action)
            if said is not None:
                frames.append({"agent": agent, "text": said, "state": self.state()})

    def replay(self) -> dict[str, Any]:
        """The game so far as a replay document (:mod:`parlour.train.web.replay`)."""
        from parlour.train.web.replay import make_replay

        s = self.settings
        specs = {a: self.agents[a].spec for a in self.agents} | {self.human: "human"}
        results = self.env.unwrapped.results() if to_move(self.env) is None else None
        agents = [specs[a] for a in self.env.possible_agents]
        return make_replay(s.game, s.players, s.options, s.seed, agents, self.actions, results)


class SessionStore:
    """The games (or open replays) of all tabs: create, find (touching), drop, and expire
    (module docstring)."""

    def __init__(
        self,
        timeout: float = DEFAULT_TIMEOUT_S,
        max_sessions: int = DEFAULT_MAX_SESSIONS,
        what: str = "game",
    ) -> None:
        self.timeout, self.max_sessions, self.what = timeout, max_sessions, what
        self.sessions: dict[str, GameSession] = {}
        self.lock = threading.Lock()

    def expire(self) -> list[str]:
        """Drop the sessions untouched for ``timeout`` seconds; their ids."""
        now = time.monotonic()
        with self.lock:
            old = [k for k, s in self.sessions.items() if now - s.touched > self.timeout]
            for k in old:
                del self.sessions[k]
        return old

    def add(self, item: Any) -> str:
        """Keep ``item`` (anything with a ``touched`` time) under a new id."""
        self.expire()
        key = secrets.token_hex(ID_BYTES)
        with self.lock:
            if len(self.sessions) >= self.max_sessions:
                raise WebError(f"too many open at once (at most {self.max_sessions})", 503)
            self.sessions[key] = item
        return key

    def create(self, body: Any) -> tuple[str, GameSession]:
        """A new game from a new-game request."""
        settings = parse_settings(body)
        with self.lock:
            if len(self.sessions) >= self.max_sessions:
                raise WebError(f"too many open at once (at most {self.max_sessions})", 503)
        session = GameSession(settings)
        return self.add(session), session

    def get(self, key: str) -> Any:
        self.expire()
        with self.lock:
            session = self.sessions.get(key)
        if session is None:
            raise WebError(f"no {self.what} {key!r} (it was closed, timed out or never was)", 404)
        session.touched = time.monotonic()
        return session

    def drop(self, key: str) -> bool:
        with self.lock:
            return self.sessions.pop(key, None) is not None
