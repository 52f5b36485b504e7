"""Facts: what the case cards say (docs/case_model.md#facts) — schema validation, references and English text.

A fact is a plain JSON object whose first key is ``type``; every fact repeats the ``speaker``
of its card. The twelve fact types:

==================  ===================================  ===================  ===========================
type                fields (besides type, speaker)       allowed speaker      refs
==================  ===================================  ===================  ===========================
``sign_absent``     sign                                 police, coroner      study
``weapon_unused``   weapon                               staff                the weapon's room
``passage_unused``  from, to                             staff                both rooms
``seen_before``     suspect, room (alibi room)           staff                suspect, room
``seen_at_murder``  suspect, room (not the study)        staff                suspect, room
``guest_count``     room (alibi room), count (0..total)  staff                room
``claim``           suspect, room (alibi room), with[]   the suspect          speaker, room, companions
``testimony``       suspect, motive, verdict             a testifier of it    the motive's owner
``evidence``        suspect, motive, verdict, room       police               owner, room
``together``        suspects[2], room                    staff                both suspects, room
``apart``           suspects[2]                          staff                both suspects
``alone``           suspect, room                        staff                suspect, room
==================  ===================================  ===================  ===========================

Rulings (docs/case_model.md#fact-rulings, C1–C5):

* ``with`` and ``suspects`` are lists of distinct suspect ids in ``sorted()`` order (for the
  Walton board that is also the board order); ``with`` never names the speaker and may be empty
  (alone); ``suspects`` names two different suspects.
* ``testimony``/``evidence``: ``suspect`` is the owner of ``motive``; ``verdict`` is
  ``"confirms"`` or ``"refutes"``; a testimony's speaker is one of the motive's two testifiers.
* ``passage_unused`` must name a passage of the board in its canonical spelling (a two-way
  passage in board order, a Study entry ``from`` the entrance ``to`` the study).
* ``seen_before``, ``guest_count`` and ``claim`` name an alibi room (start rooms and innocents'
  murder-time rooms are alibi rooms); ``seen_at_murder`` names any room but the crime scene
  (nobody saw the murderer); the ``room`` of ``evidence``, ``together`` and ``alone`` may be any
  room (it only sets the text and the refs).
* Unknown keys, missing keys and wrongly typed values are errors.

Functions: :func:`validate_fact` (raises ``ValueError``), :func:`fact_refs`, :func:`fact_text`,
:func:`card_text`, :func:`canonical_fact` (keys in canonical order), :func:`sorted_refs`,
:func:`fact_key` (a canonical hashable key, equal for equal facts).
"""

from __future__ import annotations

from typing import Any

from parlour.envs._checks import is_int

from .board import WALTON, Board

FACT_TYPES: tuple[str, ...] = (
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
)

#: The fields of each fact type besides ``type`` and ``speaker``, in canonical order.
FACT_FIELDS: dict[str, tuple[str, ...]] = {
    "sign_absent": ("sign",),
    "weapon_unused": ("weapon",),
    "passage_unused": ("from", "to"),
    "seen_before": ("suspect", "room"),
    "seen_at_murder": ("suspect", "room"),
    "guest_count": ("room", "count"),
    "claim": ("suspect", "room", "with"),
    "testimony": ("suspect", "motive", "verdict"),
    "evidence": ("suspect", "motive", "verdict", "room"),
    "together": ("suspects", "room"),
    "apart": ("suspects",),
    "alone": ("suspect", "room"),
}

VERDICTS = ("confirms", "refutes")

#: Which fact types each kind of speaker may state (claims/testimonies are checked further).
STAFF_TYPES = frozenset(
    {
        "weapon_unused",
        "passage_unused",
        "seen_before",
        "seen_at_murder",
        "guest_count",
        "together",
        "apart",
        "alone",
    }
)


def _fail(fact: Any, msg: str) -> None:
    raise ValueError(f"invalid fact {fact!r}: {msg}")


