"""``parlour_awkward_guests`` as an OpenSpiel game (:mod:`parlour.openspiel.guests`).

* OpenSpiel's own checks (``random_sim_test``, serialization included) at every player count;
* the differential test: the OpenSpiel state dealt with env seed ``S`` and the PettingZoo env
  reset with ``S`` play the same random moves to the end, with the same current player, legal
  actions, every seat's observation and the same returns;
* clones, ``serialize_game_and_state`` and pickling mid-game continue identically (the engine's
  generator, used by reshuffles, included);
* bad parameters name the parameter and its values;
* information states: no other seat's hand, a seat's string changes exactly when its
  observation does (the length of a hidden decision never shows), seats differ where their
  private information does.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from parlour.envs import awkward_guests_v1  # noqa: E402
from parlour.envs.awkward_guests import actions as A  # noqa: E402
from parlour.envs.awkward_guests import game as G  # noqa: E402
from parlour.games import get_game  # noqa: E402
from parlour.openspiel import guests as GS  # noqa: E402

NAME = GS.GAME_NAME

#: (players, env options): every configuration of the game's registry entry, then the player
#: count it lacks, the round limit (truncation) and a small deck (reshuffles)
ENV_TABLES = [
    *((n, dict(options)) for n, options in get_game("guests").configurations),
    (7, {"level": "very_hard"}),
    (3, {"max_rounds": 1}),
    (4, {"deck_size": 24, "max_rounds": 3}),
]
#: (OpenSpiel parameters, the env's keyword arguments); case_workers changes no game (only
#: which process generates the cases): the env here runs without workers
CONFIGS = [
    (
        GS.params_of_env(n, options),
        {"num_players": n, **{k: v for k, v in options.items() if k != "case_workers"}},
    )
    for n, options in ENV_TABLES
]
IDS = [",".join(f"{k}={v}" for k, v in params.items()) for params, _ in CONFIGS]


def load(**params) -> GS.GuestsSpielGame:
    return pyspiel.load_game(NAME, params)


def random_action(state, rng: np.random.Generator, accuse: bool = True) -> int:
    """A random legal action (``accuse=False``: never ``YES`` in the Solution phase, so that
    games run on to the round limit and through reshuffles)."""
    if state.is_chance_node():
        outcomes = [a for a, _ in state.chance_outcomes()]
        return int(outcomes[rng.integers(len(outcomes))])
    legal = state.legal_actions()
    if not accuse and state.engine.decision == G.D_SOLUTION:
        legal = [a for a in legal if a != A.YES]
    return int(legal[rng.integers(len(legal))])


def play_to_end(state, rng: np.random.Generator, accuse: bool = True) -> list[int]:
    actions = []
    while not state.is_terminal():
        a = random_action(state, rng, accuse)
        actions.append(a)
        state.apply_action(a)
    return actions


# ----------------------------------------------------------------------------- OpenSpiel's checks


@pytest.mark.parametrize(("params", "env_kwargs"), CONFIGS, ids=IDS)
def test_random_sim_test(params: dict, env_kwargs: dict) -> None:
    """OpenSpiel's random simulation test (legal actions, chance, tensors, strings, clone and
    the serialization round trip at every state) over every player count 1..8."""
    sims = 2 if params["players"] <= 4 else 1
    pyspiel.random_sim_test(load(**params), num_sims=sims, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("players", range(1, 9))
@pytest.mark.parametrize(
    "level", ["beginner", "very_easy", "easy", "medium", "hard", "very_hard", "expert"]
)
def test_random_sim_test_every_level(players: int, level: str) -> None:
    pyspiel.random_sim_test(
        load(players=players, level=level), num_sims=3, serialize=True, verbose=False
    )


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["deduced", "deduced_choices"])
def test_random_sim_test_deduced_observations(mode: str) -> None:
    pyspiel.random_sim_test(
        load(players=3, level="medium", observation_mode=mode),
        num_sims=2,
        serialize=True,
        verbose=False,
    )


def test_game_type_and_info() -> None:
    game = load(players=4)
    gt = game.get_type()
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert gt.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert gt.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (gt.min_num_players, gt.max_num_players) == (1, 8)
    assert game.utility_sum() == 0.0
    assert (game.min_utility(), game.max_utility()) == (-1 / 3, 1.0)
    assert game.max_chance_outcomes() == GS.SEED_BASE
    assert game.num_distinct_actions() == A.NUM_ACTIONS
    assert game.max_game_length() == GS.max_game_length(4, G.DEFAULT_MAX_ROUNDS)

    solo = load(players=1)
    assert solo.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert solo.utility_sum() is None
    assert (solo.min_utility(), solo.max_utility()) == (-1.0, 0.99)
    assert load(players=1, max_rounds=500).min_utility() == pytest.approx(-4.0)


def test_tensor_shapes_and_the_state_before_the_deal() -> None:
    game = load(players=3)
    state = game.new_initial_state_for_seed(11)
    obs = state.observation_tensor(0)
    info = state.information_state_tensor(0)
    assert game.observation_tensor_size() == len(obs) == 2313
    assert game.observation_tensor_shape() == [2313]
    assert (
        game.information_state_tensor_size()
        == len(info)
        == 2313 + GS.HISTORY_WINDOW * GS.HISTORY_ROW
    )
    # before the deal (the seed's chance nodes) the observation is all zeros
    root = game.new_initial_state()
    assert root.is_chance_node()
    assert not any(root.observation_tensor(1))
    assert root.information_state_string(1).startswith("seat 1;")


# ----------------------------------------------------------------------------- the differential test


def assert_same_game(env_kwargs: dict, seed: int, accuse: bool = True) -> tuple:
    """Play the OpenSpiel state and ``raw_env(**env_kwargs)`` side by side from env seed
    ``seed``, comparing everything at every step."""
    options = dict(env_kwargs)
    players = options.pop("num_players")
    game = load(**GS.params_of_env(players, options))
    state = game.new_initial_state_for_seed(seed)
    env = awkward_guests_v1.raw_env(**env_kwargs)
    env.reset(seed=seed)
    agents = env.possible_agents
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(agents, 0.0)
    steps = 0
    while not state.is_terminal():
        assert not env.game.is_terminal
        p = state.current_player()
        assert env.agent_name_mapping[env.agent_selection] == p
        mask = env.action_mask(env.agent_selection)
        assert state.legal_actions() == np.flatnonzero(mask).tolist()
        assert state.legal_actions(p) == state.legal_actions()
        for q, agent in enumerate(agents):
            expected = env.observe(agent)["observation"]
            got = np.asarray(state.observation_tensor(q), np.float32)
            np.testing.assert_array_equal(got, expected, err_msg=f"seat {q}, step {steps}")
            if q != p:
                assert state.legal_actions(q) == []
        a = random_action(state, rng, accuse)
        env.step(a)
        state.apply_action(a)
        for agent in agents:
            totals[agent] += env.rewards[agent]
        steps += 1
    assert env.game.is_terminal
    assert steps <= game.max_game_length()
    assert state.returns() == [totals[a] for a in agents]
    assert state.returns() == env.game.returns()
    for q, agent in enumerate(agents):
        np.testing.assert_array_equal(
            np.asarray(state.observation_tensor(q), np.float32), env.observe(agent)["observation"]
        )
    return state, env


@pytest.mark.parametrize(("params", "env_kwargs"), CONFIGS, ids=IDS)
def test_differential_random_play(params: dict, env_kwargs: dict) -> None:
    seeds = (0, 1, 2) if params["players"] <= 2 else (3,)
    for seed in seeds:
        assert_same_game(env_kwargs, seed)


@pytest.mark.parametrize("players", [1, 4])
def test_differential_to_the_round_limit_through_reshuffles(players: int) -> None:
    # a small deck and nobody accusing: the discard pile is reshuffled (the engine's generator)
    # and the game is truncated at the round limit
    reshuffled = False
    for seed in (21, 22):
        kwargs = {"num_players": players, "deck_size": 24, "max_rounds": 6 if players > 1 else 10}
        _, env = assert_same_game(kwargs, seed, accuse=False)
        assert env.game.result == "truncated"
        reshuffled |= bool(env.game.revealed)
    assert reshuffled


@pytest.mark.slow
@pytest.mark.parametrize("players", range(1, 9))
def test_differential_many_seeds(players: int) -> None:
    for seed in range(100, 110):
        level = ("beginner", "easy", "medium", "expert")[seed % 4]
        assert_same_game({"num_players": players, "level": level}, seed)
        kwargs = {"num_players": players, "level": level, "deck_size": 30, "max_rounds": 3}
        assert_same_game(kwargs, seed + 1000, accuse=False)


@pytest.mark.slow
@pytest.mark.parametrize(("params", "env_kwargs"), CONFIGS, ids=IDS)
def test_differential_registry_configurations_more_seeds(params: dict, env_kwargs: dict) -> None:
    for seed in range(200, 205):
        assert_same_game(env_kwargs, seed, accuse=seed % 2 == 0)


def test_params_of_env() -> None:
    assert GS.params_of_env(3, {"level": "hard", "case_workers": 2, "render_mode": "ansi"}) == {
        "players": 3,
        "level": "hard",
    }
    with pytest.raises(ValueError, match="no parlour_awkward_guests parameter.*\\['seer'\\]"):
        GS.params_of_env(2, {"seer": True})
    with pytest.raises(ValueError, match="case files are no parlour_awkward_guests parameter"):
        GS.params_of_env(2, {"cases": ["a.json"]})


def test_observer_dict_is_the_env_observation_layout() -> None:
    game = load(players=3)
    state = game.new_initial_state_for_seed(5)
    rng = np.random.default_rng(0)
    for _ in range(12):
        state.apply_action(random_action(state, rng))
    env = awkward_guests_v1.raw_env(num_players=3)
    observer = game.make_py_observer()
    layout = env.observation_layout
    assert list(observer.dict) == list(layout)
    assert observer.dict["players"].shape == (8, 13)
    assert observer.dict["hand"].shape == (32, 40)
    assert observer.dict["last_turns"].shape == (8, 57)
    for p in range(3):
        observer.set_from(state, p)
        flat = np.asarray(state.observation_tensor(p), np.float32)
        for name, piece in observer.dict.items():
            np.testing.assert_array_equal(piece.ravel(), flat[layout[name]])


def test_state_for_a_seed_is_the_env_reset_and_the_chance_nodes_hold_the_seed() -> None:
    game = load(players=2)
    seed = 0x0123456789ABCDEF
    state = game.new_initial_state_for_seed(seed)
    assert state.env_seed == seed
    assert state.history() == [(seed >> (8 * k)) & 0xFF for k in range(GS.SEED_DIGITS)]
    root = game.new_initial_state()
    for a in state.history():
        assert root.is_chance_node() and root.current_player() == pyspiel.PlayerId.CHANCE
        assert root.chance_outcomes() == [(b, 1 / 256) for b in range(256)]
        assert root.legal_actions() == list(range(256))
        root.apply_action(a)
    assert str(root) == str(state)
    env = awkward_guests_v1.raw_env(num_players=2, render_mode="ansi")
    env.reset(seed=seed)
    assert env.render() in str(state)
    assert state.engine.hands == env.game.hands
    assert state.engine.deck == env.game.deck
    assert state.engine.start == env.game.start
    assert state.engine.case.seed == env.game.case.seed
    with pytest.raises(ValueError, match="seed must be an int in 0..2\\*\\*64-1"):
        game.new_initial_state_for_seed(-1)
    with pytest.raises(ValueError, match="seed byte 256 is not in 0..255"):
        game.new_initial_state().apply_action(256)


def test_reset_options_fix_the_deal() -> None:
    game = load(players=2)
    env = awkward_guests_v1.raw_env(num_players=2)
    env.reset(seed=3)
    ids = env.game.tables.ids
    options = {"case": env.game.case, "deck": list(reversed(ids)), "start": 1}
    state = game.new_initial_state_for_seed(4, options)
    env.reset(seed=4, options=options)
    assert state.engine.hands == env.game.hands and state.engine.deck == env.game.deck
    assert state.current_player() == env.game.current_player == 1
    for p in range(2):
        np.testing.assert_array_equal(
            np.asarray(state.observation_tensor(p), np.float32),
            env.observe(f"player_{p}")["observation"],
        )
    with pytest.raises(ValueError, match="unknown key 'dekc'"):
        game.new_initial_state_for_seed(4, {"dekc": options["deck"]})


# ----------------------------------------------------------------------------- clones, serialization


def assert_continue_identically(states: list, rng_seed: int, accuse: bool = True) -> None:
    """Play the same random actions in every state, comparing everything at every step."""
    rng = np.random.default_rng(rng_seed)
    first = states[0]
    n = first.num_players()
    while not first.is_terminal():
        for other in states[1:]:
            assert str(other) == str(first)
            assert other.current_player() == first.current_player()
            assert other.legal_actions() == first.legal_actions()
            for p in range(n):
                assert other.observation_tensor(p) == first.observation_tensor(p)
                assert other.information_state_string(p) == first.information_state_string(p)
                assert other.information_state_tensor(p) == first.information_state_tensor(p)
        a = random_action(first, rng, accuse)
        for s in states:
            s.apply_action(a)
    for other in states[1:]:
        assert other.is_terminal()
        assert other.returns() == first.returns()
        assert other.history() == first.history()


@pytest.mark.parametrize(("players", "max_rounds"), [(1, 12), (3, 4)])
def test_clone_serialize_and_pickle_mid_game_continue_identically(
    players: int, max_rounds: int
) -> None:
    game = load(players=players, deck_size=24, max_rounds=max_rounds)
    state = game.new_initial_state()
    rng = np.random.default_rng(players)
    for _ in range(GS.SEED_DIGITS + 15):
        state.apply_action(random_action(state, rng, accuse=False))
    revealed = len(state.engine.revealed)
    clone = state.clone()
    text = pyspiel.serialize_game_and_state(game, state)
    game2, restored = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    unpickled = pickle.loads(pickle.dumps(state))
    by_history = game.new_initial_state()
    for a in state.history():
        by_history.apply_action(a)
    assert_continue_identically(
        [state, clone, restored, unpickled, by_history], rng_seed=7, accuse=False
    )
    # the small deck was reshuffled after the copies were made (the engine's generator)
    assert len(state.engine.revealed) > revealed


def test_a_clone_is_independent() -> None:
    game = load(players=2)
    state = game.new_initial_state_for_seed(1)
    before = (str(state), state.information_state_string(0), state.information_state_string(1))
    clone = state.clone()
    rng = np.random.default_rng(0)
    for _ in range(10):
        clone.apply_action(random_action(clone, rng))
    assert (
        str(state),
        state.information_state_string(0),
        state.information_state_string(1),
    ) == before
    assert len(state.history()) == GS.SEED_DIGITS


def test_serialize_at_the_chance_nodes_and_at_the_end() -> None:
    game = load(players=2)
    state = game.new_initial_state()
    for a in (5, 6, 7):
        state.apply_action(a)
    _, restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert restored.history() == [5, 6, 7] and restored.is_chance_node()
    play_to_end(state, np.random.default_rng(1))
    _, restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert restored.is_terminal() and restored.returns() == state.returns()
    assert restored.information_state_string(0) == state.information_state_string(0)


def test_engine_generator_survives_copies() -> None:
    # the engine's generator is held lazily: copies and pickles keep its exact state
    game = load(players=4, deck_size=24, max_rounds=8)
    state = game.new_initial_state_for_seed(21)
    rng = np.random.default_rng(0)
    while not state.engine.revealed:  # until the first reshuffle
        state.apply_action(random_action(state, rng, accuse=False))
    snap = state.engine.rng.bit_generator.state
    assert pickle.loads(pickle.dumps(state.engine)).rng.bit_generator.state == snap
    assert state.clone().engine.rng.bit_generator.state == snap
    env = awkward_guests_v1.raw_env(num_players=4, deck_size=24, max_rounds=8)
    env.reset(seed=21)
    rng = np.random.default_rng(0)
    replay = game.new_initial_state_for_seed(21)
    for a in state.history()[GS.SEED_DIGITS :]:
        env.step(a)
        replay.apply_action(a)
    assert env.game.rng.bit_generator.state == snap == replay.engine.rng.bit_generator.state


# ----------------------------------------------------------------------------- parameters


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"players": 0}, "players must be an int in 1..8, got 0"),
        ({"players": 9}, "players must be an int in 1..8, got 9"),
        ({"level": "trivial"}, "level must be one of \\['beginner', 'very_easy', 'easy'"),
        ({"cases": "files"}, "cases must be one of \\['generated', 'classic'\\], got 'files'"),
        ({"deck_size": 10}, "deck_size must be an int in 24..200, got 10"),
        ({"max_rounds": 0}, "max_rounds must be an int in 1..1000, got 0"),
        ({"max_rounds": 1001}, "max_rounds must be an int in 1..1000, got 1001"),
        ({"observation_mode": "seer"}, "observation_mode must be one of \\['notebook', 'deduced'"),
    ],
)
def test_bad_parameters_name_the_parameter_and_its_values(params: dict, message: str) -> None:
    with pytest.raises(ValueError, match=f"parlour_awkward_guests: {message}"):
        load(**params)


def test_unknown_and_mistyped_parameters() -> None:
    with pytest.raises(ValueError, match="unknown parameter\\(s\\) \\['player'\\]"):
        GS.GuestsSpielGame({"player": 2})
    with pytest.raises(ValueError, match="players must be an int in 1..8, got True"):
        GS.GuestsSpielGame({"players": True})
    with pytest.raises(pyspiel.SpielError):  # OpenSpiel checks names against the specification
        pyspiel.load_game("parlour_awkward_guests(player=2)")


# ----------------------------------------------------------------------------- information states


def seen_ids(state, p: int) -> set[int]:
    eng = state.engine
    return {eng.tables.ids[c] for c in eng.seen_log[p]}


def listed_ids(line: str, key: str) -> list[int]:
    """The card ids of ``key=...`` in a log line (``hand=3,17`` / ``saw=3~abcd1234,…``)."""
    out = []
    for word in line.split():
        if word.startswith(key + "=") and word != key + "=-":
            out += [
                int(item.split("~")[0].split(":")[0]) for item in word[len(key) + 1 :].split(",")
            ]
    return out


@pytest.mark.parametrize(("players", "seed"), [(2, 31), (3, 32), (4, 33), (6, 34)])
def test_information_state_holds_no_other_hand_and_follows_the_observation(
    players: int, seed: int
) -> None:
    """A seat's information state lists only cards it has seen, and (for moves of other
    seats) changes exactly when its observation changes."""
    game = load(players=players, level="medium")
    state = game.new_initial_state_for_seed(seed)
    rng = np.random.default_rng(seed)
    n = players
    strings = [state.information_state_string(p) for p in range(n)]
    tensors = [state.observation_tensor(p) for p in range(n)]
    while not state.is_terminal():
        mover = state.current_player()
        state.apply_action(random_action(state, rng, accuse=rng.random() < 0.2))
        for p in range(n):
            s = state.information_state_string(p)
            t = state.observation_tensor(p)
            if p != mover:
                assert (s != strings[p]) == (t != tensors[p]), (p, mover, s[len(strings[p]) :])
            elif not state.is_terminal():
                assert s != strings[p]  # a seat remembers its own moves
            new_lines = s[len(strings[p]) :]
            assert s.startswith(strings[p])  # perfect recall: the string only grows
            seen = seen_ids(state, p)
            for key in ("hand", "saw", "sel", "known"):
                assert set(listed_ids(new_lines, key)) <= seen
            assert str(state.env_seed) not in s.split("\n", 1)[1].split()
            strings[p], tensors[p] = s, t


def test_seats_differ_where_their_private_information_does() -> None:
    """Two deals that differ only in cards seat 0 has not seen: seat 0's information state
    and observation are the same, the other seat's differ."""
    game = load(players=2)
    base = game.new_initial_state_for_seed(40)
    eng = base.engine
    ids = eng.tables.ids
    top_first = [ids[c] for c in reversed(eng.deck)]
    hands = [[ids[c] for c in h] for h in eng.hands]
    deck = hands[0] + hands[1] + top_first  # seat 0 the top 6, seat 1 the next 6
    other = hands[0] + top_first[:6] + hands[1] + top_first[6:]  # seat 1 gets other cards
    a = game.new_initial_state_for_seed(40, {"case": eng.case, "deck": deck, "start": 0})
    b = game.new_initial_state_for_seed(40, {"case": eng.case, "deck": other, "start": 0})
    for action in (A.ref_action("kitchen"), A.ref_action("greg")):  # public moves
        assert a.information_state_string(0) == b.information_state_string(0)
        assert a.observation_tensor(0) == b.observation_tensor(0)
        assert a.information_state_tensor(0) == b.information_state_tensor(0)
        assert a.information_state_string(1) != b.information_state_string(1)
        assert a.information_state_string(0) != a.information_state_string(1)
        for p, s in ((0, a), (1, a), (1, b)):
            hand_line = s.information_state_string(p).split("\n")[1]
            assert sorted(listed_ids(hand_line, "hand")) == sorted(
                ids[c] for c in s.engine.hands[p]
            )
            others = {ids[c] for q in range(2) if q != p for c in s.engine.hands[q]}
            assert not others & set(listed_ids(s.information_state_string(p), "saw"))
        a.apply_action(action)
        b.apply_action(action)


