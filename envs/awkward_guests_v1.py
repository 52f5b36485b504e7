"""``from parlour.envs import awkward_guests_v1`` — the versioned entry point of the Awkward Guests env.

See :mod:`parlour.envs.awkward_guests.env` for the documentation (actions, observation, rewards) and
:mod:`parlour.envs.awkward_guests.game` for the rules and rulings. The solo Gymnasium env is
:class:`parlour.envs.awkward_guests.solo.AwkwardGuestsSoloEnv` (``parlour/AwkwardGuestsSolo-v1``).
"""

from parlour.envs.awkward_guests.actions import ACTION_NAMES, NUM_ACTIONS, action_name
from parlour.envs.awkward_guests.env import __doc__ as _doc
from parlour.envs.awkward_guests.env import env, raw_env
from parlour.envs.awkward_guests.game import IllegalActionError

__doc__ = _doc
__all__ = ["ACTION_NAMES", "NUM_ACTIONS", "IllegalActionError", "action_name", "env", "raw_env"]
