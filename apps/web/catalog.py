"""What the ``parlour serve`` page may choose: the agents and game options the server offers.

The browser names only ids of this catalog; the server turns them into agent specs and env
options itself, so no file path and no free-form spec or option from HTTP reaches
``make_agent`` or ``make_raw_env``.

| offered | catalog id | built as |
|---|---|---|
| every scripted agent of the game (``random``, ``audition.expert``, plug-in agents...) | its name | the name, with the agent's default options (bounded cost) |
| a model shipped with parlour for this game, at its own player count only | ``ppo:NAME``, ``audition.search:model=NAME`` | the same spec |
| model ``K`` (1, 2, ...) given by the operator (``parlour serve --model PATH``, ``runs/*/model.safetensors``), only for the games (and player counts) it fits | ``ppo:#K``, ``audition.search:model=#K`` | ``ppo:PATH``, ``audition.search:model=PATH`` (loaded untrusted: ``make_agent``'s default) |
| a game option | its ``Game.web.options()`` name | one of its ``choices`` (``"bool"``: true or false) |

A parlour model file records no game nor player count, only the sizes its network was built for
(the observation shape and the action count of its header's document,
:mod:`parlour.agents.model_document`). An operator's model is offered at a table of a game and
player count whose env (the game's default options) has those sizes (:func:`model_spaces`,
:meth:`Catalog.fits`): the sizes tell the games apart, so a model of another game is neither
offered nor accepted; a file whose header records no sizes (not parlour's format) is offered
nowhere. Only the shipped models record their player count (:mod:`parlour.models`).

What the page shows for each id (``labels``, :func:`agent_label`): a scripted agent's entry of
:data:`AGENT_LABELS` (others: ``"<Name> (scripted)"``), ``"Model NAME"`` for a shipped model,
``"Search on model NAME"`` for a search agent on it, ``"Your model: PATH"`` and
``"Search on your model: PATH"`` for the operator's.

An opponent that is not offered at the table (game and player count) is refused with one and
the same message, whatever it names (:meth:`Catalog.resolve_opponents`), so the server tells
nothing about files. An uploaded replay may set only the game options of the catalog and those
the game's shipped models were trained with (:meth:`Catalog.check_replay_options`).
"""

from __future__ import annotations

import importlib.util
import json
import struct
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from parlour import games as registry  # (a module attribute: tests spy on make_raw_env)
from parlour.agents.factory import known_agents, model_agents
from parlour.agents.model_file import MAX_HEADER_BYTES, METADATA_KEY
from parlour.apps.web.errors import WebError
from parlour.apps.web.views import web_part
from parlour.games import all_games
from parlour.models import read_index

#: the catalog id of the operator's model ``K`` (``ppo:#K``) and its marker in model options
OPERATOR_MARK = "#"
#: what the page shows for a scripted agent, by name (any other: :func:`agent_label`'s fallback)
AGENT_LABELS = {
    "random": "Random (any legal move)",
    "audition.greedy": "Greedy (scripted)",
    "audition.expert": "Expert (scripted)",
    "guests.deducer": "Deducer (scripted)",
    "openspiel.ismcts": "OpenSpiel IS-MCTS (search)",
    "openspiel.mcts": "OpenSpiel MCTS (search)",
}
#: the safetensors header's length field: a little-endian u64
HEADER_LENGTH = struct.Struct("<Q")
#: (observation shape, action count): the sizes a model is built for and a table gives
Spaces = tuple[tuple[int, ...], int]


def _short_name(agent: str) -> str:
    """``audition.search`` -> ``Search`` (the part after the game, readable)."""
    return agent.rpartition(".")[2].replace("_", " ").capitalize()


def agent_label(agent: str) -> str:
    """What the page shows for the scripted agent ``agent``."""
    return AGENT_LABELS.get(agent, f"{_short_name(agent)} (scripted)")


def model_label(agent: str | None, model: str) -> str:
    """What the page shows for a model (``model``: e.g. ``"model audition-2p"``) played as
    ``ppo`` (``agent`` None) or by the model agent ``agent`` (``"Search on model ..."``)."""
    if agent is None:
        return model[0].upper() + model[1:]
    return f"{_short_name(agent)} on {model}"


def model_spaces(path: str) -> Spaces | None:
    """The observation shape and action count the parlour model file ``path`` was built for
    (its header's document; the weights are not read), or None: no such file, or not parlour's
    format (such a file is offered nowhere)."""
    if not Path(path).is_file():  # (no FIFO nor folder is opened)
        return None
    try:
        with open(path, "rb") as f:
            (size,) = HEADER_LENGTH.unpack(f.read(HEADER_LENGTH.size))
            if size > MAX_HEADER_BYTES:
                return None
            header = json.loads(f.read(size))
        doc = json.loads(header["__metadata__"][METADATA_KEY])
        shape = tuple(int(n) for n in doc["observation_space"]["shape"])
        return shape, int(doc["action_space"]["n"])
    except (OSError, ValueError, KeyError, TypeError, struct.error, RecursionError):
        return None


