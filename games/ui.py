"""The user-interface parts of a :class:`~parlour.games.Game`: the terminal and the web page.

| part | used by | hooks |
|---|---|---|
| :class:`TerminalUI` (``Game.terminal``) | ``parlour play`` (:mod:`parlour.apps.play`); the web page's move names and move descriptions | ``default_players``, ``default_opponent``, ``add_arguments``, ``env_options``, ``moves`` (abstract), ``private`` (abstract), ``view``, ``describe_other`` (abstract), ``group``, ``extra_commands``, ``run_extra``, ``final`` (abstract) |
| :class:`WebUI` (``Game.web``) | ``parlour serve`` (:mod:`parlour.apps.web`), beside the terminal UI (a game with a terminal UI and no web part gets these defaults) | ``options``, ``rules``, ``view``, ``prompt``, ``target``, ``reveal``, ``script`` |

A game subclasses either and fills in the abstract methods; the rest have working defaults. The
parts hold no state: one instance serves every game of a process.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from importlib import resources
from typing import Any


@dataclass
class Move:
    action: int
    name: str


class TerminalUI:
    """What ``parlour play`` needs to know about a game (a plug-in's ``Game.terminal``).

    A game subclasses it and fills in the abstract methods; the rest have working defaults.
    """

    #: seats when ``--players`` is not given; the agent spec of the other seats by default when
    #: no shipped model is the default for the table (:func:`default_opponent`)
    default_players: int = 2
    default_opponent: str = "random"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add the game's own ``parlour play GAME`` flags (none by default)."""

    def env_options(self, args: argparse.Namespace) -> dict[str, Any]:
        """Game options from the game's own flags (``--option`` ones come on top)."""
        return {}

    def moves(self, env: Any, agent: str) -> list[Move]:
        """The person's legal moves with short readable names."""
        raise NotImplementedError

    def private(self, env: Any, agent: str) -> str:
        """What only the person may know (their hand, a drawn card, ...)."""
        raise NotImplementedError

    def view(self, env: Any, agent: str) -> Any:
        """The person's view, compared before and after another seat's move."""
        return env.player_view(agent)

    def describe_other(self, before: Any, after: Any, seat: int, action: int) -> str | None:
        """Another seat's move as an onlooker sees it (None: say nothing)."""
        raise NotImplementedError

    def group(self, env: Any, agent: str) -> str | None:
        """The multi-step choice the person's decision belongs to (``undo`` goes back to its
        start; None: a single-step decision)."""
        return None

    def extra_commands(self) -> dict[str, str]:
        """The game's own prompt commands -> help text (``undo`` turns on taking back a
        half-built choice of :meth:`group`)."""
        return {}

    def run_extra(self, command: str, env: Any, agent: str) -> str:
        """The text an extra command shows."""
        raise KeyError(command)

    def final(self, env: Any, results: dict[str, Any], agent: str | None = None) -> str:
        """The end of the game (``results`` is the env's ``results()``): scores, winners, what
        was hidden; ``agent``: the person's seat, to word the outcome from their point of view
        (None: an onlooker's words)."""
        raise NotImplementedError


class WebUI:
    """What the ``parlour serve`` page shows of a game (a plug-in's ``Game.web``)."""

    def options(self) -> list[dict[str, Any]]:
        """The game's own fields of the page's new-game form: ``{"name", "label", "choices",
        "default"}`` each (``choices``: a list, or ``"bool"``); none by default."""
        return []

    def rules(self) -> list[dict[str, str]]:
        """The page's rules panel: short sections ``{"heading", "text"}`` (plain text; a blank
        line separates paragraphs); none by default."""
        return []

    def prompt(self, env: Any, agent: str) -> str | None:
        """One plain sentence telling ``agent`` what to do now (called only when it decides);
        None: the page says "Your move"."""
        return None

    def view(self, env: Any, agent: str, hints: bool = False) -> Any:
        """What the page shows the seat ``agent``: built from ``env.player_view(agent)`` only
        (``hints``: add the game's optional aids, e.g. a deduction count)."""
        return {"view": env.player_view(agent)}

    def target(self, env: Any, agent: str, action: int) -> str | None:
        """The page element a legal move is made by clicking (e.g. ``"slot:2"``); None: a
        button with the move's name."""
        return None

    def reveal(self, env: Any, results: dict[str, Any] | None) -> dict[str, Any]:
        """What the page shows once the game is over (``results``) or in an omniscient replay
        (``results`` None while the game runs): scores, winners, what was hidden."""
        return {"results": results}

    def script(self) -> str | None:
        """The page's drawing of the game: JavaScript that registers
        ``PARLOUR_GAMES[name] = {render(el, view, ctx), final(el, final, ctx)}``, served as
        ``/games/<name>.js`` (:func:`package_script` reads it from the plug-in's package); None:
        the page shows the JSON view and the moves as buttons."""
        return None


def package_script(package: str, filename: str) -> str:
    """The text of ``filename`` in ``package`` (a plug-in's page script, package data)."""
    return resources.files(package).joinpath(filename).read_text(encoding="utf-8")
