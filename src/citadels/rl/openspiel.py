"""Citadels as an OpenSpiel Python game, registered as ``python_citadels``.

>>> import pyspiel
>>> import citadels.rl.openspiel  # registers the game
>>> game = pyspiel.load_game("python_citadels", {"edition": "classic", "players": 4})

The game starts with one chance node, the deal: outcome ``i`` of ``deals`` seeds the engine's
generator, which fixes every later shuffle, so the rest of the game is deterministic given the
deal. Actions are the setup's numbered actions (:mod:`citadels.rl.actions`). Utilities are 1
shared among the tied winners (constant sum 1). Observations and information states come
from ``Game.view(player)`` only:

- observation string: the text of the view (:func:`~citadels.rl.observation.view_text`);
- observation tensor: the view's encoding (:class:`~citadels.rl.observation.ObservationEncoder`);
- information-state string: the view with the seat's whole log, as JSON (perfect recall);
- information-state tensor: the encoding of the current view (not perfect recall).

``resample_from_infostate`` deals a full game consistent with a player's view
(:func:`citadels.engine.determinize.determinize`), for OpenSpiel's ISMCTS.

Parameters: ``edition`` (``"classic"``), ``players`` (4), ``preset`` (``""``: the edition's
default setup), ``deals`` (4096 chance outcomes) and ``max_moves`` (2000): a game still going
after that many decisions stops, scored as if it had ended (random play never comes near).
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from citadels.engine.determinize import determinize
from citadels.engine.game import Game, game_from_json, new_game
from citadels.rl.actions import ActionSpace
from citadels.rl.observation import ObservationEncoder, view_text

_DEFAULTS: dict[str, Any] = {
    "edition": "classic",
    "players": 4,
    "preset": "",
    "deals": 4096,
    "max_moves": 2000,
}
MAX_PLAYERS = 8

_GAME_TYPE = pyspiel.GameType(
    short_name="python_citadels",
    long_name="Python Citadels",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class CitadelsGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game of one Citadels setup."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_DEFAULTS, **(params or {})}
        self._configure(p)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size,
            max_chance_outcomes=self.deals,
            num_players=p["players"],
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=self.max_moves,
        )
        super().__init__(_GAME_TYPE, info, p)

    def _configure(self, p: dict[str, Any]) -> None:
        options = {"preset": p["preset"]} if p["preset"] else {}
        self.setup: tuple[str, int, dict[str, Any]] = (p["edition"], p["players"], options)
        self.space = ActionSpace.for_setup(p["edition"], p["players"], **options)
        self.encoder = ObservationEncoder(self.space)
        self.deals = int(p["deals"])
        self.max_moves = int(p["max_moves"])

    def __getattr__(self, name: str) -> Any:
        # A game unpickled by pybind11 skips __init__: rebuild from its parameters.
        if name in ("setup", "space", "encoder", "deals", "max_moves"):
            self._configure({**_DEFAULTS, **self.get_parameters()})
            return getattr(self, name)
        raise AttributeError(name)

    def new_initial_state(self) -> CitadelsState:
        """The state before the deal (a chance node)."""
        return CitadelsState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> CitadelsObserver:
        """The observer of information states (``perfect_recall``) or observations."""
        if params:
            raise ValueError(f"the Citadels observer takes no parameters, not {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return CitadelsObserver(self, perfect_recall)


class _Shared:
    """Holds what every copy of a state shares (OpenSpiel clones states with ``deepcopy``)."""

    __slots__ = ("game",)

    def __init__(self, game: CitadelsGame) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self

    def __getstate__(self) -> dict[str, Any]:
        return {"params": self.game.get_parameters()}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.game = pyspiel.load_game(_GAME_TYPE.short_name, state["params"])


class _Engine:
    """Holds the engine game; a ``deepcopy`` is the engine's own cheap copy."""

    __slots__ = ("game",)

    def __init__(self, game: Game | None) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(None if self.game is None else self.game.copy())

    def __getstate__(self) -> dict[str, Any]:
        # Pickled (OpenSpiel's serialization) as the engine's own save format.
        return {"game": None if self.game is None else self.game.to_json()}

    def __setstate__(self, state: dict[str, Any]) -> None:
        saved = state["game"]
        self.game = None if saved is None else game_from_json(saved)


class CitadelsState(pyspiel.State):  # type: ignore[misc]
    """A position: before the deal, then a live engine game."""

    def __init__(self, game: CitadelsGame) -> None:
        super().__init__(game)
        self._shared = _Shared(game)
        self._engine = _Engine(None)
        self.moves = 0

    @property
    def _spiel_game(self) -> CitadelsGame:
        return self._shared.game

    @property
    def engine(self) -> Game | None:
        """The engine game (``None`` before the deal)."""
        return self._engine.game

    # --- whose turn, what is allowed ----------------------------------------------------

    def current_player(self) -> int:
        """The seat to move, ``CHANCE`` before the deal, ``TERMINAL`` once over."""
        if self.engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        to_move = self.engine.to_move
        assert to_move is not None
        return to_move

    def _legal_actions(self, player: int) -> list[int]:
        assert self.engine is not None
        return sorted(self._spiel_game.space.indices(self.engine.legal_actions()))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The deals, equally likely."""
        n = self._spiel_game.deals
        return [(i, 1.0 / n) for i in range(n)]

    def _apply_action(self, action: int) -> None:
        g = self._spiel_game
        engine = self.engine
        if engine is None:
            edition, players, options = g.setup
            self._engine.game = new_game(edition, players, seed=int(action), **options)
            return
        engine.apply(g.space.index_to_action(int(action)))
        self.moves += 1

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return str(self._spiel_game.space.index_to_action(int(action)).text())

    # --- the end ----------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        """Whether the game is over (or stopped after ``max_moves`` decisions)."""
        engine = self.engine
        return engine is not None and (engine.is_over or self.moves >= self._spiel_game.max_moves)

    def returns(self) -> list[float]:
        """1 shared among the winners once over; 0 for everyone before."""
        g = self._spiel_game
        players = g.setup[1]
        if not self.is_terminal():
            return [0.0] * players
        assert self.engine is not None
        winners = self.engine.result().winners
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]

    # --- hidden information -----------------------------------------------------------------

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CitadelsState:
        """A state ``player_id`` cannot tell from this one: the hidden parts redealt."""
        state = CitadelsState(self._spiel_game)
        if self.engine is not None:
            seed = int(probability_sampler() * (1 << 53))
            state._engine.game = determinize(self.engine, player_id, random.Random(seed))
            state.moves = self.moves
        return state

    def __str__(self) -> str:
        if self.engine is None:
            return "before the deal"
        return json.dumps(self.engine.view(None, log_from=self.engine.log_size), sort_keys=True)


class CitadelsObserver:
    """Observations (``perfect_recall`` False) or information states (True) of a player."""

    def __init__(self, game: CitadelsGame, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(game.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CitadelsState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s encoded view (zeros before the deal)."""
        engine = state.engine
        if engine is None:
            self.tensor.fill(0.0)
            return
        view = engine.view(player, log_from=engine.log_size)
        self.tensor[:] = self.game.encoder.encode(view)

    def string_from(self, state: CitadelsState, player: int) -> str:
        """The view as text, or with its whole log as JSON for an information state."""
        engine = state.engine
        if engine is None:
            return f"seat {player}, before the deal"
        if self.perfect_recall:
            return json.dumps(engine.view(player), sort_keys=True)
        return view_text(engine.view(player, log_from=engine.log_size), self.game.space)


pyspiel.register_game(_GAME_TYPE, CitadelsGame)
