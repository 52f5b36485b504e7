"""What each seat of ``parlour_awkward_guests`` noticed: the game's log and the lines of the
information-state strings (internal to :mod:`parlour.openspiel.guests`).

A log node is ``(previous node, mover, decision, action, card, public view, private views per
seat, lines per seat)``: the views are tuples compared by identity (a view that did not change
is the previous node's object), so a seat's line says only what changed for it.
"""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Any, NamedTuple

from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests.game.record import padded


@functools.lru_cache(maxsize=64)
def _card_tokens(tables: G.CaseTables) -> tuple[str, ...]:
    """Per card index: ``id~digest`` (8 hex digits of the card's speaker, facts and value)."""
    out = []
    for card in tables.cards:
        content = json.dumps([card.speaker, card.facts, card.value], sort_keys=True)
        digest = hashlib.blake2b(content.encode(), digest_size=4).hexdigest()
        out.append(f"{card.id}~{digest}")
    return tuple(out)


# ----------------------------------------------------------------------------- what a seat sees

#: the fields of the public view (:func:`_public_view`), in order
_PUBLIC_FIELDS = (
    "phase",
    "round",
    "decider",
    "active",
    "start",
    "out",
    "done",
    "hands",
    "bids",
    "answering",
    "asked",
    "record",
    "piles",
    "result",
)
#: a move of another seat whose action everybody sees (an offer's ``NO``, too: the bid is made)
_PUBLIC_DECISIONS = frozenset({G.D_INQUIRY, G.D_ANSWER})
#: the decisions whose CARD actions pick a card of the mover's hand
_CARD_DECISIONS = frozenset({G.D_OFFER, G.D_PAY, G.D_DISCARD})


def _public_view(eng: G.GuestsState) -> tuple:
    """Everything public the env's encoder reads (the same for every seat)."""
    d = eng.decision
    n = eng.num_players
    out = eng.out
    active = eng.active
    queue = eng.turn_queue
    done_all = d >= G.D_SOLUTION
    return (
        eng.phase,
        eng.round,
        eng.current if d != G.D_NONE else -1,
        active if d < G.D_SOLUTION else -1,
        eng.start,
        tuple(out),
        tuple(not out[s] and (done_all or (s != active and s not in queue)) for s in range(n)),
        tuple(len(h) for h in eng.hands),
        tuple((b.seat, b.value, b.count, b.status) for b in eng.bids),
        eng.answering if d in (G.D_ANSWER, G.D_PAY) else -1,
        tuple(eng.asked),
        padded(eng.last_turns, n),
        (len(eng.deck), len(eng.discard), len(eng.revealed)),
        (eng.result, tuple(eng.winners)),
    )


def _seat(s: int) -> str:
    return "-" if s < 0 else f"p{s}"


def _seats(flags: tuple) -> str:
    return ",".join(str(s) for s, f in enumerate(flags) if f) or "-"


def _bidder(s: int) -> str:
    return "deck" if s == G.DECK_SEAT else f"p{s}"


def _record_text(rec: Any) -> str:
    if rec is None:
        return "-"
    asked = "+".join(A.REFERENCES[r] for r in rec.asked)
    bids = ";".join(
        f"{_bidder(b.seat)}:{b.value}/{b.count}" + (f"+paid{b.paid}" if b.accepted else "x")
        for b in rec.bids
    )
    return f"r{rec.round}:{asked}|{bids or 'nobid'}"


