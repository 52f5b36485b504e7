"""The `parlour demo audition` command (what `make run` runs until training exists)."""

from parlour.apps.cli import main


def test_demo_plays_one_full_game(capsys):
    assert main(["demo", "audition", "--players", "3", "--seed", "1", "--action-cards", "2"]) == 0
    out = capsys.readouterr().out
    assert "Game over after" in out and "Winners: ['player_" in out
    assert "slot 0 [" in out  # the table is rendered move by move


def test_parlour_without_command_prints_help(capsys):
    assert main([]) == 2
    assert "demo" in capsys.readouterr().out
