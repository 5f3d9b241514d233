"""Per-client limits on HTTP requests and WebSocket sockets (docs/protocol.md, "Limits").

:class:`Guard` is an ASGI middleware in front of every route. Each client address has one
token bucket per kind of request (:class:`Limits`): every request takes a token from
``requests``; one that names a table code (``/api/tables/{code}…``, ``/ws/{code}``, where an
invite code could be guessed) also from ``tables``; ``POST /api/tables`` from ``create``. A
request finds every bucket it needs with a token, or it takes none and is refused: HTTP
with ``429 rate_limited``, a ``Retry-After`` header and the protocol's JSON error; a
WebSocket with an ``error`` message and the close code ``4429``. A client address holds at
most ``Limits.sockets`` open WebSockets; one more gets ``too_many_connections`` and ``4430``.

A client address is the peer's IP address (as uvicorn reports it: behind a trusted proxy,
the forwarded one), an IPv6 address counted by its /64 network (one subscriber's). The
buckets and counts live in this process: with several processes behind a load balancer a
client may get up to that many times the rates (docs/deploy.md).

Nothing here awaits between reading a bucket and taking from it, so two requests of one
address cannot both take its last token.
"""

from __future__ import annotations

import ipaddress
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from citadels.server.errors import ServerError

#: The close code of a WebSocket refused because its address has too many open.
SOCKETS_CLOSE = 4430
#: The close code of a WebSocket refused by the request rate (as for a flooding client).
RATE_CLOSE = 4429


@dataclass(frozen=True)
class Rate:
    """A token bucket's refill rate (tokens per second) and size (the burst it allows)."""

    per_second: float
    burst: float


@dataclass(frozen=True)
class Limits:
    """The server's per-client limits. ``throttle=False`` turns off those per address (the
    buckets and the socket cap), for a test suite or a benchmark whose clients all share one
    address; ``spectators`` (per table) stays."""

    throttle: bool = True
    #: Every HTTP request and WebSocket opening (pages, files, the API).
    requests: Rate = Rate(30.0, 300.0)
    #: Requests that name a table code: the API's ``/api/tables/{code}…`` and ``/ws/{code}``.
    tables: Rate = Rate(2.0, 30.0)
    #: ``POST /api/tables``: six tables a minute, ten at once.
    create: Rate = Rate(0.1, 10.0)
    #: Open WebSockets per client address.
    sockets: int = 16
    #: Spectators' connections per table, in one process (players' own are not counted).
    spectators: int = 100

    def describe(self) -> dict[str, Any]:
        """The limits as ``GET /api/info`` shows them."""
        out: dict[str, Any] = {"spectators": self.spectators}
        if self.throttle:
            for name in ("requests", "tables", "create"):
                rate: Rate = getattr(self, name)
                out[name] = {"per_second": rate.per_second, "burst": rate.burst}
            out["sockets"] = self.sockets
        return out


def client_key(scope: Scope) -> str:
    """The address a request's limits are counted for (IPv6: its /64 network)."""
    client = scope.get("client")
    host = str(client[0]) if client else ""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


#: Buckets kept before the full ones (the same as none) are swept away.
SWEEP_AT = 4096
#: Buckets kept at most; past it the longest unused are forgotten.
BUCKETS_MAX = 200_000


