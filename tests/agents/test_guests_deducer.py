"""``guests.deducer``: never wrong when it waits for one candidate, legal only, beats random,
and each decision rule on hand-made views."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from parlour.agents.factory import make_agent
from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests import game as G
from parlour.envs.awkward_guests.case.case import LEVELS
from parlour.envs.awkward_guests.case.deduction import Deduction
from parlour.envs.awkward_guests.case.solution import candidate_solutions
from parlour.envs.awkward_guests.env import raw_env
from parlour.envs.awkward_guests.view import make_view
from parlour.games import get_game
from parlour.games.guests.deducer import DeducerAgent, split_scores
from tests.awkward_guests.game_helpers import generated_case


def _play(env, agents, seed, watch=None):
    """One game through the AEC env; every action is checked against the engine's legal
    actions, and shown to ``watch(seat, view, action)`` when given. Returns the engine state
    at the end."""
    env.reset(seed=seed)
    for i, a in enumerate(agents):
        a.reset(seed * 31 + i)
    for name in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        seat = env.agent_name_mapping[name]
        view = env.player_view(name)
        action = agents[seat].act(obs, view)
        assert isinstance(action, int)
        assert action in env.game.legal_actions(), (agents[seat].spec, env.game.decision_name)
        assert obs["action_mask"][action] == 1
        if watch is not None:
            watch(seat, view, action)
        env.step(action)
    return env.game


@pytest.mark.parametrize("level", LEVELS)
def test_solo_deducer_never_accuses_wrongly(level):
    env = raw_env(num_players=1, level=level)
    agent = make_agent("guests.deducer", get_game("guests"))
    for seed in range(4):
        state = _play(env, [agent], seed)
        assert state.result in ("win", "truncated"), (level, seed, state.result)
        assert state.result == "win"  # solo: it always gets there within 30 rounds


@pytest.mark.parametrize(("players", "level"), [(2, "easy"), (3, "medium"), (4, "expert")])
def test_deducers_at_a_table_are_never_out(players, level):
    """With p=1 no deducer is ever knocked out (a wrong accusation is the only way out)."""
    env = raw_env(num_players=players, level=level)
    agents = [make_agent("guests.deducer", get_game("guests")) for _ in range(players)]
    for seed in range(3):
        state = _play(env, agents, seed)
        assert not any(state.out), (players, level, seed, state.out)
        assert state.result in ("win", "truncated")
        if state.result == "win":  # a correct accusation ended it
            assert state.winners


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_solo_deducer_never_accuses_wrongly_many_cases(level):
    env = raw_env(num_players=1, level=level)
    agent = make_agent("guests.deducer", get_game("guests"))
    for seed in range(100, 140):
        assert _play(env, [agent], seed).result == "win", (level, seed)


@pytest.mark.parametrize("players", [1, 2, 3, 5, 8])
def test_deducer_and_variants_play_only_legal_actions(players):
    level = ("easy", "medium", "very_hard", "hard", "expert")[players % 5]
    env = raw_env(num_players=players, level=level)
    specs = ["guests.deducer", "guests.deducer:p=0.3", "random"]
    agents = [make_agent(specs[i % len(specs)], get_game("guests")) for i in range(players)]
    for seed in range(2):
        _play(env, agents, seed)


def test_deducer_beats_random_clearly():
    from parlour.eval.tournament import run_tournament

    result = run_tournament(
        get_game("guests"), 2, ["guests.deducer", "random"], 40, seed=5, workers=1, progress=False
    )
    deducer = result["agents"][0]
    assert deducer["spec"] == "guests.deducer"
    assert deducer["ci95"][0] > 0.5, deducer


def test_risk_variant_accuses_earlier():
    """Both agents make the same moves (same seed, same rules) until the variant accuses, so on
    every deal it finishes no later, and on some strictly earlier."""
    rounds = {}
    for spec in ("guests.deducer", "guests.deducer:p=0.25"):
        env = raw_env(num_players=1, level="medium")
        agent = make_agent(spec, get_game("guests"))
        rounds[spec] = [_play(env, [agent], seed).round for seed in range(8)]
    assert all(
        a <= b
        for a, b in zip(rounds["guests.deducer:p=0.25"], rounds["guests.deducer"], strict=True)
    )
    assert sum(rounds["guests.deducer:p=0.25"]) < sum(rounds["guests.deducer"])


@pytest.mark.parametrize("p", ["0", "1.5", "-1", "abc", "nan"])
def test_bad_risk_option(p):
    with pytest.raises(ValueError, match="p"):
        make_agent(f"guests.deducer:p={p}", get_game("guests"))


def test_deducer_is_only_for_guests():
    with pytest.raises(ValueError, match="guests"):
        make_agent("guests.deducer", get_game("audition"))


# -- the decision rules, on views of real states ------------------------------------------------


def test_split_scores():
    sols = candidate_solutions(False)
    everything = np.ones(len(sols), bool)
    s = split_scores(everything, False)
    refs = list(A.REFERENCES)
    # 6 suspects × their 3 motives, each with 20 weapons: a suspect splits 1/6 vs 5/6 by 3
    p = np.array([1 / 18] * 3 + [15 / 18])
    assert s[refs.index("greg")] == pytest.approx(float(-(p * np.log2(p)).sum()))
    assert s[refs.index("study")] == 0.0  # no weapon is kept in the study
    # one candidate left: nothing splits
    one = np.zeros(len(sols), bool)
    one[7] = True
    assert not split_scores(one, False).any()
    # only greg's motives left: greg still splits by motive, the others not at all
    greg = np.array([s.murderer == "greg" for s in sols])
    sg = split_scores(greg, False)
    assert sg[refs.index("greg")] == pytest.approx(np.log2(3))
    assert sg[refs.index("angelica")] == 0.0


def _state_at(players: int, decision: int, seed: int = 3, offer_all: bool = True):
    """A generated-case game driven to ``decision`` (inquiry: first free refs; offers: every
    matching card when ``offer_all``; every affordable bid accepted; nobody accuses)."""
    case = generated_case("easy", seed)
    state = G.new_game(G.GuestsConfig(players), case, np.random.default_rng(seed), start=0)
    for _ in range(200):
        if state.decision == decision:
            return state
        legal = state.legal_actions()
        if state.decision == G.D_OFFER:
            cards = [a for a in legal if A.CARD_0 <= a < A.YES]
            state.apply(cards[0] if offer_all and cards else A.NO)
        elif state.decision == G.D_ANSWER:
            state.apply(A.YES if A.YES in legal else A.NO)
        elif state.decision == G.D_SOLUTION:
            state.apply(A.NO)
        else:
            state.apply(legal[0])
    raise AssertionError(f"decision {decision} not reached")


def test_answer_accepts_open_bids_and_declines_once_solved():
    state = _state_at(3, G.D_ANSWER)
    seat = state.current_player
    view = make_view(state, seat)
    assert A.YES in view.legal_actions
    agent = DeducerAgent(seed=0)
    assert agent.act({}, view) == A.YES
    # the same view with every card of the case in the notebook: one candidate, no need to buy
    solved = dataclasses.replace(view, notebook=tuple(state.tables.view_cards))
    agent = DeducerAgent(seed=0)
    assert agent.act({}, solved) == A.NO


def test_offer_prefers_cards_the_asker_has_seen():
    state = _state_at(3, G.D_OFFER)
    seat = state.current_player
    view = make_view(state, seat)
    cards = [a for a in view.legal_actions if A.CARD_0 <= a < A.YES]
    assert cards
    # a card the asker has seen teaches nothing: always offered
    target = max(cards)
    hand = tuple(
        dataclasses.replace(h, seen_by=(view.active_player,))
        if A.CARD_0 + h.slot == target
        else dataclasses.replace(h, seen_by=())
        for h in view.hand
    )
    seen_view = dataclasses.replace(view, hand=hand)
    assert DeducerAgent(seed=0).act({}, seen_view) == target
    # nobody has seen anything and the asker knows nothing: a card teaches the asker exactly its
    # own exclusion share, more than TEACH_RATIO of it, so nothing is offered (this hand has no
    # card that rules out nothing at all, which would be offered)
    fresh = dataclasses.replace(
        view, hand=tuple(dataclasses.replace(h, seen_by=()) for h in view.hand), revealed=()
    )
    assert DeducerAgent(seed=0).act({}, fresh) == A.NO


def test_pay_uses_cards_the_receiver_has_seen_first():
    state = _state_at(3, G.D_PAY)
    seat = state.current_player
    view = make_view(state, seat)
    bid = next(b for b in view.bids if b.answering)
    cards = [a for a in view.legal_actions if A.CARD_0 <= a < A.YES]
    assert len(cards) >= 2
    for target in (min(cards), max(cards)):
        hand = tuple(
            dataclasses.replace(h, seen_by=(bid.seat,) if A.CARD_0 + h.slot == target else ())
            for h in view.hand
        )
        assert DeducerAgent(seed=0).act({}, dataclasses.replace(view, hand=hand)) == target


def test_solution_waits_for_one_candidate_then_names_it():
    state = _state_at(2, G.D_SOLUTION)
    seat = state.current_player
    view = make_view(state, seat)
    agent = DeducerAgent(seed=0)
    assert agent.act({}, view) == A.NO  # a few cards cannot pin the case down
    # with every card of the case the candidate is the truth: accuse it, step by step
    full = dataclasses.replace(view, notebook=tuple(state.tables.view_cards))
    ded = Deduction(state.tables.accomplice_possible)
    for c in full.notebook:
        ded.add_facts(c.facts)
    assert ded.count() == 1
    agent = DeducerAgent(seed=0)
    assert agent.act({}, full) == A.YES
    state.apply(A.YES)
    expected = G.accusation_actions(state.case.solution, state.tables.accomplice_possible)
    for want in expected:
        v = dataclasses.replace(make_view(state, seat), notebook=full.notebook)
        got = agent.act({}, v)
        assert got == want
        state.apply(got)


def test_discard_keeps_the_most_valuable_cards():
    state = _state_at(4, G.D_DISCARD)
    seat = state.current_player
    view = make_view(state, seat)
    agent = DeducerAgent(seed=0)
    chosen = agent.act({}, view)
    value = {A.CARD_0 + h.slot: h.value for h in view.hand}
    assert value[chosen] == min(value[a] for a in view.legal_actions)


def test_the_guess_waits_for_its_start_round():
    """``start=R``: the same moves as the plain deducer's while the round is below R (it accuses
    only with one candidate left), and as ``p``'s from round R."""
    rounds = {}
    for spec in ("guests.deducer", "guests.deducer:p=0.25,start=4", "guests.deducer:p=0.25"):
        env = raw_env(num_players=1, level="medium")
        agent = make_agent(spec, get_game("guests"))
        rounds[spec] = [_play(env, [agent], seed).round for seed in range(8)]
    late, plain = rounds["guests.deducer:p=0.25,start=4"], rounds["guests.deducer"]
    early = rounds["guests.deducer:p=0.25"]
    assert all(min(p, 4) <= r <= p for r, p in zip(late, plain, strict=True))
    assert all(e <= r for e, r in zip(early, late, strict=True))
    for bad in ("0", "-2", "x"):
        with pytest.raises(ValueError, match="start"):
            make_agent(f"guests.deducer:p=0.5,start={bad}", get_game("guests"))


