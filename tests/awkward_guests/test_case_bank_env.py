"""Envs that deal from a case bank (issue 33): ``awkward_guests_v1.env(case_bank=, case_split=)``
and the solo Gymnasium env deal the cases of one split, seeded, without replacement per epoch;
bad bank settings are a ``ValueError`` naming them; ``parlour train`` records the bank.

(The PettingZoo ``api_test`` and ``seed_test`` run with a bank through the Guests registry
configurations ``(1, {"case_bank": "easy"})`` and ``(4, {"case_bank": "medium", "case_split":
"test"})`` in ``tests/conformance``.)
"""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from parlour.envs import awkward_guests_v1
from parlour.envs.awkward_guests.case.bank import case_bytes, open_bank
from parlour.envs.awkward_guests.case.bank_build import build_bank
from parlour.envs.awkward_guests.solo import AwkwardGuestsSoloEnv
from parlour.games import get_game

from .bank_helpers import own_record

#: the test bank: 12 easy cases, splits of 6 / 3 / 3
LEVEL, COUNT, SEED, SPLITS = "easy", 12, 7, "train=0.5,val=0.25,test=0.25"
#: a short game (random play)
ROUNDS = 3


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    with own_record(tmp_path_factory.mktemp("record")) as folder:
        yield folder


@pytest.fixture(scope="module")
def bank(record, tmp_path_factory):
    path = tmp_path_factory.mktemp("banks") / "easy.agbank"
    build_bank(path, LEVEL, COUNT, seed=SEED, splits=SPLITS)
    return open_bank(path)


@pytest.fixture(scope="module")
def index_of(bank):
    """Bank index by a case's canonical JSON (what a dealt case is recognised by)."""
    return {bank.case_json_bytes(i): i for i in range(len(bank))}


def aec(bank, n: int, split: str = "train", **kw):
    return awkward_guests_v1.env(
        num_players=n, case_bank=bank.path, case_split=split, max_rounds=ROUNDS, **kw
    )


def solo(bank, split: str = "train", **kw):
    return AwkwardGuestsSoloEnv(case_bank=bank.path, case_split=split, max_rounds=ROUNDS, **kw)


def dealt(env, index_of) -> int:
    """The bank index of the case the env's game plays."""
    return index_of[case_bytes(env.unwrapped.game.case)]


def deals(env, index_of, seed: int, n: int) -> list[int]:
    """The cases of ``reset(seed=seed)`` and the ``n - 1`` unseeded resets after it."""
    env.reset(seed=seed)
    out = [dealt(env, index_of)]
    for _ in range(n - 1):
        env.reset()
        out.append(dealt(env, index_of))
    return out


MAKERS = {
    "1p": lambda bank, split: aec(bank, 1, split),
    "2p": lambda bank, split: aec(bank, 2, split),
    "5p": lambda bank, split: aec(bank, 5, split),
    "solo": lambda bank, split: solo(bank, split),
    "solo_gym_make": lambda bank, split: gymnasium.make(
        "parlour/AwkwardGuestsSolo-v1", case_bank=bank.path, case_split=split
    ),
}


@pytest.mark.parametrize("maker", list(MAKERS))
@pytest.mark.parametrize("split", ["train", "test"])
def test_resets_deal_every_case_of_the_split_once_per_epoch(bank, index_of, maker, split):
    env = MAKERS[maker](bank, split)
    r = bank.split(split)
    got = deals(env, index_of, seed=11, n=3 * len(r))
    # the seeded reset starts an epoch: the order is a permutation of the split drawn first
    # from the reset's generator
    first = np.random.default_rng(11).permutation(len(r))
    assert got[: len(r)] == [r.start + int(k) for k in first]
    for epoch in range(3):  # then every case once per epoch, epoch after epoch
        assert sorted(got[epoch * len(r) : (epoch + 1) * len(r)]) == list(r), (epoch, got)
    assert env.unwrapped.level == LEVEL


def test_a_seeded_reset_starts_a_new_epoch(bank, index_of):
    env = aec(bank, 2)
    r = bank.split("train")
    env.reset(seed=11)
    env.reset()
    again = deals(env, index_of, seed=11, n=len(r))  # (mid-epoch: a new one, from the start)
    assert again == deals(aec(bank, 2), index_of, seed=11, n=len(r))
    assert sorted(again) == list(r)


def _random_play(env, rng: np.random.Generator) -> list:
    """One game of random legal moves: the actions and the final rewards."""
    trace = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        action = None
        if not (term or trunc):
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        trace.append((agent, action, reward))
        env.step(action)
    return trace


def _solo_play(env, rng: np.random.Generator) -> list:
    trace, done = [], False
    while not done:
        mask = env.unwrapped.action_masks()
        action = int(rng.choice(np.flatnonzero(mask)))
        obs, reward, term, trunc, _ = env.step(action)
        trace.append((action, reward, float(obs.sum())))
        done = term or trunc
    return trace


def _episodes(env, index_of, seed: int, games: int) -> list:
    rng = np.random.default_rng(seed)
    play = _solo_play if isinstance(env.unwrapped, AwkwardGuestsSoloEnv) else _random_play
    out = []
    for g in range(games):
        env.reset(seed=seed if g == 0 else None)
        out.append((dealt(env, index_of), play(env, rng)))
    return out


@pytest.mark.parametrize("maker", ["1p", "5p", "solo"])
def test_the_same_seed_deals_the_same_cases_and_plays_the_same_games(bank, index_of, maker):
    one = _episodes(MAKERS[maker](bank, "train"), index_of, seed=5, games=8)
    two = _episodes(MAKERS[maker](bank, "train"), index_of, seed=5, games=8)
    assert one == two
    other = _episodes(MAKERS[maker](bank, "train"), index_of, seed=6, games=8)
    assert [c for c, _ in other] != [c for c, _ in one]


