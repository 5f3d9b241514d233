"""What every environment shares: one game of a fixed setup, its numbering, its encoder, the
seeds of successive games and the rewards at the end."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt

from citadels.engine.game import Game, new_game
from citadels.errors import IllegalAction
from citadels.rl.actions import ActionSpace
from citadels.rl.observation import ObservationEncoder

#: Reward schemes: ``win`` gives 1 shared among the tied winners (0 to the others); ``score``
#: gives each seat its final score; ``margin`` its score minus the best other score, over 10.
REWARDS = ("win", "score", "margin")


class Table:
    """A game of one setup played through numbers: the common core of the environments."""

    def __init__(
        self, edition: str = "classic", players: int = 4, reward: str = "win", **options: Any
    ) -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        self.edition = edition
        self.players = players
        self.options = options
        self.reward = reward
        self.space = ActionSpace.for_setup(edition, players, **options)
        self.encoder = ObservationEncoder(self.space)
        self._seeds = random.Random()
        self.game: Game = self.new_game(None)

    def new_game(self, seed: int | None) -> Game:
        """Start the next game. A ``seed`` fixes it and every later one started without a
        seed; otherwise the next seed follows from the previous ones."""
        if seed is not None:
            self._seeds.seed(seed)
        self.game = new_game(
            self.edition, self.players, seed=self._seeds.getrandbits(63), **self.options
        )
        return self.game

    def observation(self, seat: int) -> npt.NDArray[np.float32]:
        """The encoding of ``seat``'s view now."""
        game = self.game
        return self.encoder.encode(game.view(seat, log_from=game.log_size))

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        """The legal-action mask of ``seat``: all zero unless it is to move."""
        game = self.game
        if game.to_move != seat:
            return np.zeros(self.space.size, dtype=np.int8)
        return self.space.mask(game.legal_actions())

    def play(self, index: int) -> None:
        """Play the action numbered ``index`` for the seat to move (``ValueError`` if it is
        not legal now)."""
        action = self.space.index_to_action(int(index))
        try:
            self.game.apply(action)
        except IllegalAction as exc:
            raise ValueError(f"action {index} ({action.text()}) is not legal now: {exc}") from None

    def rewards(self) -> list[float]:
        """Each seat's reward for the finished game, by the table's scheme."""
        result = self.game.result()
        if self.reward == "win":
            winners = result.winners
            return [1.0 / len(winners) if s in winners else 0.0 for s in range(self.players)]
        scores = [r.score for r in result.seats]
        if self.reward == "score":
            return [float(x) for x in scores]
        return [
            (scores[s] - max(x for i, x in enumerate(scores) if i != s)) / 10.0
            for s in range(self.players)
        ]
