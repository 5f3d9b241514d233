"""A small protocol client: create and join tables over HTTP, play over the WebSocket.

It is what a remote bot, the load benchmark and the tests use; it keeps nothing but what the
server sent (every message is kept in ``received``).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

import httpx
import orjson
import websockets

Chooser = Callable[[list[dict[str, Any]], dict[str, Any]], dict[str, Any]]

#: Seconds an unanswered request for the state (``sync``) waits before it is sent again.
SYNC_RETRY = 2.0
#: The rate (messages per second) and burst :meth:`PlayerClient.play` keeps its actions to:
#: below the server's per-connection limit (30 a second, 60 at once: docs/protocol.md), so
#: that a client playing against unpaced bots is never refused as a flood.
PLAY_RATE, PLAY_BURST = 20.0, 40.0


async def http(
    base: str, method: str, path: str, body: Any = None, token: str | None = None
) -> tuple[int, Any]:
    """One HTTP request to the server; returns the status and the JSON body."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        r = await client.request(method, path, json=body, headers=headers)
    try:
        return r.status_code, r.json()
    except ValueError:
        return r.status_code, r.text


class OutOfStep(AssertionError):
    """A strict client received what the protocol says it never sends: something before the
    connection's snapshot, an update that does not start at the client's event count, a
    snapshot that leaves a gap, or a chat line it already holds."""


