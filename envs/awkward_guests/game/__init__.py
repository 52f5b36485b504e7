"""Awkward Guests — the pure rules engine for a game on one case (no gymnasium / pettingzoo).

This package is the single source of truth for how a game of *Awkward Guests: The Walton Case*
is played (``docs/rules/awkward_guests.md``, with the rulings below). The PettingZoo
adapter (:mod:`parlour.envs.awkward_guests.env`) and the solo Gymnasium env
(:mod:`parlour.envs.awkward_guests.solo`) only encode what this engine exposes.

Model
-----
* :class:`GuestsConfig` — the table: ``num_players`` (1–8) and ``max_rounds`` (default 30).
* :func:`new_game` — deals a game on a :class:`~parlour.envs.awkward_guests.case.case.Case`:
  shuffles the deck with the caller's ``np.random.Generator`` (or takes a fixed order of card
  ids, top first), deals 6 cards per seat in blocks (seat 0 the top 6, seat 1 the next 6, …) and picks
  the start seat.
* :class:`GuestsState` — a plain, copyable state: ``legal_actions()``, ``legal_mask()``,
  ``apply(action)`` (raises :class:`IllegalActionError` and changes nothing), ``returns()``,
  ``scores()``, ``winners``, ``clone()``; ``copy.deepcopy`` and ``pickle`` work (the case is
  immutable and shared by copies). The state owns the game's ``np.random.Generator`` (used
  only to reshuffle the discard pile), so a copy continues exactly like the original.

Cards are referred to internally by their **index** ``k`` = rank of the card id among the
case's ids (so "sorted by index" is "sorted by id"); :attr:`GuestsState.tables` maps both ways.

Phases and decisions
--------------------

| phase | decision | who | legal actions |
|---|---|---|---|
| ``inquiry`` | ``inquiry`` | the active (turn) player | ``REF r`` not yet asked; 2 refs (4 with 1–2 players) |
| ``offer`` | ``offer`` | each other remaining player holding a card that names an asked ref, in seat order from the active player's next seat | ``CARD i`` (unselected, naming an asked ref), ``NO`` (done; nothing selected = no bid) |
| ``exchange`` | ``answer`` | the active player, once per non-empty bid in seat order | ``YES`` (if affordable, see below), ``NO`` |
| ``exchange`` | ``pay`` | the active player after ``YES`` | ``CARD i`` not yet promised, until the bid's value is covered |
| ``solution`` | ``solution`` | each remaining player, in seat order from the start player | ``YES`` (accuse), ``NO`` (go on) |
| ``solution`` | ``murderer`` → ``motive`` → ``weapon`` | the accuser | ``SUSPECT``, then ``MOTIVE`` of that suspect, then ``WEAPON`` |
| ``solution`` | ``accomplice`` → ``accomplice_motive`` | the accuser (medium and harder only) | ``NO_ACCOMPLICE`` or ``SUSPECT`` ≠ murderer, then that suspect's ``MOTIVE`` |
| ``discard`` | ``discard`` | each remaining player with more than 3 cards, from the start player | ``CARD i`` (unselected) until 3 cards remain |
| ``over`` | ``none`` | nobody | none |

Rulings (docs/rules/awkward_guests.md#rulings; decided where the published rules leave room)
-------------------------------------------

* **Seats.** Everything runs from a player to seat ``i+1 mod n``, skipping players who are out.
  The offer order starts at the active player's next seat; the Solution and Discard phases and
  the refill start at the start player. A round is: every remaining player's turn (from the
  start player), the Solution phase, the Discard phase (then the start player moves to the
  next seat still in and everyone refills to 6, from the new start player on).
* **Hands** are sorted by card id; ``CARD i`` is the i-th card. A hand never holds more than
  32 cards: a bid whose trade could take the active player's or the bidder's hand past 32
  cannot be accepted, and draws stop at 32 (the rest stays in the deck).
* **Offers.** A player with no card naming an asked reference is skipped (no decision). A bid
  (value = sum of card values, card count) is public and final once made; its cards stay in
  the bidder's hand, marked *selected*, until the exchange ends.
* **Exchange.** ``YES`` is legal only if the active player's hand, minus cards already
  promised to earlier accepted bids (never counting cards to be received), is worth at least
  the bid, and neither hand can pass 32 cards (active: ``hand − promised − 1 + received``;
  bidder: ``hand − bid count + bid value``, as a payment stops as soon as it covers the bid,
  so it has at most ``value`` cards). After ``YES`` the active player picks ``CARD``\\ s
  until the bid is covered. When every bid is answered, all accepted trades happen at once.
  If nobody made a bid, the active player draws 3 (2 with 1–2 players, see below).
* **Public record.** What a turn did openly at the table (asked references; per bid: bidder,
  value, card count, accepted, cards paid — never the cards) is kept in ``last_turns`` until
  that seat's next turn starts (:mod:`parlour.envs.awkward_guests.game.record`).
* **Notebooks.** Every card a player holds, receives, draws or is shown is noted in their
  notebook (``seen``; ``seen_log`` keeps the order) and is never forgotten. Each player also
  knows which other players have seen a card when they watched it happen (``known``): the
  giver and the receiver of a traded card, everyone for a revealed card.
* **Solution phase.** Decisions are taken one after another (seat order from the start
  player) but are hidden: nothing of a pending accusation is visible to anyone else. All
  correct accusers win together (the game ends). Otherwise every wrong accuser is out: their
  hand is shown to every remaining player and put on the public revealed pile, and a new
  Solution phase starts at once for those left. One player left (2+ players) wins. If every
  remaining player accused wrongly in the same phase, the game ends without a winner (a draw
  among them). Nobody accused: the Discard phase follows.
* **Round limit.** After the Solution phase of round ``max_rounds`` the game is truncated
  (no Discard phase).
* **Empty deck.** When a draw finds the deck empty, the discard pile is shuffled (with the
  game's generator) into a new deck whose top 3 cards are revealed to all (revealed pile, every
  remaining notebook); with no cards left anywhere, hands stay short.
* **Two players.** The inquiry names 4 references. Received cards (both directions) are
  read, noted and discarded at once; with no bid the active player draws 2, notes and discards
  them.
* **Solo** (1 player, our design): like two players with the deck as the other player. After
  the inquiry the top 5 cards of the deck are taken; those naming an asked reference form one
  bid (public value and count; the player answers ``YES``/``NO`` as usual), the others go to
  the bottom of the deck (in their order). Declined bid cards go to the bottom too; accepted
  bid cards are read, noted and discarded; the payment goes to the discard pile. No bid: draw
  2, note, discard. The last-player-left rule does not apply; the game ends at the first
  accusation or at the round limit.

Results and rewards
-------------------
``result`` is ``None`` while the game runs, then ``"win"`` (``winners`` non-empty), ``"draw"``
(everyone left accused wrongly together), ``"truncated"`` (round limit) or, solo only,
``"loss"`` (a wrong accusation). :meth:`returns` gives
each seat's total reward over the game, zero-sum for 2+ players (docs/rules/awkward_guests.md, ruling R23): a player who is out
gets ``−1/(n−1)``; with winners ``W`` everyone else gets ``−1/(n−1)`` and each winner
``n/((n−1)|W|) − 1/(n−1)``; in a draw or at truncation the ``m`` players still in share what
the ``k`` players out paid: ``k/((n−1)·m)`` each. Solo: ``+1 − 0.01 × rounds`` for a correct
accusation, ``−1`` for a wrong one, ``0`` at truncation.

``accusation_log`` lists every resolved accusation in the order made as ``(round, seat,
correct)`` (also the wrong ones of a phase that a correct accuser ends); it is only read for
statistics (the env's ``results()``), never by the rules; ``accused`` holds what each of them
named (five indices, as ``accusations``; hidden until the game is over).

Modules
-------

The state is plain data; the rules are functions over it, one module per part of the game.
Imports run one way, down this table (``record``, ``rules`` and ``tables`` import nothing else
of the engine; the engine never imports the adapter above it).

| module | content |
|---|---|
| ``deal`` | :func:`new_game`, :func:`resolve_case` |
| ``state`` | :class:`GuestsState`: the data with the public methods (legality, ``apply``, results) |
| ``turns`` | the flow of play: which rules an action goes to, turns (and their public record), the Discard phase, rounds |
| ``exchange`` | the inquiry, offers and exchange of a turn, :func:`~.exchange.can_accept` |
| ``accusation`` | the Solution phase, the results, :func:`accusation_actions` |
| ``cards`` | moving cards (drawing, reshuffling, hands, the bottom of the deck) and noting them (notebooks) |
| ``data`` | :class:`~.data.GuestsData` (the fields, copying, read-only queries), :class:`Bid` |
| ``record`` | the public record of every seat's last turn (:class:`~.record.TurnRecord`, :class:`~.record.BidRecord`) |
| ``tables`` | :class:`CaseTables` (per-case lookups by card index), :func:`case_tables` |
| ``rules`` | the constants (phases, decisions, limits), :class:`GuestsConfig`, :class:`IllegalActionError` |
"""

