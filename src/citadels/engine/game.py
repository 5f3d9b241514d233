"""``Game``: the public face of the engine — legal actions, apply, views, copy, save, replay."""

from __future__ import annotations

import secrets
from typing import Any, Final, NoReturn

from citadels.editions import Edition, Setup, canonical_options, get_edition, resolve_setup
from citadels.engine import legality, rules, scoring, serialize, views
from citadels.engine.actions import Action, action_from_json
from citadels.engine.scoring import Outcome
from citadels.engine.state import OVER, TURNS, GameState
from citadels.errors import (
    CitadelsError,
    CorruptState,
    InvalidArgument,
    InvalidSetup,
    MalformedAction,
    NotYourTurn,
    describe,
)

RECORD_FORMAT = "citadels.record/1"
GAME_FORMAT = "citadels.game/1"

#: The annotation of an argument that a public function checks itself, refusing a wrong
#: value with the engine's own error (a seat is an ``int`` or ``None``: not a str, not a
#: bool). ``Any``, not the type it must have: compiled with mypyc (``citadels.compiled``),
#: a typed argument is checked on entry, so a str would raise ``TypeError`` before the
#: function's own check, and a bool would arrive as an int.
Checked = Any


class Game:
    """One game of Citadels. Use :func:`new_game` to start one.

    At every moment the game is either over or waiting for one seat (``to_move``) to choose
    one of ``legal_actions()``; ``apply`` plays it.
    """

    __slots__ = ("_actions", "_legal", "_setup", "state")

    def __new__(cls, *args: Any, **kwargs: Any) -> Game:
        # ``copy()`` builds a game without ``__init__``: see the note in engine/state.py.
        return object.__new__(cls)

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

    @property
    def log_size(self) -> int:
        """The number of events logged so far: ``view(seat, log_from=game.log_size)`` is a
        view without the log, for a client that already has it."""
        return len(self.state.log)

    def _legal_list(self) -> list[Action]:
        legal = self._legal
        if legal is None:
            legal = self._legal = rules.legal_actions(self.state)
        return legal

    def legal_actions(self) -> list[Action]:
        """Every action the seat to move may take, in canonical order (empty once over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = rules.legal_actions(self.state)
        return legal[:]

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is one of the legal actions now (``MalformedAction`` for
        something that is not an action)."""
        if not isinstance(action, Action):
            raise MalformedAction(f"not an action: {describe(action)}")
        return action in self._legal_list()

    # --- playing --------------------------------------------------------------------------

    def apply(self, action: Action, seat: Checked = None) -> None:
        """Play ``action`` for the seat to move (checked against ``seat`` when given).

        Raises ``MalformedAction`` for something that is not an action, ``NotYourTurn``,
        ``GameOver`` or ``IllegalAction`` (naming the rule) otherwise; the game is then
        unchanged.
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = rules.legal_actions(self.state)
        # Legal actions are shared instances (``actions.cached``): look for the very instance
        # first, as ``in`` would call the dataclass ``__eq__`` on every action before it. The
        # very instance is an action; anything else is checked to be one.
        known = False
        for a in legal:
            if a is action:
                known = True
                break
        if not known and not isinstance(action, Action):
            raise MalformedAction(f"not an action: {describe(action)}")
        if seat is not None and type(seat) is not int:
            raise MalformedAction(f"the seat must be an integer or None, not {describe(seat)}")
        if not known and action not in legal:
            self._refuse(action, seat)
        if seat is not None and seat != rules.to_move(self.state):
            raise NotYourTurn(
                f"{action.text()}: it is seat {rules.to_move(self.state)}'s decision, "
                f"not seat {describe(seat)}'s"
            )
        rules.apply(self.state, action)
        self._legal = None
        self._actions.append(action)

    def ends_turn(self, action: Action) -> bool:
        """Whether playing ``action``, one of the legal actions, ends (or, for the Witch,
        pauses) the turn of the character being played: ``EndTurn``, a destruction or an
        exchange where the Warlord or Diplomat acts at the end of his turn, a bewitching,
        the gather of a turn that is only a gather. Choices of the selection and answers
        given outside the turn's own seat never do. Tried on a copy: the game is unchanged."""
        t = self.state.turn
        if t is None or self.state.phase != TURNS or self.to_move != t.seat:
            return False
        trial = self.copy()
        trial.apply(action)
        after = trial.state.turn
        return (
            after is None
            or after.ending
            or (after.seat, after.character)
            != (
                t.seat,
                t.character,
            )
        )

    def _refuse(self, action: Action, seat: int | None) -> NoReturn:
        """Raise the error that says why ``action`` is not one of the legal actions."""
        s = self.state
        if seat is not None and s.phase != OVER and seat != rules.to_move(s):
            raise NotYourTurn(
                f"{action.text()}: it is seat {rules.to_move(s)}'s decision, "
                f"not seat {describe(seat)}'s"
            )
        raise legality.explain_illegal(s, action)

    def apply_json(self, obj: Any, seat: Checked = None) -> Action:
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

    def provisional_result(self, seat: Checked = None) -> Outcome:
        """The scores and ranks as ``seat`` (``None``: a spectator) can count them now, from
        what its view shows and nothing else (C-10): hidden cards and unrevealed characters
        are left out. Once the game is over, the same as :meth:`result`."""
        self._check_seat(seat)
        return scoring.provisional_score(self.state, seat)

    def _check_seat(self, seat: Checked) -> None:
        n = len(self.state.players)
        if seat is not None and (type(seat) is not int or not 0 <= seat < n):
            raise InvalidArgument(
                f"seat must be None or an integer from 0 to {n - 1}, not {describe(seat)}"
            )

    def view(self, seat: Checked = None, *, log_from: Checked = 0) -> dict[str, Any]:
        """What ``seat`` may know, as JSON-ready data (``None``: a spectator) (C-10)."""
        self._check_seat(seat)
        if type(log_from) is not int or log_from < 0:
            raise InvalidArgument(
                f"log_from must be an integer of at least 0, not {describe(log_from)}"
            )
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
        setup = self._setup
        return {
            "format": RECORD_FORMAT,
            "edition": setup["edition"],
            "players": setup["players"],
            "seed": setup["seed"],
            "options": copy_options(setup["options"]),
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


def copy_options(options: dict[str, Any]) -> dict[str, Any]:
    """A copy of setup options that shares no list with them (ids are lists of strings)."""
    return {k: list(v) if isinstance(v, (list, tuple)) else v for k, v in options.items()}


def new_game(
    edition: Checked = "classic", players: Checked = 4, *, seed: Checked = None, **options: Any
) -> Game:
    """Start a game of ``edition`` for ``players`` seats.

    ``seed`` fixes every shuffle (``None``: a fresh random seed, kept in the record).
    Unknown editions, bad player counts, seeds and options raise ``InvalidSetup`` (a
    ``ValueError``). The game keeps its own copy of ``options``.
    """
    ed = get_edition(edition)
    if seed is None:
        seed = secrets.randbits(63)
    elif type(seed) is not int or not -(1 << 63) <= seed < 1 << 64:
        raise InvalidSetup(f"seed must be a 64-bit integer, not {describe(seed)}").because(
            "seed", given=describe(seed)
        )
    options = canonical_options(ed, options)  # ids as the record keeps them
    chosen = _default_setup(ed, players) if not options else resolve_setup(ed, players, options)
    state = rules.setup(
        ed, players, copy_options(options), seed, chosen.characters, chosen.deck, chosen.complete_at
    )
    setup = {"edition": ed.id, "players": players, "seed": seed, "options": copy_options(options)}
    return Game(state, setup)


#: ``resolve_setup(edition, players, {})`` by edition id and player count, with the edition it
#: was worked out for (a setup is only read: its deck is copied into the game's cards).
_DEFAULT_SETUPS: Final[dict[tuple[str, int], tuple[Edition, Setup]]] = {}


def _default_setup(ed: Edition, players: Any) -> Setup:
    """``resolve_setup(ed, players, {})``, worked out once per edition and player count."""
    if type(players) is not int:
        return resolve_setup(ed, players, {})
    known = _DEFAULT_SETUPS.get((ed.id, players))
    if known is None or known[0] is not ed:
        known = _DEFAULT_SETUPS[ed.id, players] = (ed, resolve_setup(ed, players, {}))
    return known[1]


def _read_setup(record: Any, path: str) -> tuple[dict[str, Any], list[Any]]:
    """The setup and the actions of a record, checked by path and copied."""
    if not isinstance(record, dict):
        raise CorruptState(f"saved game is corrupt: {path} must be an object")
    for key in ("edition", "players", "seed", "options", "actions"):
        if key not in record:
            raise CorruptState(f"saved game is corrupt: {path}.{key} is missing")
    for key in ("edition", "players", "seed"):
        value = record[key]
        if type(value) is not (str if key == "edition" else int):
            raise CorruptState(
                f"saved game is corrupt: {path}.{key} has the wrong type: {describe(value)}"
            )
    options = serialize.plain_options(record["options"], f"{path}.options")
    actions = record["actions"]
    if type(actions) is not list:
        raise CorruptState(
            f"saved game is corrupt: {path}.actions must be a list, not {describe(actions)}"
        )
    setup = {
        "edition": record["edition"],
        "players": record["players"],
        "seed": record["seed"],
        "options": options,
    }
    return setup, actions


def replay(record: Any) -> Game:
    """Rebuild a game from its record; ``CorruptState`` if the record does not replay."""
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise CorruptState("not a game record (missing or unknown 'format')")
    try:
        setup, actions = _read_setup(record, "record")
    except CorruptState as exc:
        detail = str(exc).removeprefix("saved game is corrupt: ")
        raise CorruptState(f"bad game record: {detail}") from None
    try:
        game = new_game(setup["edition"], setup["players"], seed=setup["seed"], **setup["options"])
    except InvalidSetup as exc:
        raise CorruptState(f"bad game record: {exc}") from None
    for i, obj in enumerate(actions):
        try:
            game.apply_json(obj)
        except CitadelsError as exc:
            raise CorruptState(
                f"action {i} of the record does not replay (record.actions[{i}]): {exc}"
            ) from None
    return game


def game_from_json(obj: Any) -> Game:
    """Load a game saved by ``Game.to_json``; ``CorruptState`` names the path of the first bad
    field and what is wrong. The game shares nothing with ``obj``."""
    if not isinstance(obj, dict) or obj.get("format") != GAME_FORMAT:
        raise CorruptState("not a saved game (missing or unknown 'format')")
    extra = [k for k in obj if k not in ("format", "record", "state")]
    if extra:
        raise CorruptState(f"saved game is corrupt: {describe(extra[0])} is not a known field")
    record = obj.get("record")
    if not isinstance(record, dict):
        raise CorruptState("saved game has no record")
    if record.get("format") != RECORD_FORMAT:
        raise CorruptState("saved game is corrupt: record.format is not a record's format")
    setup, actions = _read_setup(record, "record")
    try:
        edition = get_edition(setup["edition"])
        chosen = resolve_setup(edition, setup["players"], setup["options"])
    except InvalidSetup as exc:
        raise CorruptState(f"saved game is corrupt: record: {exc}") from None
    state = serialize.state_from_json(obj.get("state"), chosen.deck)
    if len(state.players) != setup["players"] or state.characters != chosen.characters:
        raise CorruptState("saved game's record does not match its state")
    if state.edition is not edition or state.seed != setup["seed"]:
        raise CorruptState("saved game's record does not match its state (edition or seed)")
    if state.options != setup["options"]:
        raise CorruptState("saved game is corrupt: state.options do not match record.options")
    game = Game(state, setup)
    parsed: list[Action] = []
    for i, a in enumerate(actions):
        try:
            parsed.append(action_from_json(a))
        except MalformedAction as exc:
            raise CorruptState(
                f"saved game is corrupt: record.actions[{i}] is not an action: {exc}"
            ) from None
    game._actions = parsed
    return game