@pytest.mark.parametrize("maker", ["2p", "solo"])
def test_a_reset_that_raises_does_not_advance_the_epoch(bank, index_of, maker):
    r = bank.split("train")
    expected = deals(MAKERS[maker](bank, "train"), index_of, seed=3, n=2 * len(r))
    env = MAKERS[maker](bank, "train")
    env.reset(seed=3)
    got = [dealt(env, index_of)]
    for k in range(2 * len(r) - 1):
        if k in (0, 4, len(r) - 1):  # (mid-epoch and at its end)
            with pytest.raises(ValueError, match="deck"):
                env.reset(options={"deck": "not a deck"})
            with pytest.raises(ValueError, match="deck"):  # a seeded one neither
                env.reset(seed=99, options={"deck": [1, 2, 3]})
        env.reset()
        got.append(dealt(env, index_of))
    assert got == expected


@pytest.mark.parametrize("make", ["aec", "solo"])
def test_bad_bank_settings_name_them(bank, make, tmp_path):
    def build(**kw):
        if make == "aec":
            return awkward_guests_v1.env(num_players=2, **kw)
        return AwkwardGuestsSoloEnv(**kw)

    path = bank.path
    cases = [
        ({"case_bank": path, "level": "medium"}, f"level='medium', but the case bank {path}"),
        ({"case_split": "test"}, "case_split='test' needs a case_bank"),
        (
            {"case_bank": path, "case_split": "holdout"},
            f"case bank {path}: no split 'holdout'; its splits are ['train', 'val', 'test']",
        ),
        ({"case_bank": path, "case_split": 3}, "case_split must be a split name, got 3"),
        (
            {"case_bank": path, "cases": "classic"},
            "case_bank deals the cases: cases must stay 'generated', got 'classic'",
        ),
        (
            {"case_bank": path, "case_workers": 1},
            "case_workers needs cases='generated' and no case_bank",
        ),
        ({"case_bank": tmp_path / "none.agbank"}, "none.agbank: cannot read it"),
        ({"case_bank": 7}, "case_bank must be a bank file path or a shipped bank's name"),
    ]
    for kwargs, message in cases:
        with pytest.raises(ValueError) as e:
            build(**kwargs)
        assert message in str(e.value), (kwargs, str(e.value))


def test_the_bank_plays_its_own_level_and_describes_itself(bank, record, tmp_path):
    medium = tmp_path / "medium.agbank"
    build_bank(medium, "medium", 4, seed=1, splits="train=0.5,test=0.5")
    for env in (
        awkward_guests_v1.env(num_players=2, case_bank=medium),
        AwkwardGuestsSoloEnv(case_bank=medium),
    ):
        env.reset(seed=0)
        assert env.unwrapped.level == "medium" and env.unwrapped.game.case.level == "medium"
    explicit = awkward_guests_v1.env(num_players=2, case_bank=medium, level="medium")
    assert explicit.unwrapped.level == "medium"
    assert awkward_guests_v1.env(num_players=2).unwrapped.level == "easy"  # (no bank: easy)

    env = aec(bank, 3, "test")
    assert env.unwrapped.cases.describe() == {
        "case_bank": str(bank.path),
        "sha256": bank.digest,
        "level": LEVEL,
        "case_split": "test",
        "cases": 3,
    }
    assert solo(bank, "val").cases.describe()["case_split"] == "val"
    assert awkward_guests_v1.env(num_players=2).unwrapped.cases.describe() == {
        "cases": "generated",
        "level": "easy",
    }


def test_the_solo_env_with_a_bank_passes_the_gymnasium_checker(bank):
    check_env(solo(bank, "val"), skip_render_check=True)
    check_env(
        gymnasium.make(
            "parlour/AwkwardGuestsSolo-v1", case_bank=bank.path, render_mode="ansi"
        ).unwrapped
    )


def test_the_registry_runs_the_conformance_tests_with_banks():
    """The conformance suite (api_test, seed_test, ...) plays these configurations."""
    configs = get_game("guests").configurations
    assert (1, {"case_bank": "easy"}) in configs
    assert (4, {"case_bank": "medium", "case_split": "test"}) in configs


# -- training ----------------------------------------------------------------------------------


def _config(options):
    from parlour.train.config import config_from_dict

    return config_from_dict(
        {
            "name": "bank",
            "game": "guests",
            "players": 1,
            "game_options": options,
            "eval": {"agents": ["random"]},
        }
    )


def test_parlour_train_records_the_bank_and_split(bank):
    from parlour.train.evaluation import eval_options
    from parlour.train.run_report import data_source

    options = {"case_bank": str(bank.path), "case_split": "test", "solution_shaping": 0.1}
    cfg = _config(options)
    assert eval_options(cfg) == {"case_bank": str(bank.path), "case_split": "test"}
    assert data_source(cfg) == {
        "case_bank": str(bank.path),
        "sha256": bank.digest,
        "level": LEVEL,
        "case_split": "test",
        "cases": 3,
    }
    assert data_source(_config({"level": "hard"})) == {"cases": "generated", "level": "hard"}


def test_no_reset_source_prefetches_cases_for_a_bank(bank):
    reset_source = get_game("guests").training.reset_source
    assert reset_source({"case_bank": str(bank.path), "case_split": "val"}, 0) is None
    pool = reset_source({"level": LEVEL}, 0)  # (generated cases: prefetched)
    try:
        assert pool is not None
    finally:
        pool.close()
