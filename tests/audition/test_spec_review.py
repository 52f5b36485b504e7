"""Independent spec review of Audition (second test suite, written against the spec only).

Sources: ``shared/spec/audition.md``, ``shared/spec/overview.md`` and the Dutch rules
``shared/seeds/audition_nl.txt``. Rulings the implementation documents in
``envs/audition/rules.py`` (where the spec leaves room) are accepted:

* the drawn card is private to its drawer until placed (others count it as unseen);
* in the final phase a player with no non-empty untaken slot is still asked (only PASS);
* ``draw_one`` puts the card face up into the collection;
* ``discard_own`` may name a number held before the take even if the take brought more of it;
* a round that ends with an empty deck ends the game (nobody left for a final phase).

The suite deliberately does not reuse the project's own test helpers. Scripted scenarios talk
to the public env API (masks, observations through ``observation_layout``, ``player_view``,
infos, rewards); a small reference model written from the spec (``Ref`` below) is run in
lock-step with the env on random games and compared on every step.
"""

from __future__ import annotations

import copy
import random
from collections import Counter

import numpy as np
import pytest

from parlour.envs import audition_v0
from parlour.envs.audition import rules as R

# ----------------------------------------------------------------------------- spec constants
# Written out from the spec, not imported from the implementation.

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
    """(points, scoring quartets) per the spec: exactly 1 -> 1, exactly 4 -> 5, else 0."""
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


# ----------------------------------------------------------------------------- env driver


class G:
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
        self.env = audition_v0.raw_env(
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


# ============================================================================ setup


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_setup_deck_composition_and_sizes(n):
    env = audition_v0.raw_env(num_players=n)
    env.reset(seed=3)
    v = env.player_view("player_0")
    assert v.deck_size == DECK_SIZE[n] == len(spec_deck(n))
    expected = [0] + [k if k <= TOP[n] else 0 for k in range(1, 14)]
    assert list(v.unseen) == expected
    assert len(v.slots) == n and all(s.kind == "conductor" and s.capacity == 4 for s in v.slots)
    assert env.action_space("player_0").n == 27
    # one space object per agent (PettingZoo's convention), all equal; none for a stranger
    assert env.observation_space("player_0") is not env.observation_space(f"player_{n - 1}")
    assert env.observation_space("player_0") == env.observation_space(f"player_{n - 1}")
    assert env.action_space("player_0") is not env.action_space(f"player_{n - 1}")
    assert env.action_space("player_0") == env.action_space(f"player_{n - 1}")
    with pytest.raises(KeyError):
        env.observation_space(f"player_{n}")
    sizes = {
        audition_v0.raw_env(num_players=k, action_cards=k, uncertain_counts=bool(k % 2))
        .observation_space("player_0")["observation"]
        .shape
        for k in range(2, 7)
    }
    assert len(sizes) == 1  # one size for every player count


def test_fixed_deck_is_top_first_and_start_seat_is_respected():
    g = G(n=3, top=[7, 2, 9], start=2)
    assert g.cur == 2
    assert g.draw_place(0) == 7
    assert g.cur == 0
    assert g.draw_place(0) == 2
    assert g.draw_place(1) == 9


@pytest.mark.parametrize(
    "bad",
    [
        lambda n: spec_deck(n)[:-1],  # a card missing
        lambda n: spec_deck(n) + [1],  # a card too many
        lambda n: spec_deck(n)[:-1] + [TOP[n] + 1],  # a number not in play
        lambda n: spec_deck(n + 1),  # the deck of another player count
    ],
)
def test_fixed_deck_must_be_exactly_the_games_cards(bad):
    env = audition_v0.raw_env(num_players=2)
    with pytest.raises(ValueError):
        env.reset(options={"deck": bad(2), "start": 0})


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(num_players=2, action_cards=3),
        dict(num_players=3, action_cards=-1),
        dict(num_players=3, action_cards=["max_two", "max_two"]),
        dict(num_players=2, action_cards=["max_two", "pass_left", "take_now"]),
        dict(num_players=3, action_cards=["conductor"]),
        dict(num_players=3, action_cards=["bogus"]),
        dict(num_players=1),
        dict(num_players=7),
        dict(num_players=2, reward_mode="points"),
    ],
)
def test_bad_constructor_arguments_raise_value_error(kwargs):
    with pytest.raises(ValueError):
        audition_v0.raw_env(**kwargs)


def test_action_card_list_takes_slots_in_order_and_int_draws_distinct_kinds():
    g = G(n=4, action_cards=["take_now", "max_two"])
    assert [s.kind for s in g.view(0).slots] == ["take_now", "max_two", "conductor", "conductor"]
    assert [s.capacity for s in g.view(0).slots] == [4, 2, 4, 4]
    for seed in range(5):
        env = audition_v0.raw_env(num_players=5, action_cards=3)
        env.reset(seed=seed)
        kinds = [s.kind for s in env.player_view("player_0").slots]
        actions = [k for k in kinds if k != "conductor"]
        assert len(actions) == 3 and len(set(actions)) == 3


# ============================================================================ turn order


def test_turn_order_is_clockwise_and_skips_players_who_took_a_slot():
    g = G(n=3, start=1)
    assert g.cur == 1
    g.draw_place(0)
    assert g.cur == 2
    g.draw_place(1)
    assert g.cur == 0
    g.take(0)  # seat 0 is out of this round
    assert g.cur == 1
    g.draw_place(1)
    assert g.cur == 2
    g.take(1)
    # only seat 1 is left: it keeps acting
    assert g.cur == 1
    assert g.legal() == {DRAW}  # the last slot (2) is empty: must draw first
    g.draw_place(2)
    assert g.cur == 1
    assert g.legal() == {DRAW, TAKE(2)}


def test_take_requires_a_non_empty_untaken_slot():
    g = G(n=3, start=0)
    assert g.legal() == {DRAW}
    g.draw_place(2)
    assert g.legal() == {DRAW, TAKE(2)}
    g.take(2)
    g.draw_place(0)
    assert g.legal() == {DRAW, TAKE(0)}  # slot 2 is taken, slot 1 empty


def test_four_card_limit_and_forced_take():
    g = G(n=2, start=0)
    for _ in range(4):
        g.step(DRAW)
        assert PLACE(0) in g.legal()
        g.step(PLACE(0))
    assert DRAW in g.legal()
    g.step(DRAW)
    assert g.legal() == {PLACE(1)}  # slot 0 is full
    g.step(PLACE(1))
    for _ in range(3):
        g.draw_place(1)
    # every untaken slot is full: DRAW is not allowed, a take is forced
    assert g.legal() == {TAKE(0), TAKE(1)}
    room = g.block(0, "slots").reshape(6, 23)[:2, 9]
    assert np.allclose(room, 0.0)


