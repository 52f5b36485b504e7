"""An independent review suite for the Awkward Guests game engine and environments.

Written against ``shared/spec/awkward_guests.md`` (§5 play rules and rulings, §6 env spec),
``shared/spec/overview.md`` (env conventions) and the Dutch rules, without reusing the
implementation's own test helpers. Three kinds of checks:

* scripted scenarios on hand-built cases with fixed deck orders (exact expected outcomes);
* a lock-step cross-check against a small **reference model of the rules written here from the
  spec** (a coroutine that yields every decision with its legal set), driven by random play on
  generated cases of every player count, with the engine's reshuffle randomness routed through a
  controlled generator so both sides shuffle identically;
* information-leak checks: perturbing everything an agent has not seen (other hands, the deck,
  the discard pile, the solution) must leave its observation, ``player_view`` and the rendered
  table unchanged; a pending accusation never shows to anybody else.

Where the spec is silent the engine's documented rulings (``game.py`` docstring) are accepted:
the hand cap of 32, solo bottom-of-deck order (non-matching cards in the order looked at, declined
bid cards sorted by id), truncation after the Solution phase of round ``max_rounds``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import math

import numpy as np
import pytest

from parlour.envs import awkward_guests_v0
from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests.case import Case, Solution, World, make_card
from parlour.envs.awkward_guests.observation import ObservationEncoder
from parlour.envs.awkward_guests.render import render_table
from parlour.envs.awkward_guests.view import make_view

# ============================================================================ spec constants
# (copied from the spec tables, not from the implementation)

SUSPECTS = ["angelica", "berwick", "claudette", "greg", "mortimer", "stanley"]
MOTIVES = [
    ("angelica", "poisoned_chalice"),
    ("angelica", "extreme_principles"),
    ("angelica", "sinister_plans"),
    ("berwick", "family_vendetta"),
    ("berwick", "social_undermining"),
    ("berwick", "excessive_ambition"),
    ("claudette", "exposed_fraud"),
    ("claudette", "fatal_rejection"),
    ("claudette", "unforeseen_business"),
    ("greg", "stolen_recipe"),
    ("greg", "fixed_fights"),
    ("greg", "animal_cruelty"),
    ("mortimer", "broken_dreams"),
    ("mortimer", "pirated_idea"),
    ("mortimer", "child_neglect"),
    ("stanley", "macabre_bet"),
    ("stanley", "fraternity_hazing"),
    ("stanley", "fake_identity"),
]
MOTIVE_IDS = [m for _, m in MOTIVES]
ROOMS = [
    "study",
    "garage",
    "trophy_room",
    "bedroom",
    "kitchen",
    "shed",
    "billiard_room",
    "vestibule",
    "living_room",
    "library",
]
REFS = SUSPECTS + ROOMS
WEAPONS = [
    "wrench",
    "frying_pan",
    "shovel",
    "cue",
    "shotgun",
    "derringer",
    "revolver",
    "blunderbuss",
    "kitchen_knife",
    "letter_opener",
    "machete",
    "saber",
    "antifreeze",
    "rat_poison",
    "pesticide",
    "poisonous_plant",
    "leather_strap",
    "pillow",
    "rope",
    "curtain_cord",
]
FACT_TYPES = [
    "sign_absent",
    "weapon_unused",
    "passage_unused",
    "seen_before",
    "seen_at_murder",
    "guest_count",
    "claim",
    "testimony",
    "evidence",
    "together",
    "apart",
    "alone",
]
PHASES = ["inquiry", "offer", "exchange", "solution", "discard", "over"]
ACCOMPLICE_LEVELS = {"medium", "hard", "very_hard", "expert"}

# action layout (§6)
REF0, CARD0, YES, NO, SUS0, MOT0, WEA0, NOACC, NACT = 0, 16, 48, 49, 50, 56, 74, 94, 95


def ref_act(r: str) -> int:
    return REF0 + REFS.index(r)


def sus_act(s: str) -> int:
    return SUS0 + SUSPECTS.index(s)


def mot_act(m: str) -> int:
    return MOT0 + MOTIVE_IDS.index(m)


def wea_act(w: str) -> int:
    return WEA0 + WEAPONS.index(w)


def motives_of(s: str) -> list[str]:
    return [m for o, m in MOTIVES if o == s]


def accusation(sol: Solution, accomplice_possible: bool) -> list[int]:
    acts = [sus_act(sol.murderer), mot_act(sol.motive), wea_act(sol.weapon)]
    if accomplice_possible:
        if sol.accomplice is None:
            acts.append(NOACC)
        else:
            acts += [sus_act(sol.accomplice), mot_act(sol.accomplice_motive)]
    return acts


# ============================================================================ hand-built cases

TRUTH = Solution("greg", "stolen_recipe", "wrench")
TRUTH_ACC = Solution("greg", "stolen_recipe", "wrench", "angelica", "poisoned_chalice")
WRONG = Solution("stanley", "macabre_bet", "rope")
WRONG_ACC = Solution("stanley", "macabre_bet", "rope", "berwick", "family_vendetta")
_PAIRS = [(a, b) for i, a in enumerate(SUSPECTS) for b in SUSPECTS[i + 1 :]]


def T(cid: int, a: str = "angelica", b: str = "greg", room: str = "kitchen"):
    """value 1: a 'together' sighting naming two suspects and a room."""
    a, b = sorted((a, b), key=SUSPECTS.index)
    c = make_card(
        cid, "butler", [{"type": "together", "speaker": "butler", "suspects": [a, b], "room": room}]
    )
    assert c.value == 1 and set(c.refs) == {a, b, room}
    return c


_WEAPON_ROOM = {
    "wrench": "garage",
    "curtain_cord": "library",
    "cue": "billiard_room",
    "saber": "vestibule",
    "frying_pan": "kitchen",
}


def W(cid: int, weapon: str = "wrench"):
    """value 2: an unused weapon, naming the weapon's room."""
    c = make_card(cid, "cook", [{"type": "weapon_unused", "speaker": "cook", "weapon": weapon}])
    assert c.value == 2 and set(c.refs) == {_WEAPON_ROOM[weapon]}
    return c


def S(cid: int, sign: str = "burn_marks"):
    """value 3: a missing sign, naming the study."""
    c = make_card(cid, "police", [{"type": "sign_absent", "speaker": "police", "sign": sign}])
    assert c.value == 3 and set(c.refs) == {"study"}
    return c


def filler(cid: int):
    a, b = _PAIRS[cid % len(_PAIRS)]
    return T(cid, a, b, "kitchen")


def build_case(special: dict | None = None, total: int = 60, level: str = "easy", solution=None):
    cards = dict(special or {})
    for cid in range(total):
        if cid not in cards:
            cards[cid] = filler(cid)
    if solution is None:
        solution = TRUTH_ACC if level in ACCOMPLICE_LEVELS else TRUTH
    world = World(start_rooms={}, locations={}, route=(), box_truths={})
    return Case(
        level=level,
        seed=None,
        solution=solution,
        world=world,
        cards=tuple(cards[k] for k in sorted(cards)),
    )


def deck_for(case, hands: list[list[int]], top: list[int] = ()) -> list[int]:
    deck = [c for h in hands for c in h] + list(top)
    rest = sorted(c.id for c in case.cards if c.id not in set(deck))
    return deck + rest


def engine(case, n, deck=None, start=0, max_rounds=30, seed=0):
    return G.new_game(
        G.GuestsConfig(n, max_rounds), case, np.random.default_rng(seed), deck=deck, start=start
    )


def new_env(case, n, deck=None, start=0, max_rounds=30, seed=0, **kw):
    env = awkward_guests_v0.raw_env(num_players=n, level=case.level, max_rounds=max_rounds, **kw)
    opts = {"case": case, "start": start}
    if deck is not None:
        opts["deck"] = deck
    env.reset(seed=seed, options=opts)
    return env


def ids_seen(st, p) -> set[int]:
    return {st.tables.ids[k] for k in np.flatnonzero(st.seen[p])}


def slot_of(st, p, cid) -> int:
    return CARD0 + st.hand_ids(p).index(cid)


def legal(st) -> set[int]:
    return set(st.legal_actions())


def mask_set(st) -> set[int]:
    m = st.legal_mask()
    assert m.shape == (NACT,)
    return set(int(i) for i in np.flatnonzero(m))


NOMATCH4 = ["study", "library", "shed", "vestibule"]  # fillers name suspects + the kitchen only


def pass_turn(st, refs=NOMATCH4):
    """The active player asks references nobody can match (filler cards)."""
    k = 4 if st.num_players <= 2 else 2
    for r in refs[:k]:
        st.apply(ref_act(r))


def pass_turn_any(st):
    """The active player asks the first free references; nobody offers / every bid declined."""
    k = 4 if st.num_players <= 2 else 2
    while st.decision_name == "inquiry" and len(st.asked) < k:
        st.apply(min(legal(st)))
    while st.decision_name in ("offer", "answer"):
        st.apply(NO)


def all_no(st):
    while st.decision_name == "solution":
        st.apply(NO)


def accuse(st, sol):
    st.apply(YES)
    for a in accusation(sol, st.case.accomplice_possible):
        st.apply(a)


def env_act(env, action):
    """Step, then step(None) for every agent that is out (PettingZoo dead steps); rewards."""
    got = {a: 0.0 for a in env.possible_agents}
    env.step(action)
    for a, r in env.rewards.items():
        got[a] += r
    return got


def env_drain_dead(env):
    while env.agents and (
        env.terminations[env.agent_selection] or env.truncations[env.agent_selection]
    ):
        env.step(None)


# ============================================================================ layout / basics


def test_action_layout_matches_spec():
    assert A.NUM_ACTIONS == NACT
    assert list(A.REFERENCES) == REFS
    assert list(A.SUSPECTS) == SUSPECTS
    assert list(A.MOTIVES) == MOTIVE_IDS
    assert list(A.WEAPONS) == WEAPONS
    assert (A.CARD_0, A.YES, A.NO, A.SUSPECT_0, A.MOTIVE_0, A.WEAPON_0, A.NO_ACCOMPLICE) == (
        CARD0,
        YES,
        NO,
        SUS0,
        MOT0,
        WEA0,
        NOACC,
    )
    assert A.MAX_HAND == 32
    env = awkward_guests_v0.raw_env(num_players=3)
    assert env.action_space("player_0").n == NACT


def test_deal_in_blocks_sorted_hands_and_initial_notebooks():
    case = build_case(total=40)
    deck = [int(x) for x in np.random.default_rng(3).permutation(40)]
    st = engine(case, 3, deck=deck, start=1)
    for p in range(3):
        assert st.hand_ids(p) == sorted(deck[6 * p : 6 * p + 6])
        assert ids_seen(st, p) == set(deck[6 * p : 6 * p + 6])
    assert len(st.deck) == 40 - 18
    assert st.start == 1 and st.active == 1 and st.current_player == 1
    assert st.decision_name == "inquiry"
    # the next card drawn is deck[18]: seat 1 asks what nobody has, draws 3 from the top
    pass_turn(st)
    assert st.hand_ids(1) == sorted(deck[6:12] + deck[18:21])


