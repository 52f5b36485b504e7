"""``GuestsFeatures`` / ``PriorHead`` on ``observation_mode="deduced_choices"``: the allowed,
solution and card features are the documented functions of the observation (recomputed here in
NumPy at every decision of whole games), and the head's shared card weights move only the card
actions' logits."""

from __future__ import annotations

import numpy as np
import pytest

from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests import observation as GO
from parlour.games import get_game
from parlour.train.single_seat import SingleSeatEnv

torch = pytest.importorskip("torch")

from parlour.games.guests.policy import N_TIMING_FEATURES  # noqa: E402  (needs torch)

LAYOUT = GO.make_layout("deduced_choices")
OPTIONS = {"level": "medium", "observation_mode": "deduced_choices"}


def _expected_cards(obs: np.ndarray, decision: int) -> np.ndarray:
    """CARD_FEATURES by their table in GuestsFeatures' docstring, shape (5, 32)."""
    out = np.zeros((5, GO.N_SLOTS), np.float32)
    if decision not in (G.D_OFFER, G.D_PAY):
        return out
    hand = obs[LAYOUT["hand"]].reshape(GO.N_SLOTS, GO.HAND_FEATURES)
    present = hand[:, GO.H_PRESENT]
    value = hand[:, GO.H_VALUE : GO.H_VALUE + 3] @ np.array([1.0, 2.0, 3.0], np.float32)
    teach, share = obs[LAYOUT["hand_teach"]], obs[LAYOUT["hand_share"]]
    owed = obs[LAYOUT["pending_amount"].start] * GO.BID_SCALE
    out[0] = teach
    out[1] = np.minimum(teach / np.maximum(share, 1e-6), 1.0)
    out[2] = present * (teach == 0)
    out[3] = present * (value >= owed - 1e-3) if decision == G.D_PAY else 0.0
    out[4] = value / 3.0
    return out


def _expected_allowed(obs: np.ndarray, decision: int) -> np.ndarray:
    """allowed: the accusation_* block of the part being named, at its actions."""
    out = np.zeros(A.NUM_ACTIONS, np.float32)
    parts = {
        G.D_MURDERER: ("murderers", A.SUSPECT_0),
        G.D_MOTIVE: ("motives", A.MOTIVE_0),
        G.D_WEAPON: ("weapons", A.WEAPON_0),
        G.D_ACCOMPLICE: ("accomplices", A.SUSPECT_0),
        G.D_ACC_MOTIVE: ("accomplice_motives", A.MOTIVE_0),
    }
    if decision in parts:
        block, first = parts[decision]
        bits = obs[LAYOUT[f"accusation_{block}"]]
        if decision == G.D_ACCOMPLICE:
            out[first : first + 6] = bits[:6]
            out[A.NO_ACCOMPLICE] = bits[6]
        elif decision == G.D_ACC_MOTIVE:
            out[first : first + 18] = bits[:18]
        else:
            out[first : first + bits.size] = bits
    return out


def _expected_solution(obs: np.ndarray, decision: int) -> np.ndarray:
    """solution: one candidate left, more than one, and 1 / candidates (deciding only)."""
    if decision != G.D_SOLUTION:
        return np.zeros(3, np.float32)
    candidates = np.exp(obs[LAYOUT["deduced_count"]][0] * np.log(5760.0))
    return np.array([candidates < 1.5, candidates >= 1.5, 1.0 / candidates], np.float32)


def _expected_timing(obs: np.ndarray, decision: int) -> np.ndarray:
    """timing: the round, and the round times 1 / candidates (deciding only)."""
    if decision != G.D_SOLUTION:
        return np.zeros(N_TIMING_FEATURES, np.float32)
    round_ = obs[LAYOUT["round"]][0]
    return np.array([round_, round_ * _expected_solution(obs, decision)[2]], np.float32)