def test_max_two_slot_holds_at_most_two():
    g = G(n=2, action_cards=["max_two"], start=0)
    g.draw_place(0)
    g.draw_place(0)
    g.step(DRAW)
    assert g.legal() == {PLACE(1)}
    g.step(PLACE(1))
    slots = g.block(1, "slots").reshape(6, 23)
    assert slots[0, 9] == 0.0 and slots[1, 9] == pytest.approx(0.75)


def test_last_player_draws_until_full_then_must_take():
    g = G(n=2, start=0)
    g.draw_place(0)
    g.take(0)  # seat 1
    assert g.cur == 0
    assert g.legal() == {DRAW}
    for k in range(4):
        g.draw_place(1)
        assert g.cur == 0
        assert g.legal() == ({DRAW, TAKE(1)} if k < 3 else {TAKE(1)})
    g.take(1)
    # the round is over; seat 0 took the last slot and starts the next round
    v = g.view(0)
    assert v.round == 2
    assert g.cur == 0
    assert not any(v.taken)
    assert all(not s.taken and s.size == 0 for s in v.slots)
    assert sum(v.collections[0]) == 4 and sum(v.collections[1]) == 1


def test_player_who_took_the_last_slot_starts_next_round_not_the_round_starter():
    g = G(n=4, start=0)
    g.draw_place(0)  # 0
    g.take(0)  # 1 out
    g.draw_place(1)  # 2
    g.take(1)  # 3 out
    assert g.cur == 0
    g.draw_place(2)  # 0
    assert g.cur == 2
    g.take(2)  # 2 out
    assert g.cur == 0
    g.draw_place(3)
    g.take(3)  # 0 took the last slot
    assert g.view(0).round == 2 and g.cur == 0
    # round 2: arrange for seat 2 to take last
    g.draw_place(0)  # 0
    g.take(0)  # 1
    g.draw_place(1)  # 2
    g.take(1)  # 3
    assert g.cur == 0
    g.draw_place(2)  # 0
    assert g.cur == 2
    g.draw_place(3)  # 2
    g.take(2)  # 0 out
    assert g.cur == 2
    g.take(3)
    assert g.view(0).round == 3
    assert g.cur == 2


def test_last_taker_of_pass_left_starts_next_round_after_choosing():
    g = G(n=2, action_cards=["pass_left"], top=[3, 5], start=0)
    g.draw_place(1)  # 0 places 3 on conductor
    g.take(1)  # 1 takes conductor
    g.draw_place(0)  # 0 places 5 on pass_left
    g.take(0)
    assert g.cur == 0 and g.phase() == "pass_left"
    assert g.legal() == {CHOOSE(5)}  # asked even though only one number is possible
    g.choose(5)
    assert g.coll(1)[5] == 1 and g.coll(0)[5] == 0
    assert g.view(0).round == 2 and g.cur == 0 and g.phase() == "turn"


# ============================================================================ end of the deck


def test_final_phase_order_starts_after_emptier_and_ends_with_emptier_4p():
    g = G(n=4, start=0)
    g.burn_rounds(4)  # policy P uses 16 cards a round
    assert g.deck_size() == 2
    s = g.cur
    g.draw_place(0)  # s
    assert g.cur == (s + 1) % 4
    g.take(0)  # s+1 out
    assert g.cur == (s + 2) % 4
    g.draw_place(1)  # s+2 empties the deck
    assert g.deck_size() == 0
    order = []
    while not g.done:
        assert g.phase() == "final"
        assert g.view(0).in_final
        order.append(g.cur)
        legal = g.legal()
        assert DRAW not in legal and PASS in legal
        if TAKE(1) in legal:
            g.take(1)
        else:
            assert legal == {PASS}  # ruling: asked even with nothing to take
            g.pass_()
    assert order == [(s + 3) % 4, s, (s + 2) % 4]


def test_final_phase_all_players_when_nobody_took_variant2():
    # 2p variant 2: 40 cards = 5 rounds of policy P; the 40th card is placed before anyone took
    g = G(n=2, uncertain=True, start=1)
    assert g.deck_size() == 40
    g.burn_rounds(4)
    assert g.deck_size() == 8
    s = g.cur
    for k in range(8):
        assert g.cur == (s + k) % 2
        g.draw_place(0 if k < 4 else 1)
    assert g.deck_size() == 0
    emptier = (s + 7) % 2
    assert g.phase() == "final" and g.cur == (emptier + 1) % 2
    before = [g.coll(p) for p in range(2)]
    g.take(0)
    assert g.cur == emptier and g.phase() == "final"
    assert g.legal() == {TAKE(1), PASS}
    g.pass_()  # take none
    assert g.done
    # the musicians left on slot 1 are not scored; take none changed nothing
    assert g.coll(emptier) == before[emptier]
    scores = g.env.results()["scores"]
    for p in range(2):
        assert scores[f"player_{p}"] == points_of(g.coll(p))[0]


def test_deck_emptied_by_draw_then_take_now_decision_first_then_final():
    g = G(n=3, action_cards=["take_now"], start=0)
    g.burn_rounds(4)
    assert g.deck_size() == 55 - 48
    s = g.cur
    # 7 cards: fill slot 1 (4) and slot 2 (2), the 7th goes on take_now
    targets = [1, 1, 1, 1, 2, 2]
    for k, t in enumerate(targets):
        assert g.cur == (s + k) % 3
        g.draw_place(t)
    emptier = g.cur
    assert emptier == s  # 6 placements: back to s
    g.draw()
    assert g.deck_size() == 0
    g.step(PLACE(0))
    # the action finishes first: the take_now decision of the same agent, not the final phase
    assert g.cur == emptier and g.phase() == "take_now"
    assert not g.view(0).in_final
    assert g.legal() == {TAKE(0), PASS}
    g.take(0)
    # final phase: the two others in turn order after the emptier; the emptier took, so is skipped
    order = []
    while not g.done:
        assert g.phase() == "final"
        order.append(g.cur)
        g.step(min(g.legal()))
    assert order == [(s + 1) % 3, (s + 2) % 3]


