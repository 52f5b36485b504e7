"""Audition — the structured, read-only view of what one player may know.

``env.unwrapped.player_view(agent)`` returns an :class:`AuditionView`. It holds everything the
observation vector encodes for that agent (public table, the agent's own drawn card and pending
choice) and the few public facts of the game so far that the vector leaves out but a full
engine state needs (who began, who emptied the deck, how many decisions were made, the table's
setup), as immutable values (tuples, frozen dataclasses), in **absolute seats** (``view.seat``
is the viewer). Scripted agents read it; they never read the engine state. With it,
:func:`parlour.envs.audition.determinize.determinize` rebuilds the state's whole public part:
only the deck order, the variant-2 removed cards and another player's drawn card are sampled.

| field | content |
|---|---|
| ``seat``, ``num_players`` | the viewer; the player count |
| ``config`` | the table's setup (:class:`~parlour.envs.audition.rules.AuditionConfig`, immutable): player count, the variant-1 setting (kinds in slot order, or how many were dealt on random slots: the dealt kinds are ``slots[s].kind``), uncertain counts, the mini table |
| ``phase``, ``current_player`` | the phase name; the seat to act (``-1`` once the game is over) |
| ``legal_actions`` | the viewer's legal actions (empty when it is not their turn) |
| ``drawn``, ``pending_slot``, ``choice`` | the viewer's own decision: the card to place (else 0), the ``take_now`` slot of a pending decision (else -1), the numbers a pending ``CHOOSE`` may name (else zeros) |
| ``in_final`` | the final phase has started (also during its follow-up decisions) |
| ``final_queue`` | the seats still to choose in the final phase, in order (the one choosing now is not in it); ``()`` outside it — the observation's ``to_choose`` |
| ``slots`` | per slot: :class:`SlotView` (kind, taken this round, capacity, musicians per number) |
| ``collections``, ``scores``, ``quartets`` | per seat: cards per number, points, scoring quartets |
| ``taken`` | per seat: took a slot this round |
| ``last_taker`` | the seat that took the last slot taken (it starts the next round), ``-1`` before any take — the observation's ``last_taker`` |
| ``start_player`` | the seat that began the game |
| ``emptied_by`` | the seat that took the deck's last card (drew it, or took ``draw_one``), ``-1`` while cards are left |
| ``num_moves`` | decisions made so far in the game (every step of every seat) |
| ``discard`` | the public discard row per number |
| ``unseen`` | the composition minus what the viewer sees: the deck, the removed cards and another player's drawn card, per number |
| ``deck_size``, ``num_removed`` | cards in the draw pile; 5 with uncertain counts, else 0 (which cards is unknown) |
| ``round`` | the round, from 1 |
| ``composition`` | the game's cards per number |

Card counts are tuples of length 14 indexed by musician number (index 0 unused).
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.envs.audition import rules as R


@dataclass(frozen=True)
class SlotView:
    kind: str  # "conductor" or an action-card kind
    taken: bool  # taken this round
    capacity: int  # 4, or 2 for max_two
    cards: tuple[int, ...]  # musicians per number

    @property
    def size(self) -> int:
        return sum(self.cards)

    @property
    def room(self) -> int:
        return self.capacity - self.size


@dataclass(frozen=True)
class AuditionView:
    seat: int
    num_players: int
    config: R.AuditionConfig  # the table's setup (frozen)
    phase: str
    current_player: int  # -1 once the game is over
    legal_actions: tuple[int, ...]  # the viewer's legal actions (empty when not their turn)
    drawn: int  # the card the viewer must place, 0 otherwise
    pending_slot: int  # the take_now slot of a pending decision, -1 otherwise
    choice: tuple[int, ...]  # numbers a pending CHOOSE may name (viewer only)
    in_final: bool
    slots: tuple[SlotView, ...]
    collections: tuple[tuple[int, ...], ...]  # per seat
    taken: tuple[bool, ...]  # per seat: took a slot this round
    final_queue: tuple[int, ...]  # seats still to choose in the final phase, in order
    last_taker: int  # took the last slot taken (starts the next round), -1 before any take
    start_player: int  # the seat that began the game
    emptied_by: int  # took the deck's last card, -1 while cards are left
    num_moves: int  # decisions made so far
    scores: tuple[int, ...]
    quartets: tuple[int, ...]
    discard: tuple[int, ...]
    unseen: tuple[
        int, ...
    ]  # composition minus what the viewer sees (deck + removed [+ others' drawn card])
    deck_size: int
    num_removed: int  # 5 with uncertain counts, else 0 (which cards is unknown)
    round: int
    composition: tuple[int, ...]

    @property
    def my_collection(self) -> tuple[int, ...]:
        return self.collections[self.seat]

    @property
    def is_my_turn(self) -> bool:
        return self.current_player == self.seat


def make_view(state: R.AuditionState, seat: int) -> AuditionView:
    mine = state.current_player == seat
    n = state.num_players
    return AuditionView(
        seat=seat,
        num_players=n,
        config=state.config,
        phase=R.PHASES[state.phase],
        current_player=state.current_player,
        legal_actions=tuple(state.legal_actions()) if mine else (),
        drawn=state.drawn if mine else 0,
        pending_slot=state.pending_slot if mine else -1,
        choice=tuple(int(x) for x in state.choice) if mine else (0,) * (R.MAX_NUMBER + 1),
        in_final=state.in_final,
        slots=tuple(
            SlotView(
                kind=R.SLOT_KINDS[state.slot_kinds[s]],
                taken=state.slot_taken[s],
                capacity=state.slot_capacity(s),
                cards=tuple(int(x) for x in state.slots[s]),
            )
            for s in range(n)
        ),
        collections=tuple(tuple(int(x) for x in state.collections[p]) for p in range(n)),
        taken=tuple(state.taken),
        final_queue=tuple(int(p) for p in state.final_queue),
        last_taker=int(state.last_taker),
        start_player=int(state.start_player),
        emptied_by=int(state.emptied_by),
        num_moves=int(state.num_moves),
        scores=tuple(state.scores()),
        quartets=tuple(state.quartets()),
        discard=tuple(int(x) for x in state.discard),
        unseen=tuple(int(x) for x in state.unseen_counts(seat)),
        deck_size=len(state.deck),
        num_removed=len(state.removed),
        round=state.round,
        composition=tuple(int(x) for x in state.config.composition()),
    )
