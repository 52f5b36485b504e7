"""Awkward Guests training: the single-seat wrapper (solo, 2p, 4p) and tiny ``parlour train`` runs.

Awkward Guests differs from Audition in what the wrapper must get right: a solo game has no
opponents at all, a player who accuses wrongly is out while the game goes on (the AEC env keeps
it, never selected, until the end; the wrapper ends a knocked-out learner's episode at once),
and a game can end at its round limit (an AEC
truncation, which the wrapper reports as ``terminated`` with ``info["round_limit"]``).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
import yaml

from parlour.apps.cli import main
from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests.case.deduction import Deduction
from parlour.envs.awkward_guests.case.solution import candidate_solutions
from parlour.envs.awkward_guests.observation import make_layout
from parlour.games import get_game, make_raw_env
from parlour.train.opponents import OpponentPool
from parlour.train.single_seat import SingleSeatEnv

LAYOUT = make_layout("deduced")
DECISION = LAYOUT["pending_decision"]
_CHOICE = {  # decision index -> (deduced block, first action id)
    G.D_MURDERER: ("deduced_murderers", A.SUSPECT_0),
    G.D_MOTIVE: ("deduced_motives", A.MOTIVE_0),
    G.D_WEAPON: ("deduced_weapons", A.WEAPON_0),
    G.D_ACCOMPLICE: ("deduced_accomplices", A.SUSPECT_0),
    G.D_ACC_MOTIVE: ("deduced_accomplice_motives", A.MOTIVE_0),
}


def learner_policy(obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator, p_accuse: float):
    """Random play, except: accuse with probability ``p_accuse`` unless the deduced observation
    leaves one candidate (then always), and name deduced-possible parts when accusing."""
    legal = np.flatnonzero(mask)
    decision = int(np.argmax(obs[DECISION])) if obs[DECISION].any() else -1
    if decision == G.D_SOLUTION:
        count = obs[LAYOUT["deduced_count"]]  # (empty for the notebook observation)
        certain = count.size == 1 and count[0] == 0
        return A.YES if certain or rng.random() < p_accuse else A.NO
    if decision in _CHOICE:
        block, first = _CHOICE[decision]
        for i in np.flatnonzero(obs[LAYOUT[block]]):
            a = A.NO_ACCOMPLICE if decision == G.D_ACCOMPLICE and i == 6 else first + int(i)
            if a < A.NUM_ACTIONS and mask[a]:
                return a
    return int(legal[rng.integers(legal.size)])


class GuestsSpy:
    """A random opponent that checks it acts on its own seat's observation, mask and view."""

    spec = "spy"

    def __init__(self, env_ref: list, seat_name: str) -> None:
        self.env_ref = env_ref
        self.seat_name = seat_name
        self.rng = np.random.default_rng(0)
        self.calls = 0

    def reset(self, seed=None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation, view) -> int:
        env: SingleSeatEnv = self.env_ref[0]
        aec, game = env.aec, env.aec.game
        seat = aec.agent_name_mapping[self.seat_name]
        assert aec.agent_selection == self.seat_name != env.learner
        assert view.seat == seat == game.current_player and not game.out[seat]
        np.testing.assert_array_equal(observation["action_mask"], game.legal_mask())
        np.testing.assert_array_equal(
            observation["observation"], aec.observe(self.seat_name)["observation"]
        )
        self.calls += 1
        legal = np.flatnonzero(observation["action_mask"])
        return int(legal[self.rng.integers(legal.size)])


class SpyPool(OpponentPool):
    def __init__(self, env_ref: list) -> None:
        super().__init__(get_game("guests"), {"random": 1.0})
        self.env_ref = env_ref
        self.spies: dict[str, GuestsSpy] = {}

    def agent(self, spec, seat):
        return self.spies.setdefault(seat, GuestsSpy(self.env_ref, seat))


