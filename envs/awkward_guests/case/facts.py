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
:func:`card_text` (:func:`card_text_of` from the sentences), :func:`canonical_fact` (keys in
canonical order), :func:`sorted_refs`,
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
    """Check one fact against the schema and the board; raise ``ValueError`` naming the problem.

    The steps: :func:`_check_schema` (an object of a known type with exactly its keys), the
    speaker, then the type's own checks (:data:`_TYPE_CHECKS`, on a :class:`_FactCheck`).
    """
    ftype = _check_schema(fact)
    speaker = fact["speaker"]
    if not isinstance(speaker, str) or speaker not in board.speaker_names:
        _fail(fact, f"unknown speaker {speaker!r}")
    _TYPE_CHECKS[ftype](_FactCheck(fact, board, ftype, speaker))


def _check_schema(fact: Any) -> str:
    """The fact's type, after checking it is a JSON object of a known type with its keys."""
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
    return ftype


class _FactCheck:
    """The field checks of one fact (schema and speaker already checked): each raises
    ``ValueError`` through :func:`_fail`, naming the field."""

    def __init__(self, fact: dict, board: Board, ftype: str, speaker: str) -> None:
        self.fact = fact
        self.board = board
        self.ftype = ftype
        self.speaker = speaker

    def fail(self, msg: str) -> None:
        _fail(self.fact, msg)

    def suspect(self, key: str) -> str:
        v = self.fact[key]
        if not isinstance(v, str) or not self.board.is_suspect(v):
            self.fail(f"{key} {v!r} is not a suspect")
        return v

    def room(self, key: str, alibi: bool = False, not_scene: bool = False) -> str:
        v = self.fact[key]
        board = self.board
        if not isinstance(v, str) or not board.is_room(v):
            self.fail(f"{key} {v!r} is not a room")
        if alibi and v not in board.alibi_rooms:
            self.fail(f"{key} {v!r} is not an alibi room ({', '.join(board.alibi_rooms)})")
        if not_scene and v == board.crime_scene:
            self.fail(f"{key} cannot be the crime scene {v!r}")
        return v

    def suspect_list(self, key: str, exact: int | None = None) -> list[str]:
        v = self.fact[key]
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            self.fail(f"{key} must be a list of suspect ids, got {v!r}")
        for x in v:
            if not self.board.is_suspect(x):
                self.fail(f"{key} names {x!r}, which is not a suspect")
        if len(set(v)) != len(v):
            self.fail(f"{key} names a suspect twice")
        if v != sorted(v):
            self.fail(f"{key} must be sorted, got {v!r}")
        if exact is not None and len(v) != exact:
            self.fail(f"{key} must name exactly {exact} suspects, got {len(v)}")
        return v

    def verdict(self) -> None:
        if self.fact["verdict"] not in VERDICTS:
            self.fail(f"verdict must be 'confirms' or 'refutes', got {self.fact['verdict']!r}")

    def motive_of_suspect(self) -> Any:
        s = self.suspect("suspect")
        m = self.fact["motive"]
        if not isinstance(m, str) or not self.board.is_motive(m):
            self.fail(f"motive {m!r} is not a motive")
        mot = self.board.motive(m)
        if mot.owner != s:
            self.fail(f"motive {m!r} belongs to {mot.owner!r}, not to {s!r}")
        return mot

    def need_staff(self) -> None:
        staff = self.board.staff
        if self.speaker not in staff:
            self.fail(
                f"a {self.ftype} fact is told by staff ({', '.join(staff)}), not {self.speaker!r}"
            )


def _check_sign_absent(c: _FactCheck) -> None:
    if c.speaker not in ("police", "coroner"):
        c.fail(f"sign_absent is told by the police or the coroner, not {c.speaker!r}")
    sign = c.fact["sign"]
    if not isinstance(sign, str) or not c.board.is_sign(sign):
        c.fail(f"sign {sign!r} is not a sign")


def _check_weapon_unused(c: _FactCheck) -> None:
    c.need_staff()
    weapon = c.fact["weapon"]
    if not isinstance(weapon, str) or not c.board.is_weapon(weapon):
        c.fail(f"weapon {weapon!r} is not a weapon")


def _check_passage_unused(c: _FactCheck) -> None:
    c.need_staff()
    a, b = c.room("from"), c.room("to")
    try:
        key = c.board.passage_key(a, b)
    except ValueError:
        c.fail(f"there is no passage between {a!r} and {b!r}")
    if key != (a, b):
        c.fail(f"passage must be written from {key[0]!r} to {key[1]!r}")


def _check_seen_before(c: _FactCheck) -> None:
    c.need_staff()
    c.suspect("suspect")
    c.room("room", alibi=True)


def _check_seen_at_murder(c: _FactCheck) -> None:
    c.need_staff()
    c.suspect("suspect")
    c.room("room", not_scene=True)


def _check_guest_count(c: _FactCheck) -> None:
    c.need_staff()
    c.room("room", alibi=True)
    count = c.fact["count"]
    total = sum(c.board.head_count.values())
    if not is_int(count, numpy=False) or not 0 <= count <= total:
        c.fail(f"count must be an integer 0..{total}, got {count!r}")


def _check_claim(c: _FactCheck) -> None:
    s = c.suspect("suspect")
    if c.speaker != s:
        c.fail(f"a claim is told by the suspect themself ({s!r}), not {c.speaker!r}")
    c.room("room", alibi=True)
    if s in c.suspect_list("with"):
        c.fail(f"{s!r} cannot claim to be with themself")


def _check_testimony(c: _FactCheck) -> None:
    mot = c.motive_of_suspect()
    c.verdict()
    if c.speaker not in mot.testifiers:
        c.fail(
            f"a testimony about {mot.id!r} is told by {mot.testifiers[0]!r} or "
            f"{mot.testifiers[1]!r}, not {c.speaker!r}"
        )


def _check_evidence(c: _FactCheck) -> None:
    if c.speaker != "police":
        c.fail(f"evidence is told by the police, not {c.speaker!r}")
    c.motive_of_suspect()
    c.verdict()
    c.room("room")


def _check_together(c: _FactCheck) -> None:
    c.need_staff()
    c.suspect_list("suspects", exact=2)
    c.room("room")


def _check_apart(c: _FactCheck) -> None:
    c.need_staff()
    c.suspect_list("suspects", exact=2)


def _check_alone(c: _FactCheck) -> None:
    c.need_staff()
    c.suspect("suspect")
    c.room("room")


#: the type's own checks, by fact type (every type of :data:`FACT_TYPES`)
_TYPE_CHECKS = {
    "sign_absent": _check_sign_absent,
    "weapon_unused": _check_weapon_unused,
    "passage_unused": _check_passage_unused,
    "seen_before": _check_seen_before,
    "seen_at_murder": _check_seen_at_murder,
    "guest_count": _check_guest_count,
    "claim": _check_claim,
    "testimony": _check_testimony,
    "evidence": _check_evidence,
    "together": _check_together,
    "apart": _check_apart,
    "alone": _check_alone,
}


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
    return card_text_of(speaker, [fact_text(f, board) for f in facts], board)


def card_text_of(speaker: str, sentences: list[str], board: Board = WALTON) -> str:
    """:func:`card_text` from the facts' sentences (:func:`fact_text`)."""
    who = _cap(board.display(speaker))
    verb = "says" if speaker != "police" else "report"
    return f"{who} {verb}: " + " ".join(sentences)
