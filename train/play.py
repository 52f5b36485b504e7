"""``parlour play``: a person plays one seat in the terminal against agents.

```
parlour play audition [--players N] [--opponents SPEC ...] [--seat K] [--seed S]
parlour play guests [--players N] [--level L] [--opponents SPEC ...] [--seat K] [--seed S]
```

Each turn the public table is drawn (``render("ansi")``, 80 columns), then what only you may
know, then your legal moves numbered from 1 with short names ("3: place the 7 on slot 2 ...").
Type a number, or a move's name (or a unique start of it). Other commands:

| command | what it does |
|---|---|
| ``help`` | list the commands and the moves again |
| ``quit`` | leave the game (also end of input) |
| ``notebook`` | (Awkward Guests) your investigation sheet: suspects × motives proof boxes, rooms with excluded weapons and crossed-out passages, head counts, sightings, claims, conspiracy notes, candidates left |
| ``undo`` | (Awkward Guests) take back a half-built multi-step choice — asked references, an offer, the exchange, an accusation, a discard — before it is committed |

Bad input is explained and asked again; it never changes the game. The other seats are played by
agents built from ``--opponents`` spec strings (``random``, ``audition.greedy``,
``audition.expert``, ``guests.deducer``, ``ppo:PATH``; they fill the other seats cyclically;
default ``audition.greedy`` / ``guests.deducer``). Their moves are shown
as they happen, as an onlooker sees them (never which cards were offered, paid or discarded, nor
any accusation). At the end: scores and winners, and for Awkward Guests the full solution with a
small set of the case's cards that proves it.

Input is read line by line from standard input, so a session can be scripted
(``printf '1\\n1\\n...' | parlour play audition``).
"""

from __future__ import annotations

import argparse
import copy
import pickle
import sys
import textwrap
from dataclasses import dataclass
from typing import Any, TextIO

HELP = "play a game in the terminal against agents"


class QuitGame(Exception):
    """The person typed ``quit`` or the input ended."""


@dataclass
class Move:
    action: int
    name: str


class AuditionUI:
    """What ``play`` needs to know about Audition."""

    game = "audition"
    default_players = 2
    default_opponent = "audition.greedy"

    def make_env(self, players: int, args: argparse.Namespace) -> Any:
        from parlour.envs import audition_v0

        return audition_v0.raw_env(num_players=players, render_mode="ansi")

    def moves(self, env: Any, agent: str) -> list[Move]:
        from parlour.envs.audition.moves import describe

        view = env.player_view(agent)
        return [Move(a, describe(view, a)) for a in view.legal_actions]

    def private(self, env: Any, agent: str) -> str:
        view = env.player_view(agent)
        mine = f"You are {agent}. Your collection: {_cards(view.my_collection)}"
        if view.drawn:
            mine += f"\nYou drew a {view.drawn}."
        return mine

    def describe_other(self, before: Any, after: Any, seat: int, action: int) -> str:
        from parlour.envs.audition.moves import describe_public

        return describe_public(before, after, seat, action)

    def view(self, env: Any, agent: str) -> Any:
        return env.player_view(agent)

    def extra_commands(self) -> dict[str, str]:
        return {}

    def run_extra(self, command: str, env: Any, agent: str) -> str:  # pragma: no cover
        raise KeyError(command)

    def final(self, env: Any, results: dict) -> str:
        scores = ", ".join(f"{a}: {p}" for a, p in results["scores"].items())
        return f"Scores: {scores}\nWinner(s): {', '.join(results['winners'])}"


def _cards(counts: tuple[int, ...]) -> str:
    from parlour.envs.audition.moves import cards_text

    return cards_text(counts)


#: decision -> the multi-step choice it belongs to (``undo`` goes back to that choice's start)
_GUESTS_GROUPS = {
    "inquiry": "inquiry",
    "offer": "offer",
    "answer": "exchange",
    "pay": "exchange",
    "solution": "accusation",
    "murderer": "accusation",
    "motive": "accusation",
    "weapon": "accusation",
    "accomplice": "accusation",
    "accomplice_motive": "accusation",
    "discard": "discard",
}