def run_learner_episode(env: SingleSeatEnv, rng: np.random.Generator, p_accuse: float):
    """One episode with masks and observations checked at every learner step."""
    obs, info = env.reset()
    seat = env.aec.agent_name_mapping[env.learner]
    assert info["seat"] == seat
    total, steps = 0.0, 0
    while True:
        mask = env.action_masks()
        game = env.aec.game
        assert game.current_player == seat and env.aec.agent_selection == env.learner
        np.testing.assert_array_equal(mask, game.legal_mask().astype(bool))
        np.testing.assert_array_equal(obs, env.aec.observe(env.learner)["observation"])
        assert env.observation_space.contains(obs)
        obs, reward, term, trunc, info = env.step(learner_policy(obs, mask, rng, p_accuse))
        steps += 1
        total += reward
        assert not trunc  # round limits are reported as terminations
        if term:
            assert not env.action_masks().any()
            with pytest.raises(RuntimeError, match="reset"):
                env.step(A.NO)
            return seat, total, info, steps
        assert reward == 0.0  # zero-sum rewards arrive once, on the learner's last step


def finish_game(env: SingleSeatEnv, rng: np.random.Generator) -> None:
    """Play a game whose learner is out to its end (random moves for the seats still in)."""
    aec = env.aec
    for _agent in aec.agent_iter():
        _, _, term, trunc, _ = aec.last()
        if term or trunc:
            aec.step(None)
            continue
        legal = np.flatnonzero(aec.game.legal_mask())
        aec.step(int(legal[rng.integers(legal.size)]))
    assert aec.game.is_terminal and not aec.agents


def test_registry_entry():
    spec = get_game("guests")
    assert (spec.min_players, spec.max_players, spec.players_option) == (1, 8, "num_players")
    assert spec.baselines == spec.eval_baselines == ("random", "guests.deducer")
    env = make_raw_env(get_game("guests"), 4, level="medium", observation_mode="deduced")
    assert env.possible_agents == [f"player_{i}" for i in range(4)]
    assert env.observation_space("player_0")["observation"].shape == (2384,)
    assert make_raw_env(get_game("guests"), 1).observation_space("player_0")[
        "observation"
    ].shape == (2313,)
    with pytest.raises(ValueError, match="players for guests must be in 1..8"):
        make_raw_env(get_game("guests"), 9)


def test_solo_learner_alone_reward_is_its_return():
    env = SingleSeatEnv(get_game("guests"), 1, {"level": "easy", "observation_mode": "deduced"})
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    results = set()
    for p_accuse in (0.5, 0.5, 0.0, 0.0, 0.0):
        seat, total, info, steps = run_learner_episode(env, rng, p_accuse)
        game = env.aec.game
        assert seat == 0 and env.learner == "player_0"
        assert env.opponent_specs == {} and info["opponents"] == {}
        assert game.is_terminal and env.aec.agents == ["player_0"]  # (waiting for step(None))
        assert total == pytest.approx(game.returns()[0])
        # the episode ends at the first accusation (or the round limit)
        assert len(game.accusation_log) == (0 if game.result == "truncated" else 1)
        assert info["round_limit"] == (game.result == "truncated")
        assert info["is_success"] == (game.result == "win")
        if game.result == "win":
            assert total == pytest.approx(1.0 - G.SOLO_ROUND_PENALTY * game.round)
        results.add(game.result)
    assert {"win", "loss"} <= results


def test_solo_round_limit_is_a_termination_with_zero_reward():
    env = SingleSeatEnv(get_game("guests"), 1, {"level": "easy", "max_rounds": 2})
    env.reset(seed=3)
    seat, total, info, _ = run_learner_episode(env, np.random.default_rng(0), p_accuse=0.0)
    game = env.aec.game
    assert game.result == "truncated" and game.round == 2 and total == 0.0
    assert info["round_limit"] and not info["is_success"]


