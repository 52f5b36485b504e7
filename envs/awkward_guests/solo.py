"""Awkward Guests solo — a single-agent Gymnasium env (``parlour/AwkwardGuestsSolo-v1``).

The solo mode of docs/rules/awkward_guests.md (rulings R21, R22) (our design; the published solo mode needs the publisher's app),
played by the same engine as the AEC env with ``num_players=1``: like two players, with the
deck as the other player. After the inquiry (4 references) the matching cards among the top
5 of the deck form one bid; non-matching ones and declined bid cards go to the bottom of the
deck, accepted ones are read, noted and discarded, the payment goes to the discard pile.

```python
import gymnasium
import parlour  # noqa: F401  (registers the env)

env = gymnasium.make("parlour/AwkwardGuestsSolo-v1", level="easy")
obs, info = env.reset(seed=0)
done = False
while not done:
    mask = env.unwrapped.action_masks()  # or env.get_wrapper_attr("action_masks")()
    action = env.action_space.sample(mask.astype("int8"))
    obs, reward, terminated, truncated, info = env.step(action)
    done = terminated or truncated
```

| | |
|---|---|
| Actions | ``Discrete(95)`` — the AEC layout (:mod:`parlour.envs.awkward_guests.actions`) |
| Observation | ``Box(0, 1, (2313,), float32)`` — the AEC ``observation`` vector for one player (``deduced``: 2384; ``deduced_choices``: 2518; ``deduced_shares``: 2588; ``deduced_odds``: 2658; ``seer`` adds 70) |
| Masks | ``action_masks()`` (bool, length 95), also through ``gymnasium.make``'s wrappers as ``env.get_wrapper_attr("action_masks")()`` (what SB3's ``get_action_masks`` calls on every vector env); also ``info["action_mask"]`` (int8) |
| Name | ``metadata["name"] == "awkward_guests_solo_v1"`` |
| Reward | at the end only: correct accusation ``+1 − 0.01 × rounds played``; wrong ``−1``; round limit ``0`` (``truncated=True``) |
| Render modes | ``"ansi"``, ``"human"`` (prints the text), ``"rgb_array"`` (a ``(940, 1280, 3)`` ``uint8`` picture of the table: :mod:`parlour.envs.awkward_guests.picture`); SB3's ``make_vec_env("parlour/AwkwardGuestsSolo-v1")`` asks for ``"rgb_array"`` |
| Info | ``phase``, ``action_mask``; at the end also ``result`` (``win``/``loss``/``truncated``; absent after an illegal action), ``rounds`` (the round it ended in), ``solved`` (a correct accusation) and ``is_success`` (= ``solved``, read by SB3's ``Monitor`` / logger) |

Arguments: ``level=None`` (``easy``, or a case bank's level), ``cases="generated" | "classic" |
[paths]``, ``observation_mode="notebook" | "deduced" | "deduced_choices" | "deduced_shares" | "deduced_odds"``, ``deck_size=70``,
``max_rounds=30``, ``render_mode=None | "ansi" | "human" | "rgb_array"``, ``seer=False``,
``case_workers=0``, ``case_bank=None`` (a bank file or a shipped bank's name: the cases are dealt
from it), ``case_split="train"`` (as for the AEC env: a seeded reset starts an epoch of the
split, the unseeded resets after it deal each of its cases once).

Rulings: an **illegal action** does not raise; it ends the episode with reward ``−1``
(``terminated=True``, ``info["illegal_action"] = True``), so Gymnasium's ``check_env`` (which
samples unmasked actions) passes. An action that is not an int (a Python or NumPy integer, or a
0-d integer array) — a float, a string, a bool — is illegal: it is never rounded or parsed. ``reset(seed, options)`` calls ``super().reset(seed=seed)``
and hands ``self.np_random`` to the case source and the engine; ``options`` takes ``case``,
``deck`` and ``start`` as for the AEC env, refused as there (not a dict, an unknown key, a
value of the wrong type: ``ValueError``; a reset that raises leaves the generator and the game
as they were). Stepping after the end of an episode raises; ``step``, ``action_masks``,
``player_view`` and ``render`` before the first reset raise ``RuntimeError``.

Version history: v0 first release (later ``render_mode="rgb_array"``); v1 the observation
gains the ``last_turns`` public record (2313 floats, was 1857; ``deduced`` 2384, was 1928),
``metadata`` gets ``"name"``, ``action_masks()`` is reachable through ``gymnasium.make``'s
wrappers.
"""

from __future__ import annotations

import copy
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from parlour.envs._checks import check_reset_options, check_seed, is_int, require_reset

from . import actions as A
from . import game as G
from .case_source import DEFAULT_CASE_SPLIT, CaseSource
from .env import RESET_OPTIONS, validate_common
from .observation import ObservationEncoder
from .render import render_table
from .view import GuestsView, make_view

#: The name of the one seat in the rendered table.
SEAT_NAME = "player"


