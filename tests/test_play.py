"""Scripted sessions of `parlour play` driven through its input stream (no terminal needed)."""

from __future__ import annotations

import io
import re

import pytest

from parlour.apps.cli import main
from parlour.apps.play import Move, Session


def play(argv: list[str], lines: list[str], capsys) -> tuple[int, str]:
    import sys

    old = sys.stdin
    sys.stdin = io.StringIO("".join(line + "\n" for line in lines))
    try:
        code = main(["play", *argv])
    finally:
        sys.stdin = old
    return code, capsys.readouterr().out


def test_full_audition_game_to_the_end(capsys):
    code, out = play(["audition", "--seed", "3", "--opponents", "random"], ["1"] * 500, capsys)
    assert code == 0
    assert "Game over." in out
    end = out.split("Game over.")[1]  # said from the person's seat, with the breakdown
    assert re.search(r"You (won with|lost: player_1 won with|shared the win with) \d+ point", end)
    assert re.search(r"player_0 \(you\): \d+ points? = soloists .* \+ quartets", end)
    assert re.search(r"\n  player_1: \d+ points? = soloists", end)
    assert "player_1: draws a card" in out  # the agent's moves are shown as they happen
    assert max(len(line) for line in out.splitlines()) <= 80


def test_opponents_drawn_cards_are_never_named(capsys):
    _, out = play(["audition", "--seed", "5", "--players", "3"], ["2"] * 200 + ["1"] * 800, capsys)
    for line in out.splitlines():
        if "draws a card" in line:
            assert not re.search(r"\d", line.split(":", 1)[1])
    assert "Game over." in out


def test_bad_input_at_the_prompt_is_explained_and_asked_again(capsys):
    lines = ["", "0", "99", "dance", "help", "DRAW A CARD", "quit"]
    code, out = play(["audition", "--seed", "1", "--seat", "0"], lines, capsys)
    assert code == 0
    assert "There is no move 0" in out and "There is no move 99" in out
    assert "'dance' is not a move" in out
    assert "commands: help, quit" in out
    assert "You drew a" in out  # 'draw a card' by name was accepted
    assert "You left the game." in out


def test_ambiguous_name_prefix_is_refused():
    moves = [Move(0, "take slot 0 (conductor) with 5"), Move(1, "take slot 1 (conductor) with 7")]
    assert "fits 2 moves" in Session.parse("take", moves)
    assert Session.parse("take slot 1", moves).action == 1
    assert Session.parse("2", moves).action == 1


def test_quit_midway_and_end_of_input(capsys):
    code, out = play(["audition", "--seed", "2"], ["1", "1", "quit"], capsys)
    assert code == 0 and "You left the game." in out and "Game over." not in out
    code, out = play(["audition", "--seed", "2"], ["1"], capsys)
    assert code == 0 and "You left the game." in out


def test_bad_arguments_give_a_clear_error(capsys):
    import sys

    sys.stdin, old = io.StringIO(""), sys.stdin
    try:
        code = main(["play", "audition", "--seat", "5"])
    finally:
        sys.stdin = old
    assert code == 2
    assert "--seat must be in 0..1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["play", "chess"])
    sys.stdin = io.StringIO("")
    try:  # (0 seats is refused, not taken for the default count)
        code = main(["play", "audition", "--players", "0"])
    finally:
        sys.stdin = old
    assert code == 2 and "must be in 2..6, got 0" in capsys.readouterr().err


# ----------------------------------------------------------------------------- Awkward Guests


def session(lines: list[str], **kw):
    import argparse

    from parlour.apps.play import Session

    args = argparse.Namespace(
        game="guests",
        players=kw.get("players", 3),
        opponents=kw.get("opponents", ["random"]),
        seat=kw.get("seat", 1),
        seed=kw.get("seed", 7),
        level=kw.get("level", "medium"),
    )
    out = io.StringIO()
    s = Session(args, io.StringIO("".join(line + "\n" for line in lines)), out)
    return s, s.run(), out.getvalue()


def test_full_guests_game_to_the_end_shows_the_solution_and_its_proof():
    s, code, out = session(["2"] * 3000, seed=4, level="easy")
    assert code == 0 and "Game over." in out
    before, after = out.split("Game over.")
    from parlour.envs.awkward_guests.case.board import WALTON

    sol = s.env.game.case.solution
    words = " ".join(after.split())  # (the session wraps lines to 80 columns)
    line = words[words.index("The solution:") :].split(" The cards that prove it")[0]
    assert WALTON.display(sol.murderer) in line and WALTON.display(sol.weapon) in line
    assert sol.motive not in line  # display names, not internal ids
    assert "The cards that prove it:" in after
    assert "The solution:" not in before
    assert max(len(line) for line in out.splitlines()) <= 80


def test_other_players_offers_payments_and_accusations_stay_hidden():
    _, _, out = session(["2"] * 3000, seed=11, players=4, level="easy")
    before = out.split("Game over.")[0]
    for line in before.splitlines():
        if re.match(r"player_\d: ", line):
            assert "#" not in line  # no card of another player is ever named
            assert "murderer" not in line and "weapon" not in line and "motive" not in line


