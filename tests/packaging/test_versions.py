"""Env versions: the current modules and registry ids, and a clear error for the old ones.

Both games moved from v0 to v1 together (infos, spaces, knock-outs, the Awkward Guests public
record); an old module name says what replaced it, an old registry id says which version exists.
"""

from __future__ import annotations

import gymnasium
import pettingzoo
import pytest

import parlour
from parlour.envs import DEPRECATED, ENV_MODULES


@pytest.mark.parametrize("old", sorted(DEPRECATED))
def test_an_old_module_name_says_what_replaced_it(old: str):
    new, _ = DEPRECATED[old]
    assert new in ENV_MODULES
    with pytest.raises(ImportError, match=f"replaced by parlour.envs.{new}"):
        exec(f"from parlour.envs import {old}")


def test_registry_ids_are_the_current_versions():
    assert set(parlour.AEC_ENVS) == {"parlour/Audition-v1", "parlour/AwkwardGuests-v1"}
    for env_id in parlour.AEC_ENVS:
        env = pettingzoo.make("aec", env_id)
        assert str(env.unwrapped).endswith("_v1")
    with pytest.raises(gymnasium.error.DeprecatedEnv, match="AwkwardGuestsSolo-v1"):
        gymnasium.make("parlour/AwkwardGuestsSolo-v0")
