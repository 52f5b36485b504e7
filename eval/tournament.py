"""Tournaments: many games between agent kinds, with seat rotation and paired deals.

Schedule (``k`` agent kinds, ``n`` seats):

| case | tables | arrangements per deal |
|---|---|---|
| ``k <= n`` | one: the kinds fill the seats cyclically (``A B A B`` for 2 kinds, 4 seats) | the distinct rotations of that table: ``n``, or ``k`` when ``k`` divides ``n`` (``A B A B``, ``B A B A``) |
| ``k > n`` | every combination of ``n`` kinds | ``n`` rotations of each |

Every arrangement is played on the same deals (paired seeds: deal ``d`` is
``reset(seed=seed + d)`` for every arrangement), so every kind plays every seat equally often on
the same cards. ``games`` is rounded up to a whole number of deals. An arrangement is never
played twice on a deal: the game would be the same one again (same deal, seats and agent
seeds), counted twice. (Earlier, tournaments whose kinds divide the
seats — 2 kinds at 4 or 6 players, 3 at 6 — played each arrangement ``n / k`` times: their win
rates are unchanged by that, but their game counts and intervals overstated the evidence.)

Results per kind, counted per seat it held (a "seat-game"): ``wins`` (a shared win counts
``1/|W|``, so in 2-player games the win rates add up to 1), ``win_rate`` with a Wilson 95% interval
``ci95``, ``mean_score``, ``mean_reward``, win rate per seat. Per tournament: mean game length
(agent steps). With more than two kinds also ``head_to_head`` (row kind finishing ahead of
column kind: higher reward, or equal reward and higher score — two losers of a 3-player game are
ranked by score; a tie counts half) and ``ratings`` (Bradley–Terry strengths from those
pairwise results, on the Elo scale, mean 0).

The result (the JSON of ``parlour eval``):

| key | meaning |
|---|---|
| ``game``, ``players``, ``games``, ``deals`` | settings; ``games`` = seat arrangements × deals |
| ``mean_length`` | mean game length in agent steps |
| ``even_win_rate`` | ``1 / players`` |
| ``head_to_head``, ``ratings`` | more than two kinds (see above) |
| ``agents[i].spec``, ``games``, ``wins``, ``win_rate``, ``ci95``, ``mean_score``, ``mean_reward``, ``win_rate_by_seat`` | per kind, over its seat-games (see above; ``mean_score`` ``null`` if the game has no scores) |
| ``mean_<key>`` | per ``key`` of the game's ``stats.game_keys``: its mean over the games (Awkward Guests: ``mean_rounds``) |
| the game's own keys | from its :class:`~parlour.games.parts.Statistics`: per kind (``agent_stats``) and per tournament (``tournament_stats``); e.g. Awkward Guests' ``solved``, ``mean_rounds``, ``wrong_accusations``, ``accusations`` (:mod:`parlour.games.guests.plugin`) |
| ``agents[i].estimates`` | the game's numbers with 95% intervals (its ``Statistics.agent_estimates``; a game without any has no key): ``{key: {"value", "ci95", "n"}}`` (:mod:`parlour.games.intervals`); Awkward Guests: ``solved``, ``mean_rounds``, ``wrong_accusations``. ``parlour eval --compare`` tabulates them |

The game's statistics come from the env's ``results()`` at the end of each game: ``stats.game_keys`` (numbers, in
:attr:`~parlour.games.stepping.GameRecord.extras`) and ``stats.seat_keys`` (per-agent numbers, in
:attr:`~parlour.games.stepping.GameRecord.seat_stats`); a game without statistics (Audition) gets none of these keys.

:func:`play_games` plays the games and returns their records (in deal, then arrangement order);
it also takes another list of seat arrangements (``parlour league`` plays its pairings' tables
through it, :mod:`parlour.eval.league`). Shipped models among the agents (``ppo:NAME``) bring the
game options they were trained with for the keys the tournament leaves unset
(:func:`parlour.models.seat_options`); the result's ``game_options`` are the options played.

The driver
----------

:func:`play_games` is the one driver of every tournament: it checks the settings against their
limits, makes the jobs (:class:`Jobs`: ``(deal, arrangement)``, made lazily), chooses a
*stepper* (:mod:`parlour.games.stepping`: the protocol, :class:`~parlour.games.stepping.GameRecord`
and the steppers' table) and has it play them, shows the progress, and sorts the records:

| step | function |
|---|---|
| check the settings (distinct specs, players, ``games``, ``workers``) | :func:`_check_settings`, :func:`_check_workers` |
| build this process's per-game stepper (bad settings raise here, before any worker starts) | :func:`per_game_stepper` (:func:`_init_worker`) |
| choose the stepper: the game's ``batched_tournament`` hook's answer (a stepper, :class:`~parlour.games.stepping.Lockstep`, or ``None``), else per game | :func:`choose_stepper` |
| play in this process, ``stepper.batch`` games at a time (batched, lockstep, or per game with ``workers=1``) | :func:`play_jobs` |
| play per game over ``workers`` processes (``spawn``; the games fed :data:`POOL_WINDOW` at a time; workers ignore Ctrl-C, the parent closes them) | :func:`_play_pool` |
| sort the records (deal, then arrangement); the wall time | :func:`play_games` |

Games run in parallel over ``workers`` processes (default: one per core) with a progress bar;
``workers=1`` plays in this process. Results are identical for any worker count. A game with a
``batched_tournament`` hook (Audition: :mod:`parlour.games.audition.batched_tournament`) plays all
games in this process instead when its agents allow — batched on its engine, or, with a search
agent, in lockstep (:mod:`parlour.eval.lockstep`: per-game envs side by side, the search agents'
rollouts batched across games); the same records either way (set ``PARLOUR_NO_BATCHED_EVAL=1`` to
force the per-game path).
"""