def test_inquiry_two_distinct_refs_three_players_four_with_one_or_two():
    for n, k in ((1, 4), (2, 4), (3, 2), (8, 2)):
        case = build_case(total=60)
        st = engine(case, n, start=0)
        asked = []
        for i in range(k):
            assert st.decision_name == "inquiry" and st.current_player == 0
            expect = {REF0 + r for r in range(16)} - {ref_act(x) for x in asked}
            assert legal(st) == expect and mask_set(st) == expect
            asked.append(NOMATCH4[i])
            st.apply(ref_act(NOMATCH4[i]))
        # after k refs the inquiry is over (nobody matches: the turn ends with a draw)
        if n == 1:
            assert st.decision_name == "solution"
        else:
            assert st.decision_name == "inquiry" and st.active == 1 and not st.asked


def test_illegal_action_raises_and_changes_nothing():
    case = build_case(total=40)
    st = engine(case, 3)
    before = (st.hand_ids(0), list(st.deck), st.decision_name, list(st.asked))
    for bad in (CARD0, YES, 95, -1, True, 3.0, None):
        with pytest.raises(G.IllegalActionError):
            st.apply(bad)
    assert (st.hand_ids(0), list(st.deck), st.decision_name, list(st.asked)) == before
    st.apply(ref_act("study"))
    with pytest.raises(G.IllegalActionError):
        st.apply(ref_act("study"))  # the same reference twice


# ============================================================================ turn order


def test_turns_and_solution_phase_in_seat_order_from_start_player():
    case = build_case(total=70)
    st = engine(case, 4, start=2)
    actives = []
    for _ in range(4):
        assert st.decision_name == "inquiry"
        actives.append(st.active)
        pass_turn(st)
    assert actives == [2, 3, 0, 1]
    deciders = []
    while st.decision_name == "solution":
        deciders.append(st.current_player)
        st.apply(NO)
    assert deciders == [2, 3, 0, 1]
    discarders = []
    while st.decision_name == "discard":
        if st.current_player not in discarders:
            discarders.append(st.current_player)
        st.apply(min(legal(st)))
    assert discarders == [2, 3, 0, 1]
    assert st.round == 2 and st.start == 3
    actives = []
    for _ in range(4):
        actives.append(st.active)
        pass_turn(st)
    assert actives == [3, 0, 1, 2]


def test_offer_order_from_next_seat_skipping_players_without_matching_card():
    # 5 players, seat 3 starts; seat 0 holds only kitchen fillers (no match)
    hands = [
        [0, 1, 2, 3, 4, 5],
        [6, 7, 8, 9, 10, 11],
        [12, 13, 14, 15, 16, 17],
        [18, 19, 20, 21, 22, 23],
        [24, 25, 26, 27, 28, 29],
    ]
    special = {
        6: S(6),
        12: W(12, "curtain_cord"),
        24: S(24),
        25: T(25, "berwick", "mortimer", "library"),
    }
    case = build_case(special, total=70)
    st = engine(case, 5, deck=deck_for(case, hands), start=3)
    st.apply(ref_act("study"))
    st.apply(ref_act("library"))
    order = []
    while st.decision_name == "offer":
        order.append(st.current_player)
        st.apply(NO)
    assert order == [4, 1, 2]


def test_offer_order_skips_players_who_are_out():
    # everything in the deck after the deal is a study card: in round 2 everybody can offer
    special = {cid: S(cid) for cid in range(24, 70)}
    case = build_case(special, total=70)
    st = engine(case, 4, deck=list(range(70)), start=0)
    for _ in range(4):
        pass_turn(st, ["library", "shed"])  # nobody matches: everyone draws 3 study cards
    st.apply(NO)  # seat 0
    st.apply(NO)  # seat 1
    accuse(st, WRONG)  # seat 2 is out
    st.apply(NO)  # seat 3
    assert st.out == [False, False, True, False]
    while st.decision_name == "solution":
        st.apply(NO)
    while st.decision_name == "discard":
        st.apply(min(legal(st)))
    assert st.start == 1 and st.active == 1  # start moved to the next seat still in
    st.apply(ref_act("study"))
    st.apply(ref_act("library"))
    order = []
    while st.decision_name == "offer":
        order.append(st.current_player)
        st.apply(NO)
    assert order == [3, 0]


def test_offer_mask_only_cards_naming_an_asked_reference():
    hands = [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11], [12, 13, 14, 15, 16, 17]]
    special = {
        6: S(6),  # study: no match
        7: T(7, "angelica", "stanley", "kitchen"),  # names angelica: match
        8: W(8, "curtain_cord"),  # library: match
        9: T(9, "berwick", "mortimer", "library"),  # library: match
        10: W(10, "wrench"),  # garage: no match
        11: T(11, "berwick", "claudette", "shed"),  # no match
    }
    case = build_case(special, total=40)
    st = engine(case, 3, deck=deck_for(case, hands), start=0)
    st.apply(ref_act("angelica"))
    st.apply(ref_act("library"))
    # seat 1 is first (seat 0's next seat); seat 2 holds fillers naming angelica? check below
    assert st.current_player == 1 and st.decision_name == "offer"
    expect = {slot_of(st, 1, c) for c in (7, 8, 9)} | {NO}
    assert legal(st) == expect and mask_set(st) == expect
    st.apply(slot_of(st, 1, 8))
    assert legal(st) == expect - {slot_of(st, 1, 8)}
    with pytest.raises(G.IllegalActionError):
        st.apply(slot_of(st, 1, 6))


def test_bids_are_public_value_and_count_but_not_cards():
    hands = [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11], [12, 13, 14, 15, 16, 17]]
    special = {6: S(6), 7: W(7, "curtain_cord"), 12: S(12)}
    case = build_case(special, total=40)
    env = new_env(case, 3, deck=deck_for(case, hands), start=0)
    st = env.game
    st.apply(ref_act("study"))
    st.apply(ref_act("library"))
    st.apply(slot_of(st, 1, 6))
    st.apply(slot_of(st, 1, 7))
    st.apply(NO)
    assert st.current_player == 2
    lay = env.observation_layout
    for obs_seat in (0, 2):
        view = env.player_view(f"player_{obs_seat}")
        assert [(b.seat, b.value, b.count) for b in view.bids] == [(1, 5, 2)]
        assert not {6, 7} & {c.id for c in view.notebook}
        obs = env.observe(f"player_{obs_seat}")["observation"]
        players = obs[lay["players"]].reshape(8, 13)
        j = (1 - obs_seat) % 3
        assert players[j, 7] == 1.0  # bid made
        assert players[j, 8] == pytest.approx(5 / 30)
        assert players[j, 9] == pytest.approx(2 / 32)


# ============================================================================ exchange


def _exchange_case():
    hands = [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11], [12, 13, 14, 15, 16, 17]]
    special = {0: S(0), 1: S(1), 2: W(2, "wrench"), 6: S(6), 12: S(12), 13: W(13, "curtain_cord")}
    case = build_case(special, total=40)
    return case, deck_for(case, hands)


def _make_bids(st):
    st.apply(ref_act("study"))
    st.apply(ref_act("library"))
    assert st.current_player == 1
    st.apply(slot_of(st, 1, 6))
    st.apply(NO)  # bid (1, 3, 1)
    assert st.current_player == 2
    st.apply(slot_of(st, 2, 12))
    st.apply(slot_of(st, 2, 13))
    st.apply(NO)  # bid (2, 5, 2)
    assert st.current_player == 0 and st.decision_name == "answer"


def test_exchange_payment_stops_when_covered_and_trades_are_simultaneous():
    case, deck = _exchange_case()
    st = engine(case, 3, deck=deck, start=0)
    _make_bids(st)
    assert legal(st) == {YES, NO}
    st.apply(YES)  # bid of seat 1, value 3
    assert st.decision_name == "pay"
    assert legal(st) == {CARD0 + i for i in range(6)}
    st.apply(slot_of(st, 0, 2))  # value 2: owed 1
    assert st.decision_name == "pay"
    assert slot_of(st, 0, 2) not in legal(st)
    st.apply(slot_of(st, 0, 3))  # value 1: covered -> next bid
    assert st.decision_name == "answer" and st.current_player == 0
    # nothing traded yet
    assert st.hand_ids(0) == [0, 1, 2, 3, 4, 5] and 6 in st.hand_ids(1)
    assert legal(st) == {YES, NO}  # 3 + 3 + 1 + 1 = 8 >= 5
    st.apply(YES)
    st.apply(slot_of(st, 0, 0))  # 3: owed 2
    assert st.decision_name == "pay"
    st.apply(slot_of(st, 0, 1))  # 3: covered (over-payment by 1 is allowed, then stop)
    assert st.decision_name == "inquiry" and st.active == 1  # all trades done, turn over
    assert st.hand_ids(0) == [4, 5, 6, 12, 13]
    assert st.hand_ids(1) == [2, 3, 7, 8, 9, 10, 11]
    assert st.hand_ids(2) == [0, 1, 14, 15, 16, 17]
    assert {6, 12, 13} <= ids_seen(st, 0)
    assert {2, 3} <= ids_seen(st, 1) and not {0, 1, 12, 13} & ids_seen(st, 1)
    assert {0, 1} <= ids_seen(st, 2) and not {2, 3, 6} & ids_seen(st, 2)
    # "seen by" (spec §6 hand features): giver and receiver know each other saw the card
    v0 = make_view(st, 0)
    seen_by = {h.id: h.seen_by for h in v0.hand}
    assert seen_by[6] == (1,) and seen_by[12] == (2,) and seen_by[4] == ()
    v1 = make_view(st, 1)
    assert {h.id: h.seen_by for h in v1.hand}[2] == (0,)


def test_exchange_accept_a_subset_declined_bidder_keeps_cards():
    case, deck = _exchange_case()
    st = engine(case, 3, deck=deck, start=0)
    _make_bids(st)
    st.apply(NO)  # decline seat 1
    st.apply(YES)  # accept seat 2 (value 5)
    st.apply(slot_of(st, 0, 0))
    st.apply(slot_of(st, 0, 2))  # 3 + 2 = 5
    assert st.hand_ids(1) == [6, 7, 8, 9, 10, 11]
    assert not any(h.selected for h in make_view(st, 1).hand)
    assert st.hand_ids(0) == [1, 3, 4, 5, 12, 13]
    assert st.hand_ids(2) == [0, 2, 14, 15, 16, 17]
    assert 6 not in ids_seen(st, 0)


def test_yes_only_if_coverable_from_hand_without_cards_received_in_this_exchange():
    hands = [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11], [12, 13, 14, 15, 16, 17]]
    special = {6: S(6), 7: S(7), 12: W(12, "curtain_cord")}
    case = build_case(special, total=40)
    st = engine(case, 3, deck=deck_for(case, hands), start=0)  # seat 0: six value-1 cards
    st.apply(ref_act("study"))
    st.apply(ref_act("library"))
    st.apply(slot_of(st, 1, 6))
    st.apply(slot_of(st, 1, 7))
    st.apply(NO)  # value 6
    st.apply(slot_of(st, 2, 12))
    st.apply(NO)  # value 2
    assert legal(st) == {YES, NO}
    st.apply(YES)
    for _ in range(6):
        assert st.decision_name == "pay"
        st.apply(min(legal(st)))
    # the second bid cannot be covered any more: the two study cards (value 6) being received
    # in this exchange do not count
    assert st.decision_name == "answer"
    assert legal(st) == {NO} and mask_set(st) == {NO}
    with pytest.raises(G.IllegalActionError):
        st.apply(YES)


