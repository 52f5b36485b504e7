"""Audition test driver written from the rules (``docs/rules/audition.md``), not from the code.

The constants below are copied from the rule tables (``docs/rules/audition.md``), not imported from the implementation, and
:class:`Table` drives the **raw env** through its public API only (masks, observations through
``observation_layout``, ``player_view``, infos, rewards), checking every action against the mask
before taking it. Scenario tests use it next to the engine-level helpers of
:mod:`tests.audition.helpers`; :mod:`tests.audition.rules_reference` (the reference model) uses
the constants.
"""

from __future__ import annotations

import numpy as np

from parlour.envs import audition_v1
from parlour.envs.audition import rules as R

TOP = {2: 9, 3: 10, 4: 11, 5: 12, 6: 13}
DECK_SIZE = {2: 45, 3: 55, 4: 66, 5: 78, 6: 91}
KINDS = ("conductor", "max_two", "pass_left", "discard_one", "discard_own", "draw_one", "take_now")
ACTION_KINDS = KINDS[1:]
PHASES = ("turn", "place", "take_now", "pass_left", "discard_one", "discard_own", "final", "over")
DRAW, PASS = 6, 13


def TAKE(s: int) -> int:
    return s


def PLACE(s: int) -> int:
    return 7 + s


def CHOOSE(v: int) -> int:
    return 13 + v


def spec_deck(n: int) -> list[int]:
    return [k for k in range(1, TOP[n] + 1) for _ in range(k)]


def deck_with(n: int, top=(), bottom=()) -> list[int]:
    """A full deck (top first) starting with ``top`` and ending with ``bottom``."""
    rest = spec_deck(n)
    for c in list(top) + list(bottom):
        rest.remove(c)
    return list(top) + rest + list(bottom)


def points_of(counts) -> tuple[int, int]:
    """(points, scoring quartets) per docs/rules/audition.md (A11): exactly 1 -> 1, exactly 4 -> 5, else 0."""
    pts = q = 0
    for c in counts:
        if c == 1:
            pts += 1
        elif c == 4:
            pts += 5
            q += 1
    return pts, q


def spec_win_reward(n: int, winners: list[int]) -> list[float]:
    return [
        (n / (n - 1)) * (1.0 if i in winners else 0.0) / len(winners) - 1 / (n - 1)
        for i in range(n)
    ]


class Table:
    """A thin driver over the raw env that checks every action against the mask first."""

    def __init__(
        self,
        n=2,
        action_cards=(),
        uncertain=False,
        deck=None,
        top=(),
        start=0,
        reward_mode="win",
        seed=0,
        render_mode=None,
    ):
        self.n = n
        self.env = audition_v1.raw_env(
            num_players=n,
            action_cards=action_cards,
            uncertain_counts=uncertain,
            reward_mode=reward_mode,
            render_mode=render_mode,
        )
        self.deck = list(deck) if deck is not None else deck_with(n, top)
        self.env.reset(seed=seed, options={"deck": self.deck, "start": start})
        self.L = self.env.observation_layout

    # -- reading
    @staticmethod
    def agent(p: int) -> str:
        return f"player_{p}"

    @property
    def cur(self) -> int:
        return int(self.env.agent_selection.rsplit("_", 1)[1])

    @property
    def done(self) -> bool:
        return all(self.env.terminations.values())

    def obs(self, p: int) -> np.ndarray:
        return self.env.observe(self.agent(p))["observation"]

    def mask(self, p: int) -> np.ndarray:
        return self.env.observe(self.agent(p))["action_mask"]

    def legal(self) -> set[int]:
        return set(np.flatnonzero(self.mask(self.cur)).tolist())

    def phase(self) -> str:
        return self.env.results()["phase"]

    def block(self, p: int, name: str) -> np.ndarray:
        return self.obs(p)[self.L[name]]

    def view(self, p: int | None = None):
        return self.env.player_view(self.agent(self.cur if p is None else p))

    def coll(self, p: int) -> tuple[int, ...]:
        return self.view(0).collections[p]

    def slot_cards(self, s: int) -> tuple[int, ...]:
        return self.view(0).slots[s].cards

    def deck_size(self) -> int:
        return self.view(0).deck_size

    # -- acting
    def step(self, a: int) -> None:
        assert not self.done, "game is over"
        legal = self.legal()
        assert a in legal, f"{R.action_name(a)} not in mask {sorted(legal)} (phase {self.phase()})"
        self.env.step(a)

    def draw(self) -> int:
        p = self.cur
        self.step(DRAW)
        assert self.cur == p, "the drawer must also place"
        assert self.phase() == "place"
        onehot = self.block(p, "drawn_card")
        assert onehot.sum() == 1.0
        return int(np.flatnonzero(onehot)[0]) + 1

    def draw_place(self, s: int) -> int:
        v = self.draw()
        self.step(PLACE(s))
        return v

    def take(self, s: int) -> None:
        self.step(TAKE(s))

    def choose(self, v: int) -> None:
        self.step(CHOOSE(v))

    def pass_(self) -> None:
        self.step(PASS)

    # -- filler policy P: draw to the lowest untaken slot with room, else take the lowest
    # non-empty untaken slot; decline optional decisions; choose the smallest number.
    def burn_step(self) -> None:
        legal = self.legal()
        ph = self.phase()
        if ph in ("pass_left", "discard_one"):
            self.step(min(legal))
        elif ph in ("discard_own", "take_now") or (ph == "final" and PASS in legal):
            self.step(PASS)
        elif ph == "place":
            self.step(min(legal))
        elif DRAW in legal:
            self.step(DRAW)
        else:
            self.step(min(legal))

    def burn_rounds(self, rounds: int) -> None:
        target = self.view(0).round + rounds
        while self.view(0).round < target:
            self.burn_step()
