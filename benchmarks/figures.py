"""One measured figure of ``parlour bench``: its value, unit, and the ratio to its peer's.

Shared by the sections (:mod:`parlour.benchmarks.run` and the section modules it runs, e.g.
:mod:`parlour.benchmarks.guests`), so that a section never imports the runner back.

| function | what |
|---|---|
| :func:`figure` | one figure's record (value, unit, peer value, ratio, extra fields) |
| :func:`interleaved_samples` | every case's timed samples, the cases run in turn in each repeat |
| :func:`interleaved` | the median per case of those samples |
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
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


def interleaved_samples(
    cases: dict[str, Callable[[int], Any]], repeats: int
) -> dict[str, list[Any]]:
    """``repeats`` samples per case: in repeat ``r`` every case runs once (``run(r)``), in
    order, so machine noise hits all of them alike."""
    samples: dict[str, list] = {k: [] for k in cases}
    for r in range(repeats):
        for name, run in cases.items():
            samples[name].append(run(r))
    return samples


def median_of(samples: list[Any]) -> Any:
    """The median of samples; of tuples, the median of each element."""
    if isinstance(samples[0], tuple):
        return tuple(statistics.median(x) for x in zip(*samples, strict=True))
    return statistics.median(samples)


def interleaved(cases: dict[str, Callable[[int], Any]], repeats: int) -> dict[str, Any]:
    """Median per case over ``repeats`` interleaved runs; a case returning a tuple of figures
    gets the median of each."""
    return {k: median_of(v) for k, v in interleaved_samples(cases, repeats).items()}