def test_emptier_declines_take_now_and_is_last_in_final():
    g = G(n=3, action_cards=["take_now"], start=0)
    g.burn_rounds(4)
    s = g.cur
    for t in [1, 1, 1, 1, 2, 2]:
        g.draw_place(t)
    g.draw_place(0)
    assert g.phase() == "take_now"
    g.pass_()
    order = []
    while not g.done:
        order.append(g.cur)
        g.pass_()
    assert order == [(s + 1) % 3, (s + 2) % 3, s]


def test_round_that_ends_with_empty_deck_ends_the_game():
    # the last player of a round draws the last card onto take_now and takes it: all took
    g = G(n=2, action_cards=["take_now"], start=0)
    g.burn_rounds(5)
    assert g.deck_size() == 5
    s = g.cur
    g.draw_place(1)  # s
    g.take(1)  # s+1 out
    for _ in range(3):
        g.draw_place(0)
        assert g.phase() == "take_now"
        g.pass_()
        assert g.cur == s
    g.draw_place(0)
    assert g.deck_size() == 0 and g.phase() == "take_now" and g.cur == s
    g.take(0)
    assert g.done
    assert g.env.results()["phase"] == "over"


def test_draw_one_empties_deck_final_starts_after_taker():
    g = G(n=2, action_cards=["draw_one"], start=0)
    g.burn_rounds(4)  # P takes draw_one (slot 0) first each round: 9 cards a round
    assert g.deck_size() == 9
    for t in [0, 0, 0, 0, 1, 1, 1, 1]:
        g.draw_place(t)
    assert g.deck_size() == 1 and g.legal() == {TAKE(0), TAKE(1)}
    taker = g.cur
    last_card = g.env.unwrapped.game.deck[-1]  # verification only
    expected = list(g.coll(taker))
    for v in range(14):
        expected[v] += g.slot_cards(0)[v]
    expected[last_card] += 1
    g.take(0)
    assert list(g.coll(taker)) == expected  # 4 musicians + the top card, face up
    assert g.deck_size() == 0
    other = (taker + 1) % 2
    assert g.phase() == "final" and g.cur == other
    assert g.legal() == {TAKE(1), PASS}
    g.take(1)
    assert g.done


def test_draw_one_taken_by_last_player_with_last_card_ends_game():
    g = G(n=2, action_cards=["draw_one"], start=0)
    g.burn_rounds(4)
    for t in [0, 0, 0, 0, 1, 1, 1, 1]:
        g.draw_place(t)
    g.take(1)  # conductor
    assert g.legal() == {TAKE(0)}
    g.take(0)  # draw_one, draws the last card; nobody is left: game over
    assert g.done


def test_action_card_taken_in_final_phase_still_acts():
    g = G(n=3, action_cards=["pass_left", "discard_own", "draw_one"], start=0)
    # play until the deck empties with policy P, then in the final phase take action cards
    while g.deck_size() > 0:
        g.burn_step()
    while not g.done and g.phase() != "final":
        g.burn_step()
    assert g.deck_size() == 0
    seen = set()
    while not g.done:
        p = g.cur
        ph = g.phase()
        legal = g.legal()
        if ph == "final":
            takes = [a for a in legal if a < 6]
            if not takes:
                g.pass_()
                continue
            s = takes[0]
            kind = g.view(0).slots[s].kind
            before = list(g.coll(p))
            came = g.slot_cards(s)
            g.take(s)
            seen.add(kind)
            if kind == "pass_left":
                assert g.phase() == "pass_left" and g.cur == p
                assert g.legal() == {CHOOSE(v) for v in range(1, 14) if came[v]}
                v = min(v for v in range(1, 14) if came[v])
                left = (p + 1) % 3
                lb = g.coll(left)[v]
                g.choose(v)
                assert g.coll(left)[v] == lb + 1
            elif kind == "discard_own" and sum(before):
                assert g.phase() == "discard_own" and g.cur == p
                assert g.legal() == {PASS} | {CHOOSE(v) for v in range(1, 14) if before[v]}
                g.pass_()
            elif kind == "draw_one":
                # deck empty: nothing drawn
                assert sum(g.coll(p)) == sum(before) + sum(came)
        else:
            g.step(min(legal))
    assert seen  # at least one action card was taken in the final phase


# ============================================================================ action cards


def test_pass_left_goes_to_seat_plus_one_with_wraparound_and_only_came_cards():
    g = G(n=3, action_cards=["pass_left"], top=[4, 6, 2, 6, 8], start=1)
    g.draw_place(1)  # 1: 4 on conductor 1
    g.draw_place(1)  # 2: 6
    g.take(1)  # 0 takes {4, 6}
    g.draw_place(0)  # 1: 2 on pass_left
    g.draw_place(0)  # 2: 6 on pass_left
    assert g.cur == 1
    g.draw_place(0)  # 1: 8 on pass_left
    assert g.cur == 2
    g.take(0)  # seat 2 takes pass_left with {2, 6, 8}
    assert g.cur == 2 and g.phase() == "pass_left"
    assert g.legal() == {CHOOSE(2), CHOOSE(6), CHOOSE(8)}
    pc = g.block(2, "pending_choice")
    assert pc[1] > 0 and pc[5] > 0 and pc[7] > 0 and pc.sum() == pytest.approx(3 / 13)
    assert g.block(0, "pending_choice").sum() == 0  # only the chooser's decision
    g.choose(6)
    assert g.coll(0)[6] == 2 and g.coll(0)[4] == 1  # seat 2 + 1 = seat 0 (wraps)
    assert g.coll(2)[6] == 0 and g.coll(2)[2] == 1 and g.coll(2)[8] == 1
    assert g.coll(1) == (0,) * 14
    assert g.cur == 1 and g.phase() == "turn"


def test_discard_one_must_discard_one_that_came_and_discard_row_is_public():
    g = G(n=2, action_cards=["discard_one"], top=[5, 5, 7, 3], start=0)
    g.draw_place(1)  # 0: 5 on conductor
    g.take(1)  # 1 takes {5}
    g.draw_place(0)  # 0: 5 on discard_one
    g.draw_place(0)  # 0: 7
    unseen_before = g.block(1, "unseen").copy()
    g.take(0)
    assert g.phase() == "discard_one"
    assert g.legal() == {CHOOSE(5), CHOOSE(7)}
    g.choose(7)
    assert g.coll(0)[7] == 0 and g.coll(0)[5] == 1
    for p in range(2):
        assert g.view(p).discard[7] == 1
        assert g.block(p, "discard")[6] == pytest.approx(1 / 13)
    np.testing.assert_allclose(g.block(1, "unseen"), unseen_before)  # it was face up already


