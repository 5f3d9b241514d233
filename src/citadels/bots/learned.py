"""The learned bot: plays a policy trained by ``examples/train_ppo.py`` (needs numpy, from
the ``rl`` extra: ``pip install citadels[rl]``)."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from citadels.engine.actions import Action

#: The checkpoint shipped with the package: `classic`, 4 players (see docs/rl.md).
DEFAULT_CHECKPOINT = Path(__file__).with_name("learned_classic_4p.npz")


class LearnedBot:
    """Chooses the legal action its policy rates highest (``temperature`` above 0: samples
    from the policy's distribution over the legal actions instead).

    ``path`` is a checkpoint (``None``: the one shipped, for `classic` with 4 players); the
    bot plays only games of the setup it was trained for and says so otherwise.
    """

    def __init__(
        self, seed: int | None = None, *, path: str | None = None, temperature: float = 0.0
    ) -> None:
        try:
            from citadels.rl.policy import Policy
        except ImportError as exc:  # numpy is an optional dependency
            raise ValueError(
                f"the learned bot needs numpy ({exc}): pip install 'citadels[rl]'"
            ) from None
        if temperature < 0:
            raise ValueError(f"temperature must be 0 or more, not {temperature}")
        self.policy = Policy.load(path if path is not None else DEFAULT_CHECKPOINT)
        self.temperature = temperature
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Action]) -> Action:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        policy = self.policy
        setup = policy.setup
        if (
            view.get("edition") != setup["edition"]
            or len(view.get("players", ())) != (setup["players"])
        ):
            raise ValueError(
                f"this learned bot plays {setup['edition']} with {setup['players']} players "
                f"only, not {view.get('edition')} with {len(view.get('players', ()))}"
            )
        numbered = []
        for a in legal_actions:
            try:
                numbered.append((policy.space.action_to_index(a), a))
            except KeyError:  # not an action of the setup's numbering: never chosen
                continue
        if not numbered:
            return legal_actions[self.rng.randrange(len(legal_actions))]
        logits = policy.logits(policy.encoder.encode(view))
        if self.temperature == 0:
            return max(numbered, key=lambda pair: float(logits[pair[0]]))[1]
        scores = [float(logits[i]) / self.temperature for i, _ in numbered]
        top = max(scores)
        weights = [math.exp(s - top) for s in scores]
        return self.rng.choices([a for _, a in numbered], weights=weights)[0]
