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
    assert "Game over." in out and "Winner(s): player_" in out
    assert re.search(r"Scores: player_0: \d+, player_1: \d+", out)
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
    sol = s.env.game.case.solution
    assert "The solution:" in after and sol.murderer in after and sol.weapon in after
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
