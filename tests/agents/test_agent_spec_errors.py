"""An agent spec that does not resolve says how the game's agents are written, options included
(as before the game plug-ins took the agents: ``audition.expert[:sims=N]``)."""

from __future__ import annotations

import pytest

from parlour.agents.factory import make_agent
from parlour.games import get_game


@pytest.mark.parametrize(
    ("spec", "game"),
    [("audition.genius", "audition"), ("audition.expert:sim=3", "audition")],
)
def test_audition_errors_name_each_agents_options(spec, game):
    with pytest.raises(ValueError) as info:
        make_agent(spec, get_game(game))
    message = str(info.value)
    assert "audition.expert[:sims=SIMS]" in message
    assert "audition.search:model=MODEL[,sims=SIMS,rollout=ROLLOUT,top=TOP," in message


def test_another_games_prefix_still_lists_this_games_agents():
    with pytest.raises(
        ValueError,
        match=r"plays guest, not 'guests'; known agents: .*guests\.deducer\[:p=P,start=START,threat=THREAT,pick=PICK,odds=ODDS\]",
    ):
        make_agent("guest.deducer", get_game("guests"))
