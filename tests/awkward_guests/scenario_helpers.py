"""Awkward Guests scenario helpers: the rules' constants, hand-built cases and scripted play.

The constants are copied from the rule tables (``docs/rules/awkward_guests.md``, ``docs/case_model.md``), not imported
from the implementation: the action layout (``REF0`` … ``NACT``), the board's suspects,
motives, rooms, weapons and fact types. The cards have known trading values (asserted when
built; :mod:`tests.awkward_guests.game_helpers` has the general builders ``v1``/``v2``/``v3``):

* ``T`` — value 1, a ``together`` sighting naming two suspects and a room;
* ``W`` — value 2, an unused weapon naming the weapon's room;
* ``S`` — value 3, a missing sign naming the study;
* ``kitchen_filler`` — value 1, naming two suspects and the kitchen only, so that
  ``pass_turn_unmatched`` (asking ``NOMATCH4``) never finds a match in a ``build_case`` deck.

``three()`` / ``case3()`` are the three-player scenario (``SPECIAL`` cards, ``HANDS3``), and
``exchange_case()`` / ``make_bids()``, ``solo_case()`` the exchange and solo scenarios shared by
the rules and leak tests.
"""

from __future__ import annotations

import numpy as np

from parlour.envs import awkward_guests_v1
from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests.case.cards import make_card
from parlour.envs.awkward_guests.case.solution import Solution

from .game_helpers import SOLUTION, SOLUTION_ACC, game, make_case, padded_case, slot, v1, v2, v3

SUSPECTS = ["angelica", "berwick", "claudette", "greg", "mortimer", "stanley"]
MOTIVES = [
    ("angelica", "poisoned_chalice"),
    ("angelica", "extreme_principles"),
    ("angelica", "sinister_plans"),
    ("berwick", "family_vendetta"),
    ("berwick", "social_undermining"),
    ("berwick", "excessive_ambition"),
    ("claudette", "exposed_fraud"),
    ("claudette", "fatal_rejection"),
    ("claudette", "unforeseen_business"),
    ("greg", "stolen_recipe"),
    ("greg", "fixed_fights"),
    ("greg", "animal_cruelty"),
    ("mortimer", "broken_dreams"),
    ("mortimer", "pirated_idea"),
    ("mortimer", "child_neglect"),
    ("stanley", "macabre_bet"),
    ("stanley", "fraternity_hazing"),
    ("stanley", "fake_identity"),
]
MOTIVE_IDS = [m for _, m in MOTIVES]
ROOMS = [
    "study",
    "garage",
    "trophy_room",
    "bedroom",
    "kitchen",
    "shed",
    "billiard_room",
    "vestibule",
    "living_room",
    "library",
]
REFS = SUSPECTS + ROOMS
WEAPONS = [
    "wrench",
    "frying_pan",
    "shovel",
    "cue",
    "shotgun",
    "derringer",
    "revolver",
    "blunderbuss",
    "kitchen_knife",
    "letter_opener",
    "machete",
    "saber",
    "antifreeze",
    "rat_poison",
    "pesticide",
    "poisonous_plant",
    "leather_strap",
    "pillow",
    "rope",
    "curtain_cord",
]
FACT_TYPES = [
    "sign_absent",
    "weapon_unused",
    "passage_unused",
    "seen_before",
    "seen_at_murder",
    "guest_count",
    "claim",
    "testimony",
    "evidence",
    "together",
    "apart",
    "alone",
]
PHASES = ["inquiry", "offer", "exchange", "solution", "discard", "over"]
ACCOMPLICE_LEVELS = {"medium", "hard", "very_hard", "expert"}

# action layout (docs/envs/awkward_guests.md#action-space)
REF0, CARD0, YES, NO, SUS0, MOT0, WEA0, NOACC, NACT = 0, 16, 48, 49, 50, 56, 74, 94, 95


def ref_act(r: str) -> int:
    return REF0 + REFS.index(r)


def sus_act(s: str) -> int:
    return SUS0 + SUSPECTS.index(s)


def mot_act(m: str) -> int:
    return MOT0 + MOTIVE_IDS.index(m)


def wea_act(w: str) -> int:
    return WEA0 + WEAPONS.index(w)


def motives_of(s: str) -> list[str]:
    return [m for o, m in MOTIVES if o == s]


def accusation(sol: Solution, accomplice_possible: bool) -> list[int]:
    acts = [sus_act(sol.murderer), mot_act(sol.motive), wea_act(sol.weapon)]
    if accomplice_possible:
        if sol.accomplice is None:
            acts.append(NOACC)
        else:
            acts += [sus_act(sol.accomplice), mot_act(sol.accomplice_motive)]
    return acts


TRUTH = SOLUTION
TRUTH_ACC = SOLUTION_ACC
WRONG_ACC = Solution("stanley", "macabre_bet", "rope", "berwick", "family_vendetta")
_PAIRS = [(a, b) for i, a in enumerate(SUSPECTS) for b in SUSPECTS[i + 1 :]]


