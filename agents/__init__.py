r"""Agents: scripted baselines and the policy wrapper for trained models.

Every agent follows :class:`parlour.agents.base.Agent` (``reset(seed)``, ``act(observation, view)``)
and is built from a spec string with :func:`parlour.agents.factory.make_agent`:

| spec | what it is |
|---|---|
| ``random`` | uniform over the legal actions (every game) |
| ``audition.greedy`` | one-ply greedy on the player view |
| ``audition.expert[:sims=N]`` | determinized Monte Carlo search with greedy rollouts |
| ``audition.search:model=PATH[,...]`` | the same search with rollouts by a trained PPO policy, cut by its value head (``docs/agents.md``) |
| ``guests.deducer[:p=P,start=R,threat=K,pick=rare\|likely,odds=Q]`` | Awkward Guests: deduction-engine candidate tracking; accuses when one candidate is left (or one has probability ≥ P from round R; or, with at most K candidates left, once another player declined every bid of their turn this round; or once the likeliest candidate under the case generator's odds has a chance ≥ Q); a guess names a candidate at random, with ``pick=rare`` the rarest choice part by part, with ``pick=likely`` the likeliest candidate |
| ``ppo:PATH[:sample]`` | a trained MaskablePPO model, acting with the mask |
| ``ppo:NAME[:sample]`` | a model shipped with parlour (:mod:`parlour.models`), at its own game and player count only |

Measured strength (Audition, 2 players; ``parlour eval``: seats rotated, paired deals; the win
rate of the first agent with its Wilson 95% interval; a shared win counts 1/|W|):

| match | games | win rate | 95% CI | mean scores |
|---|---|---|---|---|
| ``audition.greedy`` vs ``random`` | 1000 | 75.5% | 72.7–78.1% | 12.3 vs 7.3 |
| ``audition.expert`` vs ``audition.greedy`` | 200 | 92.0% | 87.4–95.0% | 14.3 vs 7.0 |
| ``audition.expert`` vs ``random`` | 200 | 93.5% | 89.2–96.2% | 13.6 vs 5.3 |
| ``audition.search:model=M`` vs ``audition.expert`` | 1000 | 65.5% | 62.6–68.4% | 10.6 vs 8.3 |
| ``ppo:M`` vs ``audition.expert`` (the same deals) | 1000 | 32.6% | 29.8–35.6% | 7.8 vs 9.4 |

(``M``: an 800k-step 2-player development model; ``docs/agents.md``.)

``guests.deducer`` (Awkward Guests; ``parlour eval``, 100 generated cases per row, deals
paired): solo, it solves 100% of beginner–medium cases and 99% of hard, very_hard and expert
ones (one case each hits the 30-round limit), in 5.2 / 6.2 / 8.5 / 9.1 / 10.7 / 11.9 / 14.3
mean rounds from beginner to expert, never accusing wrongly (mean reward +0.95 … +0.85). Against
``random`` it wins 98% (2p easy), 100% (2p medium) and holds 50% of 4p tables (two deducer
seats of four; the even share is 25%); ``random`` accuses at random and is soon out.

Trained PPO agents against them: see ``runs/<name>/report.md`` and the README.
"""

from parlour.agents.factory import make_agent

__all__ = ["make_agent"]