def test_a_hidden_accusation_looks_like_going_on() -> None:
    """Another seat's accusation (YES and 3-5 more steps) and its NO leave the same
    information state to everybody else until the Solution phase is resolved."""
    game = load(players=3, level="medium")
    rng = np.random.default_rng(8)
    state = game.new_initial_state_for_seed(50)
    while state.engine.decision != G.D_SOLUTION:
        state.apply_action(random_action(state, rng, accuse=False))
    accuser = state.current_player()
    going_on = state.clone()
    going_on.apply_action(A.NO)
    accusing = state.clone()
    accusing.apply_action(A.YES)
    others = [p for p in range(3) if p != accuser]
    strings = {p: state.information_state_string(p) for p in others}
    tensors = {p: state.information_state_tensor(p) for p in others}
    while accusing.current_player() == accuser:
        for p in others:  # nothing changes for the others while the accuser names its parts
            assert accusing.information_state_string(p) == strings[p]
            assert accusing.information_state_tensor(p) == tensors[p]
        accusing.apply_action(accusing.legal_actions()[0])
    assert accusing.current_player() == going_on.current_player()  # not the last to decide
    for p in others:
        assert accusing.information_state_string(p) == going_on.information_state_string(p)
        assert accusing.information_state_tensor(p) == going_on.information_state_tensor(p)
        assert accusing.observation_tensor(p) == going_on.observation_tensor(p)
    assert accusing.information_state_string(accuser) != going_on.information_state_string(accuser)