def _public_text(i: int, new: Any, old: Any) -> str:
    """One changed public field as text (``old`` None: the first view)."""
    name = _PUBLIC_FIELDS[i]
    if name == "phase":
        return f"phase={G.PHASES[new]}"
    if name in ("decider", "active", "start"):
        return f"{name}={_seat(new)}"
    if name in ("out", "done"):
        return f"{name}={_seats(new)}"
    if name == "hands":
        return "hands=" + "/".join(map(str, new))
    if name == "bids":
        shown = ";".join(f"{_bidder(s)}:{v}/{k}{'?+x'[st]}" for s, v, k, st in new)
        return f"bids={shown or '-'}"
    if name == "answering":
        return f"answering={'-' if new < 0 else new}"
    if name == "asked":
        return "asked=" + ("+".join(A.REFERENCES[r] for r in new) or "-")
    if name == "record":
        old = old if old is not None else (None,) * len(new)
        return " ".join(
            f"rec{s}={_record_text(r)}"
            for s, (r, o) in enumerate(zip(new, old, strict=True))
            if r != o
        )
    if name == "piles":
        return "piles={}/{}/{}".format(*new)
    if name == "result":
        result, winners = new
        return f"result={result or '-'}" + (f"({','.join(map(str, winners))})" if winners else "")
    return f"{name}={new}"


def _public_diff(new: tuple, old: tuple | None) -> str:
    """The public fields that changed, as text."""
    if old is None:
        texts = [_public_text(i, v, None) for i, v in enumerate(new)]
    else:
        texts = [_public_text(i, v, old[i]) for i, v in enumerate(new) if v != old[i]]
    return " ".join(t for t in texts if t)


def _task(eng: G.GuestsState, p: int) -> tuple | None:
    """Seat ``p``'s pending decision as the encoder reads it (``None``: not ``p``'s turn)."""
    d = eng.decision
    if eng.current != p or d == G.D_NONE:
        return None
    if d == G.D_PAY:
        return (d, eng.owed)
    if d == G.D_DISCARD:
        return (d, len(eng.hands[p]) - len(eng.selected[p]) - G.KEEP_AFTER_DISCARD)
    if d > G.D_SOLUTION:
        return (d, tuple(eng.accusations.get(p, ())))
    return (d,)


def _task_text(task: tuple | None) -> str:
    """``p``'s pending decision: ``-``, ``offer``, ``pay/3`` (value owed), ``discard/2`` (cards
    still to discard), ``weapon[2,7]`` (the accusation's parts named so far)."""
    if task is None:
        return "-"
    name = G.DECISIONS[task[0]]
    if len(task) == 1:
        return name
    if isinstance(task[1], tuple):
        return f"{name}[{','.join(map(str, task[1]))}]"
    return f"{name}/{task[1]}"


# A seat's private view (what it alone sees), a tuple reused while it does not change:
# (pending decision, hand (card ids), selected (ids), known: (id, seat bits) of the hand cards
# other seats are known to have seen, cards in its notebook)
_TASK, _HAND, _SELECTED, _KNOWN, _SEEN = range(5)


def _private_view(eng: G.GuestsState, p: int, old: tuple | None) -> tuple:
    """Seat ``p``'s private view (``old`` itself when nothing in it changed)."""
    ids = eng.tables.ids
    hand = eng.hands[p]
    own = 1 << p
    known_row = eng.known[p]
    known = tuple(
        (ids[c], bits) for c in hand if (bits := int(known_row[c])) != own
    )  # (a card in p's hand has p's own bit)
    new = (
        _task(eng, p),
        tuple(ids[c] for c in hand),
        tuple(sorted(ids[c] for c in eng.selected[p])),
        known,
        len(eng.seen_log[p]),
    )
    return old if new == old else new


def _private_diff(eng: G.GuestsState, p: int, new: tuple, old: tuple | None) -> str:
    """What changed in seat ``p``'s private view, as text (every card newly seen: its id and
    the digest of its content)."""
    parts = []
    if old is None or new[_TASK] != old[_TASK]:
        parts.append(f"task={_task_text(new[_TASK])}")
    if old is None or new[_HAND] != old[_HAND]:
        parts.append("hand=" + (",".join(map(str, new[_HAND])) or "-"))
    if old is None or new[_SELECTED] != old[_SELECTED]:
        parts.append("sel=" + (",".join(map(str, new[_SELECTED])) or "-"))
    if old is None or new[_KNOWN] != old[_KNOWN]:
        parts.append("known=" + (",".join(f"{c}:{b:x}" for c, b in new[_KNOWN]) or "-"))
    first = 0 if old is None else old[_SEEN]
    if new[_SEEN] > first:
        tokens = _card_tokens(eng.tables)
        seen = eng.seen_log[p][first : new[_SEEN]]  # (the log only grows)
        parts.append("saw=" + ",".join(tokens[c] for c in seen))
    return " ".join(parts)