def test_bid_above_hand_value_cannot_be_accepted():
    hands = [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11], [12, 13, 14, 15, 16, 17]]
    special = {6: S(6), 7: S(7), 8: S(8)}
    case = build_case(special, total=40)
    st = engine(case, 3, deck=deck_for(case, hands), start=0)
    st.apply(ref_act("study"))
    st.apply(ref_act("library"))
    for c in (6, 7, 8):
        st.apply(slot_of(st, 1, c))
    st.apply(NO)  # value 9 > 6
    assert legal(st) == {NO}


def test_nobody_offers_active_draws_three():
    case = build_case(total=60)
    deck = list(range(60))
    st = engine(case, 3, deck=deck, start=0)
    pass_turn(st)
    assert st.hand_ids(0) == sorted(list(range(6)) + [18, 19, 20])
    assert ids_seen(st, 0) == set(range(6)) | {18, 19, 20}
    pass_turn(st)
    assert st.hand_ids(1) == sorted(list(range(6, 12)) + [21, 22, 23])
    assert len(st.discard) == 0 and len(st.deck) == 60 - 24


def test_two_players_no_offer_draw_two_note_and_discard():
    case = build_case(total=40)
    st = engine(case, 2, deck=list(range(40)), start=0)
    pass_turn(st)
    assert st.hand_ids(0) == list(range(6))
    assert {12, 13} <= ids_seen(st, 0) and not {12, 13} & ids_seen(st, 1)
    assert sorted(st.tables.ids[k] for k in st.discard) == [12, 13]
    assert len(st.deck) == 40 - 14


def test_two_players_received_cards_read_noted_and_discarded_both_ways():
    hands = [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11]]
    special = {0: S(0), 6: S(6)}
    case = build_case(special, total=40)
    st = engine(case, 2, deck=deck_for(case, hands), start=0)
    for r in ("study", "library", "billiard_room", "vestibule"):
        st.apply(ref_act(r))
    assert st.current_player == 1 and st.decision_name == "offer"
    st.apply(slot_of(st, 1, 6))
    st.apply(NO)
    st.apply(YES)
    st.apply(slot_of(st, 0, 0))  # value 3 covers 3
    assert st.hand_ids(0) == [1, 2, 3, 4, 5]
    assert st.hand_ids(1) == [7, 8, 9, 10, 11]
    assert 6 in ids_seen(st, 0) and 0 in ids_seen(st, 1)
    assert sorted(st.tables.ids[k] for k in st.discard) == [0, 6]


# ============================================================================ Solution phase


def test_accusation_masks_easy_no_accomplice_step():
    case = build_case(total=70, level="easy")
    st = engine(case, 3, start=0)
    for _ in range(3):
        pass_turn(st)
    assert st.decision_name == "solution" and st.current_player == 0
    assert legal(st) == {YES, NO}
    st.apply(YES)
    assert mask_set(st) == {SUS0 + i for i in range(6)}
    st.apply(sus_act("greg"))
    assert mask_set(st) == {mot_act(m) for m in motives_of("greg")}
    st.apply(mot_act("fixed_fights"))
    assert mask_set(st) == {WEA0 + i for i in range(20)}
    st.apply(wea_act("rope"))
    # no accomplice question below medium: the next player decides
    assert st.decision_name == "solution" and st.current_player == 1


def test_accusation_masks_medium_accomplice_never_the_murderer():
    case = build_case(total=70, level="medium")
    st = engine(case, 3, start=0)
    for _ in range(3):
        pass_turn(st)
    st.apply(YES)
    st.apply(sus_act("greg"))
    st.apply(mot_act("stolen_recipe"))
    st.apply(wea_act("wrench"))
    assert mask_set(st) == {SUS0 + i for i in range(6) if SUSPECTS[i] != "greg"} | {NOACC}
    st.apply(sus_act("angelica"))
    assert mask_set(st) == {mot_act(m) for m in motives_of("angelica")}
    st.apply(mot_act("poisoned_chalice"))
    assert st.current_player == 1 and st.decision_name == "solution"
    st.apply(YES)
    st.apply(sus_act("berwick"))
    st.apply(mot_act("family_vendetta"))
    st.apply(wea_act("rope"))
    st.apply(NOACC)
    assert st.current_player == 2 and st.decision_name == "solution"
    st.apply(NO)
    assert st.result == "win" and st.winners == [0]


def _pass_round_env(env):
    st = env.game
    for _ in range(len(st.remaining)):
        pass_turn(st)
    env.agent_selection = f"player_{st.current_player}"  # we drove the engine directly


def test_correct_accusers_share_the_win_rewards_and_results():
    case = build_case(total=70)
    env = new_env(case, 3, start=0)
    _pass_round_env(env)
    tot = {a: 0.0 for a in env.possible_agents}
    for step in [YES, *accusation(TRUTH, False), NO, YES, *accusation(TRUTH, False)]:
        for a, r in env_act(env, step).items():
            tot[a] += r
    assert env.game.result == "win" and env.game.winners == [0, 2]
    assert tot == pytest.approx({"player_0": 0.25, "player_1": -0.5, "player_2": 0.25})
    assert all(env.terminations.values()) and not any(env.truncations.values())
    results = env.results()
    assert results["scores"] == {"player_0": 1, "player_1": 0, "player_2": 1}
    assert results["winners"] == ["player_0", "player_2"] and results["result"] == "win"
    assert results["returns"] == pytest.approx(tot)
    assert results["solved"] == {"player_0": True, "player_1": False, "player_2": True}
    assert all(env.infos[a] == {} for a in env.agents)
    assert sum(tot.values()) == pytest.approx(0.0)


def test_wrong_accuser_out_final_reward_fixed_hand_revealed_new_phase_at_once():
    case = build_case(total=70)
    env = new_env(case, 3, start=0)
    st = env.game
    _pass_round_env(env)
    hand0 = st.hand_ids(0)
    assert len(hand0) == 9
    for a in [YES, *accusation(WRONG, False)]:
        env_act(env, a)
    env_act(env, NO)  # seat 1
    r = env_act(env, NO)  # seat 2: the phase resolves
    assert st.out == [True, False, False]
    # out: its -1/(n-1) is final now (results) and paid when the game ends; it stays an agent
    assert env.results()["out"] == {"player_0": True, "player_1": False, "player_2": False}
    assert env.results()["returns"]["player_0"] == pytest.approx(-0.5)
    assert r == {"player_0": 0, "player_1": 0, "player_2": 0}
    assert env.agents == env.possible_agents and not any(env.terminations.values())
    assert st.hand_ids(0) == []
    revealed = sorted(st.tables.ids[k] for k in st.revealed)
    assert revealed == sorted(hand0)
    for p in (1, 2):
        assert set(hand0) <= ids_seen(st, p)
        assert set(hand0) <= {c.id for c in env.player_view(f"player_{p}").notebook}
    # a new Solution phase at once, for those left, from the start player on
    assert st.decision_name == "solution" and st.current_player == 1
    assert env.agent_selection == "player_1"
    env_act(env, NO)
    env_act(env, NO)
    assert st.decision_name == "discard"
    while st.decision_name == "discard":
        env_act(env, min(legal(st)))
    assert st.start == 1 and st.round == 2


def test_last_player_left_wins_two_players():
    case = build_case(total=40)
    env = new_env(case, 2, start=0)
    _pass_round_env(env)
    tot = {a: 0.0 for a in env.possible_agents}
    for step in [YES, *accusation(WRONG, False), NO]:
        for a, r in env_act(env, step).items():
            tot[a] += r
    assert env.game.result == "win" and env.game.winners == [1]
    assert tot == pytest.approx({"player_0": -1.0, "player_1": 1.0})


def test_last_player_left_wins_three_players_two_wrong_at_once():
    case = build_case(total=70)
    env = new_env(case, 3, start=0)
    _pass_round_env(env)
    tot = {a: 0.0 for a in env.possible_agents}
    for step in [YES, *accusation(WRONG, False), YES, *accusation(WRONG, False), NO]:
        for a, r in env_act(env, step).items():
            tot[a] += r
    assert env.game.winners == [2]
    assert tot == pytest.approx({"player_0": -0.5, "player_1": -0.5, "player_2": 1.0})


def test_everyone_left_wrong_no_winner_draw_rewards():
    case = build_case(total=70)
    env = new_env(case, 3, start=0)
    st = env.game
    _pass_round_env(env)
    tot = {a: 0.0 for a in env.possible_agents}
    steps = [YES, *accusation(WRONG, False), NO, NO]
    for s in steps:
        for a, r in env_act(env, s).items():
            tot[a] += r
    for s in [YES, *accusation(WRONG, False), YES, *accusation(WRONG, False)]:
        for a, r in env_act(env, s).items():
            tot[a] += r
    assert st.is_terminal and st.winners == []
    # k = 1 out, m = 2 left: each gets 1 / (2 * 2)
    assert tot == pytest.approx({"player_0": -0.5, "player_1": 0.25, "player_2": 0.25})
    assert env.agents == env.possible_agents
    for a in env.agents:
        assert env.terminations[a] and not env.truncations[a]
    results = env.results()
    assert results["winners"] == [] and results["result"] == "draw"
    assert results["scores"] == {"player_0": 0, "player_1": 0, "player_2": 0}
    assert results["returns"] == pytest.approx(tot)


def test_everyone_wrong_two_players_is_zero_each():
    case = build_case(total=40)
    env = new_env(case, 2, start=1)
    _pass_round_env(env)
    tot = {a: 0.0 for a in env.possible_agents}
    for s in [YES, *accusation(WRONG, False), YES, *accusation(WRONG, False)]:
        for a, r in env_act(env, s).items():
            tot[a] += r
    assert env.game.winners == []
    assert tot == pytest.approx({"player_0": 0.0, "player_1": 0.0})


# ============================================================================ discard / refill / deck


def test_discard_to_three_start_moves_refill_from_new_start_in_seat_order():
    case = build_case(total=60)
    st = engine(case, 3, deck=list(range(60)), start=0)
    for _ in range(3):
        pass_turn(st)
    all_no(st)
    order = []
    while st.decision_name == "discard":
        p = st.current_player
        if p not in order:
            order.append(p)
        v = make_view(st, p)
        assert v.to_discard == len(v.hand) - sum(h.selected for h in v.hand) - 3
        st.apply(min(legal(st)))
    assert order == [0, 1, 2]
    assert sorted(st.tables.ids[k] for k in st.discard) == list(range(18))
    assert st.start == 1
    assert st.hand_ids(1) == [21, 22, 23, 27, 28, 29]
    assert st.hand_ids(2) == [24, 25, 26, 30, 31, 32]
    assert st.hand_ids(0) == [18, 19, 20, 33, 34, 35]
    assert st.active == 1 and st.decision_name == "inquiry"