def _with_turns(view, records):
    """``view`` with ``last_turns`` replaced: ``records[seat] = (round, bids accepted)``."""
    from parlour.envs.awkward_guests.game.record import BidRecord
    from parlour.envs.awkward_guests.view import PastTurn

    turns = [None] * view.num_players
    for seat, (round_, accepted) in records.items():
        bidder = (seat + 1) % view.num_players
        bids = tuple(BidRecord(bidder, 2, 1, ok, 1 if ok else 0) for ok in accepted)
        turns[seat] = PastTurn(seat, round_, 0, ("greg", "study"), bids)
    return dataclasses.replace(view, last_turns=tuple(turns))


def test_declined_this_round_reads_only_other_players_still_in_this_round():
    """Another player still in declined every bid (at least one) of their turn this round."""
    from parlour.games.guests.deducer import declined_this_round

    view = make_view(_state_at(4, G.D_SOLUTION), 0)
    now, me, other = view.round, view.seat, (view.seat + 1) % 4
    assert not declined_this_round(_with_turns(view, {}))
    assert not declined_this_round(_with_turns(view, {other: (now, ())}))  # (no bid to decline)
    assert declined_this_round(_with_turns(view, {other: (now, (False,))}))
    assert declined_this_round(_with_turns(view, {other: (now, (False, False))}))
    # one accepted bid: it still wanted cards (a later bid it could not pay for)
    assert not declined_this_round(_with_turns(view, {other: (now, (True, False))}))
    assert not declined_this_round(_with_turns(view, {other: (now, (True, True))}))
    assert not declined_this_round(_with_turns(view, {me: (now, (False,))}))  # (its own)
    assert not declined_this_round(_with_turns(view, {other: (now - 1, (False,))}))  # (old)
    out = tuple(s == other for s in range(4))
    assert not declined_this_round(
        dataclasses.replace(_with_turns(view, {other: (now, (False,))}), out=out)
    )


