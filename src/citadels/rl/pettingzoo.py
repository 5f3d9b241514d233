"""A PettingZoo AEC environment of Citadels.

Agents are ``player_0`` … ``player_{n-1}`` (the seats). Each observation is
``{"observation": float32 vector, "action_mask": int8 vector}`` (see
:mod:`citadels.rl.observation` and :mod:`citadels.rl.actions`); the action space is
``Discrete(n)`` over the setup's numbered actions. Rewards come once, at the end of the game.

>>> from citadels.rl.pettingzoo import env
>>> e = env(edition="classic", players=4)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from citadels.rl.core import Table
from citadels.rl.observation import view_text


class raw_env(AECEnv[str, dict[str, Any], int | None]):  # type: ignore[misc]
    """The unwrapped environment; :func:`env` wraps it in PettingZoo's order checks.

    ``edition``, ``players`` and further setup ``options`` are those of ``new_game``;
    ``reward`` is ``"win"`` (1 shared among the tied winners), ``"score"`` (the final score)
    or ``"margin"`` (score minus the best other score, over 10); ``render_mode`` is
    ``"human"`` (print) or ``"ansi"`` (return the text).
    """

    metadata = {
        "render_modes": ["human", "ansi"],
        "name": "citadels_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        edition: str = "classic",
        players: int = 4,
        reward: str = "win",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.table = Table(edition, players, reward, **options)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size = self.table.space.size
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=0.0, high=np.inf, shape=(self.table.encoder.size,), dtype=np.float32
                ),
                "action_mask": spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self._cache: dict[str, dict[str, Any]] = {}
        self._start()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(n)`` over the setup's numbered actions."""
        return self.action_spaces[agent]

    def _start(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._cache = {}
        self._select()

    def _select(self) -> None:
        to_move = self.table.game.to_move
        if to_move is not None:
            self.agent_selection = self.possible_agents[to_move]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (``seed`` fixes it and the games after it)."""
        self.table.new_game(seed)
        self._start()

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation and action mask now."""
        obs = self._cache.get(agent)
        if obs is None:
            seat = self._seat[agent]
            obs = self._cache[agent] = {
                "observation": self.table.observation(seat),
                "action_mask": self.table.mask(seat),
            }
        return obs

    def step(self, action: int | None) -> None:
        """Play ``action`` (a number) for the agent to move; ``None`` for a finished agent."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: it must choose an action, not None")
        self._cumulative_rewards[agent] = 0.0
        table = self.table
        table.play(int(action))
        self._cache = {}
        if table.game.is_over:
            result = table.game.result()
            for seat, value in enumerate(table.rewards()):
                name = self.possible_agents[seat]
                self.rewards[name] = value
                self.terminations[name] = True
                self.infos[name] = {"score": result[seat].score, "rank": result[seat].rank}
            self._accumulate_rewards()
            self._deads_step_first()
        else:
            self._select()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The text of the view of the seat to move (the first seat's once over)."""
        if self.render_mode is None:
            return None
        game = self.table.game
        seat = game.to_move if game.to_move is not None else 0
        text = view_text(game.view(seat, log_from=game.log_size), self.table.space)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def env(**kwargs: Any) -> AECEnv[str, dict[str, Any], int | None]:
    """The Citadels AEC environment (see :class:`raw_env` for the arguments), wrapped in
    PettingZoo's out-of-bounds and order checks."""
    e: AECEnv[str, dict[str, Any], int | None] = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
