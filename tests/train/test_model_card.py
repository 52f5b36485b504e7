"""The model card's headline: a per-seat rate beside the even share (a 3-player "49% vs
random" is near-perfect, yet reads like a coin flip without it)."""

from __future__ import annotations

from parlour.apps.models import _summary_line
from parlour.games import get_game


def report(players: int, final: dict) -> dict:
    return {"players": players, "game_options": {}, "timesteps": 1000, "final": final}


def test_the_headline_gives_each_rate_per_seat_beside_the_even_share() -> None:
    audition = get_game("audition")
    three = report(3, {"random": {"win_rate": 0.49}, "audition.greedy": {"win_rate": 0.488}})
    line = _summary_line(three, audition)
    assert line == (
        "MaskablePPO for 3-player audition, 1000 learner steps: 49% per seat vs random; "
        "49% per seat vs audition.greedy (even share 33%)."
    )
    two = _summary_line(report(2, {"random": {"win_rate": 0.9}}), audition)
    assert two.endswith("90% per seat vs random (even share 50%).")
