"""Fan-out between server processes: Redis pub/sub, or nothing for a single process.

The database is the truth; the bus only tells the other processes that a table changed (a new
action, seats, chat, a player's presence), so that they catch up and tell their own
connections. Every message names the process that sent it, which ignores its own echo.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("citadels.server")

Handler = Callable[[dict[str, Any]], Awaitable[None]]

CHANNEL = "citadels:tables"


class Bus:
    """A single process: nothing to fan out."""

    def __init__(self) -> None:
        self.origin = uuid.uuid4().hex
        self.shared = False

    async def start(self, handler: Handler) -> None:
        """Begin delivering other processes' messages to ``handler``."""

    async def publish(self, message: dict[str, Any]) -> None:
        """Tell the other processes."""

    async def close(self) -> None:
        """Stop listening."""


class RedisBus(Bus):
    """Redis pub/sub on one channel shared by every server process."""

    def __init__(self, url: str, channel: str = CHANNEL) -> None:
        super().__init__()
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
                    if data.get("origin") == self.origin:
                        continue
                    await handler(data)
                except asyncio.CancelledError:
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
                    raise
                except Exception:  # keep listening whatever one message did
                    log.exception("bus message failed")
                    await asyncio.sleep(0.1)

        self._task = asyncio.create_task(listen())
        await ready.wait()

    async def publish(self, message: dict[str, Any]) -> None:
        await self._redis.publish(self.channel, json.dumps({**message, "origin": self.origin}))

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self._redis.aclose()
