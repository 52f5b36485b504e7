"""Training: ``parlour train``, the SB3 and RLlib trainers, configs, run folders, checkpoints.

| module | what it holds |
|---|---|
| :mod:`parlour.train.train` | ``parlour train``: MaskablePPO self-play training |
| :mod:`parlour.train.config`, :mod:`parlour.train.bounds` | the training config schema, shipped configs by name; the config's bounds (:mod:`parlour.limits`) |
| :mod:`parlour.train.run_folder`, :mod:`parlour.train.checkpoints`, :mod:`parlour.train.run_report` | run folders (names, lock, ``--resume`` checks), checkpoints, the run's report |
| :mod:`parlour.train.model`, :mod:`parlour.train.imitation` | the run's MaskablePPO model (built, or started from a saved one); the imitation warm start |
| :mod:`parlour.train.single_seat`, :mod:`parlour.train.opponents` | one learner seat as a Gymnasium env, its opponent pool |
| :mod:`parlour.train.rllib` | the RLlib backend (``backend: rllib``) |

Below it (never imported back): :mod:`parlour.eval` (tournaments, reports), :mod:`parlour.games`
(the game plug-ins, the shared argument types), :mod:`parlour.agents`; above it:
:mod:`parlour.apps` (the ``parlour`` command line). Training knows no game: each command
resolves the game once and passes its :class:`~parlour.games.Game` down; everything
game-specific lives in that game's module under :mod:`parlour.games`.
"""
