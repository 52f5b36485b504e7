"""The optimised observation encoder equals a plain reference encoding written from the spec."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.envs import audition_v0
from parlour.envs.audition import rules as R


def reference(state: R.AuditionState, observer: int, layout: dict[str, slice]) -> np.ndarray:
    n = state.num_players
    size = max(s.stop for s in layout.values())
    obs = np.zeros(size, np.float64)
    blocks = {name: obs[sl] for name, sl in layout.items()}
    mine = state.current_player == observer
    blocks["phase"][state.phase] = 1
    blocks["in_final"][0] = state.in_final
    if mine and state.drawn:
        blocks["drawn_card"][state.drawn - 1] = 1
    if mine and R.PHASES[state.phase] in ("pass_left", "discard_one", "discard_own"):
        blocks["pending_choice"][:] = state.choice[1:] / 13
    slots = blocks["slots"].reshape(6, 23)
    for s in range(n):
        slots[s, state.slot_kinds[s]] = 1
        slots[s, 7] = 1
        slots[s, 8] = state.slot_taken[s]
        slots[s, 9] = (state.slot_capacity(s) - sum(state.slots[s])) / 4
        slots[s, 10:] = state.slots[s, 1:] / 4
    players = blocks["players"].reshape(6, 19)
    for k in range(n):
        p = (observer + k) % n
        players[k, 0] = 1
        players[k, 1] = p == state.current_player
        players[k, 2] = state.taken[p]
        players[k, 3] = R.score_counts(state.collections[p])[0] / 65
        players[k, 4:17] = state.collections[p, 1:] / 13
        players[k, 17] = p in state.final_queue
        players[k, 18] = p == state.last_taker
    seen = state.collections.sum(0) + state.slots.sum(0) + state.discard
    if mine and state.drawn:
        seen[state.drawn] += 1
    blocks["unseen"][:] = (R.deck_composition(n) - seen)[1:] / 13
    blocks["deck_size"][0] = len(state.deck) / 91
    blocks["discard"][:] = state.discard[1:] / 13
    blocks["num_players"][n - 2] = 1
    blocks["variants"][:] = [any(state.slot_kinds), state.config.uncertain_counts]
    return obs.astype(np.float32)


@settings(max_examples=12)
@given(
    n=st.integers(2, 6),
    cards=st.booleans(),
    uncertain=st.booleans(),
    seed=st.integers(0, 2**31),
)
def test_encoder_matches_reference_for_every_observer(n, cards, uncertain, seed):
    env = audition_v0.raw_env(
        num_players=n, action_cards=n if cards else (), uncertain_counts=uncertain
    )
    rng = np.random.default_rng(seed)
    for game in range(2):  # a second game reuses the encoder's buffers
        env.reset(seed=seed + game)
        while True:
            for agent in rng.permutation(env.possible_agents):
                seat = env.agent_name_mapping[agent]
                got = env.observe(agent)["observation"]
                want = reference(env.game, seat, env.observation_layout)
                np.testing.assert_allclose(got, want, atol=1e-6)
            if all(env.terminations.values()):
                break
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
