"""The random bot: a uniform choice among the legal actions, reproducible from its seed."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from citadels.engine.actions import Action


class RandomBot:
    """Chooses uniformly among the legal actions with its own seeded generator."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Action]) -> Action:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        return legal_actions[self.rng.randrange(len(legal_actions))]
