"""Audition — the PettingZoo AEC adapter (``parlour.envs.audition_v1``).

A 2–6 player set-collection card game (999 Games, design Robert Brouwer): draw a musician and
place it with a conductor, or take a conductor with its musicians and sit out the round. Only
soloists (exactly 1 card of a number: 1 point) and quartets (exactly 4: 5 points) score.

```python
from parlour.envs import audition_v1

env = audition_v1.env(num_players=4, action_cards=("pass_left", "take_now"), render_mode="ansi")
env.reset(seed=42)
for agent in env.agent_iter():
    obs, reward, termination, truncation, info = env.last()
    action = None if termination or truncation else env.action_space(agent).sample(obs["action_mask"])
    env.step(action)
```

| | |
|---|---|
| Actions | ``Discrete(27)`` |
| Agents | ``player_0 … player_{n-1}``, ``n`` in 2..6 |
| Observation | ``{"observation": Box(0, 1, (321,), float32), "action_mask": Box(0, 1, (27,), int8)}`` |
| Import | ``from parlour.envs import audition_v1`` (also ``pettingzoo.make("aec", "parlour/Audition-v1")`` where the registry exists) |
| Render modes | ``"ansi"`` (text), ``"human"`` (prints the text), ``"rgb_array"`` (a picture: ``(H, 1280, 3)`` ``uint8``, ``H`` 544 / 668 / 792 for 2 / 3–4 / 5–6 players) |

Arguments
---------

``audition_v1.env(num_players=2, action_cards=(), uncertain_counts=False, reward_mode="win",
render_mode=None, seer=False, mini=False)``

* ``num_players`` — 2..6 (the deck is numbers ``1..9`` for 2p up to ``1..13`` for 6p; number
  ``k`` has ``k`` copies).
* ``action_cards`` — variant 1: ``()``; a list of distinct kinds from ``max_two, pass_left,
  discard_one, discard_own, draw_one, take_now`` (at most ``num_players``; they occupy slots 0,
  1, … in the given order); or an int ``0..num_players`` (that many random kinds on random
  slots, redrawn at every reset).
* ``uncertain_counts`` — variant 2: 5 random cards are removed unseen at setup.
* ``reward_mode`` — ``"win"`` (zero-sum: a sole winner +1, each loser ``−1/(n−1)``; shared wins
  split ``n/(n−1)`` among the winners) or ``"score"`` (final points minus the mean, / 10).
* ``render_mode`` — ``None``, ``"ansi"`` (``render()`` returns the public table as text),
  ``"human"`` (prints it) or ``"rgb_array"`` (``render()`` returns a picture of the public table,
  an ``(H, W, 3)`` ``uint8`` array drawn with Pillow: :mod:`parlour.envs.audition.picture`).
* ``mini`` — the mini table for exact solvers (:class:`~parlour.envs.audition.rules.AuditionConfig`
  ``mini=True``): 2 players, 3 cards (numbers ``1..2``), slots that hold 2 musicians, neither
  variant (another ``num_players``, ``action_cards`` or ``uncertain_counts`` is a
  ``ValueError``). Same spaces and rules; OpenSpiel's ``parlour_audition(variant=mini)`` is this
  game (docs/openspiel.md).
* ``seer`` — debugging only: appends the hidden deck to every observation (a leak by design),
  and the ``rgb_array`` picture shows the hidden cards face up (deck order, removed cards, the
  drawn card).

``reset(seed=None, options={"deck": [...], "start": seat})``: ``deck`` fixes the card order
(top first; exactly the game's cards; with variant 2 its last 5 are the removed cards), ``start``
the start seat. ``options`` that is not a dict, an unknown key (a typo such as ``dekc``;
``seed`` belongs in ``reset(seed=...)``) or a value of the wrong type is a ``ValueError`` naming
it, and changes nothing (the key ``"options"``, PettingZoo ``api_test``'s probe, is ignored).
Before the first reset, ``observe``, ``action_mask``, ``step``, ``player_view``, ``results`` and
``render`` raise ``RuntimeError("call reset() before ...")``.

Action space
------------

| ids | meaning |
|---|---|
| 0–5 | TAKE slot ``s`` (also: accept ``take_now`` after placing there; take a slot in the final phase) |
| 6 | DRAW the top card (the same agent then chooses where to PLACE it) |
| 7–12 | PLACE the drawn card on slot ``s = id − 7`` |
| 13 | PASS: take nothing in the final phase; decline ``discard_own`` / ``take_now`` |
| 14–26 | CHOOSE number ``v = id − 13`` (which musician to pass left / discard) |

Every decision is a step of the agent that makes it: DRAW → PLACE → (placed on ``take_now``:
TAKE that slot / PASS); TAKE of ``pass_left`` or ``discard_one`` → CHOOSE; TAKE of
``discard_own`` → CHOOSE/PASS (skipped when the collection was empty before the take). The mask
allows exactly the legal moves; it is all zeros for every agent but ``agent_selection``.

Observation space
-----------------

Egocentric ``float32`` in ``[0, 1]``, one size for every player count; named parts are in
``env.unwrapped.observation_layout`` (see :mod:`parlour.envs.audition.observation` for the table).
Everything in Audition is public except the deck order, the variant-2 removed cards and the card
another player has just drawn and not yet placed.

Rewards
-------

Paid once, when the game ends (``terminations`` all ``True``). ``"win"``: with winners ``W``,
``r_i = (n/(n−1))·[i∈W]/|W| − 1/(n−1)`` (sums to 0). ``"score"``: ``(points_i − mean)/10``.
Illegal actions: ``env()`` wraps the game in PettingZoo's
``TerminateIllegalWrapper`` (the offender gets −1, the game ends); ``raw_env().step`` raises
:class:`~parlour.envs.audition.rules.IllegalActionError` and leaves the state unchanged. A bool,
float or string is never an action: ``raw_env().step(True)`` raises ``IllegalActionError`` ("not
an int"), ``env().step(True)`` PettingZoo's "action is not in action space" assertion, as for
``1.0``.

Infos and results
-----------------

``infos[agent]`` is ``{}`` for every agent at every step, the end included (a fresh dict each
step), so that libraries which batch infos (Tianshou, TorchRL, SuperSuit) can. The outcome is
read from ``env.unwrapped.results()``, a new ``dict`` on every call, valid at any moment:

| key | value |
|---|---|
| ``phase`` | the phase (``turn``, ``place``, ``take_now``, ``pass_left``, ``discard_one``, ``discard_own``, ``final``, ``over``) |
| ``over`` | ``True`` once the game has ended |
| ``scores`` | ``{agent: points}`` (current points while the game runs, final points at the end) |
| ``winners`` | list of agents (``[]`` while the game runs; at the end the sole or shared winners) |
| ``returns`` | ``{agent: total reward of the game}`` (``0.0`` while it runs; at the end what ``rewards`` paid) |

Everything in it is public.

``env.unwrapped.action_mask(agent)`` is the ``action_mask`` of ``observe(agent)`` without encoding
the observation (for agents that read only the mask: the training env's opponents).

Rules and rulings: :mod:`parlour.envs.audition.rules`.

Version history
---------------

| version | change |
|---|---|
| v0 | first release; later without a version change: ``render_mode="rgb_array"`` |
| v1 | **infos** are always ``{}`` (libraries that batch infos — Tianshou, TorchRL, SuperSuit — work); phase, scores and winners are ``env.unwrapped.results()`` (see "Infos and results"). **Spaces**: one object per agent, ``KeyError`` for an unknown agent; ``str(env())`` is ``audition_v1``. Observations, actions, rewards and trajectories unchanged. Later without a version change: ``player_view`` gains ``final_queue``, ``last_taker``, ``start_player``, ``emptied_by``, ``num_moves`` and ``config`` (public facts; observations unchanged); ``mini=True`` (the mini table). |
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo import AECEnv

from parlour.envs._checks import check_reset_options, check_seed, require_reset
from parlour.envs.aec_common import TableGameAEC
from parlour.envs.audition import rules as R
from parlour.envs.audition.observation import ObservationEncoder
from parlour.envs.audition.render import render_table
from parlour.envs.audition.view import AuditionView, make_view
from parlour.envs.wrappers import classic_wrappers

REWARD_MODES = ("win", "score")
RENDER_MODES = ("ansi", "human", "rgb_array")
#: the keys of ``reset(options=...)`` (any other is a ``ValueError``)
RESET_OPTIONS = ("deck", "start")


class raw_env(TableGameAEC, AECEnv):
    """The unwrapped Audition AEC environment (see the module docstring)."""

    metadata = {
        "name": "audition_v1",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        num_players: int = 2,
        action_cards: tuple[str, ...] | list[str] | int = (),
        uncertain_counts: bool = False,
        reward_mode: str = "win",
        render_mode: str | None = None,
        seer: bool = False,
        mini: bool = False,
    ) -> None:
        super().__init__()
        self.config = R.AuditionConfig(num_players, action_cards, uncertain_counts, mini)
        if reward_mode not in REWARD_MODES:
            raise ValueError(
                f"reward_mode must be one of {list(REWARD_MODES)}, got {reward_mode!r}"
            )
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode must be None or one of {list(RENDER_MODES)}, got {render_mode!r}"
            )
        if not isinstance(seer, bool):
            raise ValueError(f"seer must be True or False, got {seer!r}")
        self.reward_mode = reward_mode
        self.render_mode = render_mode
        self.seer = seer

        n = self.config.num_players
        self._encoder = ObservationEncoder(seer=seer)
        self.observation_layout: dict[str, slice] = dict(self._encoder.layout)
        self._setup_table(n, self._encoder.size, R.NUM_ACTIONS)
        #: the engine state (hidden information: deck order, removed cards). Not PettingZoo's
        #: ``state()``, which this env does not provide (it raises NotImplementedError).
        self.game: R.AuditionState | None = None
        self.agents: list[str] = []

    # -- core API -------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        options = check_reset_options(options, RESET_OPTIONS)
        check_seed(seed)
        with self._generator_for_reset(seed) as rng:  # a reset that raises changes nothing
            self.game = R.new_game(
                self.config, rng, deck=options.get("deck"), start=options.get("start")
            )
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if self.game is None:  # (inline: a hot path)
            require_reset(None, "observe")
        seat = self.agent_name_mapping[agent]
        return {
            "observation": self._encoder.encode(self.game, seat),
            "action_mask": self.action_mask(agent),
        }

    def action_mask(self, agent: str) -> np.ndarray:
        """The ``action_mask`` of ``observe(agent)`` alone (no observation is encoded)."""
        if self.game is None:  # (inline: a hot path)
            require_reset(None, "action_mask")
        if self.agent_name_mapping[agent] == self.game.current_player:
            return self.game.legal_mask()
        return np.zeros(R.NUM_ACTIONS, np.int8)

    def step(self, action: int | None) -> None:
        if self.game is None:  # (inline: a hot path)
            require_reset(None, "step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.game
        state.apply(action)  # raises IllegalActionError, state unchanged
        self._cumulative_rewards[agent] = 0.0
        self.infos = {a: {} for a in self.agents}
        if state.is_terminal:
            returns = state.returns(self.reward_mode)
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = float(returns[i])
                self.terminations[a] = True
        else:
            agents, rewards = self.agents, self.rewards
            for a in agents:
                rewards[a] = 0.0
            self.agent_selection = self.possible_agents[state.current]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # -- extras ---------------------------------------------------------------------------

    def results(self) -> dict[str, Any]:
        """The game's outcome so far (keys: see "Infos and results" in the module docstring)."""
        require_reset(self.game, "results")
        return audition_results(self.game, self.possible_agents, self.reward_mode)

    def player_view(self, agent: str) -> AuditionView:
        """What ``agent`` may know, as an immutable structured view (for scripted agents)."""
        require_reset(self.game, "player_view")
        return make_view(self.game, self.agent_name_mapping[agent])

    def _table_text(self) -> str:
        require_reset(self.game, "render")
        return render_table(self.game, self.possible_agents)

    def _table_picture(self) -> np.ndarray:
        from parlour.envs.audition.picture import draw_table  # Pillow: loaded on first use

        require_reset(self.game, "render")
        return draw_table(self.game, self.possible_agents, seer=self.seer)


def audition_results(state: R.AuditionState, agents: list[str], reward_mode: str) -> dict[str, Any]:
    """``raw_env.results()`` of ``state`` (fresh objects on every call)."""
    over = state.is_terminal
    scores = state.scores()
    returns = state.returns(reward_mode) if over else [0.0] * len(agents)
    return {
        "phase": R.PHASES[state.phase],
        "over": over,
        "scores": dict(zip(agents, scores, strict=True)),
        "winners": [agents[p] for p in state.winners()] if over else [],
        "returns": {a: float(r) for a, r in zip(agents, returns, strict=True)},
    }


def env(**kwargs: Any) -> AECEnv:
    """The wrapped environment: TerminateIllegal → AssertOutOfBounds → OrderEnforcing
    (PettingZoo's classes, with fast attribute forwarding: see :mod:`parlour.envs.wrappers`)."""
    return classic_wrappers(raw_env(**kwargs), illegal_reward=-1)