def _view_with_candidates(low: int, high: int):
    """A 4-player Solution-phase view whose notebook leaves ``low``..``high`` candidates, and
    that count (cards of the case added in order until the count drops into the range)."""
    for seed in range(20):
        state = _state_at(4, G.D_SOLUTION, seed=seed)
        view = make_view(state, state.current_player)
        ded = Deduction(state.tables.accomplice_possible)
        cards = list(state.tables.view_cards)
        np.random.default_rng(seed).shuffle(cards)
        for k in range(len(cards)):
            ded.add_facts(cards[k].facts)
            if low <= ded.count() <= high:
                return dataclasses.replace(view, notebook=tuple(cards[: k + 1])), ded.count()
            if ded.count() < low:
                break
    raise AssertionError(f"no notebook with {low}..{high} candidates")


def test_threat_guesses_once_another_player_declined_a_bid():
    """``threat=K``: with 2..K candidates left it accuses when another player declined every bid
    of their turn this round, and waits otherwise (and with more than K candidates)."""
    view, count = _view_with_candidates(2, 6)
    other = (view.seat + 1) % view.num_players
    threatened = _with_turns(view, {other: (view.round, (False,))})
    calm = _with_turns(view, {other: (view.round, (True,))})
    assert DeducerAgent(seed=0).act({}, calm) == A.NO
    assert DeducerAgent(seed=0).act({}, threatened) == A.NO  # (threat off by default)
    assert DeducerAgent(seed=0, threat=count).act({}, threatened) == A.YES
    assert DeducerAgent(seed=0, threat=count).act({}, calm) == A.NO
    assert DeducerAgent(seed=0, threat=count - 1).act({}, threatened) == A.NO
    agent = make_agent(f"guests.deducer:threat={count}", get_game("guests"), seed=0)
    assert agent.act({}, threatened) == A.YES


