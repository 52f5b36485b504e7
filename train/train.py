"""``parlour train CONFIG``: MaskablePPO self-play training from a YAML config.

```
parlour train configs/audition_2p.yaml            # train, evaluate, report
parlour train audition_2p                         # the same, by the name of a shipped config
parlour train configs/audition_2p.yaml --resume   # continue from runs/<name>/checkpoints/
```

``CONFIG`` is a YAML file, or the name of a config shipped with parlour (the ``parlour.configs``
package data, :func:`parlour.train.config.resolve_config_path`). The game it names is resolved
once, when the config is validated, and its :class:`~parlour.games.Game` is passed
down: to the training envs (also in worker processes), the model, the evaluations and the
report.

What a run does (config keys in :mod:`parlour.train.config`):

1. ``n_envs`` copies of :class:`~parlour.train.single_seat.SingleSeatEnv` (learner seat random per
   episode, opponents from the :class:`~parlour.train.opponents.OpponentPool`) in a ``SubprocVecEnv``
   (``vec_env: dummy`` runs them in-process), each wrapped in SB3's ``Monitor``; with
   ``vec_env: batched`` the game's batched env (``Training.batched_vec_env``: Audition's
   :mod:`parlour.games.audition.selfplay`; or, with ``Training.multi_game``, Awkward Guests':
   :mod:`parlour.train.multi_game`; ``n_envs`` games in one process) when it supports the
   config, else the ``SubprocVecEnv``.
2. ``MaskablePPO`` (sb3-contrib) learns for ``total_timesteps`` learner steps, with a progress
   bar; SB3's logger writes TensorBoard events and ``progress.csv`` to ``runs/<name>/logs/``
   (a resumed session to ``logs/resume_<steps>/``).
3. Every ``opponents.snapshot_every`` steps the learner is saved to ``runs/<name>/snapshots/``
   and added to every worker's opponent pool (``env_method("add_snapshot", path)``).
4. Every ``eval.every`` steps the learner plays a tournament (:mod:`parlour.eval.tournament`, the same
   code as ``parlour eval``) against each of ``eval.agents``; win rates are logged (``eval/...``).
5. Every ``checkpoint_every`` steps a checkpoint pair, ``checkpoints/latest.safetensors`` and
   ``checkpoints/state.json`` (evaluation history, snapshots, wall time, the model file's size
   and digest), is written; the pair before it is kept as ``previous.safetensors`` and
   ``previous_state.json`` until the new one is complete (:mod:`parlour.train.checkpoints`).
   ``--resume`` continues from the newest usable pair.
6. At the end: ``model.safetensors``, a final evaluation against ``eval.final_agents`` with
   ``eval.final_games`` games each, ``report.md``, ``report.json``, ``learning_curve.png``, and
   the result table printed.

The learner's summaries (``report.json`` ``final`` and ``history``) add the game's own
statistics (``Game.evaluation.statistics.agent_keys``; Awkward Guests: ``solved``, ``mean_rounds``,
``wrong_accusations``, ``accusations``), the periodic evaluations log its ``log_keys``, and the
final table shows its columns. Solo (``players: 1``) there are no opponents: the learner and
each baseline play the same deals alone (:func:`parlour.train.evaluation.evaluate_agent`), so the report gives the solve
rate of the learner and of each baseline (``final[opp]["baseline"]``) side by side, and the
learning curve the learner's solve rate. The report is rendered by :mod:`parlour.eval.report`.

``--timesteps N`` overrides ``total_timesteps``; ``--dummy`` forces the in-process vec env;
``--runs DIR`` changes the parent folder of run folders (default ``runs``); ``--overwrite``
replaces an existing run of the same name (without it, a folder that holds a run is refused).

Run folders are locked while in use, a new run deletes nothing before its config, envs and model
exist, and ``--resume`` refuses a config that changes the model or the game
(:mod:`parlour.train.run_folder`). Every file a run writes (``config.yaml``, the models and
snapshots, the checkpoints, ``report.json``, ``report.md``, ``learning_curve.png``,
``imitation.json``) is written under a temporary name and moved into place
(:mod:`parlour._files`), so a kill never leaves half a file; SB3's TensorBoard and CSV logs
(``logs/``), appended as training goes, are the exception. Ctrl-C or SIGTERM saves the model, a
checkpoint and the report of what was done and exits with code 130
(:mod:`parlour.safe_stop`); ``--resume`` continues.
A config with ``backend: rllib`` trains on RLlib instead
(:mod:`parlour.train.rllib.runner`; ``--address`` names a Ray cluster).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import multiprocessing
import sys
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from parlour._files import write_atomic
from parlour.agents.model_file import RUN_MODEL_FILE
from parlour.agents.model_file import SUFFIX as MODEL_SUFFIX
from parlour.errors import EXIT_INTERRUPTED
from parlour.games.arguments import trust_argument
from parlour.safe_stop import (
    FINAL_EVALUATION,
    final_eval_interrupt_message,
    interrupt_message,
    no_interrupts,
    stop_signals_interrupt,
    workers_ignore_interrupts,
)
from parlour.train.checkpoints import RunState, fallback_warning, find_checkpoints
from parlour.train.config import ConfigError, TrainConfig, load_config, to_yaml
from parlour.train.evaluation import (
    evaluate_agent,
    learner_summary,
    log_evaluation,
)
from parlour.train.imitation import imitate, teacher_games
from parlour.train.model import (  # (build_model: also imported from here by benchmarks and tests)
    _require_model_file,
    build_model,
    init_weights,
    load_checkpoint,
    save_model,
)
from parlour.train.run_folder import (
    RunFolderError,
    RunLock,
    check_new_run,
    check_resume,
    check_runs_parent,
    clear_run_dir,
    refuse_agent_models_in,
)
from parlour.train.run_report import MIN_DURATION_S, interrupted_report, run_report

if TYPE_CHECKING:
    from parlour.games import Game

HELP = "train a MaskablePPO agent from a YAML config (self-play, evaluation, report)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", help="YAML config file, or the name of a shipped config")
    parser.add_argument("--resume", action="store_true", help="continue from the last checkpoint")
    parser.add_argument("--timesteps", type=int, default=None, help="override total_timesteps")
    parser.add_argument("--dummy", action="store_true", help="use DummyVecEnv (no subprocesses)")
    parser.add_argument("--runs", default="runs", help="parent folder of run folders")
    parser.add_argument(
        "--overwrite", action="store_true", help="replace an existing run of the same name"
    )
    parser.add_argument("--no-progress", action="store_true", help="hide progress bars")
    parser.add_argument(
        "--address", default=None, help="backend: rllib: the Ray cluster to run on (RAY_ADDRESS)"
    )
    trust_argument(parser, "the config's agents and init_from")


def run(args: argparse.Namespace) -> int:
    try:
        cfg = load_config(args.config, trust=args.trust_model)
    except ConfigError as exc:
        print(f"parlour train: {args.config}: {exc}", file=sys.stderr)
        return 2
    if args.timesteps is not None:
        if args.timesteps < 1:
            print("parlour train: --timesteps must be >= 1", file=sys.stderr)
            return 2
        cfg.total_timesteps = args.timesteps
    if args.dummy:
        cfg.vec_env = "dummy"
    if cfg.backend == "rllib":  # multi-agent PPO on Ray (parlour.train.rllib)
        try:
            from parlour.train.rllib.runner import train_rllib
        except ImportError as exc:
            print(
                f"parlour train: backend: rllib needs the rllib extra ({exc}): pip install 'parlour[rllib]'",
                file=sys.stderr,
            )
            return 2

        progress = not args.no_progress
        report = train_rllib(
            cfg, Path(args.runs), args.resume, progress, args.address, args.overwrite
        )
        if report.get("interrupted"):
            return EXIT_INTERRUPTED
        return 0 if report else 1
    try:
        report = train(
            cfg,
            Path(args.runs),
            resume=args.resume,
            progress=not args.no_progress,
            overwrite=args.overwrite,
        )
    except ConfigError as exc:  # (what only the built envs can tell: imitation's teacher)
        print(f"parlour train: {args.config}: {exc}", file=sys.stderr)
        return 2
    if report.get("interrupted"):
        return EXIT_INTERRUPTED
    return 0 if report else 1


# -- environment construction ----------------------------------------------------------------


def _make_env(spec: Game, cfg_dict: dict[str, Any], trust: bool = False) -> Any:
    """One training env (called in the vec env's worker; ``spec`` is pickled there)."""
    from stable_baselines3.common.monitor import Monitor

    from parlour.train.opponents import OpponentPool
    from parlour.train.single_seat import SingleSeatEnv

    workers_ignore_interrupts()  # Ctrl-C is the main process's to handle (it closes the workers)
    if multiprocessing.parent_process() is not None:  # a SubprocVecEnv worker: snapshot
        import torch  # opponents' forward passes on one thread (more thrash against the others)

        torch.set_num_threads(1)
    o = cfg_dict["opponents"]
    pool = OpponentPool(
        spec,
        o["baselines"],
        snapshot_weight=o["snapshot_weight"],
        max_snapshots=o["max_snapshots"],
        trust=trust,
    )
    env = SingleSeatEnv(spec, cfg_dict["players"], cfg_dict["game_options"], pool, prefetch=True)
    return Monitor(env, info_keywords=("is_success",))


def make_vec_env(cfg: TrainConfig) -> Any:
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from parlour.games import load_object

    training = cfg.game_spec.training
    if cfg.vec_env == "batched" and training.batched_vec_env is not None:
        vec_env = load_object(training.batched_vec_env)(cfg)
        if vec_env is not None:  # (None from the hook: per-game envs)
            return vec_env
    elif cfg.vec_env == "batched" and training.multi_game:
        from parlour.train.multi_game import multi_game_vec_env

        return multi_game_vec_env(cfg)

    fns = [
        partial(_make_env, cfg.game_spec, cfg.to_dict(), cfg.trust_model) for _ in range(cfg.n_envs)
    ]
    if cfg.vec_env == "subproc" and cfg.n_envs > 1:
        return SubprocVecEnv(fns)
    return DummyVecEnv(fns)


@contextlib.contextmanager
def frozen_heap() -> Iterator[None]:
    """Leave the objects alive now — the model, the envs and their games, loaded networks, all
    kept for the whole run — out of the garbage collector's passes while the block runs
    (``gc.freeze``; ``gc.unfreeze`` after). Measured on Awkward Guests batched training: a full
    pass over ~435k tracked objects took 0.9 s per 6k learner steps; frozen, 0.14 s."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


# -- the training run ---------------------------------------------------------------------------


def _save_model(model: Any, path: Path) -> None:
    """The run's model and its checkpoints, with Adam's state (snapshots and evaluation copies
    are written without, by :func:`parlour.train.model.save_model` directly): parlour's model
    format, written whole under a temporary name, then moved to ``path`` (a diverged model is
    refused, nothing written)."""
    save_model(model, path, optimizer=True)


def _load_checkpoint_model(cfg: TrainConfig, path: Path, vec_env: Any) -> Any:
    """The model of a checkpoint of this run (``--resume``): built from the config, the
    checkpoint's weights, Adam state and step counts loaded (no code runs)."""
    return load_checkpoint(cfg, vec_env, path)


def _make_callback(
    cfg: TrainConfig, run_dir: Path, state: RunState, progress: bool, t_start: float
):
    from stable_baselines3.common.callbacks import BaseCallback
    from tqdm.auto import tqdm

    class TrainCallback(BaseCallback):
        """Progress bar, snapshots, periodic evaluation and checkpoints."""

        def _on_training_start(self) -> None:
            n = self.num_timesteps
            self.bar = tqdm(
                total=cfg.total_timesteps,
                initial=n,
                desc="train",
                unit="step",
                disable=not progress,
            )
            every = cfg.opponents.snapshot_every
            self.next_snapshot = (n // every + 1) * every if every else None
            self.next_eval = (n // cfg.eval.every + 1) * cfg.eval.every
            self.next_ckpt = (n // cfg.checkpoint_every + 1) * cfg.checkpoint_every
            self.last_n = n
            self.rollout_size = cfg.ppo.n_steps * cfg.n_envs
            self.eval_time = 0.0
            self.boundary = n  # steps of the last finished rollout (what an interrupt keeps)

        def _on_rollout_start(self) -> None:
            # every step so far has been trained on (the last rollout's update is done): the
            # evaluations and checkpoints are of the model after exactly n steps (from a step
            # of the rollout, they held the weights of the update before, labelled n, and a
            # resume from such a checkpoint skipped the rollout in progress)
            n = self.boundary = self.num_timesteps
            if n >= self.next_eval:
                if n + self.rollout_size <= cfg.total_timesteps:  # (else the final eval is next)
                    self.evaluate(n)
                while self.next_eval <= n:
                    self.next_eval += cfg.eval.every
            if n >= self.next_ckpt:
                self.checkpoint(n)
                while self.next_ckpt <= n:
                    self.next_ckpt += cfg.checkpoint_every

        def _on_rollout_end(self) -> None:
            self.boundary = self.num_timesteps

        def _on_step(self) -> bool:
            n = self.num_timesteps
            self.bar.update(n - self.last_n)
            self.last_n = n
            if self.next_snapshot is not None and n >= self.next_snapshot:
                # (the learner as of its last update, named by the step count reached)
                path = run_dir / "snapshots" / f"snapshot_{n}{MODEL_SUFFIX}"
                save_model(self.model, path)
                self.training_env.env_method("add_snapshot", str(path))
                state.snapshots.append(str(path))
                self.next_snapshot += cfg.opponents.snapshot_every
            return True

        def evaluate(self, n: int) -> None:
            t0 = time.perf_counter()
            path = run_dir / "checkpoints" / f"eval_{n}{MODEL_SUFFIX}"
            save_model(self.model, path)
            try:
                results = evaluate_agent(
                    cfg, f"ppo:{path}", cfg.eval.agents, cfg.eval.games, False, n
                )
            finally:  # (also when Ctrl-C or SIGTERM stops the evaluation)
                path.unlink(missing_ok=True)
            summary = learner_summary(results, cfg.game_spec)
            entry = {
                "timesteps": n,
                "wall_time_s": round(state.wall_time + time.perf_counter() - self.t_mark, 1),
                "results": summary,
            }
            state.history.append(entry)
            self.bar.set_postfix(log_evaluation(self.logger, summary, cfg.game_spec))
            self.logger.dump(n)
            self.eval_time += time.perf_counter() - t0

        def checkpoint(self, n: int) -> None:
            state.wall_time += time.perf_counter() - self.t_mark
            self.t_mark = time.perf_counter()
            state.save(n, partial(_save_model, self.model))

        def _on_training_end(self) -> None:
            self.bar.close()

    cb = TrainCallback()
    cb.t_mark = t_start
    cb.eval_time = 0.0
    return cb


def _check_run_dir(cfg: TrainConfig, run_dir: Path, resume: bool, overwrite: bool) -> None:
    """Check ``--resume`` / ``--overwrite`` / ``init_from`` before anything is built or deleted."""
    if resume:
        check_resume(run_dir, cfg.to_dict())
        find_checkpoints(run_dir / "checkpoints")  # (refused here when no pair is usable)
        return
    if cfg.init_from is not None:
        source = Path(cfg.init_from)
        _require_model_file(source)
        if source.resolve().is_relative_to(run_dir.resolve()):
            raise SystemExit(
                f"parlour train: init_from: {source} is inside this run's folder {run_dir}, "
                "which a new run empties (use --resume to continue a run)"
            )
    refuse_agent_models_in(cfg, run_dir)
    check_new_run(run_dir, overwrite)


def _init_run_dir(cfg: TrainConfig, run_dir: Path, resume: bool) -> None:
    """Empty the folder of a new run (its model and envs exist now), write the config."""
    if not resume:
        clear_run_dir(run_dir)
    for sub in ("", "checkpoints", "snapshots", "logs"):
        (run_dir / sub).mkdir(parents=True, exist_ok=True)
    write_atomic(run_dir / "config.yaml", to_yaml(cfg.to_dict()))


def session_seed(seed: int, steps: int) -> int:
    """The seed of a training session that starts at learner step ``steps`` of a run seeded
    ``seed``: ``seed`` itself for a new run; for a resumed one a seed of its own, derived from
    both, so that the resumed session neither replays the first one's deals, cases and
    minibatch order nor depends on anything but the run's seed and where it resumed."""
    if steps == 0:
        return seed
    import numpy as np

    return int(np.random.SeedSequence([seed, steps]).generate_state(1)[0])


def _build_or_load(
    cfg: TrainConfig, run_dir: Path, resume: bool, vec_env: Any, state: RunState
) -> Any:
    if not resume:
        model = build_model(cfg, vec_env)
        if cfg.init_from is not None:
            init_weights(model, Path(cfg.init_from), cfg.trust_model)
        return model
    folder = run_dir / "checkpoints"
    errors = []
    for ckpt in find_checkpoints(folder):  # newest first; each a model file with its state
        try:
            model = _load_checkpoint_model(cfg, ckpt.model, vec_env)
            break
        except (ValueError, OSError) as exc:  # a truncated / corrupt / tampered model file
            errors.append(f"cannot load the checkpoint {ckpt.model}: {exc}")
    else:
        raise RunFolderError("--resume: " + "; ".join(errors))
    if not ckpt.newest:
        print(fallback_warning(ckpt, folder), file=sys.stderr)
    state.restore(ckpt)
    # building the model seeded the envs (and NumPy, torch) with the run's seed again, which
    # would replay the first session's deals and case stream: this session gets its own seed
    model.set_random_seed(session_seed(cfg.seed, model.num_timesteps))
    return model


def _imitate(cfg: TrainConfig, model: Any, vec_env: Any, run_dir: Path, progress: bool) -> float:
    """The run's imitation stage (:mod:`parlour.train.imitation`); returns its wall time. Ctrl-C
    here exits with one line: there is no checkpoint to save yet."""
    t_start = time.perf_counter()
    try:
        imitate(cfg, model, vec_env, run_dir, progress)
    except KeyboardInterrupt:
        print(
            f"parlour train: interrupted during imitation; {run_dir} has no checkpoint "
            "(start the run again with --overwrite)",
            file=sys.stderr,
        )
        raise SystemExit(EXIT_INTERRUPTED) from None
    return time.perf_counter() - t_start


def _learn(
    cfg: TrainConfig, run_dir: Path, state: RunState, resume: bool, progress: bool
) -> tuple[Any, float, bool]:
    """Build (or resume) the model, train it, save it; returns it, its session's steps/s and
    whether Ctrl-C stopped it (then the model is saved at its last finished rollout)."""
    from stable_baselines3.common.logger import configure

    vec_env = make_vec_env(cfg)
    imitating = cfg.imitation.teacher is not None and not resume
    try:
        if imitating:  # (refused here, before the run folder is emptied)
            teacher_games(vec_env)
        model = _build_or_load(cfg, run_dir, resume, vec_env, state)
        _init_run_dir(cfg, run_dir, resume)
        if imitating:
            state.wall_time += _imitate(cfg, model, vec_env, run_dir, progress)
    except BaseException:
        vec_env.close()
        raise
    if resume:
        for path in state.snapshots:
            vec_env.env_method("add_snapshot", path)
    logs = run_dir / "logs"
    if resume:  # SB3 rewrites progress.csv: a resumed session logs to its own folder
        logs = logs / f"resume_{model.num_timesteps}"
    model.set_logger(configure(str(logs), ["csv", "tensorboard"]))
    t_start = time.perf_counter()
    start_steps = model.num_timesteps
    callback = _make_callback(cfg, run_dir, state, progress, t_start)
    interrupted = False
    try:
        with frozen_heap():
            model.learn(
                total_timesteps=max(0, cfg.total_timesteps - model.num_timesteps),
                callback=callback,
                reset_num_timesteps=not resume,
            )
    except KeyboardInterrupt:
        interrupted = True
        model.num_timesteps = getattr(callback, "boundary", model.num_timesteps)
        state.history = [h for h in state.history if h["timesteps"] <= model.num_timesteps]
        if getattr(callback, "bar", None) is not None:
            callback.bar.close()
    with no_interrupts():
        state.wall_time += time.perf_counter() - callback.t_mark
        # learner steps per second of this session, periodic evaluations excluded
        train_time = time.perf_counter() - t_start - callback.eval_time
        steps_per_s = (model.num_timesteps - start_steps) / max(train_time, MIN_DURATION_S)
        _save_model(model, run_dir / RUN_MODEL_FILE)
        state.save(model.num_timesteps, partial(_save_model, model))
        # (stopped by a signal, the workers may be gone: SLURM signals every process of a job)
        with contextlib.suppress(OSError, EOFError) if interrupted else contextlib.nullcontext():
            vec_env.close()
    return model, steps_per_s, interrupted


def train(
    cfg: TrainConfig,
    runs: Path = Path("runs"),
    resume: bool = False,
    progress: bool = True,
    overwrite: bool = False,
) -> dict[str, Any]:
    """Run one training job; returns the report dictionary (also written to ``report.json``).

    The run folder is checked and locked first (:mod:`parlour.train.run_folder`); Ctrl-C or
    SIGTERM during training saves the model, a checkpoint and the report of what was done
    (``report["interrupted"]``)."""
    check_runs_parent(runs)
    run_dir = runs / cfg.name
    with stop_signals_interrupt(), RunLock(run_dir):  # (SIGTERM as Ctrl-C)
        _check_run_dir(cfg, run_dir, resume, overwrite)
        with torch_threads(cfg.torch_threads):
            return _train_locked(cfg, run_dir, resume, progress)


@contextlib.contextmanager
def torch_threads(n: int) -> Iterator[None]:
    """torch uses ``n`` threads inside the block (``cfg.torch_threads``: 1 by default, since more
    threads thrash against env worker processes), and its previous count after it."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def _train_locked(cfg: TrainConfig, run_dir: Path, resume: bool, progress: bool) -> dict[str, Any]:

    from parlour.eval.report import print_report, write_report

    spec = cfg.game_spec
    state = RunState(run_dir / "checkpoints")  # (restored from the checkpoint by --resume)
    model, steps_per_s, interrupted = _learn(cfg, run_dir, state, resume, progress)
    stopped = partial(interrupted_report, cfg, run_dir, state, model.num_timesteps, steps_per_s)
    if interrupted:
        return stopped(None, interrupt_message(run_dir, model.num_timesteps))

    print(
        f"training done: {model.num_timesteps} steps, {steps_per_s:.0f} steps/s; final evaluation"
    )
    t_eval = time.perf_counter()
    learner = f"ppo:{run_dir / RUN_MODEL_FILE}"
    try:
        final = evaluate_agent(
            cfg, learner, cfg.eval.final_agents, cfg.eval.final_games, progress, 1
        )
    except KeyboardInterrupt:  # (the model and the checkpoint are saved: the report only)
        message = final_eval_interrupt_message(run_dir, model.num_timesteps, RUN_MODEL_FILE)
        return stopped(FINAL_EVALUATION, message)
    eval_time = time.perf_counter() - t_eval
    summary = learner_summary(final, spec)
    state.history.append(
        {
            "timesteps": int(model.num_timesteps),
            "wall_time_s": round(state.wall_time, 1),
            "results": summary,
            "final": True,
        }
    )
    state.update(model.num_timesteps)
    report = run_report(cfg, run_dir, state, model.num_timesteps, steps_per_s, eval_time, final)
    write_report(report, run_dir, spec)
    print_report(report, spec)
    print(f"wrote {run_dir}/report.md, report.json, learning_curve.png, {RUN_MODEL_FILE}")
    return report
