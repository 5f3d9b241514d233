"""The table's chat: who may write, how often, and the stored lines."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from typing import TYPE_CHECKING, Any

from citadels.server.connection import Connection
from citadels.server.errors import ServerError
from citadels.server.storage import Store
from citadels.server.text_input import clean_chat

if TYPE_CHECKING:
    from citadels.server.table import Table

#: Chat lines a snapshot carries.
CHAT_HISTORY = 50
#: At most this many chat lines in this many seconds, per seat (spectators: per connection).
CHAT_RATE = (5, 10.0)


class ChatRate:
    """When each seat of one table last wrote (its lines in the last ``CHAT_RATE[1]`` s)."""

    def __init__(self) -> None:
        self._times: dict[int, deque[float]] = {}

    def check(self, c: Connection) -> None:
        """Count one line of ``c``'s; ``ServerError(rate_limited)`` when it is one too many."""
        times = c.chat_times if c.seat is None else self._times.setdefault(c.seat, deque())
        now = time.monotonic()
        while times and now - times[0] > CHAT_RATE[1]:
            times.popleft()
        if len(times) >= CHAT_RATE[0]:
            raise ServerError(
                "rate_limited", f"at most {CHAT_RATE[0]} chat messages in {CHAT_RATE[1]:.0f} s"
            )
        times.append(now)


async def history(store: Store, table_id: int) -> list[dict[str, Any]]:
    """The table's last ``CHAT_HISTORY`` stored lines, oldest first."""
    return await asyncio.to_thread(store.chat, table_id, CHAT_HISTORY)


async def store_line(t: Table, c: Connection, text: Any) -> dict[str, Any]:
    """Check a chat line from ``c`` and store it; returns its ``chat`` message."""
    if c.seat is None and not t.row.spectator_chat:
        raise ServerError("forbidden", "spectators may read the chat, not write in it")
    try:
        clean = clean_chat(text)
    except ValueError as exc:
        raise ServerError("bad_chat", f"chat: {exc}") from None
    t.chat_rate.check(c)
    name = t.names()[c.seat] if c.seat is not None else "Spectator"
    chat_id, at = await asyncio.to_thread(t.store.add_chat, t.id, c.seat, name, clean)
    return {"type": "chat", "id": chat_id, "seat": c.seat, "name": name, "text": clean, "at": at}
