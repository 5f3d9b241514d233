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
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from citadels.server import ServerConfig, create_app

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
async def running(config: ServerConfig) -> AsyncIterator[str]:
    """The server in this event loop on a free port; yields its base URL."""
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(config),
            host="127.0.0.1",
            port=port,
            log_level="warning",
            ws_max_size=65536,
            lifespan="on",
            timeout_graceful_shutdown=2,
            ws_per_message_deflate=False,
        )
    )
    task = asyncio.create_task(server.serve())
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


def config(db: str, **kw: Any) -> ServerConfig:
    """A test server's configuration: threads for bots unless asked, no grace."""
    kw.setdefault("bot_pool", "thread")
    kw.setdefault("grace", 0.2)
    return ServerConfig(db=db, **kw)


class ServerProcess:
    """``citadels serve`` in a subprocess (a real process to kill)."""

    def __init__(self, db: str, *, redis: str | None = None, channel: str | None = None,
                 port: int | None = None, grace: float = 0.5) -> None:  # fmt: skip
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.db, self.redis, self.channel, self.grace = db, redis, channel, grace
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, log: Path, *, retried: bool = False) -> None:
        code = (
            "import sys; from citadels.server import ServerConfig, serve; "
            "serve(ServerConfig(db=sys.argv[1], redis=sys.argv[2] or None, "
            "channel=sys.argv[3], bot_workers=1, grace=float(sys.argv[4])), "
            "port=int(sys.argv[5]))"
        )
        # The health check must be answered by this process, not by another test's server
        # that took the same free port first (then this one fails to bind and exits).
        instance = uuid.uuid4().hex
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code, self.db, self.redis or "",
             self.channel or "citadels:tables", str(self.grace), str(self.port)],
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