class GuestsUI:
    """What ``play`` needs to know about Awkward Guests."""

    game = "guests"
    default_players = 3
    default_opponent = "guests.deducer"

    def make_env(self, players: int, args: argparse.Namespace) -> Any:
        from parlour.envs import awkward_guests_v0

        return awkward_guests_v0.raw_env(
            num_players=players, level=args.level or "easy", render_mode="ansi"
        )

    def moves(self, env: Any, agent: str) -> list[Move]:
        from parlour.envs.awkward_guests.moves import describe

        view = env.player_view(agent)
        return [Move(a, describe(view, a)) for a in view.legal_actions]

    def private(self, env: Any, agent: str) -> str:
        from parlour.envs.awkward_guests.moves import card_line

        view = env.player_view(agent)
        lines = [f"You are {agent}. Your hand ({len(view.hand)} cards):"]
        for h in view.hand:
            mark = "*" if h.selected else " "
            lines.append(f" {mark} {card_line(h.card, 10_000)}")
        if view.owed:
            lines.append(f"Still to pay: value {view.owed}.")
        if view.to_discard:
            lines.append(f"Still to discard: {view.to_discard} card(s).")
        acc = view.pending_accusation
        if acc is not None:
            parts = [x for x in (acc.murderer, acc.motive, acc.weapon, acc.accomplice) if x]
            lines.append("Your accusation so far: " + (", ".join(parts) or "-"))
        return "\n".join(lines)

    def describe_other(self, before: Any, after: Any, seat: int, action: int) -> str:
        from parlour.envs.awkward_guests.moves import describe_public

        return describe_public(before, after, seat, action)

    def view(self, env: Any, agent: str) -> Any:
        return env.player_view(agent)

    def group(self, env: Any, agent: str) -> str | None:
        return _GUESTS_GROUPS.get(env.player_view(agent).decision)

    def extra_commands(self) -> dict[str, str]:
        return {
            "notebook": "show your investigation sheet",
            "undo": "take back the half-built choice (asked references, offer, exchange, "
            "accusation or discard) before it is committed",
        }

    def run_extra(self, command: str, env: Any, agent: str) -> str:
        from parlour.envs.awkward_guests.moves import notebook_sheet

        if command == "notebook":
            return notebook_sheet(env.player_view(agent))
        raise KeyError(command)

    def final(self, env: Any, results: dict) -> str:
        from parlour.envs.awkward_guests.moves import card_line, proof

        case = env.game.case  # the game is over: the solution may be shown
        sol = case.solution
        lines = [
            f"Result: {results['result']}; winner(s): {', '.join(results['winners']) or 'none'}"
        ]
        lines.append(
            f"The solution: {sol.murderer} killed Mr. Walton for '{sol.motive}' with the "
            f"{sol.weapon}"
            + (
                f", helped by {sol.accomplice} ('{sol.accomplice_motive}')."
                if sol.accomplice
                else "."
            )
        )
        lines.append("The cards that prove it:")
        lines.extend("  " + card_line(c, 10_000) for c in proof(case))
        return "\n".join(lines)


UIS: dict[str, Any] = {"audition": AuditionUI(), "guests": GuestsUI()}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=sorted(UIS), help="the game to play")
    parser.add_argument("--players", type=int, default=None, help="number of seats")
    parser.add_argument(
        "--opponents", nargs="+", default=None, help="agent specs for the other seats"
    )
    parser.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the deal and the agents")
    parser.add_argument("--level", default=None, help="Awkward Guests case level (default easy)")


