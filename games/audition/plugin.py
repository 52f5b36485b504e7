"""The Audition plug-in: :data:`GAME`, everything about Audition outside ``parlour.envs.audition``.

| part | where |
|---|---|
| the game | :data:`GAME` (``audition``, 2–6 players; the ``parlour.games`` entry point ``audition``) |
| agents | ``openspiel.ismcts``, ``openspiel.mcts`` (OpenSpiel's search bots: :mod:`~parlour.games.audition.openspiel_agents`, options ``sims=N``, ``uct=C``, ``rollouts=R``; the ``openspiel`` extra); ``audition.greedy`` (:mod:`~parlour.games.audition.greedy`), ``audition.expert`` (:mod:`~parlour.games.audition.expert`, option ``sims=N``), ``audition.search`` (:mod:`~parlour.games.audition.search`, options ``model=PATH`` (required), ``sims=N``, ``rollout=policy|greedy``, ``top=K``, ``depth=D``, ``sample=0|1``); vectorized players for the batched engine (:mod:`~parlour.games.audition.batched_agents`, :mod:`~parlour.games.audition.rollouts`) |
| baselines | ``random``, ``audition.greedy``, ``audition.expert`` (periodic evaluation in training: the first two) |
| training | ``AuditionFeatures`` (:mod:`~parlour.games.audition.training`, torch); batched self-play (:mod:`~parlour.games.audition.selfplay`) |
| evaluation | batched tournaments (:mod:`~parlour.games.audition.batched_tournament`); no statistics beyond wins, scores and rewards |
| ``parlour play audition`` / ``parlour serve`` | :class:`~parlour.games.audition.ui.AuditionTerminal` / :class:`~parlour.games.audition.ui.AuditionWeb` |

Training-only option: ``reward_mode`` (the env's reward: ``win`` zero-sum / ``score``), dropped
for evaluation.
"""

from __future__ import annotations

from parlour.agents.base import Agent
from parlour.agents.factory import int_option
from parlour.envs.audition import rules as R
from parlour.envs.audition.env import raw_env
from parlour.envs.audition.hidden import redeal
from parlour.games import Game
from parlour.games.audition import expert, greedy, search
from parlour.games.audition.batched_tournament import play_batched
from parlour.games.audition.openspiel_agents import ismcts_agent, mcts_agent
from parlour.games.audition.ui import AuditionTerminal, AuditionWeb
from parlour.games.parts import Evaluation, Training
from parlour.limits import MAX_SEARCH_DEPTH, MAX_SEARCH_TOP, MAX_SIMS


def greedy_agent(spec: str, seed: int | None) -> Agent:
    """``audition.greedy``: one-ply greedy."""
    return greedy.GreedyAgent(spec, seed)


def expert_agent(spec: str, seed: int | None, sims: str | None = None) -> Agent:
    """``audition.expert[:sims=N]``: determinized Monte Carlo search."""
    return expert.ExpertAgent(
        spec, seed, sims=int_option("sims", sims, expert.DEFAULT_SIMS, MAX_SIMS)
    )


def search_agent(
    spec: str,
    seed: int | None,
    trust: bool = False,
    model: str | None = None,
    sims: str | None = None,
    rollout: str | None = None,
    top: str | None = None,
    depth: str | None = None,
    sample: str | None = None,
) -> Agent:
    """``audition.search:model=PATH[,sims=N,rollout=policy|greedy,top=K,depth=D,sample=0|1]``:
    determinized search with rollouts by a trained policy."""
    return search.SearchAgent(
        spec,
        seed,
        model=model,
        trust=trust,
        sims=int_option("sims", sims, search.DEFAULT_SIMS, MAX_SIMS),
        rollout=rollout if rollout is not None else "policy",
        top=int_option("top", top, 0, MAX_SEARCH_TOP),
        depth=int_option("depth", depth, search.DEFAULT_DEPTH, MAX_SEARCH_DEPTH),
        sample=int_option("sample", sample, 0),
    )


GAME = Game(
    name="audition",
    make_env=raw_env,
    min_players=R.MIN_PLAYERS,
    max_players=R.MAX_PLAYERS,
    baselines=("random", "audition.greedy", "audition.expert"),
    agents={
        "audition.greedy": greedy_agent,
        "audition.expert": expert_agent,
        "audition.search": search_agent,
        "openspiel.ismcts": ismcts_agent,
        "openspiel.mcts": mcts_agent,
    },
    configurations=(
        *((n, {}) for n in range(R.MIN_PLAYERS, R.MAX_PLAYERS + 1)),
        (2, {"action_cards": 2, "uncertain_counts": True}),
        (4, {"action_cards": 3}),
        (6, {"uncertain_counts": True}),
    ),
    hidden_redeal=redeal,
    training=Training(
        eval_baselines=("random", "audition.greedy"),
        options=("reward_mode",),
        features_extractor="parlour.games.audition.training:AuditionFeatures",
        batched_vec_env="parlour.games.audition.selfplay:make_batched_vec_env",
    ),
    evaluation=Evaluation(batched_tournament=play_batched),
    terminal=AuditionTerminal(),
    web=AuditionWeb(),
)