def test_discard_own_choices_are_cards_held_before_and_pass_is_allowed():
    g = G(n=2, action_cards=["discard_own"], top=[2, 9, 4], start=0)
    g.draw_place(1)  # 0: 2 on conductor
    g.draw_place(1)  # 1: 9 on conductor
    g.take(1)  # 0 takes {2, 9}
    g.draw_place(0)  # 1: 4 on discard_own
    g.take(0)  # 1 takes discard_own with {4}; collection was empty before: no decision
    assert g.phase() == "turn"
    assert g.view(0).round == 2 and g.cur == 1
    # round 2: seat 0 takes discard_own with a non-empty collection
    g.draw_place(0)  # 1 places on discard_own
    card = g.slot_cards(0)
    assert g.cur == 0
    g.take(0)
    came = [v for v in range(1, 14) if card[v]]
    assert g.phase() == "discard_own" and g.cur == 0
    expected = {PASS, CHOOSE(2), CHOOSE(9)}
    for v in came:
        if v not in (2, 9):
            assert CHOOSE(v) not in g.legal()  # may not discard a card that came with it
    assert g.legal() == expected
    g.choose(9)
    assert g.coll(0)[9] == 0 and g.view(1).discard[9] == 1


def test_discard_own_skipped_with_empty_collection_and_pass_keeps_everything():
    g = G(n=2, action_cards=["discard_own"], top=[2, 4, 6], start=0)
    g.draw_place(1)  # 0: 2 on conductor
    g.take(1)  # 1 takes {2}
    assert g.cur == 0
    g.draw_place(0)  # 0 (alone): 4 on discard_own
    g.take(0)  # seat 0's collection was empty before: no decision
    assert g.phase() == "turn" and g.view(0).round == 2 and g.cur == 0
    g.draw_place(0)  # 0: 6 on discard_own
    assert g.cur == 1
    g.take(0)  # seat 1 held {2}: asked, may decline
    assert g.phase() == "discard_own" and g.cur == 1
    assert g.legal() == {PASS, CHOOSE(2)}  # not 6: it came with the card
    g.pass_()
    assert g.coll(1)[2] == 1 and g.coll(1)[6] == 1 and sum(g.view(0).discard) == 0


def test_draw_one_adds_the_top_card_face_up():
    g = G(n=2, action_cards=["draw_one"], top=[3, 8, 6], start=0)
    g.draw_place(0)  # 0: 3 on draw_one
    unseen_before = list(g.view(1).unseen)
    assert g.cur == 1
    g.take(0)  # 1 takes {3} and draws 8
    assert g.coll(1)[3] == 1 and g.coll(1)[8] == 1 and sum(g.coll(1)) == 2
    assert g.deck_size() == DECK_SIZE[2] - 2
    u = list(g.view(0).unseen)
    assert u[8] == unseen_before[8] - 1  # the drawn card is face up for everyone
    assert g.cur == 0
    assert g.draw() == 6


def test_take_now_accept_and_decline():
    g = G(n=3, action_cards=["take_now"], top=[5, 6, 7], start=0)
    g.draw_place(0)  # 0 places on take_now
    assert g.cur == 0 and g.phase() == "take_now"
    assert g.legal() == {TAKE(0), PASS}
    assert g.mask(1).sum() == 0 and g.mask(2).sum() == 0
    g.pass_()  # decline
    assert g.cur == 1 and g.phase() == "turn"
    g.draw_place(0)  # 1 places on take_now
    assert g.cur == 1 and g.legal() == {TAKE(0), PASS}
    g.take(0)  # accept: the musicians go to seat 1, who is out of the round
    assert g.coll(1)[5] == 1 and g.coll(1)[6] == 1
    assert g.view(0).taken[1] and g.view(0).slots[0].taken
    assert g.cur == 2
    g.draw_place(1)  # no take_now decision on a conductor
    assert g.cur == 0 and g.phase() == "turn"


def test_take_now_can_also_be_taken_by_rule_b():
    g = G(n=2, action_cards=["take_now"], top=[5, 6], start=0)
    g.draw_place(0)
    g.pass_()
    assert g.cur == 1 and TAKE(0) in g.legal()
    g.take(0)
    assert g.coll(1)[5] == 1 and g.cur == 0 and g.phase() == "turn"


def test_take_now_last_player_declines_and_keeps_acting():
    g = G(n=2, action_cards=["take_now"], top=[5, 6, 7], start=0)
    g.draw_place(1)
    g.take(1)  # seat 1 out
    g.draw_place(0)
    assert g.phase() == "take_now" and g.cur == 0
    g.pass_()
    assert g.cur == 0 and g.legal() == {DRAW, TAKE(0)}


def test_every_decision_is_a_step_of_the_agent_that_makes_it():
    """DRAW -> PLACE -> take_now decision, TAKE -> CHOOSE: all by the same agent, and the
    observation/mask of every other agent is empty meanwhile."""
    g = G(n=3, action_cards=["take_now", "discard_one"], top=[4, 4, 9], start=2)
    seq = []
    for a in [DRAW, PLACE(0), TAKE(0)]:
        seq.append(g.cur)
        for p in range(3):
            if p != g.cur:
                assert g.mask(p).sum() == 0
        g.step(a)
    assert seq == [2, 2, 2]
    assert g.cur == 0
    g.draw_place(1)  # 0: 4 on discard_one
    g.draw_place(1)  # 1: 9
    g.take(1)  # 0 takes discard_one
    assert g.cur == 0 and g.phase() == "discard_one"
    assert g.mask(1).sum() == 0 and g.mask(2).sum() == 0
    g.choose(9)
    assert g.cur == 1


# ============================================================================ variant 2


def test_variant2_removes_last_five_of_the_order_unseen():
    bottom = [9, 9, 8, 1, 2]
    g = G(n=2, uncertain=True, deck=deck_with(2, bottom=bottom), start=0)
    assert g.deck_size() == 40
    assert g.view(0).num_removed == 5
    drawn = Counter()
    while g.deck_size() > 0:
        if g.phase() == "turn" and DRAW in g.legal():
            drawn[g.draw()] += 1
            g.step(min(g.legal()))
            if g.phase() == "take_now":
                g.pass_()
        else:
            g.burn_step()
    expected = Counter(spec_deck(2)) - Counter(bottom)
    assert drawn == expected
    # the unseen counts at the end are exactly the removed cards
    u = g.view(0).unseen
    assert Counter({v: u[v] for v in range(14) if u[v]}) == Counter(bottom)


