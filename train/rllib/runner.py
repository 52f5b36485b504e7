"""``parlour train CONFIG`` with ``backend: rllib``: multi-agent PPO on RLlib's new API stack.

```
parlour train my_rllib.yaml                         # a local Ray (all cores, or rllib.num_cpus)
parlour train my_rllib.yaml --address auto          # an existing Ray cluster (also RAY_ADDRESS)
parlour train my_rllib.yaml --resume --trust-model  # continue from runs/<name>/checkpoints/latest
```

The run folder follows the SB3 backend's rules (:mod:`parlour.train.run_folder`): it is locked
while a run uses it, a folder that holds a run is refused unless ``--overwrite`` (emptied only
once the algorithm is built) or ``--resume``, and ``--resume`` refuses a config that changes the
game or the PPO settings.

What a run does (the config's keys: :mod:`parlour.train.config`, :mod:`parlour.train.rllib.settings`):

1. joins Ray (``--address``, else ``rllib.address``, else ``RAY_ADDRESS``, else a new local Ray);
2. builds PPO with :class:`~parlour.train.rllib.env.SelfPlayEnv` on ``rllib.num_env_runners``
   env runners, the :class:`~parlour.agents.rllib_module.MaskedPPOModule` learner and its frozen
   snapshots (:mod:`parlour.train.rllib.league`), the ``ppo`` hyper-parameters;
3. trains until ``total_timesteps`` env steps (one step = one policy move; scripted baselines'
   moves happen inside a step), with a progress bar and TensorBoard scalars in
   ``runs/<name>/logs/`` (episode returns, losses, env steps/s);
4. every ``opponents.snapshot_every`` steps copies the learner into a snapshot slot; every
   ``eval.every`` steps writes the learner's safe export and plays the periodic evaluation
   against it (the tournament code of ``parlour eval``, agent ``rllib:`` of the export); every
   ``checkpoint_every`` steps writes ``checkpoints/latest`` (an RLlib Algorithm checkpoint with
   the safe export ``policy.safetensors`` inside, :mod:`parlour.train.rllib.export`) and
   ``checkpoints/state.json``;
5. at the end writes ``checkpoint/`` (the agent ``rllib:runs/<name>/checkpoint``), plays the
   final evaluation and writes ``report.md``, ``report.json``, ``learning_curve.png`` as the
   SB3 backend does (``report.json`` adds ``backend``, ``ray_address`` and the run's env
   runners).

Faults:

| what | what the run does |
|---|---|
| Ctrl-C or SIGTERM (SLURM, ``timeout``, ``docker stop``) while training | saves ``checkpoints/latest`` and ``checkpoint/`` of the weights at that moment (steps: the last whole iteration), the state and the report (``"interrupted": true``, no final evaluation); one line on stderr, exit 130; ``--resume`` continues |
| Ctrl-C or SIGTERM during the final evaluation | ``checkpoint/`` and ``checkpoints/latest`` are already saved: the report (``"interrupted": true``, ``"interrupted_during": "final evaluation"``, no final table), one line, exit 130; ``--resume`` trains no further step (as for any finished run) and plays the final evaluation |
| Ctrl-C or SIGTERM while a checkpoint is written | held until the checkpoint is whole (:func:`~parlour.safe_stop.held_stop_signals`), then as above |
| a kill at any moment | every file is written to a temporary name and moved into place; a checkpoint folder is rotated in only when complete, the one before kept as ``checkpoints/previous`` (:mod:`parlour.train.rllib.checkpoints`) |
| ``--resume`` without ``--trust-model`` | refused in one line (exit 2) before Ray starts or any checkpoint is read: an RLlib checkpoint's learner, optimizer and env-runner state are pickles (:func:`refuse_untrusted_resume`, docs/security.md) |
| ``--resume`` with ``latest`` missing, incomplete or corrupt | resumes from ``previous`` and says so |
| ``--resume`` with no checkpoint that loads, or a corrupt state | one line naming each failure, exit 2 |
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

from parlour._files import write_atomic
from parlour.safe_stop import (
    FINAL_EVALUATION,
    final_eval_interrupt_message,
    held_stop_signals,
    stop_signals_interrupt,
)
from parlour.train.config import TrainConfig, to_yaml
from parlour.train.rllib.checkpoints import (
    LATEST,
    MARKER,
    PREVIOUS,
    load_first,
    resume_candidates,
    resumed_state,
    save_checkpoint,
)
from parlour.train.rllib.league import LEARNER, map_slot, snapshot_ids, take_snapshot
from parlour.train.run_report import MIN_DURATION_S, data_source

#: the run's final checkpoint (the agent ``rllib:runs/NAME/checkpoint``)
FINAL = "checkpoint"
#: the flags that resume a run (its checkpoints hold pickles: :func:`refuse_untrusted_resume`)
RESUME = "--resume --trust-model"
#: activation names of ``ppo.activation`` in RLlib's model config
ACTIVATIONS = {"tanh": "tanh", "relu": "relu"}


def _spaces(cfg: TrainConfig) -> tuple[Any, Any]:
    from parlour.games import make_raw_env
    from parlour.train.rllib.env import adapted_space

    env_options, _ = cfg.game_spec.split_options(cfg.game_options)
    aec = make_raw_env(cfg.game_spec, cfg.players, **env_options)
    return adapted_space(aec), aec.action_space(aec.possible_agents[0])


def snapshot_count(cfg: TrainConfig) -> int:
    """Frozen snapshot modules of the league (0 without self-play snapshots)."""
    o = cfg.opponents
    return o.max_snapshots if o.snapshot_every > 0 and o.snapshot_weight > 0 else 0


def env_config(cfg: TrainConfig) -> dict[str, Any]:
    return {
        "game": cfg.game_spec,
        "players": cfg.players,
        "game_options": dict(cfg.game_options),
        "baselines": dict(cfg.opponents.baselines),
        "baseline_share": cfg.rllib.baseline_share if cfg.players > 1 else 0.0,
        "seed": cfg.seed,
        # pickle-bearing baseline models load only under parlour train --trust-model
        "trust": cfg.trust_model,
    }


def model_config(cfg: TrainConfig) -> dict[str, Any]:
    """The RLModule's ``model_config`` (what the safe export records)."""
    from parlour.train.rllib.export import module_model_config

    r, p = cfg.rllib, cfg.ppo
    return module_model_config(
        list(r.net_arch if r.net_arch is not None else p.net_arch), ACTIVATIONS[p.activation]
    )