# The log of a game: a linked list of moves, newest first, shared by every copy of the state
# (one node per move; a seat's information state reads what it noticed of each):
# (previous node, mover (-1: the deal), decision, action, the picked card's id (-1: none),
#  public view, private views (per seat), per seat the line it noticed ("": none; None: not
#  made yet — a cache shared by the copies, which is safe: the line depends on the node alone))
_PREV, _MOVER, _DECISION, _ACTION, _CARD, _PUBLIC, _PRIVATE, _LINES = range(8)


def _noticed(node: tuple, p: int) -> bool:
    """Whether seat ``p`` noticed the move of ``node``: its own move, the deal, or a change in
    what it observes (a move it cannot see that changes nothing adds nothing)."""
    prev = node[_PREV]
    return (
        node[_MOVER] in (p, -1)
        or node[_PUBLIC] is not prev[_PUBLIC]
        or node[_PRIVATE][p] is not prev[_PRIVATE][p]
    )


def _action_seen(node: tuple, p: int) -> bool:
    """Whether seat ``p`` saw which action the move of ``node`` was."""
    mover, decision, action = node[_MOVER], node[_DECISION], node[_ACTION]
    return (
        mover in (p, -1)
        or decision in _PUBLIC_DECISIONS
        or (decision == G.D_OFFER and action == A.NO)
    )


def _line(eng: G.GuestsState, node: tuple, p: int) -> str:
    """What seat ``p`` noticed of the move of ``node`` ("": nothing), made once per node."""
    line = node[_LINES][p]
    if line is None:
        line = _entry_text(eng, node, p) if _noticed(node, p) else ""
        node[_LINES][p] = line
    return line


def _entry_text(eng: G.GuestsState, node: tuple, p: int) -> str:
    """What seat ``p`` noticed of the move of ``node``, as one line."""
    prev = node[_PREV]
    mover = node[_MOVER]
    if mover < 0:
        tables = eng.tables
        parts = [f"deal: cards={tables.num_cards} accomplice={int(tables.accomplice_possible)}"]
        old_public = old_private = None
    else:
        label = A.action_name(node[_ACTION]) if _action_seen(node, p) else "?"
        if mover == p and node[_CARD] >= 0:
            label += f" #{node[_CARD]}"
        parts = [f"p{mover}:{label}"]
        old_public, old_private = prev[_PUBLIC], prev[_PRIVATE][p]
    if node[_PUBLIC] is not old_public:
        parts.append(_public_diff(node[_PUBLIC], old_public))
    if node[_PRIVATE][p] is not old_private:
        parts.append(_private_diff(eng, p, node[_PRIVATE][p], old_private))
    return " ".join(t for t in parts if t)


class LogEntry(NamedTuple):
    """One move as a seat noticed it (:meth:`GuestsSpielState.log_entries`)."""

    mover: int  # the seat that moved; -1: the deal
    action: int  # its action, -1 if the seat did not see it (or the deal)
    hidden: bool  # the seat saw that the mover moved, not what it did
    text: str  # the line of the information-state string


def _flat_log(head: tuple | None) -> list[tuple]:
    """The log oldest first, the nodes without their links (nor the lines made)."""
    out = []
    while head is not None:
        out.append(head[1:_LINES])
        head = head[_PREV]
    out.reverse()
    return out


def _linked_log(entries: list[tuple]) -> tuple | None:
    head = None
    for entry in entries:
        head = (head, *entry, [None] * len(entry[_PRIVATE - 1]))
    return head
