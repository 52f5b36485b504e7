"""What a declined bid tells about an Awkward Guests deducer, and what guessing on it is worth.

```
.venv/bin/python tools/guests_declines.py --games 3000 --seed 100000
```

(about 0.1 s per game; 3,000 games take 5 min on one core). Plays ``--games`` games of four
plain ``guests.deducer`` (``--players``, ``--level``), and at every Solution phase notes for each
seat the candidates its notebook leaves and whether it declined every bid of its turn this round
(at least one bid), or some bid. It prints two tables:

* **signal**: of the turns whose every bid (or some bid) was declined, the share taken by a
  player with one candidate left — who then accuses, rightly, in this very Solution phase;
* **guess**: at each seat's first Solution phase with 2 to :data:`RARE_MAX` candidates left,
  the chance that a guess names the solution: a candidate drawn at random (``1 / candidates``),
  one drawn among :func:`~parlour.games.guests.deducer.rarest_candidates`
  (``guests.deducer:pick=rare``) and one among the likeliest under the case generator's odds
  (``pick=likely``, :meth:`~parlour.games.guests.deducer.DeducerAgent.likeliest`), by
  candidates left;
* **rules**: the win share per seat of a player who plays as the plain deducer but accuses (a
  candidate drawn at random, with ``pick=rare`` among the rarest, with ``pick=likely`` among the
  likeliest) at the first Solution phase where a rule fires with two or more candidates left; the
  ``pick=likely`` rows include the rules of ``guests.deducer:threat=64,odds=0.6,pick=likely``
  (:func:`likely_rules`: the likeliest candidate's chance reaches 0.6, or another player declined
  every bid with at most 64 candidates left, or either). Since waiting changes nothing, each seat of each logged game is scored
  exactly, without playing it again: the guess is right with probability ``1 / candidates``
  (``pick=rare`` / ``pick=likely``: the share of the rarest / likeliest candidates that is the
  solution, 0 or ``1 / their number``; a win shared with any other player who accuses rightly in that phase); if the rule never
  fires, the logged result. The ``oracle`` row knows when another player has one candidate left
  (not playable: it reads hidden notebooks) and bounds what any such signal can add.

docs/guests_training.md, "4 players, medium: reading the other players" and "… which candidate to
guess" and "… the generator's odds", quotes this output.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from parlour.envs.awkward_guests.case import LEVELS
from parlour.envs.awkward_guests.env import raw_env
from parlour.games.guests.deducer import DeducerAgent, rarest_candidates

#: rule rows: (name, max candidates when the signal fires); None: no cap
RULE_CAPS = (8, None)
#: a ``pick=rare`` guess is scored with at most this many candidates left (the cap of the
#: ``pick=rare`` rule row; :func:`rarest_candidates` of every seat at every phase would be slow)
RARE_MAX = 8
#: the ``pick=likely`` rule rows: (``threat`` cap, ``odds``) as ``guests.deducer``'s options
LIKELY_RULE = (64, 0.6)


@dataclass
class Phase:
    """One Solution phase of a logged game (the first of its round), per seat."""

    candidates: list[int]
    declined_all: list[bool]  # declined every bid of its turn this round (at least one)
    declined_some: list[bool]  # declined at least one bid of its turn this round
    # the chance that a pick=rare guess is right now (candidates 2..RARE_MAX), else None
    rare_right: list[float | None] = field(default_factory=list)
    # the chance that a pick=likely guess is right now, and the likeliest candidate's odds
    likely_right: list[float] = field(default_factory=list)
    likely_chance: list[float] = field(default_factory=list)


@dataclass
class LoggedGame:
    phases: list[Phase] = field(default_factory=list)
    winners: tuple[int, ...] = ()


def _phase(env, agents: list[DeducerAgent]) -> Phase:
    views = [env.player_view(a) for a in env.possible_agents]
    turns = views[0].last_turns
    truth = env.game.case.solution
    phase = Phase([], [], [])
    for seat, view in enumerate(views):
        turn = turns[seat]
        this_round = turn is not None and turn.round == view.round and bool(turn.bids)
        declined = [not b.accepted for b in turn.bids] if this_round else []
        candidates = agents[seat].candidates(view)
        phase.candidates.append(len(candidates))
        rare = rarest_candidates(candidates) if 2 <= len(candidates) <= RARE_MAX else None
        phase.rare_right.append(None if rare is None else (truth in rare) / len(rare))
        likeliest, chance = agents[seat].likeliest(view)
        phase.likely_right.append((truth in likeliest) / len(likeliest) if likeliest else 0.0)
        phase.likely_chance.append(chance)
        phase.declined_all.append(bool(declined) and all(declined))
        phase.declined_some.append(any(declined))
    return phase


def play_logged(games: int, seed: int, players: int, level: str) -> list[LoggedGame]:
    """``games`` games of plain deducers seeded ``seed``, ``seed + 1``, … (logged)."""
    env = raw_env(num_players=players, level=level)
    agents = [DeducerAgent() for _ in range(players)]
    out = []
    for g in range(games):
        env.reset(seed=seed + g)
        for i, agent in enumerate(agents):
            agent.reset(seed=(seed + g) * players + i)
        log, last_round = LoggedGame(), 0
        for name in env.agent_iter():
            _, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            view = env.player_view(name)
            if view.decision == "solution" and view.round != last_round:
                last_round = view.round
                log.phases.append(_phase(env, agents))
            env.step(agents[env.agent_name_mapping[name]].act({}, view))
        log.winners = tuple(env.game.winners)
        out.append(log)
    return out


Rule = Callable[[Phase, int], bool]


def guess_value(game: LoggedGame, seat: int, rule: Rule, pick: str = "uniform") -> float:
    """The win share of ``seat`` playing as logged but guessing where ``rule`` first fires
    (``pick``: as ``guests.deducer``'s option; ``rare`` only where at most :data:`RARE_MAX`
    candidates are left)."""
    for phase in game.phases:
        k = phase.candidates
        if k[seat] == 1:
            break  # (it accuses rightly now: the logged result)
        if rule(phase, seat):
            sure = sum(1 for j, c in enumerate(k) if j != seat and c == 1)
            if pick == "uniform":
                right: float | None = 1.0 / k[seat]
            else:
                right = (phase.rare_right if pick == "rare" else phase.likely_right)[seat]
            if right is None:
                raise ValueError(f"pick=rare is scored with at most {RARE_MAX} candidates left")
            return right / (1 + sure)
    return 1.0 / len(game.winners) if seat in game.winners else 0.0


def _other(flags: list[bool], seat: int) -> bool:
    return any(f for j, f in enumerate(flags) if j != seat)


def guess_table(games: list[LoggedGame]) -> str:
    """By candidates left, at each seat's first Solution phase with 2..RARE_MAX of them: how
    often a random guess, a ``pick=rare`` and a ``pick=likely`` guess name the solution."""
    # candidates -> [moments, random right, rare right, likely right]
    rows: dict[int, list[float]] = {}
    for game in games:
        seats = len(game.phases[0].candidates) if game.phases else 0
        for seat in range(seats):
            for phase in game.phases:
                right = phase.rare_right[seat]
                if right is not None:
                    row = rows.setdefault(phase.candidates[seat], [0, 0.0, 0.0, 0.0])
                    row[0] += 1
                    row[1] += 1.0 / phase.candidates[seat]
                    row[2] += right
                    row[3] += phase.likely_right[seat]
                    break
    lines = [
        "| candidates left | moments | random guess right | pick=rare right | pick=likely right |",
        "|---|---|---|---|---|",
    ]
    total = [0, 0.0, 0.0, 0.0]
    for k in sorted(rows):
        total = [t + x for t, x in zip(total, rows[k], strict=True)]
        lines.append(_guess_row(str(k), rows[k]))
    if total[0]:
        lines.append(_guess_row(f"2–{RARE_MAX}", total))
    return "\n".join(lines)


def _guess_row(label: str, row: list[float]) -> str:
    n, uniform, rare, likely = row
    return f"| {label} | {n} | {uniform / n:.1%} | {rare / n:.1%} | {likely / n:.1%} |"


def rules() -> dict[str, Rule]:
    out: dict[str, Rule] = {
        "plain deducer (never guesses)": lambda ph, s: False,
        "guess with 2 candidates left": lambda ph, s: ph.candidates[s] <= 2,
    }
    for signal in ("declined_all", "declined_some"):
        for cap in RULE_CAPS:
            limit = cap if cap is not None else math.inf
            name = f"{signal}, at most {cap} candidates" if cap else f"{signal}, any candidates"
            out[name] = lambda ph, s, sig=signal, lim=limit: (
                ph.candidates[s] <= lim and _other(getattr(ph, sig), s)
            )
    out["oracle: another player has one candidate"] = lambda ph, s: any(
        c == 1 for j, c in enumerate(ph.candidates) if j != s
    )
    return out


def likely_rules() -> dict[str, Rule]:
    """The rules of ``guests.deducer:threat=K,odds=Q,pick=likely`` (scored with ``pick=likely``):
    the likeliest candidate's odds reach ``Q``, or another player declined every bid with at most
    ``K`` candidates left."""
    cap, odds = LIKELY_RULE

    def declined(ph: Phase, s: int) -> bool:
        return ph.candidates[s] <= cap and _other(ph.declined_all, s)

    def likely(ph: Phase, s: int) -> bool:
        return ph.likely_chance[s] >= odds

    return {
        f"declined_all, at most {cap} candidates, pick=likely": declined,
        f"likeliest candidate's odds >= {odds}, pick=likely": likely,
        f"either (threat={cap},odds={odds},pick=likely)": lambda ph, s: (
            declined(ph, s) or likely(ph, s)
        ),
    }


def signal_table(games: list[LoggedGame]) -> str:
    lines = ["| signal | turns | one candidate left | share |", "|---|---|---|---|"]
    for signal in ("declined_all", "declined_some"):
        turns = sure = 0
        for game in games:
            for phase in game.phases:
                for flag, k in zip(getattr(phase, signal), phase.candidates, strict=True):
                    turns += flag
                    sure += flag and k == 1
        share = f"{sure / turns:.1%}" if turns else "-"
        lines.append(f"| {signal} | {turns} | {sure} | {share} |")
    return "\n".join(lines)


def rule_table(games: list[LoggedGame]) -> str:
    seats = len(games[0].phases[0].candidates) if games and games[0].phases else 0
    lines = ["| rule | win share per seat | ± 1 s.e. |", "|---|---|---|"]
    rows = [(name, rule, "uniform") for name, rule in rules().items()]
    capped = f"declined_all, at most {RARE_MAX} candidates"
    rows.insert(-1, (f"{capped}, pick=rare", rules()[capped], "rare"))
    rows.insert(-1, (f"{capped}, pick=likely", rules()[capped], "likely"))
    for name, rule in likely_rules().items():
        rows.insert(-1, (name, rule, "likely"))
    for name, rule, pick in rows:
        values = [guess_value(g, s, rule, pick) for g in games for s in range(seats)]
        n = len(values)
        mean = sum(values) / n
        se = (sum((v - mean) ** 2 for v in values) / n) ** 0.5 / n**0.5
        lines.append(f"| {name} | {mean:.1%} | {se:.1%} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=100000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--level", default="medium", choices=LEVELS)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be >= 1, got {args.games}")
    if not 2 <= args.players <= 8:
        parser.error(f"--players must be 2..8, got {args.players}")
    games = play_logged(args.games, args.seed, args.players, args.level)
    print(signal_table(games))
    print()
    print(guess_table(games))
    print()
    print(rule_table(games))


if __name__ == "__main__":
    main()