def algorithm_config(cfg: TrainConfig) -> Any:
    """The ``PPOConfig`` of a run (new API stack, multi-agent, masked modules)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from parlour.agents.rllib_module import MaskedPPOModule
    from parlour.train.rllib.env import SelfPlayEnv, knockout_callback

    r, p = cfg.rllib, cfg.ppo
    obs_space, act_space = _spaces(cfg)
    module = RLModuleSpec(
        module_class=MaskedPPOModule,
        observation_space=obs_space,
        action_space=act_space,
        model_config=model_config(cfg),
    )
    snapshots = snapshot_ids(snapshot_count(cfg))
    modules = {LEARNER: module, **dict.fromkeys(snapshots, module)}
    lr: Any = p.learning_rate
    if p.learning_rate_end is not None:  # linear decay over the run (RLlib's schedule form)
        lr = [[0, p.learning_rate], [cfg.total_timesteps, p.learning_rate_end]]
    return (
        PPOConfig()
        .api_stack(enable_rl_module_and_learner=True, enable_env_runner_and_connector_v2=True)
        .framework("torch")
        # (the env check steps random actions: illegal ones raise in our envs, by design)
        .environment(SelfPlayEnv, env_config=env_config(cfg), disable_env_checking=True)
        .env_runners(
            num_env_runners=r.num_env_runners,
            num_envs_per_env_runner=r.num_envs_per_env_runner,
            num_cpus_per_env_runner=1,
        )
        .learners(num_learners=r.num_learners)
        .training(
            lr=lr,
            gamma=p.gamma,
            lambda_=p.gae_lambda,
            clip_param=p.clip_range,
            entropy_coeff=p.ent_coef,
            vf_loss_coeff=p.vf_coef,
            grad_clip=p.max_grad_norm,
            train_batch_size_per_learner=r.train_batch_size,
            minibatch_size=r.minibatch_size,
            num_epochs=r.num_epochs,
        )
        .multi_agent(
            policies=set(modules),
            policy_mapping_fn=partial(
                map_slot, snapshots=len(snapshots), snapshot_weight=cfg.opponents.snapshot_weight
            ),
            policies_to_train=[LEARNER],
        )
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=modules))
        .callbacks(on_episode_end=knockout_callback)
        .debugging(seed=cfg.seed)
    )


def init_ray(address: str | None, num_cpus: int | None) -> str:
    """Join the cluster at ``address`` (or ``RAY_ADDRESS``), else start a local Ray; returns
    where it runs. A Ray already initialised in this process (a test's) is used as it is."""
    import ray

    if ray.is_initialized():
        return "existing"
    address = address or os.environ.get("RAY_ADDRESS") or None
    if address:
        ray.init(address=address)
        return address
    ray.init(num_cpus=num_cpus, include_dashboard=False)
    return "local"


# -- the run ------------------------------------------------------------------------------------


class Session:
    """The training loop's schedule, state and logs (``checkpoints/state.json``)."""

    def __init__(self, cfg: TrainConfig, run_dir: Path, data: dict[str, Any] | None) -> None:
        self.cfg, self.run_dir = cfg, run_dir
        self.state_path = run_dir / "checkpoints" / "state.json"
        data = data or {}
        self.steps: int = data.get("timesteps", 0)
        self.history: list[dict[str, Any]] = [
            h for h in data.get("history", []) if h.get("timesteps", 0) <= self.steps
        ]
        self.snapshots: list[dict[str, Any]] = data.get("snapshots", [])
        self.wall_time: float = data.get("wall_time", 0.0)
        #: policy slots knocked out in training episodes (games with knock-outs)
        self.knockouts: int = data.get("knocked_out_slots", 0)
        self.train_time = 0.0  # this session, evaluations and checkpoints excluded
        self.session_steps = 0

    def due(self, every: int, before: int) -> bool:
        """A multiple of ``every`` was crossed from ``before`` to the current steps."""
        return every > 0 and self.steps // every > before // every

    def state(self) -> dict[str, Any]:
        return {
            "timesteps": self.steps,
            "history": self.history,
            "snapshots": self.snapshots,
            "wall_time": round(self.wall_time, 1),
            "knocked_out_slots": self.knockouts,
        }

    def save(self) -> None:
        write_atomic(self.state_path, json.dumps(self.state(), indent=1))


def evaluate_checkpoint(
    cfg: TrainConfig, path: Path, agents: list[str], games: int, progress: bool, offset: int
) -> dict[str, dict[str, Any]]:
    """Tournaments of the checkpoint's learner (``rllib:PATH``) against each of ``agents``."""
    from parlour.train.evaluation import evaluate_agent

    return evaluate_agent(cfg, f"rllib:{path}", agents, games, progress, offset)


def _scalars(result: dict[str, Any], prefix: str = "") -> dict[str, float]:
    """The numeric scalars of a nested result dict as ``a/b/c`` tags."""
    out: dict[str, float] = {}
    for key, value in result.items():
        tag = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(_scalars(value, f"{tag}/"))
        elif isinstance(value, int | float) and not isinstance(value, bool):
            out[tag] = float(value)
    return out


#: the result sections logged to TensorBoard
LOGGED_SECTIONS = ("env_runners", "learners")


def _sampled(result: dict[str, Any]) -> int:
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED

    return int(result[ENV_RUNNER_RESULTS].get(NUM_ENV_STEPS_SAMPLED, 0))


def _iteration(algo: Any, s: Session, writer: Any) -> None:
    """One ``algo.train()``: steps, time and TensorBoard scalars."""
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS

    from parlour.train.rllib.env import KNOCKOUT_METRIC

    t0 = time.perf_counter()
    result = algo.train()
    dt = time.perf_counter() - t0
    n = _sampled(result)
    s.steps += n
    s.session_steps += n
    s.train_time += dt
    s.knockouts += int(result[ENV_RUNNER_RESULTS].get(KNOCKOUT_METRIC, 0))
    for section in LOGGED_SECTIONS:
        for tag, value in _scalars(result.get(section, {}), f"{section}/").items():
            writer.add_scalar(tag, value, s.steps)
    writer.add_scalar("time/env_steps_per_s", n / max(dt, MIN_DURATION_S), s.steps)


def export_learner(algo: Any, cfg: TrainConfig, path: Path) -> None:
    """Write the learner's weights as parlour's safe export (:mod:`parlour.train.rllib.export`)."""
    from parlour.train.rllib.export import export_document, write_export

    obs_space, act_space = _spaces(cfg)
    weights = algo.learner_group.get_weights(module_ids=[LEARNER])[LEARNER]
    document = export_document(
        model_config(cfg), obs_space["observation"].shape[0], int(act_space.n)
    )
    write_export(path, weights, document)


def _write_algorithm(algo: Any, cfg: TrainConfig, folder: Path) -> None:
    """An RLlib Algorithm checkpoint in ``folder`` with the safe export inside it."""
    from parlour.train.rllib.export import export_path

    algo.save_to_path(str(folder.resolve()))
    export_learner(algo, cfg, export_path(folder))


def save_latest(algo: Any, s: Session) -> None:
    """``checkpoints/latest`` (the old one kept as ``previous`` until the new one is whole)
    and the run state (callers hold SIGINT/SIGTERM meanwhile: :func:`held_stop_signals`)."""
    ckpts = s.run_dir / "checkpoints"
    save_checkpoint(ckpts, LATEST, partial(_write_algorithm, algo, s.cfg), s.state())
    s.save()


def save_final(s: Session) -> Path:
    """``checkpoint/`` (the agent ``rllib:runs/NAME/checkpoint``): a copy of ``latest``."""
    latest = s.run_dir / "checkpoints" / LATEST

    def copy(tmp: Path) -> None:
        shutil.copytree(latest, tmp, dirs_exist_ok=True, ignore=shutil.ignore_patterns(MARKER))

    return save_checkpoint(s.run_dir, FINAL, copy, s.state(), keep_previous=False)


def _periodic_evaluation(algo: Any, s: Session, writer: Any) -> dict[str, str]:
    from parlour.train.evaluation import learner_summary
    from parlour.train.rllib.export import EXPORT_NAME

    cfg = s.cfg
    path = s.run_dir / "checkpoints" / f"eval_{EXPORT_NAME}"
    export_learner(algo, cfg, path)
    try:
        results = evaluate_checkpoint(cfg, path, cfg.eval.agents, cfg.eval.games, False, s.steps)
    finally:
        path.unlink(missing_ok=True)
    summary = learner_summary(results, cfg.game_spec)
    s.history.append(
        {"timesteps": s.steps, "wall_time_s": round(s.wall_time, 1), "results": summary}
    )
    post = {}
    for opp, entry in summary.items():
        writer.add_scalar(f"eval/win_rate_vs_{opp}", entry["win_rate"], s.steps)
        post[opp.split(".")[-1]] = f"{100 * entry['win_rate']:.0f}%"
    return post


def _train_loop(algo: Any, s: Session, progress: bool) -> bool:
    """Train to ``total_timesteps``; returns whether SIGINT/SIGTERM stopped it (the weights
    are then those of the moment it came, the steps those of the last whole iteration)."""
    from torch.utils.tensorboard import SummaryWriter
    from tqdm.auto import tqdm

    cfg = s.cfg
    slots = snapshot_ids(snapshot_count(cfg))
    writer = SummaryWriter(str(s.run_dir / "logs"))
    bar = tqdm(
        total=cfg.total_timesteps,
        initial=min(s.steps, cfg.total_timesteps),
        desc="train",
        unit="step",
        disable=not progress,
    )
    mark = time.perf_counter()
    try:
        while s.steps < cfg.total_timesteps:
            before = s.steps
            _iteration(algo, s, writer)
            bar.update(min(s.steps, cfg.total_timesteps) - min(before, cfg.total_timesteps))
            if slots and s.due(cfg.opponents.snapshot_every, before):
                slot = slots[len(s.snapshots) % len(slots)]
                take_snapshot(algo, slot)
                s.snapshots.append({"slot": slot, "timesteps": s.steps})
            if s.due(cfg.eval.every, before) and s.steps < cfg.total_timesteps:
                bar.set_postfix(_periodic_evaluation(algo, s, writer))
            if s.due(cfg.checkpoint_every, before):
                s.wall_time += time.perf_counter() - mark
                mark = time.perf_counter()
                with held_stop_signals():  # (a stop waits for the checkpoint, then is taken)
                    save_latest(algo, s)
    except KeyboardInterrupt:
        return True
    finally:
        bar.close()
        writer.close()
        s.wall_time += time.perf_counter() - mark
    return False


def _prepare(cfg: TrainConfig, run_dir: Path, resume: bool) -> None:
    """Empty a replaced run (``--overwrite`` was checked before) and write the config."""
    from parlour.train.run_folder import clear_run_dir

    if not resume:
        clear_run_dir(run_dir)
    for sub in ("", "checkpoints", "logs"):
        (run_dir / sub).mkdir(parents=True, exist_ok=True)
    write_atomic(run_dir / "config.yaml", to_yaml(cfg.to_dict()))


def _check_run_dir(cfg: TrainConfig, run_dir: Path, resume: bool, overwrite: bool) -> None:
    """The SB3 backend's rules (:mod:`parlour.train.run_folder`) with RLlib's checkpoint
    (``latest``, else ``previous`` when a kill left no ``latest``)."""
    from parlour.train.run_folder import check_new_run, check_resume, refuse_agent_models_in

    if resume:
        ckpts = run_dir / "checkpoints"
        name = LATEST if (ckpts / LATEST).is_dir() or not (ckpts / PREVIOUS).is_dir() else PREVIOUS
        check_resume(run_dir, cfg.to_dict(), checkpoint=name)
        refuse_untrusted_resume(run_dir, cfg.trust_model)  # (before Ray starts)
    else:
        refuse_agent_models_in(cfg, run_dir)
        check_new_run(run_dir, overwrite)


def train_rllib(
    cfg: TrainConfig,
    runs: Path = Path("runs"),
    resume: bool = False,
    progress: bool = True,
    address: str | None = None,
    overwrite: bool = False,
) -> dict[str, Any]:
    """Run one RLlib training job; returns the report (also written to ``report.json``).

    The run folder follows the SB3 backend's rules (:mod:`parlour.train.run_folder`): locked
    while in use, an existing run refused unless ``overwrite`` (then emptied only once the
    algorithm is built) or ``resume`` (with a config that keeps the model and the game).
    SIGINT or SIGTERM during training saves the run (``report["interrupted"]``)."""
    from parlour.train.run_folder import RunLock, check_runs_parent

    check_runs_parent(runs)
    run_dir = runs / cfg.name
    with RunLock(run_dir):
        _check_run_dir(cfg, run_dir, resume, overwrite)
        return _train_rllib_locked(cfg, run_dir, resume, progress, address)


def refuse_untrusted_resume(run_dir: Path, trust: bool) -> None:
    """:class:`~parlour.agents.trust.UntrustedModelError` unless ``trust``: ``--resume`` reads
    RLlib's checkpoint, whose learner, optimizer and env-runner state are pickles (RLlib has no
    other format for them), so it needs ``--trust-model``."""
    if trust:
        return
    from parlour.agents.trust import TRUST_FLAG, UntrustedModelError

    raise UntrustedModelError(
        f"--resume: {str(run_dir / 'checkpoints')!r} holds RLlib checkpoints: their learner, "
        "optimizer and env-runner state are pickled data, which runs code while it loads. "
        f"Resume the run only if you trust where it came from, with {TRUST_FLAG}; its safe "
        f"export plays without it (agent 'rllib:{run_dir / FINAL}', docs/rllib.md)"
    )


def _resume_algorithm(run_dir: Path, trust: bool = False) -> tuple[Any, dict[str, Any]]:
    """The algorithm and state of the newest checkpoint that loads (``latest``, else
    ``previous``); ``RunFolderError`` naming each failure when none does. Refused before
    anything is read unless ``trust`` (:func:`refuse_untrusted_resume`)."""
    refuse_untrusted_resume(run_dir, trust)
    from ray.rllib.algorithms.algorithm import Algorithm

    ckpts = run_dir / "checkpoints"

    def load(path: Path) -> tuple[Any, dict[str, Any]]:
        state = resumed_state(path, ckpts / "state.json")
        return Algorithm.from_checkpoint(str(path.resolve())), state

    path, (algo, state) = load_first(resume_candidates(ckpts), load, ckpts)
    if path.name != LATEST:
        print(f"parlour train: resuming from {path} ({LATEST} is missing or broken)")
    return algo, state


def _train_rllib_locked(
    cfg: TrainConfig, run_dir: Path, resume: bool, progress: bool, address: str | None
) -> dict[str, Any]:
    import torch

    torch.set_num_threads(1)  # several threads thrash on small shared machines
    where = init_ray(address or cfg.rllib.address, cfg.rllib.num_cpus)
    with stop_signals_interrupt():  # (after ray.init, which makes SIGTERM exit at once)
        if resume:
            algo, state = _resume_algorithm(run_dir, cfg.trust_model)
        else:
            algo, state = algorithm_config(cfg).build_algo(), None
        try:
            _prepare(cfg, run_dir, resume)
            s = Session(cfg, run_dir, state)
            interrupted = _train_loop(algo, s, progress)
            with held_stop_signals() as received:
                save_latest(algo, s)
                save_final(s)
                if interrupted:
                    received.clear()  # (a second Ctrl-C while saving: stopping anyway)
        finally:
            algo.stop()
        if interrupted:
            return _interrupted(s, where)
        return _finish(s, where, progress)


def _report(s: Session, where: str, eval_time: float, final: dict[str, Any]) -> dict[str, Any]:
    from parlour.train.evaluation import learner_summary

    cfg, run_dir = s.cfg, s.run_dir
    steps_per_s = s.session_steps / max(s.train_time, MIN_DURATION_S)
    return {
        "name": cfg.name,
        "game": cfg.game_spec.name,
        "players": cfg.players,
        "game_options": cfg.game_options,
        "data": data_source(cfg),
        "backend": "rllib",
        "ray_address": where,
        "num_env_runners": cfg.rllib.num_env_runners,
        "training_knocked_out_slots": s.knockouts,
        "timesteps": s.steps,
        "train_wall_time_s": round(s.wall_time, 1),
        "train_steps_per_s": round(steps_per_s, 1),  # env steps/s of algo.train() calls
        "final_eval_wall_time_s": round(eval_time, 1),
        "model": str(run_dir / FINAL),
        "agent_spec": f"rllib:{run_dir / FINAL}",
        "final": learner_summary(final, cfg.game_spec),
        "final_tournaments": final,
        "history": s.history,
        "config": cfg.to_dict(),
    }


def _interrupted(s: Session, where: str, during: str | None = None) -> dict[str, Any]:
    """The report of an interrupted run (no final evaluation) and its one line on stderr;
    ``during``: :data:`~parlour.safe_stop.FINAL_EVALUATION` when training was done."""
    from parlour.eval.report import write_report

    with held_stop_signals() as received:
        report = _report(s, where, 0.0, {})
        report["interrupted"] = True
        if during is not None:
            report["interrupted_during"] = during
        write_report(report, s.run_dir, s.cfg.game_spec)
        if during == FINAL_EVALUATION:
            message = final_eval_interrupt_message(s.run_dir, s.steps, f"{FINAL}/", RESUME)
        else:
            message = (
                f"parlour train: interrupted at {s.steps} env steps; saved {s.run_dir / FINAL}, "
                f"checkpoints/{LATEST} and the report in {s.run_dir}; continue with {RESUME}"
            )
        print(message, file=sys.stderr)
        received.clear()  # (a second signal while saving: stopping anyway)
    return report


def _finish(s: Session, where: str, progress: bool) -> dict[str, Any]:
    """The final evaluation, the state's last history entry and the report."""
    from parlour.eval.report import print_report, write_report

    cfg, run_dir = s.cfg, s.run_dir
    steps_per_s = s.session_steps / max(s.train_time, MIN_DURATION_S)
    print(f"training done: {s.steps} env steps, {steps_per_s:.0f} steps/s; final evaluation")
    t_eval = time.perf_counter()
    try:
        final = evaluate_checkpoint(
            cfg, run_dir / FINAL, cfg.eval.final_agents, cfg.eval.final_games, progress, 1
        )
    except KeyboardInterrupt:  # (the checkpoints are saved: the report only)
        return _interrupted(s, where, during=FINAL_EVALUATION)
    report = _report(s, where, time.perf_counter() - t_eval, final)
    s.history.append(
        {
            "timesteps": s.steps,
            "wall_time_s": round(s.wall_time, 1),
            "results": report["final"],
            "final": True,
        }
    )
    s.save()
    write_report(report, run_dir, cfg.game_spec)
    print_report(report, cfg.game_spec)
    print(f"wrote {run_dir}/report.md, report.json, learning_curve.png, {FINAL}/")
    return report
