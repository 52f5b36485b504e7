"""Test games, each a complete plug-in living only under ``tests/games/<game>/``.

Importing ``tests.games`` imports every game package below it, and each package registers its
game (:func:`parlour.games.register_game`), so the games are then known by name to
``parlour train`` / ``eval`` / ``play`` and to :func:`parlour.games.all_games`.

| package | game | files |
|---|---|---|
| ``countdown`` | a 2–3 player card game with hidden hands | ``rules.py`` (pure rules), ``env.py`` (AEC env), ``plugin.py`` (``Game``, scripted agent, statistics, terminal UI, hidden redeal) |
"""

import importlib
import pkgutil

for _game in pkgutil.iter_modules(__path__):
    if _game.ispkg:
        importlib.import_module(f"{__name__}.{_game.name}")
