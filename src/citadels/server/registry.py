"""The tables loaded in this process: at most one live :class:`Table` per table, loaded on
first use and kept while the process runs."""

from __future__ import annotations

import asyncio

from citadels.server.bus import Bus
from citadels.server.clock import SYSTEM, Clock
from citadels.server.commits import GroupCommit
from citadels.server.errors import ServerError
from citadels.server.storage import Store
from citadels.server.table import Table, read_table
from citadels.server.tokens import normal_code


class Registry:
    """Every live table of this process, by id."""

    def __init__(self, store: Store, bus: Bus, clock: Clock = SYSTEM) -> None:
        self.store = store
        self.bus = bus
        self.clock = clock
        self._live: dict[int, Table] = {}
        #: The live tables by code (a table's code never changes), so that finding the table
        #: of a request or a connection does not look through every table.
        self._codes: dict[str, Table] = {}
        self._loading: dict[int, asyncio.Lock] = {}
        #: One group commit for all the tables of the process: their moves share transactions.
        self.commits = GroupCommit(store)

    def tables(self) -> list[Table]:
        """The live tables (a copy)."""
        return list(self._live.values())

    def get(self, table_id: int) -> Table | None:
        """The live table with this id, if it is loaded."""
        return self._live.get(table_id)

    async def load(self, table_id: int) -> Table | None:
        """The live table, loaded from storage on first use (once, however many ask)."""
        t = self._live.get(table_id)
        if t is not None:
            return t
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            t = self._live.get(table_id)
            if t is not None:
                return t
            got = await asyncio.to_thread(read_table, self.store, table_id)
            if got is None:
                return None
            t = Table(got[0], got[1], self.store, self.bus, self.commits, self.clock)
            t.hint_uses = await asyncio.to_thread(self.store.hint_uses, table_id)
            if got[0].turn_timer is not None:
                t.timeouts = await asyncio.to_thread(self.store.timeouts, table_id)
            self._live[table_id] = t
            self._codes[t.row.code] = t
        if self.bus.shared:
            # Ask the other processes who is connected to this table there.
            await self.bus.publish({"kind": "who", "table": table_id})
        return t

    async def by_code(self, code: str) -> Table:
        """The live table with this code, or ``ServerError(not_found)``."""
        normal = normal_code(code[:64])
        if normal is None:
            raise ServerError("not_found", f"no table with the code {code[:24]!r}", 404)
        code = normal
        live = self._codes.get(code)
        if live is not None:
            return live
        row = await asyncio.to_thread(self.store.table_by_code, code)
        if row is None:
            raise ServerError("not_found", f"no table with the code {code!r}", 404)
        loaded = await self.load(row.id)
        if loaded is None:
            raise ServerError("not_found", f"no table with the code {code!r}", 404)
        return loaded