def test_threat_accuses_with_several_candidates_only_after_a_decline():
    """In whole 4-player games against plain deducers: every accusation with more than one
    candidate left follows a turn whose every bid was declined this round, with at most
    ``threat`` candidates left."""
    from parlour.games.guests.deducer import declined_this_round

    env = raw_env(num_players=4, level="medium")
    guesses = []

    def watch(seat, view, action):
        if agents[seat] is threat and view.decision == "solution" and action == A.YES:
            left = len(threat.candidates(view))
            if left > 1:
                guesses.append(left)
                assert declined_this_round(view) and left <= 8

    for seed in range(6):
        agents = [make_agent("guests.deducer", get_game("guests")) for _ in range(3)]
        threat = DeducerAgent(seed=seed, threat=8)
        agents.insert(seed % 4, threat)
        _play(env, agents, seed, watch)
    assert guesses  # (the rule was exercised)


@pytest.mark.parametrize("bad", ["-1", "x", "1.5"])
def test_bad_threat_option(bad):
    with pytest.raises(ValueError, match="threat"):
        make_agent(f"guests.deducer:threat={bad}", get_game("guests"))


def test_rarest_candidates_keep_the_rarest_value_part_by_part():
    """Part by part (murderer first), only the candidates with the rarest value of that part
    among those still kept survive; ties keep all of them."""
    from parlour.envs.awkward_guests.case.solution import Solution
    from parlour.games.guests.deducer import rarest_candidates

    a = Solution("angelica", "poisoned_chalice", "wrench")
    b = Solution("angelica", "extreme_principles", "wrench")
    c = Solution("angelica", "extreme_principles", "shovel")
    d = Solution("greg", "stolen_recipe", "wrench")
    assert rarest_candidates([a, b, c, d]) == [d]  # greg: 1 of 4
    assert rarest_candidates([a, b, c]) == [a]  # then the motive: poisoned_chalice 1 of 3
    assert rarest_candidates([b, c]) == [b, c]  # a tie on every part kept so far, then weapons
    assert rarest_candidates([a]) == [a]


