"""Issue 31, strictness: the envs refuse what they used to ignore or fail on inside.

* ``reset(options=...)``: anything but a dict (or None) is a ``ValueError`` naming ``options``
  and its type; an unknown key (a typo: ``levle``, ``dekc``; ``seed`` belongs in
  ``reset(seed=...)``) a ``ValueError`` naming the key and the allowed ones; a value of the wrong
  type a ``ValueError`` naming the key. A refused reset changes nothing.
* ``step(True)``: a bool is never an action — the raw envs raise ``IllegalActionError`` ("not an
  int", state unchanged), ``env()`` fails PettingZoo's out-of-space assertion as for ``1.0``,
  the solo env ends the episode as an illegal action (reward −1).
* ``player_view()``, ``observe()``, ``action_mask()``, ``step()``, ``render()`` before the first
  reset: ``RuntimeError("call reset() before ...")``, not an ``AttributeError`` from inside.
"""

from __future__ import annotations

import numpy as np
import pytest

from parlour.envs import audition_v1, awkward_guests_v1
from parlour.envs._checks import API_TEST_OPTION
from parlour.envs.audition.rules import IllegalActionError as AuditionIllegal
from parlour.envs.awkward_guests.game import IllegalActionError as GuestsIllegal
from parlour.envs.awkward_guests.solo import AwkwardGuestsSoloEnv

AEC = {
    "audition raw": lambda: audition_v1.raw_env(),
    "audition env": lambda: audition_v1.env(),
    "guests raw": lambda: awkward_guests_v1.raw_env(),
    "guests env": lambda: awkward_guests_v1.env(),
}
ALL = {**AEC, "solo": lambda: AwkwardGuestsSoloEnv()}
ALLOWED = {"audition": "['deck', 'start']", "guests": "['case', 'deck', 'start']"}


def _allowed(name: str) -> str:
    return ALLOWED["audition" if name.startswith("audition") else "guests"]


def _game(env):
    return env.unwrapped.game


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize(("options", "kind"), [("deck", "str"), ([1, 2], "list"), (7, "int")])
def test_options_that_are_not_a_dict_are_refused_naming_options(name, options, kind):
    env = ALL[name]()
    env.reset(seed=0)
    game = _game(env)
    with pytest.raises(ValueError, match=rf"options must be a dict .* got {kind}"):
        env.reset(seed=1, options=options)
    assert _game(env) is game


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("key", ["levle", "seed", "dekc"])
def test_unknown_option_keys_are_refused_naming_the_key_and_the_allowed(name, key):
    env = ALL[name]()
    env.reset(seed=0)
    game = _game(env)
    with pytest.raises(ValueError) as info:
        env.reset(seed=1, options={key: 5})
    assert f"unknown key {key!r}" in str(info.value) and _allowed(name) in str(info.value)
    assert _game(env) is game


@pytest.mark.parametrize("name", ALL)
def test_pettingzoo_api_test_probe_key_is_accepted(name):
    env = ALL[name]()
    env.reset(seed=0, options={API_TEST_OPTION: 1})  # what api_test passes
    assert _game(env) is not None


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize(("options", "key"), [({"deck": 5}, "deck"), ({"start": "x"}, "start")])
def test_option_values_of_the_wrong_type_name_the_key(name, options, key):
    env = ALL[name]()
    with pytest.raises(ValueError, match=rf"options\['{key}'\]"):
        env.reset(seed=0, options=options)


@pytest.mark.parametrize("name", ["audition raw", "guests raw"])
def test_step_true_in_a_raw_env_is_an_illegal_action(name):
    env = AEC[name]()
    env.reset(seed=0)
    agent, game_moves = env.agent_selection, _game(env).num_moves if "guests" in name else None
    error = AuditionIllegal if name.startswith("audition") else GuestsIllegal
    with pytest.raises(error, match=r"illegal action True \(not an int\)"):
        env.step(True)
    assert env.agent_selection == agent
    if game_moves is not None:
        assert _game(env).num_moves == game_moves


@pytest.mark.parametrize("name", ["audition env", "guests env"])
def test_step_true_in_a_wrapped_env_is_out_of_the_action_space_like_a_float(name):
    for action in (True, False, 1.0):
        env = AEC[name]()
        env.reset(seed=0)
        with pytest.raises(AssertionError, match="action is not in action space"):
            env.step(action)


def test_step_true_in_the_solo_env_is_an_illegal_action():
    env = AwkwardGuestsSoloEnv()
    env.reset(seed=0)
    _, reward, terminated, truncated, info = env.step(True)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)


@pytest.mark.parametrize("name", ["audition raw", "guests raw"])
@pytest.mark.parametrize(
    "call",
    ["player_view", "observe", "action_mask", "step", "results", "render"],
)
def test_calls_before_reset_say_reset_first(name, call):
    env = AEC[name]().unwrapped
    env.render_mode = "ansi"
    args = {"step": (0,), "results": (), "render": ()}.get(call, ("player_0",))
    with pytest.raises(RuntimeError, match=rf"call reset\(\) before {call}\(\)"):
        getattr(env, call)(*args)


@pytest.mark.parametrize("name", ["audition env", "guests env"])
def test_player_view_through_the_wrapper_before_reset_says_reset_first(name):
    with pytest.raises(RuntimeError, match=r"call reset\(\) before player_view\(\)"):
        AEC[name]().player_view("player_0")


@pytest.mark.parametrize("call", ["player_view", "render", "step", "action_masks"])
def test_solo_calls_before_reset_say_reset_first(call):
    env = AwkwardGuestsSoloEnv(render_mode="ansi")
    args = (0,) if call == "step" else ()
    with pytest.raises(RuntimeError, match=r"call reset\(\) before"):
        getattr(env, call)(*args)


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize(
    ("seed", "kind"), [(True, "bool"), (1.5, "float"), ("1", "str"), (-1, "int")]
)
def test_seeds_that_are_not_non_negative_ints_are_refused_naming_seed(name, seed, kind):
    """``reset(seed=True)`` was taken as seed 1 silently; ``1.5`` and ``"1"`` failed inside NumPy
    with its ``TypeError`` (found by the attack review). A refused reset changes nothing."""
    env = ALL[name]()
    env.reset(seed=0)
    game = _game(env)
    with pytest.raises(ValueError, match=rf"seed must be None or an int >= 0, got {kind}"):
        env.reset(seed=seed)
    assert _game(env) is game
    env.reset(seed=np.int64(3))  # a NumPy integer is an int
