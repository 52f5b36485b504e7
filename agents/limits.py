"""Upper bounds on the networks parlour builds, from a config or from a model file.

Defined here, below :mod:`parlour.train` (layers: envs < agents < train), so that the model file
reader (:mod:`parlour.agents.model_document`) and the config checks
(:mod:`parlour.limits`, which re-exports the network bounds) use the same values. A model
file past a bound is refused before anything is built from it.

| bound | value | why this value |
|---|---|---|
| :data:`MAX_LAYER_WIDTH` | 4,096 | the shipped configs use at most 512; one 4,096-wide square layer is 16.8 M weights |
| :data:`MAX_LAYERS` | 16 | hidden layers per network; the shipped configs use at most 2 |
| :data:`MAX_NETWORK_PARAMETERS` | 50,000,000 | 200 MB of float32 weights, ~800 MB with the gradients and Adam's two moments |
| :data:`MAX_OBSERVATION_SIZE` | 1,048,576 | numbers in a flat observation; Awkward Guests' is 2,384, Audition's 321 |
| :data:`MAX_ACTIONS` | 65,536 | a ``Discrete`` action space's ``n`` (and its ``start``); Awkward Guests has 95 actions, Audition 27 |
| :data:`MAX_OPTION_INT` | 1,000,000 | the magnitude of an int or float option of a features extractor in a model file |
| :data:`MAX_OPTION_TEXT` | 256 | the length of a str option of a features extractor in a model file |

:func:`network_parameters` counts the weights of a fully connected network.
"""

from __future__ import annotations

MAX_LAYER_WIDTH = 4_096
MAX_LAYERS = 16
MAX_NETWORK_PARAMETERS = 50_000_000
MAX_OBSERVATION_SIZE = 2**20
MAX_ACTIONS = 2**16
MAX_OPTION_INT = 1_000_000
MAX_OPTION_TEXT = 256


def network_parameters(layers: list[int], inputs: int) -> int:
    """The weights and biases of a fully connected network of ``layers`` on ``inputs`` numbers."""
    total, width = 0, inputs
    for size in layers:
        total += width * size + size
        width = size
    return total
