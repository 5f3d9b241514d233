"""The connections of one table in this process, each with its cursor, and what they are sent.

Invariants, all kept here:

- A connection is registered exactly when it has a cursor (one dict holds both), and only a
  registered connection is sent anything about the table: nothing reaches a connection before
  its snapshot.
- A connection is registered in the same step as its snapshot is built and queued
  (:meth:`Fanout.admit`): the callers do their awaits (database writes, presence, the chat
  read) first and hand the result in.
- Every update is cut from the connection's own cursor, so each one starts exactly at the
  event count the connection holds, and moves the cursor to the table's count.
- Every chat line reaches a connection once: in its snapshot's history or after it.
- An update is built and encoded once per viewer class (seat, language, cursor) and that
  one text is queued for every connection of the class (:meth:`Fanout.updated`): the class
  key holds everything the message is cut from, so sharing it shows no connection more
  than its own view would.
- A connection whose outbox is closed (it overflowed: the client does not read; or its socket
  failed) is dropped at the first message it cannot take: its seat no longer counts as
  connected, and it is sent nothing more.

Every method here is synchronous, so each runs as one step of the event loop: it builds from
the table as it is now and queues (``Connection.push`` never yields), and no other task can
move the game, or store a chat line and fan it out, between the building and the queuing.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from citadels.server import messages
from citadels.server.chat import CHAT_HISTORY
from citadels.server.connection import Connection, Message

if TYPE_CHECKING:
    from citadels.server.table import Table


@dataclass
class Cursor:
    """What one connection was sent: the events (its event count) and the chat lines of its
    last snapshot, the only lines that may be fanned out again after it (a line is fanned out
    once per process; one stored before the chat read and fanned out after the snapshot is
    both in the history and in that later fan-out)."""

    events: int
    chat: frozenset[int]


class _Built:
    """One viewer class's update after an action: its object, its text (encoded when first
    needed, then shared) and the ``game_over`` that follows a final update (encoded too)."""

    def __init__(self, part: dict[str, Any], by: int) -> None:
        self.update: dict[str, Any] = {"type": "update", **part, "by": by}
        self._text: str | None = None
        self.over = (
            messages.encode(messages.game_over(part)) if part["result"] is not None else None
        )

    def text(self) -> str:
        if self._text is None:
            self._text = messages.encode(self.update)
        return self._text


def _line(msg: dict[str, Any]) -> dict[str, Any]:
    """A ``chat`` message as a line of a snapshot's history (as the store gives it)."""
    return {k: v for k, v in msg.items() if k != "type"}


