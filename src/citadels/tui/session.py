"""A game at one screen: who sits where (people or bots), names, what each seat has read, and
the save file. No Textual here: the app drives a :class:`Session`, tests may drive one alone.

The session owns the live :class:`~citadels.engine.game.Game`. People and bots reach it the
same way every client does: ``game.view(seat)``, ``legal_actions()`` and ``apply()``. A bot
decides on a copy of the game through its own seat's view (a search bot gets a sampler of that
copy for its seat only), so it may think in another thread while the interface reads the game.
"""

from __future__ import annotations

import json
import os
import secrets
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from platformdirs import user_data_path

from citadels.bots import SamplerUser, make_bot
from citadels.bots.base import BOT_KINDS, Bot, bot_kind
from citadels.engine.actions import Action
from citadels.engine.determinize import SeatSampler
from citadels.engine.game import Game, game_from_json, new_game
from citadels.errors import CitadelsError, InvalidSetup

#: The format tag of a save file written by ``citadels play``.
SAVE_FORMAT = "citadels.play/1"

#: The bot levels a seat may have (the kinds of :func:`citadels.bots.make_bot`).
BOT_LEVELS: tuple[str, ...] = tuple(BOT_KINDS)

HUMAN = "human"


class SaveError(CitadelsError):
    """A save file that cannot be read or written; the message names the file and the cause."""

    code = "save_error"


@dataclass
class Seat:
    """One chair at the table: a person (``kind == "human"``) or a bot of a level."""

    kind: str
    name: str | None = None
    """A display name given by the players; ``None``: the presentation layer's default."""

    @property
    def is_human(self) -> bool:
        """Whether a person plays this seat."""
        return self.kind == HUMAN

    def to_json(self) -> dict[str, Any]:
        """The JSON form kept in a save file."""
        return {"kind": self.kind, "name": self.name}


def default_save_dir() -> Path:
    """Where games are saved unless ``--save`` says otherwise (the user's data directory,
    e.g. ``~/.local/share/citadels/games``; ``XDG_DATA_HOME`` is honoured)."""
    return user_data_path("citadels", appauthor=False) / "games"


@dataclass
class Session:
    """A game, its seats, the save file and, per seat, how far into the log it has read."""

    game: Game
    seats: list[Seat]
    hotseat: bool = False
    save_path: Path | None = None
    lang: str = "en"
    seen: list[int] = field(default_factory=list)
    """Per seat: the number of log events it had seen at its last decision."""
    _bots: dict[int, Bot] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        n = self.game.num_players
        if len(self.seats) != n:
            raise ValueError(f"{len(self.seats)} seats given for a game of {n} players")
        if not any(s.is_human for s in self.seats):
            raise ValueError("at least one seat must be played by a person")
        if not self.hotseat and sum(s.is_human for s in self.seats) != 1:
            raise ValueError("more than one person plays only with --hotseat")
        if len(self.seen) != n:
            self.seen = [0] * n
        for seat, s in enumerate(self.seats):
            if not s.is_human:
                if s.kind not in BOT_LEVELS:
                    raise ValueError(
                        f"unknown bot level {s.kind!r}; known levels: {', '.join(BOT_LEVELS)}"
                    )
                self._bots[seat] = make_bot(s.kind, seed=self.game.seed * 31 + seat * 7919)

    # --- who is who ---------------------------------------------------------------------

    @property
    def names(self) -> list[str | None]:
        """The display names per seat (``None`` where the players gave none)."""
        return [s.name for s in self.seats]

    @property
    def humans(self) -> list[int]:
        """The seats people play, in seat order."""
        return [i for i, s in enumerate(self.seats) if s.is_human]

    def is_human(self, seat: int | None) -> bool:
        """Whether a person plays ``seat``."""
        return seat is not None and self.seats[seat].is_human

    # --- bots ---------------------------------------------------------------------------

    def bot_choice(self, seat: int) -> Action:
        """What the bot of ``seat`` plays now, decided on a copy of the game from the seat's
        view alone (safe to call from a worker thread while the game is not changed)."""
        bot = self._bots[seat]
        game = self.game.copy()
        if isinstance(bot, SamplerUser):
            bot.attach(SeatSampler(game, seat))
        return bot.choose(game.view(seat), game.legal_actions())

    def apply(self, action: Action, seat: int) -> None:
        """Play ``action`` for ``seat`` (checked by the engine); a person's decision marks
        everything before it as read by that seat."""
        self.game.apply(action, seat)
        if self.is_human(seat):
            self.seen[seat] = len(self.game.state.log)

    def rematch(self, seed: int | None = None) -> Session:
        """A new game with the same setup, seats and save directory (a fresh seed)."""
        record = self.game.record()
        seed = secrets.randbits(32) if seed is None else seed
        game = new_game(record["edition"], record["players"], seed=seed, **record["options"])
        path = None
        if self.save_path is not None:
            path = self.save_path.with_name(f"game-{seed}.json")
        return Session(
            game, [Seat(s.kind, s.name) for s in self.seats], self.hotseat, path, self.lang
        )

    # --- saving -------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """Everything a save file holds: the whole game, the seats and the reading marks."""
        return {
            "format": SAVE_FORMAT,
            "game": self.game.to_json(),
            "seats": [s.to_json() for s in self.seats],
            "hotseat": self.hotseat,
            "seen": self.seen[:],
            "lang": self.lang,
        }

    def save(self, path: Path | None = None) -> Path:
        """Write the save file (atomically: a crash never leaves half a file); returns its
        path. ``SaveError`` names the file and the cause."""
        path = path or self.save_path
        if path is None:
            raise SaveError("no save file chosen")
        data = json.dumps(self.to_json())
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".citadels-", suffix=".tmp", dir=path.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write(data + "\n")
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError as exc:
            raise SaveError(f"cannot write {path}: {exc.strerror or exc}").because(
                "cannot_write", path=str(path), cause=str(exc.strerror or exc)
            ) from None
        return path


