"""A database from before turn-based tables (issue 28, migration ``0007``) migrates when a
server starts on it, on SQLite and on the machine's PostgreSQL: an account, a live game being
played and an open table are all kept, the game plays on, and the new columns start empty.

The old database is made by Alembic's own migrations up to ``0006``, its rows by plain SQL.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json

import pytest
import sqlalchemy as sa

from citadels.engine.game import new_game
from citadels.server import storage
from citadels.server.client import PlayerClient, http
from citadels.server.tokens import hash_token
from tests.server.conftest import config, running
from tests.server.test_migrations import _at

TOKENS = ["host-token-0123456789abcdef0123", "ben-token-0123456789abcdef01234"]
PLAYING, OPEN = "KEPT-GAME-2345-6789", "KEPT-NEWX-2345-6789"


def _old_database(url: str) -> None:
    """A database at 0006: an account; a two-seat game being played (its first two moves
    stored), held by the account at seat 0; an open table."""
    _at("0006", url)
    engine = storage.make_engine(url)
    t = dt.datetime(2026, 12, 2, tzinfo=dt.UTC)
    game = new_game("classic", 2, seed=11)
    moves = []
    for _ in range(2):
        action = game.legal_actions()[0]
        moves.append((game.to_move, action.to_json()))
        game.apply(action, game.to_move)
    with engine.begin() as conn:
        assert "timeouts" not in sa.inspect(conn).get_table_names()  # the old schema
        assert "turn_timer" not in {c["name"] for c in sa.inspect(conn).get_columns("tables")}
        conn.execute(
            sa.text(
                "INSERT INTO accounts (id, name, name_key, password_hash, created_at) "
                "VALUES (1, 'Anna', 'anna', 'x', :t)"
            ),
            {"t": t},
        )
        for table_id, code, status, version in ((1, PLAYING, "playing", 2), (2, OPEN, "open", 0)):
            conn.execute(
                sa.text(
                    "INSERT INTO tables (id, code, status, edition, players, options, seed, "
                    "timer, pace, public, spectator_chat, host_seat, version, result, "
                    "created_at, updated_at, hints) VALUES (:id, :code, :status, 'classic', 2, "
                    ":options, 11, NULL, NULL, :yes, :no, 0, :version, NULL, :t, :t, :no)"
                ),
                {"id": table_id, "code": code, "status": status, "options": json.dumps({}),
                 "version": version, "t": t, "yes": True, "no": False},
            )  # fmt: skip
        seats = [
            (1, 0, "human", "Anna", hash_token(TOKENS[0]), 1),
            (1, 1, "human", "Ben", hash_token(TOKENS[1]), None),
            (2, 0, "human", "Host", hash_token("open-host-token-0123456789abc"), None),
            (2, 1, "empty", None, None, None),
        ]
        for table_id, seat, kind, name, token, account in seats:
            conn.execute(
                sa.text(
                    "INSERT INTO seats (table_id, seat, kind, name, bot, token_hash, away, "
                    "away_version, account_id) VALUES (:tid, :seat, :kind, :name, NULL, "
                    ":token, :no, 0, :account)"
                ),
                {"tid": table_id, "seat": seat, "kind": kind, "name": name, "token": token,
                 "no": False, "account": account},
            )  # fmt: skip
        for seq, (seat, action) in enumerate(moves, start=1):
            conn.execute(
                sa.text(
                    "INSERT INTO actions (table_id, seq, seat, action, created_at) "
                    "VALUES (1, :seq, :seat, :action, :t)"
                ),
                {"seq": seq, "seat": seat, "action": json.dumps(action), "t": t},
            )
    engine.dispose()


def _check(url: str) -> None:
    _old_database(url)

    async def go() -> None:
        async with running(config(url)) as base:
            status, info = await http(base, "GET", f"/api/tables/{PLAYING}")
            assert status == 200 and info["version"] == 2
            assert info["turn_timer"] is None and info["on_timeout"] is None
            assert info["seats"][0]["account"] == "Anna"
            status, info = await http(base, "GET", f"/api/tables/{OPEN}")
            assert status == 200 and info["status"] == "open"
            # The live game plays on, as live games do: the player moves when it is their
            # turn, and the stand-in moves for the absent seat after the grace (there is no
            # turn-based deadline). It may have moved already, before the player connected.
            player = PlayerClient(base, PLAYING, TOKENS[0])
            snap = await player.connect()
            assert snap["timeouts"] == [] and snap["deadline"] is None
            while player.version < 3:
                if player.legal:
                    await player.act(player.legal[0]["action"])
                await player.recv(timeout=30)
            await player.close()

    asyncio.run(go())
    engine = storage.make_engine(url)
    with engine.connect() as conn:
        version = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one()
        rows = conn.execute(
            sa.text("SELECT code, turn_timer, on_timeout, deadline FROM tables ORDER BY id")
        ).all()
        email = conn.execute(sa.text("SELECT email, email_lang FROM accounts")).one()
        mailed = conn.execute(sa.text("SELECT mailed_deadline FROM seats")).scalars().all()
        timeouts = conn.execute(sa.text("SELECT COUNT(*) FROM timeouts")).scalar_one()
        moves = conn.execute(sa.text("SELECT COUNT(*) FROM actions")).scalar_one()
    engine.dispose()
    assert version == "0007"
    assert [tuple(r) for r in rows] == [(PLAYING, None, None, None), (OPEN, None, None, None)]
    assert tuple(email) == (None, None) and mailed == [None] * 4 and timeouts == 0
    assert moves >= 3


def test_a_0006_sqlite_database_migrates_on_start(sqlite_url: str) -> None:
    _check(sqlite_url)


def test_a_0006_postgresql_database_migrates_on_start(pg_url: str) -> None:
    _check(pg_url)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_0007_goes_down_and_up_again(kind: str, request: pytest.FixtureRequest) -> None:
    url = request.getfixturevalue("sqlite_url" if kind == "sqlite" else "pg_url")
    _old_database(url)
    _at("head", url)
    _at("0006", url, down=True)
    engine = storage.make_engine(url)
    with engine.connect() as conn:
        assert "timeouts" not in sa.inspect(conn).get_table_names()
        assert conn.execute(sa.text("SELECT COUNT(*) FROM actions")).scalar_one() == 2
    engine.dispose()
    _at("head", url)