class Session:
    """One game between a person (reading ``stdin``) and agents, printing to ``out``."""

    def __init__(self, args: argparse.Namespace, stdin: TextIO, out: TextIO) -> None:
        from parlour.agents.factory import make_agent

        self.ui = UIS[args.game]
        self.stdin, self.out = stdin, out
        players = args.players or self.ui.default_players
        self.env = self.ui.make_env(players, args)
        n = len(self.env.possible_agents)
        if not 0 <= args.seat < n:
            raise ValueError(f"--seat must be in 0..{n - 1}, got {args.seat}")
        self.human = self.env.possible_agents[args.seat]
        specs = args.opponents or [self.ui.default_opponent]
        self.seed = args.seed
        self.agents = {}
        others = [a for a in self.env.possible_agents if a != self.human]
        for i, agent in enumerate(others):
            spec = specs[i % len(specs)]
            seed = None if args.seed is None else args.seed + 1 + i
            self.agents[agent] = make_agent(spec, self.ui.game, seed=seed)
            self.agents[agent].reset(seed)

    def say(self, text: str = "") -> None:
        """Print ``text`` with every line wrapped to 80 columns (continuations indented)."""
        for line in text.split("\n"):
            if len(line) <= 80:
                print(line, file=self.out)
                continue
            indent = " " * (len(line) - len(line.lstrip()) + 4)
            print(textwrap.fill(line, 80, subsequent_indent=indent), file=self.out)

    def run(self) -> int:
        env = self.env
        env.reset(seed=self.seed)
        self.say(f"You play {self.human}. Opponents: ")
        for agent, ag in self.agents.items():
            self.say(f"  {agent}: {getattr(ag, 'spec', type(ag).__name__)}")
        self.snapshot: tuple[str, Any] | None = None  # (choice group, env copy at its start)
        try:
            while self.env.agents:
                env = self.env
                agent = env.agent_selection
                if env.terminations[agent] or env.truncations[agent]:
                    env.step(None)
                    continue
                if agent == self.human:
                    action = self.ask()
                    if action is None:  # undo: the env was restored from the snapshot
                        continue
                    self.env.step(action)
                else:
                    self.snapshot = None
                    obs = env.observe(agent)
                    action = int(self.agents[agent].act(obs, env.player_view(agent)))
                    before = self.ui.view(env, self.human)
                    env.step(action)
                    after = self.ui.view(env, self.human)
                    seat = env.possible_agents.index(agent)
                    said = self.ui.describe_other(before, after, seat, action)
                    if said is not None:
                        self.say(f"{agent}: {said}")
        except QuitGame:
            self.say("You left the game.")
            return 0
        env = self.env
        self.say()
        self.say(env.render())
        self.say()
        self.say("Game over.")
        self.say(self.ui.final(env, env.unwrapped.results()))
        return 0

    def ask(self) -> int | None:
        """The person's next action; ``None`` after an ``undo`` restored the env."""
        env, ui = self.env, self.ui
        group = ui.group(env, self.human) if hasattr(ui, "group") else None
        if group is None:
            self.snapshot = None
        elif self.snapshot is None or self.snapshot[0] != group:
            self.snapshot = (group, copy.deepcopy(env))
        self.say()
        self.say(env.render())
        self.say(ui.private(env, self.human))
        moves = ui.moves(env, self.human)
        self.list_moves(moves)
        while True:
            self.out.write("> ")
            self.out.flush()
            line = self.stdin.readline()
            if not line:
                raise QuitGame
            text = line.strip().lower()
            if not text:
                continue
            if text == "quit":
                raise QuitGame
            if text == "help":
                self.say("Type a move's number or name; commands: help, quit")
                for name, what in ui.extra_commands().items():
                    self.say(f"  {name}: {what}")
                self.list_moves(moves)
                continue
            if text == "undo" and "undo" in ui.extra_commands():
                if self.snapshot is None or self._same_as_snapshot():
                    self.say("Nothing to undo: no half-built choice.")
                    continue
                self.env = copy.deepcopy(self.snapshot[1])
                self.say(f"Your {self.snapshot[0]} choice was taken back.")
                return None
            if text in ui.extra_commands():
                self.say(ui.run_extra(text, env, self.human))
                continue
            move = self.parse(text, moves)
            if isinstance(move, str):
                self.say(move)
                continue
            return move.action

    def _same_as_snapshot(self) -> bool:
        return self.snapshot is not None and pickle.dumps(self.snapshot[1].game) == pickle.dumps(
            self.env.game
        )

    def list_moves(self, moves: list[Move]) -> None:
        self.say("Your moves:")
        for i, m in enumerate(moves, 1):
            self.say(f"  {i}: {m.name}")

    @staticmethod
    def parse(text: str, moves: list[Move]) -> Move | str:
        """The chosen move, or a message explaining why ``text`` is not one."""
        if text.isdigit():
            k = int(text)
            if 1 <= k <= len(moves):
                return moves[k - 1]
            return f"There is no move {k}: type a number from 1 to {len(moves)}."
        exact = [m for m in moves if m.name.lower() == text]
        if exact:
            return exact[0]
        starts = [m for m in moves if m.name.lower().startswith(text)]
        if len(starts) == 1:
            return starts[0]
        if len(starts) > 1:
            return f"'{text}' fits {len(starts)} moves; type more of the name or its number."
        return f"'{text}' is not a move or a command (type help)."


def run(args: argparse.Namespace, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    try:
        session = Session(args, stdin or sys.stdin, out or sys.stdout)
    except ValueError as exc:
        print(f"parlour play: {exc}", file=sys.stderr)
        return 2
    return session.run()
