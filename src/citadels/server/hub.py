"""The tables a server process serves, and the protocol's operations on them.

The hub is the one object the app and the WebSocket sessions talk to; it holds no state of
its own but wires the parts, each the only owner of its state:

- :mod:`~citadels.server.registry`: the tables loaded in this process;
- :mod:`~citadels.server.table`: one table's game and version (the only writer of the game);
- :mod:`~citadels.server.lobby`: seats, host, bots and the start;
- :mod:`~citadels.server.fanout`: one table's connections, their cursors, what they are sent;
- :mod:`~citadels.server.connection`: one connection's outbox (queuing never yields);
- :mod:`~citadels.server.presence`: who is connected, who is away;
- :mod:`~citadels.server.turns`: who must move and when a bot or the stand-in plays;
- :mod:`~citadels.server.chat`, :mod:`~citadels.server.replay`;
- :mod:`~citadels.server.messages` (pure builders), :mod:`~citadels.server.tokens`.

:mod:`~citadels.server.session` runs one WebSocket connection and calls the hub.

It holds no rule logic: the engine decides. With a shared database and a bus, several
processes run a hub each: the database's version check makes one write win, and the bus
tells the others to catch up. Each hub then beats (:meth:`Hub._beat`): every ``heartbeat``
seconds it tells the others it is alive and how many connections it holds per seat, and
forgets the processes that stopped beating, whose seats may then need their stand-in.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from functools import partial
from typing import Any

from citadels.engine.actions import Action, action_from_json
from citadels.errors import MalformedAction
from citadels.server import chat, replay
from citadels.server.botpool import BotPool
from citadels.server.bus import Bus
from citadels.server.clock import SYSTEM, Clock
from citadels.server.connection import Connection
from citadels.server.errors import ServerError
from citadels.server.lobby import Lobby
from citadels.server.mail import MailConfig, Mailer
from citadels.server.registry import Registry
from citadels.server.reviews import Coach
from citadels.server.storage import Store
from citadels.server.table import Table
from citadels.server.tokens import seat_of
from citadels.server.turns import Turns

log = logging.getLogger("citadels.server")


class Hub:
    """Every table of this process and the operations of the protocol on them."""

    def __init__(
        self,
        store: Store,
        bus: Bus,
        pool: BotPool,
        *,
        grace: float = 5.0,
        bot_delay: float = 0.0,
        spectators_max: int = 100,
        coach: dict[str, int] | None = None,
        clock: Clock = SYSTEM,
        mail: MailConfig | None = None,
    ) -> None:
        self.store = store
        #: Spectators' connections a table takes in this process (docs/protocol.md, Limits).
        self.spectators_max = spectators_max
        self.bus = bus
        self.tables = Registry(store, bus, clock)
        #: "Your turn" e-mails at turn-based tables (when an SMTP server is configured).
        self.mailer = Mailer(store, mail)
        self.turns = Turns(
            pool, self._play, bus, grace=grace, bot_delay=bot_delay, clock=clock,
            on_turn=self.mailer.turn,
        )  # fmt: skip
        self.lobby = Lobby(store, bus, self.tables, self.turns)
        self.replays = replay.Replays(store)
        #: Reviews and hints (``coach``: its budgets and limits, see ``Coach``).
        self.coach = Coach(store, pool, **(coach or {}))
        self._closing = False
        self._beating: asyncio.Task[None] | None = None

    # --- start and stop ---------------------------------------------------------------------

    async def start(self) -> None:
        """Listen to the bus and resume the games that were being played."""
        await self.bus.start(self.on_bus)
        for table_id in await asyncio.to_thread(self.store.table_ids, "playing"):
            try:
                t = await self.tables.load(table_id)
            except Exception:
                log.exception("table %s could not be resumed", table_id)
                continue
            if t is not None:
                self.turns.schedule(t)
        if self.bus.shared:
            self._beating = asyncio.create_task(self._beat())

    async def close(self) -> None:
        """Cancel timers and bot turns; stop listening."""
        self._closing = True
        if self._beating is not None:
            self._beating.cancel()
            await asyncio.wait((self._beating,))
        self.turns.close(self.tables.tables())
        await self.mailer.close()
        await self.bus.close()
        # After the bot turns: the writer stores what it was handed (the join waits for one
        # batch at most), then lets its connection go. In this thread: on SQLite the loop
        # itself writes in that connection, so no other thread may close it.
        self.tables.commits.close()

    async def _beat(self) -> None:
        """Every ``heartbeat`` seconds: say this process is alive, with its connections per
        seat at every table it holds one for; then forget the processes whose heartbeats
        stopped (their connections count no more) and arrange the turns they leave."""
        while True:
            await asyncio.sleep(self.bus.heartbeat)
            try:
                counts = {}
                for t in self.tables.tables():
                    held = t.presence.local_counts()
                    if held:
                        counts[str(t.id)] = {str(s): n for s, n in held.items()}
                await self.bus.publish({"kind": "alive", "tables": counts})
                dead = self.bus.peers.expire()
                if dead:
                    log.warning("server processes stopped beating: %s", ", ".join(dead))
                    for t in self.tables.tables():
                        if t.presence.forget(dead):
                            t.fanout.table_changed()
                        self.turns.schedule(t)  # a dead owner's decisions are this one's now
            except Exception:
                log.exception("a heartbeat failed")

    # --- HTTP -------------------------------------------------------------------------------

    async def by_code(self, code: str) -> Table:
        """The live table with this code, or ``ServerError(not_found)``."""
        return await self.tables.by_code(code)

    async def create(self, body: dict[str, Any], account_id: int | None = None) -> dict[str, Any]:
        """``POST /api/tables``."""
        return await self.lobby.create(body, account_id)

    async def join(
        self, code: str, body: dict[str, Any], account_id: int | None = None
    ) -> dict[str, Any]:
        """``POST /api/tables/{code}/join``."""
        return await self.lobby.join(code, body, account_id)

    async def set_bot(
        self, code: str, seat: int, token: str | None, body: dict[str, Any]
    ) -> dict[str, Any]:
        """``POST /api/tables/{code}/seats/{seat}/bot``."""
        return await self.lobby.set_bot(code, seat, token, body)

    async def start_game(self, code: str, token: str | None) -> dict[str, Any]:
        """``POST /api/tables/{code}/start``."""
        return await self.lobby.start(code, token)

    async def listing(self, status: str) -> list[dict[str, Any]]:
        """``GET /api/tables?status=…``."""
        return await self.lobby.listing(status)

    async def info(self, code: str) -> dict[str, Any]:
        """``GET /api/tables/{code}``."""
        return await self.lobby.info(code)

    async def replay(
        self,
        code: str,
        start: int,
        count: int,
        lang: str,
        seat: int | None = None,
        token: str | None = None,
    ) -> dict[str, Any]:
        """``GET /api/tables/{code}/replay``: a finished game, step by step; ``you`` is the
        seat whose token the request carries (so a player replays from their own seat)."""
        t = await self.tables.by_code(code)
        await t.refresh()
        row = t.row
        replay.check(row, start, count, seat)
        page = await self.replays.page(row, start, count, lang, seat)
        # A copy: the page may be the cached one every other request also gets.
        return {**page, "you": seat_of(row, token)}

    async def review(
        self, code: str, seat: int, lang: str, token: str | None = None
    ) -> dict[str, Any]:
        """``GET /api/tables/{code}/review``: a seat's review (see ``reviews.Coach``)."""
        t = await self.tables.by_code(code)
        await t.refresh()
        return await self.coach.review(t, seat, lang, seat_of(t.row, token))

    # --- connections ------------------------------------------------------------------------

    async def seat_for(self, t: Table, token: str) -> int | None:
        """The seat this token opens at ``t`` (re-reading the seats once if it opens none)."""
        seat = seat_of(t.row, token)
        if seat is None:
            await t.refresh()
            seat = seat_of(t.row, token)
        return seat

    async def connect(self, t: Table, c: Connection, since: int) -> None:
        """A connection said hello: its snapshot, then the others are told it is here.

        Every ``await`` comes before :meth:`Fanout.admit`, which registers the connection in
        the same step as it queues its snapshot: a move or a chat line meanwhile is in the
        snapshot or in the updates after it, never before it. In that same step a seat that
        was away is marked back and the turn is arranged again (``settle``): a stand-in
        whose grace ran out during the awaits before cannot take the seat of a player who
        is connected, and a mover's deadline is in the snapshot."""
        lines = await chat.history(self.store, t.id)
        # Counted in the same step as the connection is admitted: no await in between.
        if c.seat is None and self._spectators(t) >= self.spectators_max:
            raise ServerError(
                "spectators_full", f"this table takes at most {self.spectators_max} spectators"
            )
        back: asyncio.Future[None] | None = None

        def settle() -> None:
            nonlocal back
            if c.seat is not None:
                back = t.presence.come_back(c.seat)
            self.turns.schedule(t, announce=False)  # the table message below has it

        t.fanout.admit(c, since, lines, settle)
        if c.seat is not None:
            if back is not None:
                await back  # stored before the other processes are told to re-read it
            await t.presence.publish()
            if back is not None:
                await self.bus.publish({"kind": "table", "table": t.id})
            t.fanout.table_changed()
            self.turns.schedule(t)

    @staticmethod
    def _spectators(t: Table) -> int:
        return sum(1 for x in t.fanout.connections() if x.seat is None)

    async def resync(self, t: Table, c: Connection, since: int, lang: str | None = None) -> None:
        """A new snapshot for a connection (``sync``; ``lang`` switches its language too)."""
        lines = await chat.history(self.store, t.id)
        t.fanout.resync(c, since, lines, lang)

    async def disconnect(self, t: Table, c: Connection) -> None:
        """A connection closed."""
        t.fanout.leave(c)
        if c.seat is not None and not self._closing:
            await t.presence.publish()
            t.fanout.table_changed()
            self.turns.schedule(t)

    async def _returned(self, t: Table, seat: int) -> None:
        """A seat's player sent something: no more stand-in."""
        if not await t.presence.returned(seat):
            return
        self.turns.schedule(t)
        t.fanout.table_changed()
        await self.bus.publish({"kind": "table", "table": t.id})

    # --- acting and chat --------------------------------------------------------------------

    async def act(
        self, t: Table, c: Connection, action_json: Any, version: Any, ref: str | None
    ) -> None:
        """A connection's ``act``; raises ``ServerError`` and changes nothing when it cannot
        be played."""
        if c.seat is not None:
            await self._returned(t, c.seat)
        await self._act(t, c.seat, action_json, version, (c, ref) if ref else None)

    async def _play(
        self,
        t: Table,
        seat: int,
        action_json: Action | dict[str, Any],
        version: int,
        guard: Callable[[], bool] | None,
    ) -> None:
        """A bot's or the stand-in's move, as an action or its JSON (``guard``: see
        ``Table.apply``)."""
        await self._act(t, seat, action_json, version, None, guard)

    async def _act(
        self,
        t: Table,
        seat: int | None,
        action_json: Any,
        version: Any,
        ack: tuple[Connection, str] | None,
        guard: Callable[[], bool] | None = None,
    ) -> None:
        if seat is None:
            raise ServerError("forbidden", "spectators cannot play")
        if type(version) is not int:
            raise ServerError("malformed", "act needs an integer version")
        if isinstance(action_json, Action):  # a light bot's choice, one of the legal actions
            action = action_json
        else:
            try:
                action = action_from_json(action_json)
            except MalformedAction as exc:
                raise ServerError("malformed", f"action: {exc}") from None
        seq = await t.apply(seat, action, version, ack, guard, partial(self.turns.follow, t))
        await self.bus.publish({"kind": "action", "table": t.id, "version": seq})
        self.turns.schedule(t)

    async def chat(self, t: Table, c: Connection, text: Any) -> None:
        """A chat line from a connection."""
        if c.seat is not None:
            await self._returned(t, c.seat)
        line = await chat.store_line(t, c, text)
        t.fanout.chat(line)
        await self.bus.publish({"kind": "chat", "table": t.id, "message": line})

    async def hint(self, t: Table, c: Connection, version: int) -> dict[str, Any]:
        """A connection's ``hint``: the ``hint`` message that answers it."""
        if c.seat is not None:
            await self._returned(t, c.seat)
        return await self.coach.hint(t, c.seat, version, c.lang)

    # --- the bus ----------------------------------------------------------------------------

    async def on_bus(self, msg: dict[str, Any]) -> None:
        """Another process changed a table this process may serve, or said it is alive."""
        kind = msg.get("kind")
        origin = str(msg.get("origin"))
        if kind == "alive":
            held = msg.get("tables") or {}
            for live in self.tables.tables():
                self._heard(live, origin, msg, held.get(str(live.id)) or {})
            return
        t = self.tables.get(msg.get("table", -1))
        if t is None:
            return
        if kind == "action":
            await t.catch_up(origin)
            self.turns.schedule(t)
        elif kind == "table":
            await t.refresh(origin)
            t.fanout.table_changed()
            self.turns.schedule(t)
        elif kind == "chat":
            t.fanout.chat(msg["message"])
        elif kind == "hint":
            t.hint_used(msg["use"])
        elif kind == "timeout":
            t.timed_out(msg["timeout"])
        elif kind == "who":
            await t.presence.publish()
        elif kind == "presence":
            self._heard(t, origin, msg, msg.get("counts") or {})

    def _heard(self, t: Table, origin: str, msg: dict[str, Any], counts: dict[str, int]) -> None:
        """Another process's connections at ``t``, per seat."""
        if t.presence.heard(
            origin, int(msg.get("seq", 0)), {int(s): int(n) for s, n in counts.items()}
        ):
            t.fanout.table_changed()
            self.turns.schedule(t)
