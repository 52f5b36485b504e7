"""Determinization (:mod:`parlour.envs.audition.determinize`, issue 35 point 4): every world
sampled from a player's view agrees with what that player knows, and its public part is the
true state's exactly.

For positions of random games (2–6 players, with and without action cards — an int and a list —
and uncertain counts, and the mini table; every position of the game: final phase, ``take_now`` / ``pass_left`` /
discard decisions, right after a round ends, while and after the deck empties, the end), every
sampled world gives its viewer

* (a) the same observation vector, bit for bit, as the env encodes it for that seat, and the
  same action mask;
* (b) the same :class:`~parlour.envs.audition.view.AuditionView`;
* (c) the same legal actions;

and has the state's public part (everything but the deck order, the removed cards and another
player's drawn card) exactly. (d) With the hidden cards set to the true ones, a world is the
true state: playing the same actions in both gives identical states and observations (every
seat) to the end of the game, and the same results.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour.envs import audition_v1
from parlour.envs.audition import rules as R
from parlour.envs.audition.determinize import determinize, determinize_many
from parlour.envs.audition.observation import ObservationEncoder
from parlour.envs.audition.view import make_view
from tests.audition.helpers import configs

CHOICE_PHASES = (R.PH_PASS_LEFT, R.PH_DISCARD_ONE, R.PH_DISCARD_OWN)
HIDDEN = ("deck", "removed", "drawn")


def _table(config: R.AuditionConfig, seed: int = 0) -> Any:
    """A raw env of ``config`` dealt with ``seed`` (a world's ``table``: its ``game`` is replaced
    by the world to observe). The env deals only full tables: a mini deal is put in its place."""
    env = audition_v1.raw_env(
        num_players=config.num_players,
        action_cards=config.action_cards,
        uncertain_counts=config.uncertain_counts,
    )
    env.reset(seed=seed)
    if config.mini:
        env.game = R.new_game(config, np.random.default_rng(seed))
        env.agent_selection = env.possible_agents[env.game.current_player]
    return env


def _viewers(state: R.AuditionState) -> list[int]:
    """The seats a world may be sampled for: every seat, but only the chooser while a
    ``CHOOSE`` is pending (another player's options are in no view: ``ValueError``)."""
    if state.phase in CHOICE_PHASES:
        return [state.current]
    return list(range(state.num_players))


def _fields(state: R.AuditionState, hidden: bool) -> dict[str, Any]:
    """Every compared field of ``state`` as plain values (the hidden cards only if ``hidden``).
    ``current`` only while somebody acts: once the game is over it is not a position of the game
    (the view says ``-1``; the engine keeps the last actor, and nothing reads it)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(state):
        if not f.compare or (f.name in HIDDEN and not hidden):
            continue
        value = getattr(state, f.name)
        out[f.name] = value.tolist() if isinstance(value, np.ndarray) else value
    out["current"] = state.current_player
    return out


def _public(state: R.AuditionState, seat: int) -> dict[str, Any]:
    """The part of ``state`` that ``seat`` knows: all but the hidden cards, with the seat's own
    drawn card, and how many cards are hidden of each number."""
    out = _fields(state, hidden=False)
    out["own drawn"] = state.drawn if state.current_player == seat else 0
    out["deck size"], out["removed size"] = len(state.deck), len(state.removed)
    out["unseen"] = state.unseen_counts(seat).tolist()
    return out


def disagreements(env: Any, table: Any, seat: int, world: R.AuditionState) -> list[str]:
    """What ``world`` (sampled from the view of ``seat`` in ``env``) gets wrong: an empty list,
    or the names of the checks it fails. ``table`` is a second env of the same configuration."""
    state, agent = env.game, env.possible_agents[seat]
    truth = env.observe(agent)
    table.game = world
    seen = table.observe(agent)
    bad = []
    if not np.array_equal(seen["observation"], truth["observation"]):
        bad.append("observation")
    if not np.array_equal(seen["action_mask"], truth["action_mask"]):
        bad.append("action_mask")
    if table.player_view(agent) != env.player_view(agent):
        bad.append("view")
    if world.legal_actions() != state.legal_actions():
        bad.append("legal actions")
    if _public(world, seat) != _public(state, seat):
        bad.append("public part")
    hidden_world = Counter(world.deck + world.removed) + Counter(
        [world.drawn] if world.drawn and seat != world.current else []
    )
    hidden_truth = Counter(state.deck + state.removed) + Counter(
        [state.drawn] if state.drawn and seat != state.current else []
    )
    if hidden_world != hidden_truth:
        bad.append("hidden cards")
    return bad


def check_worlds(env: Any, table: Any, rng: np.random.Generator, count: int) -> int:
    """Check ``count`` worlds of every seat's view (see :func:`_viewers`) in ``env``'s current
    position; returns how many worlds were checked."""
    checked = 0
    for seat in _viewers(env.game):
        view = env.player_view(env.possible_agents[seat])
        for world in determinize_many(view, rng, count):
            bad = disagreements(env, table, seat, world)
            assert not bad, (
                f"a world sampled for seat {seat} disagrees ({', '.join(bad)}) in phase "
                f"{view.phase!r}, round {view.round}, move {env.game.num_moves}"
            )
            checked += 1
    return checked


def check_replay(state: R.AuditionState, seat: int, rng: np.random.Generator) -> None:
    """(d): a world of ``seat``'s view with the true hidden cards is the true state, and stays it
    under the same actions to the end of the game (states, every seat's observation, legal
    actions, results)."""
    world = determinize(make_view(state, seat), rng)
    world.deck, world.removed, world.drawn = list(state.deck), list(state.removed), state.drawn
    world.refresh()  # (edited by hand)
    truth = state.clone()
    enc_truth, enc_world = ObservationEncoder(), ObservationEncoder()
    n = state.num_players
    while True:
        assert _fields(world, hidden=True) == _fields(truth, hidden=True), truth.num_moves
        for p in range(n):
            assert np.array_equal(enc_world.encode(world, p), enc_truth.encode(truth, p)), p
        assert world.legal_actions() == truth.legal_actions()
        if truth.is_terminal:
            break
        legal = truth.legal_actions()
        action = legal[int(rng.integers(len(legal)))]
        truth.apply(action)
        world.apply(action)
    assert world.is_terminal
    assert world.scores() == truth.scores() and world.winners() == truth.winners()
    assert world.returns() == truth.returns()


def _labels(state: R.AuditionState, round_before: int, deck_before: int) -> set[str]:
    """The kinds of position ``state`` is (for the coverage check of the sweep)."""
    labels = {R.PHASES[state.phase]}
    if state.round > round_before:
        labels.add("new round")
    if deck_before and not state.deck:
        labels.add("deck just emptied")
    if state.deck_emptied:
        labels.add("deck emptied, action unfinished")
    if state.in_final and state.phase in CHOICE_PHASES + (R.PH_TAKE_NOW,):
        labels.add("final follow-up")
    if state.phase == R.PH_PLACE:
        labels.add("another's drawn card")  # every other seat's view hides it
    if state.config.uncertain_counts:
        labels.add("uncertain counts")
    return labels


# every player count with: no action cards, a random count (int), a list of kinds, variant 2;
# and the mini table (2 players)
def _sweep_configs(n: int) -> list[R.AuditionConfig]:
    kinds = tuple(R.ACTION_KINDS[(n + k) % len(R.ACTION_KINDS)] for k in range(n))
    return [
        R.AuditionConfig(n),
        R.AuditionConfig(n, n),
        R.AuditionConfig(n, kinds),
        R.AuditionConfig(n, 2, True),
        R.AuditionConfig(n, (), True),
    ] + ([R.AuditionConfig(n, mini=True)] if n == R.MIN_PLAYERS else [])


def _random_action(state: R.AuditionState, rng: np.random.Generator) -> int:
    """A random legal action, drawing more often than not (longer rounds, as in real games)."""
    legal = state.legal_actions()
    if R.DRAW in legal and rng.random() < 0.6:
        return R.DRAW
    return legal[int(rng.integers(len(legal)))]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_world_agrees_with_the_viewers_observation_at_every_position(players):
    seen: set[str] = set()
    checked = replays = 0
    for g, config in enumerate(_sweep_configs(players)):
        rng = np.random.default_rng(100 * players + g)
        env, table = _table(config, seed=100 * players + g), _table(config)
        round_before, deck_before = 1, len(env.game.deck)
        while True:
            state = env.game
            seen |= _labels(state, round_before, deck_before)
            checked += check_worlds(env, table, rng, 2)
            if state.num_moves % 29 == 0 or state.is_terminal or state.deck_emptied:
                check_replay(state, int(rng.choice(_viewers(state))), rng)
                replays += 1
            if state.is_terminal:
                break
            round_before, deck_before = state.round, len(state.deck)
            env.step(_random_action(state, rng))
    wanted = {R.PHASES[p] for p in range(len(R.PHASES))} | {
        "new round",
        "deck just emptied",
        "deck emptied, action unfinished",
        "another's drawn card",
        "uncertain counts",
    }
    assert wanted <= seen, f"the sweep never reached: {sorted(wanted - seen)}"
    assert checked > 500 and replays > 10


def test_another_players_pending_choice_cannot_be_determinized():
    """Another player's pending ``CHOOSE`` options are in no view: determinizing from it is a
    ``ValueError``, never a wrong world."""
    config = R.AuditionConfig(3, ("pass_left",))  # slot 0 is pass_left
    state = R.new_game(config, np.random.default_rng(0), start=0)
    state.apply(R.DRAW)
    state.apply(R.PLACE_0)  # seat 0 places on pass_left
    state.apply(R.TAKE_0)  # seat 1 takes it: seat 1 chooses what to pass left
    assert state.phase == R.PH_PASS_LEFT and state.current == 1
    with pytest.raises(ValueError, match="pending CHOOSE"):
        determinize(make_view(state, (state.current + 1) % 3), np.random.default_rng(0))
    determinize(make_view(state, state.current), np.random.default_rng(0))  # the chooser may


@given(
    config=configs(with_mini=True),
    seed=st.integers(0, 2**32 - 1),
    depth=st.integers(0, 400),
    viewer=st.integers(0, 5),
)
def test_worlds_of_any_position_agree_and_play_on_like_the_true_state(config, seed, depth, viewer):
    """A random position (any configuration, any depth, the end included): every viewer's
    worlds agree with its observation, view and legal actions (a–c), and one viewer's world with
    the true hidden cards plays on exactly like the true state (d)."""
    rng = np.random.default_rng(seed)
    env, table = _table(config, seed), _table(config)
    while env.game.num_moves < depth and not env.game.is_terminal:
        env.step(_random_action(env.game, rng))
    check_worlds(env, table, rng, 3)
    seats = _viewers(env.game)
    check_replay(env.game, seats[viewer % len(seats)], rng)
