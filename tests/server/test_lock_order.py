"""The lock order of a batch that finishes rated games (``Store.append_actions``,
docs/accounts.md "Ratings"): two server processes whose group commits finish games of the same
accounts in crossed order wait for one another instead of deadlocking. The race is run in a
fixed order: the first writer is held open right after its first row lock, the second runs
until PostgreSQL says it waits for a lock, then the first goes on."""

from __future__ import annotations

import threading
import time
from typing import Any

import psycopg
import pytest
import sqlalchemy as sa

from citadels.server.ratings import BOT_RATINGS, MU, SIGMA, rate
from citadels.server.storage import Append, SeatRow, Store, WriteConflict

_codes = iter(range(10**6))


def _game(store: Store, account: int) -> int:
    """A started two-seat table: the account against a ``hard`` bot."""
    seats = [
        SeatRow(0, "human", "P", None, "0" * 64, account_id=account),
        SeatRow(1, "bot", None, "hard"),
    ]
    table_id = store.create_table(
        code=f"L{next(_codes)}", edition="classic", players=2, options={}, seed=1, timer=None,
        public=True, spectator_chat=False, seats=seats,
    )  # fmt: skip
    assert table_id is not None and store.start(table_id) == "started"
    return table_id


def _finish(table_id: int) -> Append:
    """The last move of a table: the account first, the bot second."""
    result = {"seats": [{"seat": 0, "rank": 1, "score": 20}, {"seat": 1, "rank": 2, "score": 9}]}
    return Append(table_id, 1, 0, {"type": "end_turn"}, None, result)


def _waits_for_a_lock(pg: str, pid: int, give_up: float = 20.0) -> bool:
    """Whether the backend ``pid`` comes to wait for a row lock (asked until ``give_up`` s)."""
    with psycopg.connect(pg, autocommit=True) as watch:
        deadline = time.monotonic() + give_up
        while time.monotonic() < deadline:
            row = watch.execute(
                "SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", (pid,)
            ).fetchone()
            if row is not None and row[0] == "Lock":
                return True
            time.sleep(0.01)
    return False


def test_two_processes_finishing_games_of_the_same_accounts_in_crossed_order(
    pg_url: str,
) -> None:
    first, second = Store(pg_url), Store(pg_url)  # two server processes
    first.migrate()
    try:
        anna = first.create_account("Anna", "anna", "x")
        ben = first.create_account("Ben", "ben", "x")
        assert anna is not None and ben is not None
        # The first process finishes a game of Anna's, then one of Ben's; the second the
        # other way round: each batch alone locks its accounts in order, game by game.
        batch_one = [_finish(_game(first, anna)), _finish(_game(first, ben))]
        batch_two = [_finish(_game(first, ben)), _finish(_game(first, anna))]
        one, two = first.writer(), second.writer()
        two_pid = int(two.exec_driver_sql("SELECT pg_backend_pid()").scalar_one())
        two.rollback()
        locked, go = threading.Event(), threading.Event()

        def hold_after_first_lock(_c: Any, _cur: Any, statement: str, *_rest: Any) -> None:
            locks = "FROM accounts" in statement and " FOR " in statement
            if locks and not locked.is_set():
                locked.set()
                assert go.wait(30), "the held writer was never let go"

        sa.event.listen(one, "after_cursor_execute", hold_after_first_lock)
        outcomes: dict[str, list[WriteConflict | None]] = {}
        failures: dict[str, BaseException] = {}

        def write(name: str, store: Store, conn: sa.Connection, batch: list[Append]) -> None:
            try:
                outcomes[name] = store.append_actions(batch, conn)
            except BaseException as exc:  # reported below, with the other writer's outcome
                failures[name] = exc

        threads = {
            "one": threading.Thread(target=write, args=("one", first, one, batch_one)),
            "two": threading.Thread(target=write, args=("two", second, two, batch_two)),
        }
        threads["one"].start()
        assert locked.wait(30), "the first writer took no row lock"
        threads["two"].start()
        waited = _waits_for_a_lock(pg_url, two_pid)
        go.set()
        for thread in threads.values():
            thread.join(60)
        one.close()
        two.close()
        assert waited, "the second writer never waited for the first one's lock"
        assert not failures, failures
        assert outcomes == {"one": [None, None], "two": [None, None]}
        # The first batch committed first: each account won against the bot twice, in turn.
        expected = (MU, SIGMA)
        for _ in range(2):
            expected = rate([expected, BOT_RATINGS["hard"]], [1, 2])[0]
        for account in (anna, ben):
            mu, sigma, games = first.ratings_of(account)["classic"]
            assert games == 2 and (mu, sigma) == pytest.approx(expected)
    finally:
        first.close()
        second.close()
