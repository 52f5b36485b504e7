"""Awkward Guests on the page in plain words: a prompt for every decision, the rules panel, the
remaining candidates (aids only), the accusations at the end, and the wrong accusation announced
to the other seats (never what was accused)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator

import numpy as np

from parlour.apps.web.views import to_json
from parlour.envs.awkward_guests import actions as A
from parlour.envs.awkward_guests.case.board import WALTON
from parlour.envs.awkward_guests.case.deduction import Deduction
from parlour.envs.awkward_guests.env import raw_env
from parlour.envs.awkward_guests.game.rules import DECISIONS
from parlour.games.guests.plugin import GuestsTerminal
from parlour.games.guests.web import GuestsWeb

WEB, UI = GuestsWeb(), GuestsTerminal()
#: words of the engine that a person's prompt never shows
ENGINE_WORDS = re.compile(r"\bphase\b|\binquiry\b|\bdecision\b|[a-z]_[a-z]|\bref\b|\bslot\b", re.I)
#: share of Solution-phase decisions the scripted players accuse at (wrong accusations happen)
ACCUSE_SHARE = 0.15
#: scripted games: (players, level, seed)
GAMES = [(4, "medium", 3), (4, "medium", 8), (1, "easy", 2), (2, "medium", 5)]


def choose(env, rng: np.random.Generator, accuse: float = ACCUSE_SHARE) -> int:
    """A random legal action of the agent to move (accusing now and then)."""
    view = env.player_view(env.agent_selection)
    if view.decision == "solution":
        return A.YES if rng.random() < accuse else A.NO
    return int(rng.choice(view.legal_actions))


def steps(n: int, level: str, seed: int) -> Iterator[tuple]:
    """A random game: ``(env, agent, action)`` before each step, taken once the consumer
    resumes the generator."""
    env = raw_env(num_players=n, level=level)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while not all(env.terminations[a] or env.truncations[a] for a in env.agents):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        action = choose(env, rng)
        yield env, agent, action
        env.step(action)


def play(n: int, level: str, seed: int, on_step: Callable | None = None):
    env = None
    for env, agent, action in steps(n, level, seed):
        if on_step:
            on_step(env, agent, action)
    return env


def test_a_plain_prompt_for_every_decision_reached() -> None:
    prompts: dict[str, set[str]] = {}

    def check(env, agent, action):
        decision = env.player_view(agent).decision
        text = WEB.prompt(env, agent)
        assert text and text.endswith((".", "?")), (decision, text)
        assert not ENGINE_WORDS.search(text), (decision, text)
        prompts.setdefault(decision, set()).add(text)

    for game in GAMES:
        play(*game, on_step=check)
    assert set(prompts) == set(DECISIONS) - {"none"}  # every decision kind was reached
    assert any("the deck offers" in t for t in prompts["answer"])  # solo: the deck's bid
    env = play(3, "easy", 1)
    assert all(WEB.prompt(env, a) is None for a in env.possible_agents)  # nobody decides


def test_the_rules_panel() -> None:
    rules = WEB.rules()
    assert len(rules) >= 4
    assert all(s["heading"] and s["text"] for s in rules)
    text = " ".join(s["text"] for s in rules).lower()
    for words in ("murderer", "motive", "weapon", "accomplice", "bid", "out of the game", "gold"):
        assert words in text


def test_remaining_candidates_only_with_aids_and_as_the_deduction_allows() -> None:
    checked = 0
    for env, agent, _ in steps(3, "medium", 4):
        plain = WEB.view(env, agent)
        assert "remaining" not in plain and "candidates" not in plain
        page = WEB.view(env, agent, hints=True)
        view = env.player_view(agent)
        ded = Deduction(view.accomplice_possible)
        ded.add_facts(view.facts)
        left, count = page["remaining"], page["candidates"]
        assert count == ded.count()
        possible = ded.possible()
        assert left["murderers"] == [
            WALTON.display(s) for s in WALTON.suspects if s in possible["murderers"]
        ]
        assert left["weapons"] == [
            WALTON.display(w.id) for w in WALTON.weapons if w.id in possible["weapons"]
        ]
        assert len(left["motives"]) == len(possible["motives"])
        assert len(left["accomplices"]) == len(possible["accomplices"])
        for key, names in left.items():
            assert len(names) <= count
            assert names or key == "accomplice_motives"  # (empty: only "no accomplice" is left)
            assert not any("_" in x for x in names)
        checked += 1
    assert checked > 20
    easy = raw_env(num_players=2, level="easy")
    easy.reset(seed=1)
    assert set(WEB.view(easy, "player_0", hints=True)["remaining"]) == {
        "murderers",
        "motives",
        "weapons",
    }


def test_one_candidate_left_names_one_of_each() -> None:
    env = raw_env(num_players=2, level="medium")
    env.reset(seed=6)
    state = env.unwrapped.game
    state.seen[0][:] = True  # player_0 has seen the whole case: one candidate is left
    state.seen_log[0] = list(range(len(state.tables.view_cards)))
    page = WEB.view(env, "player_0", hints=True)
    assert page["candidates"] == 1
    left = page["remaining"]
    sol = state.case.solution
    assert all(len(v) == 1 for k, v in left.items() if k != "accomplice_motives")
    assert len(left["accomplice_motives"]) == (1 if sol.accomplice else 0)  # none: no motive
    assert left["murderers"] == [WALTON.display(sol.murderer)]


def test_the_end_shows_every_accusation_in_display_names() -> None:
    env = play(4, "medium", 3)
    results = env.results()
    final = json.loads(json.dumps(to_json(WEB.reveal(env, results))))
    assert final["winners"] == results["winners"]
    accs = final["accusations"]
    assert len(accs) == sum(results["accusations"].values()) > 0
    assert [a["correct"] for a in accs] == [c for _, _, c in env.game.accusation_log]
    suspects = {WALTON.display(s) for s in WALTON.suspects}
    for a in accs:
        assert a["murderer"] in suspects and a["agent"] == f"player_{a['seat']}"
        assert not any("_" in str(a[k]) for k in ("murderer", "motive", "weapon", "accomplice"))
    assert "board" in final and final["board"]["names"]["stolen_recipe"] == "Stolen Recipe"


def played(n: int, level: str, seed: int) -> Iterator[tuple]:
    """The steps of :func:`steps`, each once it has been played: ``(env, seat, action, the
    other seats' views before it, who was out before it)``."""
    held = None
    for env, agent, action in steps(n, level, seed):
        if held is not None:
            yield held
        watchers = [a for a in env.possible_agents if a != agent]
        before = {a: UI.view(env, a) for a in watchers}
        held = (env, env.possible_agents.index(agent), action, before, list(env.game.out))
    if held is not None:
        yield held


def test_a_wrong_accusation_is_announced_to_the_others_and_nothing_accused_is_said() -> None:
    secret = [m.name for m in WALTON.motives] + [WALTON.display(w.id) for w in WALTON.weapons]
    announced: list[int] = []
    for n, level, seed in GAMES[:2]:
        for env, seat, action, before, out_before in played(n, level, seed):
            newly = [p for p in range(n) if env.game.out[p] and not out_before[p]]
            for a, seen in before.items():
                said = UI.describe_other(seen, UI.view(env, a), seat, action)
                if said is None:
                    assert not newly
                    continue
                assert "#" not in said and not any(x in said for x in secret), said
                for p in newly:
                    assert f"player_{p} accused wrongly and is out of the game" in said
            announced += newly
    assert announced


def test_prompt_is_none_for_a_seat_that_does_not_decide() -> None:
    env = raw_env(num_players=3, level="easy")
    env.reset(seed=2)
    other = next(a for a in env.possible_agents if a != env.agent_selection)
    assert WEB.prompt(env, other) is None