def test_pick_rare_names_a_rarest_candidate_in_whole_games():
    """``pick=rare``: every accusation with several candidates left names one of
    :func:`rarest_candidates` (whole 4-player games, ``threat=8``)."""
    from parlour.games.guests.deducer import rarest_candidates

    env = raw_env(num_players=4, level="medium")
    named: list[tuple] = []

    def watch(seat, view, action):
        agent = agents[seat]
        if agent is rare and view.decision == "solution" and action == A.YES:
            cands = rare.candidates(view)
            if len(cands) > 1:
                named.append((rare._target, rarest_candidates(cands), cands))

    for seed in range(40):
        agents = [make_agent("guests.deducer", get_game("guests")) for _ in range(3)]
        rare = make_agent("guests.deducer:threat=8,pick=rare", get_game("guests"), seed=seed)
        agents.insert(seed % 4, rare)
        _play(env, agents, seed, watch)
    assert named
    assert all(target in rarest for target, rarest, _ in named)
    assert any(len(rarest) < len(cands) for _, rarest, cands in named)  # (the pick mattered)


def test_bad_pick_option_names_the_allowed_values():
    with pytest.raises(ValueError, match=r"pick must be one of \['uniform', 'rare', 'likely'\]"):
        make_agent("guests.deducer:pick=best", get_game("guests"))


@pytest.mark.parametrize("bad", ["-0.1", "1.5", "x"])
def test_bad_odds_option(bad):
    with pytest.raises(ValueError, match="odds"):
        make_agent(f"guests.deducer:odds={bad}", get_game("guests"))


def test_likeliest_are_the_highest_weighted_candidates_left():
    """``likeliest``: the candidates left whose :func:`candidate_log_weights` is the highest,
    and the chance of one of them among all candidates left, on a real notebook."""
    from parlour.envs.awkward_guests.case.generator.odds import candidate_log_weights
    from parlour.envs.awkward_guests.case.solution import candidate_index

    view, count = _view_with_candidates(3, 40)
    agent = DeducerAgent(seed=0)
    cands = agent.candidates(view)
    facts = [f for card in view.notebook for f in card.facts]
    weights = candidate_log_weights(facts, view.level)[[candidate_index(c) for c in cands]]
    best, chance = agent.likeliest(view)
    assert best == [c for c, w in zip(cands, weights, strict=True) if w == weights.max()]
    assert chance == pytest.approx(1.0 / np.exp(weights - weights.max()).sum())
    assert len(cands) == count and 1.0 / count <= chance <= 1.0


def test_odds_accuses_once_the_likeliest_is_likely_enough():
    """``odds=Q``: accuses (naming a likeliest candidate with ``pick=likely``) exactly when the
    likeliest candidate's chance is at least ``Q``."""
    view, _ = _view_with_candidates(3, 40)
    _, chance = DeducerAgent(seed=0).likeliest(view)
    assert DeducerAgent(seed=0, odds=min(1.0, chance + 1e-3)).act({}, view) == A.NO
    agent = DeducerAgent(seed=0, odds=chance, pick="likely")
    assert agent.act({}, view) == A.YES
    assert agent._target in agent.likeliest(view)[0]


def test_pick_likely_names_a_likeliest_candidate_in_whole_games():
    """``pick=likely``: every accusation with several candidates left names one of
    ``likeliest`` (whole 4-player games, ``threat=64,odds=0.6``), and some with a chance above
    ``1 / candidates`` (the odds mattered)."""
    env = raw_env(num_players=4, level="medium")
    named: list[tuple] = []

    def watch(seat, view, action):
        if agents[seat] is likely and view.decision == "solution" and action == A.YES:
            cands = likely.candidates(view)
            if len(cands) > 1:
                named.append((likely._target, *likely.likeliest(view), len(cands)))

    for seed in range(12):
        agents = [make_agent("guests.deducer", get_game("guests")) for _ in range(3)]
        spec = "guests.deducer:threat=64,odds=0.6,pick=likely"
        likely = make_agent(spec, get_game("guests"), seed=seed)
        agents.insert(seed % 4, likely)
        _play(env, agents, seed, watch)
    assert named
    assert all(target in best for target, best, _, _ in named)
    assert any(chance > 1.0 / k + 1e-9 for _, _, chance, k in named)
