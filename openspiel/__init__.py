"""parlour's games as OpenSpiel games (``pyspiel``): importing this package registers them.

```python
import pyspiel
import parlour.openspiel  # registers parlour_audition and parlour_awkward_guests

game = pyspiel.load_game("parlour_audition(players=3)")
pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
```

| module | OpenSpiel game |
|---|---|
| :mod:`parlour.openspiel.audition` | ``parlour_audition`` (2–6 players, both variants, the ``mini`` table for exact solvers) |
| :mod:`parlour.openspiel.guests` | ``parlour_awkward_guests`` (1–8 players, every level; the log of what each seat noticed: :mod:`parlour.openspiel.guests_log`) |
| :mod:`parlour.openspiel.common` | what both share: the game type, the observers' named tensors |

Needs the ``openspiel`` extra (``pip install "parlour[openspiel]"``). The games are Python
games over parlour's rules engines: the same engine state, legal actions, observation encoder
(named pieces) and returns as the PettingZoo environments (held to them by
``tests/openspiel/test_audition_spiel.py`` and ``test_guests_spiel.py``). Guide and results: ``docs/openspiel.md``.
"""

from __future__ import annotations

# importing a game's module registers it (parlour_audition, parlour_awkward_guests)
from parlour.openspiel import audition, guests

__all__ = ["audition", "guests"]
