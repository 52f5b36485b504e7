"""``parlour league``: every agent against every other, rated with OpenSkill, and a win-rate matrix.

```
parlour league --game audition --players 2 --agents ppo:audition-2p audition.greedy random --games 400 --out runs/league/audition_2p
parlour league --game guests --players 4 --agents guests.deducer random --games 100 --option level=medium
```

| option | meaning |
|---|---|
| ``--game`` | a game name or ``module:ATTR`` naming a ``Game`` (as ``parlour eval``) |
| ``--players`` | seats at the table (default 2) |
| ``--agents`` | two or more distinct agent specs (:mod:`parlour.agents.factory`; ``ppo:NAME`` of a shipped model, :mod:`parlour.models`) |
| ``--games`` | games per pairing (default 200), rounded up to whole deals (every table of the pairing on every deal); at most 1,000,000 games in all, and at most 2,000 tables per deal (13 agents at 6 seats are refused: :mod:`parlour.limits`) |
| ``--option KEY=VALUE`` | a game constructor option, value in YAML |
| ``--seed`` | deal ``d`` is ``reset(seed=seed + d)``, the same deals for every pairing (default 0) |
| ``--workers`` | processes, 1..256 (default: one per core); the results do not depend on it |
| ``--out`` | output folder (default ``runs/league/<game>_<players>p_<time>``) |
| ``--overwrite`` | write into an existing non-empty ``--out`` (only ``league.*`` are replaced; without it such a folder is refused before anything is played, and left as it was) |
| ``--order-shuffles N`` | random game orders over which the ratings' order sensitivity ``order_sd`` is measured (default 16; 0: not measured) |

The scheme (the games of one pairing ``A``, ``B`` on each deal):

| players | tables |
|---|---|
| 1 | every agent plays the deal alone; the agents are then placed by their results on it (one ranking of all agents per deal) |
| 2 | ``A B`` and ``B A`` |
| ``n`` > 2 | ``A`` holds ``k`` neighbouring seats and ``B`` the other ``n - k``, for ``k = 1 … n - 1``, each in all ``n`` rotations: ``n(n - 1)`` tables, so both agents hold every seat equally often and as many seats on average |

Only the two agents of a pairing sit at its tables, so a pairing's result does not depend on the
rest of the list. The games are played by :func:`parlour.eval.tournament.play_games` (the same
code, paired deals and batched path as ``parlour eval``).

**Who finished ahead.** The seats of a game are placed by reward, then score (seats equal in both
share a place), as ``parlour eval``'s head-to-head. An agent's place is the mean of its seats'
places (fair to the agent holding fewer seats), and the agent with the lower mean place finished
ahead of the other; equal means are a tie. Solo, the agents that played a deal are placed by
their results on it in the same way.

**Ratings.** Each game (solo: each deal) is one `OpenSkill <https://openskill.me>`_ (openskill
6.2) Plackett–Luce update from its ranking, ties as equal ranks, each agent a team of one.
The prior is the library's (``mu = 25``, ``sigma = 25/3``, ``beta = 25/6``), with ``tau = 0``:
the agents do not change during a league, so no skill drift is added between games. Reported:
``mu``, ``sigma``, the interval ``mu ± 2 sigma`` and the ordinal ``mu - 3 sigma`` (openskill's
conservative estimate; the table is sorted by it). The library updates online, one game at a
time, so the ratings depend a little on the order of the games; that order is fixed — deal by
deal; within a deal pairing by pairing in the order of ``--agents``; within a pairing table by
table — and does not depend on the worker count: under one ``--seed`` (and agent order) the
league, and ``league.json``, are the same every time. How much the order matters is measured and
reported: ``mu`` is recomputed over ``--order-shuffles`` (default 16) random orders of the same
games (one ``np.random.Generator`` seeded from ``--seed``) and the standard deviation of each
agent's ``mu`` over them is given as ``order_sd`` (on 2-player Audition, 300 games per pairing
of three agents: 0.6–0.85, about half of ``sigma``; a difference of ``mu`` well above it does
not come from the order).

**Pairwise matrix.** The row agent's score against the column agent over their pairing's games
(solo: over the deals): a game it finished ahead counts 1, a tie 1/2; with a Wilson 95% interval.

Outputs in ``--out``: ``league.json`` (settings, ``ratings`` sorted by ordinal, ``pairwise``
``[row][column]``; no timing, so the same league gives the same file), ``league.md`` (the
tables, the settings and the wall time) and ``league.png`` (the ratings with their intervals).
"""