@pytest.mark.parametrize("timing", [False, True])
def test_card_features_follow_the_observation_at_every_decision(timing):
    from parlour.games.guests.policy import CARD_FEATURES, PRIOR_SCALE, GuestsFeatures

    env = SingleSeatEnv(get_game("guests"), 4, OPTIONS, opponents=["guests.deducer"], seat=1)
    n = GO.layout_size(LAYOUT)
    feats = GuestsFeatures(env.observation_space, timing=timing)
    cards = len(CARD_FEATURES) * GO.N_SLOTS
    base = n + 98 + (N_TIMING_FEATURES if timing else 0)  # raw, allowed, solution (and timing)
    assert feats.choices and feats.features_dim == base + cards + 256
    assert feats.card_slice == slice(base, base + cards)
    assert feats.timing_slice == (slice(n + 98, base) if timing else None)
    seen_round = set()
    rng = np.random.default_rng(0)
    seen: dict[int, int] = {}
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        for _ in range(400):
            d = env.aec.game.decision
            with torch.no_grad():
                out = feats(torch.as_tensor(obs)[None])[0].numpy()
            np.testing.assert_array_equal(out[:n], obs)
            allowed, solution = out[n : n + 95] / PRIOR_SCALE, out[n + 95 : n + 98] / PRIOR_SCALE
            np.testing.assert_allclose(allowed, _expected_allowed(obs, d), atol=1e-6)
            np.testing.assert_allclose(solution, _expected_solution(obs, d), rtol=1e-4)
            if timing:
                got_timing = out[feats.timing_slice] / PRIOR_SCALE
                np.testing.assert_allclose(got_timing, _expected_timing(obs, d), rtol=1e-4)
                if d == G.D_SOLUTION:
                    seen_round.add(round(float(got_timing[0]), 4))
            got = out[feats.card_slice].reshape(5, GO.N_SLOTS) / PRIOR_SCALE
            np.testing.assert_allclose(got, _expected_cards(obs, d), rtol=1e-5, atol=1e-6)
            if (d in (G.D_OFFER, G.D_PAY) and got[0].any()) or d in (G.D_SOLUTION, G.D_MOTIVE):
                seen[d] = seen.get(d, 0) + 1
            legal = np.flatnonzero(env.action_masks())
            obs, _, term, trunc, _ = env.step(int(rng.choice(legal)))
            if term or trunc:
                break
    assert seen.get(G.D_OFFER) and seen.get(G.D_PAY), seen  # both kinds were checked
    assert seen.get(G.D_SOLUTION) and seen.get(G.D_MOTIVE), seen
    assert not timing or len(seen_round) >= 2, seen_round  # the round feature moved


def test_threat_features_are_the_public_declines_at_every_decision():
    """threat: at every "accuse now?" decision of whole games, ``declined`` is what the scripted
    ``guests.deducer:threat`` reads from the view (another seat still in declined a bid this
    round) and ``declined_chance`` that times 1 / candidates; 0 at every other decision. With
    ``timing`` as well, the threat columns follow the timing columns."""
    from parlour.games.guests.deducer import declined_this_round
    from parlour.games.guests.policy import N_THREAT_FEATURES, PRIOR_SCALE, GuestsFeatures

    env = SingleSeatEnv(get_game("guests"), 4, OPTIONS, opponents=["guests.deducer"], seat=1)
    feats = GuestsFeatures(env.observation_space, threat=True)
    both = GuestsFeatures(env.observation_space, timing=True, threat=True)
    assert feats.threat_slice.stop - feats.threat_slice.start == N_THREAT_FEATURES
    assert both.threat_slice.start == both.timing_slice.stop
    assert both.card_slice.start == both.threat_slice.stop
    assert GuestsFeatures(env.observation_space).threat_slice is None
    rng = np.random.default_rng(1)
    seen = {True: 0, False: 0}
    for seed in range(8):
        obs, _ = env.reset(seed=seed)
        while True:
            d = env.aec.game.decision
            with torch.no_grad():
                x = torch.as_tensor(obs)[None]
                got = feats(x)[0, feats.threat_slice].numpy() / PRIOR_SCALE
                got_both = both(x)[0, both.threat_slice].numpy() / PRIOR_SCALE
            np.testing.assert_array_equal(got, got_both)
            if d == G.D_SOLUTION:
                declined = declined_this_round(env.aec.player_view(env.aec.agent_selection))
                chance = _expected_solution(obs, d)[2]
                np.testing.assert_allclose(got, [declined, declined * chance], rtol=1e-4)
                seen[declined] += 1
            else:
                assert not got.any(), d
            legal = np.flatnonzero(env.action_masks())
            # never accuse (a random accuser is soon out): every Solution phase is seen
            action = A.NO if d == G.D_SOLUTION else int(rng.choice(legal))
            obs, _, term, trunc, _ = env.step(action)
            if term or trunc:
                break
    assert seen[True] and seen[False], seen  # declines and calm rounds were both checked