def test_empty_deck_reshuffle_reveals_top_three_to_everyone():
    case = build_case(total=24)
    st = engine(case, 3, deck=list(range(24)), start=0, seed=5)
    pass_turn(st)  # seat 0 draws 18..20
    pass_turn(st)  # seat 1 draws 21..23
    pass_turn(st)  # seat 2: the deck is empty and so is the discard pile: nothing to draw
    assert st.hand_ids(2) == list(range(12, 18)) and not st.revealed
    all_no(st)
    while st.decision_name == "discard":
        st.apply(min(legal(st)))
    discarded = set(range(0, 15))
    revealed = [st.tables.ids[k] for k in st.revealed]
    assert len(revealed) == 3 and set(revealed) <= discarded
    for p in range(3):
        assert set(revealed) <= ids_seen(st, p)
        assert len(st.hand_ids(p)) == 6
        assert not set(revealed) & set(st.hand_ids(p))
    assert len(st.deck) == 15 - 3 - 9
    new = set(st.hand_ids(0) + st.hand_ids(1) + st.hand_ids(2)) - set(range(15, 24))
    assert new <= discarded - set(revealed) and len(new) == 9


def test_no_cards_anywhere_hands_stay_short():
    # 8 players and 24 cards: seats 4..7 get nothing at the deal, nothing breaks
    case = build_case(total=24)
    st = engine(case, 8, deck=list(range(24)), start=0)
    assert [len(st.hand_ids(p)) for p in range(8)] == [6, 6, 6, 6, 0, 0, 0, 0]
    pass_turn(st)
    assert len(st.hand_ids(0)) == 6


# ============================================================================ round limit


def test_round_limit_truncates_with_zero_rewards_when_nobody_is_out():
    case = build_case(total=70)
    env = new_env(case, 3, start=0, max_rounds=2)
    st = env.game
    tot = {a: 0.0 for a in env.possible_agents}
    while not st.is_terminal:
        if st.decision_name == "inquiry":
            for r in NOMATCH4[:2]:
                env_act(env, ref_act(r))
            continue
        for a, r in env_act(env, NO if st.decision_name == "solution" else min(legal(st))).items():
            tot[a] += r
    assert st.round == 2
    assert all(env.truncations[a] for a in env.possible_agents)
    assert tot == pytest.approx({a: 0.0 for a in env.possible_agents})
    results = env.results()
    assert results["winners"] == [] and set(results["scores"].values()) == {0}
    assert results["result"] == "truncated" and results["rounds"] == 2


def test_round_limit_truncation_is_a_draw_among_players_still_in():
    case = build_case(total=70)
    env = new_env(case, 4, start=0, max_rounds=1)
    st = env.game
    _pass_round_env(env)
    tot = {a: 0.0 for a in env.possible_agents}
    for s in [YES, *accusation(WRONG, False), NO, NO, NO]:
        for a, r in env_act(env, s).items():
            tot[a] += r
    for _ in range(3):
        for a, r in env_act(env, NO).items():
            tot[a] += r
    assert st.result == "truncated"
    # the three still in are truncated; the one out terminates with them (its loss is final)
    assert len(env.agents) == 4 and env.terminations["player_0"]
    assert not env.truncations["player_0"]
    assert all(env.truncations[a] and not env.terminations[a] for a in env.agents[1:])
    # n = 4, k = 1, m = 3: -1/3 for the one out, 1/(3*3) for each of the others
    assert tot == pytest.approx(
        {"player_0": -1 / 3, "player_1": 1 / 9, "player_2": 1 / 9, "player_3": 1 / 9}
    )


# ============================================================================ solo


def _solo_case():
    special = {6: S(6), 8: W(8, "curtain_cord")}
    return build_case(special, total=60)


SOLO_ASK = ["study", "library", "billiard_room", "vestibule"]


def test_solo_top_five_matching_cards_form_one_bid_others_to_the_bottom_accept():
    case = _solo_case()
    st = engine(case, 1, deck=list(range(60)), start=0)
    for r in SOLO_ASK:
        st.apply(ref_act(r))
    assert st.decision_name == "answer"
    v = make_view(st, 0)
    assert [(b.seat, b.value, b.count) for b in v.bids] == [(-1, 5, 2)]
    assert not {6, 8} & ids_seen(st, 0)
    ids = st.tables.ids
    bottom3 = {ids[k] for k in st.deck[:3]}  # deck lists the top card last
    assert bottom3 == {7, 9, 10}
    assert len(st.deck) == 60 - 6 - 5 + 3
    st.apply(YES)
    while st.decision_name == "pay":
        st.apply(min(legal(st)))
    assert {6, 8} <= ids_seen(st, 0)
    assert st.hand_ids(0) == [5]  # paid 5 value-1 cards
    assert sorted(ids[k] for k in st.discard) == [0, 1, 2, 3, 4, 6, 8]
    assert {ids[k] for k in st.deck[:3]} == {7, 9, 10}


def test_solo_declined_bid_cards_go_to_the_bottom_unseen():
    case = _solo_case()
    st = engine(case, 1, deck=list(range(60)), start=0)
    for r in SOLO_ASK:
        st.apply(ref_act(r))
    st.apply(NO)
    ids = st.tables.ids
    assert {ids[k] for k in st.deck[:5]} == {6, 7, 8, 9, 10}
    assert not {6, 8} & ids_seen(st, 0)
    assert st.hand_ids(0) == list(range(6)) and not st.discard
    assert len(st.deck) == 60 - 6


def test_solo_no_matching_card_draw_two_note_discard():
    case = build_case(total=60)
    st = engine(case, 1, deck=list(range(60)), start=0)
    pass_turn(st)
    ids = st.tables.ids
    assert {ids[k] for k in st.deck[:5]} == {6, 7, 8, 9, 10}
    assert sorted(ids[k] for k in st.discard) == [11, 12]
    assert {11, 12} <= ids_seen(st, 0)
    assert st.hand_ids(0) == list(range(6))
    assert st.decision_name == "solution"  # the turn is over


def _solo_gym(case, max_rounds=30):
    import gymnasium

    import parlour  # noqa: F401  (registers the env)

    env = gymnasium.make("parlour/AwkwardGuestsSolo-v0", max_rounds=max_rounds)
    env.reset(seed=0, options={"case": case, "deck": list(range(len(case.cards))), "start": 0})
    return env


def _solo_play_rounds(env, rounds, finish):
    u = env.unwrapped
    res = None
    while True:
        st = u.game
        d = st.decision_name
        if d == "inquiry":
            a = ref_act(NOMATCH4[len(st.asked)])
        elif d == "solution":
            if st.round > rounds:
                break
            a = NO
            if st.round == rounds and finish is not None:
                acts = [YES, *accusation(finish, st.case.accomplice_possible)]
                for x in acts:
                    res = env.step(x)
                return res
        else:
            a = int(np.flatnonzero(u.action_masks())[0])
        res = env.step(a)
        if res[2] or res[3]:
            return res
    return res


@pytest.mark.parametrize("rounds", [1, 3])
def test_solo_correct_reward_one_minus_penalty_per_round(rounds):
    env = _solo_gym(build_case(total=60))
    obs, r, term, trunc, info = _solo_play_rounds(env, rounds, TRUTH)
    assert term and not trunc
    assert r == pytest.approx(1 - 0.01 * rounds)


def test_solo_wrong_accusation_minus_one_and_ends():
    env = _solo_gym(build_case(total=60))
    obs, r, term, trunc, info = _solo_play_rounds(env, 2, WRONG)
    assert term and not trunc and r == -1.0


def test_solo_truncation_zero():
    env = _solo_gym(build_case(total=60), max_rounds=2)
    obs, r, term, trunc, info = _solo_play_rounds(env, 5, None)
    assert trunc and not term and r == 0.0
    assert env.unwrapped.game.round == 2


def test_solo_gym_contract_masks_illegal_action_and_seeding():
    import gymnasium

    import parlour  # noqa: F401

    env = gymnasium.make("parlour/AwkwardGuestsSolo-v0")
    obs, info = env.reset(seed=11)
    assert env.observation_space.contains(obs)
    u = env.unwrapped
    assert u.game.rng is u.np_random  # reset hands self.np_random to the engine
    m = env.get_wrapper_attr("action_masks")()
    assert m.dtype == bool and m.shape == (NACT,)
    assert set(np.flatnonzero(m)) == set(u.game.legal_actions())
    assert np.array_equal(m, u.action_masks())
    illegal = int(np.flatnonzero(~m)[0])
    obs, r, term, trunc, info = env.step(illegal)
    assert r == -1.0 and term and not trunc

    def traj(seed):
        e = gymnasium.make("parlour/AwkwardGuestsSolo-v0", max_rounds=3)
        o, _ = e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        out = [o]
        while True:
            mm = e.unwrapped.action_masks()
            a = int(rng.choice(np.flatnonzero(mm)))
            if mm[NO] and e.unwrapped.game.decision_name == "solution":
                a = NO
            o, r, te, tr, _ = e.step(a)
            out.append(o)
            if te or tr:
                return out, r

    t1, r1 = traj(4)
    t2, r2 = traj(4)
    assert (
        r1 == r2
        and len(t1) == len(t2)
        and all(np.array_equal(a, b) for a, b in zip(t1, t2, strict=True))
    )


def test_solo_gym_check_env():
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    import parlour  # noqa: F401

    env = gymnasium.make("parlour/AwkwardGuestsSolo-v0", max_rounds=3)
    check_env(env.unwrapped, skip_render_check=True)


# ============================================================================ reference model