@pytest.mark.parametrize("players", [2, 4])
def test_learner_total_reward_is_its_seat_final_return(players):
    ref: list = []
    options = {"level": "easy", "observation_mode": "deduced", "max_rounds": 2}
    env = SingleSeatEnv(get_game("guests"), players, options, SpyPool(ref))
    ref.append(env)
    env.reset(seed=players)
    rng = np.random.default_rng(players)
    seats, outcomes = set(), set()
    for episode in range(12 * players):
        seat, total, info, _ = run_learner_episode(env, rng, p_accuse=(0.5, 0.2, 0.0)[episode % 3])
        game = env.aec.game
        out_early = not game.is_terminal
        assert info["out"] == game.out[seat] == env.aec.results()["out"][env.learner]
        if out_early:  # the learner accused wrongly and is out; the others play on
            # the AEC env keeps it (never selected, paid at the end); its episode ends at once
            assert game.out[seat] and not env.aec.terminations[env.learner]
            assert env.aec.agents == env.aec.possible_agents
            assert info["out"] and not info["is_success"] and not info["round_limit"]
            assert total == pytest.approx(-1.0 / (players - 1))
            finish_game(env, rng)
        assert total == pytest.approx(game.returns()[seat])
        assert info["seat"] == seat and set(info["opponents"]) == set(env.aec.possible_agents) - {
            env.learner
        }
        if not out_early:
            assert info["is_success"] == (seat in game.winners)
            assert info["round_limit"] == (game.result == "truncated")
        seats.add(seat)
        outcomes.add(
            "out"
            if out_early
            else "round_limit"
            if game.truncated
            else game.result + str(total > 0)
        )
    assert seats == set(range(players))
    # wins, losses and round limits; with 3+ players also a learner out while the game goes on
    # (with 2 a wrong accusation ends the game: the other player is the last one left)
    assert {"winTrue", "winFalse", "round_limit"} <= outcomes
    assert ("out" in outcomes) == (players > 2)
    assert sum(s.calls for s in env.pool.spies.values()) > 0


def test_learner_final_reward_arrives_when_an_opponent_ends_the_game():
    """The learner is paid on its last step also when opponents knock themselves out."""
    env = SingleSeatEnv(get_game("guests"), 4, {"level": "easy"}, ["random"])
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    wins_as_last_left = 0
    for _ in range(10):
        seat, total, info, _ = run_learner_episode(env, rng, p_accuse=0.0)
        game = env.aec.game
        assert game.is_terminal and total == pytest.approx(game.returns()[seat])
        if game.winners == [seat] and sum(game.out) == 3:
            wins_as_last_left += 1
            assert total == pytest.approx(1.0)
    assert wins_as_last_left > 0


def test_guests_episodes_are_reproducible():
    def trajectory(seed: int):
        e = SingleSeatEnv(get_game("guests"), 2, {"observation_mode": "deduced"}, ["random"])
        o, _ = e.reset(seed=seed)
        r = np.random.default_rng(0)
        out = [o]
        for _ in range(3):
            while True:
                o, rew, term, _, _ = e.step(learner_policy(o, e.action_masks(), r, 0.3))
                out.append(o)
                if term:
                    out.append(rew)
                    o, _ = e.reset()
                    break
        return out

    a, b = trajectory(5), trajectory(5)
    assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def test_shaping_options_are_wrapper_options_dropped_for_evaluation():
    env = make_raw_env(
        get_game("guests"), 2, accusation_shaping=0.5, solution_shaping=0.1
    )  # (unused)
    assert env.possible_agents == ["player_0", "player_1"]
    for key in ("accusation_shaping", "solution_shaping"):
        for bad in (-0.1, "high", True):
            with pytest.raises(ValueError, match=f"{key} must be a number >= 0"):
                make_raw_env(get_game("guests"), 2, **{key: bad})
            with pytest.raises(ValueError, match=key):
                SingleSeatEnv(get_game("guests"), 1, {key: bad})
    off = {"accusation_shaping": 0.0, "solution_shaping": 0}
    assert SingleSeatEnv(get_game("guests"), 1, off).shaper is None
    assert SingleSeatEnv(get_game("guests"), 1, {"solution_shaping": 0.1}).shaper is not None
    with pytest.raises(TypeError):
        make_raw_env(get_game("audition"), 2, accusation_shaping=0.5)

    from parlour.train.config import config_from_dict
    from parlour.train.evaluation import eval_options

    cfg = config_from_dict(
        {
            "name": "x",
            "game": "guests",
            "players": 1,
            "game_options": {"level": "medium", "accusation_shaping": 0.1, "solution_shaping": 1},
            "eval": {"agents": ["random"]},
        }
    )
    assert eval_options(cfg) == {"level": "medium"}