class PlayerClient:
    """One WebSocket connection to a table, as a seat (with its token) or a spectator.

    A *strict* client (``strict=True``, or ``PlayerClient.strict_default``, which the server
    tests turn on) checks every message against what the protocol promises and raises
    :class:`OutOfStep` at the first one that breaks it. A lenient one (the default, for real
    networks) answers an out-of-step update with ``sync``, as the protocol says.
    """

    #: ``strict`` for clients made without saying.
    strict_default: ClassVar[bool] = False

    def __init__(
        self,
        base: str,
        code: str,
        token: str | None = None,
        *,
        lang: str = "en",
        seed: int = 0,
        choose: Chooser | None = None,
        strict: bool | None = None,
    ) -> None:
        self.ws_url = base.replace("http://", "ws://").replace("https://", "wss://")
        self.ws_url = f"{self.ws_url}/ws/{code}"
        self.token = token
        self.lang = lang
        self.rng = random.Random(seed)
        self.choose = choose or (lambda legal, _view: self.rng.choice(legal)["action"])
        self.received: list[dict[str, Any]] = []
        self.version = 0
        self.event_count = 0
        self.events: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None
        self.legal: list[dict[str, Any]] = []
        self.seat: int | None = None
        self.result: dict[str, Any] | None = None
        self.scores: list[dict[str, Any]] | None = None
        #: The chat as this client holds it: the last snapshot's history, then each line.
        self.chat: list[dict[str, Any]] = []
        #: The hints used at the table (``hint_used``), as this client holds them.
        self.hints_used: list[dict[str, Any]] = []
        #: The turns whose timer ran out at a turn-based table (``timed_out``).
        self.timeouts: list[dict[str, Any]] = []
        #: The current decision's deadline (epoch ms), as the last message said.
        self.deadline: int | None = None
        self.strict = type(self).strict_default if strict is None else strict
        self._snapshotted = False  # this connection received its snapshot
        self.errors: list[dict[str, Any]] = []
        self.latencies: list[float] = []
        self._ws: Any = None
        self._sent_at: dict[str, float] = {}
        self._n = 0
        self._sync_sent_at: float | None = None
        #: The clock and the sleep ``pace`` uses (a test gives fake ones).
        self._clock: Callable[[], float] = time.monotonic
        self._sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
        self._tokens = PLAY_BURST
        self._filled_at = self._clock()

    async def pace(self) -> None:
        """Wait until the client's own bucket (``PLAY_RATE``, ``PLAY_BURST``) has a token,
        then take it: called before each action, a client stays under the server's limit of
        frames per connection however fast the table's other seats move."""
        while True:
            now = self._clock()
            self._tokens = min(PLAY_BURST, self._tokens + (now - self._filled_at) * PLAY_RATE)
            self._filled_at = now
            if self._tokens >= 1 - 1e-9:  # a refill's rounding must not cost another wait
                self._tokens = max(0.0, self._tokens - 1)
                return
            await self._sleep(max(0.001, (1 - self._tokens) / PLAY_RATE))

    async def connect(self, since: int | None = None) -> dict[str, Any]:
        """Open the connection, say hello, return the snapshot."""
        self._ws = await websockets.connect(self.ws_url, max_size=2**24)
        self._snapshotted = False
        hello: dict[str, Any] = {"type": "hello", "protocol": 1, "lang": self.lang}
        if self.token is not None:
            hello["token"] = self.token
        hello["since"] = self.event_count if since is None else since
        await self.send(hello)
        while True:
            msg = await self.recv()
            if msg["type"] in ("snapshot", "error"):
                return msg

    async def send(self, msg: dict[str, Any]) -> None:
        """Send one message."""
        await self._ws.send(json.dumps(msg))

    async def send_raw(self, data: str | bytes) -> None:
        """Send anything (hostile-client tests)."""
        await self._ws.send(data)

    async def recv(self, timeout: float = 60.0) -> dict[str, Any]:
        """The next message (kept and folded into this client's state)."""
        raw = await asyncio.wait_for(self._ws.recv(), timeout)
        # orjson: the load benchmark's clients share the server's cores (docs/deploy.md, Load).
        msg: dict[str, Any] = orjson.loads(raw)
        self.received.append(msg)
        if self.strict:
            self._check(msg)
        first = msg["event_count"] - len(msg["events"]) if msg["type"] == "update" else None
        if first is not None and first != self.event_count:
            # Out of step with what this client holds (it missed an update, or this one came
            # late): ask for the state again, as the protocol says, and keep nothing of it.
            # One request is enough for every update already on its way before the snapshot
            # (one per update could spend the connection's message budget and be refused);
            # an unanswered one is asked again after SYNC_RETRY seconds.
            now = time.perf_counter()
            if self._sync_sent_at is None or now - self._sync_sent_at > SYNC_RETRY:
                self._sync_sent_at = now
                await self.send({"type": "sync", "since": self.event_count})
            return msg
        self._fold(msg)
        return msg

    def _check(self, msg: dict[str, Any]) -> None:
        """Raise :class:`OutOfStep` if ``msg`` breaks the order the protocol promises."""
        kind = msg["type"]
        if not self._snapshotted and kind not in ("snapshot", "error"):
            raise OutOfStep(f"a {kind!r} message came before the connection's snapshot: {msg}")
        if kind == "update":
            first = msg["event_count"] - len(msg["events"])
            if first != self.event_count:
                raise OutOfStep(
                    f"an update of version {msg['version']} starts at event {first}, "
                    f"but this connection holds {self.event_count} events"
                )
        elif kind == "snapshot":
            first = msg["event_count"] - len(msg["events"])
            if first > len(self.events):
                raise OutOfStep(
                    f"a snapshot starts at event {first}, but this client holds "
                    f"{len(self.events)} events: the ones between are missing"
                )
            ids = [line["id"] for line in msg["chat"]]
            if len(set(ids)) != len(ids):
                raise OutOfStep(f"a snapshot's chat holds a line twice: {ids}")
        elif kind == "chat" and any(line["id"] == msg["id"] for line in self.chat):
            raise OutOfStep(f"the chat line {msg['id']} came twice")

    def _fold(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "snapshot":
            self._sync_sent_at = None
            self._snapshotted = True
            self.chat = list(msg["chat"])
            self.hints_used = list(msg.get("hints_used", []))
            self.timeouts = list(msg.get("timeouts", []))
            self.seat = msg["you"]["seat"]
            if msg["events"] and msg["events"][0]["n"] != len(self.events):
                self.events = self.events[: msg["events"][0]["n"]]
            self.events.extend(msg["events"])
        elif kind == "update":
            self.events.extend(msg["events"])
            ack = msg.get("ack")
            if ack in self._sent_at:
                self.latencies.append(time.perf_counter() - self._sent_at.pop(ack))
        elif kind == "chat":
            self.chat.append(msg)
        elif kind == "error":
            self.errors.append(msg)
            self._sent_at.pop(msg.get("ref") or "", None)
        elif kind == "game_over":
            self.result, self.scores = msg["result"], msg["scores"]
        elif kind == "hint_used":
            self.hints_used.append(msg)
        elif kind == "timed_out":
            self.timeouts.append(msg)
        if kind in ("snapshot", "update", "table") and "deadline" in msg:
            self.deadline = msg["deadline"]
        if kind in ("snapshot", "update"):
            self.version = msg["version"]
            self.event_count = msg["event_count"]
            self.view = msg["view"]
            self.legal = msg["legal"]
            if msg.get("result") is not None:
                self.result, self.scores = msg["result"], msg["scores"]

    def whole_view(self) -> dict[str, Any] | None:
        """The seat's view with its whole log, as ``Game.view(seat)`` gives it: the last view
        and every event received (their index and text left out). A search bot samples from
        it alone (``InformationSet.from_view``, with the table's ``options``)."""
        if self.view is None:
            return None
        log = [{k: v for k, v in ev.items() if k not in ("n", "text")} for ev in self.events]
        return {**self.view, "log": log}

    async def act(self, action: dict[str, Any], version: int | None = None) -> str:
        """Send an action on the current (or given) version; returns the message id."""
        self._n += 1
        ref = f"a{self._n}"
        self._sent_at[ref] = time.perf_counter()
        await self.send(
            {
                "type": "act",
                "action": action,
                "version": self.version if version is None else version,
                "id": ref,
            }
        )
        return ref

    async def hint(self, version: int | None = None) -> str:
        """Ask for a hint on the current (or given) version; returns the message id (the
        answer is a ``hint`` message with it as ``ref``, or an error)."""
        self._n += 1
        ref = f"h{self._n}"
        await self.send(
            {"type": "hint", "version": self.version if version is None else version, "id": ref}
        )
        return ref

    async def play(self, until_over: bool = True, timeout: float = 600.0) -> None:
        """Play the legal actions this client is offered until the game is over, at most
        ``PLAY_RATE`` actions a second (the server refuses a faster client's frames)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        acted_on = -1
        while self.result is None:
            if self.legal and self.version != acted_on and self.view is not None:
                acted_on = self.version
                await self.pace()
                await self.act(self.choose(self.legal, self.view))
            left = end - loop.time()
            if left <= 0:
                raise TimeoutError("the game did not end in time")
            msg = await self.recv(timeout=left)
            if msg["type"] == "error" and msg["code"] == "rate_limited":
                await asyncio.sleep(0.2)
                acted_on = -1

    async def close(self) -> None:
        """Close the connection."""
        if self._ws is not None:
            await self._ws.close()
            self._ws = None
