"""What the deduction engine uses of a fact: its semantic key, and which fact types are local.

Two facts with equal :func:`semantic_key` have the same effect on the candidates, so the engine
skips a fact it already knows and caches every per-fact computation by this key (as do the
card values and the generator). A fact type in :data:`LOCAL_TYPES` excludes a fixed set of
candidates whatever else is known, so the exclusions of local facts simply multiply.
"""

from __future__ import annotations

from ..facts import FACT_FIELDS

__all__ = ["LOCAL_TYPES", "semantic_key"]

_SEMANTIC_FIELDS: dict[str, tuple[str, ...]] = {
    **FACT_FIELDS,
    "evidence": ("motive", "verdict"),  # the room only sets the text
    "alone": ("suspect",),  # the room only sets the text
    "together": (),  # no inference at all
}

#: Fact types whose effect is a fixed set of excluded candidates (the factors multiply).
LOCAL_TYPES = frozenset(
    {"sign_absent", "weapon_unused", "testimony", "evidence", "together", "apart", "alone"}
)


def semantic_key(fact: dict) -> tuple:
    """What the engine uses of a (valid) fact: equal keys have the same effect. The speaker
    matters only for testimony (rule 8) and claims; rooms of evidence/alone/together and
    everything of ``together`` do not matter."""
    t = fact["type"]
    out: list = [t, fact["speaker"] if t in ("testimony", "claim") else None]
    for k in _SEMANTIC_FIELDS[t]:
        v = fact[k]
        out.append(tuple(v) if isinstance(v, list) else v)
    return tuple(out)
