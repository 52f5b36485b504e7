"""``openspiel.ismcts`` and ``openspiel.mcts``: OpenSpiel's search bots as Audition agents.

| spec | bot | what it searches |
|---|---|---|
| ``openspiel.ismcts[:sims=N,uct=C,rollouts=R]`` | ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` | information-set MCTS: one tree per information state, a world resampled for every simulation (:func:`parlour.openspiel.audition.resample`) |
| ``openspiel.mcts[:sims=N,uct=C,rollouts=R]`` | ``open_spiel.python.algorithms.mcts.MCTSBot`` | MCTS over the game with chance nodes |

At each decision with more than one legal action the agent builds a ``parlour_audition`` state
from its player's view (:func:`parlour.openspiel.audition.state_from_view`: the deck is not
fixed, chance nodes draw it from the unseen cards, so the state holds nothing the player does
not know) and asks the bot for its move. Both bots evaluate a leaf by ``rollouts`` uniform random
playouts (OpenSpiel's ``RandomRolloutEvaluator``, run on the engine:
:class:`~parlour.openspiel.audition.EngineRolloutEvaluator`). Because the state is dealt lazily,
plain MCTS does not see hidden cards here: the only hidden card in Audition's future is drawn
by chance nodes, and another seat's drawn card is placed face up before the searcher moves again.

Options: ``sims`` — simulations per decision (default 200, at most ``MAX_SIMS``); ``uct`` — the
UCT exploration constant (default 2: returns lie in [-1, 1]); ``rollouts`` — random playouts per
leaf (default 1, at most 64). The bots search for the win reward (the game's ``reward_mode``
``win``) whatever the env pays: a player's view does not say how the env rewards.
Needs the ``openspiel`` extra (``pip install "parlour[openspiel]"``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parlour.agents.factory import float_option, int_option
from parlour.limits import MAX_SIMS

DEFAULT_SIMS = 200
DEFAULT_UCT = 2.0
DEFAULT_ROLLOUTS = 1
#: the most random playouts per leaf
MAX_ROLLOUTS = 64
BOTS = ("ismcts", "mcts")


class SpielSearchAgent:
    """An OpenSpiel search bot playing one Audition seat (see the module docstring)."""

    def __init__(
        self,
        spec: str,
        seed: int | None,
        bot: str,
        sims: int = DEFAULT_SIMS,
        uct: float = DEFAULT_UCT,
        rollouts: int = DEFAULT_ROLLOUTS,
    ) -> None:
        if bot not in BOTS:
            raise ValueError(f"bot must be one of {list(BOTS)}, got {bot!r}")
        if sims < 1 or rollouts < 1:
            raise ValueError(
                f"{spec}: sims and rollouts must be positive ints, got sims={sims}, "
                f"rollouts={rollouts}"
            )
        if not np.isfinite(uct) or uct <= 0:
            raise ValueError(f"{spec}: uct must be a positive number, got {uct}")
        import parlour.openspiel  # noqa: F401  (the openspiel extra; registers the games)

        self.spec = spec
        self.bot = bot
        self.sims = sims
        self.uct = uct
        self.rollouts = rollouts
        self._games: dict[Any, Any] = {}  # by AuditionConfig
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def _game(self, view: Any) -> Any:
        """The ``parlour_audition`` game of the view's table (loaded once per table)."""
        import pyspiel

        from parlour.openspiel.audition import GAME_NAME, params_of_env

        config = view.config
        if config not in self._games:
            options = {
                "action_cards": config.action_cards,
                "uncertain_counts": config.uncertain_counts,
                "mini": config.mini,
            }
            params = params_of_env(config.num_players, options)
            self._games[config] = pyspiel.load_game(GAME_NAME, params)
        return self._games[config]

    def act(self, observation: dict[str, np.ndarray] | None, view: Any) -> int:
        legal = list(view.legal_actions)
        if not legal:
            raise ValueError(f"{self.spec}: act() called when it is not this player's turn")
        if len(legal) == 1:
            return legal[0]
        from open_spiel.python.algorithms import ismcts, mcts

        from parlour.openspiel.audition import EngineRolloutEvaluator, resample, state_from_view

        game = self._game(view)
        state = state_from_view(game, view)
        evaluator = EngineRolloutEvaluator(self.rollouts, self.rng)
        random_state = np.random.RandomState(int(self.rng.integers(2**31)))
        if self.bot == "ismcts":
            bot = ismcts.ISMCTSBot(
                game,
                evaluator,
                self.uct,
                self.sims,
                random_state=random_state,
                child_selection_policy=ismcts.ChildSelectionPolicy.UCT,
            )
            bot.set_resampler(lambda s, player: resample(s, player, self.rng))
        else:
            bot = mcts.MCTSBot(game, self.uct, self.sims, evaluator, random_state=random_state)
        action = int(bot.step(state))
        if action not in legal:  # (a bot bug must not become an illegal move)
            raise RuntimeError(f"{self.spec}: the bot chose {action}, not legal here ({legal})")
        return action


def _build(
    bot: str, spec: str, seed: int | None, sims: str | None, uct: str | None, rollouts: str | None
) -> SpielSearchAgent:
    return SpielSearchAgent(
        spec,
        seed,
        bot,
        sims=int_option("sims", sims, DEFAULT_SIMS, MAX_SIMS),
        uct=float_option("uct", uct, DEFAULT_UCT),
        rollouts=int_option("rollouts", rollouts, DEFAULT_ROLLOUTS, MAX_ROLLOUTS),
    )


# (module-level builders: a Game and its agents table go to worker processes by pickle)
def ismcts_agent(
    spec: str,
    seed: int | None,
    sims: str | None = None,
    uct: str | None = None,
    rollouts: str | None = None,
) -> SpielSearchAgent:
    """``openspiel.ismcts[:sims=N,uct=C,rollouts=R]``: OpenSpiel's ISMCTS bot."""
    return _build("ismcts", spec, seed, sims, uct, rollouts)


def mcts_agent(
    spec: str,
    seed: int | None,
    sims: str | None = None,
    uct: str | None = None,
    rollouts: str | None = None,
) -> SpielSearchAgent:
    """``openspiel.mcts[:sims=N,uct=C,rollouts=R]``: OpenSpiel's MCTS bot."""
    return _build("mcts", spec, seed, sims, uct, rollouts)
