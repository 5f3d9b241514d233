"""One WebSocket connection from accept to close (``GET /ws/{code}``, docs/protocol.md).

A session has two tasks: this one reads frames and dispatches them one at a time, and a
writer task sends what the connection's outbox holds, in order. Every inbound frame passes
through :meth:`Session._gate` (size, text, JSON read with a depth limit, rate) before
:meth:`Session._dispatch` checks the message against its schema (``server/schema.py``) and
hands the checked model to its handler; no handler sees a field its schema does not name.
A handler that fails (not a ``ServerError``) ends the session with ``internal`` and
``INTERNAL_CLOSE``. A session that ends leaves its table first (its seat stops
counting as connected), then closes the socket.

A client that does not read fills its outbox; the outbox then closes (``OUTBOX_MAX``), the
fan-out drops the connection, and this session wakes up, however long its client has been
silent, to leave the table and close the socket with ``OVERFLOW_CLOSE``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from starlette.types import Message
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from citadels.server import schema, texts
from citadels.server.connection import OVERFLOW_CLOSE, Connection, Outbox
from citadels.server.errors import ServerError
from citadels.server.hub import Hub
from citadels.server.messages import PROTOCOL, encode
from citadels.server.table import Table

log = logging.getLogger("citadels.server")

#: The largest WebSocket message a client may send (bytes).
MESSAGE_MAX = 8192
#: Messages per second a connection may send, and the burst it may save up.
RATE, BURST = 30.0, 60.0
#: Refused frames after which a flooding connection is closed.
FLOOD_CLOSE = 100
#: Malformed messages (in all, not only in a row) after which a connection is closed.
MALFORMED_CLOSE = 20
#: The close code of a spectator a full table does not take (docs/protocol.md).
SPECTATORS_CLOSE = 4431
#: The close code of a connection the server failed to serve (docs/protocol.md).
INTERNAL_CLOSE = 1011
#: Seconds to say hello.
HELLO_TIMEOUT = 30.0
#: Seconds the close of a connection whose client does not read waits for the socket.
CLOSE_WAIT = 10.0


class _Bucket:
    """A token bucket: ``RATE`` frames per second, ``BURST`` at most (read when it is used,
    so that a test may change them)."""

    def __init__(self) -> None:
        self.tokens = BURST
        self.last = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.last) * RATE)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class _Close(Exception):
    """End the session, closing the socket with ``code`` after what is queued is sent
    (``flush=False``: without waiting for it, which is dropped)."""

    def __init__(self, code: int, *, flush: bool = True) -> None:
        super().__init__(code)
        self.code = code
        self.flush = flush


def _ref(value: Any) -> str | None:
    """A message's ``id`` as it may be echoed back: a string of at most 64 characters."""
    return value if isinstance(value, str) and len(value) <= 64 else None