def test_solution_shaping_charges_accusing_unless_exactly_one_candidate_is_left():
    weight = 0.3
    env = SingleSeatEnv(get_game("guests"), 1, {"level": "easy", "solution_shaping": weight})
    plain = SingleSeatEnv(get_game("guests"), 1, {"level": "easy"})
    rng = np.random.default_rng(1)
    charged = {"yes": 0, "no": 0, "ok": 0}
    for episode in range(6):
        obs, _ = env.reset(seed=episode)
        plain.reset(seed=episode)
        while True:
            mask = env.action_masks()
            state = env.aec.game
            if state.decision == G.D_SOLUTION:
                ded = Deduction(state.tables.accomplice_possible)
                for c in state.seen_log[0]:
                    ded.add_facts(state.tables.cards[c].facts)
                certain = ded.count() == 1
            action = learner_policy(obs, mask, rng, p_accuse=0.05 if episode % 2 else 0.0)
            if state.decision == G.D_SOLUTION and certain and rng.random() < 0.3:
                action = A.NO  # (sometimes wait although certain)
            expected = 0.0
            if state.decision == G.D_SOLUTION:
                expected = 0.0 if (action == A.YES) == certain else -weight
                charged["ok" if not expected else "yes" if action == A.YES else "no"] += 1
            obs, reward, term, _, _ = env.step(action)
            _, plain_reward, plain_term, _, _ = plain.step(action)
            assert term == plain_term
            assert reward == pytest.approx(plain_reward + expected)
            if term:
                break
    assert min(charged.values()) > 0


def _expected_shaping(env: SingleSeatEnv, action: int, weight: float) -> float:
    """The accusation shaping of ``action``, recomputed here from the learner's notebook."""
    state = env.aec.game
    ded = Deduction(state.tables.accomplice_possible)
    for c in state.seen_log[0]:
        ded.add_facts(state.tables.cards[c].facts)
    mask = ded.candidate_mask()
    sols = candidate_solutions(state.tables.accomplice_possible)
    fields = ("murderer", "motive", "weapon", "accomplice", "accomplice_motive")
    names = (A.SUSPECTS, A.MOTIVES, A.WEAPONS, A.SUSPECTS, A.MOTIVES)
    done = state.accusations.get(0, [])
    k = len(done)

    def named(i: int, value: int) -> str | None:
        return None if value == -1 else names[i][value]

    cands = [
        sol
        for sol, ok in zip(sols, mask, strict=True)
        if ok and all(getattr(sol, fields[i]) == named(i, v) for i, v in enumerate(done))
    ]

    def value_of(a: int) -> str | None:
        if a == A.NO_ACCOMPLICE:
            return None
        for first, table in ((A.WEAPON_0, A.WEAPONS), (A.MOTIVE_0, A.MOTIVES)):
            if a >= first:
                return table[a - first]
        return A.SUSPECTS[a - A.SUSPECT_0]

    possible = {getattr(sol, fields[k]) for sol in cands}
    if not possible:
        return 0.0
    legal = np.flatnonzero(env.action_masks())
    share = sum(value_of(int(a)) in possible for a in legal) / legal.size
    return weight * (float(value_of(action) in possible) - share)


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_accusation_shaping_pays_for_possible_parts_zero_on_average(level):
    weight = 0.25
    env = SingleSeatEnv(get_game("guests"), 1, {"level": level, "accusation_shaping": weight})
    plain = SingleSeatEnv(get_game("guests"), 1, {"level": level})
    rng = np.random.default_rng(0)
    paid = []
    for episode in range(8):
        obs, _ = env.reset(seed=episode)
        plain.reset(seed=episode)
        total = 0.0
        while True:
            mask = env.action_masks()
            np.testing.assert_array_equal(mask, plain.action_masks())
            decision = env.aec.game.decision
            if decision == G.D_SOLUTION:  # accuse in round 2, naming parts at random
                action = A.YES if env.aec.game.round >= 2 else A.NO
            else:
                legal = [a for a in np.flatnonzero(mask) if a != A.YES]
                action = int(legal[rng.integers(len(legal))])
            accusing = G.D_MURDERER <= decision <= G.D_ACC_MOTIVE
            expected = _expected_shaping(env, action, weight) if accusing else 0.0
            obs, reward, term, _, _ = env.step(action)
            _, plain_reward, plain_term, _, _ = plain.step(action)
            assert term == plain_term
            assert reward == pytest.approx(plain_reward + expected)  # (same game, same reward)
            total += reward - plain_reward
            if expected:
                paid.append(expected)
            if term:
                break
        assert env.aec.game.result in ("win", "loss")
        assert total <= 3 * weight if level == "easy" else total <= 5 * weight
    assert min(paid) < 0 < max(paid)