from __future__ import annotations

import itertools
import math
import multiprocessing as mp
import os
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from parlour.agents.factory import check_agents_fit, make_agent
from parlour.errors import UserError
from parlour.eval.lockstep import LockstepStepper
from parlour.games import Game, make_raw_env, require_game
from parlour.games.intervals import wilson_interval
from parlour.games.stepping import GameRecord, Job, Lockstep, PerGameStepper, Stepper
from parlour.limits import MAX_ARRANGEMENTS, MAX_GAMES, MAX_WORKERS
from parlour.models import seat_options
from parlour.safe_stop import workers_ignore_interrupts

#: set this environment variable to play every game per game (no ``batched_tournament`` hook)
NO_BATCH_ENV = "PARLOUR_NO_BATCHED_EVAL"
#: games handed to the worker pool at once (its task feeder queues everything it is given, so a
#: tournament is fed in windows: the queue does not grow with the games)
POOL_WINDOW = 1 << 16


def count_arrangements(num_kinds: int, players: int) -> int:
    """How many arrangements :func:`arrangements` gives (at most; without building them)."""
    return players if num_kinds <= players else math.comb(num_kinds, players) * players


def arrangements(num_kinds: int, players: int) -> list[tuple[int, ...]]:
    """Seat → kind-index tuples of one deal (see the module table); ``ValueError`` past
    :data:`~parlour.limits.MAX_ARRANGEMENTS`."""
    if num_kinds < 1:
        raise ValueError("a tournament needs at least one agent")
    check_arrangements(count_arrangements(num_kinds, players), f"{num_kinds} agents", players)
    tables = (
        [tuple(i % num_kinds for i in range(players))]
        if num_kinds <= players
        else list(itertools.combinations(range(num_kinds), players))
    )
    rotations = (
        tuple(t[(s + r) % players] for s in range(players)) for t in tables for r in range(players)
    )
    # distinct ones only: a table that repeats (A B A B) has fewer distinct rotations than seats,
    # and a repeated arrangement would replay the same game (same deal, seats and agent seeds)
    return list(dict.fromkeys(rotations))


