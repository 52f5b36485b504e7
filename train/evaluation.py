"""Evaluating a learner during and after training, for both backends (SB3 and RLlib).

| function | what |
|---|---|
| :func:`evaluate_agent` | a two-kind tournament of the learner's agent spec (``ppo:PATH``, ``rllib:PATH``) against each baseline, on deals seeded apart from training |
| :func:`learner_summary` | the learner's entry of each tournament (and solo, the baseline's on the same deals), with the game's own statistics |
| :func:`log_evaluation` | a periodic evaluation into the trainer's logger (``eval/win_rate_vs_<opp>``, the game's ``log_keys``) |
| :func:`eval_options` | the game options for evaluation (training-only options removed) |

Solo (``players == 1``) the "tournament" has one seat: the learner and the baseline each play
the same deals alone (``games / 2`` each), so the win rate is the solve rate and the baseline's
entry is a reference on the same deals, not an opponent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from parlour.games import Game
    from parlour.train.config import TrainConfig

#: evaluation deals are seeded apart from training episodes: deal seeds start at
#: ``EVAL_SEED_BASE + seed * EVAL_SEEDS_PER_RUN`` (+ the steps of a periodic evaluation)
EVAL_SEED_BASE = 10_000_000
EVAL_SEEDS_PER_RUN = 100_000


def eval_options(cfg: TrainConfig) -> dict[str, Any]:
    """Game options for evaluation (training-only options such as ``reward_mode`` removed)."""
    return cfg.game_spec.evaluation_options(cfg.game_options)


def evaluate_agent(
    cfg: TrainConfig,
    learner: str,
    agents: list[str],
    games: int,
    progress: bool,
    seed_offset: int = 0,
) -> dict[str, dict[str, Any]]:
    """A two-kind tournament of ``learner`` (an agent spec) against each of ``agents``."""
    from parlour.eval.tournament import run_tournament

    results = {}
    for opp in agents:
        results[opp] = run_tournament(
            cfg.game_spec,
            cfg.players,
            [learner, opp],
            games,
            seed=EVAL_SEED_BASE + cfg.seed * EVAL_SEEDS_PER_RUN + seed_offset,
            game_options=eval_options(cfg),
            workers=cfg.eval.workers,
            progress=progress,
            desc=f"eval vs {opp}",
            trust=cfg.trust_model,  # (parlour train --trust-model)
        )
    return results


#: the keys of a tournament agent entry that every summary keeps
SUMMARY_KEYS = ("win_rate", "ci95", "games", "mean_score", "mean_reward")


def agent_summary(a: dict[str, Any], spec: Game) -> dict[str, Any]:
    keys = SUMMARY_KEYS + spec.evaluation.statistics.agent_keys
    return {k: a[k] for k in keys if k in a}


def learner_summary(results: dict[str, dict[str, Any]], spec: Game) -> dict[str, Any]:
    """The learner's entry of each tournament (by opponent), with the game's own statistics
    (``spec``: the tournaments' game); solo also the baseline's entry on the same deals
    (``baseline``)."""
    out = {}
    for opp, r in results.items():
        game = spec
        out[opp] = agent_summary(r["agents"][0], game)
        if r["players"] == 1:
            out[opp]["baseline"] = agent_summary(r["agents"][1], game)
    return out


def log_evaluation(logger: Any, summary: dict[str, Any], spec: Game) -> dict[str, str]:
    """Log a periodic evaluation (``eval/win_rate_vs_<opp>`` and the game's ``log_keys``);
    returns the progress bar's short win rates."""
    post = {}
    for opp, s in summary.items():
        logger.record(f"eval/win_rate_vs_{opp}", s["win_rate"])
        for key in spec.evaluation.statistics.log_keys:  # the game's own numbers
            if s.get(key) is not None:
                logger.record(f"eval/{key}_vs_{opp}", s[key])
        post[opp.split(".")[-1]] = f"{100 * s['win_rate']:.0f}%"
    return post
