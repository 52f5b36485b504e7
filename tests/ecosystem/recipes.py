"""Helpers of the ecosystem tests: run a ``docs/ecosystem`` page's code, record game results.

| helper | what |
|---|---|
| :func:`page_code` | the page's ``python`` code blocks, joined in order (the recipe, as printed) |
| :func:`run_page` | executes that code once per process and returns its namespace (functions and the example's variables) |
| :class:`KeepResults`, :func:`results_log` | a PettingZoo AEC wrapper that saves ``results()`` of each finished game before the next ``reset``, into a log found by name |
| :data:`CONFIGS` | the four configurations every recipe is tested on (both games, 2 and 4 players) |
| :func:`assert_final_rewards` | a game's final rewards: zero-sum, the values the game's rules allow |

The tests run the code of the page itself (no copy), so the page and the test cannot drift apart.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from pettingzoo import AECEnv
from pettingzoo.utils import BaseWrapper

from parlour.envs import audition_v1, awkward_guests_v1

DOCS = Path(__file__).resolve().parents[2] / "docs" / "ecosystem"
_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.DOTALL | re.MULTILINE)


def page_code(page: str) -> str:
    """The ``python`` code blocks of ``docs/ecosystem/<page>``, joined in order."""
    blocks = _BLOCK.findall((DOCS / page).read_text())
    assert blocks, f"{page} has no python code block"
    return "\n".join(blocks)


@cache
def _run(page: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": f"docs.ecosystem.{page}"}
    exec(compile(page_code(page), str(DOCS / page), "exec"), namespace)
    return namespace


def run_page(page: str) -> dict[str, Any]:
    """Execute the page's code (once per process) and return its namespace."""
    return _run(page)


#: name -> the results() of the finished games of every KeepResults env of that name
RESULTS: dict[str, list[dict[str, Any]]] = {}


class KeepResults(BaseWrapper):
    """Appends ``env.unwrapped.results()`` of every finished game to ``RESULTS[name]``: at the
    next ``reset``, i.e. before the env forgets the game (the libraries reset finished envs at
    once). The log is found by name, so that it is shared with the copies some libraries play
    (SuperSuit cloudpickles the env it is given)."""

    def __init__(self, env: AECEnv, name: str) -> None:
        super().__init__(env)
        self.name = name
        RESULTS.setdefault(name, [])
        self._started = False

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if self._started:
            results = self.env.unwrapped.results()
            if results["over"]:
                RESULTS[self.name].append(results)
        super().reset(seed=seed, options=options)
        self._started = True


def results_log(name: str) -> list[dict[str, Any]]:
    """A new, empty log for :class:`KeepResults` envs called ``name``."""
    RESULTS[name] = []
    return RESULTS[name]


#: (id, env factory, game, players)
CONFIGS: list[tuple[str, Callable[[], AECEnv], str, int]] = [
    ("audition-2p", lambda: audition_v1.env(num_players=2), "audition", 2),
    ("audition-4p", lambda: audition_v1.env(num_players=4, action_cards=2), "audition", 4),
    ("guests-2p", lambda: awkward_guests_v1.env(num_players=2, level="easy"), "guests", 2),
    ("guests-4p", lambda: awkward_guests_v1.env(num_players=4, level="easy"), "guests", 4),
]
CONFIG_IDS = [c[0] for c in CONFIGS]


def assert_final_rewards(rewards: list[float], players: int) -> None:
    """``rewards`` of one finished game: zero-sum, and each value one the rules can pay (win
    rewards ``n/((n−1)|W|) − 1/(n−1)``, losses ``−1/(n−1)``, Awkward Guests' draw shares
    ``k/((n−1)m)``)."""
    n = players
    assert len(rewards) == n
    assert sum(rewards) == pytest.approx(0.0, abs=1e-5)
    allowed = {-1 / (n - 1)} | {n / ((n - 1) * w) - 1 / (n - 1) for w in range(1, n + 1)}
    allowed |= {k / ((n - 1) * (n - k)) for k in range(n)}
    for r in rewards:
        assert any(r == pytest.approx(a, abs=1e-5) for a in allowed), (r, rewards)