def test_variant2_which_cards_are_removed_does_not_leak():
    # two decks with identical first 40 cards but different removed sets are impossible
    # (the removed set is determined by the first 40); instead: swap a removed card with one
    # deep in the deck. Until that deck position is drawn, nothing may differ for anyone.
    rng = random.Random(11)
    cards = spec_deck(3)
    rng.shuffle(cards)
    i = 30
    j = next(k for k in range(len(cards) - 5, len(cards)) if cards[k] != cards[i])
    deck_a = list(cards)
    deck_b = list(cards)
    deck_b[i], deck_b[j] = deck_b[j], deck_b[i]
    ga = G(n=3, uncertain=True, deck=deck_a, start=1)
    gb = G(n=3, uncertain=True, deck=deck_b, start=1)
    drawn = 0
    while drawn <= i:
        for p in range(3):
            np.testing.assert_array_equal(ga.obs(p), gb.obs(p))
            assert ga.view(p) == gb.view(p)
        legal = ga.legal()
        a = DRAW if DRAW in legal else min(legal)
        before = ga.deck_size()
        ga.step(a)
        gb.step(a)
        drawn += before - ga.deck_size()


# ============================================================================ leaks


def test_deck_order_and_drawn_card_do_not_leak_to_others():
    rng = random.Random(5)
    cards = spec_deck(4)
    rng.shuffle(cards)
    i = 20
    j = next(k for k in range(i + 1, len(cards)) if cards[k] != cards[i])
    deck_b = list(cards)
    deck_b[i], deck_b[j] = deck_b[j], deck_b[i]
    ga = G(n=4, action_cards=["take_now", "pass_left"], deck=cards, start=3, render_mode="ansi")
    gb = G(n=4, action_cards=["take_now", "pass_left"], deck=deck_b, start=3, render_mode="ansi")
    drawn = 0
    rr = random.Random(1)
    while True:
        legal = sorted(ga.legal())
        assert legal == sorted(gb.legal())
        a = DRAW if DRAW in legal and rr.random() < 0.7 else rr.choice(legal)
        before = ga.deck_size()
        ga.step(a)
        gb.step(a)
        drawn += before - ga.deck_size()
        if drawn > i:
            break
        for p in range(4):
            np.testing.assert_array_equal(ga.obs(p), gb.obs(p))
            assert ga.view(p) == gb.view(p)
        assert ga.env.render() == gb.env.render()
        assert ga.env.infos == gb.env.infos
        assert ga.env.results() == gb.env.results()
    # the card at position i has just been drawn and is not yet placed
    assert ga.phase() == "place"
    drawer = ga.cur
    assert ga.block(drawer, "drawn_card").tolist() != gb.block(drawer, "drawn_card").tolist()
    for p in range(4):
        if p != drawer:
            np.testing.assert_array_equal(ga.obs(p), gb.obs(p))
            assert ga.view(p) == gb.view(p)
            assert ga.view(p).drawn == 0
    assert ga.env.render() == gb.env.render()
    assert ga.env.infos == gb.env.infos
    assert ga.env.results() == gb.env.results()


def test_drawer_unseen_excludes_own_drawn_card_others_do_not():
    g = G(n=3, top=[6], start=0)
    u_before = g.view(1).unseen[6]
    g.step(DRAW)
    assert g.view(0).drawn == 6 and g.view(0).unseen[6] == u_before - 1
    assert g.view(1).drawn == 0 and g.view(1).unseen[6] == u_before
    assert g.block(1, "drawn_card").sum() == 0 and g.block(2, "drawn_card").sum() == 0
    g.step(PLACE(0))
    assert g.view(1).unseen[6] == u_before - 1


def test_observation_is_egocentric():
    g = G(n=3, top=[5, 7, 7, 2], start=0)
    g.draw_place(0)  # 0: 5
    g.draw_place(1)  # 1: 7
    g.draw_place(1)  # 2: 7
    g.take(1)  # 0 takes {7, 7}
    g.take(0)  # 1 takes {5}
    # seat 2 is last: collections: seat0 {7x2}, seat1 {5}, seat2 {}
    pl = {p: g.block(p, "players").reshape(6, 19) for p in range(3)}
    for obs_seat in range(3):
        for i in range(3):
            seat = (obs_seat + i) % 3
            coll = np.array(g.coll(seat)[1:], np.float32) / 13
            np.testing.assert_allclose(pl[obs_seat][i, 4:17], coll)
            assert pl[obs_seat][i, 0] == 1.0
            assert pl[obs_seat][i, 1] == float(seat == g.cur)
            assert pl[obs_seat][i, 2] == float(g.view(0).taken[seat])
            assert pl[obs_seat][i, 3] == pytest.approx(points_of(g.coll(seat))[0] / 65)
        assert not pl[obs_seat][3:].any()
    # block 1 of seat 0's view is the left neighbour (seat 1) who got {5}
    assert pl[0][1, 4 + 4] == pytest.approx(1 / 13)
    assert pl[2][1, 4 + 6] == pytest.approx(2 / 13)  # seat 2's left neighbour is seat 0


# ============================================================================ scoring


@pytest.mark.parametrize(
    "count,pts",
    [(0, 0), (1, 1), (2, 0), (3, 0), (4, 5), (5, 0), (6, 0), (7, 0), (8, 0), (9, 0)],
)
def test_score_per_count_is_never_split(count, pts):
    g = G(n=2, start=0)
    st = g.env.unwrapped.game
    st.collections[0, :] = 0
    st.collections[0, 9] = count
    st.refresh()
    assert g.view(0).scores[0] == pts
    assert g.view(1).scores[0] == pts


def _finish_with(g: G, colls: dict[int, dict[int, int]]):
    """Play with P up to the very last decision (a final-phase PASS that ends the game),
    overwrite the collections (engine state + refresh(), as rules.py documents), finish."""
    while True:
        if g.phase() == "final" and PASS in g.legal():
            probe = copy.deepcopy(g.env)
            probe.step(PASS)
            if all(probe.terminations.values()):
                break
        g.burn_step()
        assert not g.done
    st = g.env.unwrapped.game
    st.collections[:, :] = 0
    for p, c in colls.items():
        for v, k in c.items():
            st.collections[p, v] = k
    st.refresh()
    g.pass_()
    assert g.done


