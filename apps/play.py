"""``parlour play``: a person plays one seat in the terminal against agents.

```
parlour play GAME [--players N] [--opponents SPEC ...] [--seat K] [--seed S] [--option K=V] [game flags]
parlour play audition --players 3
parlour play guests --level medium
```

``GAME`` is any game with a terminal UI (``Game.terminal``, a :class:`~parlour.games.ui.TerminalUI`): a registered
name or ``module:ATTR`` (:mod:`parlour.games`). What is game-specific — move names, what
only you may know, how other seats' moves look to you, the end of the game, the game's own
flags and commands — comes from that UI; this module only runs the session.

| game | its flags | its commands |
|---|---|---|
| ``audition`` | — | — |
| ``guests`` | ``--level L`` (case level, default easy) | ``notebook`` (your investigation sheet), ``undo`` (take back a half-built multi-step choice: asked references, an offer, the exchange, an accusation, a discard) |

Each turn the public table is drawn (``render("ansi")``, 80 columns), then what only you may
know, then your legal moves numbered from 1 with short names ("3: place the 7 on slot 2 ...").
Type a number, or a move's name (or a unique start of it). Other commands:

| command | what it does |
|---|---|
| ``help`` | list the commands (also the game's own) and the moves again |
| ``quit`` | leave the game (also end of input) |

Bad input is explained and asked again; it never changes the game. The other seats are played by
agents built from ``--opponents`` spec strings (``random``, ``ppo:PATH``, ``ppo:NAME`` of a
shipped model, the game's scripted agents; they fill the other seats cyclically). Without
``--opponents`` they are the strongest shipped model for the game and player count (the
registry's ``default``, :mod:`parlour.models`; ``parlour models`` lists them) when one is shipped
whose game options agree with the table's (:func:`options_agree`), else the UI's
``default_opponent`` (Audition: ``audition.greedy``, Awkward Guests: ``guests.deducer``). Their
moves are shown as they happen, as an onlooker sees them. ``--option KEY=VALUE`` passes a game
constructor option (YAML value), as in ``parlour eval``; a seated shipped model adds the options
it was trained with that the table leaves unset (:func:`parlour.models.seat_options`, e.g. the
observation mode of an Awkward Guests model).

Input is read line by line from standard input, so a session can be scripted
(``printf '1\\n1\\n...' | parlour play audition``).
"""

from __future__ import annotations

import argparse
import copy
import importlib.util
import inspect
import pickle
import sys
import textwrap
from typing import TYPE_CHECKING, Any, TextIO

from parlour.agents.factory import check_agents_fit
from parlour.games.arguments import game_argument, parse_options, trust_argument
from parlour.games.ui import Move, TerminalUI
from parlour.models import default_model, seat_options

if TYPE_CHECKING:
    from parlour.games import Game

HELP = "play a game in the terminal against agents"
#: every printed line is wrapped to this width; continuations are indented by this much more
SCREEN_WIDTH = 80
CONTINUATION_INDENT = 4
#: the longest input line read (a longer one is dropped, a chunk at a time, and refused)
MAX_INPUT_CHARS = 200


class QuitGame(Exception):
    """The person typed ``quit`` or the input ended."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game", type=game_argument, help="the game (a name, or 'module:ATTR' naming a Game)"
    )
    parser.add_argument("--players", type=int, default=None, help="number of seats")
    parser.add_argument(
        "--opponents", nargs="+", default=None, help="agent specs for the other seats"
    )
    parser.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the deal and the agents")
    parser.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="game option (YAML)"
    )
    trust_argument(parser, "the opponents")
    parser.set_defaults(extra_args=True)  # the game's own flags follow (TerminalUI.add_arguments)


def options_agree(spec: Game, model_options: dict, table_options: dict) -> bool:
    """Whether a model trained with ``model_options`` fits a table set to ``table_options``:
    every option the table sets has the model's value (the env's default where it set none)."""
    defaults = spec.option_defaults()
    missing = object()
    return all(
        model_options.get(key, defaults.get(key, missing)) == value
        for key, value in table_options.items()
    )


def default_opponent(spec: Game, ui: TerminalUI, players: int, options: dict) -> str:
    """The agent seated when no opponents are named: the registry's default model for this game
    and player count whose options agree with the table's (:func:`options_agree`), as
    ``ppo:NAME``; else (or without the ``train`` extra) the UI's ``default_opponent``."""
    if importlib.util.find_spec("sb3_contrib") is None:
        return ui.default_opponent
    model = default_model(spec.name, players, lambda o: options_agree(spec, o, options))
    return ui.default_opponent if model is None else f"ppo:{model.name}"