from __future__ import annotations

import argparse
import itertools
import math
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from parlour._files import write_atomic
from parlour.eval import report
from parlour.games import require_game
from parlour.games.arguments import (
    game_argument,
    games_argument,
    non_negative_int,
    parse_options,
    positive_int,
    trust_argument,
    workers_argument,
)

if TYPE_CHECKING:
    from parlour.games import Game
    from parlour.games.stepping import GameRecord

HELP = "every agent against every other: OpenSkill ratings and a pairwise win-rate matrix"
#: the OpenSkill prior (the library's defaults) and the dynamics: none, the agents are fixed
PRIOR_MU = 25.0
PRIOR_SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
TAU = 0.0
#: the reported interval is mu ± INTERVAL_Z sigma; the ordinal is mu - ORDINAL_Z sigma
INTERVAL_Z = 2.0
ORDINAL_Z = 3.0
#: random game orders the ratings are recomputed on to measure their order sensitivity
ORDER_SHUFFLES = 16
#: the shuffles' generator is seeded with [ORDER_STREAM, --seed] (a stream apart from the deals)
ORDER_STREAM = 7919
#: the files a league writes
FILES = ("league.json", "league.md", "league.png")
PLOT_DPI = 110
#: the longest agent label drawn in full (longer ones keep their end)
PLOT_LABEL = 32


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game", type=game_argument, default="audition", help="game (default audition)"
    )
    parser.add_argument("--players", type=positive_int, default=2, help="seats (default 2)")
    parser.add_argument("--agents", nargs="+", required=True, help="two or more agent specs")
    parser.add_argument(
        "--games", type=games_argument, default=200, help="games per pairing (default 200)"
    )
    parser.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="game option (YAML)"
    )
    parser.add_argument("--seed", type=int, default=0, help="first deal seed (default 0)")
    parser.add_argument(
        "--workers", type=workers_argument, default=None, help="processes (default: cores)"
    )
    parser.add_argument("--out", default=None, help="output folder")
    parser.add_argument(
        "--overwrite", action="store_true", help="write into an existing non-empty --out"
    )
    parser.add_argument(
        "--order-shuffles",
        type=non_negative_int,
        default=ORDER_SHUFFLES,
        metavar="N",
        help=f"game orders to measure the ratings' order sensitivity on (default {ORDER_SHUFFLES})",
    )
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    trust_argument(parser)


def run(args: argparse.Namespace) -> int:
    spec = args.game  # (resolved by the argument parser)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    out = Path(args.out or f"runs/league/{spec.name}_{args.players}p_{stamp}")
    check_out(out, args.overwrite)  # before anything is played
    t0 = time.perf_counter()
    league = run_league(
        spec,
        args.players,
        args.agents,
        args.games,
        seed=args.seed,
        game_options=parse_options(args.option),
        workers=args.workers,
        progress=not args.no_progress,
        order_shuffles=args.order_shuffles,
        trust=args.trust_model,
    )
    wall = time.perf_counter() - t0
    paths = write_league(league, out, wall)
    print(markdown(league, wall))
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0


def check_out(out: Path, overwrite: bool) -> None:
    """Refuse a file, or an existing non-empty folder without ``--overwrite``."""
    report.check_out(out, overwrite, "the league's files")


# -- the schedule -----------------------------------------------------------------------------


def league_tables(num_agents: int, players: int) -> list[tuple[int, ...]]:
    """The seat -> agent-index tables of one deal, pairing by pairing (see the module table)."""
    if players == 1:
        return [(a,) for a in range(num_agents)]
    tables = []
    for a, b in itertools.combinations(range(num_agents), 2):
        for k in range(1, players):
            block = (a,) * k + (b,) * (players - k)
            tables += [block[r:] + block[:r] for r in range(players)]
    return tables