@pytest.mark.parametrize(
    "n,colls,winners",
    [
        (2, {0: {1: 1, 2: 1}, 1: {3: 1}}, [0]),  # most points
        (3, {0: {5: 4}, 1: {1: 1, 2: 1, 3: 1, 4: 1, 6: 1}, 2: {}}, [0]),  # 5 = 5: quartet wins
        (3, {0: {5: 4}, 1: {6: 4}, 2: {1: 1}}, [0, 1]),  # same points, same quartets
        (4, {0: {1: 1}, 1: {2: 1}, 2: {3: 1}, 3: {4: 1}}, [0, 1, 2, 3]),
        (5, {0: {7: 5}, 1: {7: 2}}, [0, 1, 2, 3, 4]),  # all zero: shared win by everyone
        (6, {0: {1: 1, 2: 4}, 3: {3: 1, 4: 4}, 5: {6: 1, 7: 1, 8: 1, 9: 1, 10: 1, 11: 1}}, [0, 3]),
    ],
)
def test_winners_tiebreak_and_zero_sum_reward_formula(n, colls, winners):
    g = G(n=n, start=0)
    _finish_with(g, colls)
    info = g.env.results()
    assert info["phase"] == "over" and info["over"]
    assert info["winners"] == [f"player_{p}" for p in winners]
    exp_scores = {
        f"player_{p}": points_of([colls.get(p, {}).get(v, 0) for v in range(14)])[0]
        for p in range(n)
    }
    assert info["scores"] == exp_scores
    for a in g.env.possible_agents:
        assert g.env.infos[a] == {}
    rewards = spec_win_reward(n, winners)
    assert info["returns"] == pytest.approx({f"player_{p}": rewards[p] for p in range(n)})
    for p in range(n):
        assert g.env._cumulative_rewards[f"player_{p}"] == pytest.approx(rewards[p])
    assert sum(g.env._cumulative_rewards.values()) == pytest.approx(0.0, abs=1e-9)
    if len(winners) == 1:
        assert g.env._cumulative_rewards[f"player_{winners[0]}"] == pytest.approx(1.0)


def test_two_way_tie_in_2p_gives_zero_each():
    g = G(n=2, start=1)
    _finish_with(g, {0: {1: 1}, 1: {2: 1}})
    assert g.env._cumulative_rewards == {
        "player_0": pytest.approx(0.0),
        "player_1": pytest.approx(0.0),
    }


def test_score_reward_mode():
    g = G(n=3, start=0, reward_mode="score")
    _finish_with(g, {0: {1: 1, 2: 4}, 1: {3: 1}, 2: {}})
    pts = [6, 1, 0]
    mean = sum(pts) / 3
    for p in range(3):
        assert g.env._cumulative_rewards[f"player_{p}"] == pytest.approx((pts[p] - mean) / 10)


def test_infos_are_empty_and_results_carry_the_phase_and_winners_only_at_the_end():
    g = G(n=2, action_cards=["take_now"], start=0)
    g.step(DRAW)
    assert all(g.env.infos[a] == {} for a in g.env.agents)
    assert g.env.results()["phase"] == "place"
    g.step(PLACE(0))
    assert all(g.env.infos[a] == {} for a in g.env.agents)
    res = g.env.results()
    assert res["phase"] == "take_now" and not res["over"] and res["winners"] == []
    assert res["returns"] == {"player_0": 0.0, "player_1": 0.0}
    assert res["scores"] == {"player_0": 0, "player_1": 0}  # current points: nothing scores yet
    g.pass_()
    assert g.env.results()["phase"] == "turn"


# ============================================================================ reference model


