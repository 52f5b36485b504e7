"""The RLlib backend of ``parlour train`` (``backend: rllib``): multi-agent PPO on Ray.

| module | holds |
|---|---|
| :mod:`~parlour.train.rllib.settings` | the ``rllib:`` config block (no Ray import) |
| :mod:`~parlour.train.rllib.env` | the ``MultiAgentEnv`` adapter: seats as slots, scripted baselines inside |
| :mod:`~parlour.train.rllib.module` | the old import path of the action-masking PPO ``RLModule`` (now :mod:`parlour.agents.rllib_module`; checkpoints pickled it by this path) |
| :mod:`~parlour.train.rllib.league` | the league: learner, frozen snapshots, ``policy_mapping_fn`` |
| :mod:`~parlour.train.rllib.runner` | the training run: Ray, checkpoints, ``--resume``, logs, evaluation, report, interrupts |
| :mod:`~parlour.train.rllib.checkpoints` | checkpoint folders written whole, the previous one kept; the run state |
| :mod:`~parlour.train.rllib.export` | writing the safe export of a policy (safetensors + a JSON document, no pickles; read by :mod:`parlour.agents.rllib_export`) |

The trained policy plays as the agent spec ``rllib:runs/NAME/checkpoint``
(:mod:`parlour.agents.rllib_agent`). Recipe, cluster use and measured throughput:
``docs/rllib.md``. Only this package's ``settings`` is imported without the ``rllib`` extra.
"""
