"""Audition's words on the page and in the terminal: the rules panel, a plain prompt for every
decision (random games over seeds, player counts and both variants), plain move texts, the
score breakdown (its totals are the env's scores), the page's drawing aids, and the end of a
game from a winner's and a loser's seat."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from parlour.envs.audition import rules as R
from parlour.envs.audition.moves import SLOT_NAMES
from parlour.games import get_game, make_raw_env
from parlour.games.audition.texts import outcome_text

GAME = get_game("audition")
WEB, TERMINAL = GAME.web, GAME.terminal
#: table setups played at random: (players, env options)
TABLES = [
    (2, {}),
    (3, {"action_cards": 3}),
    (4, {"uncertain_counts": True}),
    (5, {"action_cards": 5, "uncertain_counts": True}),
    (6, {"action_cards": 6}),
    (2, {"action_cards": ("pass_left", "take_now")}),
    (3, {"action_cards": ("discard_one", "discard_own", "draw_one")}),
    (4, {"action_cards": ("max_two", "take_now", "pass_left", "discard_own")}),
]
SEEDS = range(4)
#: engine words a person must never read (phases, action ids, slot kinds as identifiers)
ENGINE_WORDS = re.compile(
    r"\b(phase|turn phase|TAKE|DRAW|PLACE|PASS|CHOOSE|in_final|take_now|pass_left|max_two|"
    r"discard_one|discard_own|draw_one)\b"
)


def plain(text: str) -> bool:
    return "_" not in text.replace("player_", "") and not ENGINE_WORDS.search(text)


def random_games(tables=TABLES, seeds=SEEDS) -> Iterator[tuple[Any, str, int]]:
    """Every decision of random games: ``(env, agent to act, action it then plays)`` (the env
    is stepped after each yield); the env is left over at the end of each game."""
    for n, options in tables:
        for seed in seeds:
            env = make_raw_env(GAME, n, **options)
            env.reset(seed=seed)
            rng = np.random.default_rng(seed)
            while env.agents:
                agent = env.agent_selection
                if env.terminations[agent]:
                    env.step(None)
                    continue
                legal = env.player_view(agent).legal_actions
                action = int(legal[int(rng.integers(len(legal)))])
                yield env, agent, action
                env.step(action)


def finished_games(tables=TABLES, seeds=SEEDS) -> Iterator[Any]:
    last = None
    for env, _, _ in random_games(tables, seeds):
        if last is not None and env is not last:
            yield last
        last = env
    yield last


def test_the_rules_panel_is_plain_and_says_what_scores():
    sections = WEB.rules()
    assert len(sections) >= 5
    for s in sections:
        assert set(s) == {"heading", "text"} and s["heading"] and s["text"]
        assert plain(s["heading"]) and plain(s["text"]), s
    text = " ".join(s["text"] for s in sections)
    assert f"worth {R.QUARTET_POINTS} points" in text and "soloist" in text
    assert "gold" in text  # what is clickable
    for kind in R.ACTION_KINDS:  # every action card is explained by its readable name
        assert SLOT_NAMES[kind].capitalize() + ":" in text


def test_every_decision_gets_a_plain_prompt_and_others_get_none():
    reached: set[str] = set()
    for env, agent, _ in random_games():
        view = env.player_view(agent)
        prompt = WEB.prompt(env, agent)
        assert isinstance(prompt, str) and prompt.endswith("."), (view.phase, prompt)
        assert plain(prompt) and "_" not in prompt, prompt  # not even an agent id
        assert prompt[0].isupper()
        reached.add(view.phase)
        for other in env.possible_agents:
            if other != agent:
                assert WEB.prompt(env, other) is None
    assert reached == set(R.PHASES) - {"over"}  # every kind of decision was asked


def test_move_names_and_what_others_did_are_plain():
    for n, options in TABLES:
        env = make_raw_env(GAME, n, **options)
        env.reset(seed=n)
        rng = np.random.default_rng(n)
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent]:
                env.step(None)
                continue
            moves = TERMINAL.moves(env, agent)
            assert all(plain(m.name) for m in moves), [m.name for m in moves]
            action = moves[int(rng.integers(len(moves)))].action
            seat = env.possible_agents.index(agent)
            onlooker = env.possible_agents[(seat + 1) % n]
            before = TERMINAL.view(env, onlooker)
            env.step(action)
            said = TERMINAL.describe_other(before, TERMINAL.view(env, onlooker), seat, action)
            assert said and plain(said), said
            if action == R.DRAW:
                assert not re.search(r"\d", said)  # the drawn card is never named


def test_breakdown_totals_are_the_envs_scores():
    games = 0
    for env in finished_games(seeds=range(6)):
        results = env.unwrapped.results()
        final = WEB.reveal(env, results)
        assert final["scores"] == results["scores"] and final["winners"] == results["winners"]
        game = env.unwrapped.game
        for p, row in enumerate(final["breakdown"]):
            agent = env.possible_agents[p]
            assert row["agent"] == agent
            assert row["total"] == results["scores"][agent]
            assert row["soloist_points"] + row["quartet_points"] == row["total"]
            assert len(row["quartets"]) == game.quartets()[p]
            held = {n["number"]: n["count"] for n in row["numbers"]}
            assert held == {v: int(c) for v, c in enumerate(game.collections[p]) if c}
            for n in row["numbers"]:
                assert n["points"] == R.count_points(n["count"])
        games += 1
    assert games == len(TABLES) * 6


def test_the_page_view_names_slots_and_points_from_the_seats_view():
    for env, agent, _ in random_games(tables=TABLES[1:2], seeds=range(1)):
        page = WEB.view(env, agent)
        view = page["view"]
        assert page["slot_names"] == [SLOT_NAMES[s.kind] for s in view.slots]
        assert all(plain(name) for name in page["slot_names"])
        assert [sum(row) for row in page["points"]] == list(view.scores)
        assert page["top_number"] == R.TOP_NUMBER[view.num_players]


def _sole_winner_game() -> Any:
    for env in finished_games(tables=[(3, {})], seeds=range(10)):
        if len(env.unwrapped.results()["winners"]) == 1:
            return env
    raise AssertionError("no game with a sole winner")


def test_the_terminal_end_speaks_from_the_persons_seat():
    env = _sole_winner_game()
    results = env.unwrapped.results()
    scores, (winner,) = results["scores"], results["winners"]
    loser = next(a for a in env.possible_agents if a != winner)
    won = TERMINAL.final(env, results, agent=winner)
    assert won.startswith(f"You won with {scores[winner]} points")
    lost = TERMINAL.final(env, results, agent=loser)
    assert lost.startswith(f"You lost: {winner} won with {scores[winner]} points")
    assert f"(you: {scores[loser]})" in lost.splitlines()[0]
    assert f"{loser} (you): {scores[loser]} point" in lost
    assert TERMINAL.final(env, results).startswith(f"{winner} won with")  # an onlooker
    for text in (won, lost):
        assert "Score breakdown" in text
        for agent in env.possible_agents:  # every seat's line, with its total
            assert re.search(rf"{agent}( \(you\))?: {scores[agent]} points?", text)


@pytest.mark.parametrize(
    ("scores", "winners", "agent", "said"),
    [
        ({"a": 9, "b": 9}, ["a", "b"], "a", "You shared the win with b: 9 points each."),
        ({"a": 9, "b": 9}, ["b"], "a", "You lost: b won with 9 points and more quartets (you: 9)."),
        ({"a": 9, "b": 9}, ["b"], "b", "You won with 9 points and more quartets."),
        (
            {"a": 3, "b": 7, "c": 7},
            ["b", "c"],
            "a",
            "You lost: b and c shared the win with 7 points each (you: 3).",
        ),
        ({"a": 1, "b": 0}, ["a"], "a", "You won with 1 point."),
        ({"a": 1, "b": 0}, ["a"], None, "a won with 1 point."),
    ],
)
def test_outcome_wording_for_ties_and_tie_breaks(scores, winners, agent, said):
    assert outcome_text({"scores": scores, "winners": winners}, agent) == said