class Session:
    """One WebSocket connection to one table."""

    def __init__(self, ws: WebSocket, hub: Hub) -> None:
        self.ws = ws
        self.hub = hub
        self.outbox = Outbox(self._overflowed)
        self.table: Table | None = None
        self.conn: Connection | None = None
        self._bucket = _Bucket()
        self._refused = 0
        self._malformed = 0
        self._writer: asyncio.Task[None] | None = None
        self._receiving: asyncio.Future[Message] | None = None
        #: Done (with a close code) when the session must end whatever its client sends.
        self._stop: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._left = False
        #: Hints being searched for this connection (``_hint``).
        self._hints: set[asyncio.Task[None]] = set()

    async def run(self) -> None:
        """Serve the connection until it closes."""
        await self.ws.accept()
        self._writer = asyncio.create_task(self._write())
        try:
            try:
                self.table = await self.hub.by_code(self.ws.path_params["code"])
            except ServerError as exc:
                self._error(exc)
                raise _Close(4404) from None
            await self._read()
        except _Close as close:
            await self._leave()
            await self._close(close.code, flush=close.flush)
        except WebSocketDisconnect:
            pass
        except Exception:
            log.exception("websocket failed")
            # Told, and closed with a code: never a socket dropped without one.
            with contextlib.suppress(Exception):
                self._error(ServerError("internal", "the server failed"))
                await self._leave()
                await self._close(INTERNAL_CLOSE)
        finally:
            if self._receiving is not None:
                self._receiving.cancel()
            for task in list(self._hints):
                task.cancel()
            await self._leave()
            self.outbox.close()
            await self._writer_done(2)

    async def _leave(self) -> None:
        """Leave the table (once): the seat stops counting this connection."""
        if self.table is not None and self.conn is not None and not self._left:
            self._left = True
            await self.hub.disconnect(self.table, self.conn)

    # --- sending ----------------------------------------------------------------------------

    async def _write(self) -> None:
        """The writer task: the outbox's messages to the socket, in order."""
        try:
            while True:
                msg = await self.outbox.next()
                if msg is None:
                    return
                # Text already encoded (by the fan-out, once for every connection of a
                # viewer class) goes as it is.
                await self.ws.send_text(msg if isinstance(msg, str) else encode(msg))
        except Exception:
            self.outbox.close()

    def _error(self, exc: ServerError, ref: Any = None) -> None:
        msg: dict[str, Any] = {"type": "error", **exc.to_json()}
        # The same error in words, in the connection's language (issue 11).
        msg["text"] = texts.error_text(exc.code, exc.rule, self.conn.lang if self.conn else "en")
        msg["ref"] = _ref(ref)
        msg["version"] = self.table.version if self.table is not None else None
        self.outbox.push(msg)

    async def _writer_done(self, timeout: float) -> None:
        """Wait for the writer task to end (it is cancelled after ``timeout`` seconds)."""
        if self._writer is None:
            return
        await asyncio.wait((self._writer,), timeout=timeout)
        self._writer.cancel()

    def _overflowed(self) -> None:
        """The outbox overflowed (called by it, so never yields): end the session."""
        if not self._stop.done():
            self._stop.set_result(OVERFLOW_CLOSE)
        if self._writer is not None:
            # It waits for a socket that is not read. uvicorn writes a frame to its transport
            # in one step, so a send cancelled while it waits wrote all of it or none.
            self._writer.cancel()

    async def _close(self, code: int, *, flush: bool = True) -> None:
        """Send what is queued (unless not ``flush``), then close the socket with ``code``.
        The close frame follows what the socket already holds; a client that never reads
        again does not hold the session longer than ``CLOSE_WAIT``."""
        self.outbox.close()
        if self._writer is not None and not flush:
            self._writer.cancel()
        await self._writer_done(5)
        if self.ws.application_state != WebSocketState.DISCONNECTED:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(code), CLOSE_WAIT)

    # --- reading ----------------------------------------------------------------------------

    async def _read(self) -> None:
        deadline = time.monotonic() + HELLO_TIMEOUT
        while True:
            timeout = deadline - time.monotonic() if self.conn is None else None
            if timeout is not None and timeout <= 0:
                self._error(ServerError("hello_required", "say hello first"))
                raise _Close(4408)
            try:
                raw = await self._receive(timeout)
            except TimeoutError:
                continue
            if raw is None:
                raise _Close(self._stop.result(), flush=False)
            if raw["type"] == "websocket.disconnect":
                return
            msg = self._gate(raw)
            if msg is not None:
                await self._dispatch(msg)

    async def _receive(self, timeout: float | None) -> Message | None:
        """The next frame, or ``None`` once the session must end (its outbox overflowed);
        ``TimeoutError`` after ``timeout`` seconds (the frame is still awaited next time)."""
        if self._receiving is None:
            self._receiving = asyncio.ensure_future(self.ws.receive())
        done, _ = await asyncio.wait(
            (self._receiving, self._stop), timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if self._stop.done():
            return None
        if self._receiving not in done:
            raise TimeoutError
        frame, self._receiving = self._receiving, None
        return frame.result()

    def _malformed_once(self) -> None:
        """One more malformed message; the ``MALFORMED_CLOSE``-th of the connection closes it.
        The count is never reset (a client that sends valid messages between bad ones is still
        sending bad ones)."""
        self._malformed += 1
        if self._malformed >= MALFORMED_CLOSE:
            raise _Close(1003)

    def _gate(self, raw: Message) -> dict[str, Any] | None:
        """Every inbound frame passes here: the message to dispatch, or ``None`` when it was
        refused (with an error sent); raises ``_Close`` when the connection must end.

        Every frame takes a token from the rate bucket before anything else is done with it,
        whatever it holds (text, bytes, garbage, a ping): what a client sends is counted,
        not only what parses. A frame the bucket refuses counts towards ``FLOOD_CLOSE``."""
        if not self._bucket.take():
            self._refused += 1
            self._error(ServerError("rate_limited", "too many messages; slow down"))
            if self._refused >= FLOOD_CLOSE:
                raise _Close(4429)
            return None
        text = raw.get("text")
        if text is None:
            data = raw.get("bytes") or b""
            if len(data) > MESSAGE_MAX:
                self._error(ServerError("too_large", "the message is too large"))
                raise _Close(1009)
            self._error(ServerError("malformed", "send text frames with JSON"))
            self._malformed_once()
            return None
        if len(text) > MESSAGE_MAX or len(text.encode()) > MESSAGE_MAX:
            self._error(ServerError("too_large", f"messages are at most {MESSAGE_MAX} bytes"))
            raise _Close(1009)
        try:
            msg = schema.load_json(text)
            if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
                raise ServerError("malformed", "a message is a JSON object with a type")
        except ServerError as exc:
            self._error(exc)
            self._malformed_once()
            return None
        return msg

    async def _dispatch(self, msg: dict[str, Any]) -> None:
        """Check one message against its schema and hand it to its handler; a
        ``ServerError`` is answered as an error."""
        ref = msg.get("id")
        try:
            if self.conn is None:
                if msg["type"] != "hello":
                    raise ServerError("hello_required", "say hello first")
                self._protocol(msg, ref)
                hello = schema.message(msg)
                assert isinstance(hello, schema.Hello)
                await self._hello(hello, ref)
            else:
                await self._handle(self.conn, schema.message(msg))
        except ServerError as exc:
            self._error(exc, ref)
            if exc.code == "malformed":
                self._malformed_once()

    async def _handle(self, c: Connection, m: schema.AnyMessage) -> None:
        """One checked message from a connection that said hello."""
        if isinstance(m, schema.Act):
            await self.hub.act(self._t, c, m.action, m.version, m.id)
        elif isinstance(m, schema.Chat):
            await self.hub.chat(self._t, c, m.text)
        elif isinstance(m, schema.Sync):
            await self.hub.resync(self._t, c, m.since)
        elif isinstance(m, schema.Lang):
            await self._lang(c, m)
        elif isinstance(m, schema.Ping):
            self.outbox.push({"type": "pong"})
        elif isinstance(m, schema.Hint):
            self._hint(c, m)
        else:
            raise ServerError("malformed", "hello was already said")

    @property
    def _t(self) -> Table:
        assert self.table is not None
        return self.table

    # --- the messages -----------------------------------------------------------------------

    def _protocol(self, msg: dict[str, Any], ref: Any) -> None:
        """A hello's protocol comes first (before its other fields, which another protocol
        may name otherwise): anything but the integer 1 (or none) is refused."""
        protocol = msg.get("protocol", PROTOCOL)
        if type(protocol) is not int or protocol != PROTOCOL:
            self._error(
                ServerError("unsupported_protocol", f"this server speaks protocol {PROTOCOL}"),
                ref,
            )
            raise _Close(4400)

    async def _hello(self, m: schema.Hello, ref: Any) -> None:
        t = self._t
        seat = None
        if m.token is not None:
            seat = await self.hub.seat_for(t, m.token)
            if seat is None:
                self._error(
                    ServerError("unauthorized", "this token opens no seat at this table"), ref
                )
                raise _Close(4401)
        # A browser's language the game does not speak: English.
        self.conn = Connection(seat=seat, lang=texts.language(m.lang) or "en", outbox=self.outbox)
        try:
            await self.hub.connect(t, self.conn, m.since)
        except ServerError as exc:
            if exc.code != "spectators_full":
                raise
            self.conn = None  # not admitted: nothing to leave
            self._error(exc, ref)
            raise _Close(SPECTATORS_CLOSE) from None

    def _hint(self, c: Connection, m: schema.Hint) -> None:
        """A hint is searched in the bot pool: its own task, so that this connection's other
        messages (a move, chat) are read meanwhile. Its answer, or its error, comes later."""
        task = asyncio.create_task(self._answer_hint(c, m))
        self._hints.add(task)
        task.add_done_callback(self._hints.discard)

    async def _answer_hint(self, c: Connection, m: schema.Hint) -> None:
        try:
            msg = await self.hub.hint(self._t, c, m.version)
        except ServerError as exc:
            self._error(exc, m.id)
            return
        except Exception:
            log.exception("a hint failed")
            self._error(ServerError("internal", "the hint failed"), m.id)
            return
        msg["ref"] = _ref(m.id)
        self.outbox.push(msg)

    async def _lang(self, c: Connection, m: schema.Lang) -> None:
        chosen = texts.language(m.lang)
        if chosen is None:
            raise ServerError(
                "unsupported_language", "lang must be one of " + ", ".join(texts.LANGUAGES)
            )
        await self.hub.resync(self._t, c, 0, lang=chosen)
