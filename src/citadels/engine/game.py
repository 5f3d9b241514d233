"""``Game``: the public face of the engine — legal actions, apply, views, copy, save, replay."""

from __future__ import annotations

import secrets
from typing import Any

from citadels.editions import Edition, canonical_options, get_edition, resolve_setup
from citadels.engine import legality, rules, scoring, serialize, views
from citadels.engine.actions import Action, action_from_json
from citadels.engine.scoring import Outcome
from citadels.engine.state import OVER, GameState
from citadels.errors import CorruptState, MalformedAction, NotYourTurn

RECORD_FORMAT = "citadels.record/1"
GAME_FORMAT = "citadels.game/1"


class Game:
    """One game of Citadels. Use :func:`new_game` to start one.

    At every moment the game is either over or waiting for one seat (``to_move``) to choose
    one of ``legal_actions()``; ``apply`` plays it.
    """

    __slots__ = ("_actions", "_legal", "_setup", "state")

    def __init__(self, state: GameState, setup: dict[str, Any]) -> None:
        self.state = state
        """The full state. Internal: clients read :meth:`view`, never this."""
        self._setup = setup
        self._legal: list[Action] | None = None
        self._actions: list[Action] = []

    # --- whose turn, what is allowed ----------------------------------------------------

    @property
    def edition(self) -> Edition:
        """The edition this game plays."""
        return self.state.edition

    @property
    def num_players(self) -> int:
        """The number of seats."""
        return len(self.state.players)

    @property
    def seed(self) -> int:
        """The seed that fixed every shuffle of this game."""
        return self.state.seed

    @property
    def round(self) -> int:
        """The current round, from 1."""
        return self.state.round

    @property
    def to_move(self) -> int | None:
        """The seat that must decide now; ``None`` once the game is over."""
        return rules.to_move(self.state)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (C-14); ``to_move`` is then ``None``."""
        return self.state.phase == OVER

    def _legal_list(self) -> list[Action]:
        legal = self._legal
        if legal is None:
            legal = self._legal = rules.legal_actions(self.state)
        return legal

    def legal_actions(self) -> list[Action]:
        """Every action the seat to move may take, in canonical order (empty once over)."""
        return self._legal_list()[:]

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is one of the legal actions now."""
        return action in self._legal_list()

    # --- playing --------------------------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Play ``action`` for the seat to move (checked against ``seat`` when given).

        Raises ``MalformedAction`` for something that is not an action, ``NotYourTurn``,
        ``GameOver`` or ``IllegalAction`` (naming the rule) otherwise; the game is then
        unchanged.
        """
        if not isinstance(action, Action):
            raise MalformedAction(f"not an action: {action!r}")
        if action not in self._legal_list():
            s = self.state
            if seat is not None and s.phase != OVER and seat != rules.to_move(s):
                raise NotYourTurn(
                    f"{action.text()}: it is seat {rules.to_move(s)}'s decision, not seat {seat}'s"
                )
            raise legality.explain_illegal(s, action)
        if seat is not None and seat != rules.to_move(self.state):
            raise NotYourTurn(
                f"{action.text()}: it is seat {rules.to_move(self.state)}'s decision, "
                f"not seat {seat}'s"
            )
        rules.apply(self.state, action)
        self._legal = None
        self._actions.append(action)

    def apply_json(self, obj: Any, seat: int | None = None) -> Action:
        """Read an action from JSON and apply it; returns the action."""
        action = action_from_json(obj)
        self.apply(action, seat)
        return action

    # --- results and views ----------------------------------------------------------------

    def result(self) -> Outcome:
        """Scores, breakdowns, ranks and tie-breaks (C-15). Valid once the game is over;
        before that, the score each seat would have if the game ended now, counting what is
        still hidden (a Secret Vault in hand, unrevealed characters in a rank tie-break): for
        analysis only. Clients use :meth:`provisional_result`."""
        return scoring.score(self.state)

    def provisional_result(self, seat: int | None = None) -> Outcome:
        """The scores and ranks as ``seat`` (``None``: a spectator) can count them now, from
        what its view shows and nothing else (C-10): hidden cards and unrevealed characters
        are left out. Once the game is over, the same as :meth:`result`."""
        self._check_seat(seat)
        return scoring.provisional_score(self.state, seat)

    def _check_seat(self, seat: int | None) -> None:
        n = len(self.state.players)
        if seat is not None and (type(seat) is not int or not 0 <= seat < n):
            raise ValueError(f"seat must be None or an integer from 0 to {n - 1}, not {seat!r}")

    def view(self, seat: int | None = None, *, log_from: int = 0) -> dict[str, Any]:
        """What ``seat`` may know, as JSON-ready data (``None``: a spectator) (C-10)."""
        self._check_seat(seat)
        legal = self._legal_list() if seat is not None and seat == self.to_move else None
        view = views.player_view(self.state, seat, legal, log_from)
        if self.is_over:
            view["result"] = self.result().to_json()
        return view

    # --- copies, records, saves -----------------------------------------------------------

    def copy(self) -> Game:
        """An independent copy of the game (cheap: written by hand)."""
        g = Game.__new__(Game)
        g.state = self.state.copy()
        g._setup = self._setup
        g._legal = self._legal
        g._actions = self._actions[:]
        return g

    @property
    def actions(self) -> list[Action]:
        """The actions applied so far, in order."""
        return self._actions[:]

    def record(self) -> dict[str, Any]:
        """The game record: setup, seed and actions; :func:`replay` rebuilds the game."""
        return {
            "format": RECORD_FORMAT,
            **self._setup,
            "actions": [a.to_json() for a in self._actions],
        }

    def to_json(self) -> dict[str, Any]:
        """The whole game: its record and its full state (see :func:`game_from_json`)."""
        return {
            "format": GAME_FORMAT,
            "record": self.record(),
            "state": serialize.state_to_json(self.state),
        }

    def __repr__(self) -> str:
        s = self.state
        return (
            f"<Game {s.edition.id} players={len(s.players)} round={s.round} phase={s.phase} "
            f"to_move={self.to_move}>"
        )


def new_game(
    edition: str = "classic", players: int = 4, *, seed: int | None = None, **options: Any
) -> Game:
    """Start a game of ``edition`` for ``players`` seats.

    ``seed`` fixes every shuffle (``None``: a fresh random seed, kept in the record).
    Unknown editions, bad player counts and bad options raise ``ValueError``.
    """
    ed = get_edition(edition)
    if seed is None:
        seed = secrets.randbits(63)
    elif type(seed) is not int:
        raise ValueError(f"seed must be an integer, not {seed!r}")
    options = canonical_options(ed, options)  # ids as the record keeps them
    chosen = resolve_setup(ed, players, options)
    state = rules.setup(
        ed, players, dict(options), seed, chosen.characters, chosen.deck, chosen.complete_at
    )
    setup = {"edition": ed.id, "players": players, "seed": seed, "options": dict(options)}
    return Game(state, setup)


def replay(record: Any) -> Game:
    """Rebuild a game from its record; ``CorruptState`` if the record does not replay."""
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise CorruptState("not a game record (missing or unknown 'format')")
    try:
        game = new_game(
            record["edition"], record["players"], seed=record["seed"], **record["options"]
        )
        actions = record["actions"]
        if not isinstance(actions, list):
            raise CorruptState("the record's actions must be a list")
        for i, obj in enumerate(actions):
            try:
                game.apply_json(obj)
            except Exception as exc:
                raise CorruptState(f"action {i} of the record does not replay: {exc}") from None
    except CorruptState:
        raise
    except KeyError as exc:
        raise CorruptState(f"bad game record: it has no {exc.args[0]!r}") from None
    except (TypeError, ValueError) as exc:
        raise CorruptState(f"bad game record: {exc}") from None
    return game


def game_from_json(obj: Any) -> Game:
    """Load a game saved by ``Game.to_json``; ``CorruptState`` names what is wrong."""
    if not isinstance(obj, dict) or obj.get("format") != GAME_FORMAT:
        raise CorruptState("not a saved game (missing or unknown 'format')")
    record = obj.get("record")
    if not isinstance(record, dict):
        raise CorruptState("saved game has no record")
    try:
        edition = get_edition(record["edition"])
    except (KeyError, ValueError) as exc:
        raise CorruptState(f"saved game names no known edition: {exc}") from None
    setup = {k: record[k] for k in ("edition", "players", "seed", "options") if k in record}
    if len(setup) != 4 or not isinstance(setup["options"], dict):
        raise CorruptState("saved game's record lacks its setup")
    try:
        chosen = resolve_setup(edition, setup["players"], setup["options"])
    except ValueError as exc:
        raise CorruptState(f"saved game's setup is invalid: {exc}") from None
    state = serialize.state_from_json(obj.get("state"), chosen.deck)
    if len(state.players) != setup["players"] or state.characters != chosen.characters:
        raise CorruptState("saved game's record does not match its state")
    game = Game(state, setup)
    try:
        game._actions = [action_from_json(a) for a in record.get("actions", [])]
    except MalformedAction as exc:
        raise CorruptState(f"saved game's record has a bad action: {exc}") from None
    return game
