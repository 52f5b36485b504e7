"""A warm start for PPO: behaviour cloning of a scripted teacher (config section ``imitation``).

PPO from scratch learns slowly what a scripted player already does well (Awkward Guests:
which reference to ask about, what to offer and pay; measured in ``docs/guests_training.md``).
With ``imitation.teacher`` set, ``parlour train`` first lets the teacher play the learner's
seat of the training games, records what it did, and fits the fresh network to it; PPO then
starts from that network (and keeps its own opponents, rewards and hyper-parameters).

| step | what |
|---|---|
| record | the teacher (an agent spec, e.g. ``guests.deducer``) plays the learner's seat of the run's own training games, against the run's opponents, for ``imitation.steps`` learner decisions: the observation the network will see, the action mask, the teacher's action and the reward (shaping included) |
| returns | each recorded decision's discounted return (``ppo.gamma``) to the end of its game; the decisions of games still running when recording stops are dropped (no return yet: a warning when that is over half of them, a :class:`~parlour.train.config.ConfigError` when it is all of them — the run folder is then already emptied) |
| fit | ``imitation.epochs`` passes in minibatches of ``imitation.batch_size``, Adam at ``imitation.learning_rate``: the masked policy's negative log-likelihood of the teacher's action plus ``ppo.vf_coef`` × the value head's squared error against the return (so PPO's first advantages are not noise), gradients clipped to ``ppo.max_grad_norm`` |
| written | ``runs/<name>/imitation.json``: teacher, decisions recorded and kept, the teacher's games, win rate and mean game reward (shaping included), each epoch's loss and the share of decisions where the network's most probable action is the teacher's, wall times |

The teacher sees what an opponent would (its seat's observation and ``player_view``), never
more. Recording needs the training games in the trainer's process: ``vec_env: dummy``, or
``vec_env: batched`` for a game whose batched env holds whole single-seat games (Awkward
Guests, :mod:`parlour.train.multi_game`); Audition's array engine has no per-game state for a
scripted teacher and is refused (:class:`~parlour.train.config.ConfigError`) before the run
folder is touched. Memory: ``steps`` × observation size × 4 bytes (100k Awkward Guests
decisions: 0.95 GB; the kept decisions are indexed, not copied). A ``--resume`` does not imitate again (the checkpoint has the weights).
Everything is seeded from the run's ``seed``: the same config gives the same network.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from parlour._files import write_atomic
from parlour.eval.report import strict_json
from parlour.train.config import ConfigError, TrainConfig

#: decisions of teacher games still running when recording stops are dropped; below this share
#: kept, a warning says that ``imitation.steps`` is short for games this long
MIN_KEPT_SHARE = 0.5


def teacher_games(vec_env: Any) -> list[Any]:
    """The :class:`~parlour.train.single_seat.SingleSeatEnv` games of a training vec env held
    in this process (``MultiGameVecEnv``, ``DummyVecEnv``; under SB3's ``VecMonitor``);
    :class:`ConfigError` for any other (``SubprocVecEnv``, Audition's array engine)."""
    from parlour.train.single_seat import SingleSeatEnv

    env = vec_env
    while hasattr(env, "venv"):  # (VecMonitor and the other VecEnv wrappers)
        env = env.venv
    games = getattr(env, "games", None)
    if games is None and hasattr(env, "envs"):  # DummyVecEnv over Monitor(SingleSeatEnv)
        games = [e.unwrapped for e in env.envs]
    if not games or not all(isinstance(g, SingleSeatEnv) for g in games):
        raise ConfigError(
            f"imitation: the teacher plays whole games in this process: vec_env: dummy, or "
            f"batched for a game whose training part sets multi_game (guests); "
            f"got {type(env).__name__}"
        )
    return list(games)


def record(
    cfg: TrainConfig, vec_env: Any, progress: bool = False
) -> dict[str, np.ndarray | dict[str, Any]]:
    """Let the teacher play the learner's seat for ``cfg.imitation.steps`` decisions (see the
    module docstring); returns ``obs`` (every recorded observation, one row per decision),
    ``rows`` (the kept decisions' rows of it: no copy of the largest array) and the kept
    decisions' ``masks``, ``actions``, ``returns``
    and ``stats`` of the recording."""
    from tqdm.auto import tqdm

    from parlour.agents.factory import make_agent

    games = teacher_games(vec_env)
    n = len(games)
    rounds = -(-cfg.imitation.steps // n)  # (ceil: every game records the same count)
    seeds = np.random.default_rng(cfg.seed).integers(2**62, size=n)
    teachers = [
        make_agent(
            cfg.imitation.teacher,
            cfg.game_spec,
            seed=int(s),
            players=cfg.players,
            trust=cfg.trust_model,
        )
        for s in seeds
    ]
    vec_env.seed(cfg.seed)
    obs = vec_env.reset()
    for teacher, seed in zip(teachers, seeds, strict=True):
        teacher.reset(int(seed))
    dim = obs.shape[1]
    observations = np.empty((rounds, n, dim), np.float32)
    masks = np.empty((rounds, n, vec_env.action_space.n), bool)
    actions = np.empty((rounds, n), np.int64)
    rewards = np.empty((rounds, n), np.float32)
    dones = np.empty((rounds, n), bool)
    wins: list[bool] = []
    episode_reward = np.zeros(n)
    episode_rewards: list[float] = []
    bar = tqdm(
        total=rounds * n, desc="imitation: record", unit="step", disable=not progress, leave=False
    )
    for t in range(rounds):
        observations[t] = obs
        masks[t] = np.stack([game.action_masks() for game in games])
        for i, game in enumerate(games):
            learner = game.learner
            actions[t, i] = teachers[i].act(
                game.aec.observe(learner), game.aec.player_view(learner)
            )
        obs, rewards[t], dones[t], infos = vec_env.step(actions[t])
        episode_reward += rewards[t]
        for i in np.flatnonzero(dones[t]):
            wins.append(bool(infos[i].get("is_success", False)))
            episode_rewards.append(float(episode_reward[i]))
            episode_reward[i] = 0.0
            teachers[i].reset(int(seeds[i]) + len(wins))
        bar.update(n)
    bar.close()
    returns, kept = _returns(rewards, dones, cfg.ppo.gamma)
    short = (
        f"imitation.steps: {cfg.imitation.steps} decisions over {n} games leave "
        f"{int(kept.sum())} in finished games; record more (games here last longer)"
    )
    if not kept.any():
        raise ConfigError(short)
    if kept.sum() < MIN_KEPT_SHARE * kept.size:
        print(f"warning: {short}", file=sys.stderr)
    stats = {
        "decisions_recorded": int(kept.size),
        "decisions_kept": int(kept.sum()),
        "teacher_games": len(wins),
        "teacher_win_rate": float(np.mean(wins)) if wins else None,
        "teacher_mean_reward": float(np.mean(episode_rewards)) if wins else None,
    }
    return {
        "obs": observations.reshape(rounds * n, dim),
        "rows": np.flatnonzero(kept.ravel()),
        "masks": masks[kept],
        "actions": actions[kept],
        "returns": returns[kept],
        "stats": stats,
    }


def _returns(rewards: np.ndarray, dones: np.ndarray, gamma: float) -> tuple[np.ndarray, np.ndarray]:
    """``(returns, kept)`` of ``(T, N)`` rewards and episode ends: each step's discounted return
    to the end of its episode, and whether that episode ended within the recording."""
    returns = np.zeros_like(rewards)
    kept = np.zeros_like(dones)
    running = np.zeros(rewards.shape[1], np.float32)
    ended = np.zeros(rewards.shape[1], bool)
    for t in range(rewards.shape[0] - 1, -1, -1):
        running = rewards[t] + gamma * running * ~dones[t]
        ended |= dones[t]
        returns[t] = running
        kept[t] = ended
    return returns, kept


def fit(
    cfg: TrainConfig, model: Any, data: dict[str, Any], progress: bool = False
) -> list[dict[str, float]]:
    """Fit ``model``'s policy to the recorded decisions (see the module docstring); returns
    each epoch's mean policy loss, value loss and agreement with the teacher."""
    import torch
    from tqdm.auto import tqdm

    policy = model.policy
    im = cfg.imitation
    generator = torch.Generator().manual_seed(cfg.seed)
    optimizer = torch.optim.Adam(policy.parameters(), lr=im.learning_rate, eps=1e-5)
    obs = torch.as_tensor(data["obs"])
    rows = torch.as_tensor(data["rows"])
    masks = torch.as_tensor(data["masks"])
    actions = torch.as_tensor(data["actions"])
    returns = torch.as_tensor(data["returns"])
    size = len(actions)
    history = []
    policy.set_training_mode(True)
    bar = tqdm(
        total=im.epochs, desc="imitation: fit", unit="epoch", disable=not progress, leave=False
    )
    for epoch in range(im.epochs):
        bar.update(1)
        order = torch.randperm(size, generator=generator)
        sums = np.zeros(3)
        for start in range(0, size, im.batch_size):
            idx = order[start : start + im.batch_size]
            values, log_prob, _ = policy.evaluate_actions(obs[rows[idx]], actions[idx], masks[idx])
            policy_loss = -log_prob.mean()
            value_loss = torch.nn.functional.mse_loss(values.flatten(), returns[idx])
            loss = policy_loss + cfg.ppo.vf_coef * value_loss
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), cfg.ppo.max_grad_norm)
            optimizer.step()
            sums += np.array([policy_loss.item(), value_loss.item(), 0.0]) * len(idx)
        sums[2] = _agreement(policy, obs, rows, masks, actions)
        history.append(
            {
                "epoch": epoch + 1,
                "policy_loss": round(sums[0] / size, 5),
                "value_loss": round(sums[1] / size, 5),
                "agreement": round(float(sums[2]), 4),
            }
        )
    bar.close()
    policy.set_training_mode(False)
    return history


def _agreement(
    policy: Any, obs: Any, rows: Any, masks: Any, actions: Any, chunk: int = 4096
) -> float:
    """The share of decisions (``obs[rows]``) where the policy's most probable legal action is
    the teacher's."""
    import torch

    same = 0
    with torch.no_grad():
        for start in range(0, len(actions), chunk):
            dist = policy.get_distribution(
                obs[rows[start : start + chunk]], action_masks=masks[start : start + chunk]
            )
            best = dist.distribution.probs.argmax(dim=1)
            same += int((best == actions[start : start + chunk]).sum())
    return same / max(1, len(actions))


def imitate(
    cfg: TrainConfig, model: Any, vec_env: Any, run_dir: Path, progress: bool = False
) -> dict[str, Any]:
    """Record the teacher, fit ``model`` to it and write ``imitation.json``; returns what was
    written (the run's first stage when ``cfg.imitation.teacher`` is set)."""
    t0 = time.perf_counter()
    data = record(cfg, vec_env, progress)
    t1 = time.perf_counter()
    epochs = fit(cfg, model, data, progress)
    t2 = time.perf_counter()
    summary = {
        "teacher": cfg.imitation.teacher,
        **data["stats"],
        "epochs": epochs,
        "record_wall_time_s": round(t1 - t0, 1),
        "fit_wall_time_s": round(t2 - t1, 1),
    }
    write_atomic(run_dir / "imitation.json", strict_json(summary))
    last = epochs[-1]
    print(
        f"imitation of {cfg.imitation.teacher}: {summary['decisions_kept']} decisions, "
        f"agreement {last['agreement']:.1%} after {len(epochs)} epochs "
        f"({summary['record_wall_time_s'] + summary['fit_wall_time_s']:.0f} s)"
    )
    return summary