class Ref:
    """The rules as the spec states them, independent of the implementation."""

    def __init__(self, n, kinds, deck, start, uncertain):
        self.n = n
        self.kinds = list(kinds)
        cards = list(deck)
        self.removed = cards[-5:] if uncertain else []
        self.deck = cards[:-5] if uncertain else cards  # top first
        self.slots = [[] for _ in range(n)]
        self.slot_taken = [False] * n
        self.taken = [False] * n
        self.coll = [[0] * 14 for _ in range(n)]
        self.discard = [0] * 14
        self.cur = start
        self.phase = "turn"
        self.drawn = 0
        self.pending = -1
        self.choice = [0] * 14
        self.emptier = None
        self.in_final = False
        self.queue: list[int] = []
        self.last_taker = None
        self.round = 1

    def cap(self, s):
        return 2 if self.kinds[s] == "max_two" else 4

    def room(self, s):
        return self.cap(s) - len(self.slots[s])

    def legal(self) -> list[int]:
        n, ph = self.n, self.phase
        if ph in ("turn", "final"):
            acts = [TAKE(s) for s in range(n) if not self.slot_taken[s] and self.slots[s]]
            if ph == "final":
                return acts + [PASS]
            if self.deck and any(not self.slot_taken[s] and self.room(s) > 0 for s in range(n)):
                acts.append(DRAW)
            return sorted(acts)
        if ph == "place":
            return [PLACE(s) for s in range(n) if not self.slot_taken[s] and self.room(s) > 0]
        if ph == "take_now":
            return [TAKE(self.pending), PASS]
        if ph in ("pass_left", "discard_one", "discard_own"):
            acts = [CHOOSE(v) for v in range(1, 14) if self.choice[v]]
            return ([PASS] if ph == "discard_own" else []) + acts
        return []

    def step(self, a: int) -> None:
        assert a in self.legal()
        ph, p = self.phase, self.cur
        if ph in ("turn", "final"):
            if a == DRAW:
                self.drawn = self.deck.pop(0)
                if not self.deck:
                    self.emptier = p
                self.phase = "place"
            elif a == PASS:
                self.finish()
            else:
                self.take(a)
        elif ph == "place":
            s = a - 7
            self.slots[s].append(self.drawn)
            self.drawn = 0
            if self.kinds[s] == "take_now":
                self.phase, self.pending = "take_now", s
            else:
                self.finish()
        elif ph == "take_now":
            s, self.pending = self.pending, -1
            if a == PASS:
                self.finish()
            else:
                self.take(s)
        elif ph == "pass_left":
            v = a - 13
            self.coll[p][v] -= 1
            self.coll[(p + 1) % self.n][v] += 1
            self.finish()
        else:  # discard_one / discard_own
            if a != PASS:
                v = a - 13
                self.coll[p][v] -= 1
                self.discard[v] += 1
            self.finish()

    def take(self, s: int) -> None:
        p = self.cur
        came = Counter(self.slots[s])
        before = list(self.coll[p])
        for v, k in came.items():
            self.coll[p][v] += k
        self.slots[s] = []
        self.slot_taken[s] = True
        self.taken[p] = True
        self.last_taker = p
        kind = self.kinds[s]
        if kind in ("pass_left", "discard_one"):
            self.phase = kind
            self.choice = [came.get(v, 0) for v in range(14)]
            return
        if kind == "discard_own" and sum(before) > 0:
            self.phase = kind
            self.choice = before
            return
        if kind == "draw_one" and self.deck:
            c = self.deck.pop(0)
            self.coll[p][c] += 1
            if not self.deck:
                self.emptier = p
        self.finish()

    def finish(self) -> None:
        self.choice = [0] * 14
        n = self.n
        if self.in_final:
            self.next_final()
            return
        if self.emptier is not None:
            self.in_final = True
            e = self.emptier
            self.queue = [(e + k) % n for k in range(1, n + 1) if not self.taken[(e + k) % n]]
            self.next_final()
            return
        if all(self.taken):
            if not self.deck:
                self.phase = "over"
                return
            self.round += 1
            self.slots = [[] for _ in range(n)]
            self.slot_taken = [False] * n
            self.taken = [False] * n
            self.cur = self.last_taker
            self.phase = "turn"
            return
        for k in range(1, n + 1):
            q = (self.cur + k) % n
            if not self.taken[q]:
                self.cur = q
                break
        self.phase = "turn"

    def next_final(self) -> None:
        if self.queue:
            self.cur = self.queue.pop(0)
            self.phase = "final"
        else:
            self.phase = "over"

    # -- public information
    def points(self):
        return [points_of(c) for c in self.coll]

    def winners(self):
        pq = self.points()
        best = max(pq)
        return [p for p in range(self.n) if pq[p] == best]

    def unseen(self, observer):
        comp = [0] + [k if k <= TOP[self.n] else 0 for k in range(1, 14)]
        u = list(comp)
        for v in range(14):
            u[v] -= sum(c[v] for c in self.coll) + self.discard[v]
        for sl in self.slots:
            for v in sl:
                u[v] -= 1
        if self.drawn and observer == self.cur and self.phase == "place":
            u[self.drawn] -= 1
        return u

    def expected_obs(self, o: int, L: dict[str, slice], uncertain: bool) -> np.ndarray:
        size = max(s.stop for s in L.values())
        x = np.zeros(size, np.float32)
        n = self.n
        over = self.phase == "over"
        mine = (not over) and self.cur == o
        x[L["phase"].start + PHASES.index(self.phase)] = 1
        x[L["in_final"].start] = float(self.in_final)
        if mine and self.phase == "place":
            x[L["drawn_card"].start + self.drawn - 1] = 1
        if mine and self.phase in ("pass_left", "discard_one", "discard_own"):
            x[L["pending_choice"]] = np.array(self.choice[1:], np.float32) / 13
        sl = x[L["slots"]].reshape(6, 23)
        for s in range(n):
            sl[s, KINDS.index(self.kinds[s])] = 1
            sl[s, 7] = 1
            sl[s, 8] = float(self.slot_taken[s])
            sl[s, 9] = self.room(s) / 4
            c = Counter(self.slots[s])
            sl[s, 10:] = [c.get(v, 0) / 4 for v in range(1, 14)]
        x[L["slots"]] = sl.ravel()
        pl = x[L["players"]].reshape(6, 19)
        pts = self.points()
        for i in range(n):
            q = (o + i) % n
            pl[i, 0] = 1
            pl[i, 1] = float((not over) and q == self.cur)
            pl[i, 2] = float(self.taken[q])
            pl[i, 3] = pts[q][0] / 65
            pl[i, 4:17] = np.array(self.coll[q][1:], np.float32) / 13
            pl[i, 17] = float(q in getattr(self, "queue", []))  # still to choose in the final phase
            pl[i, 18] = float(q == self.last_taker)  # took the last slot: starts the next round
        x[L["players"]] = pl.ravel()
        x[L["unseen"]] = np.array(self.unseen(o)[1:], np.float32) / 13
        x[L["deck_size"].start] = len(self.deck) / 91
        x[L["discard"]] = np.array(self.discard[1:], np.float32) / 13
        x[L["num_players"].start + n - 2] = 1
        x[L["variants"].start] = float(any(k != "conductor" for k in self.kinds))
        x[L["variants"].start + 1] = float(uncertain)
        return x


CROSS_CONFIGS = [
    (2, (), False),
    (2, ("take_now", "pass_left"), True),
    (3, 3, False),
    (3, ("pass_left", "discard_one", "discard_own"), False),
    (4, ("discard_own", "draw_one", "discard_one", "max_two"), True),
    (5, 5, False),
    (6, ACTION_KINDS, True),
    (6, (), False),
]


@pytest.mark.parametrize("n,action_cards,uncertain", CROSS_CONFIGS)
def test_random_games_match_reference_model(n, action_cards, uncertain):
    """Masks, acting agent, phase, every observation block, views, infos and terminal rewards
    agree with the reference model on random games."""
    for game in range(4 if n <= 3 else 2):
        rng = random.Random(1000 * n + game)
        cards = spec_deck(n)
        rng.shuffle(cards)
        start = rng.randrange(n)
        env = audition_v0.raw_env(
            num_players=n, action_cards=action_cards, uncertain_counts=uncertain
        )
        env.reset(seed=game, options={"deck": cards, "start": start})
        L = env.observation_layout
        kinds = [s.kind for s in env.player_view("player_0").slots]
        if not isinstance(action_cards, int):
            assert kinds == list(action_cards) + ["conductor"] * (n - len(action_cards))
        ref = Ref(n, kinds, cards, start, uncertain)
        draw_bias = rng.choice([0.5, 0.8, 0.95])
        steps = 0
        while ref.phase != "over":
            agent = f"player_{ref.cur}"
            assert env.agent_selection == agent
            assert env.infos[agent] == {} and env.results()["phase"] == ref.phase
            legal = ref.legal()
            assert legal, "the acting agent always has a legal move"
            for p in range(n):
                ob = env.observe(f"player_{p}")
                m = ob["action_mask"]
                assert m.dtype == np.int8 and m.shape == (27,)
                if p == ref.cur:
                    assert sorted(np.flatnonzero(m).tolist()) == legal, (ref.phase, legal)
                else:
                    assert not m.any()
                o = ob["observation"]
                assert o.dtype == np.float32 and o.shape == (321,)
                assert o.min() >= 0.0 and o.max() <= 1.0
                np.testing.assert_allclose(o, ref.expected_obs(p, L, uncertain), atol=1e-6)
            if steps % 7 == 0:
                v = env.player_view(agent)
                assert v.collections == tuple(tuple(c) for c in ref.coll)
                assert list(v.unseen) == ref.unseen(ref.cur)
                assert tuple(v.legal_actions) == tuple(legal)
                assert v.scores == tuple(pq[0] for pq in ref.points())
            a = DRAW if DRAW in legal and rng.random() < draw_bias else rng.choice(legal)
            env.step(a)
            ref.step(a)
            steps += 1
        assert all(env.terminations.values())
        win = ref.winners()
        exp = spec_win_reward(n, win)
        results = env.results()
        assert results["winners"] == [f"player_{q}" for q in win]
        assert results["scores"] == {f"player_{q}": ref.points()[q][0] for q in range(n)}
        assert results["phase"] == "over" and results["over"]
        for p in range(n):
            a = f"player_{p}"
            assert env._cumulative_rewards[a] == pytest.approx(exp[p])
            assert results["returns"][a] == pytest.approx(exp[p])
            assert env.infos[a] == {}
        # card conservation: every card is somewhere
        total = sum(map(sum, ref.coll)) + sum(ref.discard) + sum(len(s) for s in ref.slots)
        assert total + len(ref.deck) + len(ref.removed) == DECK_SIZE[n]


