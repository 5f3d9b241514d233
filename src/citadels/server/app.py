"""The ASGI application: the HTTP API, the WebSocket endpoint and the browser client's files.

See ``docs/protocol.md`` for the protocol. :func:`create_app` builds the app from a
:class:`ServerConfig`; ``citadels serve`` runs it on uvicorn.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Match, Route, WebSocketRoute
from starlette.types import ASGIApp
from starlette.websockets import WebSocket

from citadels.editions import EDITIONS
from citadels.server import openapi, profiles, schema, texts
from citadels.server.accounts import (
    NAME_MAX as ACCOUNT_NAME_MAX,
)
from citadels.server.accounts import (
    NAME_MIN as ACCOUNT_NAME_MIN,
)
from citadels.server.accounts import (
    PASSWORD_MAX,
    PASSWORD_MIN,
    AccountConfig,
    Accounts,
    account_json,
)
from citadels.server.botpool import BOT_LEVELS, BotPool
from citadels.server.bus import HEARTBEAT, Bus, RedisBus
from citadels.server.clock import SYSTEM, Clock
from citadels.server.errors import ServerError
from citadels.server.headers import SecurityHeaders
from citadels.server.hub import Hub
from citadels.server.limits import Guard, Limits
from citadels.server.lobby import (
    PACE_DEFAULT,
    PACE_MAX,
    PACE_MIN,
    TIMER_DEFAULT,
    TIMER_MAX,
    TIMER_MIN,
    TURN_TIMER_DEFAULT,
    TURN_TIMER_MAX,
    TURN_TIMER_MIN,
)
from citadels.server.mail import EMAIL_MAX, MailConfig, clean_email
from citadels.server.measured import BotMeasures
from citadels.server.messages import PROTOCOL
from citadels.server.ratings import bot_ratings_json
from citadels.server.reviews import HINT_BUDGET, QUEUE_MAX, REVIEW_BUDGET, TABLE_MAX
from citadels.server.session import MESSAGE_MAX, Session
from citadels.server.storage import Store
from citadels.server.text_input import CHAT_MAX, NAME_MAX
from citadels.server.turns import ON_TIMEOUT

log = logging.getLogger("citadels.server")

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
    #: Seconds between two heartbeats of this process on the bus (with ``redis``).
    heartbeat: float = HEARTBEAT
    web_dir: Path = WEB_DIR
    #: Per-client limits (docs/protocol.md, "Limits"); ``Limits(throttle=False)`` turns off
    #: those per address.
    limits: Limits = field(default_factory=Limits)
    #: Search iterations per position of a review, and of a hint (docs/review.md, "Online";
    #: the environment's ``CITADELS_REVIEW_BUDGET`` and ``CITADELS_HINT_BUDGET`` by default).
    review_budget: int = field(
        default_factory=lambda: _env_int("CITADELS_REVIEW_BUDGET", REVIEW_BUDGET)
    )
    hint_budget: int = field(default_factory=lambda: _env_int("CITADELS_HINT_BUDGET", HINT_BUDGET))
    #: Reviews and hints this process takes at once (waiting or running), and per table.
    review_queue: int = QUEUE_MAX
    review_per_table: int = TABLE_MAX
    #: Accounts: the password hash's cost, the sign-in throttle, the cookies
    #: (docs/accounts.md).
    accounts: AccountConfig = field(default_factory=AccountConfig)
    #: The SMTP server of the "your turn" e-mails (docs/deploy.md; the environment's
    #: ``CITADELS_SMTP_*`` by default; no host: no e-mails).
    mail: MailConfig = field(default_factory=MailConfig.from_env)
    #: The clock deadlines are read from and waited on (a test's own, to run days at once).
    clock: Clock = SYSTEM


def _env_int(name: str, default: int) -> int:
    """A positive integer from the environment variable ``name``, else ``default``."""
    raw = os.environ.get(name, "")
    try:
        value = int(raw)
    except ValueError:
        return default
    return value if value > 0 else default


def _error(exc: ServerError) -> JSONResponse:
    headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after is not None else None
    return JSONResponse(
        {"error": {"code": exc.code, "message": exc.message}},
        status_code=exc.status,
        headers=headers,
    )


async def _body(request: Request, model: type[schema.Body]) -> dict[str, Any]:
    """The request's body checked against its schema (an empty body is ``{}``)."""
    raw = await request.body()
    if len(raw) > 65536:
        raise ServerError("bad_request", "the request body is too large", 413)
    return schema.body(schema.load_json(raw) if raw else {}, model)