def seat_table(counts: Sequence[int], num_kinds: int, players: int) -> list[tuple[int, ...]]:
    """The seat arrangements of one deal when agent ``k`` takes ``counts[k]`` seats (``--seats``:
    e.g. ``[1, 2]`` seats the first agent alone against two copies of the second), each
    rotation of the table once; ``ValueError`` naming what is wrong."""
    counts = list(counts)
    if len(counts) != num_kinds:
        raise ValueError(
            f"--seats: give one count per agent ({num_kinds} agents), got {len(counts)}: {counts}"
        )
    if any(isinstance(c, bool) or not isinstance(c, int) or c < 1 for c in counts):
        raise ValueError(f"--seats: every count must be an integer >= 1, got {counts}")
    if sum(counts) != players:
        raise ValueError(
            f"--seats: the counts must add up to the {players} players, got {counts} "
            f"(= {sum(counts)})"
        )
    seats = tuple(k for k, c in enumerate(counts) for _ in range(c))
    rotations = (tuple(seats[(s + r) % players] for s in range(players)) for r in range(players))
    return list(dict.fromkeys(rotations))


def check_arrangements(count: int, who: str, players: int) -> None:
    """``ValueError`` if one deal would be played by more than
    :data:`~parlour.limits.MAX_ARRANGEMENTS` seat arrangements (``--games 1`` plays them
    all)."""
    if count > MAX_ARRANGEMENTS:
        raise ValueError(
            f"--agents: {who} at {players} seats make {count:,} seat arrangements, each played "
            f"on every deal (so at least {count:,} games); the limit is {MAX_ARRANGEMENTS:,}: "
            "use fewer agents"
        )


class Jobs(Sequence[Job]):
    """The ``(deal, arrangement)`` games of a tournament, deal by deal, each made when it is
    asked for: its memory does not grow with the games (a slice is a list of that part)."""

    def __init__(self, deals: int, table: Sequence[tuple[int, ...]]) -> None:
        self.deals, self.table = deals, list(table)

    def __len__(self) -> int:
        return self.deals * len(self.table)

    def _job(self, i: int) -> Job:
        deal, k = divmod(i, len(self.table))
        return deal, self.table[k]

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self._job(i) for i in range(len(self))[index]]
        i = range(len(self))[index]  # (negative indices; IndexError past the end)
        return self._job(i)

    def __iter__(self) -> Iterator[Job]:
        for deal in range(self.deals):
            for kinds in self.table:
                yield deal, kinds


# -- steppers and workers -----------------------------------------------------------------------

#: this process's per-game stepper (``"stepper"``), or why a pool worker could not start
#: (``"error"``)
_WORKER: dict[str, Any] = {}


class WorkerStartError(UserError):
    """A pool worker's setup failed (e.g. its model file vanished)."""


def check_players(game: Game, players: Any) -> None:
    """``ValueError`` unless ``players`` is an int in the game's range."""
    ok = isinstance(players, int) and not isinstance(players, bool)
    if not ok or not game.min_players <= players <= game.max_players:
        raise ValueError(
            f"players must be in {game.min_players}..{game.max_players} for {game.name}, "
            f"got {players!r}"
        )


def per_game_stepper(
    game: Game,
    players: int,
    game_options: dict,
    specs: Sequence[str],
    seed: int,
    trust: bool = False,
) -> PerGameStepper:
    """The per-game stepper of a tournament: one env, and an agent per (kind, seat)."""
    try:
        env = make_raw_env(game, players, **game_options)
    except TypeError as exc:  # an option the game's constructor does not take
        raise ValueError(f"game options {sorted(game_options)}: {exc}") from None
    agents = {
        (k, s): make_agent(spec, game, players=players, trust=trust)
        for k, spec in enumerate(specs)
        for s in range(players)
    }
    check_agents_fit(agents.values(), env)
    return PerGameStepper(env, agents, seed, game.evaluation.statistics)


def _init_worker(*init: Any) -> None:
    """This process's per-game stepper (``init``: :func:`per_game_stepper`'s arguments)."""
    _WORKER["stepper"] = per_game_stepper(*init)


def uses_torch(specs: Sequence[str]) -> bool:
    """Whether any of the agent ``specs`` plays a network (a PPO model, or a search on one)."""
    return any(spec.startswith("ppo:") or "model=" in spec for spec in specs)


