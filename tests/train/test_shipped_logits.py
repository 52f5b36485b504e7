"""Every shipped model's logits on its first decisions of a fixed game, pinned to recorded values:
a change to an observation encoder, a feature extractor or a policy class that would change what
a shipped model plays fails here (``tests/data/shipped_logits.json``).

Replacing a shipped model changes its file: the test then asks for a new recording,
``python -m tests.train.test_shipped_logits --record`` (it rewrites the entries of the models
whose file changed, and only those).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from parlour.agents.factory import make_agent
from parlour.games import get_game, make_raw_env
from parlour.models import seat_options, shipped_models

DATA = Path(__file__).resolve().parents[1] / "data" / "shipped_logits.json"
#: decisions recorded per model, one in every :data:`STRIDE` (the model plays every seat, most
#: probable legal action; Awkward Guests reaches its first solution phase within the stride)
DECISIONS = 40
STRIDE = 5
SEED = 0
SHIPPED = sorted(shipped_models().values(), key=lambda m: m.name)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _logits(model) -> list[list[float]]:
    """Raw logits of the legal actions at every :data:`STRIDE`-th decision of game ``SEED`` at
    the model's table (its own game options), the model playing every seat, up to
    :data:`DECISIONS` of them."""
    game = get_game(model.game)
    spec = f"ppo:{model.name}"
    env = make_raw_env(game, model.players, **seat_options([spec], {}))
    agent = make_agent(spec, game, seed=SEED, players=model.players)
    env.reset(seed=SEED)
    out: list[list[float]] = []
    for step, name in enumerate(env.agent_iter()):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        if step % STRIDE == 0:
            mask = obs["action_mask"]
            logits = agent.raw_logits(obs, mask)[np.flatnonzero(mask)]
            out.append([round(float(x), 4) for x in logits])
            if len(out) == DECISIONS:
                break
        env.step(agent.act(obs, env.player_view(name)))
    return out


def _recorded() -> dict:
    return json.loads(DATA.read_text()) if DATA.is_file() else {}


@pytest.mark.parametrize("model", SHIPPED, ids=[m.name for m in SHIPPED])
def test_shipped_model_logits_are_the_recorded_ones(model):
    entry = _recorded().get(model.name)
    assert entry is not None and entry["sha256"] == _sha256(model.path), (
        f"{model.name}: no recording of this model file; run "
        "python -m tests.train.test_shipped_logits --record"
    )
    got, want = _logits(model), entry["logits"]
    assert [len(x) for x in got] == [len(x) for x in want]  # (the same game, the same masks)
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        np.testing.assert_allclose(g, w, atol=2e-3, rtol=1e-4, err_msg=f"decision {i}")


def record() -> None:
    """Rewrite the entries of the models whose file is new or changed (and drop the others)."""
    old = _recorded()
    new = {}
    for model in SHIPPED:
        digest = _sha256(model.path)
        if model.name in old and old[model.name]["sha256"] == digest:
            new[model.name] = old[model.name]
        else:
            new[model.name] = {"sha256": digest, "logits": _logits(model)}
            print(f"recorded {model.name}")
    DATA.write_text(json.dumps(new, indent=None, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: python -m tests.train.test_shipped_logits --record")
    record()