def check_agents(specs: Sequence[str]) -> list[str]:
    """The agent list, or ``ValueError`` naming ``--agents`` (fewer than two, repeated)."""
    specs = list(specs)
    if len(specs) < 2:
        raise ValueError(f"--agents: a league needs at least 2 agents, got {len(specs)}: {specs}")
    repeated = sorted({s for s in specs if specs.count(s) > 1})
    if repeated:
        raise ValueError(f"--agents: each agent once, got {repeated} more than once")
    return specs


# -- outcomes ---------------------------------------------------------------------------------


def _places(keys: Sequence[Any]) -> list[int]:
    """Competition places (1 = best; equal keys share a place) of higher-is-better keys."""
    return [1 + sum(other > key for other in keys) for key in keys]


def rankings(records: Sequence[GameRecord], players: int) -> list[dict[int, int]]:
    """One ranking (agent index -> place, 1 best, ties equal) per game; solo, per deal."""
    from parlour.eval.tournament import rank_key

    if players == 1:
        by_deal: dict[int, list[GameRecord]] = {}
        for rec in records:
            by_deal.setdefault(rec.deal, []).append(rec)
        out = []
        for deal in sorted(by_deal):
            recs = by_deal[deal]
            places = _places([rank_key(r, 0) for r in recs])
            out.append({r.kinds[0]: p for r, p in zip(recs, places, strict=True)})
        return out
    out = []
    for rec in records:
        seat_places = _places([rank_key(rec, s) for s in range(players)])
        kinds = sorted(set(rec.kinds))
        mean = {
            k: sum(p for p, kk in zip(seat_places, rec.kinds, strict=True) if kk == k)
            / rec.kinds.count(k)
            for k in kinds
        }
        out.append(dict(zip(kinds, _places([-mean[k] for k in kinds]), strict=True)))
    return out


def rate(ranked: Sequence[Mapping[int, int]], num_agents: int) -> list[tuple[float, float]]:
    """``(mu, sigma)`` per agent after one Plackett–Luce update per ranking, in order."""
    from openskill.models import PlackettLuce

    model = PlackettLuce(mu=PRIOR_MU, sigma=PRIOR_SIGMA, beta=BETA, tau=TAU)
    ratings = [model.rating(name=str(i)) for i in range(num_agents)]
    for ranking in ranked:
        kinds = list(ranking)
        new = model.rate([[ratings[k]] for k in kinds], ranks=[float(ranking[k]) for k in kinds])
        for k, (team,) in zip(kinds, new, strict=True):
            ratings[k] = team
    return [(float(r.mu), float(r.sigma)) for r in ratings]


def pairwise(ranked: Sequence[Mapping[int, int]], num_agents: int) -> tuple[list, list]:
    """``score[a][b]`` (a ahead of b: 1, tie: 1/2) and ``games[a][b]`` over the rankings."""
    score = [[0.0] * num_agents for _ in range(num_agents)]
    games = [[0] * num_agents for _ in range(num_agents)]
    for ranking in ranked:
        for a, b in itertools.permutations(ranking, 2):
            games[a][b] += 1
            pa, pb = ranking[a], ranking[b]
            score[a][b] += 1.0 if pa < pb else 0.5 if pa == pb else 0.0
    return score, games


# -- the league -------------------------------------------------------------------------------


