"""The ASGI application: the HTTP API, the WebSocket endpoint and the browser client's files.

See ``docs/protocol.md`` for the protocol. :func:`create_app` builds the app from a
:class:`ServerConfig`; ``citadels serve`` runs it on uvicorn.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from citadels.editions import EDITIONS
from citadels.server import texts
from citadels.server.botpool import BOT_LEVELS, BotPool
from citadels.server.bus import Bus, RedisBus
from citadels.server.hub import (
    PROTOCOL,
    TIMER_DEFAULT,
    TIMER_MAX,
    TIMER_MIN,
    Conn,
    Hub,
    LiveTable,
    ServerError,
)
from citadels.server.storage import Store
from citadels.server.text_input import CHAT_MAX, NAME_MAX

log = logging.getLogger("citadels.server")

#: The largest WebSocket message a client may send (bytes).
MESSAGE_MAX = 8192
#: Messages per second a connection may send, and the burst it may save up.
RATE, BURST = 30.0, 60.0
#: Refused messages after which a flooding connection is closed.
FLOOD_CLOSE = 100
#: Malformed messages in a row after which a connection is closed.
MALFORMED_CLOSE = 20
#: Messages waiting for a slow client before it is dropped.
OUTBOX_MAX = 2000
#: Seconds to say hello.
HELLO_TIMEOUT = 30.0

WEB_DIR = Path(__file__).resolve().parent.parent / "web"


def default_db_url() -> str:
    """The SQLite file used when no ``--db`` is given: ``./citadels.sqlite3``."""
    return "sqlite:///" + str(Path("citadels.sqlite3").resolve())


@dataclass
class ServerConfig:
    """How a server process runs."""

    db: str = field(default_factory=default_db_url)
    redis: str | None = None
    channel: str = "citadels:tables"
    bot_workers: int = 2
    bot_pool: str = "process"  # or "thread"
    grace: float = 5.0
    bot_delay: float = 0.0
    web_dir: Path = WEB_DIR


class _Bucket:
    """A token bucket: ``RATE`` messages per second, ``BURST`` at most."""

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


def _error(exc: ServerError) -> JSONResponse:
    return JSONResponse(
        {"error": {"code": exc.code, "message": exc.message}}, status_code=exc.status
    )


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > 65536:
        raise ServerError("bad_request", "the request body is too large", 413)
    if not raw:
        return {}
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ServerError("bad_request", "the body is not JSON") from None
    if not isinstance(body, dict):
        raise ServerError("bad_request", "the body must be a JSON object")
    return body


def _token(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return None


def _not_installed() -> HTMLResponse:
    return HTMLResponse(
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<title>Citadels: client not installed</title></head><body>"
        "<h1>The browser client is not installed</h1>"
        "<p>This Citadels server runs, but the files of its browser client "
        "(<code>src/citadels/web/</code>) are missing. Install the package with its client "
        "(<code>make run</code> in a full checkout), or play through the API described in "
        "<code>docs/protocol.md</code>.</p></body></html>",
        status_code=503,
    )


def create_app(config: ServerConfig | None = None) -> Starlette:
    """The Citadels server as an ASGI app."""
    cfg = config or ServerConfig()
    state: dict[str, Any] = {}

    def hub() -> Hub:
        h: Hub = state["hub"]
        return h

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        store = Store(cfg.db)
        await asyncio.to_thread(store.migrate)
        bus: Bus = RedisBus(cfg.redis, cfg.channel) if cfg.redis else Bus()
        pool = BotPool(cfg.bot_workers, kind=cfg.bot_pool)
        # Start the bot workers in the background: the first search waits for them, nobody else.
        warming = asyncio.get_running_loop().run_in_executor(None, pool.warm_up)
        h = Hub(store, bus, pool, grace=cfg.grace, bot_delay=cfg.bot_delay)
        state["hub"] = h
        await h.start()
        try:
            yield
        finally:
            with contextlib.suppress(Exception):
                await warming
            await h.close()
            pool.close()
            store.close()

    # --- HTTP -------------------------------------------------------------------------------

    async def info(request: Request) -> Response:
        lang = texts.language(request.query_params.get("lang", "en")) or "en"
        editions = []
        for ed in EDITIONS.values():
            editions.append(
                {
                    "id": ed.id,
                    "title": texts.edition_title(ed.id, lang),
                    "min_players": ed.min_players,
                    "max_players": ed.max_players,
                    "city_size": ed.city_size,
                    "city_size_options": list(ed.city_size_options),
                    "presets": sorted(ed.presets),
                    "preset_titles": texts.preset_titles(ed.id, lang),
                    "characters": list(ed.characters),
                    "purple_pool": list(getattr(ed, "purple_pool", ()) or ()),
                    "custom": "characters" in ed.options,
                }
            )
        return JSONResponse(
            {
                "protocol": PROTOCOL,
                "lang": lang,
                "languages": texts.LANGUAGES,
                "editions": editions,
                "bot_levels": BOT_LEVELS,
                "timer": {"min": TIMER_MIN, "max": TIMER_MAX, "default": TIMER_DEFAULT},
                "limits": {"name": NAME_MAX, "chat": CHAT_MAX, "message_bytes": MESSAGE_MAX},
            }
        )

    async def cards(request: Request) -> Response:
        edition = request.path_params["edition"]
        lang = request.query_params.get("lang", "en")
        if edition not in EDITIONS:
            return _error(ServerError("not_found", "no such edition", 404))
        if not (1 <= len(lang) <= 16 and lang.replace("-", "").replace("_", "").isalnum()):
            return _error(ServerError("bad_request", "lang must be a language code"))
        return JSONResponse(texts.card_catalog(edition, lang))

    instance = os.environ.get("CITADELS_INSTANCE")

    async def healthz(_request: Request) -> Response:
        body: dict[str, Any] = {"ok": True, "protocol": PROTOCOL}
        if instance:  # which process answered, behind a load balancer
            body["instance"] = instance
        return JSONResponse(body)

    async def tables(request: Request) -> Response:
        try:
            if request.method == "POST":
                out = await hub().create(await _body(request))
                return JSONResponse(out, status_code=201)
            status = request.query_params.get("status", "open")
            return JSONResponse({"tables": await hub().lobby(status)})
        except ServerError as exc:
            return _error(exc)

    async def table(request: Request) -> Response:
        try:
            return JSONResponse(await hub().info(request.path_params["code"]))
        except ServerError as exc:
            return _error(exc)

    async def join(request: Request) -> Response:
        try:
            return JSONResponse(await hub().join(request.path_params["code"], await _body(request)))
        except ServerError as exc:
            return _error(exc)

    async def start(request: Request) -> Response:
        try:
            return JSONResponse(
                await hub().start_game(request.path_params["code"], _token(request))
            )
        except ServerError as exc:
            return _error(exc)

    async def seat_bot(request: Request) -> Response:
        try:
            out = await hub().set_bot(
                request.path_params["code"],
                request.path_params["seat"],
                _token(request),
                await _body(request),
            )
            return JSONResponse(out)
        except ServerError as exc:
            return _error(exc)

    async def replay(request: Request) -> Response:
        q = request.query_params
        try:
            try:
                start_at = int(q.get("from", "0"))
                count = int(q.get("count", "500"))
            except ValueError:
                raise ServerError("bad_request", "from and count must be integers") from None
            lang = texts.language(q.get("lang", "en")) or "en"
            out = await hub().replay(request.path_params["code"], start_at, count, lang)
            return JSONResponse(out)
        except ServerError as exc:
            return _error(exc)

    # --- pages and the client's files ---------------------------------------------------------

    web = cfg.web_dir.resolve()

    async def page(_request: Request) -> Response:
        index = web / "index.html"
        if not index.is_file():
            return _not_installed()
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    async def asset(request: Request) -> Response:
        rel = request.path_params["path"]
        if not (web / "index.html").is_file():
            return _not_installed()
        target = (web / rel).resolve()
        if web not in target.parents or not target.is_file():
            return JSONResponse(
                {"error": {"code": "not_found", "message": "no such file"}}, status_code=404
            )
        return FileResponse(target)

    # --- the WebSocket ----------------------------------------------------------------------

    async def ws_endpoint(ws: WebSocket) -> None:
        await ws.accept()
        outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        closed = asyncio.Event()

        async def writer() -> None:
            try:
                while True:
                    msg = await outbox.get()
                    if msg is None:
                        return
                    await ws.send_text(json.dumps(msg, separators=(",", ":")))
            except Exception:
                closed.set()

        writer_task = asyncio.create_task(writer())

        async def send(msg: dict[str, Any]) -> None:
            if closed.is_set():
                return
            if outbox.qsize() > OUTBOX_MAX:
                closed.set()
                return
            outbox.put_nowait(msg)

        async def close(code: int) -> None:
            closed.set()
            outbox.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer_task, 5)
            if ws.application_state != WebSocketState.DISCONNECTED:
                with contextlib.suppress(Exception):
                    await ws.close(code)

        async def error(exc: ServerError, ref: Any = None, t: LiveTable | None = None) -> None:
            msg: dict[str, Any] = {"type": "error", **exc.to_json()}
            # The same error in words, in the connection's language (issue 11).
            msg["text"] = texts.error_text(exc.code, exc.rule, conn.lang if conn else "en")
            msg["ref"] = ref if isinstance(ref, str) and len(ref) <= 64 else None
            msg["version"] = t.version if t is not None else None
            await send(msg)

        t: LiveTable | None = None
        conn: Conn | None = None
        try:
            try:
                t = await hub().by_code(ws.path_params["code"])
            except ServerError as exc:
                await error(exc)
                await close(4404)
                return
            bucket = _Bucket()
            refused = 0
            malformed = 0
            deadline = time.monotonic() + HELLO_TIMEOUT
            while True:
                timeout = deadline - time.monotonic() if conn is None else None
                if timeout is not None and timeout <= 0:
                    await error(ServerError("hello_required", "say hello first"), None, t)
                    await close(4408)
                    return
                try:
                    raw = await asyncio.wait_for(ws.receive(), timeout)
                except TimeoutError:
                    continue
                if raw["type"] == "websocket.disconnect":
                    return
                text = raw.get("text")
                if text is None:
                    data = raw.get("bytes") or b""
                    if len(data) > MESSAGE_MAX:
                        await error(ServerError("too_large", "the message is too large"), None, t)
                        await close(1009)
                        return
                    await error(ServerError("malformed", "send text frames with JSON"), None, t)
                    malformed += 1
                    if malformed >= MALFORMED_CLOSE:
                        await close(1003)
                        return
                    continue
                if len(text) > MESSAGE_MAX or len(text.encode()) > MESSAGE_MAX:
                    await error(
                        ServerError("too_large", f"messages are at most {MESSAGE_MAX} bytes"),
                        None,
                        t,
                    )
                    await close(1009)
                    return
                try:
                    msg = json.loads(text)
                    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
                        raise ValueError
                except ValueError:
                    malformed += 1
                    await error(
                        ServerError("malformed", "a message is a JSON object with a type"),
                        None,
                        t,
                    )
                    if malformed >= MALFORMED_CLOSE:
                        await close(1003)
                        return
                    continue
                ref = msg.get("id")
                kind = msg["type"]
                if not bucket.take():
                    refused += 1
                    await error(ServerError("rate_limited", "too many messages; slow down"), ref, t)
                    if refused >= FLOOD_CLOSE:
                        await close(4429)
                        return
                    continue
                try:
                    if conn is None:
                        if kind != "hello":
                            raise ServerError("hello_required", "say hello first")
                        protocol = msg.get("protocol", PROTOCOL)
                        if protocol != PROTOCOL:
                            await error(
                                ServerError(
                                    "unsupported_protocol",
                                    f"this server speaks protocol {PROTOCOL}",
                                ),
                                ref,
                                t,
                            )
                            await close(4400)
                            return
                        token = msg.get("token")
                        seat = None
                        if token is not None:
                            seat = hub().seat_of(t, token)
                            if seat is None:
                                await hub().refresh_row(t)
                                seat = hub().seat_of(t, token)
                            if seat is None:
                                await error(
                                    ServerError(
                                        "unauthorized", "this token opens no seat at this table"
                                    ),
                                    ref,
                                    t,
                                )
                                await close(4401)
                                return
                        since = msg.get("since", 0)
                        lang = msg.get("lang", "en")
                        if type(since) is not int or since < 0:
                            raise ServerError("malformed", "since must be a whole number")
                        if not isinstance(lang, str) or not 1 <= len(lang) <= 35:
                            raise ServerError("malformed", "lang must be a language code")
                        # A browser's language the game does not speak: English.
                        conn = Conn(seat=seat, lang=texts.language(lang) or "en", send=send)
                        await hub().connect(t, conn, since)
                    elif kind == "act":
                        if set(msg) - {"type", "action", "version", "id"}:
                            raise ServerError("malformed", "act takes action, version and id")
                        if conn.seat is not None:
                            await hub().returned(t, conn.seat)
                        await hub().act(
                            t, conn.seat, msg.get("action"), msg.get("version"), conn,
                            ref if isinstance(ref, str) and len(ref) <= 64 else None,
                        )  # fmt: skip
                    elif kind == "chat":
                        if conn.seat is not None:
                            await hub().returned(t, conn.seat)
                        await hub().chat(t, conn, msg.get("text"))
                    elif kind == "sync":
                        since = msg.get("since", 0)
                        if type(since) is not int or since < 0:
                            raise ServerError("malformed", "since must be a whole number")
                        await hub().send_snapshot(t, conn, since)
                    elif kind == "lang":
                        if set(msg) - {"type", "lang", "id"}:
                            raise ServerError("malformed", "lang takes lang and id")
                        chosen = texts.language(msg.get("lang"))
                        if chosen is None:
                            raise ServerError(
                                "unsupported_language",
                                "lang must be one of " + ", ".join(texts.LANGUAGES),
                            )
                        conn.lang = chosen
                        await hub().send_snapshot(t, conn, 0)
                    elif kind == "ping":
                        await send({"type": "pong"})
                    elif kind == "hello":
                        raise ServerError("malformed", "hello was already said")
                    else:
                        raise ServerError("malformed", f"unknown message type {kind[:32]!r}")
                    malformed = 0
                except ServerError as exc:
                    if exc.code == "malformed":
                        malformed += 1
                    await error(exc, ref, t)
                    if malformed >= MALFORMED_CLOSE:
                        await close(1003)
                        return
        except WebSocketDisconnect:
            pass
        except Exception:
            log.exception("websocket failed")
            with contextlib.suppress(Exception):
                await error(ServerError("internal", "the server failed"), None, t)
        finally:
            if t is not None and conn is not None:
                await hub().disconnect(t, conn)
            closed.set()
            outbox.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer_task, 2)

    routes = [
        Route("/healthz", healthz),
        Route("/api/info", info),
        Route("/api/cards/{edition}", cards),
        Route("/api/tables", tables, methods=["GET", "POST"]),
        Route("/api/tables/{code}", table),
        Route("/api/tables/{code}/join", join, methods=["POST"]),
        Route("/api/tables/{code}/start", start, methods=["POST"]),
        Route("/api/tables/{code}/seats/{seat:int}/bot", seat_bot, methods=["POST"]),
        Route("/api/tables/{code}/replay", replay),
        WebSocketRoute("/ws/{code}", ws_endpoint),
        Route("/", page),
        Route("/t/{code}", page),
        Route("/replay/{code}", page),
        Route("/static/{path:path}", asset),
        Route("/{path:path}", asset),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.config = cfg
    app.state.server = state
    return app
