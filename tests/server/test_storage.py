"""Storage against real SQLite and the machine's PostgreSQL; the protocol over PostgreSQL and
Redis (skipped when those are unreachable, failing instead with CITADELS_REQUIRE_SERVICES=1)."""

from __future__ import annotations

import asyncio
import random
import uuid
from pathlib import Path

import pytest
import sqlalchemy as sa

from citadels.engine.game import game_from_json, new_game
from citadels.server.client import PlayerClient, http
from citadels.server.storage import (
    SNAPSHOT_EVERY,
    Append,
    SeatRow,
    Store,
    WriteConflict,
    normalise_url,
)
from tests.server.conftest import config, running


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest) -> Store:
    url = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "pg_url")
    s = Store(url)
    s.migrate()
    s.migrate()  # a second start finds the schema up to date
    request.addfinalizer(s.close)
    return s


def seats() -> list[SeatRow]:
    return [SeatRow(0, "human", "Anna", None, "h" * 64), SeatRow(1, "empty"),
            SeatRow(2, "bot", None, "easy")]  # fmt: skip


def make(store: Store, code: str = "ABCDEF") -> int:
    table_id = store.create_table(
        code=code, edition="classic", players=3, options={"complete_at": 7}, seed=2**61 + 5,
        timer=None, public=True, spectator_chat=False, seats=seats(),
    )  # fmt: skip
    assert table_id is not None
    return table_id


def test_schema_is_migrated_by_alembic(store: Store) -> None:
    with store.engine.connect() as conn:
        names = set(sa.inspect(conn).get_table_names())
        version = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one()
    assert {
        "tables",
        "seats",
        "actions",
        "snapshots",
        "chat",
        "reviews",
        "hint_uses",
        "accounts",
        "sessions",
        "ratings",
        "rated_games",
        "rating_changes",
        "alembic_version",
    } <= names
    assert version == "0007"


def test_tables_seats_and_codes(store: Store) -> None:
    table_id = make(store)
    assert store.create_table(
        code="ABCDEF", edition="basic", players=2, options={}, seed=1, timer=None,
        public=True, spectator_chat=False, seats=[SeatRow(0, "human"), SeatRow(1, "empty")],
    ) is None  # fmt: skip
    row = store.table_by_code("ABCDEF")
    assert row is not None and row.id == table_id and row.seed == 2**61 + 5
    assert row.options == {"complete_at": 7} and row.status == "open"
    assert [s.kind for s in row.seats] == ["human", "empty", "bot"]
    # Two joins race for seat 1: one wins.
    assert store.set_seat(table_id, SeatRow(1, "human", "Ben", None, "b" * 64),
                          only_if_kind=("empty",))  # fmt: skip
    assert not store.set_seat(table_id, SeatRow(1, "human", "Cy", None, "c" * 64),
                              only_if_kind=("empty",))  # fmt: skip
    assert store.table_by_id(table_id).seats[1].name == "Ben"  # type: ignore[union-attr]
    assert [t.code for t in store.list_tables("open")] == ["ABCDEF"]
    assert store.start(table_id) == "started" and store.start(table_id) == "already_started"
    assert not store.set_seat(table_id, SeatRow(2, "empty"), only_if_kind=("bot",))
    store.set_away(table_id, 0, True)
    assert store.table_by_id(table_id).seats[0].away  # type: ignore[union-attr]
    assert store.table_ids("playing") == [table_id]