def run_league(
    game: Game,
    players: int,
    specs: Sequence[str],
    games: int,
    seed: int = 0,
    game_options: dict[str, Any] | None = None,
    workers: int | None = None,
    progress: bool = True,
    order_shuffles: int = ORDER_SHUFFLES,
    *,
    trust: bool = False,
) -> dict[str, Any]:
    """Play the league and return its result (the content of ``league.json``); ``trust``:
    pickle-bearing model files may load (``--trust-model``)."""
    require_game(game, "run_league")
    from parlour.eval.tournament import check_arrangements, check_players, play_games
    from parlour.limits import MAX_GAMES

    specs = check_agents(specs)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"--games: games per pairing must be an int >= 1, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"--seed: must be an int >= 0, got {seed!r}")
    check_players(game, players)
    per_pairing = 1 if players == 1 else players * (players - 1)
    pairings = len(specs) if players == 1 else math.comb(len(specs), 2)
    check_arrangements(pairings * per_pairing, f"{len(specs)} agents", players)
    table = league_tables(len(specs), players)
    deals = math.ceil(games / per_pairing)
    if deals * len(table) > MAX_GAMES:
        raise ValueError(
            f"--games: {games:,} per pairing of {pairings:,} pairings is {deals * len(table):,} "
            f"games; the limit is {MAX_GAMES:,} in all"
        )
    played = play_games(
        game, players, specs, deals * len(table), seed, game_options, workers, progress, "league",
        table=table, trust=trust,
    )  # fmt: skip
    ranked = rankings(played.records, players)
    settings = {
        "game": game.name,
        "players": players,
        "game_options": played.game_options,
        "seed": seed,
        "agents": specs,
        "deals": deals,
        "games_per_pairing": deals * per_pairing,
    }
    return settings | summarize(specs, ranked, order_shuffles, seed)


def order_sd(
    ranked: Sequence[Mapping[int, int]], num_agents: int, shuffles: int, seed: int
) -> list[float | None]:
    """Per agent, the standard deviation of ``mu`` over ``shuffles`` random orders of the
    rankings (None when ``shuffles`` is 0)."""
    import numpy as np

    if shuffles < 1:
        return [None] * num_agents
    rng = np.random.default_rng([ORDER_STREAM, seed])
    mus = [
        [mu for mu, _ in rate([ranked[i] for i in rng.permutation(len(ranked))], num_agents)]
        for _ in range(shuffles)
    ]
    return [float(x) for x in np.std(mus, axis=0)]


def summarize(
    specs: list[str], ranked: Sequence[Mapping[int, int]], shuffles: int, seed: int
) -> dict[str, Any]:
    """The ratings (with their order sensitivity over ``shuffles`` orders) and the pairwise
    matrix from the league's rankings, in feeding order (see the module docstring)."""
    import openskill

    from parlour.eval.tournament import wilson_interval

    k = len(specs)
    mu_sigma = rate(ranked, k)
    sd = order_sd(ranked, k, shuffles, seed)
    score, games = pairwise(ranked, k)
    entries = []
    for i, spec in enumerate(specs):
        mu, sigma = mu_sigma[i]
        n, won = sum(games[i]), sum(score[i])
        entries.append(
            {
                "spec": spec,
                "mu": mu,
                "sigma": sigma,
                "interval": [mu - INTERVAL_Z * sigma, mu + INTERVAL_Z * sigma],
                "ordinal": mu - ORDINAL_Z * sigma,
                "order_sd": sd[i],
                "games": n,
                "score": won / n if n else 0.0,
                "score_ci95": list(wilson_interval(won, n)),
            }
        )
    entries.sort(key=lambda e: -e["ordinal"])
    matrix = {
        specs[a]: {
            specs[b]: {
                "games": games[a][b],
                "score": score[a][b] / games[a][b] if games[a][b] else None,
                "ci95": list(wilson_interval(score[a][b], games[a][b])),
            }
            for b in range(k)
            if b != a
        }
        for a in range(k)
    }
    return {
        "rating": {
            "library": f"openskill {openskill.__version__}",
            "model": "PlackettLuce",
            "mu": PRIOR_MU,
            "sigma": PRIOR_SIGMA,
            "beta": BETA,
            "tau": TAU,
            "interval": f"mu ± {INTERVAL_Z:g} sigma",
            "ordinal": f"mu - {ORDINAL_Z:g} sigma",
            "updates": len(ranked),
            "order_shuffles": shuffles,
        },
        "ratings": entries,
        "pairwise": matrix,
    }


# -- the outputs ------------------------------------------------------------------------------


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def _num(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}"


