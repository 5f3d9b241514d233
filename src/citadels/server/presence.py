"""Who is at one table: the connections of this process and of the others, and which human
seats are away (played by the stand-in).

**Connected.** A seat is connected while any living process holds a connection for it. This
process's connections are counted from its fan-out. The others' come over the bus: each
process publishes, for one table, the counts of all its seats at once (``presence``, when
one of its connections comes or goes, and again in every heartbeat), stamped with its
``seq``; a count is kept only if it is newer than the one held for that process, and it
counts only while that process is alive (:class:`~citadels.server.bus.Peers`): the counts
of a process that died expire with it, and its seats are handed to the stand-in.

**Away.** Invariants, all kept here:

- This module is the only writer of the away flags, in memory (the live row's
  ``SeatRow.away``, mirrored from :class:`_Flag`) and in the database.
- Decisions are taken in the event loop (memory changes at once, with no ``await`` before),
  and stored in the same order: one table's writes run one after the other, each waiting
  for the one before (a chain of tasks that a cancelled caller does not break), never in
  two threads at once.
- Every stored write counts the seat's ``away_version`` up (``Store.set_away``, in one
  statement), so the version orders the writes of every process. Memory holds the flag of
  the newest write this process knows of: a row read from the database (``Table.refresh``
  on a page load, a join, a seat change, a replay) installs its flag only if its version is
  newer than that one, and never while this process's own writes are still being stored
  (those will be newer still; a newer flag read meanwhile is installed once they are).

So a player who has just returned is never made away again by a row that was read before
their return was stored, and memory and database end with the same flag whatever order the
threads ran in.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from citadels.server.bus import Bus
from citadels.server.storage import Store, TableRow

if TYPE_CHECKING:
    from citadels.server.table import Table

log = logging.getLogger("citadels.server")


@dataclass
class _Flag:
    """One seat's away flag as this process holds it."""

    away: bool
    #: The stored ``away_version`` that ``away`` is (or, while writes are pending, will be
    #: newer than).
    version: int
    #: This process's writes of the flag not yet stored.
    pending: int = 0
    #: The newest stored flag read while writes were pending: ``(version, away)``.
    read: tuple[int, bool] | None = None


@dataclass
class _Remote:
    """One other process's connections at this table: its counts per seat, and the ``seq``
    of the message that said so."""

    seq: int
    counts: dict[int, int]