class RefGame:
    """The rules of spec §5 written independently, as a coroutine.

    ``run()`` yields ``(seat, decision, legal_action_set)`` and receives the action taken.
    """

    def __init__(self, case, n, deck_ids, start, max_rounds, shuffle_seed):
        self.case = case
        self.n = n
        self.val = {c.id: c.value for c in case.cards}
        self.refs = {c.id: set(c.refs) for c in case.cards}
        self.acc_possible = case.level in ACCOMPLICE_LEVELS
        self.deck = list(deck_ids)  # top first
        self.hands = [[] for _ in range(n)]
        self.sel = [[] for _ in range(n)]
        self.discard: list[int] = []
        self.revealed: list[int] = []
        self.table: list[int] = []
        self.out = [False] * n
        self.seen = [set() for _ in range(n)]
        self.known = [dict() for _ in range(n)]
        self.start = start
        self.round = 1
        self.max_rounds = max_rounds
        self.result = None
        self.winners: list[int] = []
        self.newly_out: list[int] = []
        self.bids_pub: list[tuple[int, int, int]] = []
        self.asked: list[str] = []
        self.g = np.random.default_rng(shuffle_seed)
        self.small = n <= 2
        for p in range(n):
            self.draw_to(p, 6)

    # -- helpers
    def remaining(self):
        return [p for p in range(self.n) if not self.out[p]]

    def order_from(self, s, include=True):
        ks = range(0 if include else 1, self.n)
        return [(s + k) % self.n for k in ks if not self.out[(s + k) % self.n]]

    def see(self, p, cards, who=None):
        for c in cards:
            self.seen[p].add(c)
            self.known[p].setdefault(c, set()).update({p} | set(who or ()))

    def reshuffle(self):
        if not self.discard:
            return
        pile = sorted(self.discard)
        perm = self.g.permutation(len(pile))
        order = [pile[j] for j in perm]
        self.discard = []
        shown = order[:3]
        self.revealed += shown
        for p in self.remaining():
            self.see(p, shown, range(self.n))
        self.deck = order[3:]

    def draw_one(self):
        if not self.deck:
            self.reshuffle()
            if not self.deck:
                return None
        return self.deck.pop(0)

    def draw_to(self, p, k):
        for _ in range(max(0, k)):
            c = self.draw_one()
            if c is None:
                break
            self.hands[p].append(c)
            self.hands[p].sort()
            self.see(p, [c])

    def hand_value(self, cards):
        return sum(self.val[c] for c in cards)

    # -- game
    def run(self):
        while True:
            for a in self.order_from(self.start):
                yield from self.turn(a)
            self.asked = []
            if (yield from self.solution_phase()):
                return
            if self.round >= self.max_rounds:
                self.result = "truncated"
                return
            yield from self.discard_phase()
            nxt = self.order_from(self.start, include=False)
            if nxt:
                self.start = nxt[0]
            for p in self.order_from(self.start):
                self.draw_to(p, 6 - len(self.hands[p]))
            self.round += 1

    def turn(self, a):
        self.bids_pub = []
        self.asked = []
        k = 4 if self.n <= 2 else 2
        asked_idx: list[int] = []
        while len(asked_idx) < k:
            act = yield (a, "inquiry", {r for r in range(16) if r not in asked_idx})
            asked_idx.append(act - REF0)
            self.asked.append(REFS[act - REF0])
        asked = set(self.asked)
        if self.n == 1:
            yield from self.solo_exchange(a, asked)
            self.bids_pub = []
            return
        bids = []
        for q in self.order_from(a, include=False):
            hand = self.hands[q]
            match = [c for c in hand if self.refs[c] & asked]
            if not match:
                continue
            while True:
                lg = {CARD0 + i for i, c in enumerate(hand) if c in match and c not in self.sel[q]}
                act = yield (q, "offer", lg | {NO})
                if act == NO:
                    break
                self.sel[q].append(hand[act - CARD0])
            if self.sel[q]:
                cards = sorted(self.sel[q])
                bids.append((q, cards))
                self.bids_pub.append((q, self.hand_value(cards), len(cards)))
        if not bids:
            self.no_offer_draw(a)
            self.bids_pub = []
            return
        hand = self.hands[a]
        accepted = []
        received = 0
        for q, cards in bids:
            value = self.hand_value(cards)
            avail = self.hand_value([c for c in hand if c not in self.sel[a]])
            ok = avail >= value
            if ok and not self.small:  # the documented hand-cap ruling (32)
                if len(hand) - len(self.sel[a]) - 1 + received + len(cards) > 32:
                    ok = False
                if len(self.hands[q]) - len(cards) + value > 32:
                    ok = False
            act = yield (a, "answer", {YES, NO} if ok else {NO})
            if act == YES:
                received += len(cards)
                owed, pay = value, []
                while owed > 0:
                    lg = {CARD0 + i for i, c in enumerate(hand) if c not in self.sel[a]}
                    act = yield (a, "pay", lg)
                    c = hand[act - CARD0]
                    self.sel[a].append(c)
                    pay.append(c)
                    owed -= self.val[c]
                accepted.append((q, cards, pay))
        gained = []
        for q, cards, pay in accepted:
            self.hands[q] = [c for c in self.hands[q] if c not in cards]
            self.hands[a] = [c for c in self.hands[a] if c not in pay]
            self.see(a, cards, [q])
            self.see(a, pay, [q])
            self.see(q, pay, [a])
            self.see(q, cards, [a])
            if self.small:
                self.discard += cards + pay
            else:
                gained += cards
                self.hands[q] = sorted(self.hands[q] + pay)
        self.hands[a] = sorted(self.hands[a] + gained)
        for p in range(self.n):
            self.sel[p] = []
        self.bids_pub = []

    def no_offer_draw(self, a):
        if self.small:
            drawn = []
            for _ in range(2):
                c = self.draw_one()
                if c is None:
                    break
                drawn.append(c)
            self.see(a, drawn)
            self.discard += drawn
        else:
            self.draw_to(a, min(3, 32 - len(self.hands[a])))

    def solo_exchange(self, a, asked):
        looked = []
        for _ in range(5):
            c = self.draw_one()
            if c is None:
                break
            looked.append(c)
        match = [c for c in looked if self.refs[c] & asked]
        rest = [c for c in looked if not self.refs[c] & asked]
        self.deck += rest  # bottom, in the order looked at (ruling)
        if not match:
            self.no_offer_draw(a)
            return
        self.table = sorted(match)
        value = self.hand_value(match)
        self.bids_pub = [(-1, value, len(match))]
        hand = self.hands[a]
        ok = self.hand_value(hand) >= value
        act = yield (a, "answer", {YES, NO} if ok else {NO})
        if act == YES:
            owed, pay = value, []
            while owed > 0:
                lg = {CARD0 + i for i, c in enumerate(hand) if c not in pay}
                act = yield (a, "pay", lg)
                c = hand[act - CARD0]
                self.sel[a].append(c)
                pay.append(c)
                owed -= self.val[c]
            self.see(a, match)
            self.discard += match + pay
            self.hands[a] = [c for c in hand if c not in pay]
            self.sel[a] = []
        else:
            self.deck += sorted(match)  # ruling: declined cards to the bottom (by id)
        self.table = []

    def solution_phase(self):
        truth = tuple(self.case.solution)
        while True:
            accs = {}
            for p in self.order_from(self.start):
                act = yield (p, "solution", {YES, NO})
                if act == NO:
                    continue
                m = (yield (p, "murderer", {SUS0 + i for i in range(6)})) - SUS0
                ms = SUSPECTS[m]
                mu = (yield (p, "motive", {mot_act(x) for x in motives_of(ms)})) - MOT0
                w = (yield (p, "weapon", {WEA0 + i for i in range(20)})) - WEA0
                acc = accm = None
                if self.acc_possible:
                    lg = {SUS0 + i for i in range(6) if i != m} | {NOACC}
                    x = yield (p, "accomplice", lg)
                    if x != NOACC:
                        acc = SUSPECTS[x - SUS0]
                        y = yield (p, "accomplice_motive", {mot_act(z) for z in motives_of(acc)})
                        accm = MOTIVE_IDS[y - MOT0]
                accs[p] = (ms, MOTIVE_IDS[mu], WEAPONS[w], acc, accm)
            if not accs:
                return False
            correct = sorted(p for p, s in accs.items() if s == truth)
            wrong = sorted(p for p in accs if p not in correct)
            if correct:
                self.result, self.winners = "win", correct
                return True
            if self.n == 1:
                self.result = "loss"
                return True
            if len(wrong) == len(self.remaining()):
                self.result = "draw"
                return True
            for p in wrong:
                self.out[p] = True
                self.newly_out.append(p)
            for p in wrong:
                hand, self.hands[p] = self.hands[p], []
                self.revealed += hand
                for q in self.remaining():
                    self.see(q, hand, range(self.n))
            if len(self.remaining()) == 1:
                self.result, self.winners = "win", self.remaining()
                return True

    def discard_phase(self):
        for p in self.order_from(self.start):
            hand = self.hands[p]
            if len(hand) <= 3:
                continue
            while len(hand) - len(self.sel[p]) > 3:
                lg = {CARD0 + i for i, c in enumerate(hand) if c not in self.sel[p]}
                act = yield (p, "discard", lg)
                self.sel[p].append(hand[act - CARD0])
            self.discard += self.sel[p]
            self.hands[p] = [c for c in hand if c not in self.sel[p]]
            self.sel[p] = []

    def returns(self):
        n = self.n
        if n == 1:
            if self.result == "win":
                return [1 - 0.01 * self.round]
            return [-1.0 if self.result == "loss" else 0.0]
        lose = -1 / (n - 1)
        if self.winners:
            return [
                n / ((n - 1) * len(self.winners)) + lose if p in self.winners else lose
                for p in range(n)
            ]
        k = sum(self.out)
        m = n - k
        return [lose if self.out[p] else k / ((n - 1) * m) for p in range(n)]


class ControlledRng:
    """Stands in for the engine's generator: a reshuffle puts the pile (sorted by card) in the
    order given by our own generator, so the reference model can shuffle identically."""

    def __init__(self, state, seed):
        self.game = state
        self.g = np.random.default_rng(seed)

    def permutation(self, k):
        pile = list(self.game.discard)
        assert len(pile) == k, "the engine reshuffles something other than its discard pile"
        pos = sorted(range(k), key=lambda i: pile[i])
        return np.array([pos[j] for j in self.g.permutation(k)])


@functools.cache
def gen_case(level, seed, deck_size):
    from parlour.envs.awkward_guests import generate_case

    return generate_case(level, seed, deck_size)


def _policy(rng, dec, lg, plan, truth_acts, p_accuse):
    if plan:
        return plan.pop(0)
    lg = sorted(lg)
    if dec == "solution":
        if rng.random() < p_accuse:
            if rng.random() < 0.5:
                plan[:] = truth_acts
            return YES
        return NO
    if dec == "offer":
        cards = [x for x in lg if x != NO]
        if not cards or rng.random() < 0.35:
            return NO
        return int(rng.choice(cards))
    if dec == "answer":
        return YES if YES in lg and rng.random() < 0.7 else NO
    return int(rng.choice(lg))


def _compare(st, ref, req, all_ids):
    seat, dec, lg = req
    n = ref.n
    assert st.current_player == seat, (st.current_player, req[:2])
    assert st.decision_name == dec
    assert set(st.legal_actions()) == lg, (dec, sorted(st.legal_actions()), sorted(lg))
    assert set(int(i) for i in np.flatnonzero(st.legal_mask())) == lg
    ids = st.tables.ids
    for p in range(n):
        assert st.hand_ids(p) == ref.hands[p], p
        assert ids_seen(st, p) == ref.seen[p], p
    assert [ids[k] for k in reversed(st.deck)] == ref.deck
    assert sorted(ids[k] for k in st.discard) == sorted(ref.discard)
    assert sorted(ids[k] for k in st.revealed) == sorted(ref.revealed)
    assert sorted(ids[k] for k in st.table) == sorted(ref.table)
    assert list(st.out) == ref.out
    assert st.start == ref.start and st.round == ref.round
    total = sorted(sum(ref.hands, []) + ref.deck + ref.discard + ref.revealed + ref.table)
    assert total == all_ids  # every card exactly once
    v = make_view(st, seat)
    assert [(b.seat, b.value, b.count) for b in v.bids] == ref.bids_pub
    if dec in ("inquiry", "offer", "answer", "pay"):
        assert list(v.asked) == ref.asked
    for h in v.hand:  # "known to have been seen by" other seats
        assert set(h.seen_by) == ref.known[seat].get(h.id, set()) - {seat}, h.id
        assert h.selected == (h.id in ref.sel[seat])
    assert v.hand_sizes == tuple(len(h) for h in ref.hands)


LOCKSTEP = [
    # (players, level, deck size, seed, max rounds, accusation probability)
    (1, "easy", 24, 1, 12, 0.05),
    (1, "medium", 40, 2, 8, 0.05),
    (2, "easy", 24, 3, 12, 0.04),
    (2, "medium", 70, 4, 10, 0.04),
    (3, "easy", 24, 5, 10, 0.03),
    (3, "hard", 40, 6, 10, 0.03),
    (4, "medium", 30, 7, 8, 0.03),
    (5, "beginner", 40, 8, 8, 0.03),
    (6, "easy", 24, 9, 6, 0.03),
    (7, "very_hard", 50, 10, 6, 0.03),
    (8, "medium", 24, 11, 6, 0.03),
    (8, "easy", 70, 12, 6, 0.02),
    # many (mostly wrong) accusations: solo losses, players out, games without a winner
    (1, "easy", 24, 13, 12, 0.3),
    (2, "easy", 40, 14, 10, 0.3),
    (3, "medium", 40, 15, 10, 0.25),
    (4, "easy", 24, 16, 10, 0.2),
]


