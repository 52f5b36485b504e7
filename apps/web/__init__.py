"""The web table of ``parlour serve`` (:mod:`parlour.apps.serve`): play in the browser, watch replays.

| module | what it holds |
|---|---|
| :mod:`~parlour.apps.web.app` | the Starlette app: the page, static files and the JSON API (its table of routes) |
| :mod:`~parlour.apps.web.catalog` | what the page may choose (agents by catalog id, option values): nothing else reaches ``make_agent`` / ``make_raw_env`` |
| :mod:`~parlour.apps.web.guard` | only the server's own page drives it: ``Host``, ``Origin``, content type, bounded bodies and JSON |
| :mod:`~parlour.apps.web.sessions` | one game per browser tab (:class:`GameSession`), the store that bounds them (per client, in all, by rate) and expires them (idle, and an absolute lifetime) |
| :mod:`~parlour.apps.web.views` | the JSON a seat is sent (only its ``player_view``, its legal moves), the omniscient one of replays |
| :mod:`~parlour.apps.web.replay` | stepping through a replay (the document, its reading and ``parlour eval --save-replays``: :mod:`parlour.eval.replay`) |
| :mod:`~parlour.apps.web.errors` | :class:`~parlour.apps.web.errors.WebError`: a bad request, its message and HTTP status |
| ``static/`` | the page: ``index.html``, ``app.js`` (generic), ``games/<game>.js`` (each game's table), ``style.css`` |

What is game-specific comes from the game's web part (``Game.web``, a
:class:`parlour.games.ui.WebUI`): ``options`` (its new-game fields), ``view`` (its seat's JSON,
built from ``env.player_view(agent)``), ``target`` (which page element a move is clicked on) and
``reveal`` (what the end of the game shows); move names and what other seats did come from its
terminal part (``Game.terminal``). The page draws a game with
its web part's ``script()`` (served as ``/games/<name>.js``; Audition's and Awkward Guests' live
in their plug-ins, ``games/audition/web.js``, ``games/guests/web.js``) when it has one, else as its
JSON view with its moves as buttons.
Needs the ``web`` extra (``pip install parlour[web]``). See ``docs/web.md``.
"""