class Fanout:
    """The connections of one table in this process: the only holder of their cursors."""

    def __init__(self, table: Table) -> None:
        self._table = table
        self._cursors: dict[Connection, Cursor] = {}
        #: The chat lines this process fanned out lately, for the snapshots of connections
        #: whose chat read was done before such a line was stored.
        self._recent: deque[dict[str, Any]] = deque(maxlen=CHAT_HISTORY)

    def connections(self) -> list[Connection]:
        """The registered connections (a copy)."""
        return list(self._cursors)

    def local_count(self, seat: int) -> int:
        """How many connections of this process hold ``seat``."""
        return sum(1 for c in self._cursors if c.seat == seat)

    # --- joining and leaving ----------------------------------------------------------------

    def admit(
        self,
        c: Connection,
        since: int,
        stored_chat: list[dict[str, Any]],
        settle: Callable[[], None] | None = None,
    ) -> None:
        """Register ``c`` and queue its snapshot (events from ``since``); ``stored_chat``:
        the table's last chat lines, read just before. ``settle`` (synchronous) runs between
        the two: what depends on the connection being counted (the mover's deadline) is
        then in its snapshot."""
        self._cursors[c] = Cursor(0, frozenset())  # first: the snapshot counts it connected
        if settle is not None:
            settle()
        self._snapshot(c, since, stored_chat)

    def resync(
        self,
        c: Connection,
        since: int,
        stored_chat: list[dict[str, Any]],
        lang: str | None = None,
    ) -> None:
        """A new snapshot for a registered connection (``sync``; ``lang`` also switches its
        language); nothing if it left meanwhile."""
        if c not in self._cursors:
            return
        if lang is not None:
            c.lang = lang
        self._snapshot(c, since, stored_chat)

    def snapshot_all(self, stored_chat: list[dict[str, Any]], *, from_start: bool) -> None:
        """A snapshot to every connection: the game started (``from_start``: every event),
        or was read again (the events from each connection's cursor)."""
        for c, cursor in list(self._cursors.items()):
            self._snapshot(c, 0 if from_start else cursor.events, stored_chat)

    def leave(self, c: Connection) -> None:
        """Forget a connection (it closed)."""
        self._cursors.pop(c, None)

    # --- what they are sent -----------------------------------------------------------------

    def updated(self, by: int, ack: tuple[Connection, str] | None = None) -> None:
        """The update after one action, cut from each connection's cursor for its seat and
        language; ``ack`` answers the connection that sent the action.

        Built once per viewer class and reused: connections of one seat (or spectators) in
        one language whose cursors stand at one event count are owed the very same update, so
        it is built from that seat's view once (``messages.game_part``) and encoded once for
        all of them; only the acknowledged connection's copy differs (its ``ack``). A class is
        never wider than that key, so no connection gets what another's view holds."""
        t = self._table
        count = len(t.game.state.log) if t.game is not None else 0
        cache: dict[tuple[int | None, str, int], _Built] = {}
        for c, cursor in list(self._cursors.items()):
            key = (c.seat, c.lang, cursor.events)
            built = cache.get(key)
            if built is None:
                built = cache[key] = _Built(self._part(c, cursor.events), by)
            cursor.events = count
            if ack is not None and ack[0] is c:
                sent = self._send(c, {**built.update, "ack": ack[1]})
            else:
                sent = self._send(c, built.text())
            if sent and built.over is not None:
                self._send(c, built.over)

    def table_changed(self) -> None:
        """The table object (seats, presence, status) and the current decision's deadline to
        every connection (the same message for all: encoded once)."""
        connections = self.connections()
        if not connections:
            return
        msg = {"type": "table", "table": self._table.json(), "deadline": self._table.turn.deadline}
        text = messages.encode(msg)
        for c in connections:
            self._send(c, text)

    def chat(self, msg: dict[str, Any]) -> None:
        """A chat line (this process's or another's) to every connection that lacks it."""
        self._recent.append(_line(msg))
        text: str | None = None
        for c, cursor in list(self._cursors.items()):
            if msg["id"] not in cursor.chat:
                text = text if text is not None else messages.encode(msg)
                self._send(c, text)

    def hint_used(self, entry: dict[str, Any]) -> None:
        """A hint used at the table, to every connection (a snapshot holds the earlier ones)."""
        msg = {"type": "hint_used", **entry}
        for c in self.connections():
            self._send(c, msg)

    def timed_out(self, entry: dict[str, Any]) -> None:
        """A turn-based table's timer ran out for a seat, to every connection (a snapshot
        holds the earlier ones)."""
        msg = {"type": "timed_out", **entry}
        for c in self.connections():
            self._send(c, msg)

    def _send(self, c: Connection, msg: Message) -> bool:
        """Queue ``msg`` for ``c``; a connection that cannot take it is dropped."""
        if c.push(msg):
            return True
        self._cursors.pop(c, None)
        return False

    # --- building ---------------------------------------------------------------------------

    def _history(self, stored: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The last chat lines: those read from the store and those fanned out since."""
        lines = {line["id"]: line for line in stored}
        for line in self._recent:
            lines.setdefault(line["id"], line)
        return [lines[i] for i in sorted(lines)][-CHAT_HISTORY:]

    def _snapshot(self, c: Connection, since: int, stored_chat: list[dict[str, Any]]) -> None:
        t = self._table
        chat = self._history(stored_chat)
        part = self._part(c, since)
        self._cursors[c] = Cursor(part["event_count"], frozenset(line["id"] for line in chat))
        self._send(
            c,
            {
                "type": "snapshot",
                "protocol": messages.PROTOCOL,
                "you": {
                    "seat": c.seat,
                    "host": c.seat is not None and c.seat == t.row.host_seat,
                    "spectator": c.seat is None,
                    "name": t.names(c.lang)[c.seat] if c.seat is not None else None,
                },
                "table": t.json(),
                **part,
                "chat": chat,
                "hints_used": list(t.hint_uses),
                "timeouts": list(t.timeouts),
            },
        )

    def _part(self, c: Connection, since: int) -> dict[str, Any]:
        t = self._table
        return messages.game_part(t.row, t.game, c.seat, c.lang, since, t.turn.deadline)
