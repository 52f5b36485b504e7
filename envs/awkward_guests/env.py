"""Awkward Guests: The Walton Case — the PettingZoo AEC adapter (``parlour.envs.awkward_guests_v1``).

A 1–8 player murder-mystery deduction game (Megacorpin Games, design Rodrigo Gonzalo García):
trade case cards to collect clues in your notebook, then accuse the murderer, their motive and
weapon (and, from ``medium`` on, the accomplice and their motive) before anybody else does.
Cases are generated procedurally (``generate_case``) or taken from the 30 classic case files.

```python
from parlour.envs import awkward_guests_v1

env = awkward_guests_v1.env(num_players=4, level="easy", render_mode="ansi")
env.reset(seed=42)
for agent in env.agent_iter():
    obs, reward, termination, truncation, info = env.last()
    action = None if termination or truncation else env.action_space(agent).sample(obs["action_mask"])
    env.step(action)
```

| | |
|---|---|
| Actions | ``Discrete(95)`` |
| Agents | ``player_0 … player_{n-1}``, ``n`` in 1..8 (1: the solo mode) |
| Observation | ``{"observation": Box(0, 1, (2313,), float32), "action_mask": Box(0, 1, (95,), int8)}`` (``deduced``: 2384; ``deduced_choices``: 2518; ``deduced_shares``: 2588; ``deduced_odds``: 2658; ``seer`` adds 70) |
| Import | ``from parlour.envs import awkward_guests_v1`` (also ``pettingzoo.make("aec", "parlour/AwkwardGuests-v1")`` where the registry exists) |
| Solo Gymnasium env | ``gymnasium.make("parlour/AwkwardGuestsSolo-v1")`` (:mod:`parlour.envs.awkward_guests.solo`) |
| Render modes | ``"ansi"`` (text), ``"human"`` (prints the text), ``"rgb_array"`` (a picture: ``(940, 1280, 3)`` ``uint8``, every player count) |

Arguments
---------

``awkward_guests_v1.env(num_players=2, level=None, cases="generated",
observation_mode="notebook", deck_size=70, max_rounds=30, render_mode=None, seer=False,
case_workers=0, case_bank=None, case_split="train")``

* ``num_players`` — 1..8. With 1–2 players the inquiry names 4 references and received cards
  are read, noted and discarded; 1 player is the solo mode (the deck bids).
* ``level`` — ``beginner, very_easy, easy, medium, hard, very_hard, expert``; an accomplice
  is possible from ``medium`` on. Selects the generated / classic cases (``None``: ``easy``); a
  case given as a file (``cases=[paths]`` or ``options["case"]``) plays at its own level, a case
  bank at the bank's (``None``; another level is a ``ValueError``).
* ``cases`` — ``"generated"`` (a fresh ``generate_case(level, seed, deck_size)`` at every
  reset, ``seed`` drawn from the env's generator), ``"classic"`` (one of the bundled classic
  cases of ``level``, chosen by the generator) or a list of case file paths (loaded and
  validated once, here; one is chosen per reset). A malformed file, or one that is not sound
  and unique (what ``parlour case check`` rejects, with the same message:
  :mod:`parlour.envs.awkward_guests.case.verify`), raises ``ValueError`` here.
* ``observation_mode`` — ``"notebook"``, ``"deduced"`` (adds the deduction engine's view of
  the agent's own notebook; see :mod:`parlour.envs.awkward_guests.observation`) or
  ``"deduced_choices"`` (``deduced`` plus, per hand card, the share of all candidates it rules
  out and, on the agent's own ``offer``/``pay``, the share of the counterpart's known
  candidates it would rule out — :mod:`parlour.envs.awkward_guests.teach` — and, while naming
  an accusation, the choices the candidates left allow given the parts already named) or
  ``"deduced_shares"`` (``deduced_choices`` plus, while naming an accusation, the share of
  those candidates that make each choice) or ``"deduced_odds"`` (``deduced_shares`` plus, on
  the agent's own Solution and naming decisions, the chance of the likeliest candidate making
  each choice under the case generator's odds —
  :mod:`parlour.envs.awkward_guests.case.generator.odds`).
* ``deck_size`` — cards per generated case (24..200).
* ``case_bank`` — deal the cases of a case bank (docs/case_banks.md): a bank file
  (``parlour case bank build``) or a shipped bank's name, a level (``"medium"``: 300 cases,
  splits ``train`` 210 / ``val`` 45 / ``test`` 45). Opening checks the file (format, checksum,
  splits) and, the first time its content is seen on the machine, proves every case sound and
  unique; a bad bank is a ``ValueError`` naming the file and the reason. A reset costs a
  decode (~0.5 ms), not a generation (5–10 ms). ``cases`` must stay ``"generated"``.
* ``case_split`` — the bank's split to deal from (default ``"train"``). A reset with a
  ``seed`` starts an epoch: a permutation of the split drawn from the reset's generator; the
  resets after it without a seed deal the split's cases in that order, each once, then a new
  permutation (sampling without replacement per epoch, reproducible from the seed). A loop
  that passes a new seed at every reset therefore samples with replacement.
* ``max_rounds`` — the round limit; the game is truncated after the Solution phase of that
  round.
* ``render_mode`` — ``None``, ``"ansi"`` (``render()`` returns the public table as text),
  ``"human"`` (prints it) or ``"rgb_array"`` (``render()`` returns a picture of the public table
  with the mansion map, an ``(H, W, 3)`` ``uint8`` array drawn with Pillow:
  :mod:`parlour.envs.awkward_guests.picture`).
* ``seer`` — debugging only: appends the hidden solution to every observation (a leak by
  design), and the ``rgb_array`` picture shows the hidden information (hands face up, bid cards,
  the next deck cards, the solution, accusations in progress, the murderer's route).
* ``case_workers`` — 0..32 background processes that generate the next cases ahead
  (``cases="generated"`` only; not in a daemonic process such as a ``SubprocVecEnv`` worker).
  The games are exactly those of ``case_workers=0`` (a case is used only for the seed the env
  drew itself); only the time changes: with short games (1–3 players) most of a random-play
  step is the reset's case generation, which then runs on other cores. The workers start at the
  first reset (forkserver processes: a script needs ``if __name__ == "__main__":``) and stop
  at ``close()``; a reset the workers could not predict (a new ``seed``, a reshuffle during the
  game) generates its case in the env's process as before, and so does every reset after a
  worker failed (a warning says so once). Loops that reset with a new seed every game gain
  nothing (:mod:`parlour.envs.awkward_guests.case_prefetch`;
  ``env.unwrapped.cases.prefetcher`` counts ``hits`` and ``misses``).

``reset(seed=None, options={"case": Case | path, "deck": [card ids, top first], "start":
seat})`` fixes the case, the deck order (dealing takes 6 cards per seat from the top, seat 0
first) and the start player. ``options`` that is not a dict, an unknown key (a typo such as
``dekc``; ``seed`` belongs in ``reset(seed=...)``) or a value of the wrong type is a
``ValueError`` naming it (the key ``"options"``, PettingZoo ``api_test``'s probe, is ignored). A
case file is checked like ``cases=[paths]`` (once per file version; a regular file of at most
16 MB); a ``Case`` object is played as given. The deck holds ints (Python or NumPy; no floats,
strings or bools). A reset that raises changes nothing: the game in progress and the generator
stay as they were. Before the first reset, ``observe``, ``action_mask``, ``step``,
``player_view``, ``results`` and ``render`` raise ``RuntimeError("call reset() before ...")``.

Action space
------------

| ids | meaning |
|---|---|
| 0–15 | REF: suspects (6, board order) then rooms (10) — inquiry |
| 16–47 | CARD slot ``i`` of your hand (sorted by card id; at most 32) — offer / pay / discard |
| 48 | YES — accept this bid / accuse |
| 49 | NO — done offering / decline this bid / go on |
| 50–55 | SUSPECT — murderer, or accomplice |
| 56–73 | MOTIVE (18, board order) — of the suspect just named |
| 74–93 | WEAPON (20) |
| 94 | NO_ACCOMPLICE |

Decisions (each is a step of the agent that makes it): inquiry ``REF`` × 2 (× 4 with 1–2
players); each bidder ``CARD``… then ``NO`` (players with no matching card are skipped); the
active player ``YES``/``NO`` per bid, and after ``YES`` ``CARD``… until the bid is covered;
Solution phase ``YES``/``NO``, then ``SUSPECT`` → ``MOTIVE`` → ``WEAPON`` → (medium+:
``NO_ACCOMPLICE`` | ``SUSPECT`` → ``MOTIVE``); discard ``CARD``… until 3 remain. The mask allows
exactly the legal moves (a bid you cannot cover cannot be accepted, nor one that could take a
hand past 32 cards); it is all zeros for every agent but ``agent_selection``.

Observation space
-----------------

Egocentric ``float32`` in ``[0, 1]``, one size for every player count and level; named parts
are in ``env.unwrapped.observation_layout`` (table in :mod:`parlour.envs.awkward_guests.observation`):
the notebook (every fact the agent has seen, on a fixed grid), the hand, the public table
and the agent's own pending decision. ``env.unwrapped.player_view(agent)`` returns the same
information as a structured, read-only :class:`~parlour.envs.awkward_guests.view.GuestsView`.

Rewards
-------

Zero-sum (2+ players), paid when the game ends, to every agent at once. A player whose
accusation is wrong is out at once (its hand is shown to everybody) and takes no further part:
it stays in ``env.agents`` with an all-zero mask, is never ``agent_selection`` again and gets
no reward while the others play on; when the game ends it terminates together with everybody
(``terminations[agent] = True``, also when the others are truncated at the round limit) and is
paid its ``−1/(n−1)``. Correct accusers of one Solution phase win
together: each gets ``n/((n−1)·|W|) − 1/(n−1)``, everyone else ``−1/(n−1)``. The last player
left wins (+1). A game without a winner — everyone left accused wrongly in the same phase, or
the round limit (``truncations`` all ``True``) — is a draw among the ``m`` players still in:
each gets ``k/((n−1)·m)`` where ``k`` players are out (0 when nobody is out). Solo: ``+1 −
0.01 × rounds`` for a correct accusation, ``−1`` for a wrong one, ``0`` at the round limit.
Illegal actions: ``env()`` wraps the game in ``TerminateIllegalWrapper`` (the offender gets −1,
a player who went out earlier the −1/(n−1) it was due, everybody else 0; the game ends); ``raw_env().step`` raises :class:`~parlour.envs.awkward_guests.game.IllegalActionError`
and leaves the state unchanged. A bool, float or string is never an action:
``raw_env().step(True)`` raises ``IllegalActionError`` ("not an int"), ``env().step(True)``
PettingZoo's "action is not in action space" assertion, as for ``1.0``.

Infos and results
-----------------

``infos[agent]`` is ``{}`` for every agent at every step, the end included (a fresh dict each
step), so that libraries which batch infos (Tianshou, TorchRL, SuperSuit) can. The outcome is
read from ``env.unwrapped.results()``, a new ``dict`` on every call, valid at any moment:

| key | value |
|---|---|
| ``phase`` | the public phase (``inquiry``, ``offer``, ``exchange``, ``solution``, ``discard``, ``over``) |
| ``over`` | ``True`` once the game has ended |
| ``result`` | ``None`` while the game runs, then ``"win"``, ``"draw"``, ``"truncated"`` (round limit) or, solo, ``"loss"`` |
| ``out`` | ``{agent: it is out}`` (a wrong accusation) |
| ``scores`` | ``{agent: 1 for a winner, 0 otherwise}`` (all 0 while the game runs) |
| ``winners`` | list of agents (``[]`` while the game runs, in a draw and at the round limit) |
| ``returns`` | ``{agent: total reward of the game}``: ``−1/(n−1)`` for a player who is out (final at once, paid at the end), ``0.0`` for the others while the game runs; at the end what ``rewards`` paid |
| ``rounds`` | the current round (1-based); at the end the round the game ended in |
| ``accusations`` | ``{agent: accusations it made}`` (0 or 1: a wrong accuser is out, a correct one ends the game) |
| ``wrong_accusations`` | ``{agent: how many of them were wrong}`` |
| ``solved`` | ``{agent: it accused correctly}`` |

Everything in it is public at every moment: accusations are counted when their Solution phase
is resolved, and while the game runs the only resolved ones are the wrong ones, i.e. who is out.

Extras
------

* ``env.unwrapped.observation_layout`` — block name → slice of the observation vector.
* ``env.unwrapped.player_view(agent)`` — a read-only :class:`~parlour.envs.awkward_guests.view.GuestsView`
  of exactly what the agent may know (hand with each card's facts, notebook cards, public
  table, own pending decision).
* ``env.unwrapped.action_mask(agent)`` — the ``action_mask`` of ``observe(agent)`` without
  encoding the observation (for agents that read only the mask: the training env's opponents).
* ``env.unwrapped.deduction(agent)`` — the deduction engine's state over the agent's notebook
  (:class:`~parlour.envs.awkward_guests.case.deduction.Deduction`; read-only), any observation mode.
* ``env.unwrapped.notebook(agent)`` — the agent's notebook grid
  (:mod:`parlour.envs.awkward_guests.notebook`).
* ``env.unwrapped.game`` — the engine state (:class:`~parlour.envs.awkward_guests.game.GuestsState`):
  hidden information, for debugging and tests only.

Rules and rulings: :mod:`parlour.envs.awkward_guests.game`.

Version history
---------------

| version | change |
|---|---|
| v0 | first release; later without a version change: the final infos add ``rounds``, ``accusations``, ``wrong_accusations``, ``solved``; ``render_mode="rgb_array"`` |
| v1 | **infos** are always ``{}`` (libraries that batch infos — Tianshou, TorchRL, SuperSuit — work); the outcome and statistics are ``env.unwrapped.results()``. **Knock-outs**: a player who is out stays in ``env.agents`` (all-zero mask, never selected) and terminates with everybody at the end, where its ``−1/(n−1)`` is paid (v0: terminated and paid at once, removed after its ``step(None)``); every total reward is unchanged. **Observation**: the ``last_turns`` block (8 × 57 = 456 floats: the public record of every player's most recent turn — asked references, bids, accepted trades, cards paid), size 2313 (``deduced`` 2384; ``seer`` adds 70), was 1857 (1928); ``player_view`` gains ``last_turns``. **Spaces**: one object per agent, ``KeyError`` for an unknown agent; ``str(env())`` is ``awkward_guests_v1``. Actions, rules and rewards unchanged. Later without a version change (added options; every existing observation and game is unchanged): ``observation_mode="deduced_choices"``; ``case_workers``; ``observation_mode="deduced_shares"``; ``observation_mode="deduced_odds"``. |
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import numpy as np
from pettingzoo import AECEnv

from parlour.envs._checks import check_reset_options, check_seed, require_int, require_reset
from parlour.envs.aec_common import TableGameAEC
from parlour.envs.wrappers import classic_wrappers

from . import actions as A
from . import game as G
from .case.deduction import Deduction
from .case_source import DEFAULT_CASE_SPLIT, CaseSource
from .observation import OBSERVATION_MODES, ObservationEncoder
from .render import render_table
from .view import GuestsView, make_view

RENDER_MODES = ("ansi", "human", "rgb_array")
#: the keys of ``reset(options=...)``, of this env and the solo env (any other is a ``ValueError``)
RESET_OPTIONS = ("case", "deck", "start")


def validate_common(observation_mode: Any, max_rounds: Any, render_mode: Any, seer: Any) -> None:
    if observation_mode not in OBSERVATION_MODES:
        raise ValueError(
            f"observation_mode must be one of {list(OBSERVATION_MODES)}, got {observation_mode!r}"
        )
    require_int("max_rounds", max_rounds, 1)
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(
            f"render_mode must be None or one of {list(RENDER_MODES)}, got {render_mode!r}"
        )
    if not isinstance(seer, bool):
        raise ValueError(f"seer must be True or False, got {seer!r}")


class raw_env(TableGameAEC, AECEnv):
    """The unwrapped Awkward Guests AEC environment (see the module docstring)."""

    metadata = {
        "name": "awkward_guests_v1",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        num_players: int = 2,
        level: str | None = None,
        cases: str | list[str | Path] = "generated",
        observation_mode: str = "notebook",
        deck_size: int = 70,
        max_rounds: int = G.DEFAULT_MAX_ROUNDS,
        render_mode: str | None = None,
        seer: bool = False,
        case_workers: int = 0,
        case_bank: str | Path | None = None,
        case_split: str = DEFAULT_CASE_SPLIT,
    ) -> None:
        super().__init__()
        validate_common(observation_mode, max_rounds, render_mode, seer)
        self.config = G.GuestsConfig(num_players, max_rounds)
        self.cases = CaseSource(level, cases, deck_size, case_workers, case_bank, case_split)
        self.level = self.cases.level
        self.observation_mode = observation_mode
        self.render_mode = render_mode
        self.seer = seer

        n = self.config.num_players
        self._encoder = ObservationEncoder(observation_mode, seer)
        self.observation_layout: dict[str, slice] = dict(self._encoder.layout)
        self._setup_table(n, self._encoder.size, A.NUM_ACTIONS)
        self.game: G.GuestsState | None = None
        self.agents: list[str] = []

    # -- core API -------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        # A reset that raises (a bad case or deck) changes nothing: the new game is dealt with a
        # copy of the generator, which replaces the env's only once the deal succeeded.
        check_seed(seed)
        if seed is not None or self._np_random is None:
            rng = np.random.default_rng(seed)
        else:
            rng = copy.deepcopy(self._np_random)
        options = check_reset_options(options, RESET_OPTIONS)
        self.game = self.cases.new_game(self.config, rng, options, restart=seed is not None)
        self._np_random = rng
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player]
        self._skip_agent_selection = None

    def close(self) -> None:
        self.cases.close()  # the case workers, if any

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
        state = self.game
        if state is None:  # (inline: a hot path)
            require_reset(None, "action_mask")
        if self.agent_name_mapping[agent] == state.current_player and agent == self.agent_selection:
            return state.legal_mask()
        return np.zeros(A.NUM_ACTIONS, np.int8)

    def step(self, action: int | None) -> None:
        if self.game is None:  # (inline: a hot path)
            require_reset(None, "step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.game
        decider = state.current_player
        state.apply(action)  # raises IllegalActionError, state unchanged
        self._cumulative_rewards[agent] = 0.0
        self.infos = {a: {} for a in self.agents}
        agents = self.possible_agents
        if state.is_terminal:
            # everybody's reward of the game, players who went out earlier included (see docs)
            returns = state.returns()
            truncated = state.truncated
            for a in self.agents:
                p = self.agent_name_mapping[a]
                self.rewards[a] = float(returns[p])
                if truncated and not state.out[p]:
                    self.truncations[a] = True
                else:
                    self.terminations[a] = True
        else:
            for a in self.agents:
                self.rewards[a] = 0.0
            self.agent_selection = agents[state.current_player]
        self._accumulate_rewards()
        if state.is_terminal:
            self._deads_step_first()
        # "human" prints once per finished decision (when the decider changes), never per step:
        # the number of steps of a hidden choice (going on vs. a 4-6 step accusation) must not
        # show in what is printed. Alone at the table (the decider never changes, and nobody
        # else watches) it prints after every step.
        solo = self.config.num_players == 1
        if self.render_mode == "human" and (
            solo or state.current_player != decider or state.is_terminal
        ):
            self.render()

    def illegal_move_rewards(self, offender: str, illegal_reward: float) -> dict[str, float]:
        """The rewards when ``env()`` ends the game on ``offender``'s illegal move: the
        offender gets ``illegal_reward``, a player who went out earlier the loss it was due at
        the end (``-1/(n-1)``, as ``results()["returns"]``), everybody else 0."""
        state = self.game
        due = state.elimination_reward()
        rewards = {a: due if state.out[self.agent_name_mapping[a]] else 0.0 for a in self.agents}
        rewards[offender] = illegal_reward
        return rewards

    # -- extras ---------------------------------------------------------------------------

    def player_view(self, agent: str) -> GuestsView:
        """What ``agent`` may know, as an immutable structured view (for scripted agents)."""
        require_reset(self.game, "player_view")
        return make_view(self.game, self.agent_name_mapping[agent])

    def results(self) -> dict[str, Any]:
        """The game's outcome so far (keys: see "Infos and results" in the module docstring)."""
        require_reset(self.game, "results")
        return guests_results(self.game, self.possible_agents)

    def deduction(self, agent: str) -> Deduction:
        """The deduction engine's state over ``agent``'s notebook (what the ``deduced_*`` blocks
        show; kept incrementally by the encoder, shared: read it, never change it)."""
        require_reset(self.game, "deduction")
        return self._encoder.deduction(self.game, self.agent_name_mapping[agent])

    def notebook(self, agent: str) -> np.ndarray:
        """The notebook grid of ``agent`` (the ``notebook`` block of its observation)."""
        require_reset(self.game, "notebook")
        return self._encoder.notebook(self.game, self.agent_name_mapping[agent])

    def _table_text(self) -> str:
        require_reset(self.game, "render")
        return render_table(self.game, self.possible_agents)

    def _table_picture(self) -> np.ndarray:
        from .picture import draw_table  # Pillow: loaded on first use

        require_reset(self.game, "render")
        return draw_table(self.game, self.possible_agents, seer=self.seer)