def test_rare_features_name_the_rarest_choice_at_every_decision():
    """``deduced_shares``: at each naming decision of whole games of ``pick=rare`` deducers the
    ``rare`` columns are ``allowed · (1 − share)`` per action (recomputed from the observation),
    so their largest allowed entries are the deducer's choice; 0 at every other decision. The
    block sits after the threat features and before the card rows."""
    from parlour.games.guests.policy import PRIOR_SCALE, GuestsFeatures
    from tests.awkward_guests.scenario_helpers import deducer_decisions

    shares = GO.make_layout("deduced_shares")
    space = SingleSeatEnv(get_game("guests"), 4, OPTIONS, seat=0).observation_space
    options = dict(OPTIONS, observation_mode="deduced_shares")
    wide = SingleSeatEnv(get_game("guests"), 4, options, seat=0).observation_space
    plain = GuestsFeatures(space, threat=True)
    feats = GuestsFeatures(wide, threat=True)
    assert GuestsFeatures(space).rare_slice is None
    wider = GO.layout_size(shares) - GO.layout_size(LAYOUT)  # (the raw observation)
    assert feats.rare_slice.start == plain.card_slice.start + wider
    assert feats.card_slice.start == feats.rare_slice.stop
    named = narrowed = 0
    spec = "guests.deducer:threat=8,pick=rare"
    for env, _, obs, view, agent in deducer_decisions(4, "medium", spec, 12, "deduced_shares"):
        o = obs["observation"]
        with torch.no_grad():
            rare = feats(torch.as_tensor(o)[None])[0, feats.rare_slice].numpy() / PRIOR_SCALE
        d = env.game.decision
        allowed = _expected_allowed(o[: GO.layout_size(LAYOUT)], d)
        share = _expected_allowed(
            np.r_[o[: LAYOUT["accusation_murderers"].start], o[shares["accusation_shares"]]], d
        )
        np.testing.assert_allclose(rare, allowed * (1 - share), atol=1e-6)
        if G.D_MURDERER <= d <= G.D_ACC_MOTIVE:
            # (the part the deducer names now: of the candidate it chose when it accused)
            parts = G.accusation_actions(agent._target, view.accomplice_possible)
            action = parts[d - G.D_MURDERER]
            top = np.flatnonzero((allowed > 0) & np.isclose(rare, rare[allowed > 0].max()))
            assert action in top, (d, action, top)
            named += 1
            narrowed += len(top) < int((allowed > 0).sum())
        else:
            assert not rare.any(), d
    assert named and narrowed, (named, narrowed)  # (some choice was rarer than another)


