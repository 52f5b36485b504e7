"""What the AEC adapters of every parlour game share: seats, spaces, the reset generator.

:class:`TableGameAEC` is a mixin for a turn-based table game's ``raw_env``: it sets up the agent
names, one masked observation space and one action space per agent (PettingZoo's convention:
seeding one agent's space leaves the others alone; an unknown agent is a ``KeyError``) and the seat lookup, and
gives ``reset`` its generator rule (a new ``np.random.Generator`` from ``seed`` when one is
given, else the previous one continues, as gymnasium does; ``_generator_for_reset`` undoes it if
the reset raises), and implements ``render`` (``"ansi"``
returns the game's public-table text from ``_table_text()``, ``"human"`` prints it,
``"rgb_array"`` returns the table picture from ``_table_picture()``, an ``(H, W, 3)`` ``uint8``
array) and ``close``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import numpy as np
from gymnasium import spaces


class TableGameAEC:
    """Mixin for the AEC adapters (``parlour.envs.audition.env``, ``parlour.envs.awkward_guests.env``)."""

    def _setup_table(self, num_players: int, observation_size: int, num_actions: int) -> None:
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (observation_size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(num_actions) for agent in self.possible_agents}
        self._np_random: np.random.Generator | None = None
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space:
        """The agent's own space (a separate object per agent); ``KeyError`` for an unknown one."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """The agent's own space (a separate object per agent); ``KeyError`` for an unknown one."""
        return self.action_spaces[agent]

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            import gymnasium

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
        raise NotImplementedError

    def _table_picture(self) -> np.ndarray:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def _reset_generator(self, seed: int | None) -> np.random.Generator:
        if seed is not None or self._np_random is None:
            self._np_random = np.random.default_rng(seed)
        return self._np_random

    @contextlib.contextmanager
    def _generator_for_reset(self, seed: int | None) -> Iterator[np.random.Generator]:
        """``_reset_generator(seed)`` for a reset that may raise: if the block raises, the env's
        generator is the one it had, in the state it had (a game in progress shares it)."""
        old = self._np_random
        saved = old.bit_generator.state if old is not None else None
        try:
            yield self._reset_generator(seed)
        except BaseException:
            self._np_random = old
            if old is not None:
                old.bit_generator.state = saved
            raise