@contextmanager
def one_torch_thread(specs: Sequence[str]) -> Iterator[None]:
    """Torch on one thread while the games are played in this process when ``specs`` play a
    network (its default, one thread per core, is slower for the small batches of one game and
    fights any other process for the cores); the caller's thread count is put back after."""
    if not uses_torch(specs):
        yield
        return
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def _init_pool_worker(*init: Any) -> None:
    """A pool worker's initializer: never raises (``multiprocessing.Pool`` would respawn the
    worker forever); the error is re-raised by the worker's first game, in the parent."""
    workers_ignore_interrupts()
    _WORKER.clear()
    if uses_torch(init[3]):  # one torch thread per worker process
        import torch

        torch.set_num_threads(1)
    try:
        _init_worker(*init)
    except Exception as exc:
        _WORKER["error"] = f"an evaluation worker could not start: {type(exc).__name__}: {exc}"


def _play_in_pool(job: Job) -> GameRecord:
    if "error" in _WORKER:
        raise WorkerStartError(_WORKER["error"])
    return _WORKER["stepper"].play_one(job)


def choose_stepper(
    game: Game,
    players: int,
    specs: Sequence[str],
    seed: int,
    game_options: dict[str, Any],
    trust: bool = False,
) -> Stepper:
    """The stepper that plays the tournament (the table of :mod:`parlour.games.stepping`): the
    game's ``batched_tournament`` hook's answer, else (no hook, it declines, or
    :data:`NO_BATCH_ENV` is set) this process's per-game stepper (:func:`_init_worker` first)."""
    if game.evaluation.batched_tournament is not None and not os.environ.get(NO_BATCH_ENV):
        hook = game.evaluation.batched_tournament
        choice = hook(players, list(specs), seed, game_options, trust=trust)
        if isinstance(choice, Lockstep):
            return LockstepStepper(
                game, players, specs, seed, game_options, choice.decide, trust=trust
            )
        if isinstance(choice, Stepper):
            return choice
        if choice is not None:
            raise TypeError(
                f"{game.name}'s batched_tournament ({hook.__module__}.{hook.__qualname__}) "
                f"returned a {type(choice).__name__}: a Stepper, Lockstep or None expected "
                "(parlour.games.stepping)"
            )
    return _WORKER["stepper"]


def play_jobs(
    stepper: Stepper, jobs: Sequence[Job], done: Callable[[int], Any] | None = None
) -> list[GameRecord]:
    """The records of ``jobs`` played by ``stepper`` in this process, ``stepper.batch`` at a
    time (a slice of a lazy :class:`Jobs` is made only when it is played); ``done(n)`` after
    each batch of ``n``, or as each game ends when the stepper ``reports_progress``."""
    records: list[GameRecord] = []
    per_game = getattr(stepper, "reports_progress", False) and done is not None
    for start in range(0, len(jobs), stepper.batch):
        part = jobs[start : start + stepper.batch]
        played = stepper.play(part, done) if per_game else stepper.play(part)  # type: ignore[call-arg]
        if len(played) != len(part):
            raise RuntimeError(f"a stepper returned {len(played)} records for {len(part)} games")
        records += played
        if done is not None and not per_game:
            done(len(part))
    return records


