"""The old home of :class:`~parlour.agents.rllib_module.MaskedPPOModule` (now in
:mod:`parlour.agents.rllib_module`, below the training layer: the ``rllib:`` agent rebuilds it).

RLlib checkpoints pickle their module class by its import path: those written before the move
name ``parlour.train.rllib.module.MaskedPPOModule``, and load (with ``--trust-model``) through
this alias.
"""

from __future__ import annotations

from parlour.agents.rllib_module import MASKED_LOGIT, MaskedPPOModule

__all__ = ["MASKED_LOGIT", "MaskedPPOModule"]
