"""Training, evaluation and play: the ``parlour`` command line and the game plug-ins.

| module | what it holds |
|---|---|
| :mod:`parlour.apps.cli` | the ``parlour`` command line (subcommands, shared argument types) |
| :mod:`parlour.train.config` | the training config schema, shipped configs by name |
| :mod:`parlour.train.train` | ``parlour train``: MaskablePPO self-play training |
| :mod:`parlour.train.model`, :mod:`parlour.train.imitation` | the run's MaskablePPO model (built, or started from a saved one); the imitation warm start |
| :mod:`parlour.eval.evaluate` | ``parlour eval``: a tournament between agents |
| :mod:`parlour.apps.play` | ``parlour play``: a person against agents in the terminal (the game's :class:`~parlour.games.ui.TerminalUI`) |
| :mod:`parlour.eval.tournament` | tournaments: seat rotation, paired deals, statistics |
| :mod:`parlour.eval.report` | rendering results and training reports (Markdown, PNG, terminal) |
| :mod:`parlour.train.single_seat`, :mod:`parlour.train.opponents` | one learner seat as a Gymnasium env, its opponent pool |
| :mod:`parlour.games` | the game plug-ins: ``Game``, the registry, one module per game |

Training, evaluation, tournaments, reports and play know no game: each command resolves the game
once and passes its :class:`~parlour.games.Game` down; everything game-specific lives
in that game's module under :mod:`parlour.games`.
"""