@pytest.mark.parametrize("n,level,deck_size,seed,max_rounds,p_acc", LOCKSTEP)
def test_lockstep_against_reference_rules_and_rewards(n, level, deck_size, seed, max_rounds, p_acc):
    for sub in range(2):
        s = seed * 100 + sub
        case = gen_case(level, s, deck_size)
        rng = np.random.default_rng(s)
        deck = [int(x) for x in rng.permutation([c.id for c in case.cards])]
        start = int(rng.integers(n))
        env = awkward_guests_v0.raw_env(num_players=n, level=level, max_rounds=max_rounds)
        env.reset(seed=s, options={"case": case, "deck": deck, "start": start})
        st = env.game
        st.rng = ControlledRng(st, s)
        ref = RefGame(case, n, deck, start, max_rounds, s)
        all_ids = sorted(c.id for c in case.cards)
        truth_acts = accusation(case.solution, case.level in ACCOMPLICE_LEVELS)
        plan: list[int] = []
        tot = {a: 0.0 for a in env.possible_agents}
        gen = ref.run()
        req = next(gen)
        steps = 0
        while True:
            _compare(st, ref, req, all_ids)
            assert env.agent_selection == f"player_{req[0]}"
            act = _policy(rng, req[1], req[2], plan, truth_acts, p_acc)
            env.step(act)
            for a, r in env.rewards.items():
                tot[a] += r
            ref.newly_out = []
            try:
                req = gen.send(act)
            except StopIteration:
                req = None
            steps += 1
            for p in ref.newly_out:  # the loss is final at once, paid when the game ends
                a = f"player_{p}"
                assert env.results()["out"][a]
                assert env.results()["returns"][a] == pytest.approx(-1 / (n - 1))
                if req is not None:
                    assert not env.terminations[a] and env.rewards[a] == 0.0
            if req is None:
                break
            assert not st.is_terminal
            # players who are out stay agents and are never selected: no dead steps mid-game
            assert env.agents == env.possible_agents and not any(env.terminations.values())
        # game over
        assert st.is_terminal and st.result == ref.result and st.winners == ref.winners
        expect = ref.returns()
        assert st.returns() == pytest.approx(expect)
        trunc = ref.result == "truncated"
        results = env.results()
        assert env.agents == env.possible_agents
        for a in env.agents:
            out = results["out"][a]
            assert env.truncations[a] == (trunc and not out)
            assert env.terminations[a] == (not trunc or out)
            assert env.infos[a] == {}
        assert results["winners"] == [f"player_{p}" for p in ref.winners]
        assert results["scores"] == {f"player_{p}": int(p in ref.winners) for p in range(n)}
        assert results["returns"] == pytest.approx({f"player_{p}": r for p, r in enumerate(expect)})
        while env.agents:
            env.step(None)
            for a, r in env.rewards.items():
                tot[a] += r
        assert [tot[f"player_{p}"] for p in range(n)] == pytest.approx(expect)
        if n > 1:
            assert sum(tot.values()) == pytest.approx(0.0, abs=1e-9)


# ============================================================================ AEC conventions