@dataclass
class Buckets:
    """Token buckets by (limit name, client address); ``clock`` for tests."""

    clock: Callable[[], float] = time.monotonic
    _state: dict[tuple[str, str], list[float]] = field(default_factory=dict)
    _sweep_at: int = SWEEP_AT

    def take(self, key: str, rates: list[tuple[str, Rate]]) -> float | None:
        """Take a token from each named bucket of ``key``: ``None`` if every one had it, else
        (taking none) the seconds until each has one again."""
        now = self.clock()
        states = []
        wait = 0.0
        for name, rate in rates:
            state = self._state.get((name, key))
            if state is None:
                state = [rate.burst, now]
            else:
                state = [min(rate.burst, state[0] + (now - state[1]) * rate.per_second), now]
            if state[0] < 1.0:
                wait = max(wait, (1.0 - state[0]) / rate.per_second)
            states.append(((name, key), state))
        if wait > 0:
            return wait
        for k, state in states:
            state[0] -= 1.0
            self._state[k] = state
        if len(self._state) >= self._sweep_at:
            self._sweep(now, dict(rates))
        return None

    def _sweep(self, now: float, rates: dict[str, Rate]) -> None:
        """Forget the buckets that are full again (a full bucket is the same as none)."""
        for k, (tokens, last) in list(self._state.items()):
            rate = rates.get(k[0])
            if rate is not None and tokens + (now - last) * rate.per_second >= rate.burst:
                del self._state[k]
        if len(self._state) > BUCKETS_MAX:
            oldest = sorted(self._state.items(), key=lambda kv: kv[1][1])
            for k, _state in oldest[: len(self._state) - BUCKETS_MAX // 2]:
                del self._state[k]
        self._sweep_at = max(SWEEP_AT, 2 * len(self._state))

    def __len__(self) -> int:
        return len(self._state)


def _names_table(path: str) -> bool:
    """Whether a request's path names a table code (so that it could guess one)."""
    if path.startswith("/ws/"):
        return True
    return path.startswith("/api/tables/") and len(path) > len("/api/tables/")


def _error_body(code: str, message: str) -> bytes:
    return json.dumps({"error": {"code": code, "message": message}}).encode()


class Guard:
    """The ASGI middleware that keeps :class:`Limits` for every HTTP request and WebSocket."""

    def __init__(self, app: ASGIApp, limits: Limits, clock: Callable[[], float] = time.monotonic):
        self.app = app
        self.limits = limits
        self.buckets = Buckets(clock)
        #: Open WebSockets by client address.
        self.sockets: dict[str, int] = {}

    def _rates(self, scope: Scope) -> list[tuple[str, Rate]]:
        lim = self.limits
        rates = [("requests", lim.requests)]
        path = str(scope.get("path", ""))
        if _names_table(path):
            rates.append(("tables", lim.tables))
        elif (
            scope["type"] == "http"
            and scope.get("method") == "POST"
            and path
            in (
                "/api/tables",
                "/api/tables/",
            )
        ):
            rates.append(("create", lim.create))
        return rates

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or not self.limits.throttle:
            await self.app(scope, receive, send)
            return
        key = client_key(scope)
        wait = self.buckets.take(key, self._rates(scope))
        if wait is not None:
            retry = max(1, math.ceil(wait))
            message = f"too many requests from this address; try again in {retry} s"
            if scope["type"] == "http":
                await _refuse_http(send, retry, message)
            else:
                await _refuse_socket(
                    receive, send, ServerError("rate_limited", message), RATE_CLOSE
                )
            return
        if scope["type"] == "http":
            await self.app(scope, receive, send)
            return
        if self.sockets.get(key, 0) >= self.limits.sockets:
            await _refuse_socket(
                receive,
                send,
                ServerError(
                    "too_many_connections",
                    f"at most {self.limits.sockets} open connections per address",
                ),
                SOCKETS_CLOSE,
            )
            return
        self.sockets[key] = self.sockets.get(key, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:
            left = self.sockets[key] - 1
            if left:
                self.sockets[key] = left
            else:
                del self.sockets[key]


async def _refuse_http(send: Send, retry: int, message: str) -> None:
    body = _error_body("rate_limited", message)
    await send(
        {
            "type": "http.response.start",
            "status": 429,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", str(retry).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def _refuse_socket(receive: Receive, send: Send, exc: ServerError, close: int) -> None:
    """Open the WebSocket only to say why it closes: an ``error`` message, then ``close``."""
    from citadels.server import texts  # the catalogs load only when a refusal is worded

    msg = await receive()
    if msg["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    error = {
        "type": "error", **exc.to_json(), "ref": None, "version": None,
        "text": texts.error_text(exc.code, None, "en"),
    }  # fmt: skip
    await send({"type": "websocket.send", "text": json.dumps(error)})
    await send({"type": "websocket.close", "code": close})