def _seats_from_json(obj: Any, n: int) -> list[Seat]:
    if not isinstance(obj, list) or len(obj) != n:
        raise SaveError(f"the save names {n} players but not {n} seats")
    seats = []
    for entry in obj:
        if not isinstance(entry, dict):
            raise SaveError("a seat of the save is not an object")
        kind, name = entry.get("kind"), entry.get("name")
        if kind != HUMAN and kind not in BOT_LEVELS:
            raise SaveError(f"a seat of the save has an unknown kind {kind!r}")
        if name is not None and not isinstance(name, str):
            raise SaveError("a seat's name in the save is not text")
        seats.append(Seat(kind, name))
    return seats


def load_session(path: Path) -> Session:
    """Read a save file written by :meth:`Session.save`; ``SaveError`` names what is wrong
    (missing file, not JSON, not a save, a game that does not load)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SaveError(f"no save file at {path}").because("no_save", path=str(path)) from None
    except IsADirectoryError:
        raise SaveError(f"{path} is a directory, not a save file").because(
            "save_is_directory", path=str(path)
        ) from None
    except UnicodeDecodeError:
        raise SaveError(f"{path} is not a save file (not text)").because(
            "save_not_text", path=str(path)
        ) from None
    except OSError as exc:
        raise SaveError(f"cannot read {path}: {exc.strerror or exc}").because(
            "cannot_read", path=str(path), cause=str(exc.strerror or exc)
        ) from None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveError(
            f"{path} is not a readable save file: not valid JSON ({exc.msg}, line {exc.lineno}, "
            f"column {exc.colno})"
        ).because(
            "not_json", path=str(path), cause=exc.msg, line=exc.lineno, column=exc.colno
        ) from None
    if not isinstance(obj, dict) or obj.get("format") != SAVE_FORMAT:
        raise SaveError(
            f"{path} is not a Citadels save file (format {SAVE_FORMAT} expected)"
        ).because("not_a_save", path=str(path))
    try:
        game = game_from_json(obj.get("game"))
    except CitadelsError as exc:
        raise SaveError(f"{path} is damaged: {exc}").because(
            "damaged", path=str(path), detail=str(exc)
        ) from None
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise SaveError(f"{path} is damaged: {type(exc).__name__}: {exc}").because(
            "damaged", path=str(path), detail=f"{type(exc).__name__}: {exc}"
        ) from None
    seats = _seats_from_json(obj.get("seats"), game.num_players)
    seen = obj.get("seen")
    if not (
        isinstance(seen, list)
        and len(seen) == game.num_players
        and all(type(x) is int and x >= 0 for x in seen)
    ):
        seen = [len(game.state.log)] * game.num_players
    hotseat = obj.get("hotseat") is True
    lang = obj.get("lang") if isinstance(obj.get("lang"), str) else "en"
    try:
        return Session(game, seats, hotseat, path, str(lang), seen)
    except ValueError as exc:
        raise SaveError(f"{path} is damaged: {exc}").because(
            "damaged", path=str(path), detail=str(exc)
        ) from None


def make_seats(
    players: int,
    bots: Sequence[str] | None,
    seat: int,
    hotseat: bool,
    names: Sequence[str] | None = None,
) -> list[Seat]:
    """The seats of a new game from the command line.

    Alone (no ``hotseat``): the person sits at ``seat``, every other seat is a bot; ``bots``
    gives one level for all of them or one per bot seat, in seat order (default ``medium``).
    Hot-seat: ``bots`` are the last seats, every other seat is a person (at least two).
    ``ValueError`` names the problem.
    """
    if players < 2:
        raise InvalidSetup(f"a game needs at least 2 players, not {players}").because(
            "too_few_players", given=players
        )
    # Levels are matched loosely like every id a user types (``Hard`` is ``hard``).
    levels = [bot_kind(b) for b in bots] if bots is not None else None
    if hotseat:
        levels = levels or []
        humans = players - len(levels)
        if humans < 2:
            raise InvalidSetup(
                f"a hot-seat game needs at least 2 people: {players} players with "
                f"{len(levels)} bots leaves {humans}"
            ).because("hotseat_people", players=players, bots=len(levels), people=humans)
        kinds = [HUMAN] * humans + levels
    else:
        if not 0 <= seat < players:
            raise InvalidSetup(f"--seat must be from 0 to {players - 1}, not {seat}").because(
                "seat_range", last=players - 1, given=seat
            )
        if levels is None or not levels:
            levels = ["medium"]
        if len(levels) == 1:
            levels = levels * (players - 1)
        if len(levels) != players - 1:
            raise InvalidSetup(
                f"--bots gives {len(levels)} levels; {players} players need one level for "
                f"all bots or {players - 1} (one per bot)"
            ).because("bot_levels", given=len(levels), players=players, bots=players - 1)
        kinds = [*levels[:seat], HUMAN, *levels[seat:]]
    given = list(names or [])
    if len(given) > players:
        raise InvalidSetup(f"{len(given)} names given for {players} players").because(
            "too_many_names", given=len(given), players=players
        )
    given += [""] * (players - len(given))
    return [Seat(k, n.strip() or None) for k, n in zip(kinds, given, strict=True)]