def test_odds_features_follow_the_deducers_likeliest_at_every_decision():
    """``deduced_odds``: at each "accuse now?" decision of whole games of
    ``threat=64,odds=0.6,pick=likely`` deducers, ``top`` is the deducer's ``likeliest`` chance
    and ``declined_count`` its ``declined_this_round`` times ``deduced_count``; at each naming
    decision the ``likely`` columns are ``allowed`` where ``accusation_odds`` is the largest, and
    hold the part the deducer names; all 0 elsewhere. The odds columns follow ``rare``, then
    ``likely``, then the card rows."""
    from parlour.games.guests.deducer import declined_this_round
    from parlour.games.guests.policy import N_ODDS_FEATURES, PRIOR_SCALE, GuestsFeatures
    from tests.awkward_guests.scenario_helpers import deducer_decisions

    odds_layout = GO.make_layout("deduced_odds")
    options = dict(OPTIONS, observation_mode="deduced_odds")
    space = SingleSeatEnv(get_game("guests"), 4, options, seat=0).observation_space
    feats = GuestsFeatures(space, threat=True)
    assert feats.odds_slice.start == feats.rare_slice.stop
    assert feats.odds_slice.stop - feats.odds_slice.start == N_ODDS_FEATURES
    assert feats.likely_slice.start == feats.odds_slice.stop
    assert feats.card_slice.start == feats.likely_slice.stop
    shares_space = SingleSeatEnv(
        get_game("guests"), 4, dict(OPTIONS, observation_mode="deduced_shares"), seat=0
    ).observation_space
    assert GuestsFeatures(shares_space).likely_slice is None
    count = odds_layout["deduced_count"].start
    solutions = named = narrowed = declined_seen = 0
    spec = "guests.deducer:threat=64,odds=0.6,pick=likely"
    for env, _, obs, view, agent in deducer_decisions(4, "medium", spec, 10, "deduced_odds"):
        o = obs["observation"]
        with torch.no_grad():
            out = feats(torch.as_tensor(o)[None])[0] / PRIOR_SCALE
        got, likely = out[feats.odds_slice].numpy(), out[feats.likely_slice].numpy()
        d = env.game.decision
        if d == G.D_SOLUTION:
            declined = declined_this_round(view)
            want = [agent.likeliest(view)[1], declined * o[count]]
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)
            assert not likely.any()
            solutions += 1
            declined_seen += declined
        elif G.D_MURDERER <= d <= G.D_ACC_MOTIVE:
            assert not got.any()
            allowed = _expected_allowed(o[: GO.layout_size(LAYOUT)], d)
            odds = _expected_allowed(
                np.r_[o[: LAYOUT["accusation_murderers"].start], o[odds_layout["accusation_odds"]]],
                d,
            )
            best = (allowed > 0) & (odds >= odds.max() - 1e-6) & (odds > 0)
            np.testing.assert_array_equal(likely, best.astype(np.float32))
            parts = G.accusation_actions(agent._target, view.accomplice_possible)
            assert likely[parts[d - G.D_MURDERER]] == 1.0, d
            named += 1
            narrowed += int(best.sum()) < int((allowed > 0).sum())
        else:
            assert not got.any() and not likely.any(), d
    assert solutions and named and narrowed and declined_seen


def test_an_odds_model_has_the_shared_likely_weight_and_survives_save_load(tmp_path):
    """A model on ``deduced_odds`` gets ``PriorHead.likely_weight`` beside ``rare_weight``, and
    its saved file loads to the same logits with both weights set."""
    from parlour.train.config import config_from_dict
    from parlour.train.train import build_model, make_vec_env

    base = _tiny_config("odds")
    cfg = config_from_dict(
        dict(base, game_options={"level": "medium", "observation_mode": "deduced_odds"})
    )
    model = build_model(cfg, make_vec_env(cfg))
    head = model.policy.action_net
    assert head.likely == model.policy.features_extractor.likely_slice
    with torch.no_grad():
        head.likely_weight.fill_(1.5)
        head.rare_weight.fill_(0.25)
    loaded = _saved_and_loaded(model, tmp_path / "model.safetensors")
    assert float(loaded.action_net.likely_weight.detach()) == pytest.approx(1.5)
    assert float(loaded.action_net.rare_weight.detach()) == pytest.approx(0.25)