def parse_game_flags(spec: Game, ui: TerminalUI, args: argparse.Namespace) -> None:
    """Parse the game's own flags (``args.extra``, after the generic ones) into ``args``."""
    parser = argparse.ArgumentParser(prog=f"parlour play {spec.name}", add_help=False)
    ui.add_arguments(parser)
    parser.parse_args(getattr(args, "extra", None) or [], namespace=args)


class Session:
    """One game between a person (reading ``stdin``) and agents, printing to ``out``."""

    def __init__(self, args: argparse.Namespace, stdin: TextIO, out: TextIO) -> None:
        from parlour.agents.factory import make_agent
        from parlour.games import get_game, make_raw_env

        self.spec = get_game(args.game)
        if self.spec.terminal is None:
            raise ValueError(f"{self.spec.name} has no terminal UI (Game.terminal)")
        self.ui = self.spec.terminal
        parse_game_flags(self.spec, self.ui, args)
        self.stdin, self.out = stdin, out
        players = self.ui.default_players if args.players is None else args.players
        options = self.ui.env_options(args) | parse_options(getattr(args, "option", None) or [])
        specs = args.opponents or [default_opponent(self.spec, self.ui, players, options)]
        options = seat_options(specs, options)
        try:
            self.env = make_raw_env(self.spec, players, render_mode="ansi", **options)
        except TypeError as exc:  # an option the game's env does not take
            raise ValueError(f"--option: {exc}") from None
        n = len(self.env.possible_agents)
        if args.seed is not None and args.seed < 0:
            raise ValueError(f"--seed must be >= 0, got {args.seed}")
        if not 0 <= args.seat < n:
            raise ValueError(f"--seat must be in 0..{n - 1}, got {args.seat}")
        self.human = self.env.possible_agents[args.seat]
        self.seed = args.seed
        self.agents = {}
        others = [a for a in self.env.possible_agents if a != self.human]
        for i, agent in enumerate(others):
            spec = specs[i % len(specs)]
            seed = None if args.seed is None else args.seed + 1 + i
            self.agents[agent] = make_agent(
                spec, self.spec, seed=seed, players=n, trust=getattr(args, "trust_model", False)
            )
            self.agents[agent].reset(seed)
        check_agents_fit(self.agents.values(), self.env)

    def say(self, text: str = "") -> None:
        """Print ``text`` with every line wrapped to 80 columns (continuations indented)."""
        for line in text.split("\n"):
            if len(line) <= SCREEN_WIDTH:
                print(line, file=self.out)
                continue
            indent = " " * (len(line) - len(line.lstrip()) + CONTINUATION_INDENT)
            print(textwrap.fill(line, SCREEN_WIDTH, subsequent_indent=indent), file=self.out)

    def run(self) -> int:
        from parlour.agents.factory import describe

        env = self.env
        env.reset(seed=self.seed)
        self.say(f"You play {self.human}. Opponents: ")
        for agent, ag in self.agents.items():
            self.say(f"  {agent}: {describe(ag)}")
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
        self.say(final_text(self.ui, env, env.unwrapped.results(), self.human))
        return 0

    def ask(self) -> int | None:
        """The person's next action; ``None`` after an ``undo`` restored the env."""
        env, ui = self.env, self.ui
        group = ui.group(env, self.human)
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
            line = self.stdin.readline(MAX_INPUT_CHARS + 1)
            if not line:
                raise QuitGame
            if len(line) > MAX_INPUT_CHARS and not line.endswith("\n"):
                self._skip_rest_of_line()
                self.say(f"That line is too long (more than {MAX_INPUT_CHARS} characters).")
                continue
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

    def _skip_rest_of_line(self) -> None:
        """Read and drop the rest of an over-long line, a bounded chunk at a time."""
        while True:
            chunk = self.stdin.readline(MAX_INPUT_CHARS)
            if not chunk or chunk.endswith("\n"):
                return

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
        if text.isascii() and text.isdigit():  # (not "²" or "①", which isdigit() accepts)
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


def final_text(ui: TerminalUI, env: Any, results: dict[str, Any], agent: str) -> str:
    """The UI's end of the game, worded for the person's seat ``agent`` when its ``final``
    takes the ``agent`` keyword (older UIs: their own words)."""
    if "agent" in inspect.signature(ui.final).parameters:
        return ui.final(env, results, agent=agent)
    return ui.final(env, results)


def run(args: argparse.Namespace, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    try:
        session = Session(args, stdin or sys.stdin, out or sys.stdout)
    except (ValueError, FileNotFoundError) as exc:
        print(f"parlour play: {exc}", file=sys.stderr)
        return 2
    return session.run()
