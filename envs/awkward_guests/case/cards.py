"""Case cards: a card's facts, references, text and trading value (docs/case_model.md#hidden-truth and #case-file).

Cards: 1–3 facts (:mod:`.facts`) of one speaker; ``refs`` the union of the facts' references in
board reference order (suspects, then rooms); ``text`` English; ``value`` = :func:`card_value`.

Card value
----------

``card_value(facts)`` depends on the card's facts alone, never on the hidden truth. It is the
share ``x`` of the 5,760 candidate solutions (accomplice possible) that the card's facts
*alone* rule out (computed by the deduction engine), bucketed:

===========================  =====
share excluded ``x``         value
===========================  =====
``x < 0.04``                 1
``0.04 <= x < 0.15``         2
``x >= 0.15``                3
===========================  =====

(``VALUE_THRESHOLDS = (0.04, 0.15)``.) Examples: a start-room sighting, a head count or one
unused passage alone exclude nothing (value 1: they only help in combination); one unused weapon
excludes 5% (value 2); a missing sign excludes 20% (value 3); an ``alone`` sighting ~31% (it
clears that guest as a culprit when there is an accomplice); a claim naming companions 30–60%.
Over generated decks of all levels the mix is about 37% / 34% / 30%; easy decks bundle key
facts (mostly 2s and 3s), hard decks carry many weak distractors (mostly 1s). Values are cached
by content (the sorted semantic keys of the facts); each fact is validated, keyed and put into
words once per content (:mod:`.fact_info`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parlour.envs._checks import require_int

from .board import WALTON, Board
from .deduction import count_consistent, semantic_key
from .fact_info import FactInfo, fact_info
from .facts import card_text_of, fact_refs, sorted_refs, validate_fact
from .memo import cached_by
from .solution import candidate_solutions

__all__ = [
    "MAX_FACTS_PER_CARD",
    "VALUE_THRESHOLDS",
    "Card",
    "card_exclusion_share",
    "card_value",
    "card_refs",
    "make_card",
    "check_card_facts",
    "copy_fact",
    "value_of_valid_facts",
]

MAX_FACTS_PER_CARD = 3
#: Thresholds on the excluded share of the 5,760 candidates for card values 2 and 3.
VALUE_THRESHOLDS: tuple[float, float] = (0.04, 0.15)
#: How many card contents' excluded shares are kept.
SHARE_CACHE_SIZE = 20_000


@dataclass(frozen=True)
class Card:
    """A case card: 1–3 facts told by one speaker, its references, value and text."""

    id: int
    speaker: str
    facts: tuple[dict, ...]
    refs: tuple[str, ...]
    value: int
    text: str

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "value": self.value,
            "refs": list(self.refs),
            "speaker": self.speaker,
            "facts": [copy_fact(f) for f in self.facts],
            "text": self.text,
        }


def card_exclusion_share(facts: list[dict] | tuple[dict, ...], board: Board = WALTON) -> float:
    """Share of the 5,760 candidates (accomplice possible) the facts alone rule out."""
    for f in facts:
        validate_fact(f, board)
    return _exclusion_share(tuple(facts), board)


def _exclusion_share(facts: tuple[dict, ...], board: Board) -> float:
    """As :func:`card_exclusion_share` for facts already validated (cached by content)."""
    return _share_of(tuple(sorted(semantic_key(f) for f in facts)), facts, board)


@cached_by(lambda keys, facts, board: (keys, board), SHARE_CACHE_SIZE)
def _share_of(keys: tuple, facts: tuple[dict, ...], board: Board) -> float:
    """The excluded share of ``facts``, cached by ``keys`` (their sorted semantic keys)."""
    total = len(candidate_solutions(True, board))
    return 1.0 - count_consistent(facts, True, board) / total


def card_value(facts: list[dict] | tuple[dict, ...], board: Board = WALTON) -> int:
    """Trading value 1–3 of a card, from its facts alone (see the module docs)."""
    return _value_of_share(card_exclusion_share(facts, board))


def value_of_valid_facts(facts: tuple[dict, ...], board: Board = WALTON) -> int:
    """As :func:`card_value` for facts already validated."""
    return _value_of_share(_exclusion_share(facts, board))


def _value_of_share(x: float) -> int:
    if x < VALUE_THRESHOLDS[0]:
        return 1
    if x < VALUE_THRESHOLDS[1]:
        return 2
    return 3


def copy_fact(f: dict) -> dict:
    """A copy of a (flat) fact: its only nested values are lists of ids."""
    return {k: (list(v) if isinstance(v, list) else v) for k, v in f.items()}


def check_card_facts(card_id: Any, speaker: Any, facts: Any, board: Board) -> list[FactInfo]:
    """Check a card's speaker and facts (1–3 valid facts of that speaker, none twice);
    ``ValueError`` naming the card otherwise. Returns the facts' :class:`FactInfo`."""
    if not isinstance(speaker, str) or speaker not in board.speaker_names:
        raise ValueError(f"card {card_id}: unknown speaker {speaker!r}")
    if not isinstance(facts, list | tuple) or not 1 <= len(facts) <= MAX_FACTS_PER_CARD:
        n = len(facts) if isinstance(facts, list | tuple) else type(facts).__name__
        raise ValueError(f"card {card_id}: a card holds 1 to {MAX_FACTS_PER_CARD} facts, got {n}")
    seen = set()
    infos = []
    for f in facts:
        try:
            info = fact_info(f, board)
        except ValueError as e:
            raise ValueError(f"card {card_id}: {e}") from None
        if f["speaker"] != speaker:
            raise ValueError(
                f"card {card_id}: all facts of a card have the card's speaker {speaker!r}; "
                f"a fact has speaker {f['speaker']!r}"
            )
        if info.key in seen:
            raise ValueError(f"card {card_id}: the fact {f!r} appears twice")
        seen.add(info.key)
        infos.append(info)
    return infos


def card_refs(facts: list[dict] | tuple[dict, ...], board: Board = WALTON) -> tuple[str, ...]:
    """A card's refs: the union of its facts' refs, in board reference order."""
    refs: set[str] = set()
    for f in facts:
        refs |= fact_refs(f, board)
    return sorted_refs(refs, board)


def make_card(card_id: int, speaker: str, facts: list[dict], board: Board = WALTON) -> Card:
    """Build a card from its facts (validated), computing refs, value and text."""
    require_int("card id", card_id, numpy=False)
    infos = check_card_facts(card_id, speaker, facts, board)
    facts_t = tuple(copy_fact(f) for f in facts)
    refs = infos[0].refs.union(*(i.refs for i in infos[1:]))
    keys = tuple(sorted(i.semantic for i in infos))
    return Card(
        id=card_id,
        speaker=speaker,
        facts=facts_t,
        refs=sorted_refs(refs, board),
        value=_value_of_share(_share_of(keys, facts_t, board)),
        text=card_text_of(speaker, [i.text for i in infos], board),
    )
