"""One table loaded in this process: its stored row, its game, and the parts that serve it.

:class:`Table` is the only writer of the game and of the row's version and status: it
applies an action under the table's lock, stores it, and hands the change to the fan-out;
it catches up with what other processes stored under the same lock. The seats' away flags
are written by :mod:`citadels.server.presence` alone: a row re-read from the database passes
through ``Presence.adopt`` before it becomes the live one, so it never brings back an older
flag. The rest of the row changes only by re-reading it from the database.

It also notes which process moved the game to its current decision (``Turn.owner``: this
one after an action it applied or a start, the sender after a catch-up announced on the
bus): that process plays the next bot move, the others only stand by.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from citadels.engine.actions import Action
from citadels.engine.game import Game, game_from_json, new_game
from citadels.errors import CitadelsError, GameOver, IllegalAction, NotYourTurn
from citadels.server import chat, messages
from citadels.server.bus import Bus
from citadels.server.chat import ChatRate
from citadels.server.clock import SYSTEM, Clock
from citadels.server.commits import GroupCommit
from citadels.server.connection import Connection
from citadels.server.errors import ServerError
from citadels.server.fanout import Fanout
from citadels.server.presence import Presence
from citadels.server.storage import SNAPSHOT_EVERY, Append, Store, TableRow, WriteConflict
from citadels.server.turns import Turn

log = logging.getLogger("citadels.server")

#: Asked after a move, on the game it made and its version: the move (seat, action) to play
#: at once after it, or ``None`` (``Turns.follow``).
FollowUp = Callable[[Game, int], "tuple[int, Action] | None"]

#: The most moves one ``Table.apply`` plays and stores together (a move and the bots' moves
#: that follow it at once): a table of bots alone gives the event loop back this often.
CHAIN_MAX = 8


@dataclass
class _Move:
    """One move of a chain: the game after it and what storing it takes."""

    game: Game
    append: Append


def load_game(store: Store, row: TableRow) -> Game:
    """The table's game at its stored version: the newest snapshot plus the later actions."""
    snap = store.latest_snapshot(row.id)
    if snap is not None and snap[0] <= row.version:
        game = game_from_json(snap[1])
        after = snap[0]
    else:
        game = new_game(row.edition, row.players, seed=row.seed, **row.options)
        after = 0
    for _seat, action in store.actions(row.id, after):
        game.apply_json(action)
    return game


def read_table(store: Store, table_id: int) -> tuple[TableRow, Game | None] | None:
    """A table's row and (once started) its game, read consistently (in a worker thread)."""
    row = store.table_by_id(table_id)
    if row is None:
        return None
    game = load_game(store, row) if row.status != "open" else None
    if game is not None and len(game.actions) != row.version:
        # The row moved on while the actions were read: read once more.
        row = store.table_by_id(table_id)
        assert row is not None
        game = load_game(store, row)
    return row, game


