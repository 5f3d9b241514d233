"""Lobby changes of one table are serialised (issue 23, item 6): a table that is not open has
no empty seat, a seat changes only while its table is open, and a join without a seat takes
an empty seat whenever one is left.

In one process the races are made deterministic by holding one change's database write open
(``Hold``) while the other change runs as far as it can: to its end, or to the table's lock,
where it waits. Across processes two stores on one database stand for two processes, and one
of them is held inside its transaction while the other writes.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
import sqlalchemy as sa

from citadels.server import create_app
from citadels.server.client import http
from citadels.server.errors import ServerError
from citadels.server.hub import Hub
from citadels.server.storage import SeatRow, Store
from tests.server.conftest import Hold, config, hub_of, running


async def _run_until_done_or_waiting(task: asyncio.Task[Any], lock: asyncio.Lock) -> None:
    """Let ``task`` run until it has finished or waits for ``lock`` (a waiter is queued on
    it: asyncio.Lock keeps them in ``_waiters``). Counted in loop turns, not in time."""
    for _ in range(100_000):
        if task.done() or getattr(lock, "_waiters", None):
            return
        await asyncio.sleep(0.001)
    raise AssertionError("the second change neither finished nor waited for the table's lock")


async def _outcome(coro: Any) -> Any:
    try:
        return await coro
    except ServerError as exc:
        return exc.code


async def _table(base: str, players: int, bots: dict[str, str] | None = None) -> tuple[str, str]:
    status, made = await http(base, "POST", "/api/tables",
                              {"name": "Anna", "edition": "basic", "players": players,
                               "bots": bots or {}})  # fmt: skip
    assert status == 201, made
    return made["code"], made["token"]


def test_two_joins_without_a_seat_at_once_both_sit(sqlite_url: str) -> None:
    """The first join's write is held open after it chose its seat; a second join without a
    seat runs meanwhile. Both sit, at two seats; none is told ``seat_taken``."""

    async def go() -> None:
        cfg = config(sqlite_url)
        app = create_app(cfg)
        async with running(cfg, app=app) as base:
            code, _token = await _table(base, 4)
            hub: Hub = hub_of(app)
            t = await hub.by_code(code)
            held = Hold(hub.store, "set_seat")
            first = asyncio.create_task(_outcome(hub.join(code, {"name": "Ben"})))
            await held.entered.wait()
            second = asyncio.create_task(_outcome(hub.join(code, {"name": "Cy"})))
            await _run_until_done_or_waiting(second, t.lock)
            held.release()
            got = [await first, await second]
            assert all(isinstance(g, dict) for g in got), got
            assert sorted(g["seat"] for g in got) == [1, 2]
            _status, table = await http(base, "GET", f"/api/tables/{code}")
            names = [s["name"] for s in table["seats"]]
            assert names in (["Anna", "Ben", "Cy", None], ["Anna", "Cy", "Ben", None])

    asyncio.run(go())


def test_four_joins_on_four_empty_seats_all_sit(sqlite_url: str) -> None:
    async def go() -> None:
        cfg = config(sqlite_url)
        app = create_app(cfg)
        async with running(cfg, app=app) as base:
            code, _token = await _table(base, 5)
            hub = hub_of(app)
            got = await asyncio.gather(
                *(_outcome(hub.join(code, {"name": f"P{i}"})) for i in range(4))
            )
            assert sorted(g["seat"] for g in got) == [1, 2, 3, 4], got
            assert await _outcome(hub.join(code, {"name": "Late"})) == "table_full"

    asyncio.run(go())


@pytest.mark.parametrize("held_first", ["start", "set_seat"])
def test_start_racing_a_seat_change_never_starts_with_an_empty_seat(
    sqlite_url: str, held_first: str
) -> None:
    """The host starts while emptying a bot's seat. Whichever write is held open, the other
    change waits for it: either the game starts with every seat taken and the seat change is
    refused (``already_started``), or the seat empties and the start is refused
    (``seats_empty``)."""

    async def go() -> None:
        cfg = config(sqlite_url)
        app = create_app(cfg)
        async with running(cfg, app=app) as base:
            code, token = await _table(base, 3, {"1": "random", "2": "random"})
            hub = hub_of(app)
            t = await hub.by_code(code)
            held = Hold(hub.store, held_first)

            def start() -> Any:
                return hub.start_game(code, token)

            def empty_seat() -> Any:
                return hub.set_bot(code, 2, token, {"level": None})

            one, other = (start, empty_seat) if held_first == "start" else (empty_seat, start)
            first = asyncio.create_task(_outcome(one()))
            await held.entered.wait()
            second = asyncio.create_task(_outcome(other()))
            await _run_until_done_or_waiting(second, t.lock)
            held.release()
            got = {held_first: await first, "other": await second}
            _status, table = await http(base, "GET", f"/api/tables/{code}")
            kinds = [s["kind"] for s in table["seats"]]
            if table["status"] == "open":
                assert kinds == ["human", "bot", "empty"]
            else:
                assert "empty" not in kinds, (got, table)
            if held_first == "start":
                assert got == {"start": got["start"], "other": "already_started"}
                assert table["status"] == "playing"
            else:
                assert got["other"] == "seats_empty" and table["status"] == "open"

    asyncio.run(go())


def _held_inside_transaction(store: Store) -> tuple[threading.Event, threading.Event]:
    """Hold ``store``'s next lobby change inside its transaction, right after it read the
    table's status (what it then decides on): ``(entered, release)``."""
    entered, release = threading.Event(), threading.Event()
    armed = [True]

    def after(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if armed[0] and statement.lstrip().upper().startswith("SELECT TABLES.STATUS"):
            armed[0] = False
            entered.set()
            assert release.wait(60), "never released"

    sa.event.listen(store.engine, "after_cursor_execute", after)
    return entered, release


def _began(store: Store) -> threading.Event:
    """Set when ``store`` sends its next statement to the database."""
    began = threading.Event()

    def before(*_args: Any) -> None:
        began.set()

    sa.event.listen(store.engine, "before_cursor_execute", before)
    return began


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_two_processes_start_and_empty_a_seat_on_one_database(
    request: pytest.FixtureRequest, kind: str
) -> None:
    """Two stores on one database, as two processes: one empties a bot's seat and is held
    inside its transaction after reading the table's status; the other starts the table
    meanwhile. The start waits for the seat change and then finds the empty seat."""
    url = request.getfixturevalue("sqlite_url" if kind == "sqlite" else "pg_url")
    a, b = Store(url), Store(url)
    a.migrate()
    try:
        table_id = a.create_table(
            code="ABCDEF", edition="basic", players=3, options={}, seed=5, timer=None,
            public=True, spectator_chat=False,
            seats=[SeatRow(0, "human", "Anna", None, "h" * 64), SeatRow(1, "bot", None, "easy"),
                   SeatRow(2, "bot", None, "easy")],
        )  # fmt: skip
        assert table_id is not None
        entered, release = _held_inside_transaction(a)
        results: dict[str, Any] = {}

        def change() -> None:
            results["a"] = a.set_seat(table_id, SeatRow(2, "empty"), only_if_kind=("bot",))

        def start() -> None:
            results["b"] = b.start(table_id)

        ta = threading.Thread(target=change)
        ta.start()
        assert entered.wait(60)
        began = _began(b)
        tb = threading.Thread(target=start)
        tb.start()
        assert began.wait(60)
        release.set()
        ta.join(60)
        tb.join(60)
        row = a.table_by_id(table_id)
        assert row is not None
        kinds = [s.kind for s in row.seats]
        assert not (row.status != "open" and "empty" in kinds), (results, row.status, kinds)
        assert results == {"a": 2, "b": "seats_empty"}
    finally:
        a.close()
        b.close()