def test_guests_features_are_the_deduction_per_action():
    import torch

    from parlour.games.guests.policy import PRIOR_SCALE, GuestsFeatures

    plain = GuestsFeatures(SingleSeatEnv(get_game("guests"), 2).observation_space)
    assert not plain.deduced and plain.features_dim == 2313 + 256
    env = SingleSeatEnv(get_game("guests"), 1, {"level": "medium", "observation_mode": "deduced"})
    feats = GuestsFeatures(env.observation_space)
    assert feats.deduced and feats.features_dim == 2384 + 97 + 256
    blocks = {
        G.D_MURDERER: ("deduced_murderers", A.SUSPECT_0),
        G.D_MOTIVE: ("deduced_motives", A.MOTIVE_0),
        G.D_WEAPON: ("deduced_weapons", A.WEAPON_0),
        G.D_ACCOMPLICE: ("deduced_accomplices", A.SUSPECT_0),
        G.D_ACC_MOTIVE: ("deduced_accomplice_motives", A.MOTIVE_0),
    }
    rng = np.random.default_rng(0)
    seen = set()
    for seed in range(2, 12):  # until a case with an accomplice was accused
        obs, _ = env.reset(seed=seed)
        while True:
            out = feats(torch.as_tensor(obs)[None])[0].detach().numpy()
            np.testing.assert_array_equal(out[:2384], obs)
            allowed, solution = out[2384 : 2384 + 95], out[2384 + 95 : 2384 + 97]
            d = env.aec.game.decision
            expected = np.zeros(95, np.float32)
            if d in blocks:
                name, first = blocks[d]
                bits = obs[LAYOUT[name]]
                for i in np.flatnonzero(bits[:6] if d == G.D_ACCOMPLICE else bits[: A.WEAPON_0]):
                    expected[first + i] = 1.0
                if d == G.D_ACCOMPLICE and bits[6]:
                    expected[A.NO_ACCOMPLICE] = 1.0
                assert expected.any()
            np.testing.assert_allclose(allowed, PRIOR_SCALE * expected)
            certain = float(obs[LAYOUT["deduced_count"]][0] == 0)
            flags = [certain, 1 - certain] if d == G.D_SOLUTION else [0, 0]
            np.testing.assert_allclose(solution, PRIOR_SCALE * np.array(flags, np.float32))
            seen.add(d)
            obs, _, term, _, _ = env.step(learner_policy(obs, env.action_masks(), rng, 0.0))
            if term:
                break
        assert env.aec.game.result == "win"
        if set(blocks) <= seen:
            break
    assert set(blocks) <= seen


# -- tiny parlour train runs -------------------------------------------------------------------


def _tiny(name: str, players: int, baselines: dict[str, float], snapshot_every: int) -> dict:
    return {
        "name": name,
        "game": "guests",
        "players": players,
        "game_options": {
            "level": "easy",
            "observation_mode": "deduced",
            "max_rounds": 6,
            "accusation_shaping": 0.2,
            "solution_shaping": 0.2,
        },
        "total_timesteps": 512,
        "n_envs": 2,
        "vec_env": "dummy",
        "opponents": {"baselines": baselines, "snapshot_every": snapshot_every},
        "ppo": {"n_steps": 256, "batch_size": 128, "n_epochs": 1, "net_arch": [], "gamma": 0.99},
        "eval": {
            "every": 256,
            "games": 2,
            "agents": ["random"],
            "final_games": 4,
            "final_agents": list(baselines),
            "workers": 1,
        },
        "checkpoint_every": 512,
    }