def table_spaces(spec: Any, players: int) -> Spaces:
    """The observation shape and action count of a ``players``-seat table of ``spec`` (the
    game's default options)."""
    env = registry.make_raw_env(spec, players)
    agent = env.possible_agents[0]
    return tuple(env.observation_space(agent)["observation"].shape), int(env.action_space(agent).n)


def shipped_for_page(spec: Any) -> list[dict[str, Any]]:
    """The shipped models of the game ``spec`` (:mod:`parlour.models`) with their seat count, game
    options, ``default`` flag, card summary and ``label`` — each as ``ppo:NAME`` and as every
    search agent built on a model (``audition.search:model=NAME``, never a default); none without the
    ``train`` extra (torch) to play them."""
    if importlib.util.find_spec("sb3_contrib") is None:
        return []
    out: list[dict[str, Any]] = []
    for m in read_index():
        if m.game != spec.name or not m.path.is_file():
            continue
        entry = {"players": m.players, "game_options": m.game_options, "summary": m.summary()}
        label = model_label(None, f"model {m.name}")
        out.append({"spec": f"ppo:{m.name}", "default": m.default, "label": label, **entry})
        for agent in model_agents(spec):
            summary = f"{agent} on ppo:{m.name}: {m.summary()}"
            label = model_label(agent, f"model {m.name}")
            out.append(
                {
                    **entry,
                    "spec": f"{agent}:model={m.name}",
                    "default": False,
                    "summary": summary,
                    "label": label,
                }
            )
    return out


class Catalog:
    """The catalog of a server whose operator gave the model files ``models`` (see the module
    docstring). The shipped models are read on each call (the registry may change)."""

    def __init__(self, models: Sequence[str]) -> None:
        #: id number -> the operator's model file
        self.models = {f"{OPERATOR_MARK}{k}": str(path) for k, path in enumerate(models, 1)}
        #: id number -> the sizes the model was built for (None: unknown, offered nowhere)
        self.model_spaces = {mark: model_spaces(path) for mark, path in self.models.items()}
        self._tables: dict[tuple[str, int], Spaces] = {}  # (game, players) -> its sizes

    def fits(self, spec: Any) -> dict[str, list[int]]:
        """id number -> the player counts of ``spec`` each operator model fits (none: left
        out)."""
        out: dict[str, list[int]] = {}
        for mark, spaces in self.model_spaces.items():
            counts = []
            for n in range(spec.min_players, spec.max_players + 1):
                key = (spec.name, n)
                if key not in self._tables:
                    self._tables[key] = table_spaces(spec, n)
                if spaces is not None and self._tables[key] == spaces:
                    counts.append(n)
            if counts:
                out[mark] = counts
        return out

    def operator_agents(
        self, spec: Any, players: int | None = None
    ) -> dict[str, tuple[str, str, list[int]]]:
        """id -> (spec built, label shown, player counts) of the operator's models that fit the
        game ``spec`` (at ``players`` seats when given)."""
        out: dict[str, tuple[str, str, list[int]]] = {}
        for mark, counts in self.fits(spec).items():
            if players is not None and players not in counts:
                continue
            path = self.models[mark]
            out[f"ppo:{mark}"] = (f"ppo:{path}", model_label(None, f"your model: {path}"), counts)
            for name in model_agents(spec):
                label = model_label(name, f"your model: {path}")
                out[f"{name}:model={mark}"] = (f"{name}:model={path}", label, counts)
        return out

    def games(self) -> list[dict[str, Any]]:
        """Every game with a UI, its seats, its own options and the agents offered for it
        (``agents``: ids at any player count, ``players_of``: the player counts each operator
        model id is offered at, ``labels``: what the page shows for every id, the shipped
        models' included; ``shipped``: the shipped models with their player count)."""

        games = []
        for spec in all_games():
            web = web_part(spec)
            if web is None:
                continue
            ui = spec.terminal
            operator = self.operator_agents(spec)
            shipped = shipped_for_page(spec)
            scripted = known_agents(spec)
            labels = {name: agent_label(name) for name in scripted}
            labels.update({m["spec"]: m["label"] for m in shipped})
            labels.update({key: label for key, (_, label, _) in operator.items()})
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
                    "agents": scripted + list(operator),
                    "players_of": {key: counts for key, (_, _, counts) in operator.items()},
                    "labels": labels,
                    "shipped": shipped,
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
        operator = self.operator_agents(spec, players)
        out.update({key: built for key, (built, _, _) in operator.items()})
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
