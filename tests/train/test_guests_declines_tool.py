"""``tools/guests_declines.py``: the decline signal of plain deducers and the exact value of
guessing on a rule, scored on logged games."""

from __future__ import annotations

import pytest

from tests.tool_loader import load_tool


def _tool():
    return load_tool("guests_declines.py")


def _phase(tool, candidates, declined=()):
    flags = [seat in declined for seat in range(len(candidates))]
    return tool.Phase(list(candidates), flags, list(flags))


def test_guess_value_scores_the_first_phase_the_rule_fires():
    tool = _tool()
    game = tool.LoggedGame(
        [_phase(tool, [9, 9, 9, 9]), _phase(tool, [4, 1, 6, 1], declined={1})], winners=(1, 3)
    )

    def on_decline(phase, seat):
        return any(f for j, f in enumerate(phase.declined_all) if j != seat)

    # seat 0 guesses among 4 in phase 2, where seats 1 and 3 accuse rightly: a third of a win
    assert tool.guess_value(game, 0, on_decline) == pytest.approx(1 / 4 / 3)
    # seat 3 has one candidate there: it accuses rightly (the logged shared win), no guess
    assert tool.guess_value(game, 3, on_decline) == pytest.approx(1 / 2)
    assert tool.guess_value(game, 2, lambda ph, s: False) == 0.0  # (never fires: logged loss)
    assert tool.guess_value(game, 1, lambda ph, s: False) == pytest.approx(1 / 2)


def test_a_rare_guess_is_scored_by_whether_the_rarest_hold_the_solution():
    tool = _tool()
    fires = _phase(tool, [4, 1, 6, 9], declined={1})
    fires.rare_right = [0.5, None, 0.0, None]  # (the rarest two of 4 hold it; of 6: not)
    game = tool.LoggedGame([fires], winners=(1,))

    def always(phase, seat):
        return True

    assert tool.guess_value(game, 0, always, "rare") == pytest.approx(0.5 / 2)  # (seat 1 shares)
    assert tool.guess_value(game, 0, always) == pytest.approx(1 / 4 / 2)
    assert tool.guess_value(game, 2, always, "rare") == 0.0
    with pytest.raises(ValueError, match="at most 8 candidates"):
        tool.guess_value(game, 3, always, "rare")


def test_logged_games_and_tables_are_consistent():
    tool = _tool()
    games = tool.play_logged(6, seed=100000, players=4, level="medium")
    assert len(games) == 6
    for game in games:
        assert game.phases
        for phase in game.phases:
            assert all(
                s or not a for a, s in zip(phase.declined_all, phase.declined_some, strict=True)
            )
            assert min(phase.candidates) >= 1
            for k, right in zip(phase.candidates, phase.rare_right, strict=True):
                assert (right is None) == (not 2 <= k <= tool.RARE_MAX)
                assert right is None or right == 0.0 or 1 / k <= right <= 1.0
        if game.winners:  # plain deducers accuse only with one candidate left
            last = game.phases[-1]
            assert all(last.candidates[w] == 1 for w in game.winners)
    rules = tool.rules()
    plain, oracle = (
        rules["plain deducer (never guesses)"],
        rules["oracle: another player has one candidate"],
    )
    for game in games:
        for seat in range(4):  # knowing when another player will win never loses a share
            assert tool.guess_value(game, seat, oracle) >= tool.guess_value(game, seat, plain)
    signal = tool.signal_table(games).splitlines()
    assert signal[2].startswith("| declined_all |") and signal[3].startswith("| declined_some |")
    table = tool.rule_table(games).splitlines()
    likely = tool.likely_rules()
    assert len(table) == 2 + len(rules) + 2 + len(likely)  # (+ pick=rare and pick=likely rows)
    assert table[-6].startswith("| declined_all, at most 8 candidates, pick=rare |")
    assert table[-5].startswith("| declined_all, at most 8 candidates, pick=likely |")
    assert [row.split("|")[1].strip() for row in table[-4:-1]] == list(likely)
    for phase in (p for g in games for p in g.phases):
        for k, right, chance in zip(
            phase.candidates, phase.likely_right, phase.likely_chance, strict=True
        ):
            assert 1 / k - 1e-9 <= chance <= 1.0  # (the likeliest: at least an even share)
            assert right == 0.0 or 1 / k <= right + 1e-9 <= 1.0 + 1e-9
            assert k > 1 or (right == 1.0 and chance == 1.0)
    # (the teacher's rule, either of its parts, fired in these games)
    either = likely[next(name for name in likely if name.startswith("either"))]
    assert any(either(p, s) for g in games for p in g.phases for s in range(4))
    guesses = tool.guess_table(games).splitlines()
    assert guesses[-1].startswith("| 2–8 |")
    assert guesses[0].endswith("| pick=likely right |")
    for row in guesses[2:-1]:  # a random guess is right with probability 1 / candidates
        k, _, uniform = row.strip("|").split("|")[:3]
        assert uniform.strip() == f"{1 / int(k):.1%}"
    # the plain deducers share the wins of the logged games: the plain row is their mean share
    wins = sum(1 for g in games if g.winners) / (4 * len(games))
    assert f"| plain deducer (never guesses) | {wins:.1%} |" in table[2]


@pytest.mark.parametrize(
    ("argv", "message"),
    [(["--games", "0"], "--games must be >= 1"), (["--players", "1"], "--players must be 2..8")],
)
def test_bad_arguments_are_refused_by_name(argv, message, capsys):
    with pytest.raises(SystemExit):
        _tool().main(argv)
    assert message in capsys.readouterr().err