def test_every_masked_out_action_is_rejected_and_every_masked_in_accepted():
    rng = random.Random(3)
    cards = spec_deck(3)
    rng.shuffle(cards)
    env = audition_v0.raw_env(num_players=3, action_cards=ACTION_KINDS[:3])
    env.reset(seed=0, options={"deck": cards, "start": 0})
    checked = 0
    while not all(env.terminations.values()):
        mask = env.observe(env.agent_selection)["action_mask"]
        if checked < 20:
            for a in range(27):
                probe = copy.deepcopy(env)
                if mask[a]:
                    probe.step(a)
                else:
                    with pytest.raises(R.IllegalActionError):
                        probe.step(a)
                    # state unchanged after a rejected action
                    assert probe.agent_selection == env.agent_selection
                    np.testing.assert_array_equal(
                        probe.observe(probe.agent_selection)["action_mask"], mask
                    )
            checked += 1
        env.step(int(rng.choice(np.flatnonzero(mask).tolist())))


def test_wrapped_env_illegal_move_terminates_with_penalty():
    env = audition_v0.env(num_players=2)
    env.reset(seed=0, options={"deck": spec_deck(2), "start": 0})
    env.step(TAKE(0))  # slot 0 empty: illegal
    assert all(env.terminations.values())
    assert env.rewards["player_0"] == -1


# ============================================================================ more API checks


def test_action_id_layout_extremes_6p():
    """TAKE 5 = id 5, PLACE 5 = id 12, CHOOSE 13 = id 26 (6 players, number 13 in play)."""
    kinds = ["max_two", "take_now", "discard_one", "discard_own", "draw_one", "pass_left"]
    g = G(n=6, action_cards=kinds, top=[13, 1], start=0)
    g.step(DRAW)
    assert g.legal() == {7, 8, 9, 10, 11, 12}
    g.step(12)  # PLACE on slot 5 (pass_left)
    assert g.cur == 1 and 5 in g.legal()
    g.step(5)  # TAKE slot 5
    assert g.phase() == "pass_left" and g.legal() == {26}
    g.step(26)  # CHOOSE 13
    assert g.coll(2)[13] == 1 and g.coll(1)[13] == 0


def test_discard_one_is_asked_even_with_a_single_possible_number():
    g = G(n=2, action_cards=["discard_one"], top=[5, 5], start=0)
    g.draw_place(0)
    g.draw_place(0)  # seat 1 places the second 5
    g.take(0)  # seat 0 takes {5, 5}
    assert g.cur == 0 and g.phase() == "discard_one" and g.legal() == {CHOOSE(5)}
    g.choose(5)
    assert g.coll(0)[5] == 1 and g.view(1).discard[5] == 1


def test_start_seat_and_action_card_slots_are_random_without_options():
    starts, layouts = set(), set()
    env = audition_v0.raw_env(num_players=3, action_cards=2)
    for seed in range(40):
        env.reset(seed=seed)
        starts.add(env.agent_selection)
        layouts.add(tuple(s.kind != "conductor" for s in env.player_view("player_0").slots))
    assert starts == {"player_0", "player_1", "player_2"}
    assert len(layouts) == 3  # the action cards are not always on slots 0, 1


def test_same_seed_same_actions_same_trajectory_and_pickle_restores_exactly():
    import pickle

    def run(env, actions=None, k=120):
        out, acts = [], []
        rng = random.Random(9)
        for t in range(k):
            if all(env.terminations.values()):
                break
            mask = env.observe(env.agent_selection)["action_mask"]
            a = actions[t] if actions else rng.choice(np.flatnonzero(mask).tolist())
            acts.append(a)
            env.step(a)
            out.append(np.concatenate([env.observe(x)["observation"] for x in env.possible_agents]))
        return out, acts

    kw = dict(num_players=4, action_cards=4, uncertain_counts=True)
    a, b = audition_v0.raw_env(**kw), audition_v0.raw_env(**kw)
    a.reset(seed=123)
    b.reset(seed=123)
    oa, acts = run(a, k=40)
    ob, _ = run(b, acts, k=40)
    for x, y in zip(oa, ob, strict=True):
        np.testing.assert_array_equal(x, y)
    c = pickle.loads(pickle.dumps(a))
    rest_a, acts2 = run(a, k=200)
    rest_c, _ = run(c, acts2, k=len(acts2))
    for x, y in zip(rest_a, rest_c, strict=True):
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("bad_card", [1.5, "1"])
def test_fixed_deck_with_a_non_card_value_is_rejected(bad_card):
    """DISCREPANCY. Spec: the deck "must be exactly the game's cards, else ValueError";
    overview: bad input never corrupts state. ``new_game`` converts every entry with ``int()``
    before validating, so ``1.5`` (or the string ``"1"``) silently becomes musician 1 and the
    game starts as if a 1 had been given."""
    deck = spec_deck(2)
    deck[0] = bad_card  # in place of the single "1"
    env = audition_v0.raw_env(num_players=2)
    with pytest.raises(ValueError):
        env.reset(options={"deck": deck, "start": 0})