def markdown(league: Mapping[str, Any], wall_time_s: float | None = None) -> str:
    """``league.md``: the settings, the rating table and the pairwise matrix."""
    r = league["rating"]
    solo = league["players"] == 1
    unit = "deals" if solo else "games"
    took = "" if wall_time_s is None else f" in {wall_time_s:.1f} s"
    seats = "solo" if solo else f"{league['players']} players"
    lines = [
        f"# League: {league['game']}, {seats}",
        "",
        f"{len(league['agents'])} agents, options {league['game_options'] or '{}'}, seed "
        f"{league['seed']}: {league['games_per_pairing']} {unit} per pairing on {league['deals']} "
        f"deals{took}. Ratings: {r['library']} {r['model']} (prior mu {r['mu']:g}, sigma "
        f"{r['sigma']:.3g}, beta {r['beta']:.3g}, tau {r['tau']:g}), {r['updates']} updates; "
        f"interval {r['interval']}, sorted by the ordinal {r['ordinal']}. Mu sd over orders: "
        f"the spread of mu over {r['order_shuffles']} random orders of the same games (the "
        "library updates online, one game at a time).",
        "",
        f"| rank | agent | mu | sigma | interval | ordinal | mu sd over orders | {unit} | score "
        "| 95% CI |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for rank, e in enumerate(league["ratings"], 1):
        lo, hi = e["interval"]
        ci = e["score_ci95"]
        lines.append(
            f"| {rank} | `{e['spec']}` | {e['mu']:.2f} | {e['sigma']:.2f} | "
            f"[{lo:.2f}, {hi:.2f}] | {e['ordinal']:.2f} | {_num(e['order_sd'])} | {e['games']} | "
            f"{_pct(e['score'])} | "
            f"[{_pct(ci[0])}, {_pct(ci[1])}] |"
        )
    order = [e["spec"] for e in league["ratings"]]
    lines += [
        "",
        f"## Pairwise (row's score against column over their {unit}: ahead 1, tie 1/2; "
        "Wilson 95% CI)",
        "",
        "| | " + " | ".join(f"`{s}`" for s in order) + " |",
        "|---|" + "---|" * len(order),
    ]
    for a in order:
        cells = []
        for b in order:
            if a == b:
                cells.append("—")
                continue
            c = league["pairwise"][a][b]
            cells.append(f"{_pct(c['score'])} [{_pct(c['ci95'][0])}, {_pct(c['ci95'][1])}]")
        lines.append(f"| `{a}` | " + " | ".join(cells) + " |")
    lines += ["", "![ratings](league.png)"]
    return "\n".join(lines) + "\n"


def plot(league: Mapping[str, Any], path: Path) -> None:
    """``league.png``: each agent's mu with its interval, best at the top, and its ordinal."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    entries = league["ratings"][::-1]
    y = range(len(entries))
    mus = [e["mu"] for e in entries]
    err = [
        [e["mu"] - e["interval"][0] for e in entries],
        [e["interval"][1] - e["mu"] for e in entries],
    ]
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.5 * len(entries)))
    ax.errorbar(mus, y, xerr=err, fmt="o", capsize=4, color="tab:blue", label="mu ± 2 sigma")
    ax.plot([e["ordinal"] for e in entries], y, "x", color="tab:red", label="ordinal mu - 3 sigma")
    labels = [
        s if len(s) <= PLOT_LABEL else "…" + s[1 - PLOT_LABEL :]
        for s in (e["spec"] for e in entries)
    ]
    ax.set_yticks(list(y), labels)
    ax.set_ylim(-0.5, len(entries) - 0.5)
    ax.set_xlabel("OpenSkill rating (Plackett–Luce)")
    ax.set_title(f"{league['game']} {league['players']}p league, {league['deals']} deals")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.3), ncol=2, fontsize=8)
    fig.tight_layout()
    report.save_figure(fig, path, PLOT_DPI)
    plt.close(fig)


def write_league(league: Mapping[str, Any], out: Path, wall_time_s: float | None) -> list[Path]:
    """``league.json``, ``league.md`` and ``league.png`` in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / name for name in FILES]
    write_atomic(paths[0], report.strict_json(league))
    write_atomic(paths[1], markdown(league, wall_time_s))
    plot(league, paths[2])
    return paths