class Presence:
    """Presence at one table: the other processes' connection counts, the away flags."""

    def __init__(self, table: Table, store: Store, bus: Bus) -> None:
        self._table = table
        self._store = store
        self._bus = bus
        self._remote: dict[str, _Remote] = {}
        self._flags = {s.seat: _Flag(s.away, s.away_version) for s in table.row.seats}
        #: The last write queued: the next one waits for it.
        self._tail: asyncio.Task[None] | None = None

    # --- connected --------------------------------------------------------------------------

    def connected(self, seat: int) -> bool:
        """Whether a human seat has a live connection in any living process."""
        if self._table.fanout.local_count(seat):
            return True
        peers = self._bus.peers
        return any(
            r.counts.get(seat, 0) > 0 and peers.alive(origin) for origin, r in self._remote.items()
        )

    def _seen(self) -> dict[int, bool]:
        return {s.seat: self.connected(s.seat) for s in self._table.row.seats}

    def heard(self, origin: str, seq: int, counts: dict[int, int]) -> bool:
        """Another process said how many connections it holds per seat (all of them; a seat
        it does not name has none). ``True`` if a seat's connectedness changed."""
        held = self._remote.get(origin)
        if held is not None and held.seq >= seq:
            return False  # an older message that arrived late
        before = self._seen()
        self._remote[origin] = _Remote(seq, {s: n for s, n in counts.items() if n > 0})
        return self._seen() != before

    def forget(self, origins: list[str]) -> bool:
        """These processes died: their connections count no more. ``True`` if a seat's
        connectedness changed (it may need its stand-in now)."""
        before = self._seen()
        for origin in origins:
            self._remote.pop(origin, None)
        return self._seen() != before

    def local_counts(self) -> dict[int, int]:
        """This process's connections per seat (only seats with one)."""
        counts: dict[int, int] = {}
        for c in self._table.fanout.connections():
            if c.seat is not None:
                counts[c.seat] = counts.get(c.seat, 0) + 1
        return counts

    async def publish(self) -> None:
        """Tell the other processes how many connections this one holds per seat."""
        counts = {str(s): n for s, n in self.local_counts().items()}
        await self._bus.publish({"kind": "presence", "table": self._table.id, "counts": counts})

    # --- away -------------------------------------------------------------------------------

    def away(self, seat: int) -> bool:
        """Whether the stand-in plays for ``seat`` (as this process holds it now)."""
        return self._flags[seat].away

    def adopt(self, row: TableRow) -> None:
        """A row was read from the database and is about to become the live one: take each
        seat's stored flag if it is newer than the one held, then show the held flags in it."""
        for s in row.seats:
            f = self._flags.get(s.seat)
            if f is None:
                f = self._flags[s.seat] = _Flag(s.away, s.away_version)
            elif f.pending:
                if f.read is None or s.away_version > f.read[0]:
                    f.read = (s.away_version, s.away)
            elif s.away_version > f.version:
                f.away, f.version = s.away, s.away_version
            s.away = f.away

    def come_back(self, seat: int) -> asyncio.Future[None] | None:
        """A seat's player is back (a new connection, in the step that registers it): no
        more stand-in. Marks it present now (never yields); ``None`` if it was not away,
        else the write's future."""
        if not self._flags[seat].away:
            return None
        return self._set(seat, False)

    async def returned(self, seat: int) -> bool:
        """A seat's player is back (a message): no more stand-in. ``True`` if the seat was
        away. Marks it present at once, then waits for the write."""
        stored = self.come_back(seat)
        if stored is None:
            return False
        await stored
        return True

    async def gone_away(self, seat: int) -> None:
        """The stand-in takes the seat over (its player left or let the timer run out).
        Marks it away at once, then waits for the write."""
        await self._set(seat, True)

    def _show(self, seat: int) -> None:
        self._table.row.seats[seat].away = self._flags[seat].away

    def _set(self, seat: int, away: bool) -> asyncio.Future[None]:
        """Change the flag now; the write is queued behind the table's earlier ones. The
        returned future is done once it is stored (cancelling it leaves the write be)."""
        f = self._flags[seat]
        f.away = away
        f.pending += 1
        self._show(seat)
        task = asyncio.create_task(self._write(self._tail, seat, away))
        self._tail = task
        return asyncio.shield(task)

    async def _write(self, before: asyncio.Task[None] | None, seat: int, away: bool) -> None:
        if before is not None:
            await asyncio.wait((before,))
        f = self._flags[seat]
        try:
            version: int | None = await asyncio.to_thread(
                self._store.set_away, self._table.id, seat, away
            )
        except Exception:
            log.exception("storing seat %s's away flag failed", seat)
            version = None
        f.pending -= 1
        if version is None:
            f.version = -1  # the database is the truth: the next row read installs its flag
        else:
            f.version = max(f.version, version)
        if f.pending == 0 and f.read is not None:
            read, f.read = f.read, None
            if read[0] > f.version:
                f.away, f.version = read[1], read[0]
                self._show(seat)

    async def settled(self) -> None:
        """Wait until every away flag written so far is stored (tests, shutdown)."""
        if self._tail is not None:
            await asyncio.wait((self._tail,))

    def state(self) -> dict[str, Any]:
        """The flags as held, for tests and logs: seat → ``(away, version, pending)``."""
        return {str(s): (f.away, f.version, f.pending) for s, f in self._flags.items()}
