"""Agents: scripted baselines and the policy wrapper for trained models.

Every agent follows :class:`agents.base.Agent` (``reset(seed)``, ``act(observation, view)``)
and is built from a spec string with :func:`agents.factory.make_agent`:

| spec | what it is |
|---|---|
| ``random`` | uniform over the legal actions (every game) |
| ``audition.greedy`` | one-ply greedy on the player view |
| ``audition.expert[:sims=N]`` | determinized Monte Carlo search with greedy rollouts |
| ``guests.deducer[:p=P]`` | Awkward Guests: deduction-engine candidate tracking; accuses when one candidate is left (or one has probability ≥ P) |
| ``ppo:PATH[:sample]`` | a trained MaskablePPO model, acting with the mask |

Measured strength (Audition, 2 players; ``parlour eval``: seats rotated, paired deals; the win
rate of the first agent with its Wilson 95% interval; a shared win counts 1/|W|):

| match | games | win rate | 95% CI | mean scores |
|---|---|---|---|---|
| ``audition.greedy`` vs ``random`` | 1000 | 75.5% | 72.7–78.1% | 12.3 vs 7.3 |
| ``audition.expert`` vs ``audition.greedy`` | 200 | 92.0% | 87.4–95.0% | 14.3 vs 7.0 |
| ``audition.expert`` vs ``random`` | 200 | 93.5% | 89.2–96.2% | 13.6 vs 5.3 |

Trained PPO agents against them: see ``runs/<name>/report.md`` and the README.
"""

from agents.factory import make_agent

__all__ = ["make_agent"]
