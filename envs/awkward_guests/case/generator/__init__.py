"""The case generator: ``generate_case(level, seed, deck_size=70) -> Case``.

Deterministic per ``(level, seed)``: one ``np.random.default_rng([level index, seed])`` drives
every choice. A case is built in five steps and is never returned unverified:

1. **Hidden truth** (docs/case_model.md#hidden-truth, :func:`sample_truth`). Murderer ``M``, motive ``μ``, weapon
   ``w``; from ``medium`` on an accomplice ``A`` with motive ``α`` in half the cases (decided
   once per seed, so that retries cannot bias the share). Start rooms are alibi rooms; innocents
   stay, ``M`` is in the Study, ``A`` anywhere but the Study (at levels without murder-time
   sightings ``A`` joins innocents in an alibi room, so claims and head counts can tell ``A``
   from ``M``). ``M``'s route is a random shortest walk start room → weapon room → nearest
   entrance → Study. The boxes of ``μ``/``α`` all confirm, every other motive of a culprit gets
   1–3 refuting boxes, an innocent's motive is refuted or never (a red herring). Staff saw
   ``M`` and ``A`` only together (1–2 sightings); other sightings are innocent pairs (misleading
   ``together`` clues) and lone innocents. Alibi stories: with an accomplice both culprits say
   "the two of us in room ``R``"; a lone murderer says "alone" or names an innocent.
2. **Fact pool** (:func:`true_fact_pool`): every true fact the level allows; *inert* facts
   (confirming evidence, ``together``; confirming testimony and ``apart``/``alone`` when no
   accomplice is possible) exclude no candidate.
3. **Core** (:func:`find_core`): a few combined-reasoning facts (claims, head counts, passages,
   start rooms, apart/alone) go into a draft up front (``seeded``, harder levels); then facts
   are tried in a random order weighted by the level's type preferences and kept when they
   shrink the candidate set (incremental engine), until one candidate is left. The draft is
   reduced to a **minimal core** (every fact needed), dropping the least preferred first:
   direct facts (unused weapons, murder-time sightings, refuting boxes, missing signs) at easy
   levels, combined reasoning at hard ones.
4. **Deck**: each core fact is told ``copies`` times (other speakers, the same speaker on
   another card when ``repeat`` allows, other refuting boxes of the motive, evidence found in
   other rooms, the unused weapons behind a missing sign), plus filler: informative non-core
   facts (share ``informative``) and inert ones. At guarded levels an informative filler fact
   is admitted only if every core fact stays needed (:class:`_Guard`), so the last core fact
   tends to come late. Facts are packed into cards of one speaker with 1–3 facts (no two cards
   alike), shuffled, ids ``0..n-1`` in shuffled order (id order reveals nothing).
5. **Verification** (:func:`verify_case`): the hidden world obeys docs/case_model.md#hidden-truth, every fact is true
   (:mod:`parlour.envs.awkward_guests.case.truth`), and the full deck leaves exactly the true solution; otherwise the world is
   resampled from the same generator (deterministic) — after ``MAX_ATTEMPTS`` a
   ``RuntimeError`` (never observed).

Modules
-------

=============  ================================================================================
module         content
=============  ================================================================================
``recipes``    the level table (:class:`Recipe`, ``RECIPES``) and the deck-size limits
``draws``      the random draws (pick, 1–3 counts, weighted orders)
``world``      step 1, :func:`sample_truth`
``pool``       step 2, :func:`true_fact_pool`
``core``       step 3, :func:`find_core`
``deck``       step 4, the cards
``generate``   step 5, :func:`generate_case` and :func:`verify_case`
=============  ================================================================================
"""

from .core import Core, find_core
from .generate import MAX_ATTEMPTS, generate_case, verify_case
from .pool import PoolItem, true_fact_pool
from .recipes import DEFAULT_DECK_SIZE, MAX_DECK_SIZE, MIN_DECK_SIZE, RECIPES, Recipe
from .world import sample_truth

__all__ = [
    "RECIPES",
    "Recipe",
    "generate_case",
    "verify_case",
    "sample_truth",
    "true_fact_pool",
    "find_core",
    "Core",
    "PoolItem",
    "DEFAULT_DECK_SIZE",
    "MIN_DECK_SIZE",
    "MAX_DECK_SIZE",
    "MAX_ATTEMPTS",
]