def test_timing_is_refused_without_choices_or_as_a_non_bool():
    from parlour.games.guests.policy import GuestsFeatures

    deduced = SingleSeatEnv(get_game("guests"), 4, {"level": "medium"}, seat=0)
    with pytest.raises(
        ValueError, match=r"timing needs observation_mode one of \['deduced_choices'"
    ):
        GuestsFeatures(deduced.observation_space, timing=True)
    choices = SingleSeatEnv(get_game("guests"), 4, OPTIONS, seat=0)
    with pytest.raises(ValueError, match="timing must be true or false, got 1"):
        GuestsFeatures(choices.observation_space, timing=1)
    with pytest.raises(
        ValueError, match=r"threat needs observation_mode one of \[.deduced_choices."
    ):
        GuestsFeatures(deduced.observation_space, threat=True)
    with pytest.raises(ValueError, match="threat must be true or false, got 'yes'"):
        GuestsFeatures(choices.observation_space, threat="yes")


def _tiny_config(name: str) -> dict:
    """A one-rollout 4-player medium run on ``deduced_choices``, linear heads on GuestsFeatures."""
    return {
        "name": name,
        "game": "guests",
        "players": 4,
        "game_options": dict(OPTIONS),
        "total_timesteps": 64,
        "n_envs": 1,
        "vec_env": "dummy",
        "opponents": {"baselines": {"guests.deducer": 1.0}},
        "ppo": {"n_steps": 64, "batch_size": 64, "net_arch": []},
    }


def test_prior_head_card_weights_move_only_card_logits():
    from parlour.games.guests.policy import PRIOR_SCALE, GuestsPolicy, PriorHead
    from parlour.train.config import config_from_dict
    from parlour.train.train import build_model, make_vec_env

    cfg = config_from_dict(_tiny_config("teach_head"))
    policy = build_model(cfg, make_vec_env(cfg)).policy
    assert isinstance(policy, GuestsPolicy)
    head = policy.action_net
    assert isinstance(head, PriorHead) and head.card_weights.shape == (5,)
    assert not head.card_weights.any()  # no built-in preference
    trained = {id(p) for g in policy.optimizer.param_groups for p in g["params"]}
    assert id(head.card_weights) in trained

    env = SingleSeatEnv(get_game("guests"), 4, OPTIONS, opponents=["guests.deducer"], seat=1)
    rng = np.random.default_rng(1)
    obs, _ = env.reset(seed=0)
    while not (env.aec.game.decision == G.D_PAY and obs[LAYOUT["hand_teach"]].any()):
        obs, _, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if term or trunc:
            obs, _ = env.reset(seed=int(rng.integers(1000)))
    weights = torch.tensor([0.5, -1.0, 2.0, 0.25, -0.75])
    with torch.no_grad():
        head.card_weights.copy_(weights)
        latent = policy.extract_features(torch.as_tensor(obs)[None], policy.features_extractor)
        shift = (policy.action_net(latent) - head.linear(latent))[0].numpy()
        prior = (head.prior_weight * latent[0, head.start : head.stop]).numpy()
    bonus = PRIOR_SCALE * (weights.numpy() @ _expected_cards(obs, G.D_PAY))
    shift = shift - prior  # (the allowed term; 0 at a payment, whatever prior_weight is)
    assert bonus.any()
    np.testing.assert_allclose(shift[A.CARD_0 : A.CARD_0 + GO.N_SLOTS], bonus, rtol=1e-5, atol=1e-3)
    others = np.r_[shift[: A.CARD_0], shift[A.CARD_0 + GO.N_SLOTS :]]
    assert not others.any()


