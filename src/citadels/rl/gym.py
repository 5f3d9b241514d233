"""A Gymnasium single-agent environment: the learner holds one seat, project bots the others.

Observations are the learner's encoded view (a ``float32`` vector), actions the setup's
numbered actions (``Discrete(n)``). The legal-action mask is ``env.action_masks()`` (what
sb3-contrib's ``MaskablePPO`` reads) and ``info["action_mask"]``. The reward comes at the end
of the game (see :data:`citadels.rl.core.REWARDS`).

>>> import gymnasium
>>> import citadels.rl.gym  # registers "citadels/Citadels-v0"
>>> env = gymnasium.make("citadels/Citadels-v0", opponents="easy")
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from citadels.bots.base import Bot, attach_samplers, make_bot
from citadels.rl.core import Table
from citadels.rl.observation import view_text

Observation = npt.NDArray[np.float32]


class CitadelsEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of a game against bots.

    ``seat`` is the learner's seat (``None``: a random seat each game); ``opponents`` is a
    bot kind of ``make_bot`` (``"random"``, ``"easy"``, ``"medium"``, …) or one kind per
    other seat, in seat order; ``reward`` and the setup arguments are those of
    :class:`~citadels.rl.core.Table`.
    """

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(
        self,
        edition: str = "classic",
        players: int = 4,
        opponents: str | Sequence[str] = "random",
        seat: int | None = None,
        reward: str = "win",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.table = Table(edition, players, reward, **options)
        kinds = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(kinds) != players - 1:
            raise ValueError(f"{players - 1} opponents needed, {len(kinds)} given")
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat must be None or from 0 to {players - 1}, not {seat}")
        self.opponent_kinds = kinds
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        """The learner's seat in the current game."""
        self.render_mode = render_mode
        self.observation_space = spaces.Box(
            low=0.0, high=np.inf, shape=(self.table.encoder.size,), dtype=np.float32
        )
        self.action_space = spaces.Discrete(self.table.space.size)
        self._rng = random.Random()
        self.bots: list[Bot | None] = []
        self._seen: list[int] = []

    def _bots_play(self) -> None:
        """Let the bots move until the learner must decide or the game is over. As in
        ``citadels.sim.play_game``, a bot's view holds the events since its previous
        decision."""
        game = self.table.game
        seen = self._seen
        while True:
            seat = game.to_move
            if seat is None or seat == self.seat:
                return
            bot = self.bots[seat]
            assert bot is not None
            view = game.view(seat, log_from=seen[seat])
            seen[seat] += len(view["log"])
            game.apply(bot.choose(view, game.legal_actions()), seat)

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_masks(), "seat": self.seat}
        game = self.table.game
        if game.is_over:
            result = game.result()
            info["score"] = result[self.seat].score
            info["winners"] = list(result.winners)
        return info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new game and play the bots up to the learner's first decision."""
        super().reset(seed=seed)
        if seed is not None:
            self._rng.seed(seed)
        game = self.table.new_game(self._rng.getrandbits(63))
        n = self.table.players
        self.seat = self._rng.randrange(n) if self.fixed_seat is None else self.fixed_seat
        kinds = iter(self.opponent_kinds)
        self.bots = [
            None if s == self.seat else make_bot(next(kinds), seed=self._rng.getrandbits(63))
            for s in range(n)
        ]
        attach_samplers(game, self.bots)
        self._seen = [0] * n
        self._bots_play()
        return self.table.observation(self.seat), self._info()

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the bots' until the learner is to move again."""
        table = self.table
        table.play(int(action))
        self._bots_play()
        over = table.game.is_over
        reward = table.rewards()[self.seat] if over else 0.0
        if self.render_mode == "human":
            self.render()
        return table.observation(self.seat), reward, over, False, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions as booleans (all ``False`` once the game is over)."""
        return self.table.mask(self.seat).astype(bool)

    def render(self) -> str | None:
        """The learner's view as text (printed for ``human``, returned for ``ansi``)."""
        if self.render_mode is None:
            return None
        game = self.table.game
        text = view_text(game.view(self.seat, log_from=game.log_size), self.table.space)
        if self.render_mode == "human":
            print(text)
            return None
        return text


gymnasium.register(id="citadels/Citadels-v0", entry_point="citadels.rl.gym:CitadelsEnv")