def validate_fact(fact: Any, board: Board = WALTON) -> None:
    """Check one fact against the schema and the board; raise ``ValueError`` naming the problem."""
    if not isinstance(fact, dict):
        raise ValueError(f"invalid fact {fact!r}: a fact must be a JSON object")
    ftype = fact.get("type")
    if ftype not in FACT_FIELDS:
        _fail(fact, f"unknown type {ftype!r} (known: {', '.join(FACT_TYPES)})")
    fields = FACT_FIELDS[ftype]
    expected = {"type", "speaker", *fields}
    missing = [k for k in ("type", "speaker", *fields) if k not in fact]
    if missing:
        _fail(fact, f"missing field(s) {missing} for type {ftype!r}")
    extra = sorted(set(fact) - expected)
    if extra:
        _fail(fact, f"unknown field(s) {extra} for type {ftype!r}")
    speaker = fact["speaker"]
    if not isinstance(speaker, str) or speaker not in board.speaker_names:
        _fail(fact, f"unknown speaker {speaker!r}")

    def suspect(key: str) -> str:
        v = fact[key]
        if not isinstance(v, str) or not board.is_suspect(v):
            _fail(fact, f"{key} {v!r} is not a suspect")
        return v

    def room(key: str, alibi: bool = False, not_scene: bool = False) -> str:
        v = fact[key]
        if not isinstance(v, str) or not board.is_room(v):
            _fail(fact, f"{key} {v!r} is not a room")
        if alibi and v not in board.alibi_rooms:
            _fail(fact, f"{key} {v!r} is not an alibi room ({', '.join(board.alibi_rooms)})")
        if not_scene and v == board.crime_scene:
            _fail(fact, f"{key} cannot be the crime scene {v!r}")
        return v

    def suspect_list(key: str, exact: int | None = None) -> list[str]:
        v = fact[key]
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            _fail(fact, f"{key} must be a list of suspect ids, got {v!r}")
        for x in v:
            if not board.is_suspect(x):
                _fail(fact, f"{key} names {x!r}, which is not a suspect")
        if len(set(v)) != len(v):
            _fail(fact, f"{key} names a suspect twice")
        if v != sorted(v):
            _fail(fact, f"{key} must be sorted, got {v!r}")
        if exact is not None and len(v) != exact:
            _fail(fact, f"{key} must name exactly {exact} suspects, got {len(v)}")
        return v

    def verdict() -> None:
        if fact["verdict"] not in VERDICTS:
            _fail(fact, f"verdict must be 'confirms' or 'refutes', got {fact['verdict']!r}")

    def motive_of_suspect() -> Any:
        s = suspect("suspect")
        m = fact["motive"]
        if not isinstance(m, str) or not board.is_motive(m):
            _fail(fact, f"motive {m!r} is not a motive")
        mot = board.motive(m)
        if mot.owner != s:
            _fail(fact, f"motive {m!r} belongs to {mot.owner!r}, not to {s!r}")
        return mot

    def need_staff() -> None:
        if speaker not in board.staff:
            _fail(
                fact, f"a {ftype} fact is told by staff ({', '.join(board.staff)}), not {speaker!r}"
            )

    if ftype == "sign_absent":
        if speaker not in ("police", "coroner"):
            _fail(fact, f"sign_absent is told by the police or the coroner, not {speaker!r}")
        if not isinstance(fact["sign"], str) or not board.is_sign(fact["sign"]):
            _fail(fact, f"sign {fact['sign']!r} is not a sign")
    elif ftype == "weapon_unused":
        need_staff()
        if not isinstance(fact["weapon"], str) or not board.is_weapon(fact["weapon"]):
            _fail(fact, f"weapon {fact['weapon']!r} is not a weapon")
    elif ftype == "passage_unused":
        need_staff()
        a, b = room("from"), room("to")
        try:
            key = board.passage_key(a, b)
        except ValueError:
            _fail(fact, f"there is no passage between {a!r} and {b!r}")
        if key != (a, b):
            _fail(fact, f"passage must be written from {key[0]!r} to {key[1]!r}")
    elif ftype == "seen_before":
        need_staff()
        suspect("suspect")
        room("room", alibi=True)
    elif ftype == "seen_at_murder":
        need_staff()
        suspect("suspect")
        room("room", not_scene=True)
    elif ftype == "guest_count":
        need_staff()
        room("room", alibi=True)
        c = fact["count"]
        total = sum(board.head_count.values())
        if not is_int(c, numpy=False) or not 0 <= c <= total:
            _fail(fact, f"count must be an integer 0..{total}, got {c!r}")
    elif ftype == "claim":
        s = suspect("suspect")
        if speaker != s:
            _fail(fact, f"a claim is told by the suspect themself ({s!r}), not {speaker!r}")
        room("room", alibi=True)
        w = suspect_list("with")
        if s in w:
            _fail(fact, f"{s!r} cannot claim to be with themself")
    elif ftype == "testimony":
        mot = motive_of_suspect()
        verdict()
        if speaker not in mot.testifiers:
            _fail(
                fact,
                f"a testimony about {mot.id!r} is told by {mot.testifiers[0]!r} or "
                f"{mot.testifiers[1]!r}, not {speaker!r}",
            )
    elif ftype == "evidence":
        if speaker != "police":
            _fail(fact, f"evidence is told by the police, not {speaker!r}")
        motive_of_suspect()
        verdict()
        room("room")
    elif ftype == "together":
        need_staff()
        suspect_list("suspects", exact=2)
        room("room")
    elif ftype == "apart":
        need_staff()
        suspect_list("suspects", exact=2)
    elif ftype == "alone":
        need_staff()
        suspect("suspect")
        room("room")


