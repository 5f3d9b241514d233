"""One WebSocket connection as the rest of the server sees it: its seat, its language and the
outbox its socket's writer task drains.

Queuing a message never yields: :meth:`Outbox.push` is a plain function (no ``await``), and
``asyncio.Queue.put_nowait`` on an unbounded queue neither blocks nor switches tasks. So code
that builds a message and queues it runs as one step of the event loop, and no other task can
change the table between the two.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

#: A message as queued: its JSON object, or its text already encoded (``messages.encode``)
#: when several connections are sent the very same message.
Message = dict[str, Any] | str

#: Messages waiting for a client before it counts as not reading and is closed.
OUTBOX_MAX = 2000
#: The close code of a connection whose client did not read (docs/protocol.md).
OVERFLOW_CLOSE = 4413


class Outbox:
    """The messages waiting for one socket's writer task, in the order they were queued.

    Invariants: it never holds more than ``OUTBOX_MAX`` messages: the one that would be one
    too many closes it instead, drops what it holds (the client must take a new snapshot
    anyway) and calls ``on_overflow``. Once closed it takes nothing more (``push`` answers
    ``False``), and the writer's ``next`` answers ``None`` after what was queued before.
    """

    def __init__(self, on_overflow: Callable[[], None] = lambda: None) -> None:
        # Unbounded, so that put_nowait never raises QueueFull; OUTBOX_MAX is checked here.
        self._queue: asyncio.Queue[Message | None] = asyncio.Queue()
        self._on_overflow = on_overflow
        self.closed = False

    def push(self, msg: Message) -> bool:
        """Queue ``msg``; ``False`` when the outbox is closed or overflows. Never yields."""
        if self.closed:
            return False
        if self._queue.qsize() >= OUTBOX_MAX:
            while not self._queue.empty():
                self._queue.get_nowait()
            self.close()
            self._on_overflow()
            return False
        self._queue.put_nowait(msg)
        return True

    def close(self) -> None:
        """Take nothing more; the writer stops after what is queued."""
        self.closed = True
        self._queue.put_nowait(None)

    async def next(self) -> Message | None:
        """The writer's side: the next message, or ``None`` once closed and sent."""
        return await self._queue.get()


@dataclass(eq=False)
class Connection:
    """One WebSocket connection that said hello: its seat (``None``: a spectator), its
    language, its outbox, and (for a spectator) the times of its last chat lines."""

    seat: int | None
    lang: str
    outbox: Outbox
    chat_times: deque[float] = field(default_factory=deque)

    def push(self, msg: Message) -> bool:
        """Queue one message for this connection (never yields); ``False`` if it is closed."""
        return self.outbox.push(msg)