class Table:
    """A table loaded in this process."""

    def __init__(
        self,
        row: TableRow,
        game: Game | None,
        store: Store,
        bus: Bus,
        commits: GroupCommit | None = None,
        clock: Clock = SYSTEM,
    ) -> None:
        self.row = row
        self.game = game
        self.store = store
        self.bus = bus
        #: Where its moves are stored: the process's group commit, shared by its tables.
        self.commits = commits if commits is not None else GroupCommit(store)
        #: Held while the game or its version changes (an action, a catch-up, the start) and
        #: for the whole of a lobby change (a join, a seat given to a bot, the start).
        self.lock = asyncio.Lock()
        self.fanout = Fanout(self)
        self.presence = Presence(self, store, bus)
        self.turn = Turn(clock=clock)
        self.chat_rate = ChatRate()
        #: Every hint used at the table (a table with friends whose host allows them),
        #: oldest first, as the protocol sends them (``Store.hint_uses``).
        self.hint_uses: list[dict[str, Any]] = []
        #: Every turn whose timer ran out at a turn-based table, oldest first, as the
        #: protocol sends them (``Store.timeouts``).
        self.timeouts: list[dict[str, Any]] = []

    @property
    def id(self) -> int:
        """The table's id in the database."""
        return self.row.id

    @property
    def version(self) -> int:
        """The number of actions applied to its game."""
        return self.row.version

    def names(self, lang: str = "en") -> list[str]:
        """Display names per seat (bots and unnamed seats named in ``lang``)."""
        return messages.seat_names(self.row, lang)

    def json(self) -> dict[str, Any]:
        """The public table object of the protocol."""
        return messages.table_json(self.row, self.presence.connected)

    def hint_used(self, entry: dict[str, Any]) -> None:
        """A hint was used (here or in another process): kept, and told to every connection
        once."""
        if any(u["id"] == entry["id"] for u in self.hint_uses):
            return
        self.hint_uses.append(entry)
        self.fanout.hint_used(entry)

    def timed_out(self, entry: dict[str, Any]) -> None:
        """A turn's timer ran out (recorded here or in another process): kept, and told to
        every connection once."""
        if any(u["id"] == entry["id"] for u in self.timeouts):
            return
        self.timeouts.append(entry)
        self.fanout.timed_out(entry)

    async def announce(self) -> None:
        """The row changed (seats, presence): tell this process's connections and the others."""
        self.fanout.table_changed()
        await self.bus.publish({"kind": "table", "table": self.id})

    # --- the game ---------------------------------------------------------------------------

    async def apply(
        self,
        seat: int,
        action: Action,
        version: int,
        ack: tuple[Connection, str] | None,
        guard: Callable[[], bool] | None = None,
        then: FollowUp | None = None,
    ) -> int:
        """Play ``action`` for ``seat`` on ``version``, store it and send the update; the new
        version. Raises ``ServerError`` and changes nothing when it cannot be played.
        ``guard`` (a stand-in's move: is the seat still away?) is asked once everything else
        is checked, with no ``await`` between it and the start of the write; ``False``
        raises ``ServerError("returned")``.

        ``then`` (the bots' turns, ``Turns.follow``) is asked after the move, on the game it
        made and its version, for a move to play at once (a light bot's, with no pause);
        each such move is played on a copy in the same way, up to ``CHAIN_MAX`` of them, and
        all are stored in one append (one transaction, see commits.py). Only once it is
        committed are they played here, in their order, each with its own update: every
        connection sees every move as it would one by one; the version returned is the last
        one's."""
        async with self.lock:
            if self.bus.shared:
                await self._catch_up()
            game = self.game
            if self.row.status == "open" or game is None:
                raise ServerError("not_started", "the game has not started")
            if game.is_over:
                raise ServerError("game_over", "the game is over")
            if version != self.version:
                raise ServerError(
                    "stale_version",
                    f"the action was made on version {version}; the table is at {self.version}",
                )
            # Play on a copy: if storing fails or is cancelled, the live game is untouched.
            game = game.copy()
            try:
                game.apply(action, seat)
            except NotYourTurn as exc:
                raise ServerError("not_your_turn", str(exc), rule=exc.rule) from None
            except GameOver as exc:  # pragma: no cover - checked above
                raise ServerError("game_over", str(exc)) from None
            except IllegalAction as exc:
                raise ServerError("illegal_action", str(exc), rule=exc.rule) from None
            except CitadelsError as exc:  # pragma: no cover - defensive
                raise ServerError("illegal_action", str(exc)) from None
            if guard is not None and not guard():
                raise ServerError("returned", "the seat's player is back")
            moves = [self._move(game, seat, action, self.version + 1)]
            while then is not None and len(moves) < CHAIN_MAX and not game.is_over:
                follow = then(game, moves[-1].append.seq)
                if follow is None:
                    break
                game = game.copy()
                game.apply(follow[1], follow[0])  # one of the legal actions: never raises
                moves.append(self._move(game, follow[0], follow[1], moves[-1].append.seq + 1))
            try:
                # Returns once the transaction holding these moves committed (group commit,
                # see commits.py); the lock is held until then, so this table has no other
                # move in any batch, and nothing below runs for a move that is not stored.
                await self.commits.append(*(m.append for m in moves))
            except WriteConflict:
                await self._reload()
                raise ServerError(
                    "stale_version", f"another move was made first; the table is at {self.version}"
                ) from None
            except Exception as exc:
                log.exception("storing an action failed")
                await self._reload()
                raise ServerError(
                    "internal", "the move could not be stored; try again", 500
                ) from exc
            # From the first swap to the last queued update: no await (the fan-out never
            # yields), so no other task sees a move of the chain that is not yet sent.
            for i, m in enumerate(moves):
                # A copy starts with no log renderings (``GameState.copy``); the live game's
                # are handed over with the swap, so a view renders only the events this move
                # logged, not the whole log again (the renderings check that the log they
                # hold is the new log's start, and render again if not). The old one is dropped.
                m.game.state.rendered = self.game.state.rendered if self.game is not None else None
                self.game = m.game
                self.row.version = m.append.seq
                self.row.deadline = m.append.deadline
                self.turn.owner = self.bus.origin
                if m.append.result is not None:
                    self.row.status = "finished"
                    self.row.result = m.append.result
                self.turn.new_decision(self)
                self.fanout.updated(m.append.seat, ack if i == 0 else None)
        return self.row.version

    def _move(self, game: Game, seat: int, action: Action, seq: int) -> _Move:
        """What storing the move ``seat`` just made on ``game`` (action number ``seq``) takes:
        a snapshot every ``SNAPSHOT_EVERY`` actions and at the end, the result, the deadline
        of the turn it leads to."""
        over = game.is_over
        snapshot = game.to_json() if over or seq % SNAPSHOT_EVERY == 0 else None
        result = game.result().to_json() if over else None
        deadline = self.turn.next_deadline(self, game, seat)
        return _Move(game, Append(self.id, seq, seat, action.to_json(), snapshot, result, deadline))

    async def begin(self) -> None:
        """The game starts (the database says so): a new game, a snapshot to everyone."""
        async with self.lock:
            await self.begin_locked()

    async def begin_locked(self) -> None:
        """:meth:`begin` with the lock held (by the lobby's start)."""
        lines = await chat.history(self.store, self.id)
        self.row.status = "playing"
        self.game = new_game(
            self.row.edition, self.row.players, seed=self.row.seed, **self.row.options
        )
        self.turn.owner = self.bus.origin
        self.turn.new_decision(self)
        self.fanout.snapshot_all(lines, from_start=True)

    async def catch_up(self, origin: str | None = None) -> None:
        """Apply the actions other processes stored (``origin``: the process that said it
        stored them, which then owns the next decision)."""
        async with self.lock:
            await self._catch_up(origin)

    async def _catch_up(self, origin: str | None = None) -> None:
        """:meth:`catch_up` with the lock held."""
        version = await asyncio.to_thread(self.store.version, self.id)
        if version <= self.version:
            return
        if self.game is None:
            await self._refresh(origin)
            if self.game is None:
                return
        actions = await asyncio.to_thread(self.store.actions, self.id, self.version)
        game = self.game
        if actions:
            self.turn.owner = origin
        if actions and self.row.turn_timer is not None:
            # The deadline stored with the last of them (unknown if more came meanwhile:
            # the next catch-up brings it).
            at, deadline = await asyncio.to_thread(self.store.deadline, self.id)
            self.row.deadline = deadline if at == self.version + len(actions) else None
        for seat, action in actions:
            game.apply_json(action)
            self.row.version = len(game.actions)
            if game.is_over:
                self.row.status = "finished"
                self.row.result = game.result().to_json()
            self.turn.new_decision(self)
            self.fanout.updated(seat)

    async def _reload(self) -> None:
        """Read the row and the game again (storing failed or lost a race)."""
        got = await asyncio.to_thread(read_table, self.store, self.id)
        if got is not None:
            lines = await chat.history(self.store, self.id)
            self.presence.adopt(got[0])
            self.row, self.game = got
            self.turn.owner = None
            self.fanout.snapshot_all(lines, from_start=False)

    # --- the row ----------------------------------------------------------------------------

    async def refresh(self, origin: str | None = None) -> None:
        """Re-read the table's row (seats, status) after another process changed it
        (``origin``: the process that said so; if it started the game, it owns the first
        decision)."""
        async with self.lock:  # never beside a catch-up, which moves the version
            await self._refresh(origin)

    async def refresh_locked(self) -> None:
        """:meth:`refresh` with the lock held (by a lobby change, see
        :mod:`citadels.server.lobby`)."""
        await self._refresh()

    async def _refresh(self, origin: str | None = None) -> None:
        """:meth:`refresh` with the lock held."""
        row = await asyncio.to_thread(self.store.table_by_id, self.id)
        if row is None:
            return
        started = self.row.status == "open" and row.status != "open"
        row.version = self.row.version  # the game's version moves only by catching up
        row.deadline = self.row.deadline  # and so does the turn's deadline
        self.presence.adopt(row)  # no await from here to the swap
        self.row = row
        if started and self.game is None:
            got = await asyncio.to_thread(read_table, self.store, self.id)
            lines = await chat.history(self.store, self.id)
            if got is not None:
                self.presence.adopt(got[0])
                self.row, self.game = got[0], got[1]
                self.turn.owner = origin
            self.fanout.snapshot_all(lines, from_start=True)