def T(cid: int, a: str = "angelica", b: str = "greg", room: str = "kitchen"):
    """value 1: a 'together' sighting naming two suspects and a room."""
    a, b = sorted((a, b), key=SUSPECTS.index)
    c = make_card(
        cid, "butler", [{"type": "together", "speaker": "butler", "suspects": [a, b], "room": room}]
    )
    assert c.value == 1 and set(c.refs) == {a, b, room}
    return c


_WEAPON_ROOM = {
    "wrench": "garage",
    "curtain_cord": "library",
    "cue": "billiard_room",
    "saber": "vestibule",
    "frying_pan": "kitchen",
}


def W(cid: int, weapon: str = "wrench"):
    """value 2: an unused weapon, naming the weapon's room."""
    c = make_card(cid, "cook", [{"type": "weapon_unused", "speaker": "cook", "weapon": weapon}])
    assert c.value == 2 and set(c.refs) == {_WEAPON_ROOM[weapon]}
    return c


def S(cid: int, sign: str = "burn_marks"):
    """value 3: a missing sign, naming the study."""
    c = make_card(cid, "police", [{"type": "sign_absent", "speaker": "police", "sign": sign}])
    assert c.value == 3 and set(c.refs) == {"study"}
    return c


def kitchen_filler(cid: int):
    """A value-1 card about two suspects (varied by id) in the kitchen."""
    a, b = _PAIRS[cid % len(_PAIRS)]
    return T(cid, a, b, "kitchen")


def build_case(special: dict | None = None, total: int = 60, level: str = "easy", solution=None):
    """``special`` cards (by id) and a kitchen filler for every other id below ``total``; the
    solution defaults to ``TRUTH`` (``TRUTH_ACC`` from medium on)."""
    cards = dict(special or {})
    for cid in range(total):
        if cid not in cards:
            cards[cid] = kitchen_filler(cid)
    return make_case([cards[k] for k in sorted(cards)], level, solution)


def deck_for(case, hands: list[list[int]], top: list[int] = ()) -> list[int]:
    deck = [c for h in hands for c in h] + list(top)
    rest = sorted(c.id for c in case.cards if c.id not in set(deck))
    return deck + rest


def engine(case, n, deck=None, start=0, max_rounds=30, seed=0):
    return G.new_game(
        G.GuestsConfig(n, max_rounds), case, np.random.default_rng(seed), deck=deck, start=start
    )


def new_env(case, n, deck=None, start=0, max_rounds=30, seed=0, **kw):
    env = awkward_guests_v1.raw_env(num_players=n, level=case.level, max_rounds=max_rounds, **kw)
    opts = {"case": case, "start": start}
    if deck is not None:
        opts["deck"] = deck
    env.reset(seed=seed, options=opts)
    return env


def legal(st) -> set[int]:
    return set(st.legal_actions())


def mask_set(st) -> set[int]:
    m = st.legal_mask()
    assert m.shape == (NACT,)
    return set(int(i) for i in np.flatnonzero(m))


NOMATCH4 = ["study", "library", "shed", "vestibule"]  # fillers name suspects + the kitchen only


def pass_turn_unmatched(st, refs=NOMATCH4):
    """The active player asks references nobody can match (filler cards)."""
    k = 4 if st.num_players <= 2 else 2
    for r in refs[:k]:
        st.apply(ref_act(r))


def pass_turn_any(st):
    """The active player asks the first free references; nobody offers / every bid declined."""
    k = 4 if st.num_players <= 2 else 2
    while st.decision_name == "inquiry" and len(st.asked) < k:
        st.apply(min(legal(st)))
    while st.decision_name in ("offer", "answer"):
        st.apply(NO)


def spec_accuse(st, sol):
    st.apply(YES)
    for a in accusation(sol, st.case.accomplice_possible):
        st.apply(a)


def env_act(env, action):
    """Step, then step(None) for every agent that is out (PettingZoo dead steps); rewards."""
    got = {a: 0.0 for a in env.possible_agents}
    env.step(action)
    for a, r in env.rewards.items():
        got[a] += r
    return got


def env_drain_dead(env):
    while env.agents and (
        env.terminations[env.agent_selection] or env.truncations[env.agent_selection]
    ):
        env.step(None)


def pass_round_env(env):
    st = env.game
    for _ in range(len(st.remaining)):
        pass_turn_unmatched(st)
    env.agent_selection = f"player_{st.current_player}"  # we drove the engine directly


def exchange_case():
    hands = [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11], [12, 13, 14, 15, 16, 17]]
    special = {0: S(0), 1: S(1), 2: W(2, "wrench"), 6: S(6), 12: S(12), 13: W(13, "curtain_cord")}
    case = build_case(special, total=40)
    return case, deck_for(case, hands)


