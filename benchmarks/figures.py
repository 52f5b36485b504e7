"""One measured figure of ``parlour bench``: its value, unit, and the ratio to its peer's.

Shared by the sections (:mod:`parlour.benchmarks.run` and the section modules it runs, e.g.
:mod:`parlour.benchmarks.guests`), so that a section never imports the runner back.
"""

from __future__ import annotations

from typing import Any


def figure(name, value, unit, peer=None, peer_value=None, **extra) -> dict[str, Any]:
    """A figure: ``name``, ``value`` in ``unit``, and ``peer``'s value with the ratio to it
    (``None`` both when the peer was not measured), plus any ``extra`` fields."""
    ratio = value / peer_value if peer_value else None
    return {
        "name": name,
        "value": value,
        "unit": unit,
        "peer": peer if peer_value else None,
        "peer_value": peer_value,
        "ratio": ratio,
        **extra,
    }
