"""Recorded regression of ``guests.deducer``: its decisions on fixed seeds must stay the same.

``tests/data/guests_deducer_decisions.json`` holds, per game of :data:`GAMES` (players, level,
the agent spec of every seat, env seed), every action of the game in order (the deducers' and
their opponents') and its outcome (``result``, ``winners``, ``rounds``). The games are played
through the raw AEC env with the agents' own seeded generators (``seed * 31 + seat``), the
deducers reading only ``player_view``. A speed-up of the deducer, the deduction engine or the
player view must leave every decision unchanged; the ``slow`` run plays more seeds.

If a change of the deducer's behaviour is intended, regenerate the file with
``python -m tests.agents.test_guests_deducer_regression`` and say why in the commit message.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parlour.agents.factory import make_agent
from parlour.envs.awkward_guests.env import raw_env
from parlour.games import get_game

DATA = Path(__file__).resolve().parents[1] / "data" / "guests_deducer_decisions.json"

#: (players, level, seat specs): the deducer alone, against itself, its risk variant and random
TABLES = (
    (1, "easy", ("guests.deducer",)),
    (1, "expert", ("guests.deducer",)),
    (2, "easy", ("guests.deducer", "random")),
    (2, "easy", ("guests.deducer", "guests.deducer")),
    (3, "medium", ("guests.deducer", "guests.deducer:p=0.5", "random")),
    (4, "hard", ("guests.deducer", "random", "guests.deducer", "guests.deducer:p=0.25")),
)
#: env seeds of the default run; the slow run adds SLOW_SEEDS
SEEDS = (0, 1)
SLOW_SEEDS = (2, 3, 4, 5)


def _key(players: int, level: str, specs: tuple[str, ...], seed: int) -> str:
    return f"{players}p/{level}/{'+'.join(specs)}/{seed}"


def play(players: int, level: str, specs: tuple[str, ...], seed: int) -> dict:
    """One recorded game: every action in order and the outcome."""
    env = raw_env(num_players=players, level=level)
    env.reset(seed=seed)
    agents = [make_agent(s, get_game("guests")) for s in specs]
    for i, a in enumerate(agents):
        a.reset(seed * 31 + i)
    actions: list[int] = []
    for name in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        seat = env.agent_name_mapping[name]
        action = int(agents[seat].act(obs, env.player_view(name)))
        actions.append(action)
        env.step(action)
    res = env.results()
    return {
        "actions": actions,
        "result": res["result"],
        "winners": res["winners"],
        "rounds": res["rounds"],
    }


def games(seeds: tuple[int, ...]) -> dict[str, tuple]:
    return {_key(n, lv, specs, s): (n, lv, specs, s) for n, lv, specs in TABLES for s in seeds}


def _recorded() -> dict[str, dict]:
    return json.loads(DATA.read_text())


def _check(seeds: tuple[int, ...]) -> None:
    recorded = _recorded()
    for key, args in games(seeds).items():
        got, want = play(*args), recorded[key]
        if got["actions"] != want["actions"]:
            first = next(
                (
                    i
                    for i, (a, b) in enumerate(zip(got["actions"], want["actions"], strict=False))
                    if a != b
                ),
                min(len(got["actions"]), len(want["actions"])),
            )
            pytest.fail(f"{key}: the decisions changed at action {first}")
        assert {k: got[k] for k in ("result", "winners", "rounds")} == {
            k: want[k] for k in ("result", "winners", "rounds")
        }, key


def test_deducer_decisions_unchanged():
    _check(SEEDS)


@pytest.mark.slow
def test_deducer_decisions_unchanged_more_seeds():
    _check(SLOW_SEEDS)


if __name__ == "__main__":
    DATA.write_text(json.dumps({k: play(*a) for k, a in games(SEEDS + SLOW_SEEDS).items()}) + "\n")
    print(f"wrote {DATA}")
