"""``from parlour.envs import audition_v1`` — the versioned entry point of the Audition environment.

See :mod:`parlour.envs.audition.env` for the documentation (actions, observation, rewards, rulings).
"""

from parlour.envs.audition.env import __doc__ as _doc
from parlour.envs.audition.env import env, raw_env
from parlour.envs.audition.rules import ACTION_KINDS, IllegalActionError

__doc__ = _doc
__all__ = ["ACTION_KINDS", "IllegalActionError", "env", "raw_env"]