def test_guests_bad_input_notebook_undo_and_quit():
    lines = ["", "0", "99", "fly", "help", "notebook", "1", "undo", "undo", "quit"]
    s, code, out = session(lines)
    assert code == 0
    assert "There is no move 0" in out and "There is no move 99" in out
    assert "'fly' is not a move" in out
    assert "undo:" in out and "notebook:" in out  # help lists the game's commands
    assert "Investigation sheet of player_1" in out and "Candidates left" in out
    assert "choice was taken back." in out
    assert "Nothing to undo" in out  # the second undo: nothing half-built any more
    assert "You left the game." in out


def test_undo_restores_the_state_before_the_half_built_choice():
    import argparse
    import pickle

    from parlour.apps.play import Session

    args = argparse.Namespace(
        game="guests", players=2, opponents=["random"], seat=0, seed=3, level="easy"
    )
    # find the person's first inquiry: the state there, then ask one reference and undo
    out = io.StringIO()
    s = Session(args, io.StringIO("quit\n"), out)
    s.run()
    first = pickle.dumps(s.env.game)
    decision = s.env.player_view("player_0").decision
    s2 = Session(args, io.StringIO("1\nundo\nquit\n"), io.StringIO())
    s2.run()
    assert decision in ("inquiry", "offer")
    assert pickle.dumps(s2.env.game) == first


@pytest.mark.parametrize("game", ["audition", "guests"])
def test_bad_input_before_every_move_of_a_whole_game(game, capsys):
    """Every kind of prompt met in a full game gets a bad number and a bad name first."""
    lines = ["0", "no-such-move", "1"] * 1500
    args = [game, "--seed", "6", "--players", "2" if game == "audition" else "3"]
    if game == "guests":
        args += ["--level", "medium", "--opponents", "random"]
    code, out = play(args, lines, capsys)
    assert code == 0 and "Game over." in out
    prompts = out.count("Your moves:")
    assert prompts > 3
    assert out.count("There is no move 0") == prompts
    assert out.count("'no-such-move' is not a move") == prompts


def _solved_game(level: str, solver: int, n: int = 3, seed: int = 5):
    """A game where seat ``solver`` accuses correctly at the first Solution phase (the others
    go on; the turns are random)."""
    import numpy as np

    from parlour.envs.awkward_guests import actions as A
    from parlour.envs.awkward_guests.env import raw_env
    from parlour.envs.awkward_guests.game.accusation import accusation_actions

    env = raw_env(num_players=n, level=level)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    plan = accusation_actions(env.game.case.solution, env.game.tables.accomplice_possible)
    while not all(env.terminations[a] or env.truncations[a] for a in env.agents):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        view = env.player_view(agent)
        if view.decision == "solution":
            action = A.YES if view.seat == solver else A.NO
        elif view.decision in ("murderer", "motive", "weapon", "accomplice", "accomplice_motive"):
            action = plan[len([x for x in view.pending_accusation.__dict__.values() if x])]
        else:
            action = int(rng.choice(view.legal_actions))
        env.step(action)
    return env


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_guests_end_text_from_the_winners_and_a_losers_seat(level):
    from parlour.envs.awkward_guests.case.board import WALTON
    from parlour.games.guests.plugin import GuestsTerminal

    env = _solved_game(level, solver=1)
    results = env.unwrapped.results()
    assert results["winners"] == ["player_1"]
    ui = GuestsTerminal()
    won = ui.final(env, results, agent="player_1")
    lost = ui.final(env, results, agent="player_2")
    assert won.splitlines()[0] == "You won: you solved the case."
    assert lost.splitlines()[0] == "You lost: player_1 solved the case."
    assert ui.final(env, results).splitlines()[0] == "player_1 solved the case."
    sol = env.game.case.solution
    line = next(x for x in won.splitlines() if x.startswith("The solution:"))
    assert WALTON.display(sol.murderer) in line and WALTON.motive(sol.motive).name in line
    assert WALTON.display(sol.weapon) in line
    assert not re.search(r"[a-z]_[a-z]", line) and sol.motive not in line.split("“")[0]
    assert "You accused" in won and "(for “" in won and ": right." in won  # the accusation
    assert "player_1 accused" in lost


def test_guests_end_text_when_nobody_solved_it():
    from parlour.envs.awkward_guests.env import raw_env
    from parlour.games.guests.plugin import GuestsTerminal

    env = raw_env(num_players=2, level="easy", max_rounds=1)
    env.reset(seed=3)
    while not all(env.terminations[a] or env.truncations[a] for a in env.agents):
        view = env.player_view(env.agent_selection)
        env.step(49 if view.decision == "solution" else view.legal_actions[0])  # NO: go on
    text = GuestsTerminal().final(env, env.unwrapped.results(), agent="player_0")
    assert text.splitlines()[0] == "Nobody solved the case: the round limit was reached."


def test_guests_session_words_the_end_for_the_person():
    s, code, out = session(["2"] * 3000, seed=4, level="easy")
    after = out.split("Game over.")[1]
    results = s.env.unwrapped.results()
    first = after.split("The solution:")[0]
    if "player_1" in results["winners"]:
        assert "You won" in first
    elif results["winners"]:
        assert f"You lost: {results['winners'][0]}" in first
    else:
        assert "Nobody solved the case" in first
    assert "Result:" not in after and "winner(s)" not in after