class AwkwardGuestsSoloEnv(gymnasium.Env):
    """The solo Gymnasium env (see the module docstring)."""

    metadata = {
        "name": "awkward_guests_solo_v1",
        "render_modes": ["ansi", "human", "rgb_array"],
        "render_fps": 1,
    }

    def __init__(
        self,
        level: str | None = None,
        cases: Any = "generated",
        observation_mode: str = "notebook",
        deck_size: int = 70,
        max_rounds: int = G.DEFAULT_MAX_ROUNDS,
        render_mode: str | None = None,
        seer: bool = False,
        case_workers: int = 0,
        case_bank: Any = None,
        case_split: str = DEFAULT_CASE_SPLIT,
    ) -> None:
        super().__init__()
        validate_common(observation_mode, max_rounds, render_mode, seer)
        self.config = G.GuestsConfig(1, max_rounds)
        self.cases = CaseSource(level, cases, deck_size, case_workers, case_bank, case_split)
        self.level = self.cases.level
        self.observation_mode = observation_mode
        self.render_mode = render_mode
        self.seer = seer
        self._encoder = ObservationEncoder(observation_mode, seer)
        self.observation_layout: dict[str, slice] = dict(self._encoder.layout)
        self.observation_space = spaces.Box(0.0, 1.0, (self._encoder.size,), np.float32)
        self.action_space = spaces.Discrete(A.NUM_ACTIONS)
        self.game: G.GuestsState | None = None
        self._done = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        # a reset that raises (a bad case or deck) leaves the generator and the game as they were
        check_seed(seed)
        seed = None if seed is None else int(seed)  # (Gymnasium takes Python ints only)
        saved = (self._np_random, self._np_random_seed)
        super().reset(seed=seed)
        rng = self.np_random if seed is not None else copy.deepcopy(self.np_random)
        try:
            options = check_reset_options(options, RESET_OPTIONS)
            game = self.cases.new_game(self.config, rng, options, restart=seed is not None)
        except BaseException:
            self._np_random, self._np_random_seed = saved
            raise
        self._np_random, self.game = rng, game
        self._done = False
        if self.render_mode == "human":
            self.render()
        return self._obs(), self._info()

    def _obs(self) -> np.ndarray:
        if self.game is None:  # (inline: a hot path)
            require_reset(None, "observe")
        return self._encoder.encode(self.game, 0)

    def _mask(self) -> np.ndarray:
        """The legal actions (all 0 once the episode is over, also when an illegal action
        ended it: the game itself would still allow moves)."""
        mask = self.game.legal_mask()
        return np.zeros_like(mask) if self._done else mask

    def _info(self, **extra: Any) -> dict[str, Any]:
        info = {"phase": self.game.phase_name, "action_mask": self._mask()}
        info.update(extra)
        return info

    def action_masks(self) -> np.ndarray:
        """Legal actions as a bool array of length 95 (all False once the episode is over)."""
        if self.game is None:
            raise RuntimeError("call reset() before action_masks()")
        return self._mask().astype(bool)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        state = self.game
        a = action_int(action)
        if a is None or a not in state.legal_actions():
            self._done = True
            info = self._info(illegal_action=True, **self._final())
            return self._obs(), -1.0, True, False, info
        state.apply(a)
        reward = 0.0
        terminated = truncated = False
        if state.is_terminal:
            self._done = True
            reward = float(state.returns()[0])
            truncated = state.truncated
            terminated = not truncated
        if self.render_mode == "human":
            self.render()
        info = self._info()
        if self._done:
            info["result"] = state.result
            info.update(self._final())
        return self._obs(), reward, terminated, truncated, info

    def _final(self) -> dict[str, Any]:
        """The end-of-episode statistics (see the module docstring)."""
        solved = any(correct for _, _, correct in self.game.accusation_log)
        return {"rounds": int(self.game.round), "solved": solved, "is_success": solved}

    def player_view(self) -> GuestsView:
        """What the player may know (see :mod:`parlour.envs.awkward_guests.view`)."""
        require_reset(self.game, "player_view")
        return make_view(self.game, 0)

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() called without a render_mode; "
                "pass render_mode='ansi', 'human' or 'rgb_array'"
            )
            return None
        if self.render_mode == "rgb_array":
            return self._table_picture()
        text = self._table_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _table_text(self) -> str:
        require_reset(self.game, "render")
        return render_table(self.game, [SEAT_NAME])

    def _table_picture(self) -> np.ndarray:
        from .picture import draw_table  # Pillow: loaded on first use

        require_reset(self.game, "render")
        return draw_table(self.game, [SEAT_NAME], seer=self.seer)

    def close(self) -> None:
        self.cases.close()  # the case workers, if any


def action_int(action: Any) -> int | None:
    """``action`` as an int if it is a Python or NumPy integer (or a 0-d integer array, as vector
    envs pass); ``None`` (an illegal action) for a float, string or bool: never rounded or
    parsed."""
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        return int(action)
    return int(action) if is_int(action) else None
