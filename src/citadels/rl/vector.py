"""Batched self-play: many tables stepped together, as arrays, for batched training.

Each table is one game of the same setup; at every step each table waits for the seat to
move, so :meth:`SelfPlayBatch.observe` gives one row per table (that seat's encoded view and
mask) and :meth:`SelfPlayBatch.step` plays one numbered action per table. A finished game is
reported in ``step``'s result and the table is dealt a new game at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from citadels.rl.core import Table


@dataclass
class StepResult:
    """What one :meth:`SelfPlayBatch.step` did: for each table, whether its game ended and,
    if so, every seat's reward (a row of zeros otherwise)."""

    done: npt.NDArray[np.bool_]
    rewards: npt.NDArray[np.float32]
    """Shape (tables, players)."""


class SelfPlayBatch:
    """``tables`` games of one setup stepped in lockstep (see the module docstring).

    ``seed`` fixes every game of every table; ``reward`` and the setup arguments are those of
    :class:`~citadels.rl.core.Table`.
    """

    def __init__(
        self,
        tables: int,
        edition: str = "classic",
        players: int = 4,
        reward: str = "win",
        seed: int | None = None,
        **options: Any,
    ) -> None:
        self.tables = [Table(edition, players, reward, **options) for _ in range(tables)]
        for i, table in enumerate(self.tables):
            table.new_game(None if seed is None else seed * 100_003 + i)
        first = self.tables[0]
        self.space = first.space
        self.encoder = first.encoder
        self.players = players

    def seats(self) -> npt.NDArray[np.int64]:
        """The seat to move at each table."""
        return np.array([t.game.to_move for t in self.tables], dtype=np.int64)

    def observe(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """The observations (tables × encoding) and masks (tables × actions) of the seats to
        move."""
        obs = np.empty((len(self.tables), self.encoder.size), dtype=np.float32)
        masks = np.zeros((len(self.tables), self.space.size), dtype=np.int8)
        index = self.space.action_to_index
        for i, table in enumerate(self.tables):
            game = table.game
            seat = game.to_move
            assert seat is not None
            obs[i] = table.encoder.encode(game.view(seat, log_from=game.log_size))
            for a in game.legal_actions():
                masks[i, index(a)] = 1
        return obs, masks

    def step(self, actions: npt.ArrayLike) -> StepResult:
        """Play one numbered action at each table; deal a new game where one ended."""
        chosen = np.asarray(actions)
        n = len(self.tables)
        done = np.zeros(n, dtype=np.bool_)
        rewards = np.zeros((n, self.players), dtype=np.float32)
        for i, table in enumerate(self.tables):
            table.play(int(chosen[i]))
            if table.game.is_over:
                done[i] = True
                rewards[i] = table.rewards()
                table.new_game(None)
        return StepResult(done, rewards)