def test_information_state_tensor_history_window() -> None:
    """The ``history`` piece is the last 32 entries of the seat's log, egocentric."""
    game = load(players=3)
    state = game.new_initial_state_for_seed(60)
    rng = np.random.default_rng(0)
    for _ in range(120):
        state.apply_action(random_action(state, rng, accuse=False))
    seat = 1
    entries = state.log_entries(seat)
    assert len(entries) > GS.HISTORY_WINDOW
    window = entries[-GS.HISTORY_WINDOW :]
    assert state.log_entries(seat, GS.HISTORY_WINDOW) == window
    assert state.recent_moves(seat, GS.HISTORY_WINDOW) == [e[:3] for e in window]
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    observer.set_from(state, seat)
    history = observer.dict["history"]
    assert history.shape == (GS.HISTORY_WINDOW, GS.HISTORY_ROW) == (32, 106)
    assert list(observer.dict)[-1] == "history"
    for row, entry in zip(history, window, strict=True):
        expected = np.zeros(GS.HISTORY_ROW, np.float32)
        expected[8 if entry.mover < 0 else (entry.mover - seat) % 3] = 1.0
        if entry.action >= 0:
            expected[9 + entry.action] = 1.0
        expected[104] = float(entry.hidden)
        expected[105] = 1.0
        np.testing.assert_array_equal(row, expected)
        assert entry.hidden == (entry.action < 0 and entry.mover >= 0)
    assert np.asarray(state.information_state_tensor(seat), np.float32).tolist() == (
        observer.tensor.tolist()
    )
    assert state.information_state_string(seat).split("\n")[1:] == [e.text for e in entries]
