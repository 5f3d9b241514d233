"""Fan-out between server processes: Redis pub/sub, or nothing for a single process.

The database is the truth; the bus only tells the other processes that a table changed (a new
action, seats, chat, a player's presence), so that they catch up and tell their own
connections. Every message names the process that sent it (``origin``), which ignores its own
echo, and carries that process's ``seq``: a number counted up at every message it publishes,
taken in the same step as the message is built (``publish`` does not yield before it), so a
receiver can tell an older message of one process from a newer one whatever order they
arrive in.

Which processes are alive is kept by :class:`Peers`: every message heard from a process,
and its heartbeat (``alive``, every ``heartbeat`` seconds), keeps it alive for
``PEER_TTL_BEATS`` beats; a process that dies stops beating and expires.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, cast

log = logging.getLogger("citadels.server")

Handler = Callable[[dict[str, Any]], Awaitable[None]]

CHANNEL = "citadels:tables"

#: Seconds between two heartbeats of a server process (``ServerConfig.heartbeat``).
HEARTBEAT = 2.0
#: Heartbeats a process may miss before the others take it for dead.
PEER_TTL_BEATS = 4


class Peers:
    """The other server processes this one has heard from lately, and until when each counts
    as alive (monotonic seconds). Only the bus listener (through :meth:`heard`) and the
    heartbeat's sweep (:meth:`expire`) write it."""

    def __init__(self, ttl: float) -> None:
        self.ttl = ttl
        self._until: dict[str, float] = {}

    def heard(self, origin: str) -> None:
        """A message came from ``origin``: it is alive for ``ttl`` more seconds."""
        self._until[origin] = time.monotonic() + self.ttl

    def alive(self, origin: str) -> bool:
        """Whether ``origin`` was heard from within its ``ttl``."""
        until = self._until.get(origin)
        return until is not None and until > time.monotonic()

    def living(self) -> list[str]:
        """The processes alive now."""
        now = time.monotonic()
        return [o for o, until in self._until.items() if until > now]

    def expire(self) -> list[str]:
        """Forget the processes whose time ran out; returns them."""
        now = time.monotonic()
        dead = [o for o, until in self._until.items() if until <= now]
        for origin in dead:
            del self._until[origin]
        return dead


class Bus:
    """A single process: nothing to fan out."""

    def __init__(self, heartbeat: float = HEARTBEAT) -> None:
        self.origin = uuid.uuid4().hex
        self.shared = False
        #: Seconds between two heartbeats.
        self.heartbeat = heartbeat
        self.peers = Peers(heartbeat * PEER_TTL_BEATS)
        self._seq = 0

    def stamp(self, message: dict[str, Any]) -> dict[str, Any]:
        """``message`` with this process's ``origin`` and its next ``seq`` (never yields)."""
        self._seq += 1
        return {**message, "origin": self.origin, "seq": self._seq}

    async def start(self, handler: Handler) -> None:
        """Begin delivering other processes' messages to ``handler``."""

    async def publish(self, message: dict[str, Any]) -> None:
        """Tell the other processes."""

    async def close(self) -> None:
        """Stop listening."""


class RedisBus(Bus):
    """Redis pub/sub on one channel shared by every server process."""

    def __init__(self, url: str, channel: str = CHANNEL, heartbeat: float = HEARTBEAT) -> None:
        super().__init__(heartbeat)
        self.channel = channel
        import redis.asyncio as aioredis

        self.shared = True
        self._redis = aioredis.from_url(url)
        self._task: asyncio.Task[None] | None = None

    async def start(self, handler: Handler) -> None:
        await self._redis.ping()
        pubsub = self._redis.pubsub()
        await pubsub.subscribe(self.channel)
        ready = asyncio.Event()

        async def listen() -> None:
            ready.set()
            while True:
                try:
                    msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if msg is None:
                        continue
                    data = json.loads(msg["data"])
                    origin = data.get("origin")
                    if origin == self.origin or not isinstance(origin, str):
                        continue
                    self.peers.heard(origin)
                    await handler(data)
                except asyncio.CancelledError:
                    # Through Any: redis-py types ``aclose`` only from version 8 on.
                    await cast(Any, pubsub).aclose()
                    raise
                except Exception:  # keep listening whatever one message did
                    log.exception("bus message failed")
                    await asyncio.sleep(0.1)

        self._task = asyncio.create_task(listen())
        await ready.wait()

    async def publish(self, message: dict[str, Any]) -> None:
        data = json.dumps(self.stamp(message))  # stamped before the first await
        await self._redis.publish(self.channel, data)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self._redis.aclose()
