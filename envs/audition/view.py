"""Audition — the structured, read-only view of what one player may know.

``env.unwrapped.player_view(agent)`` returns an :class:`AuditionView`. It holds exactly the
information the observation vector encodes for that agent (public table, the agent's own drawn
card and pending choice), as immutable tuples, in **absolute seats** (``view.seat`` is the
viewer). Scripted agents read it; they never read the engine state.

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
        scores=tuple(state.scores()),
        quartets=tuple(state.quartets()),
        discard=tuple(int(x) for x in state.discard),
        unseen=tuple(int(x) for x in state.unseen_counts(seat)),
        deck_size=len(state.deck),
        num_removed=len(state.removed),
        round=state.round,
        composition=tuple(int(x) for x in state.config.composition()),
    )