@pytest.mark.parametrize("option", ["timing", "threat"])
def test_timing_is_saved_with_the_model_and_moves_only_the_accuse_decision(tmp_path, option):
    """``timing: true`` / ``threat: true`` reaches the extractor and survives save/load (a model
    saved without it loads without it), and the heads read its columns only where the player
    decides whether to accuse: with weights on those columns, the logits move at that decision
    only."""
    from parlour.agents.model_file import load_policy_file
    from parlour.train.config import config_from_dict
    from parlour.train.model import save_model
    from parlour.train.train import build_model, make_vec_env

    base = _tiny_config(option)
    ppo = dict(base["ppo"], features_extractor_kwargs={option: True})
    cfg = config_from_dict(dict(base, ppo=ppo))
    model = build_model(cfg, make_vec_env(cfg))
    assert getattr(model.policy.features_extractor, option)
    save_model(model, tmp_path / "model.safetensors")
    loaded = load_policy_file(tmp_path / "model.safetensors")
    assert getattr(loaded.features_extractor, option)
    assert loaded.features_extractor.features_dim == model.policy.features_extractor.features_dim
    plain = build_model(config_from_dict(base), make_vec_env(config_from_dict(base)))
    save_model(plain, tmp_path / "plain.safetensors")
    assert not getattr(load_policy_file(tmp_path / "plain.safetensors").features_extractor, option)

    # give the option's columns a weight in the head, then zero them in the head's input
    head = loaded.action_net.linear
    columns = getattr(loaded.features_extractor, f"{option}_slice")
    with torch.no_grad():
        head.weight[:, columns] = torch.linspace(-1.0, 1.0, head.weight.shape[0])[:, None]
    env = SingleSeatEnv(get_game("guests"), 4, OPTIONS, opponents=["guests.deducer"], seat=1)
    rng = np.random.default_rng(3)
    obs, _ = env.reset(seed=0)
    moved = {}
    for step in range(4000):
        d = env.aec.game.decision
        x = torch.as_tensor(obs)[None]
        with torch.no_grad():
            feats = loaded.features_extractor(x)
            without = feats.clone()
            without[:, columns] = 0.0
            delta = (loaded.action_net(feats) - loaded.action_net(without)).abs().max().item()
        moved[d] = max(moved.get(d, 0.0), delta)
        if step >= 600 and moved.get(G.D_SOLUTION):
            break  # (the threat columns are non-zero only after a declined turn: wait for one)
        legal = np.flatnonzero(env.action_masks())
        action = A.NO if d == G.D_SOLUTION else int(rng.choice(legal))  # (never out)
        obs, _, term, trunc, _ = env.step(action)
        if term or trunc:
            obs, _ = env.reset(seed=int(rng.integers(1000)))
    assert moved[G.D_SOLUTION] > 0.0
    assert all(v == 0.0 for d, v in moved.items() if d != G.D_SOLUTION), moved


def _saved_and_loaded(model, path):
    """``model`` saved to ``path`` and loaded back; the loaded policy's logits are the model's."""
    from parlour.agents.model_file import load_policy_file
    from parlour.train.model import save_model

    save_model(model, path)
    loaded = load_policy_file(path)
    obs = torch.as_tensor(model.env.reset())
    with torch.no_grad():
        want = model.policy.get_distribution(obs).distribution.logits
        got = loaded.get_distribution(obs).distribution.logits
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-5)
    return loaded


def test_a_shares_model_has_the_shared_rare_weight_and_survives_save_load(tmp_path):
    """A model on ``deduced_shares`` gets ``PriorHead.rare_weight`` (a ``deduced_choices`` model
    does not), and its saved file loads to the same logits with that weight set."""
    from parlour.train.config import config_from_dict
    from parlour.train.train import build_model, make_vec_env

    base = _tiny_config("shares")
    cfg = config_from_dict(
        dict(base, game_options={"level": "medium", "observation_mode": "deduced_shares"})
    )
    model = build_model(cfg, make_vec_env(cfg))
    head = model.policy.action_net
    assert head.rare == model.policy.features_extractor.rare_slice
    plain = build_model(config_from_dict(base), make_vec_env(config_from_dict(base)))
    assert plain.policy.action_net.rare is None
    assert not hasattr(plain.policy.action_net, "rare_weight")
    with torch.no_grad():
        head.rare_weight.fill_(0.75)
    loaded = _saved_and_loaded(model, tmp_path / "model.safetensors")
    assert float(loaded.action_net.rare_weight.detach()) == pytest.approx(0.75)
