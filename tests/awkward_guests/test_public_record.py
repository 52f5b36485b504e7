"""The public record of every player's last turn (``last_turns``): what is done openly at the
table — the asked references, the bids, which were accepted and how many cards paid for them —
reaches every player's observation, and nothing private does.

* the two scenarios of the issue: at 3 players the player skipped during a turn (no matching
  card, so no decision) sees the inquiry, the bid and the trade in its next observation; an
  uninvolved player tells which of two equal bids was accepted;
* random 3–6 player games: every inquiry and every accepted bid is in the observation of every
  remaining player at their next decision (counted: 0 misses), and the claim the record's
  lifetime rests on — every other remaining player has a decision between the end of a seat's
  turn and the start of its next one — holds;
* leaks: other cards of the same value in a bid or a payment leave every non-party's
  observation and view unchanged;
* ``player_view`` and the text rendering hold the same record; copies of a state are independent.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from parlour.envs import awkward_guests_v1
from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests.game.record import BidRecord
from parlour.envs.awkward_guests.observation import (
    LAST_BID_FEATURES,
    LAST_TURN_FEATURES,
    LAST_TURN_LAYOUT,
    ObservationEncoder,
)
from parlour.envs.awkward_guests.view import make_view

from .game_helpers import deal_deck, generated_case, padded_case, v1, v3

STUDY_CARD, SECOND_STUDY_CARD = 100, 101


def decode(obs: np.ndarray, layout: dict, block: int) -> dict | None:
    """The ``last_turns`` record in egocentric block ``block`` of an observation, or None."""
    row = obs[layout["last_turns"]].reshape(8, LAST_TURN_FEATURES)[block]
    if row[LAST_TURN_LAYOUT["recorded"]][0] != 1:
        assert not row.any()
        return None
    asked = tuple(int(r) for r in np.flatnonzero(row[LAST_TURN_LAYOUT["asked"]]))
    bids = {}
    cells = row[LAST_TURN_LAYOUT["bids"]].reshape(8, len(LAST_BID_FEATURES))
    for j in range(8):
        made, value, count, accepted, paid = cells[j]
        if made:
            bids[j] = (round(value * 30), round(count * 32), bool(accepted), round(paid * 32))
        else:
            assert not cells[j].any()
    return {"asked": asked, "bids": bids}


def refs(*names: str) -> tuple[int, ...]:
    return tuple(sorted(A.REFERENCES.index(r) for r in names))


def _pair_cards(base: int, pairs) -> list:
    return [v1(base + i, a, b, room) for i, (a, b, room) in enumerate(pairs)]


# no card below names the study or Greg Gaffney, except the two study cards
PAYERS = _pair_cards(110, [("claudette", "mortimer", "garage")] * 6)
QUIET = _pair_cards(120, [("angelica", "berwick", "kitchen")] * 6)
OTHERS = _pair_cards(130, [("stanley", "mortimer", "library")] * 10)


def _env(case, hands, players):
    env = awkward_guests_v1.raw_env(num_players=players, render_mode="ansi")
    env.reset(seed=0, options={"case": case, "deck": deal_deck(case, hands), "start": 0})
    return env


def _step(env, action, deciders: list[int]) -> None:
    deciders.append(env.game.current_player)
    env.step(action)


def _slot(env, seat: int, card_id: int) -> int:
    return A.CARD_0 + env.game.hand_ids(seat).index(card_id)


def test_the_skipped_player_sees_the_inquiry_the_bid_and_the_trade():
    """3 players: seat 0 asks about the Study and Greg Gaffney, seat 1 bids one card, seat 0
    accepts and pays with 3 cards; seat 2 (no matching card) has no decision in that turn."""
    special = [v3(STUDY_CARD), *PAYERS, *QUIET, *OTHERS]
    case = padded_case(special, total=60)
    seat1 = [STUDY_CARD] + [c.id for c in OTHERS[:5]]
    env = _env(case, [[c.id for c in PAYERS], seat1, [c.id for c in QUIET]], 3)
    deciders: list[int] = []
    _step(env, A.ref_action("study"), deciders)
    _step(env, A.ref_action("greg"), deciders)
    assert env.game.decision == G.D_OFFER and env.game.current_player == 1
    _step(env, _slot(env, 1, STUDY_CARD), deciders)
    _step(env, A.NO, deciders)
    assert env.game.decision == G.D_ANSWER
    _step(env, A.YES, deciders)
    for cid in (110, 111, 112):  # three value-1 cards cover the value-3 bid
        _step(env, _slot(env, 0, cid), deciders)
    assert env.game.active == 1 and env.game.decision == G.D_INQUIRY  # seat 0's turn is over
    assert 2 not in deciders  # the skipped player had no decision during that turn
    assert STUDY_CARD in env.game.hand_ids(0)

    L = env.observation_layout
    obs = env.observe("player_2")["observation"]
    assert not obs[L["asked"]].any()  # the live turn (seat 1's) has asked nothing yet
    # seat 0 is egocentric block 1 for seat 2, the bidder (seat 1) block 2
    want = {"asked": refs("study", "greg"), "bids": {2: (3, 1, True, 3)}}
    assert decode(obs, L, 1) == want
    assert decode(obs, L, 0) is None and decode(obs, L, 2) is None
    # still there at seat 2's next decision (an offer in seat 1's turn)
    while env.game.current_player != 2:
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        env.step(A.NO if A.NO in legal else int(legal[0]))
    assert env.game.active == 1
    assert decode(env.observe("player_2")["observation"], L, 1) == want
    # the view and the text say the same
    rec = env.player_view("player_2").last_turns[0]
    assert rec.seat == 0 and set(rec.asked) == {"study", "greg"}
    assert rec.bids == (BidRecord(seat=1, value=3, count=1, accepted=True, paid=3),)
    text = env.render()
    assert "player_0 (round 1) asked about" in text
    assert "player_1 bid value 3, 1 card(s): accepted, paid with 3 card(s)" in text


@pytest.mark.parametrize("accept", [1, 2])
def test_an_uninvolved_player_tells_which_of_two_equal_bids_was_accepted(accept):
    """4 players: seats 1 and 2 each bid one value-3 study card; seat 0 accepts one of them;
    seat 3 (no matching card, no decision) sees which."""
    special = [v3(STUDY_CARD), v3(SECOND_STUDY_CARD, "dark_powder"), *PAYERS, *QUIET, *OTHERS]
    case = padded_case(special, total=60)
    hands = [
        [c.id for c in PAYERS],
        [STUDY_CARD] + [c.id for c in OTHERS[:5]],
        [SECOND_STUDY_CARD] + [c.id for c in OTHERS[5:10]],
        [c.id for c in QUIET],
    ]
    env = _env(case, hands, 4)
    deciders: list[int] = []
    _step(env, A.ref_action("study"), deciders)
    _step(env, A.ref_action("greg"), deciders)
    _step(env, _slot(env, 1, STUDY_CARD), deciders)
    _step(env, A.NO, deciders)
    _step(env, _slot(env, 2, SECOND_STUDY_CARD), deciders)
    _step(env, A.NO, deciders)
    for bidder in (1, 2):  # bids are answered in the order made
        assert env.game.decision == G.D_ANSWER
        if bidder == accept:
            _step(env, A.YES, deciders)
            for cid in (110, 111, 112):
                _step(env, _slot(env, 0, cid), deciders)
        else:
            _step(env, A.NO, deciders)
    assert env.game.active == 1 and 3 not in deciders
    obs = env.observe("player_3")["observation"]
    rec = decode(obs, env.observation_layout, 1)  # seat 0 is block 1 for seat 3
    # egocentric bidder blocks for seat 3: seat 1 -> 2, seat 2 -> 3
    assert rec == {
        "asked": refs("study", "greg"),
        "bids": {
            2: (3, 1, accept == 1, 3 if accept == 1 else 0),
            3: (3, 1, accept == 2, 3 if accept == 2 else 0),
        },
    }
    view = env.player_view("player_3").last_turns[0]
    assert [b.seat for b in view.bids if b.accepted] == [accept]


# ----------------------------------------------------------------------------- random games


def _random_games(n: int, games: int, seed: int):
    """Yield (state before, action, state after) over masked-random games (accusations rare)."""
    for g in range(games):
        case = generated_case("easy", 70 + g % 3)
        state = G.new_game(G.GuestsConfig(n, 12), case, np.random.default_rng(seed + g))
        rng = np.random.default_rng(seed + 1000 + g)
        yield None, None, state
        while not state.is_terminal:
            legal = state.legal_actions()
            if state.decision == G.D_SOLUTION and rng.random() < 0.97:
                a = A.NO
            else:
                a = int(legal[int(rng.integers(len(legal)))])
            before = state.clone()
            state.apply(a)
            yield before, a, state


def _shows(obs, layout, n, q, s, asked, bid=None) -> bool:
    """Does ``q``'s observation show ``s``'s turn with ``asked`` (and the accepted ``bid``)?"""
    j = (s - q) % n
    players = obs[layout["players"]].reshape(8, 13)
    live = players[j, 3] == 1 and set(np.flatnonzero(obs[layout["asked"]])) == set(asked)
    if bid is None and live:
        return True
    rec = decode(obs, layout, j)
    if rec is None or set(rec["asked"]) != set(asked):
        return False
    if bid is None:
        return True
    bidder, value, count, paid = bid
    return rec["bids"].get(1 if bidder < 0 else (bidder - q) % n) == (
        min(value, 30),
        count,
        True,
        paid,
    )


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_every_inquiry_and_accepted_bid_reaches_every_remaining_player(n):
    enc = ObservationEncoder()
    L = enc.layout
    pending: list[tuple] = []  # (observer, turn seat, asked, accepted bid or None, uninvolved)
    inquiries = inquiry_misses = accepted = accepted_misses = uninvolved = 0
    # the lifetime claim: while a seat's record stands, every other remaining player decides
    standing: dict[int, set[int]] = {}  # seat -> players still to decide while its record stands
    claim_checked = 0
    asked_of: dict[int, tuple] = {}
    for before, a, state in _random_games(n, 6, seed=17 * n):
        if before is None:
            pending, standing, asked_of = [], {}, {}
        else:
            left = [] if state.is_terminal else state.remaining
            s = before.active
            if before.decision == G.D_INQUIRY and (
                len(before.asked) + 1 == before.config.refs_per_inquiry
            ):
                asked_of[s] = (*before.asked, a - A.REF_0)
                for q in left:
                    if q != s:
                        pending.append((q, s, asked_of[s], None, True))
                        inquiries += 1
            if state.turns_taken > before.turns_taken:  # s's turn ended: its trades are done
                bids = before.bids  # (a copy: the action's own effect is added here)
                if before.decision == G.D_ANSWER and a == A.NO:
                    bids[before.answering].status = 2
                for k, b in enumerate(bids):
                    paid = len(b.payment) + (
                        1 if before.decision == G.D_PAY and k == before.answering else 0
                    )
                    if b.status == 1:
                        for q in left:
                            inv = q not in (s, b.seat)
                            pending.append(
                                (q, s, asked_of[s], (b.seat, b.value, b.count, paid), inv)
                            )
                            accepted += 1
                            uninvolved += inv
                standing[s] = {q for q in left if q != s}
            if state.decision == G.D_INQUIRY and not state.asked:  # a turn starts
                new = state.active
                if new in standing:
                    still_in = standing.pop(new) & set(state.remaining)
                    assert not still_in, (
                        f"seats {still_in} had no decision while {new}'s record stood"
                    )
                    claim_checked += 1
        if state.is_terminal:
            continue
        q = state.current_player
        for waiting in standing.values():
            waiting.discard(q)
        mine = [p for p in pending if p[0] == q]
        if mine:
            obs = enc.encode(state, q)
            for _, s, asked, bid, _ in mine:
                ok = _shows(obs, L, n, q, s, asked, bid)
                if bid is None:
                    inquiry_misses += not ok
                else:
                    accepted_misses += not ok
            pending = [p for p in pending if p[0] != q]
    print(
        f"{n}p: inquiries x opponents {inquiries} (missed {inquiry_misses}), accepted bids x "
        f"remaining players {accepted} (uninvolved {uninvolved}, missed {accepted_misses}), "
        f"record lifetimes checked {claim_checked}"
    )
    assert inquiries > 0 and accepted > 0 and uninvolved > 0 and claim_checked > 0
    assert inquiry_misses == 0
    assert accepted_misses == 0


# ----------------------------------------------------------------------------- leaks


def _equal_value_pair(state: G.GuestsState) -> tuple[int, int] | None:
    """Two card actions of the current player, legal now, of cards with the same value."""
    hand = state.hands[state.current]
    values = state.tables.values
    cards = [a for a in state.legal_actions() if A.CARD_0 <= a < A.YES]
    for i, x in enumerate(cards):
        for y in cards[i + 1 :]:
            if values[hand[x - A.CARD_0]] == values[hand[y - A.CARD_0]]:
                return x, y
    return None


def _legal_without(state: G.GuestsState, cards: set[int]) -> list[int]:
    """The legal actions that choose none of ``cards`` (so that only one bid or payment
    differs between the branches: the same action is legal in both)."""
    hand = state.hands[state.current]
    return [
        a
        for a in state.legal_actions()
        if not (A.CARD_0 <= a < A.YES and hand[a - A.CARD_0] in cards)
    ]


@pytest.mark.parametrize("decision", [G.D_OFFER, G.D_PAY])
def test_the_cards_of_a_bid_or_a_payment_never_reach_a_non_party(decision):
    """Branch a turn at an offer (or a payment) between two cards of the same value; play the
    rest of the turn the same way in both branches (choosing neither card again). Everyone but
    the bidder and the active player sees exactly the same observations and views, up to and
    after the trades."""
    branched = compared = 0
    for n in (3, 4, 5, 6):
        for _before, _a, state in _random_games(n, 4, seed=300 + n):
            if state.is_terminal or state.decision != decision:
                continue
            pair = _equal_value_pair(state)
            if pair is None:
                continue
            hand = state.hands[state.current]
            c1, c2 = hand[pair[0] - A.CARD_0], hand[pair[1] - A.CARD_0]
            bidder = state.current if decision == G.D_OFFER else state.bids[state.answering].seat
            parties = {bidder, state.active}
            a_state, b_state = state.clone(), state.clone()
            a_state.apply(pair[0])
            b_state.apply(pair[1])
            rng = np.random.default_rng(branched)
            turns = state.turns_taken
            while True:  # (the hands are the same in both branches until the trades)
                for q in range(n):
                    if q in parties:
                        continue
                    ea, eb = ObservationEncoder(), ObservationEncoder()
                    np.testing.assert_array_equal(ea.encode(a_state, q), eb.encode(b_state, q))
                    assert make_view(a_state, q) == make_view(b_state, q)
                    compared += 1
                if a_state.turns_taken > turns or a_state.is_terminal:
                    break  # compared once more after the trades
                legal = _legal_without(a_state, {c1, c2})
                assert legal == _legal_without(b_state, {c1, c2})
                if not legal:
                    break  # (only c1 or c2 could pay: no comparable continuation)
                act = int(legal[int(rng.integers(len(legal)))])
                a_state.apply(act)
                b_state.apply(act)
            if not (a_state.turns_taken > turns or a_state.is_terminal):
                continue
            assert a_state.last_turns == b_state.last_turns  # no card in the record
            branched += 1
            if branched >= 12:
                break
        if branched >= 12:
            break
    assert branched > 0 and compared > 0


# ----------------------------------------------------------------------------- life cycle


def test_a_seat_has_no_record_during_its_own_turn_and_copies_are_independent():
    case = generated_case("easy", 70)
    state = G.new_game(G.GuestsConfig(4, 30), case, np.random.default_rng(5))
    assert state.last_turns == (None,) * 4
    rng = np.random.default_rng(6)
    seen_full = False
    for _ in range(400):
        if state.is_terminal:
            break
        if state.decision < G.D_SOLUTION:
            assert state.last_turns[state.active] is None
        seen_full |= all(t is not None for t in state.last_turns)
        legal = state.legal_actions()
        a = A.NO if state.decision == G.D_SOLUTION else int(legal[int(rng.integers(len(legal)))])
        if state.decision == G.D_INQUIRY and not state.asked:
            copy_ = state.clone()
            kept = state.last_turns
            pickled = pickle.loads(pickle.dumps(state))
            while copy_.decision < G.D_SOLUTION and copy_.active == state.active:
                copy_.apply(copy_.legal_actions()[-1])
            assert copy_.last_turns[state.active] is not None
            assert state.last_turns is kept and state.last_turns[state.active] is None
            assert pickled.last_turns == kept
        state.apply(a)
    assert seen_full  # after the first turns of a round, every seat has a record in between
