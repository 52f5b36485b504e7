"""The RLlib backend without Ray: the env adapter, the masking module, the config block."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from ray.rllib.core.columns import Columns
from ray.rllib.models.torch.torch_distributions import TorchCategorical

from parlour.agents.rllib_module import MASKED_LOGIT, MaskedPPOModule
from parlour.train.config import ConfigError, config_from_dict
from parlour.train.rllib.env import SelfPlayEnv
from parlour.train.rllib.league import LEARNER, map_slot

ACTIONS = 12
FEATURES = 7
SAMPLES = 256


def _module() -> MaskedPPOModule:
    space = gym.spaces.Dict(
        {
            "observation": gym.spaces.Box(-1.0, 1.0, (FEATURES,), np.float32),
            "action_mask": gym.spaces.Box(0.0, 1.0, (ACTIONS,), np.float32),
        }
    )
    return MaskedPPOModule(
        observation_space=space,
        action_space=gym.spaces.Discrete(ACTIONS),
        model_config={"fcnet_hiddens": [16], "fcnet_activation": "tanh"},
    )


MODULE = _module()


@given(
    masks=st.lists(
        st.lists(st.booleans(), min_size=ACTIONS, max_size=ACTIONS).filter(any),
        min_size=1,
        max_size=8,
    ),
    seed=st.integers(0, 2**31 - 1),
)
def test_masked_module_never_samples_a_masked_action(masks: list[list[bool]], seed: int) -> None:
    torch.manual_seed(seed)
    mask = torch.tensor(masks, dtype=torch.float32)
    obs = {"observation": torch.randn(len(masks), FEATURES) * 100, "action_mask": mask}
    batch = {Columns.OBS: obs}
    for forward in (MODULE.forward_exploration, MODULE.forward_inference, MODULE.forward_train):
        logits = forward(batch)[Columns.ACTION_DIST_INPUTS]
        assert torch.all(logits[mask == 0] == MASKED_LOGIT)
        assert torch.all(logits[mask == 1] > MASKED_LOGIT)
        dist = TorchCategorical(logits=logits)
        samples = dist.sample(sample_shape=(SAMPLES,))  # (SAMPLES, batch)
        picked = mask.gather(1, samples.T)
        assert torch.all(picked == 1), "a masked action was sampled"
        assert torch.all(mask.gather(1, logits.argmax(-1, keepdim=True)) == 1)
    assert set(batch[Columns.OBS]) == {"observation", "action_mask"}  # the batch is not mutated
    values = MODULE.compute_values(batch)
    assert values.shape == (len(masks),) and torch.isfinite(values).all()


def test_masked_module_rejects_a_flat_observation_space() -> None:
    with pytest.raises(ValueError, match="observation"):
        MaskedPPOModule(
            observation_space=gym.spaces.Box(0.0, 1.0, (FEATURES,)),
            action_space=gym.spaces.Discrete(ACTIONS),
        )


def _play_random(env: SelfPlayEnv, rng: np.random.Generator) -> tuple[dict, dict, dict]:
    """One episode with random legal policy actions: returns, final infos, steps per slot."""
    obs, _ = env.reset()
    returns: dict[str, float] = {}
    steps: dict[str, int] = {}
    while True:
        (slot,) = obs
        assert slot in env.agents and obs[slot]["action_mask"].dtype == np.float32
        legal = np.flatnonzero(obs[slot]["action_mask"])
        steps[slot] = steps.get(slot, 0) + 1
        obs, rewards, terms, truncs, infos = env.step({slot: int(rng.choice(legal))})
        for s, r in rewards.items():
            returns[s] = returns.get(s, 0.0) + r
        assert truncs == {"__all__": False}
        if terms["__all__"]:
            assert set(obs) == set(steps) and all(terms[s] for s in steps)
            return returns, infos, steps


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("audition", 2, {}),
        ("audition", 4, {}),
        ("guests", 2, {"level": "easy"}),
        ("guests", 4, {"level": "easy"}),
        ("guests", 1, {"level": "easy"}),
    ],
)
def test_selfplay_env_pays_each_policy_slot_its_game_return(game, players, options) -> None:
    env = SelfPlayEnv(
        {
            "game": game,
            "players": players,
            "game_options": options,
            "baselines": {"random": 1.0},
            "baseline_share": 0.5,
            "seed": 3,
        }
    )
    rng = np.random.default_rng(0)
    knockouts = 0
    for _ in range(6):
        returns, infos, steps = _play_random(env, rng)
        final = env.aec.results()["returns"]
        for agent, slot in env._slot_of.items():
            if slot in steps:
                assert returns[slot] == pytest.approx(final[agent])
        assert "slot_0" in steps  # the learner's slot always plays
        knockouts += sum(i["out"] for i in infos.values())
        if game == "guests":
            assert set(infos) == set(steps)
        else:
            assert infos == {}
    if game == "guests" and players > 2:
        assert knockouts > 0, "random play in 4p Guests knocks players out"


def test_selfplay_env_rejects_an_action_out_of_turn_or_illegal() -> None:
    env = SelfPlayEnv({"game": "audition", "players": 2, "seed": 0})
    obs, _ = env.reset()
    (slot,) = obs
    other = "slot_1" if slot == "slot_0" else "slot_0"
    with pytest.raises(ValueError, match="expects an action"):
        env.step({other: 0})
    illegal = int(np.flatnonzero(obs[slot]["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="illegal action"):
        env.step({slot: illegal})


def test_league_maps_slot_0_to_the_learner_and_others_by_episode() -> None:
    assert map_slot("slot_0", "ep", snapshots=3, snapshot_weight=1.0) == LEARNER
    assert map_slot("slot_1", "ep", snapshots=0, snapshot_weight=1.0) == LEARNER
    picks = {map_slot("slot_1", f"ep{i}", snapshots=3, snapshot_weight=0.5) for i in range(200)}
    assert picks == {LEARNER, "snapshot_0", "snapshot_1", "snapshot_2"}
    assert map_slot("slot_2", "e", snapshots=3, snapshot_weight=0.5) == map_slot(
        "slot_2", "e", snapshots=3, snapshot_weight=0.5
    )


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"backend": "jax"}, "backend: one of sb3, rllib"),
        ({"backend": "rllib", "rllib": {"minibatch_size": 10, "train_batch_size": 5}}, "minibatch"),
        ({"backend": "rllib", "rllib": {"num_env_runners": -1}}, "rllib.num_env_runners"),
        ({"backend": "rllib", "rllib": {"baseline_share": 2}}, "rllib.baseline_share"),
        ({"backend": "rllib", "rllib": {"workers": 2}}, "unknown key"),
    ],
)
def test_rllib_config_errors_name_the_key(extra, message) -> None:
    with pytest.raises(ConfigError, match=message):
        config_from_dict({"name": "x", **extra})


def test_selfplay_env_loads_a_pickle_baseline_only_under_trust() -> None:
    """A ``ppo:`` baseline that is a Stable-Baselines3 zip (pickled data) is refused by the RLlib
    env unless ``parlour train --trust-model`` put ``trust`` in its config."""
    from pathlib import Path

    from parlour.agents.trust import UntrustedModelError

    zip_model = Path(__file__).parents[1] / "data" / "legacy_audition_model.zip"
    config = {"game": "audition", "players": 2, "baselines": {f"ppo:{zip_model}": 1.0}}
    with pytest.raises(UntrustedModelError, match="pickled data"):
        SelfPlayEnv(config)
    env = SelfPlayEnv({**config, "trust": True})
    assert env.pool is not None
