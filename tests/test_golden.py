"""Golden transcripts: seeded games whose every decision, legal action list and views are
stored in tests/golden/ and diffed (DESIGN.md, level 4).

A change to the engine that alters any of them fails here; if the change is intended,
regenerate with ``CITADELS_REGEN_GOLDEN=1 pytest tests/test_golden.py`` and review the diff.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

import citadels
from citadels.present import render_event

GOLDEN = Path(__file__).parent / "golden"
REGEN = os.environ.get("CITADELS_REGEN_GOLDEN") == "1"

GAMES = [
    ("classic", 4, 7, {}),
    ("classic", 7, 11, {}),
    ("classic", 2, 5, {"complete_at": 7}),
    ("basic", 3, 3, {}),
    ("dezh", 2, 2, {}),
    ("dezh", 5, 9, {}),
]


def transcript(edition: str, players: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """Play a seeded random game and record everything a client could see."""
    game = citadels.new_game(edition, players, seed=seed, **options)
    rng = random.Random(seed)
    steps = []
    log_seen = 0
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        view = game.view(seat, log_from=log_seen)
        legal = game.legal_actions()
        action = legal[rng.randrange(len(legal))]
        steps.append(
            {
                "to_move": seat,
                "round": view["round"],
                "phase": view["phase"],
                "gold": [p["gold"] for p in view["players"]],
                "hand": view["players"][seat]["hand"],
                "legal": [str(a) for a in legal],
                "action": action.to_json(),
                "new_events": [render_event(edition, e) for e in view["log"]],
            }
        )
        log_seen = len(game.state.log)
        game.apply(action)
    return {
        "setup": {"edition": edition, "players": players, "seed": seed, "options": options},
        "steps": steps,
        "final_views": [game.view(None)]
        + [game.view(s, log_from=len(game.state.log)) for s in range(players)],
        "result": game.result().to_json(),
    }


@pytest.mark.parametrize(("edition", "players", "seed", "options"), GAMES)
def test_golden_transcript(edition: str, players: int, seed: int, options: dict[str, Any]) -> None:
    path = GOLDEN / f"{edition}_{players}p_seed{seed}.json"
    got = json.loads(json.dumps(transcript(edition, players, seed, options)))
    if REGEN or not path.exists():
        path.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        if not REGEN:
            pytest.fail(f"{path.name} did not exist and was written; review and commit it")
    want = json.loads(path.read_text(encoding="utf-8"))
    for i, (a, b) in enumerate(zip(got["steps"], want["steps"], strict=False)):
        assert a == b, f"decision {i} differs"
    assert len(got["steps"]) == len(want["steps"])
    assert got["final_views"] == want["final_views"]
    assert got["result"] == want["result"]