def test_action_log_version_check_and_snapshots(store: Store) -> None:
    table_id = make(store)
    store.start(table_id)
    game = new_game("classic", 3, seed=2**61 + 5, complete_at=7)
    rng = random.Random(5)
    n = 0
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        action = rng.choice(game.legal_actions())
        game.apply(action, seat)
        n += 1
        snap = game.to_json() if n % SNAPSHOT_EVERY == 0 else None
        result = game.result().to_json() if game.is_over else None
        store.append_action(table_id, n, seat, action.to_json(), snapshot=snap, result=result)
        if n == 3:
            # A second writer on the same version loses and stores nothing.
            with pytest.raises(WriteConflict):
                store.append_action(table_id, 3, seat, action.to_json())
            with pytest.raises(WriteConflict):
                store.append_action(table_id, 5, seat, action.to_json())
            assert store.version(table_id) == 3 and len(store.actions(table_id)) == 3
    assert store.version(table_id) == n
    row = store.table_by_id(table_id)
    assert row is not None and row.status == "finished" and row.result == game.result().to_json()
    # The record replays; the newest snapshot plus the later actions give the same game.
    again = new_game("classic", 3, seed=2**61 + 5, complete_at=7)
    for _seat, action_json in store.actions(table_id):
        again.apply_json(action_json)
    assert again.view(0) == game.view(0)
    snap_version, snap_json = store.latest_snapshot(table_id)  # type: ignore[misc]
    assert snap_version == n - n % SNAPSHOT_EVERY
    loaded = game_from_json(snap_json)
    for _seat, action_json in store.actions(table_id, snap_version):
        loaded.apply_json(action_json)
    assert loaded.view(None) == game.view(None)


def test_sqlite_writers_never_checkpoint_the_log_themselves(tmp_path: Path) -> None:
    db = tmp_path / "wal.sqlite3"
    store = Store(f"sqlite:///{db}")
    store.migrate()
    with store.engine.connect() as conn:
        # A move never pays for a checkpoint: the background thread does them.
        assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
    table_id = make(store)
    store.start(table_id)
    game = new_game("classic", 3, seed=2**61 + 5, complete_at=7)
    for n in range(1, 31):
        seat = game.to_move
        assert seat is not None
        action = game.legal_actions()[0]
        game.apply(action, seat)
        store.append_action(table_id, n, seat, action.to_json())
    wal = tmp_path / "wal.sqlite3-wal"
    assert wal.stat().st_size > 0
    store.close()  # the last checkpoint empties the log and keeps every action
    assert not wal.exists() or wal.stat().st_size == 0
    again = Store(f"sqlite:///{db}")
    assert again.version(table_id) == 30 and len(again.actions(table_id)) == 30
    again.close()


def test_chat_is_kept_in_order(store: Store) -> None:
    table_id = make(store)
    for i in range(60):
        store.add_chat(table_id, i % 2 or None, f"n{i}", f"text {i}")
    last = store.chat(table_id, 50)
    assert [m["text"] for m in last] == [f"text {i}" for i in range(10, 60)]
    assert last[-1]["seat"] == 1 and last[0]["seat"] is None and last[0]["at"] > 0


def test_urls() -> None:
    assert normalise_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("sqlite:///x.db") == "sqlite:///x.db"
    assert normalise_url("/tmp/x.sqlite3") == "sqlite:////tmp/x.sqlite3"


def test_a_game_over_postgresql_and_redis(pg_url: str, redis_url: str) -> None:
    """The whole protocol path with the shared database and the Redis bus."""

    async def go() -> None:
        cfg = config(pg_url, redis=redis_url, channel=f"citadels:test:{uuid.uuid4().hex}")
        async with running(cfg) as base:
            st, made = await http(base, "POST", "/api/tables",
                                  {"name": "Anna", "edition": "2016", "players": 3,
                                   "preset": "first_game",
                                   "bots": {"1": "easy", "2": "medium"}})  # fmt: skip
            assert st == 201
            me = PlayerClient(base, made["code"], made["token"], seed=4)
            await me.connect()
            await http(base, "POST", f"/api/tables/{made['code']}/start", token=made["token"])
            await me.play(timeout=240)
            assert me.result is not None and me.errors == []
            st, rep = await http(base, "GET", f"/api/tables/{made['code']}/replay?count=2")
            assert st == 200 and rep["steps"] == me.version

    asyncio.run(go())


def test_search_bots_think_in_worker_processes() -> None:
    """A ``hard`` decision runs in another process and returns one of the legal actions."""
    import os

    from citadels.server import botpool

    game = new_game("classic", 4, seed=9)
    seat = game.to_move
    assert seat is not None
    legal = [a.to_json() for a in game.legal_actions()]
    pool = botpool.BotPool(1, kind="process")
    try:
        pids = {pool._pool.submit(os.getpid).result() for _ in range(2)}
        assert os.getpid() not in pids
        full = game.view(seat)  # the whole log: the search samples from the view alone
        choice = asyncio.run(pool.choose("hard", 1, seat, full, legal, {}))
        assert choice in legal
        light = asyncio.run(pool.choose("medium", 1, seat, _view(game, seat), legal, None))
        assert light in legal
    finally:
        pool.close()


