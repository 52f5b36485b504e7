"""What the ``parlour serve`` page may choose: the agents and game options the server offers.

The browser names only ids of this catalog; the server turns them into agent specs and env
options itself, so no file path and no free-form spec or option from HTTP reaches
``make_agent`` or ``make_raw_env``.

| offered | catalog id | built as |
|---|---|---|
| every scripted agent of the game (``random``, ``audition.expert``, plug-in agents...) | its name | the name, with the agent's default options (bounded cost) |
| a model shipped with parlour for this game, at its own player count only | ``ppo:NAME``, ``audition.search:model=NAME`` | the same spec |
| model ``K`` (1, 2, ...) given by the operator (``parlour serve --model PATH``, ``runs/*/model.safetensors``) | ``ppo:#K``, ``audition.search:model=#K`` | ``ppo:PATH``, ``audition.search:model=PATH`` (loaded untrusted: ``make_agent``'s default) |
| a game option | its ``Game.web.options()`` name | one of its ``choices`` (``"bool"``: true or false) |

An opponent that is not offered at the table (game and player count) is refused with one and
the same message, whatever it names (:meth:`Catalog.resolve_opponents`), so the server tells
nothing about files. An uploaded replay may set only the game options of the catalog and those
the game's shipped models were trained with (:meth:`Catalog.check_replay_options`).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.agents.factory import known_agents, model_agents
from parlour.apps.web.errors import WebError
from parlour.apps.web.views import web_part
from parlour.games import all_games
from parlour.models import read_index

#: the catalog id of the operator's model ``K`` (``ppo:#K``) and its marker in model options
OPERATOR_MARK = "#"


def shipped_for_page(spec: Any) -> list[dict[str, Any]]:
    """The shipped models of the game ``spec`` (:mod:`parlour.models`) with their seat count, game
    options, ``default`` flag and card summary — each as ``ppo:NAME`` and as every search agent
    built on a model (``audition.search:model=NAME``, never a default); none without the
    ``train`` extra (torch) to play them."""
    if importlib.util.find_spec("sb3_contrib") is None:
        return []
    out: list[dict[str, Any]] = []
    for m in read_index():
        if m.game != spec.name or not m.path.is_file():
            continue
        entry = {"players": m.players, "game_options": m.game_options, "summary": m.summary()}
        out.append({"spec": f"ppo:{m.name}", "default": m.default, **entry})
        for agent in model_agents(spec):
            summary = f"{agent} on ppo:{m.name}: {m.summary()}"
            out.append(
                {**entry, "spec": f"{agent}:model={m.name}", "default": False, "summary": summary}
            )
    return out


class Catalog:
    """The catalog of a server whose operator gave the model files ``models`` (see the module
    docstring). The shipped models are read on each call (the registry may change)."""

    def __init__(self, models: Sequence[str]) -> None:
        #: id number -> the operator's model file
        self.models = {f"{OPERATOR_MARK}{k}": str(path) for k, path in enumerate(models, 1)}

    def operator_agents(self, spec: Any) -> dict[str, tuple[str, str]]:
        """id -> (spec built, label shown) of the operator's models, for the game ``spec``."""
        out: dict[str, tuple[str, str]] = {}
        for mark, path in self.models.items():
            out[f"ppo:{mark}"] = (f"ppo:{path}", f"ppo:{path}")
            for name in model_agents(spec):
                out[f"{name}:model={mark}"] = (f"{name}:model={path}", f"{name}:model={path}")
        return out

    def games(self) -> list[dict[str, Any]]:
        """Every game with a UI, its seats, its own options and the agents offered for it
        (``agents``: ids at any player count, ``labels``: the operator's models' names,
        ``shipped``: the shipped models with their player count)."""

        games = []
        for spec in all_games():
            web = web_part(spec)
            if web is None:
                continue
            ui = spec.terminal
            operator = self.operator_agents(spec)
            games.append(
                {
                    "name": spec.name,
                    "min_players": spec.min_players,
                    "max_players": spec.max_players,
                    "default_players": ui.default_players,
                    "default_opponent": ui.default_opponent,
                    "options": web.options(),
                    "rules": web.rules(),
                    "script": web.script() is not None,
                    "agents": known_agents(spec) + list(operator),
                    "labels": {key: label for key, (_, label) in operator.items()},
                    "shipped": shipped_for_page(spec),
                }
            )
        return games

    def script(self, name: str) -> str | None:
        """The page script of the offered game ``name`` (None: no such game, or no script)."""
        for spec in all_games():
            web = web_part(spec)
            if spec.name == name and web is not None:
                return web.script()
        return None

    def offered(self, spec: Any, players: int) -> dict[str, str]:
        """id -> agent spec of every agent offered at a ``players``-seat table of ``spec``."""
        out = {name: name for name in known_agents(spec)}
        out.update(
            {m["spec"]: m["spec"] for m in shipped_for_page(spec) if m["players"] == players}
        )
        out.update({key: built for key, (built, _) in self.operator_agents(spec).items()})
        return out

    def resolve_opponents(self, spec: Any, players: int, ids: Any) -> list[str]:
        """The agent specs of the catalog ids ``ids``; any id not offered at this table is
        refused with the same message (it depends on the table only)."""
        offered = self.offered(spec, players)
        if not isinstance(ids, list) or not ids or len(ids) > spec.max_players:
            raise WebError(
                f"opponents must be a list of 1..{spec.max_players} agents of the catalog "
                f"(GET /api/catalog)"
            )
        if not all(isinstance(i, str) and i in offered for i in ids):
            raise WebError(
                f"opponents: every opponent must be one of the agents offered for "
                f"{players}-player {spec.name} (GET /api/catalog): {sorted(offered)}"
            )
        return [offered[i] for i in ids]

    @staticmethod
    def check_options(spec: Any, options: Any) -> dict[str, Any]:
        """``options`` if each is one of the game's ``Game.web.options()`` with an offered value."""
        return _check_choices(spec, options, _web_choices(spec), "options")

    @staticmethod
    def check_replay_options(spec: Any, options: Any) -> dict[str, Any]:
        """The options of an uploaded replay: the catalog's, and those the game's shipped models
        were trained with (e.g. ``observation_mode``)."""
        choices = _web_choices(spec)
        for m in read_index():
            if m.game == spec.name:
                for key, value in m.game_options.items():
                    choices.setdefault(key, [])
                    if value not in choices[key]:
                        choices[key].append(value)
        return _check_choices(spec, options, choices, "replay: options")


def _web_choices(spec: Any) -> dict[str, list[Any]]:
    choices: dict[str, list[Any]] = {}
    for o in web_part(spec).options():
        choices[o["name"]] = [False, True] if o["choices"] == "bool" else list(o["choices"])
    return choices


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b  # (True is not the choice 1)


def _check_choices(
    spec: Any, options: Any, choices: Mapping[str, list[Any]], what: str
) -> dict[str, Any]:
    if not isinstance(options, Mapping):
        raise WebError(f"{what} must be a JSON object of game options, got {options!r}")
    for key, value in options.items():
        if key not in choices:
            raise WebError(
                f"{what}: {spec.name} has no option {key!r} on this page; "
                f"allowed: {sorted(choices)}"
            )
        if not any(_same(value, c) for c in choices[key]):
            raise WebError(f"{what}: {key} must be one of {choices[key]}, got {value!r}")
    return dict(options)