@pytest.mark.parametrize(
    ("players", "baselines", "snapshot_every"),
    [(1, {"random": 1.0}, 0), (2, {"random": 1.0, "guests.deducer": 1.0}, 256)],
    ids=["solo", "2p"],
)
def test_tiny_guests_training_run(tmp_path, players, baselines, snapshot_every):
    name = f"tiny_guests_{players}p"
    cfg_path = tmp_path / f"{name}.yaml"
    data = _tiny(name, players, baselines, snapshot_every)
    if players == 1:  # long enough for one periodic evaluation (256 steps, not in the last rollout)
        data["total_timesteps"] = 1024
    cfg_path.write_text(yaml.safe_dump(data))
    runs = tmp_path / "runs"
    assert main(["train", str(cfg_path), "--runs", str(runs), "--no-progress"]) == 0
    run = runs / name
    report = json.loads((run / "report.json").read_text())
    assert report["game"] == "guests" and report["players"] == players
    assert report["config"]["game_options"]["accusation_shaping"] == 0.2  # (training only:)
    assert "accusation_shaping" not in report["final_tournaments"]["random"]["game_options"]
    assert report["timesteps"] >= 512
    assert set(report["final"]) == set(baselines)
    for res in report["final"].values():
        assert res["games"] >= 1 and res["ci95"][0] <= res["win_rate"] <= res["ci95"][1]
    assert "Final evaluation" in (run / "report.md").read_text()
    assert bool(list((run / "snapshots").glob("*.safetensors"))) == bool(snapshot_every)
    if players == 1:  # the periodic evaluation logs the Awkward Guests statistics
        header = (run / "logs" / "progress.csv").read_text().splitlines()[0].split(",")
        periodic = report["history"][0]
        assert not periodic.get("final")
        expected = {"eval/win_rate_vs_random", "eval/solved_vs_random"}
        if periodic["results"]["random"].get("wrong_accusations") is not None:  # (none made: no
            expected.add("eval/wrong_accusations_vs_random")  # share of them to log)
        assert expected <= set(header)

    from parlour.agents.factory import make_agent
    from parlour.agents.model_file import load_policy_file

    policy = load_policy_file(run / "model.safetensors")
    assert policy.observation_space.shape == (2384,)
    assert type(policy.features_extractor).__name__ == "GuestsFeatures"
    assert type(policy.action_net).__name__ == "PriorHead"
    env = SingleSeatEnv(get_game("guests"), players, {"observation_mode": "deduced"}, ["random"])
    obs, _ = env.reset(seed=0)
    action, _ = policy.predict(obs, action_masks=env.action_masks(), deterministic=True)
    assert env.action_masks()[int(action)]
    agent = make_agent(f"ppo:{run / 'model.safetensors'}", get_game("guests"))
    obs_dict = env.aec.observe(env.learner)
    assert obs_dict["action_mask"][agent.act(obs_dict, None)] == 1


# -- the policy: one shared weight on the per-action deduction features ------------------------


def _guests_model(mode: str, net_arch: list[int]):
    from parlour.train.config import config_from_dict
    from parlour.train.train import build_model, make_vec_env

    data = _tiny("policy", 1, {"random": 1.0}, 0)
    data["game_options"]["observation_mode"] = mode
    data["ppo"]["net_arch"] = net_arch
    cfg = config_from_dict(data)
    return build_model(cfg, make_vec_env(cfg))


def test_guests_policy_adds_one_shared_learned_weight_times_the_allowed_features():
    import torch

    from parlour.games.guests.policy import PRIOR_SCALE, GuestsPolicy, PriorHead

    model = _guests_model("deduced", [])
    policy = model.policy
    assert isinstance(policy, GuestsPolicy) and isinstance(policy.action_net, PriorHead)
    head = policy.action_net
    assert head.prior_weight.item() == 0.0  # no built-in preference: learned from the reward
    trained = {id(p) for g in policy.optimizer.param_groups for p in g["params"]}
    assert id(head.prior_weight) in trained and id(head.linear.weight) in trained

    env = SingleSeatEnv(get_game("guests"), 1, {"level": "easy", "observation_mode": "deduced"})
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    while env.aec.game.decision != G.D_MURDERER:  # accuse at once, then look at the murderer
        obs, _, term, _, _ = env.step(learner_policy(obs, env.action_masks(), rng, 1.0))
        assert not term
    with torch.no_grad():
        head.prior_weight.fill_(0.25)
        latent = policy.extract_features(torch.as_tensor(obs)[None], policy.features_extractor)
        logits = policy.action_net(latent)[0].numpy()
        plain = head.linear(latent)[0].numpy()
    allowed = np.zeros(95, np.float32)
    allowed[A.SUSPECT_0 : A.SUSPECT_0 + 6] = obs[LAYOUT["deduced_murderers"]][:6]
    assert 0 < allowed.sum() < 6
    np.testing.assert_allclose(logits - plain, 0.25 * PRIOR_SCALE * allowed, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize(("mode", "net_arch"), [("notebook", []), ("deduced", [32])])
def test_guests_policy_is_plain_without_deduced_blocks_or_with_hidden_layers(mode, net_arch):
    import torch

    policy = _guests_model(mode, net_arch).policy
    assert type(policy.action_net) is torch.nn.Linear
