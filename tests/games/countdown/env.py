"""Countdown — the thin PettingZoo AEC adapter of :mod:`tests.games.countdown.rules`.

``raw_env(num_players=2, start=21, hand_size=3, render_mode=None)``: agents ``player_0 …``;
actions ``Discrete(4)`` (play a card of value 1–4); observations ``{"observation":
Box(0, 1, (17,), float32), "action_mask": Box(0, 1, (4,), int8)}`` (the mask is all zero except
for the agent to act, and never all zero for it). Illegal actions raise
:class:`~tests.games.countdown.rules.IllegalActionError` (the state is unchanged).

Observation (egocentric: block 0 is the observer, then the seats after it):

| name | size | content |
|---|---|---|
| ``counter`` | 1 | counter / start (0 once it is at or below 0) |
| ``start`` | 1 | start / the deck's total value |
| ``my_turn`` | 1 | the observer acts now |
| ``hand`` | 4 | the observer's cards per value / the hand size |
| ``hand_sizes`` | 3 | cards in each hand / the hand size (egocentric, zero for empty seats) |
| ``played`` | 4 | face-up cards per value / copies |
| ``deck`` | 1 | cards left in the deck / the deck size |
| ``num_players`` | 2 | one-hot of 2, 3 |

``infos`` are ``{}``; ``results()`` (at any time): ``over``, ``winners`` (agents), ``busts``
(agent → 1 for the seat that went below 0).
``player_view(agent)`` is what a scripted agent or the terminal UI reads (:class:`CountdownView`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from pettingzoo import AECEnv

from parlour.envs.aec_common import TableGameAEC
from tests.games.countdown import rules as R

OBSERVATION_PIECES: tuple[tuple[str, int], ...] = (
    ("counter", 1),
    ("start", 1),
    ("my_turn", 1),
    ("hand", len(R.VALUES)),
    ("hand_sizes", R.MAX_PLAYERS),
    ("played", len(R.VALUES)),
    ("deck", 1),
    ("num_players", R.MAX_PLAYERS - R.MIN_PLAYERS + 1),
)


def _layout() -> dict[str, slice]:
    layout, pos = {}, 0
    for name, size in OBSERVATION_PIECES:
        layout[name] = slice(pos, pos + size)
        pos += size
    return layout


LAYOUT = _layout()
OBSERVATION_SIZE = max(s.stop for s in LAYOUT.values())
RENDER_MODES = ("ansi", "human")


@dataclass(frozen=True)
class CountdownView:
    """What one seat may know (absolute seats; ``hand`` is its own cards, sorted)."""

    seat: int
    num_players: int
    start: int
    counter: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    played: tuple[int, ...]
    deck_size: int
    current_player: int  # -1 once the game is over
    legal_actions: tuple[int, ...]  # empty unless it is this seat's turn


class raw_env(TableGameAEC, AECEnv):
    """The unwrapped Countdown AEC environment (see the module docstring)."""

    metadata = {
        "name": "countdown_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        num_players: int = 2,
        start: int = R.DEFAULT_START,
        hand_size: int = R.DEFAULT_HAND,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        R.check_config(num_players, start, hand_size)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode must be None or one of {list(RENDER_MODES)}, got {render_mode!r}"
            )
        self.start, self.hand_size, self.render_mode = start, hand_size, render_mode
        self._setup_table(num_players, OBSERVATION_SIZE, R.NUM_ACTIONS)
        self.game: R.CountdownState | None = None

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        rng = self._reset_generator(seed)
        n = len(self.possible_agents)
        self.game = R.new_game(n, self.start, self.hand_size, rng)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat, state = self.agent_name_mapping[agent], self.game
        n = state.num_players
        obs = np.zeros(OBSERVATION_SIZE, np.float32)
        obs[LAYOUT["counter"]] = max(state.counter, 0) / state.start
        obs[LAYOUT["start"]] = state.start / R.MAX_START
        obs[LAYOUT["my_turn"]] = state.current == seat
        hand = obs[LAYOUT["hand"]]
        for v in state.hands[seat]:
            hand[R.VALUES.index(v)] += 1.0 / self.hand_size
        sizes = obs[LAYOUT["hand_sizes"]]
        for k in range(n):
            sizes[k] = len(state.hands[(seat + k) % n]) / self.hand_size
        played = obs[LAYOUT["played"]]
        for v in state.played:
            played[R.VALUES.index(v)] += 1.0 / R.COPIES
        obs[LAYOUT["deck"]] = len(state.deck) / R.DECK_SIZE
        obs[LAYOUT["num_players"].start + n - R.MIN_PLAYERS] = 1.0
        mask = np.zeros(R.NUM_ACTIONS, np.int8)
        if state.current == seat:
            mask[state.legal_actions()] = 1
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.game
        state.apply(action)  # raises IllegalActionError, state unchanged
        self._cumulative_rewards[agent] = 0.0
        if state.is_over:
            rewards = state.rewards()
            for p, a in enumerate(self.possible_agents):
                self.rewards[a] = rewards[p]
                self.terminations[a] = True
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[state.current]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def results(self) -> dict[str, Any]:
        """The outcome so far: ``over``, ``winners`` (agents), ``busts`` (agent → 0/1)."""
        state = self.game
        return {
            "over": state.is_over,
            "winners": [self.possible_agents[p] for p in state.winners],
            "busts": {a: int(p == state.busted) for p, a in enumerate(self.possible_agents)},
        }

    def player_view(self, agent: str) -> CountdownView:
        seat, state = self.agent_name_mapping[agent], self.game
        mine = state.current == seat
        return CountdownView(
            seat=seat,
            num_players=state.num_players,
            start=state.start,
            counter=state.counter,
            hand=tuple(state.hands[seat]),
            hand_sizes=tuple(len(h) for h in state.hands),
            played=tuple(state.played),
            deck_size=len(state.deck),
            current_player=state.current,
            legal_actions=tuple(state.legal_actions()) if mine else (),
        )

    def _table_text(self) -> str:
        state = self.game
        hands = ", ".join(
            f"{a} {len(h)} cards" for a, h in zip(self.possible_agents, state.hands, strict=True)
        )
        turn = "over" if state.is_over else f"{self.possible_agents[state.current]} to play"
        played = " ".join(str(v) for v in state.played) or "-"
        return (
            f"Countdown: counter {state.counter} (from {state.start}); deck {len(state.deck)}; "
            f"{turn}\nplayed: {played}\nhands: {hands}"
        )