def _play_pool(
    init: tuple, jobs: Jobs, workers: int, done: Callable[[int], Any]
) -> list[GameRecord]:
    """The records of ``jobs`` played per game by ``workers`` processes (in finishing order),
    fed :data:`POOL_WINDOW` games at a time."""
    records: list[GameRecord] = []
    ctx = mp.get_context("spawn")
    chunk = max(1, min(len(jobs), POOL_WINDOW) // (workers * 16))
    with ctx.Pool(workers, initializer=_init_pool_worker, initargs=init) as pool:
        for start in range(0, len(jobs), POOL_WINDOW):
            window = jobs[start : start + POOL_WINDOW]
            for rec in pool.imap_unordered(_play_in_pool, window, chunksize=chunk):
                records.append(rec)
                done(1)
    return records


# -- aggregation ------------------------------------------------------------------------------


def bradley_terry(wins: np.ndarray, iters: int = 2000) -> np.ndarray:
    """Elo-scale Bradley–Terry ratings (mean 0) from a matrix ``wins[i, j]`` (i ahead of j)."""
    k = wins.shape[0]
    games = wins + wins.T
    w = wins + 0.5 * (games > 0)  # a small prior keeps undefeated / winless kinds finite
    games = w + w.T
    p = np.ones(k)
    for _ in range(iters):
        new = np.array(
            [
                w[i].sum()
                / max(1e-12, sum(games[i, j] / (p[i] + p[j]) for j in range(k) if j != i))
                for i in range(k)
            ]
        )
        new /= np.exp(np.log(new).mean())
        if np.allclose(new, p, rtol=1e-10):
            p = new
            break
        p = new
    r = 400.0 * np.log10(p)
    return r - r.mean()


def rank_key(rec: GameRecord, seat: int) -> tuple[float, float]:
    """How far a seat finished: its reward, then (between equal rewards) its score."""
    score = rec.scores[seat]
    return (rec.rewards[seat], 0.0 if score is None else float(score))


def summarize(
    records: Sequence[GameRecord], specs: Sequence[str], game: Game, players: int
) -> dict[str, Any]:
    """The tournament result dictionary (the JSON written by ``parlour eval``)."""
    game_spec = game
    k = len(specs)
    seat_games = np.zeros(k)
    wins = np.zeros(k)
    reward_sum = np.zeros(k)
    score_sum = np.zeros(k)
    score_n = np.zeros(k)
    seat_wins = np.zeros((k, players))
    seat_n = np.zeros((k, players))
    pair_wins = np.zeros((k, k))
    pair_n = np.zeros((k, k))
    for rec in records:
        share = 1.0 / len(rec.winners) if rec.winners else 0.0
        for s, kind in enumerate(rec.kinds):
            won = share if s in rec.winners else 0.0
            seat_games[kind] += 1
            wins[kind] += won
            seat_wins[kind, s] += won
            seat_n[kind, s] += 1
            reward_sum[kind] += rec.rewards[s]
            if rec.scores[s] is not None:
                score_sum[kind] += rec.scores[s]
                score_n[kind] += 1
        for s, t in itertools.permutations(range(players), 2):
            a, b = rec.kinds[s], rec.kinds[t]
            if a == b:
                continue
            pair_n[a, b] += 1
            ra, rb = rank_key(rec, s), rank_key(rec, t)
            pair_wins[a, b] += 1.0 if ra > rb else 0.5 if ra == rb else 0.0
    agents = [
        {
            "spec": spec,
            "games": int(seat_games[i]),
            "wins": round(float(wins[i]), 4),
            "win_rate": float(wins[i] / seat_games[i]) if seat_games[i] else 0.0,
            "ci95": list(wilson_interval(wins[i], int(seat_games[i]))),
            "mean_score": float(score_sum[i] / score_n[i]) if score_n[i] else None,
            "mean_reward": float(reward_sum[i] / seat_games[i]) if seat_games[i] else 0.0,
            "win_rate_by_seat": [
                float(seat_wins[i, s] / seat_n[i, s]) if seat_n[i, s] else None
                for s in range(players)
            ],
            **game_spec.evaluation.statistics.agent_stats(records, i),
        }
        for i, spec in enumerate(specs)
    ]
    for i, agent in enumerate(agents):
        estimates = game_spec.evaluation.statistics.agent_estimates(records, i)
        if estimates:  # (a game without estimates gets no key)
            agent["estimates"] = estimates
    result: dict[str, Any] = {
        "game": game_spec.name,
        "players": players,
        "games": len(records),
        "deals": len({r.deal for r in records}),
        "agents": agents,
        "mean_length": float(np.mean([r.length for r in records])) if records else 0.0,
        "even_win_rate": 1.0 / players,
    }
    extra_keys = sorted({key for r in records for key in r.extras})
    for key in extra_keys:
        result[f"mean_{key}"] = float(np.mean([r.extras.get(key, 0.0) for r in records]))
    result.update(game_spec.evaluation.statistics.tournament_stats(records))
    if k > 2:
        h2h = np.where(pair_n > 0, pair_wins / np.maximum(pair_n, 1), np.nan)
        result["head_to_head"] = {
            specs[a]: {
                specs[b]: (None if np.isnan(h2h[a, b]) else float(h2h[a, b]))
                for b in range(k)
                if b != a
            }
            for a in range(k)
        }
        ratings = bradley_terry(pair_wins)
        result["ratings"] = {specs[i]: float(ratings[i]) for i in range(k)}
    return result


# -- running (the driver) -----------------------------------------------------------------------


@dataclass
class Played:
    """The games of a tournament (:func:`play_games`), in deal then arrangement order."""

    records: list[GameRecord]
    #: the game options played (with those the seated shipped models brought, see below)
    game_options: dict[str, Any]
    workers: int
    wall_time_s: float


def run_tournament(
    game: Game,
    players: int,
    specs: Sequence[str],
    games: int,
    seed: int = 0,
    game_options: dict[str, Any] | None = None,
    workers: int | None = None,
    progress: bool = True,
    desc: str = "eval",
    *,
    trust: bool = False,
    table: Sequence[tuple[int, ...]] | None = None,
) -> dict[str, Any]:
    """Play the tournament and return :func:`summarize`'s result (plus settings and timing);
    ``table``: the seat arrangements of a deal (default :func:`arrangements`;
    :func:`seat_table` for ``--seats``).

    ``game`` is the :class:`~parlour.games.Game` (resolved by the command); it goes to the
    worker processes itself, so a game registered only in this process plays too.
    ``trust`` lets pickle-bearing model files load (``--trust-model``; every worker gets it).
    """
    require_game(game, "run_tournament")
    played = play_games(
        game, players, specs, games, seed, game_options, workers, progress, desc, table, trust=trust
    )
    result = summarize(played.records, list(specs), game, players)
    result.update(
        game_options=played.game_options,
        seed=seed,
        workers=played.workers,
        wall_time_s=played.wall_time_s,
    )
    return result


def play_games(
    game: Game,
    players: int,
    specs: Sequence[str],
    games: int,
    seed: int = 0,
    game_options: dict[str, Any] | None = None,
    workers: int | None = None,
    progress: bool = True,
    desc: str = "eval",
    table: Sequence[tuple[int, ...]] | None = None,
    *,
    trust: bool = False,
) -> Played:
    """The games of a tournament: every seat arrangement of ``table`` (seat -> index into
    ``specs``; default :func:`arrangements`) on each deal, ``games`` rounded up to whole deals.

    Shipped models among ``specs`` bring the game options they were trained with for the keys
    ``game_options`` leaves unset (:func:`parlour.models.seat_options`)."""
    require_game(game, "play_games")
    specs = list(specs)
    _check_settings(game, players, specs, games)
    game_options = seat_options(specs, game_options or {})
    _check_workers(workers)
    table = list(table) if table is not None else arrangements(len(specs), players)
    jobs = Jobs(math.ceil(games / len(table)), table)
    workers = min(workers or os.cpu_count() or 1, len(jobs))
    t0 = time.perf_counter()
    init = (game, players, game_options, specs, seed, trust)
    _init_worker(*init)  # here first: bad settings raise now, not in (respawning) pool workers
    bar = _progress(len(jobs), desc, progress)
    try:
        stepper = choose_stepper(game, players, specs, seed, game_options, trust)
        if not isinstance(stepper, PerGameStepper):  # batched or lockstep: one process
            workers = 1
        if workers <= 1:
            with one_torch_thread(specs):
                records = play_jobs(stepper, jobs, bar.update)
        else:
            records = _play_pool(init, jobs, workers, bar.update)
    finally:
        bar.close()
    order: dict[tuple[int, ...], int] = {}
    for i, kinds in enumerate(table):
        order.setdefault(kinds, i)  # (the first, as the arrangements may repeat)
    records.sort(key=lambda r: (r.deal, order[r.kinds]))
    wall = round(time.perf_counter() - t0, 2)
    return Played(records, game_options, workers, wall)


def _check_settings(game: Game, players: Any, specs: list[str], games: Any) -> None:
    """``ValueError`` for repeated specs, or players or games out of their bounds."""
    if len(set(specs)) != len(specs):
        raise ValueError(f"agent specs must be distinct, got {specs}")
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise ValueError(f"--games: must be an int in 1..{MAX_GAMES:,}, got {games!r}")
    check_players(game, players)


def _check_workers(workers: Any) -> None:
    """``ValueError`` unless ``workers`` is ``None`` or an int in its bounds."""
    if workers is not None and (
        isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS
    ):
        raise ValueError(
            f"--workers: must be an int in 1..{MAX_WORKERS} (or None: one per core), got {workers!r}"
        )


def _progress(total: int, desc: str, enabled: bool) -> Any:
    return tqdm(total=total, desc=desc, unit="game", disable=not enabled, leave=False)