def make_bids(st):
    st.apply(ref_act("study"))
    st.apply(ref_act("library"))
    assert st.current_player == 1
    st.apply(slot(st, 1, 6))
    st.apply(NO)  # bid (1, 3, 1)
    assert st.current_player == 2
    st.apply(slot(st, 2, 12))
    st.apply(slot(st, 2, 13))
    st.apply(NO)  # bid (2, 5, 2)
    assert st.current_player == 0 and st.decision_name == "answer"


def solo_case():
    special = {6: S(6), 8: W(8, "curtain_cord")}
    return build_case(special, total=60)


SOLO_ASK = ["study", "library", "billiard_room", "vestibule"]


# Three hands for 3-player scenarios. Asked refs "greg" + "kitchen":
#   seat 0: nothing matters (the active player)
#   seat 1: only card 11 (frying pan → kitchen) matches
#   seat 2: cards 21 (greg) and 22 (kitchen knife → kitchen) match
SPECIAL = [
    v3(1, "burn_marks"),
    v1(2, "angelica", "berwick", "library"),
    v1(3, "angelica", "claudette", "library"),
    v2(4, "wrench"),
    v2(5, "shovel"),
    v1(6, "berwick", "claudette", "vestibule"),
    v2(11, "frying_pan"),
    v3(12, "dark_powder"),
    v3(13, "cyanosis_bruises"),
    v2(14, "cue"),
    v1(15, "angelica", "mortimer", "library"),
    v1(16, "berwick", "mortimer", "vestibule"),
    v1(21, "greg", "stanley", "library"),
    v2(22, "kitchen_knife"),
    v3(23, "traces_of_dirt"),
    v3(24, "strong_odors"),
    v2(25, "shotgun"),
    v1(26, "claudette", "mortimer", "billiard_room"),
    v3(31, "heavy_bleeding"),
    v3(32, "oily_substance"),
    v3(33, "signs_of_fight"),
]


HANDS3 = [[1, 2, 3, 4, 5, 6], [11, 12, 13, 14, 15, 16], [21, 22, 23, 24, 25, 26]]


def case3(level: str = "easy", total: int = 60):
    return padded_case(SPECIAL, total=total, level=level)


def three(top=None, level="easy", **kw) -> G.GuestsState:
    return game(case3(level), 3, HANDS3, top=top, **kw)


def deducer_decisions(
    players: int, level: str, spec: str, seeds: int, observation_mode: str = "deduced_choices"
):
    """Whole games (seeds ``0 .. seeds - 1``) of ``spec`` agents on an env with
    ``observation_mode``: yields ``(env, name, obs, view, agent)`` at each decision (the caller
    reads; the agent's action is played after)."""
    from parlour.agents.factory import make_agent
    from parlour.games import get_game

    env = awkward_guests_v1.raw_env(
        num_players=players, level=level, observation_mode=observation_mode
    )
    agents = [make_agent(spec, get_game("guests")) for _ in range(players)]
    for seed in range(seeds):
        env.reset(seed=seed)
        for i, a in enumerate(agents):
            a.reset(seed * 31 + i)
        for name in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            view = env.player_view(name)
            agent = agents[env.agent_name_mapping[name]]
            yield env, name, obs, view, agent
            env.step(agent.act(obs, view))


#: the parts of an accusation in naming order (the decisions' names and ``Solution``'s fields),
#: their observation blocks (``deduced_*`` / ``accusation_*``) and the names each part chooses from
ACCUSATION_PARTS = ("murderer", "motive", "weapon", "accomplice", "accomplice_motive")
ACCUSATION_BLOCKS = ("murderers", "motives", "weapons", "accomplices", "accomplice_motives")
ACCUSATION_NAMES = (A.SUSPECTS, A.MOTIVES, A.WEAPONS, A.SUSPECTS, A.MOTIVES)


def accusation_part_cells(block: np.ndarray, part: int) -> np.ndarray:
    """The cells of accusation part ``part`` (engine order) in a 70-float block laid out as the
    five ``accusation_*`` blocks (``accusation_shares``, ``accusation_odds``)."""
    from parlour.envs.awkward_guests.observation import make_layout

    layout = make_layout("deduced_choices")
    first = layout["accusation_murderers"].start
    piece = layout[f"accusation_{ACCUSATION_BLOCKS[part]}"]
    return block[piece.start - first : piece.stop - first]


def candidates_matching_named_parts(env, name: str, view) -> list:
    """At ``name``'s decision naming a part of its accusation: the candidate solutions its
    notebook leaves that match every part named so far (``view.pending_accusation``)."""
    k = ACCUSATION_PARTS.index(view.decision)
    named = [getattr(view.pending_accusation, x) for x in ACCUSATION_PARTS[:k]]
    named = [None if x == "none" else x for x in named]
    return [
        c
        for c in env.deduction(name).candidates()
        if [getattr(c, x) for x in ACCUSATION_PARTS[:k]] == named
    ]