def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own errors (no such route, a method the route does not take) as the
    protocol's JSON error."""
    assert isinstance(exc, HTTPException)
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "bad_request")
    return JSONResponse(
        {"error": {"code": code, "message": str(exc.detail)}},
        status_code=exc.status_code,
        headers=exc.headers,
    )


def _failed(request: Request, exc: Exception) -> Response:
    """A handler that failed: ``500 internal`` as JSON (the failure itself is logged)."""
    return JSONResponse(
        {"error": {"code": "internal", "message": "the server failed"}}, status_code=500
    )


#: The longest path of a client's file (longer ones are no file of it).
PATH_MAX = 1024


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


class _App(Starlette):
    """Starlette with the security headers outside everything, its error handler included
    (so that a ``500`` carries them too)."""

    def build_middleware_stack(self) -> ASGIApp:
        return SecurityHeaders(super().build_middleware_stack())


def create_app(config: ServerConfig | None = None) -> Starlette:
    """The Citadels server as an ASGI app."""
    cfg = config or ServerConfig()
    state: dict[str, Any] = {}

    def hub() -> Hub:
        h: Hub = state["hub"]
        return h

    def accounts() -> Accounts:
        a: Accounts = state["accounts"]
        return a

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        store = Store(cfg.db)
        await asyncio.to_thread(store.migrate)
        bus: Bus = RedisBus(cfg.redis, cfg.channel, cfg.heartbeat) if cfg.redis else Bus()
        pool = BotPool(cfg.bot_workers, kind=cfg.bot_pool)
        # Start the bot workers in the background: the first search waits for them, nobody else.
        warming = asyncio.get_running_loop().run_in_executor(None, pool.warm_up)
        h = Hub(
            store, bus, pool, grace=cfg.grace, bot_delay=cfg.bot_delay,
            spectators_max=cfg.limits.spectators,
            coach={"review_budget": cfg.review_budget, "hint_budget": cfg.hint_budget,
                   "queue_max": cfg.review_queue, "table_max": cfg.review_per_table},
            clock=cfg.clock, mail=cfg.mail,
        )  # fmt: skip
        state["hub"] = h
        state["accounts"] = await asyncio.to_thread(Accounts, store, cfg.accounts)
        state["measures"] = BotMeasures(store)
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
                "bot_ratings": bot_ratings_json(),
                "accounts": {
                    "name": {"min": ACCOUNT_NAME_MIN, "max": ACCOUNT_NAME_MAX},
                    "password": {"min": PASSWORD_MIN, "max": PASSWORD_MAX},
                },
                "timer": {"min": TIMER_MIN, "max": TIMER_MAX, "default": TIMER_DEFAULT},
                "turn_timer": {
                    "min": TURN_TIMER_MIN,
                    "max": TURN_TIMER_MAX,
                    "default": TURN_TIMER_DEFAULT,
                },
                "on_timeout": list(ON_TIMEOUT),
                "email": {"enabled": hub().mailer.enabled, "max": EMAIL_MAX},
                "review": hub().coach.describe(),
                "pace": {"min": PACE_MIN, "max": PACE_MAX, "default": PACE_DEFAULT},
                "limits": {
                    "name": NAME_MAX,
                    "chat": CHAT_MAX,
                    "message_bytes": MESSAGE_MAX,
                    **cfg.limits.describe(),
                },
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
                body = await _body(request, schema.CreateTable)
                session = await accounts().authorise(request)
                out = await hub().create(body, session.account_id if session else None)
                return JSONResponse(out, status_code=201)
            status = request.query_params.get("status", "open")
            return JSONResponse({"tables": await hub().listing(status)})
        except ServerError as exc:
            return _error(exc)

    async def table(request: Request) -> Response:
        try:
            return JSONResponse(await hub().info(request.path_params["code"]))
        except ServerError as exc:
            return _error(exc)

    async def join(request: Request) -> Response:
        try:
            body = await _body(request, schema.JoinTable)
            session = await accounts().authorise(request)
            return JSONResponse(
                await hub().join(
                    request.path_params["code"], body, session.account_id if session else None
                )
            )
        except ServerError as exc:
            return _error(exc)

    # --- accounts (docs/accounts.md) -----------------------------------------------------------

    async def _claimed(account_id: int, body: dict[str, Any]) -> list[dict[str, Any]]:
        seats = body.get("seats") or []
        return await profiles.claim(hub().store, hub().tables, account_id, seats)

    async def _signed_in(
        request: Request,
        account: int,
        name: str,
        body: dict[str, Any],
        status: int,
        password_hash: str | None = None,
    ) -> Response:
        """The answer to a sign-up or sign-in: a new session's cookie and CSRF token, and
        the guest seats the account claimed (once the session is made: a sign-in the
        session refuses claims nothing)."""
        token, csrf = await accounts().open_session(account, password_hash)
        claimed = await _claimed(account, body)
        response = JSONResponse(
            {"account": {"name": name}, "csrf": csrf, "claimed": claimed}, status_code=status
        )
        accounts().set_cookie(request, response, token)
        return response

    async def sign_up(request: Request) -> Response:
        try:
            body = await _body(request, schema.SignUp)
            account, name = await accounts().sign_up(request, body["name"], body["password"])
            return await _signed_in(request, account, name, body, 201)
        except ServerError as exc:
            return _error(exc)

    async def session(request: Request) -> Response:
        try:
            if request.method == "GET":
                return JSONResponse(account_json(await accounts().current(request)))
            if request.method == "DELETE":
                response = JSONResponse({"account": None, "csrf": None})
                await accounts().sign_out(request, response)
                return response
            body = await _body(request, schema.SignIn)
            row = await accounts().sign_in(request, body["name"], body["password"])
            return await _signed_in(request, row.id, row.name, body, 200, row.password_hash)
        except ServerError as exc:
            return _error(exc)

    async def claim(request: Request) -> Response:
        try:
            body = await _body(request, schema.Claim)
            got = await accounts().signed_in(request)
            return JSONResponse({"claimed": await _claimed(got.account_id, body)})
        except ServerError as exc:
            return _error(exc)

    async def password(request: Request) -> Response:
        try:
            body = await _body(request, schema.ChangePassword)
            ended = await accounts().change_password(
                request, body["current_password"], body["new_password"]
            )
            return JSONResponse({"changed": True, "signed_out": ended})
        except ServerError as exc:
            return _error(exc)

    async def profile(request: Request) -> Response:
        try:
            viewer = await accounts().current(request)
            out = await profiles.profile(
                hub().store, request.path_params["name"], viewer.account_id if viewer else None
            )
            return JSONResponse(out)
        except ServerError as exc:
            return _error(exc)

    async def my_tables(request: Request) -> Response:
        try:
            got = await accounts().signed_in(request)
            return JSONResponse(await profiles.my_tables(hub().store, hub().tables, got.account_id))
        except ServerError as exc:
            return _error(exc)

    async def email(request: Request) -> Response:
        """``GET``/``POST /api/account/email``: the account's address for "your turn"
        e-mails, and the language they are written in."""
        try:
            got = await accounts().signed_in(request)
            if request.method == "POST":
                body = await _body(request, schema.SetEmail)
                address = clean_email(body["email"])
                lang = texts.language(body.get("lang", "en"))
                if lang is None:
                    raise ServerError(
                        "unsupported_language",
                        "lang must be one of " + ", ".join(texts.LANGUAGES),
                    )
                await asyncio.to_thread(hub().store.set_email, got.account_id, address, lang)
            address, lang = await asyncio.to_thread(hub().store.email, got.account_id)
            return JSONResponse({"email": address, "lang": lang, "enabled": hub().mailer.enabled})
        except ServerError as exc:
            return _error(exc)

    async def leaderboard(request: Request) -> Response:
        try:
            query = schema.query(dict(request.query_params), schema.LeaderboardQuery)
            measures: BotMeasures = state["measures"]
            return JSONResponse(await profiles.leaderboard(hub().store, query["edition"], measures))
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
                await _body(request, schema.SeatBot),
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
                seat = int(q["seat"]) if q.get("seat") not in (None, "") else None
            except ValueError:
                raise ServerError("bad_request", "from, count and seat must be integers") from None
            lang = texts.language(q.get("lang", "en")) or "en"
            out = await hub().replay(
                request.path_params["code"], start_at, count, lang, seat, _token(request)
            )
            return JSONResponse(out)
        except ServerError as exc:
            return _error(exc)

    async def review(request: Request) -> Response:
        try:
            query = schema.query(dict(request.query_params), schema.ReviewQuery)
            lang = texts.language(query.get("lang", "en")) or "en"
            out = await hub().review(
                request.path_params["code"], query["seat"], lang, _token(request)
            )
            return JSONResponse(out)
        except ServerError as exc:
            return _error(exc)

    async def openapi_json(_request: Request) -> Response:
        return JSONResponse(openapi.document())

    # --- pages and the client's files ---------------------------------------------------------

    web = cfg.web_dir.resolve()

    async def page(_request: Request) -> Response:
        index = web / "index.html"
        if not index.is_file():
            return _not_installed()
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    async def asset(request: Request) -> Response:
        rel = request.path_params["path"]
        if request.url.path.startswith("/api/"):
            # A method an API route does not take (this route matched first, for GET).
            for route in routes:
                if isinstance(route, Route) and route.matches(request.scope)[0] == Match.PARTIAL:
                    allow = ", ".join(sorted(route.methods or ()))
                    raise HTTPException(405, headers={"Allow": allow})
        if not (web / "index.html").is_file():
            return _not_installed()
        target = None
        # A NUL byte or a name the file system cannot hold is no file of the client.
        if "\0" not in rel and len(rel) <= PATH_MAX:
            with contextlib.suppress(OSError, ValueError):
                found = (web / rel).resolve()
                if web in found.parents and found.is_file():
                    target = found
        if target is None:
            return JSONResponse(
                {"error": {"code": "not_found", "message": "no such file"}}, status_code=404
            )
        return FileResponse(target)

    # --- the WebSocket ----------------------------------------------------------------------

    async def ws_endpoint(ws: WebSocket) -> None:
        await Session(ws, hub()).run()

    routes = [
        Route("/healthz", healthz),
        Route("/api/openapi.json", openapi_json),
        Route("/api/info", info),
        Route("/api/cards/{edition}", cards),
        Route("/api/tables", tables, methods=["GET", "POST"]),
        Route("/api/tables/{code}", table),
        Route("/api/tables/{code}/join", join, methods=["POST"]),
        Route("/api/tables/{code}/start", start, methods=["POST"]),
        Route("/api/tables/{code}/seats/{seat:int}/bot", seat_bot, methods=["POST"]),
        Route("/api/tables/{code}/replay", replay),
        Route("/api/tables/{code}/review", review),
        Route("/api/accounts", sign_up, methods=["POST"]),
        Route("/api/accounts/{name}", profile),
        Route("/api/session", session, methods=["GET", "POST", "DELETE"]),
        Route("/api/account/claim", claim, methods=["POST"]),
        Route("/api/account/password", password, methods=["POST"]),
        Route("/api/account/tables", my_tables),
        Route("/api/account/email", email, methods=["GET", "POST"]),
        Route("/api/leaderboard", leaderboard),
        WebSocketRoute("/ws/{code}", ws_endpoint),
        Route("/", page),
        Route("/t/{code}", page),
        Route("/replay/{code}", page),
        Route("/me", page),
        Route("/profile/{name}", page),
        Route("/leaderboard", page),
        Route("/static/{path:path}", asset),
        Route("/{path:path}", asset),
    ]
    app = _App(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(Guard, limits=cfg.limits)],
        exception_handlers={HTTPException: _http_error, Exception: _failed},
    )
    app.state.config = cfg
    app.state.server = state
    return app
