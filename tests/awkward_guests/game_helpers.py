"""Helpers for the Awkward Guests game / env tests: hand-built cases, fixed decks, scripted play.

Hand-built cards use facts whose trading value is known (asserted when built):

* value 1 — ``together`` (names two suspects and a room; excludes no candidate);
* value 2 — ``weapon_unused`` (names the weapon's room; excludes 1 weapon of 20);
* value 3 — ``sign_absent`` (names the study; excludes 4 weapons of 20).
"""

from __future__ import annotations

import functools

import numpy as np

from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests.case.board import WALTON
from parlour.envs.awkward_guests.case.cards import Card, make_card
from parlour.envs.awkward_guests.case.case import Case, World
from parlour.envs.awkward_guests.case.solution import Solution

SOLUTION = Solution("greg", "stolen_recipe", "wrench")
SOLUTION_ACC = Solution("greg", "stolen_recipe", "wrench", "angelica", "poisoned_chalice")
WRONG = Solution("stanley", "macabre_bet", "rope")
EMPTY_WORLD = World(start_rooms={}, locations={}, route=(), box_truths={})

_STAFF = WALTON.staff
_PAIRS = [(a, b) for i, a in enumerate(WALTON.suspects) for b in WALTON.suspects[i + 1 :]]
_ROOMS = [r for r in WALTON.rooms if r != "study"]


def v1(cid: int, a: str = "angelica", b: str = "greg", room: str = "kitchen") -> Card:
    """A value-1 card naming suspects ``a``, ``b`` and ``room``."""
    a, b = sorted((a, b))
    c = make_card(
        cid,
        "butler",
        [{"type": "together", "speaker": "butler", "suspects": [a, b], "room": room}],
    )
    assert c.value == 1, c
    return c


def v2(cid: int, weapon: str = "frying_pan") -> Card:
    """A value-2 card naming the weapon's room (``frying_pan``: the kitchen)."""
    c = make_card(cid, "cook", [{"type": "weapon_unused", "speaker": "cook", "weapon": weapon}])
    assert c.value == 2, c
    return c


def v3(cid: int, sign: str = "burn_marks") -> Card:
    """A value-3 card naming the study."""
    c = make_card(cid, "police", [{"type": "sign_absent", "speaker": "police", "sign": sign}])
    assert c.value == 3, c
    return c


def filler(cid: int) -> Card:
    """A value-1 card about two suspects and a room, varied by id (for padding decks)."""
    a, b = _PAIRS[cid % len(_PAIRS)]
    return v1(cid, a, b, _ROOMS[(cid // len(_PAIRS)) % len(_ROOMS)])


def make_case(cards: list[Card], level: str = "easy", solution: Solution | None = None) -> Case:
    """A hand-built case (not validated: the engine never reads the world)."""
    if solution is None:
        solution = SOLUTION_ACC if level in ("medium", "hard", "very_hard", "expert") else SOLUTION
    return Case(level=level, seed=None, solution=solution, world=EMPTY_WORLD, cards=tuple(cards))


def padded_case(special: list[Card], total: int = 40, level: str = "easy", solution=None) -> Case:
    """``special`` cards plus filler cards up to ``total`` (filler ids follow the special ones)."""
    ids = {c.id for c in special}
    cards = list(special)
    cid = 0
    while len(cards) < total:
        if cid not in ids:
            cards.append(filler(cid))
        cid += 1
    return make_case(cards, level, solution)


def deal_deck(case: Case, hands: list[list[int]], top: list[int] | None = None) -> list[int]:
    """A deck order (card ids, top first) that deals ``hands[p]`` (6 ids each) to seat ``p``,
    then has ``top`` on top of the remaining deck, then every other card in id order."""
    deck: list[int] = []
    for h in hands:
        assert len(h) == G.HAND_SIZE, h
        deck += h
    deck += list(top or [])
    rest = sorted(c.id for c in case.cards if c.id not in set(deck))
    out = deck + rest
    assert sorted(out) == sorted(c.id for c in case.cards)
    return out


def game(
    case: Case,
    num_players: int,
    hands: list[list[int]] | None = None,
    top: list[int] | None = None,
    start: int = 0,
    max_rounds: int = G.DEFAULT_MAX_ROUNDS,
    seed: int = 0,
) -> G.GuestsState:
    deck = deal_deck(case, hands, top) if hands is not None else None
    return G.new_game(
        G.GuestsConfig(num_players, max_rounds),
        case,
        np.random.default_rng(seed),
        deck=deck,
        start=start,
    )


def slot(state: G.GuestsState, seat: int, card_id: int) -> int:
    """The CARD action of a card id in ``seat``'s hand."""
    return A.CARD_0 + state.hand_ids(seat).index(card_id)


def ask(state: G.GuestsState, *refs: str) -> None:
    for r in refs:
        state.apply(A.ref_action(r))


def accuse(state: G.GuestsState, solution: Solution) -> None:
    """The current player accuses ``solution`` (YES and every accusation step)."""
    state.apply(A.YES)
    for a in G.accusation_actions(solution, state.tables.accomplice_possible):
        state.apply(a)


def seen_ids(state: G.GuestsState, seat: int) -> set[int]:
    return {state.card_id(k) for k in np.flatnonzero(state.seen[seat])}


def all_card_ids(state: G.GuestsState) -> list[int]:
    ids = state.tables.ids
    out = [ids[k] for h in state.hands for k in h]
    out += [ids[k] for k in state.deck + state.discard + state.revealed + state.table]
    return sorted(out)


def go_on_until_discard(state: G.GuestsState) -> None:
    """Everybody says NO in the Solution phase (the state must be in it)."""
    while state.decision == G.D_SOLUTION:
        state.apply(A.NO)


def pass_turn(state: G.GuestsState) -> None:
    """The active player asks the first free refs; everybody offers nothing; decline all."""
    need = state.config.refs_per_inquiry
    while state.decision == G.D_INQUIRY and len(state.asked) < need:
        state.apply(state.legal_actions()[0])
    while state.decision in (G.D_OFFER, G.D_ANSWER):
        state.apply(A.NO)


def random_policy(rng: np.random.Generator, no_accuse: bool = False):
    def pick(state: G.GuestsState) -> int:
        legal = state.legal_actions()
        if no_accuse and state.decision == G.D_SOLUTION:
            return A.NO
        return int(legal[int(rng.integers(len(legal)))])

    return pick


@functools.cache
def generated_case(level: str, seed: int, deck_size: int = 70):
    """A generated case, cached per process (generation takes tens of ms)."""
    from parlour.envs.awkward_guests import generate_case

    return generate_case(level, seed, deck_size)
