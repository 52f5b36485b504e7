"""The printed forms of a case: the dossier a person reads (``parlour case show``) and the JSON
text (``parlour case generate``, ``parlour case bank show``).

| function | what |
|---|---|
| :func:`dossier` | header, every card in id order (value, refs, speaker, text), the solution last |
| :func:`case_json_text` | the case file's JSON as ``parlour case generate`` prints it |
"""

from __future__ import annotations

import json
import textwrap

from .board import WALTON
from .case import Case

__all__ = ["case_json_text", "dossier"]

#: the dossier's line width and card text indent
DOSSIER_WIDTH = 96
DOSSIER_INDENT = "    "


def _sol_text(case: Case) -> list[str]:
    s, d = case.solution, WALTON.display
    lines = [
        f"Murderer:   {d(s.murderer)}",
        f"Motive:     {d(s.motive)}",
        f"Weapon:     {d(s.weapon)}, kept in {d(WALTON.weapon(s.weapon).room)}",
    ]
    if s.accomplice is None:
        lines.append("Accomplice: none")
    else:
        lines.append(f"Accomplice: {d(s.accomplice)}, motive {d(s.accomplice_motive)}")
    lines.append("Route:      " + " -> ".join(d(r) for r in case.world.route))
    return lines


def _wrap(text: str) -> list[str]:
    """``textwrap.wrap`` of a card's text, indented, in linear time: words longer than a line
    are cut into line-sized pieces first (textwrap would cut them in quadratic time)."""
    room = DOSSIER_WIDTH - len(DOSSIER_INDENT)
    words = []
    for word in text.split():
        words.extend(word[i : i + room] for i in range(0, len(word), room))
    return textwrap.wrap(
        " ".join(words),
        width=DOSSIER_WIDTH,
        initial_indent=DOSSIER_INDENT,
        subsequent_indent=DOSSIER_INDENT,
    )


def dossier(case: Case) -> str:
    """The case as a person reads it: header, every card in id order, then the solution."""
    d = WALTON.display
    acc = "an accomplice is possible" if case.accomplice_possible else "no accomplice"
    out = [
        f"Awkward Guests: The Walton Case -- level {case.level}, seed {case.seed}, "
        f"{len(case.cards)} cards ({acc})",
        "",
    ]
    for card in sorted(case.cards, key=lambda c: c.id):
        refs = ", ".join(d(r) for r in card.refs)
        out.append(f"Card {card.id:>3}  value {card.value}  [{refs}]  {d(card.speaker)}")
        out.extend(_wrap(card.text))
    out += ["", "=" * 40 + " SOLUTION " + "=" * 40, *_sol_text(case)]
    return "\n".join(out)


def case_json_text(case: Case) -> str:
    """A case as ``generate`` prints it: indented JSON, the top-level keys in the case file's
    order and every object inside them with sorted keys. The text depends on the case's content
    only, so a case read back from a bank (stored as sorted JSON) prints the same bytes as the
    generator's (``parlour case bank show``)."""
    d = case.to_json()
    nested = {k: json.loads(json.dumps(v, sort_keys=True)) for k, v in d.items()}
    return json.dumps(nested, indent=1, ensure_ascii=False) + "\n"
