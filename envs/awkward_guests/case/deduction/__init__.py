"""The deduction engine: the exact set of solutions consistent with a set of facts.

``solve(facts, accomplice_possible)`` returns every candidate solution consistent with the facts
under the deduction rules D1–D8 (docs/rules/awkward_guests.md#deduction-rules); :class:`Deduction` is the incremental form (add one
card's facts at a time) used inside every env step.

Candidates
----------

A candidate is ``(M, μ, w, A, α)``; the candidates are enumerated once per board, in the fixed
order of :mod:`parlour.envs.awkward_guests.case.solution` (360 without an accomplice, then
5,400 with one), and :meth:`Deduction.candidate_mask` is a bool array over that order. With
``accomplice_possible=False`` only the first 360 exist.

Consistency (docs/case_model.md#consistency, conditions (i)–(iv))
------------------------------------------

A candidate is excluded only when **no** assignment of start rooms (every suspect in an alibi
room), murder-time locations (innocents in their start room, ``M`` in the study, ``A`` in any
room but the study) and murderer's route (from ``M``'s start room through the weapon's room to
the garage, bedroom or shed, then into the study, over passages not known unused; rooms may
repeat) makes every trusted fact true, or when it breaks a motive / conspiracy condition:

=======================  ===================================================================
fact                     constrains
=======================  ===================================================================
sign_absent, weapon_     the weapon (rule 6)
unused
passage_unused           the route (rule 7): the passage is not on it
seen_before              the suspect's start room
seen_at_murder           the suspect's murder-time location (never the murderer's: the
                         murderer was in the study)
guest_count              head count of the room at the murder (berwick counts 2; the
                         murderer is never counted; the accomplice counts where they are)
claim                    by an innocent: they were in that room (their start room) and
                         ``with`` is exactly everyone else there at the murder (which can
                         include the accomplice). By ``M`` or ``A``: untrusted, but with an
                         accomplice condition (iii) applies
testimony, evidence      a refuting box excludes that motive as ``μ`` or ``α`` (i); ``A``
                         never testifies about ``μ`` nor ``M`` about ``α`` (ii)
together                 nothing (may mislead)
apart, alone             with an accomplice: no ``alone`` about ``M``/``A``, no ``apart``
                         about the pair (iii); nothing otherwise
=======================  ===================================================================

Condition (iii): ``A``'s known claims are all "with exactly ``M``", ``M``'s all "with exactly
``A``", and all of them name the same alibi room.

Rulings: ``passage_unused`` constrains only the murderer's route (the accomplice's way from
their start room to their murder-time room is not part of the hidden truth); staff facts about
the murderer are trusted like any other (``seen_at_murder`` of the murderer is false, so it
clears them); a lone murderer's claims constrain nothing.

The derived rules fall out of this definition (see ``tests/awkward_guests/
test_deduction_rules.py``): two suspects who claim to have been together are both innocent or
murderer and accomplice; a suspect whose three motives are refuted is never the murderer nor the
accomplice; a suspect who cannot reach the study is not the murderer.

Factorisation
-------------

===========================  ================  =============================================
factor                       shape             recomputed when a card adds
===========================  ================  =============================================
motive not refuted (i)       (18,)             testimony / evidence that refutes
testified (ii)               (6, 18)           testimony
weapon possible (6)          (20,)             sign_absent / weapon_unused
route ``R[s, w]`` (7)        (4 start, 20)     passage_unused
locations ``F[M, A, l]``     (6, 6, 9) sets    seen_before / seen_at_murder / guest_count /
                             of 4⁶ starts      claim
conspiracy (iii)             (6, 6)            claim / alone / apart
===========================  ================  =============================================

``F[M, A, l]`` is, for murderer ``M``, accomplice ``A`` (``A == M`` encodes "no accomplice")
and accomplice location ``l`` (one of the 9 rooms other than the study), the set of the
4⁶ = 4,096 start-room assignments under which every location fact holds. It is kept factored,
``F[M, A, l] = H[M, A, class(l)] & gate[M, A, l]``: the gate (bool) holds what only depends on
where the accomplice is, and ``class(l)`` (the alibi room ``l`` is, or "none") is all a head
count needs to know of ``l``. Until the first head count every location fact restricts each
suspect's start room on its own, so ``H[M, A]`` is a product set, kept as one allowed-room mask
per suspect (``box``, (6, 6, 6) bytes); the first head count expands it into bitsets of 64
uint64 words (``H``: (6, 6, 5, 64)). Without an accomplice only ``F[M, M, 0]`` exists ((6, 64)
words). The start-room tables (who is where, head counts per room) are precomputed once per
board. The joint location/route factor over ``(M, A, w)`` is "some start room ``s`` of ``M``
with ``F[M, A, ·]`` non-empty on ``start[M] = s`` and ``R[s, w]``". The factors are combined by
one gather into the fixed enumeration; :meth:`Deduction.count` multiplies the per-(M, A) factor
counts instead and builds no mask. What a fact does to the location state does not depend on the
state, so it is computed once per fact content (bounded caches), as are the motive, (μ, α) pair
and conspiracy factors per content of what they depend on; clones share every array that is
only ever replaced, and :meth:`Deduction.merged` combines two states (the generator's "all
facts but one" states).

Cost (measured on the 2-core development machine): adding one card and counting
≈ 0.05 ms; ``solve`` of a 70-card deck (~120 facts) a few ms; a fresh ``Deduction`` ≈ 6 µs.

Modules
-------

==================  ===========================================================================
module              content
==================  ===========================================================================
``engine``          :class:`Deduction` (the incremental state), :func:`solve`,
                    :func:`count_consistent`
``keys``            :func:`semantic_key` (what the engine uses of a fact), ``LOCAL_TYPES``
``tables``          the per-board precomputed tables and the murderer's route table
``locations``       what a location fact ANDs into the location state (box / bitset rows)
``factors``         the motive, (μ, α) pair and conspiracy factors
==================  ===========================================================================
"""

from .engine import Deduction, count_consistent, solve
from .keys import LOCAL_TYPES, semantic_key

__all__ = ["Deduction", "solve", "count_consistent", "semantic_key", "LOCAL_TYPES"]
