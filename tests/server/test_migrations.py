"""A database from before the accounts (issue 28) migrates when a server starts on it, on
SQLite and on the machine's PostgreSQL, and its tables still play.

The old database is made by Alembic's own migrations up to ``0005`` (not from today's
metadata, which has the new columns), and its rows are written with plain SQL.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from citadels.server import storage
from citadels.server.client import PlayerClient, http
from citadels.server.tokens import hash_token
from tests.server.conftest import config, running

HOST_TOKEN = "old-host-token-0123456789abcdef"
CODE = "KEPT-TABX-2345-6789"


def _at(revision: str, url: str, *, down: bool = False) -> None:
    """The schema of ``revision``, by the migrations themselves (``down``: downgraded to it)."""
    engine = storage.make_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(storage.__file__).parent / "migrations"))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        (command.downgrade if down else command.upgrade)(cfg, revision)
    engine.dispose()


def _old_database(url: str) -> None:
    """A database at 0005 holding an open three-seat table: its host, an empty seat, a bot."""
    _at("0005", url)
    engine = storage.make_engine(url)
    t = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
    with engine.begin() as conn:
        columns = {c["name"] for c in sa.inspect(conn).get_columns("seats")}
        assert "account_id" not in columns  # the old schema indeed
        assert "accounts" not in sa.inspect(conn).get_table_names()
        conn.execute(
            sa.text(
                "INSERT INTO tables (id, code, status, edition, players, options, seed, timer, "
                "pace, public, spectator_chat, host_seat, version, result, created_at, "
                "updated_at, hints) VALUES (1, :code, 'open', 'classic', 3, :options, 77, NULL, "
                "500, :yes, :no, 0, 0, NULL, :t, :t, :no)"
            ),
            {"code": CODE, "options": json.dumps({"complete_at": 7}), "t": t,
             "yes": True, "no": False},
        )  # fmt: skip
        for seat, kind, name, bot, token in (
            (0, "human", "Old Host", None, hash_token(HOST_TOKEN)),
            (1, "empty", None, None, None),
            (2, "bot", None, "easy", None),
        ):
            conn.execute(
                sa.text(
                    "INSERT INTO seats (table_id, seat, kind, name, bot, token_hash, away, "
                    "away_version) VALUES (1, :seat, :kind, :name, :bot, :token, :no, 0)"
                ),
                {"seat": seat, "kind": kind, "name": name, "bot": bot, "token": token,
                 "no": False},
            )  # fmt: skip
    engine.dispose()


async def _plays(base: str) -> None:
    status, info = await http(base, "GET", f"/api/tables/{CODE}")
    assert status == 200, info
    assert info["pace"] == 500 and info["rated"] is False
    assert [s["account"] for s in info["seats"]] == [None, None, None]
    status, joined = await http(base, "POST", f"/api/tables/{CODE}/join", {"name": "New"})
    assert status == 200 and joined["seat"] == 1
    status, started = await http(base, "POST", f"/api/tables/{CODE}/start", token=HOST_TOKEN)
    assert status == 200 and started["status"] == "playing"
    host = PlayerClient(base, CODE, HOST_TOKEN)
    snap = await host.connect()
    assert snap["type"] == "snapshot" and snap["view"] is not None
    await host.close()


def _check(url: str) -> None:
    _old_database(url)

    async def go() -> None:
        async with running(config(url)) as base:
            await _plays(base)

    asyncio.run(go())
    engine = storage.make_engine(url)
    with engine.connect() as conn:
        names = set(sa.inspect(conn).get_table_names())
        version = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one()
        seats = conn.execute(sa.text("SELECT COUNT(*) FROM seats")).scalar_one()
        tables = conn.execute(sa.text("SELECT status FROM tables")).scalars().all()
    engine.dispose()
    assert version == "0007"
    assert {"accounts", "sessions", "ratings", "rated_games", "rating_changes"} <= names
    assert seats == 3 and tables == ["playing"]


def test_an_old_sqlite_database_migrates_on_start(sqlite_url: str) -> None:
    _check(sqlite_url)


def test_an_old_postgresql_database_migrates_on_start(pg_url: str) -> None:
    _check(pg_url)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_migration_goes_down_and_up_again(kind: str, request: pytest.FixtureRequest) -> None:
    url = request.getfixturevalue("sqlite_url" if kind == "sqlite" else "pg_url")
    _old_database(url)
    _at("head", url)
    _at("0005", url, down=True)
    engine = storage.make_engine(url)
    with engine.connect() as conn:
        assert "accounts" not in sa.inspect(conn).get_table_names()
        assert conn.execute(sa.text("SELECT COUNT(*) FROM seats")).scalar_one() == 3
    engine.dispose()
    _at("head", url)
