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
* **rules**: the win share per seat of a player who plays as the plain deducer but accuses (a
  candidate drawn at random) at the first Solution phase where a rule fires with two or more
  candidates left. Since waiting changes nothing, each seat of each logged game is scored
  exactly, without playing it again: the guess is right with probability ``1 / candidates``
  (a win shared with any other player who accuses rightly in that phase); if the rule never
  fires, the logged result. The ``oracle`` row knows when another player has one candidate left
  (not playable: it reads hidden notebooks) and bounds what any such signal can add.

docs/guests_training.md, "4 players, medium: reading the other players", quotes this output.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from parlour.envs.awkward_guests.case import LEVELS
from parlour.envs.awkward_guests.env import raw_env
from parlour.games.guests.deducer import DeducerAgent

#: rule rows: (name, max candidates when the signal fires); None: no cap
RULE_CAPS = (8, None)


@dataclass
class Phase:
    """One Solution phase of a logged game (the first of its round), per seat."""

    candidates: list[int]
    declined_all: list[bool]  # declined every bid of its turn this round (at least one)
    declined_some: list[bool]  # declined at least one bid of its turn this round


@dataclass
class LoggedGame:
    phases: list[Phase] = field(default_factory=list)
    winners: tuple[int, ...] = ()


def _phase(env, agents: list[DeducerAgent]) -> Phase:
    views = [env.player_view(a) for a in env.possible_agents]
    turns = views[0].last_turns
    phase = Phase([], [], [])
    for seat, view in enumerate(views):
        turn = turns[seat]
        this_round = turn is not None and turn.round == view.round and bool(turn.bids)
        declined = [not b.accepted for b in turn.bids] if this_round else []
        phase.candidates.append(len(agents[seat].candidates(view)))
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


def guess_value(game: LoggedGame, seat: int, rule: Rule) -> float:
    """The win share of ``seat`` playing as logged but guessing where ``rule`` first fires."""
    for phase in game.phases:
        k = phase.candidates
        if k[seat] == 1:
            break  # (it accuses rightly now: the logged result)
        if rule(phase, seat):
            sure = sum(1 for j, c in enumerate(k) if j != seat and c == 1)
            return 1.0 / k[seat] / (1 + sure)
    return 1.0 / len(game.winners) if seat in game.winners else 0.0


def _other(flags: list[bool], seat: int) -> bool:
    return any(f for j, f in enumerate(flags) if j != seat)


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
    for name, rule in rules().items():
        values = [guess_value(g, s, rule) for g in games for s in range(seats)]
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
    print(rule_table(games))


if __name__ == "__main__":
    main()