@pytest.mark.parametrize("n,level", [(2, "easy"), (3, "medium"), (5, "easy"), (8, "hard")])
def test_wrapped_env_masks_and_zero_sum_over_random_games(n, level):
    env = awkward_guests_v0.env(num_players=n, level=level, max_rounds=6, deck_size=40)
    for game_seed in range(2):
        env.reset(seed=game_seed)
        rng = np.random.default_rng(game_seed)
        tot = {a: 0.0 for a in env.possible_agents}
        notebooks: dict[str, np.ndarray] = {}
        nb = env.unwrapped.observation_layout["notebook"]
        k = 0
        for agent in env.agent_iter(max_iter=20000):
            obs, rew, term, trunc, info = env.last()
            tot[agent] += rew
            assert info == {}
            if term or trunc:
                env.step(None)
                continue
            assert not env.unwrapped.results()["out"][agent]  # out: never selected again
            grid = obs["observation"][nb]
            if agent in notebooks:  # the notebook only grows
                assert np.all(grid >= notebooks[agent])
            notebooks[agent] = grid
            mask = obs["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (NACT,) and mask.sum() > 0
            if k % 5 == 0:
                for other in env.agents:
                    if other != agent:
                        assert env.observe(other)["action_mask"].sum() == 0
                assert env.observation_space(agent).contains(obs)
            k += 1
            legal_ = np.flatnonzero(mask)
            a = int(rng.choice(legal_))
            u = env.unwrapped
            if u.game.decision_name == "solution":
                a = YES if rng.random() < 0.05 else NO
            env.step(a)
        assert sum(tot.values()) == pytest.approx(0.0, abs=1e-9)


def test_observation_egocentric_players_block_and_public_table():
    case = gen_case("medium", 77, 40)
    env = awkward_guests_v0.raw_env(num_players=5, level="medium")
    env.reset(seed=1, options={"case": case, "start": 2})
    st = env.game
    rng = np.random.default_rng(1)
    lay = env.observation_layout
    for step in range(250):
        if st.is_terminal:
            break
        if step % 25 == 0:
            for p in range(5):
                _check_observation(env, st, p, lay)
        lg = st.legal_actions()
        a = NO if st.decision_name == "solution" else int(rng.choice(lg))
        env.step(a)
        env_drain_dead(env)


def _check_observation(env, st, p, lay):
    obs = env.observe(f"player_{p}")["observation"]
    n = st.num_players
    view = env.player_view(f"player_{p}")
    assert obs.dtype == np.float32 and obs.min() >= 0 and obs.max() <= 1
    levels = ["beginner", "very_easy", "easy", "medium", "hard", "very_hard", "expert"]
    assert list(obs[lay["level"]]) == [float(x == st.case.level) for x in levels]
    assert list(obs[lay["num_players"]]) == [float(k == n) for k in range(1, 9)]
    assert obs[lay["round"]][0] == pytest.approx(st.round / st.config.max_rounds)
    dec = obs[lay["pending_decision"]]
    assert (dec.sum() == 1.0) == (st.current_player == p)
    ph = obs[lay["phase"]]
    assert list(ph).index(1.0) == PHASES.index(view.phase) and ph.sum() == 1
    players = obs[lay["players"]].reshape(8, 13)
    for j in range(8):
        if j >= n:
            assert not players[j].any()
            continue
        s = (p + j) % n
        assert players[j, 0] == 1.0  # present
        assert players[j, 1] == float(st.out[s])
        assert players[j, 5] == pytest.approx(len(st.hands[s]) / 32)
        assert players[j, 4] == float(s == st.start)
        in_turn = view.phase in ("inquiry", "offer", "exchange")
        assert players[j, 3] == float(in_turn and s == view.active_player)
        assert players[j, 2] == float(s == st.current_player)
    asked = obs[lay["asked"]]
    assert {int(i) for i in np.flatnonzero(asked)} == {REFS.index(r) for r in view.asked}
    piles = obs[lay["piles"]]
    N = len(st.tables.ids)
    assert piles[0] == pytest.approx(view.deck_size / N)
    assert piles[1] == pytest.approx(view.discard_size / N)
    assert piles[2] == pytest.approx(len(view.revealed) / N)
    hand = obs[lay["hand"]].reshape(32, 40)
    for i in range(32):
        if i >= len(view.hand):
            assert not hand[i].any()
            continue
        h = view.hand[i]
        row = hand[i]
        assert row[0] == 1.0
        assert list(row[1:4]) == [float(h.value == v) for v in (1, 2, 3)]
        assert {REFS[int(k)] for k in np.flatnonzero(row[4:20])} == set(h.refs)
        counts = [sum(f["type"] == t for f in h.card.facts) / 3 for t in FACT_TYPES]
        assert np.allclose(row[20:32], counts)
        ego = {(s - p) % n for s in h.seen_by}
        assert {int(k) + 1 for k in np.flatnonzero(row[32:39])} == ego
        assert row[39] == float(h.selected)
    nb = obs[lay["notebook"]]
    assert {int(i) for i in np.flatnonzero(nb)} == _expected_cells(view.notebook)


@functools.cache
def _cell_index():
    from parlour.envs.awkward_guests.notebook import NOTEBOOK_SIZE, cell_name

    return {cell_name(i): i for i in range(NOTEBOOK_SIZE)}


def _pair(a, b):
    a, b = sorted((a, b), key=SUSPECTS.index)
    return f"{a}, {b}"


def _fact_cell_names(f):
    t = f["type"]
    if t == "sign_absent":
        return [f"signs_absent[{f['sign']}]"]
    if t == "weapon_unused":
        return [f"weapons_unused[{f['weapon']}]"]
    if t == "passage_unused":
        return [f"passages_unused[{f['from']}-{f['to']}]"]
    if t in ("seen_before", "seen_at_murder"):
        return [f"{t}[{f['suspect']}, {f['room']}]"]
    if t == "guest_count":
        return [f"guest_counts[{f['room']}, {f['count']}]"]
    if t == "claim":
        s = f["suspect"]
        return [f"claims[{s}, claimed]", f"claims[{s}, {f['room']}]"] + [
            f"claims[{s}, with {w}]" for w in f["with"]
        ]
    if t == "testimony":
        return [f"boxes[{f['motive']}, {f['speaker']}, {f['verdict']}]"]
    if t == "evidence":
        return [f"boxes[{f['motive']}, evidence, {f['verdict']}]"]
    if t in ("together", "apart"):
        return [f"{t}[{_pair(*f['suspects'])}]"]
    if t == "alone":
        return [f"alone[{f['suspect']}]"]
    raise AssertionError(t)


def _expected_cells(cards):
    idx = _cell_index()
    return {idx[name] for c in cards for f in c.facts for name in _fact_cell_names(f)}


def test_notebook_grid_records_every_fact_of_every_level():
    from parlour.envs.awkward_guests.facts import FACT_TYPES as IMPL_TYPES
    from parlour.envs.awkward_guests.notebook import card_cells

    assert list(IMPL_TYPES) == FACT_TYPES
    for k, level in enumerate(["beginner", "easy", "medium", "expert"]):
        case = gen_case(level, 500 + k, 70)
        for c in case.cards:
            assert set(card_cells(c)) == _expected_cells([c]), c.text


def test_deduced_mode_matches_solver_over_own_notebook():
    from parlour.envs.awkward_guests import solve

    case = gen_case("medium", 31, 70)
    env = awkward_guests_v0.raw_env(num_players=3, level="medium", observation_mode="deduced")
    env.reset(seed=3, options={"case": case})
    st = env.game
    rng = np.random.default_rng(3)
    for _ in range(120):
        lg = st.legal_actions()
        env.step(NO if st.decision_name == "solution" else int(rng.choice(lg)))
        env_drain_dead(env)
    lay = env.observation_layout
    for p in range(3):
        obs = env.observe(f"player_{p}")["observation"]
        view = env.player_view(f"player_{p}")
        sols = solve(list(view.facts), True)
        assert case.solution in sols
        assert {SUSPECTS[i] for i in np.flatnonzero(obs[lay["deduced_murderers"]])} == {
            s.murderer for s in sols
        }
        assert {WEAPONS[i] for i in np.flatnonzero(obs[lay["deduced_weapons"]])} == {
            s.weapon for s in sols
        }
        c = obs[lay["deduced_count"]][0]
        assert c == pytest.approx(
            math.log(len(sols)) / math.log(5760) if len(sols) > 1 else 0.0, abs=1e-5
        )


# ============================================================================ information leaks


def _random_states(n, level, seed, count, p_acc=0.02):
    """Engine states sampled along a random game (accusations rare and random)."""
    if n == 1:
        p_acc = 0.0  # a solo accusation ends the game
    case = gen_case(level, seed, 40)
    st = engine(case, n, start=seed % n, seed=seed, max_rounds=12)
    rng = np.random.default_rng(seed)
    out = []
    picks = set(int(x) for x in rng.choice(400, size=count, replace=False))
    for step in range(400):
        if st.is_terminal:
            break
        if step in picks:
            out.append(st.clone())
        lg = st.legal_actions()
        if st.decision_name == "solution":
            a = YES if rng.random() < p_acc else NO
        else:
            a = int(rng.choice(lg))
        st.apply(a)
    return out


def _perturb_hidden(st, p, rng, other_solution):
    """Same state as seen by ``p``: cards ``p`` never saw are permuted among the other hands, the
    deck and the discard pile (hand sizes kept; offered cards untouched); another solution."""
    s2 = st.clone()
    unseen = ~st.seen[p]
    slots = []
    for q in range(st.num_players):
        if q == p:
            continue
        for i, c in enumerate(s2.hands[q]):
            if unseen[c] and c not in s2.selected[q]:
                slots.append(("h", q, i))
    for i, c in enumerate(s2.deck):
        if unseen[c]:
            slots.append(("d", 0, i))
    for i, c in enumerate(s2.discard):
        if unseen[c]:
            slots.append(("x", 0, i))

    def get(s):
        kind, q, i = s
        return {"h": lambda: s2.hands[q][i], "d": lambda: s2.deck[i], "x": lambda: s2.discard[i]}[
            kind
        ]()

    cards = [get(s) for s in slots]
    perm = list(rng.permutation(len(cards)))
    for s, j in zip(slots, perm, strict=True):
        kind, q, i = s
        if kind == "h":
            s2.hands[q][i] = cards[j]
        elif kind == "d":
            s2.deck[i] = cards[j]
        else:
            s2.discard[i] = cards[j]
    for q in range(st.num_players):
        if q != p:
            s2.hands[q].sort()
            s2.hand_version[q] += 1
    case2 = dataclasses.replace(st.case, solution=other_solution)
    s2.tables = G.case_tables(case2)
    return s2


@pytest.mark.parametrize(
    "n,level", [(1, "easy"), (2, "medium"), (3, "easy"), (5, "hard"), (8, "medium")]
)
def test_hidden_information_does_not_change_observation_view_or_render(n, level):
    rng = np.random.default_rng(n)
    states = _random_states(n, level, 40 + n, 8)
    assert states
    for st in states:
        other = WRONG_ACC if st.case.accomplice_possible else WRONG
        for p in range(n):
            if st.out[p]:
                continue
            s2 = _perturb_hidden(st, p, rng, other)
            for mode in ("notebook", "deduced") if p == 0 else ("notebook",):
                o1 = ObservationEncoder(mode).encode(st, p)
                o2 = ObservationEncoder(mode).encode(s2, p)
                assert np.array_equal(o1, o2), (mode, p, st.decision_name)
            assert make_view(st, p) == make_view(s2, p)
            if st.current_player == p:
                assert np.array_equal(st.legal_mask(), s2.legal_mask())
        # the rendered table is public: it may not depend on any hidden card or the solution
        agents = [f"player_{i}" for i in range(n)]
        assert render_table(st, agents) == render_table(_hide_all(st, rng, other), agents)


def _hide_all(st, rng, other):
    """Permute every card no player can see publicly (all hands, deck, discard), keep sizes."""
    s2 = st.clone()
    slots = []
    for q in range(st.num_players):
        for i, c in enumerate(s2.hands[q]):
            if c not in s2.selected[q]:
                slots.append(("h", q, i))
    slots += [("d", 0, i) for i in range(len(s2.deck))]
    slots += [("x", 0, i) for i in range(len(s2.discard))]
    vals = [
        s2.hands[q][i] if k == "h" else (s2.deck[i] if k == "d" else s2.discard[i])
        for k, q, i in slots
    ]
    perm = rng.permutation(len(vals))
    for (k, q, i), j in zip(slots, perm, strict=True):
        if k == "h":
            s2.hands[q][i] = vals[j]
        elif k == "d":
            s2.deck[i] = vals[j]
        else:
            s2.discard[i] = vals[j]
    for q in range(st.num_players):
        s2.hands[q].sort()
    s2.tables = G.case_tables(dataclasses.replace(st.case, solution=other))
    return s2


def test_render_shows_no_hand_card_text():
    case = gen_case("easy", 61, 40)
    env = awkward_guests_v0.raw_env(num_players=4, level="easy", render_mode="ansi")
    env.reset(seed=2, options={"case": case})
    st = env.game
    rng = np.random.default_rng(2)
    for step in range(300):
        if st.is_terminal:
            break
        if step % 20 == 0:
            text = env.render()
            public = {st.tables.ids[k] for k in st.revealed}
            for p in range(4):
                for c in st.hand_ids(p):
                    if c not in public:
                        assert case.card(c).text not in text
            for k in st.deck:
                assert st.tables.cards[k].text not in text or st.tables.ids[k] in public
        lg = st.legal_actions()
        env.step(NO if st.decision_name == "solution" else int(rng.choice(lg)))
        env_drain_dead(env)


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_pending_accusation_never_visible_to_anyone_else(level):
    case = gen_case(level, 90, 40)
    n = 4
    env = awkward_guests_v0.raw_env(num_players=n, level=level, render_mode="ansi")
    env.reset(seed=5, options={"case": case, "start": 0})
    st = env.game
    for _ in range(n):
        pass_turn_any(st)
    assert st.decision_name == "solution" and st.current_player == 0
    agents = env.possible_agents
    base = st.clone()

    def snapshot(state, seats):
        env.game = state
        out = {}
        for q in seats:
            a = agents[q]
            out[q] = (env.observe(a)["observation"].tobytes(), env.player_view(a), env.render())
        return out

    others = [1, 2, 3]
    before = snapshot(base, others)
    acc_possible = case.accomplice_possible
    paths = {
        "no": [NO],
        "wrong": [YES, *accusation(WRONG_ACC if acc_possible else WRONG, acc_possible)],
        "right": [YES, *accusation(case.solution, acc_possible)],
    }
    after = {}
    for name, acts in paths.items():
        s = base.clone()
        for i, a in enumerate(acts):
            s.apply(a)
            if s.current_player == 0:  # mid-accusation: nobody else sees anything change
                mid = snapshot(s, others)
                for q in others:
                    assert mid[q][0] == before[q][0], (name, i, q)
                    assert mid[q][1] == before[q][1]
                    assert mid[q][1].pending_accusation is None
                    assert mid[q][2] == before[q][2]
        assert s.current_player == 1 and s.decision_name == "solution"
        after[name] = snapshot(s, others)
    for q in others:
        assert after["no"][q][0] == after["wrong"][q][0] == after["right"][q][0]
        assert after["no"][q][1] == after["wrong"][q][1] == after["right"][q][1]
        assert after["no"][q][2] == after["wrong"][q][2] == after["right"][q][2]


def test_own_pending_accusation_is_in_own_observation():
    case = gen_case("medium", 91, 40)
    env = awkward_guests_v0.raw_env(num_players=3, level="medium")
    env.reset(seed=5, options={"case": case, "start": 0})
    st = env.game
    for _ in range(3):
        pass_turn_any(st)
    env.agent_selection = "player_0"
    env.step(YES)
    env.step(sus_act("mortimer"))
    v = env.player_view("player_0")
    assert v.pending_accusation is not None and v.pending_accusation.murderer == "mortimer"
    lay = env.observation_layout
    acc = env.observe("player_0")["observation"][lay["pending_accusation"]]
    assert acc[SUSPECTS.index("mortimer")] == 1.0 and acc.sum() == 1.0


def test_default_observation_has_no_seer_block_and_fixed_size():
    sizes = set()
    for n in (1, 2, 5, 8):
        env = awkward_guests_v0.raw_env(num_players=n)
        assert "seer_solution" not in env.observation_layout
        sizes.add(env.observation_space("player_0")["observation"].shape)
    assert len(sizes) == 1


# ============================================================================ env conventions


def test_player_view_is_read_only_cannot_reach_the_case():
    # overview.md: player_view is "a structured, read-only view". The facts it hands out are
    # the engine's own fact dicts: writing to them rewrites the hidden case (and the deduction
    # and notebook of every player). A read-only view must not allow that.
    case = gen_case("easy", 321, 40)
    env = awkward_guests_v0.raw_env(num_players=2)
    env.reset(seed=0, options={"case": case})
    view = env.player_view("player_0")
    card = view.hand[0].card
    fact = card.facts[0]
    original = dict(fact)
    engine_fact = env.game.tables.cards[env.game.hands[0][0]].facts[0]
    try:
        with contextlib.suppress(TypeError):
            fact["type"] = "tampered"
        assert engine_fact == original, "mutating a player_view fact changed the engine's case"
    finally:  # undo the damage (the generated case is cached for other tests)
        if engine_fact != original:
            engine_fact.clear()
            engine_fact.update(original)


def test_constructor_bad_arguments_raise_value_error_naming_them():
    bad = {
        "num_players": [0, 9, "3", True, 2.5],
        "level": ["impossible", None],
        "cases": ["nope", 3, []],
        "observation_mode": ["full"],
        "deck_size": [5, 1000, "70"],
        "max_rounds": [0, -1, 1.5],
        "render_mode": ["rgb_array"],
        "seer": ["yes", 1],
    }
    for arg, values in bad.items():
        for v in values:
            with pytest.raises(ValueError, match=arg):
                awkward_guests_v0.raw_env(**{arg: v})
    env = awkward_guests_v0.raw_env(num_players=3)
    assert env.config.max_rounds == 30  # default round limit
    case = gen_case("easy", 1, 40)
    with pytest.raises(ValueError):
        env.reset(seed=0, options={"case": case, "deck": [c.id for c in case.cards][:-1]})
    with pytest.raises(ValueError):
        env.reset(seed=0, options={"case": case, "start": 3})


def test_metadata_spaces_per_agent_and_wrapper_chain():
    from pettingzoo.utils import wrappers

    e = awkward_guests_v0.env(num_players=4)
    assert isinstance(e, wrappers.OrderEnforcingWrapper)
    assert isinstance(e.env, wrappers.AssertOutOfBoundsWrapper)
    assert isinstance(e.env.env, wrappers.TerminateIllegalWrapper)
    assert isinstance(e.env.env.env, awkward_guests_v0.raw_env)
    u = e.unwrapped
    assert u.metadata == {
        "name": "awkward_guests_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
        "render_fps": 1,
    }
    assert u.possible_agents == [f"player_{i}" for i in range(4)]
    # one space object per agent (PettingZoo's convention), built once, all equal
    assert u.observation_space("player_0") is not u.observation_space("player_3")
    assert u.observation_space("player_0") == u.observation_space("player_3")
    assert u.observation_space("player_1") is u.observation_space("player_1")
    assert u.action_space("player_0") is not u.action_space("player_2")
    assert u.action_space("player_0") == u.action_space("player_2")
    with pytest.raises(KeyError):
        u.action_space("player_4")
    sp = u.observation_space("player_0")
    assert sp["action_mask"].dtype == np.int8 and sp["action_mask"].shape == (NACT,)
    assert sp["observation"].dtype == np.float32


def test_wrapped_env_illegal_action_ends_game_with_minus_one_for_offender():
    e = awkward_guests_v0.env(num_players=3)
    e.reset(seed=0)
    agent = e.agent_selection
    mask = e.last()[0]["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    e.step(illegal)
    u = e.unwrapped
    assert all(u.terminations.values())
    assert u._cumulative_rewards[agent] == -1
    assert all(r == 0 for a, r in u._cumulative_rewards.items() if a != agent)


def test_raw_env_illegal_action_raises_and_leaves_state_unchanged():
    env = awkward_guests_v0.raw_env(num_players=3)
    env.reset(seed=4)
    before = [env.player_view(a) for a in env.possible_agents]
    deck = list(env.game.deck)
    with pytest.raises(awkward_guests_v0.IllegalActionError):
        env.step(YES)
    assert [env.player_view(a) for a in env.possible_agents] == before
    assert env.game.deck == deck


def _trajectory(seed, n=3, steps=400, noise=None):
    import random

    if noise is not None:
        np.random.seed(noise)  # noqa: NPY002
        random.seed(noise)
    e = awkward_guests_v0.raw_env(num_players=n, level="medium", max_rounds=4, deck_size=30)
    e.reset(seed=seed)
    rng = np.random.default_rng(0)
    out = []
    for _ in range(steps):
        st = e.game
        if st.is_terminal:
            break
        lg = st.legal_actions()
        a = NO if st.decision_name == "solution" else int(rng.choice(lg))
        e.step(a)
        env_drain_dead(e)
        if e.agents:
            out.append(e.observe(e.agent_selection)["observation"])
    return out


def test_same_seed_same_trajectory_and_no_global_rng_use():
    import random

    t1 = _trajectory(5, noise=1)
    t2 = _trajectory(5, noise=2)
    assert len(t1) == len(t2) and all(np.array_equal(a, b) for a, b in zip(t1, t2, strict=True))
    np.random.seed(123)  # noqa: NPY002
    random.seed(123)
    g0 = np.random.get_state()[1].copy()  # noqa: NPY002
    r0 = random.getstate()
    _trajectory(6)
    g1 = np.random.get_state()[1]  # noqa: NPY002
    assert np.array_equal(g1, g0) and random.getstate() == r0


def test_mid_game_checkpoints_pickle_deepcopy_clone_continue_identically():
    import copy
    import pickle

    case = gen_case("medium", 44, 24)  # small deck: reshuffles (the state's generator) happen
    e = awkward_guests_v0.raw_env(num_players=3, level="medium", max_rounds=10)
    e.reset(seed=8, options={"case": case})
    rng = np.random.default_rng(8)

    def pick(st):
        lg = st.legal_actions()
        return NO if st.decision_name == "solution" else int(rng.choice(lg))

    for _ in range(60):
        e.step(pick(e.game))
        env_drain_dead(e)
    e2 = pickle.loads(pickle.dumps(e))
    e3 = copy.deepcopy(e)
    s_clone = e.game.clone()
    snap = make_view(e.game, 0)
    s_clone.apply(s_clone.legal_actions()[0])
    assert make_view(e.game, 0) == snap  # the clone is independent
    revealed_before = len(e.game.revealed)
    for _ in range(400):
        if e.game.is_terminal:
            break
        a = pick(e.game)
        for x in (e, e2, e3):
            x.step(a)
            env_drain_dead(x)
        if e.agents:
            ag = e.agent_selection
            o = e.observe(ag)["observation"]
            assert np.array_equal(o, e2.observe(ag)["observation"])
            assert np.array_equal(o, e3.observe(ag)["observation"])
        assert [e.game.hand_ids(p) for p in range(3)] == [e2.game.hand_ids(p) for p in range(3)]
        assert e.game.deck == e2.game.deck == e3.game.deck
    assert len(e.game.revealed) > revealed_before  # a reshuffle happened after the checkpoint


def test_classic_cases_and_case_files_play_at_their_own_level(tmp_path):
    from parlour.envs.awkward_guests import save_case

    for level in ["beginner", "very_easy", "easy", "medium", "hard", "very_hard", "expert"]:
        e = awkward_guests_v0.raw_env(num_players=2, level=level, cases="classic")
        e.reset(seed=0)
        assert e.game.case.level == level
    case = gen_case("medium", 12, 40)
    path = tmp_path / "case.json"
    save_case(case, path)
    e = awkward_guests_v0.raw_env(num_players=3, level="easy", cases=[path])
    e.reset(seed=0)
    assert e.game.case.solution == case.solution and e.game.case.accomplice_possible
    e = awkward_guests_v0.raw_env(num_players=3, level="easy")
    e.reset(seed=0, options={"case": str(path)})
    assert e.game.case.solution == case.solution


def test_pettingzoo_api_test():
    from pettingzoo.test import api_test

    api_test(awkward_guests_v0.env(num_players=3, max_rounds=3, deck_size=30), num_cycles=300)


def test_pettingzoo_and_gymnasium_registry_entries():
    import gymnasium
    import pettingzoo

    import parlour  # noqa: F401

    e = pettingzoo.make("aec", "parlour/AwkwardGuests-v0", num_players=3)
    e.reset(seed=0)
    assert e.unwrapped.possible_agents == ["player_0", "player_1", "player_2"]
    g = gymnasium.make("parlour/AwkwardGuestsSolo-v0")
    g.reset(seed=0)
    assert g.unwrapped.game.num_players == 1


def test_human_render_output_does_not_reveal_an_accusation(capsys):
    # spec §5: in the env the Solution phase is sequential but "no one sees another's choice".
    # With render_mode="human" the table is printed after every step: going on is one step
    # (one print), an accusation is 4-6 steps (4-6 identical prints). Anybody watching the
    # human render (e.g. a person playing against agents) learns that player_0 accused before
    # deciding themselves. The public output must not depend on the hidden choice.
    import copy

    case = gen_case("easy", 90, 40)
    env = awkward_guests_v0.raw_env(num_players=3, level="easy", render_mode="human")
    env.reset(seed=5, options={"case": case, "start": 0})
    st = env.game
    for _ in range(3):
        pass_turn_any(st)
    env.agent_selection = "player_0"
    assert st.decision_name == "solution" and st.current_player == 0
    other = copy.deepcopy(env)
    capsys.readouterr()
    env.step(NO)
    went_on = capsys.readouterr().out
    for a in [YES, *accusation(WRONG, False)]:
        other.step(a)
    accused = capsys.readouterr().out
    assert env.game.current_player == other.game.current_player == 1
    assert accused == went_on


def _fat_hand_game(extra):
    """3 players; seat 0 holds 6 + ``extra`` value-1 cards; seat 1 holds four study cards."""
    special = {cid: S(cid) for cid in (6, 7, 8, 9)}
    case = build_case(special, total=80)
    st = engine(case, 3, deck=list(range(80)), start=0)
    for _ in range(extra):  # hand seat 0 more cards from the top of the deck (test set-up)
        st.hands[0].append(st.deck.pop())
        st.seen[0, st.hands[0][-1]] = True
    st.hands[0].sort()
    st.hand_version[0] += 1
    return st


def test_hand_cap_32_bid_that_could_overflow_cannot_be_accepted():
    # spec §6: "a bid ... that could take your hand past 32 cards cannot be accepted"
    st = _fat_hand_game(24)  # 30 cards
    st.apply(ref_act("study"))
    st.apply(ref_act("library"))
    assert st.current_player == 1
    four = st.clone()
    for c in (6, 7, 8, 9):
        four.apply(slot_of(four, 1, c))
    four.apply(NO)  # 4 cards: 30 - 1 (at least one card paid) + 4 = 33 > 32
    assert four.decision_name == "answer" and legal(four) == {NO}
    for c in (6, 7, 8):
        st.apply(slot_of(st, 1, c))
    st.apply(NO)  # 3 cards: at most 32
    assert legal(st) == {YES, NO}
    st.apply(YES)
    while st.decision_name == "pay":
        st.apply(min(legal(st)))
    assert len(st.hand_ids(0)) <= 32


def test_hand_cap_32_no_offer_draw_stops_at_32():
    st = _fat_hand_game(25)  # 31 cards
    pass_turn(st, ["library", "shed"])
    assert len(st.hand_ids(0)) == 32


def _swap(s2, old, new):
    """Swap card ``old`` (offered / promised / on the table) with ``new`` (in the deck)."""
    for q in range(s2.num_players):
        if old in s2.hands[q]:
            s2.hands[q] = sorted(new if c == old else c for c in s2.hands[q])
            s2.hand_version[q] += 1
        if old in s2.selected[q]:
            s2.selected[q].discard(old)
            s2.selected[q].add(new)
    for b in s2.bids:
        b.cards = sorted(new if c == old else c for c in b.cards)
        b.payment = [new if c == old else c for c in b.payment]
    s2.table = [new if c == old else c for c in s2.table]
    s2.deck = [old if c == new else c for c in s2.deck]


def _same_for(st, s2, seats):
    for p in seats:
        assert np.array_equal(
            ObservationEncoder().encode(st, p), ObservationEncoder().encode(s2, p)
        )
        assert make_view(st, p) == make_view(s2, p)
    agents = [f"player_{i}" for i in range(st.num_players)]
    assert render_table(st, agents) == render_table(s2, agents)


def test_offered_and_promised_cards_stay_face_down():
    hands = [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11], [12, 13, 14, 15, 16, 17]]
    special = {
        0: S(0),
        1: S(1),
        2: W(2, "wrench"),
        6: S(6),
        12: S(12),
        13: W(13, "curtain_cord"),
        30: S(30, "dark_powder"),
        31: W(31, "frying_pan"),
    }
    case = build_case(special, total=40)
    st = engine(case, 3, deck=deck_for(case, hands), start=0)
    _make_bids(st)
    st.apply(YES)
    st.apply(slot_of(st, 0, 2))  # promised, owed 1
    assert st.decision_name == "pay"
    s2 = st.clone()
    _swap(s2, 6, 30)  # seat 1 offered another value-3 study card
    _swap(s2, 2, 31)  # seat 0 promised another value-2 card
    _same_for(st, s2, [2])  # seat 2 saw neither
    s3 = st.clone()
    _swap(s3, 2, 31)
    _same_for(st, s3, [1])  # seat 1 has not yet seen what it will be paid


def test_solo_deck_bid_cards_stay_face_down():
    special = {6: S(6), 8: W(8, "curtain_cord"), 30: S(30, "dark_powder")}
    case = build_case(special, total=60)
    st = engine(case, 1, deck=list(range(60)), start=0)
    for r in SOLO_ASK:
        st.apply(ref_act(r))
    assert st.decision_name == "answer"
    s2 = st.clone()
    _swap(s2, 6, 30)
    _same_for(st, s2, [0])