def _view(game: object, seat: int) -> dict[str, object]:
    view = game.view(seat)  # type: ignore[attr-defined]
    view.pop("log")
    return dict(view)


def test_a_batch_checks_each_append_and_stores_the_others(store: Store) -> None:
    """One transaction for several tables' moves (group commit): an append whose table is
    past its version is refused alone; an action already stored (the version check passes,
    the insert does not) sends every append to a transaction of its own."""
    ids = [make(store, code) for code in ("AAAAAA", "BBBBBB", "CCCCCC")]
    for table_id in ids:
        store.start(table_id)
    act = {"type": "end_turn"}
    outcomes = store.append_actions(
        [Append(ids[0], 1, 0, act), Append(ids[1], 2, 0, act), Append(ids[2], 1, 1, act)]
    )
    assert outcomes[0] is None and isinstance(outcomes[1], WriteConflict) and outcomes[2] is None
    assert [store.version(t) for t in ids] == [1, 0, 1]
    assert store.actions(ids[2]) == [(1, act)]
    # Action 2 of table A is there already while its version says 1: only it is refused.
    with store.engine.begin() as conn:
        insert = "INSERT INTO actions (table_id, seq, seat, action, created_at) VALUES "
        conn.execute(sa.text(insert + "(:t, 2, 0, '{}', CURRENT_TIMESTAMP)"), {"t": ids[0]})
    snap = {"any": "json"}
    outcomes = store.append_actions(
        [Append(ids[0], 2, 0, act), Append(ids[1], 1, 0, act, snapshot=snap)]
    )
    assert isinstance(outcomes[0], WriteConflict) and outcomes[1] is None
    assert [store.version(t) for t in ids] == [1, 1, 1]
    assert store.latest_snapshot(ids[1]) == (1, snap)


def test_a_batch_in_the_writers_connection_stores_rows_as_one_append_does(store: Store) -> None:
    """A batch (in the group commit's own connection; straight on the driver's cursor, both
    sqlite3's and psycopg's) stores its actions, times and snapshots in the very form an
    append alone does, and a finishing move among them finishes its table."""
    ids = [make(store, code) for code in ("AAAAAA", "BBBBBB", "CCCCCC")]
    for table_id in ids:
        store.start(table_id)
    act = {"type": "end_turn", "n": [1, "é"]}
    store.append_action(ids[0], 1, 0, act, snapshot={"s": 0})  # alone, in a pooled connection
    with store.writer() as conn:
        assert store.append_actions(
            [Append(ids[1], 1, 0, act, snapshot={"s": 0}), Append(ids[0], 2, 1, act)], conn
        ) == [None, None]
        done = store.append_actions(
            [Append(ids[2], 1, 0, act, result={"winner": 0}), Append(ids[0], 3, 0, act)], conn
        )
        assert done == [None, None]
    with store.engine.connect() as conn:
        rows = conn.execute(
            sa.text("SELECT table_id, seq, seat, action, created_at FROM actions ORDER BY seq")
        ).all()
        snaps = conn.execute(sa.text("SELECT game FROM snapshots")).all()
    types = {tuple(type(v) for v in row) for row in rows}
    assert len(types) == 1, types  # every row's values of one type (one form of the time)
    stamps = [str(r[4]) for r in rows]
    assert len({len(s) for s in stamps}) == 1, stamps  # and of one layout
    assert len({str(s[0]) for s in snaps}) == 1
    assert store.actions(ids[0]) == [(0, act), (1, act), (0, act)]
    assert store.latest_snapshot(ids[1]) == (1, {"s": 0})
    row = store.table_by_id(ids[2])
    assert row is not None
    assert (row.status, row.result, row.version) == ("finished", {"winner": 0}, 1)
    assert [store.version(t) for t in ids] == [3, 1, 1]
