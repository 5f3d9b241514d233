"""Fixtures for the server tests: an in-process server on a free loopback port, and the
machine's PostgreSQL and Redis (skipped when unreachable, unless CITADELS_REQUIRE_SERVICES=1)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette

from citadels.server import ServerConfig, create_app
from citadels.server.accounts import AccountConfig
from citadels.server.client import PlayerClient
from citadels.server.hub import Hub

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"
REDIS_URL = "redis://127.0.0.1:6379/0"
REQUIRE = os.environ.get("CITADELS_REQUIRE_SERVICES") == "1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _unreachable(what: str, exc: Exception) -> None:
    message = f"{what} is unreachable: {exc}"
    if REQUIRE:
        pytest.fail(message + " (CITADELS_REQUIRE_SERVICES=1)")
    pytest.skip(message)


@pytest.fixture(autouse=True)
def strict_clients(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every protocol client of the server tests checks what it receives: nothing before
    its snapshot, every update from exactly its event count, every chat line once. A
    violation fails the test (``client.OutOfStep``) instead of being repaired by a sync."""
    monkeypatch.setattr(PlayerClient, "strict_default", True)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'citadels.sqlite3'}"


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL database, dropped afterwards."""
    try:
        import psycopg

        admin = psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=3)
    except Exception as exc:
        _unreachable("PostgreSQL at 127.0.0.1:5432", exc)
        raise
    name = f"citadels_srv_{uuid.uuid4().hex[:10]}"
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgresql://postgres@127.0.0.1:5432/{name}"
    finally:
        with contextlib.suppress(Exception):
            admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        admin.close()


@pytest.fixture
def redis_url() -> str:
    try:
        import redis

        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3).ping()
    except Exception as exc:
        _unreachable("Redis at 127.0.0.1:6379", exc)
        raise
    return REDIS_URL


@contextlib.asynccontextmanager
async def running(
    config: ServerConfig, *, app: Starlette | None = None, sndbuf: int | None = None
) -> AsyncIterator[str]:
    """The server (``app``, or one made from ``config``) in this event loop on a free port;
    yields its base URL. ``sndbuf``: the kernel's send buffer of every accepted socket, in
    bytes (fixed, so that a client that does not read fills it soon)."""
    port = free_port()
    sock = None
    if sndbuf is not None:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # Accepted sockets inherit the listening socket's buffer size, fixed.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, sndbuf)
        sock.bind(("127.0.0.1", port))
    server = uvicorn.Server(
        uvicorn.Config(
            app or create_app(config),
            host="127.0.0.1",
            port=port,
            log_level="warning",
            ws_max_size=65536,
            lifespan="on",
            timeout_graceful_shutdown=2,
            ws_per_message_deflate=False,
        )
    )
    task = asyncio.create_task(server.serve(sockets=[sock] if sock is not None else None))
    for _ in range(400):
        if server.started:
            break
        if task.done():
            task.result()
        await asyncio.sleep(0.025)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 20)


def hub_of(app: Starlette) -> Hub:
    """The hub of a running app."""
    hub: Hub = app.state.server["hub"]
    return hub


class Hold:
    """Holds the next call of one method of ``obj`` open until :meth:`release`; the calls
    after it run as usual. The method runs in a worker thread (the store's methods do, through
    ``asyncio.to_thread``); ``entered`` is set, in the event loop, once the held call has
    begun (``after=False``: before the real method runs; ``after=True``: once it returned, so
    what it read is fixed and anything stored from then on is not in it). ``done`` is set
    once the held call has returned."""

    def __init__(self, obj: Any, name: str, *, after: bool = False) -> None:
        self.entered = asyncio.Event()
        self.done = asyncio.Event()
        self._release = threading.Event()
        loop = asyncio.get_running_loop()
        real = getattr(obj, name)

        def held(*args: Any, **kw: Any) -> Any:
            setattr(obj, name, real)  # only this call is held
            result = real(*args, **kw) if after else None
            loop.call_soon_threadsafe(self.entered.set)
            if not self._release.wait(timeout=60):
                raise TimeoutError("the held call was never released")
            try:
                return result if after else real(*args, **kw)
            finally:
                loop.call_soon_threadsafe(self.done.set)

        setattr(obj, name, held)

    def release(self) -> None:
        """Let the held call go on."""
        self._release.set()


#: Accounts as a test server has them: argon2id at a small cost, the throttle as served.
CHEAP_ACCOUNTS = AccountConfig(time_cost=1, memory_cost=1024, parallelism=1)


def config(db: str, **kw: Any) -> ServerConfig:
    """A test server's configuration: threads for bots unless asked, no grace, and a cheap
    password hash (argon2id at its smallest cost: the tests make many accounts)."""
    kw.setdefault("bot_pool", "thread")
    kw.setdefault("grace", 0.2)
    kw.setdefault("accounts", CHEAP_ACCOUNTS)
    return ServerConfig(db=db, **kw)


class ServerProcess:
    """``citadels serve`` in a subprocess (a real process to kill)."""

    def __init__(self, db: str, *, redis: str | None = None, channel: str | None = None,
                 port: int | None = None, grace: float = 0.5,
                 heartbeat: float = 2.0) -> None:  # fmt: skip
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.db, self.redis, self.channel, self.grace = db, redis, channel, grace
        self.heartbeat = heartbeat
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, log: Path, *, retried: bool = False) -> None:
        code = (
            "import sys; from citadels.server import ServerConfig, serve; "
            "serve(ServerConfig(db=sys.argv[1], redis=sys.argv[2] or None, "
            "channel=sys.argv[3], bot_workers=1, grace=float(sys.argv[4]), "
            "heartbeat=float(sys.argv[6])), port=int(sys.argv[5]))"
        )
        # The health check must be answered by this process, not by another test's server
        # that took the same free port first (then this one fails to bind and exits).
        instance = uuid.uuid4().hex
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code, self.db, self.redis or "",
             self.channel or "citadels:tables", str(self.grace), str(self.port),
             str(self.heartbeat)],
            stdout=log.open("ab"), stderr=subprocess.STDOUT, start_new_session=True,
            env={**os.environ, "CITADELS_INSTANCE": instance},
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                if "address already in use" in log.read_text() and not retried:
                    self.port = free_port()
                    self.base = f"http://127.0.0.1:{self.port}"
                    return self.start(log, retried=True)
                raise RuntimeError(f"the server exited: {log.read_text()[-2000:]}")
            try:
                r = httpx.get(self.base + "/healthz", timeout=1)
                if r.status_code == 200 and r.json().get("instance") == instance:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("the server did not start in time")

    def kill(self) -> None:
        """SIGKILL to the server and its bot workers (its process group), as in a crash."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