from .accusation import accusation_actions
from .data import BID_ACCEPTED, BID_DECLINED, BID_PENDING, Bid
from .deal import new_game, resolve_case
from .rules import (
    D_ACC_MOTIVE,
    D_ACCOMPLICE,
    D_ANSWER,
    D_DISCARD,
    D_INQUIRY,
    D_MOTIVE,
    D_MURDERER,
    D_NONE,
    D_OFFER,
    D_PAY,
    D_SOLUTION,
    D_WEAPON,
    DECISION_PHASE,
    DECISIONS,
    DECK_SEAT,
    DEFAULT_MAX_ROUNDS,
    HAND_SIZE,
    KEEP_AFTER_DISCARD,
    MAX_HAND,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MOTIVES_OF,
    NOBODY,
    PH_DISCARD,
    PH_EXCHANGE,
    PH_INQUIRY,
    PH_OFFER,
    PH_OVER,
    PH_SOLUTION,
    PHASES,
    RESULTS,
    REVEAL_ON_RESHUFFLE,
    SOLO_LOOK,
    SOLO_ROUND_PENALTY,
    GuestsConfig,
    IllegalActionError,
)
from .state import GuestsState
from .tables import CaseTables, case_tables

__all__ = [
    "GuestsConfig",
    "GuestsState",
    "IllegalActionError",
    "Bid",
    "BID_PENDING",
    "BID_ACCEPTED",
    "BID_DECLINED",
    "CaseTables",
    "case_tables",
    "new_game",
    "resolve_case",
    "accusation_actions",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "MAX_HAND",
    "HAND_SIZE",
    "KEEP_AFTER_DISCARD",
    "REVEAL_ON_RESHUFFLE",
    "SOLO_LOOK",
    "DEFAULT_MAX_ROUNDS",
    "SOLO_ROUND_PENALTY",
    "PHASES",
    "PH_INQUIRY",
    "PH_OFFER",
    "PH_EXCHANGE",
    "PH_SOLUTION",
    "PH_DISCARD",
    "PH_OVER",
    "DECISIONS",
    "D_INQUIRY",
    "D_OFFER",
    "D_ANSWER",
    "D_PAY",
    "D_SOLUTION",
    "D_MURDERER",
    "D_MOTIVE",
    "D_WEAPON",
    "D_ACCOMPLICE",
    "D_ACC_MOTIVE",
    "D_DISCARD",
    "D_NONE",
    "DECISION_PHASE",
    "RESULTS",
    "DECK_SEAT",
    "NOBODY",
    "MOTIVES_OF",
]