def fact_key(fact: dict) -> tuple:
    """A canonical hashable key of a (valid) fact: equal facts give equal keys."""
    out: list[Any] = [fact["type"], fact["speaker"]]
    for k in FACT_FIELDS[fact["type"]]:
        v = fact[k]
        out.append(tuple(v) if isinstance(v, list) else v)
    return tuple(out)


def canonical_fact(fact: dict) -> dict:
    """A copy of a fact with its keys in canonical order (``type``, ``speaker``, fields)."""
    out: dict[str, Any] = {"type": fact["type"], "speaker": fact["speaker"]}
    for k in FACT_FIELDS[fact["type"]]:
        v = fact[k]
        out[k] = list(v) if isinstance(v, list | tuple) else v
    return out


def fact_refs(fact: dict, board: Board = WALTON) -> set[str]:
    """The references (suspects and rooms) a fact is about (docs/case_model.md#facts)."""
    t = fact["type"]
    if t == "sign_absent":
        return {board.crime_scene}
    if t == "weapon_unused":
        return {board.weapon(fact["weapon"]).room}
    if t == "passage_unused":
        return {fact["from"], fact["to"]}
    if t in ("seen_before", "seen_at_murder", "alone"):
        return {fact["suspect"], fact["room"]}
    if t == "guest_count":
        return {fact["room"]}
    if t == "claim":
        return {fact["speaker"], fact["room"], *fact["with"]}
    if t == "testimony":
        return {board.motive(fact["motive"]).owner}
    if t == "evidence":
        return {board.motive(fact["motive"]).owner, fact["room"]}
    if t == "together":
        return {*fact["suspects"], fact["room"]}
    if t == "apart":
        return set(fact["suspects"])
    raise ValueError(f"unknown fact type {t!r}")


def sorted_refs(refs: set[str], board: Board = WALTON) -> tuple[str, ...]:
    """References in the board's reference order (suspects, then rooms)."""
    return tuple(r for r in board.references if r in refs)


def _join(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _was(suspect: str, board: Board) -> str:
    """'were' for a suspect who is several people (the Berwick Sisters), else 'was'."""
    return "were" if board.head_count[suspect] > 1 else "was"


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def fact_text(fact: dict, board: Board = WALTON) -> str:
    """One English sentence for a fact (without saying who tells it, except for claims)."""
    t = fact["type"]
    d = board.display
    if t == "sign_absent":
        return f"The body shows no {d(fact['sign'])}."
    if t == "weapon_unused":
        w = board.weapon(fact["weapon"])
        return f"{_cap(d(w.id))} in {d(w.room)} was not used."
    if t == "passage_unused":
        a, b = fact["from"], fact["to"]
        if board.passage(a, b).one_way:
            return f"Nobody went from {d(a)} into {d(b)}."
        return f"Nobody used the passage between {d(a)} and {d(b)}."
    if t == "seen_before":
        return f"{_cap(d(fact['suspect']))} {_was(fact['suspect'], board)} in {d(fact['room'])} shortly before the murder."
    if t == "seen_at_murder":
        return f"{_cap(d(fact['suspect']))} {_was(fact['suspect'], board)} in {d(fact['room'])} at the time of the murder."
    if t == "guest_count":
        c = fact["count"]
        guests = "was 1 guest" if c == 1 else f"were {c} guests"
        return f"There {guests} in {d(fact['room'])} at the time of the murder."
    if t == "claim":
        who = _join([d(x) for x in fact["with"]])
        company = f"with {who}" if who else "alone"
        return f"\u201cAt the time of the murder I was in {d(fact['room'])}, {company}.\u201d"
    if t in ("testimony", "evidence"):
        m = board.motive(fact["motive"])
        owner = d(m.owner)
        if t == "testimony":
            what = "confirm" if fact["verdict"] == "confirms" else "refute"
            return f"\u201cI can {what} {owner}'s motive \u2018{m.name}\u2019.\u201d"
        what = "confirms" if fact["verdict"] == "confirms" else "refutes"
        return f"Evidence found in {d(fact['room'])} {what} {owner}'s motive \u201c{m.name}\u201d."
    if t == "together":
        a, b = fact["suspects"]
        return (
            f"{_cap(d(a))} and {d(b)} were seen together in {d(fact['room'])} during the evening."
        )
    if t == "apart":
        a, b = fact["suspects"]
        return f"{_cap(d(a))} and {d(b)} were never seen together during the evening."
    if t == "alone":
        return f"{_cap(d(fact['suspect']))} {_was(fact['suspect'], board)} seen alone in {d(fact['room'])} during the evening."
    raise ValueError(f"unknown fact type {t!r}")


def card_text(speaker: str, facts: list[dict] | tuple[dict, ...], board: Board = WALTON) -> str:
    """The English text of a card: who speaks, then one sentence per fact."""
    who = _cap(board.display(speaker))
    verb = "says" if speaker != "police" else "report"
    return f"{who} {verb}: " + " ".join(fact_text(f, board) for f in facts)