def final_stats(state: G.GuestsState, agents: list[str]) -> dict[str, Any]:
    """The accusation statistics of ``results()`` (fresh objects on every call):
    ``rounds`` (the current round; the round the game ended in once it is over) and, per agent, ``accusations`` (how many it
    made), ``wrong_accusations`` (how many were wrong) and ``solved`` (it accused correctly)."""
    made = [0] * len(agents)
    wrong = [0] * len(agents)
    solved = [False] * len(agents)
    for _, p, correct in state.accusation_log:
        made[p] += 1
        if correct:
            solved[p] = True
        else:
            wrong[p] += 1
    return {
        "rounds": int(state.round),
        "accusations": dict(zip(agents, made, strict=True)),
        "wrong_accusations": dict(zip(agents, wrong, strict=True)),
        "solved": dict(zip(agents, solved, strict=True)),
    }


def guests_results(state: G.GuestsState, agents: list[str]) -> dict[str, Any]:
    """``raw_env.results()`` of ``state`` (fresh objects on every call)."""
    scores = state.scores()
    return {
        "phase": state.phase_name,
        "over": state.is_terminal,
        "result": state.result,
        "out": {a: bool(state.out[p]) for p, a in enumerate(agents)},
        "scores": dict(zip(agents, scores, strict=True)),
        "winners": [agents[p] for p in state.winners],
        "returns": {a: float(r) for a, r in zip(agents, state.returns(), strict=True)},
        **final_stats(state, agents),
    }


def env(**kwargs: Any) -> AECEnv:
    """The wrapped environment: TerminateIllegal → AssertOutOfBounds → OrderEnforcing
    (PettingZoo's classes, with fast attribute forwarding: see :mod:`parlour.envs.wrappers`)."""
    return classic_wrappers(raw_env(**kwargs), illegal_reward=-1)
