"""Group commit (``server/commits.py``): the moves of concurrent tables share transactions, and
no move is answered before the transaction that holds it committed. Each race is run in a
fixed order: one step is held open (a batch inside its write), then the other is run."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from citadels.server.app import create_app
from citadels.server.client import PlayerClient, http
from citadels.server.commits import GroupCommit
from citadels.server.storage import Append, SeatRow, Store, WriteConflict
from citadels.server.table import CHAIN_MAX
from tests.server.conftest import Hold, config, hub_of, running


def _append(table_id: int, seq: int = 1) -> Append:
    return Append(table_id, seq, 0, {"type": "end_turn"})


class _Writer:
    """A batch writer that records each batch; the first is held until ``release``."""

    def __init__(self, outcomes: dict[int, WriteConflict] | None = None) -> None:
        self.batches: list[list[int]] = []
        self.entered = threading.Event()
        self._release = threading.Event()
        self._outcomes = outcomes or {}

    def __call__(self, batch: list[Append]) -> list[WriteConflict | None]:
        self.batches.append([a.table_id for a in batch])
        if len(self.batches) == 1:
            self.entered.set()
            assert self._release.wait(30)
        return [self._outcomes.get(a.table_id) for a in batch]

    def release(self) -> None:
        self._release.set()


async def _entered(event: threading.Event) -> None:
    while not event.is_set():  # set by the writer's thread
        await asyncio.sleep(0.005)


def test_appends_that_arrive_during_a_write_share_the_next_batch(tmp_path: Path) -> None:
    async def go() -> None:
        writer = _Writer({3: WriteConflict("table 3 is past version 0")})
        commits = GroupCommit(Store(f"sqlite:///{tmp_path / 'x.sqlite3'}"), writer)
        first = asyncio.create_task(commits.append(_append(1)))
        await _entered(writer.entered)  # batch 1 (table 1) is inside its write
        later = [asyncio.create_task(commits.append(_append(n))) for n in (2, 3, 4)]
        gave_up = asyncio.create_task(commits.append(_append(5)))
        await asyncio.sleep(0.05)
        # Nothing is answered while its batch is not written: batch 1 is held, 2 to 5 queued.
        assert not first.done() and not any(t.done() for t in later)
        gave_up.cancel()  # before its batch is taken: never written
        writer.release()
        await first
        await later[0]
        with pytest.raises(WriteConflict):  # its own outcome; the others are stored
            await later[1]
        await later[2]
        assert writer.batches == [[1], [2, 3, 4]]
        assert (commits.batches, commits.appends) == (2, 4)

    asyncio.run(go())


def test_a_failed_batch_fails_each_of_its_appends(tmp_path: Path) -> None:
    def broken(batch: list[Append]) -> list[WriteConflict | None]:
        raise OSError("disk full")

    async def go() -> None:
        commits = GroupCommit(Store(f"sqlite:///{tmp_path / 'x.sqlite3'}"), broken)
        results = await asyncio.gather(
            *(commits.append(_append(n)) for n in (1, 2)), return_exceptions=True
        )
        assert [type(r) for r in results] == [OSError, OSError]
        assert commits.batches == 0

    asyncio.run(go())


async def _table(base: str, seed: int) -> tuple[str, PlayerClient, PlayerClient]:
    """A started two-seat game of two connected humans."""
    body = {"name": "Anna", "edition": "basic", "players": 2, "seed": seed}
    st, made = await http(base, "POST", "/api/tables", body)
    assert st == 201, made
    code = made["code"]
    st, joined = await http(base, "POST", f"/api/tables/{code}/join", {"name": "Ben"})
    assert st == 200, joined
    anna = PlayerClient(base, code, made["token"], seed=1)
    ben = PlayerClient(base, code, joined["token"], seed=2)
    await anna.connect()
    await ben.connect()
    st, _ = await http(base, "POST", f"/api/tables/{code}/start", token=made["token"])
    assert st == 200
    for c in (anna, ben):
        while c.view is None:
            await c.recv()
    return code, anna, ben


def _mover(a: PlayerClient, b: PlayerClient) -> PlayerClient:
    mover = a if a.legal else b
    assert mover.legal
    return mover


async def _acked(c: PlayerClient, ref: str) -> dict[str, Any]:
    while True:
        msg = await c.recv(timeout=20)
        if msg["type"] == "update" and msg.get("ack") == ref:
            return msg


def test_a_move_is_answered_only_after_its_batch_commits(sqlite_url: str) -> None:
    """Table A's move is held inside its batch's write; table B's move, sent meanwhile, waits
    for the next batch. Neither is stored or sent before its own commit, and each update
    arrives with its move in the database."""

    async def go() -> None:
        app_config = config(sqlite_url)
        app = create_app(app_config)
        async with running(app_config, app=app) as base:
            hub = hub_of(app)
            store, commits = hub.store, hub.tables.commits
            commits.inline = False  # the batch is held in the writer thread, not in the loop
            code_a, *players_a = await _table(base, 3)
            code_b, *players_b = await _table(base, 4)
            a, b = _mover(*players_a), _mover(*players_b)
            id_a = (await hub.by_code(code_a)).id
            id_b = (await hub.by_code(code_b)).id
            held = Hold(store, "append_actions")
            await a.send({"type": "act", "id": "a1", "version": 0,
                          "action": a.legal[0]["action"]})  # fmt: skip
            await held.entered.wait()  # A's batch is in its write, held before it stores
            await b.send({"type": "act", "id": "b1", "version": 0,
                          "action": b.legal[0]["action"]})  # fmt: skip
            while not commits._queue:  # B's move waits for the next batch
                await asyncio.sleep(0.005)
            assert store.version(id_a) == 0 and store.version(id_b) == 0
            for c in (*players_a, *players_b):
                with pytest.raises(TimeoutError):
                    while True:  # nobody is told of a move not stored
                        assert (await c.recv(timeout=0.2))["type"] != "update"
            batches = commits.batches
            held.release()
            await _acked(a, "a1")
            assert store.version(id_a) == 1  # stored before it was acknowledged
            await _acked(b, "b1")
            assert store.version(id_b) == 1
            assert commits.batches == batches + 2  # A's batch, then B's
            for c in (*players_a, *players_b):
                await c.close()

    asyncio.run(go())


def _two_tables(store: Store) -> list[int]:
    store.migrate()
    ids = []
    for code in ("AAAAAA", "BBBBBB"):
        table_id = store.create_table(
            code=code, edition="classic", players=2, options={}, seed=1, timer=None,
            public=False, spectator_chat=True, seats=[SeatRow(0, "human"), SeatRow(1, "human")],
        )  # fmt: skip
        assert table_id is not None
        store.start(table_id)
        ids.append(table_id)
    return ids


@pytest.mark.parametrize("dialect", ["sqlite", "postgresql"])
def test_sqlite_batches_are_written_in_the_loop_and_postgresql_ones_by_the_writer_thread(
    dialect: str, request: pytest.FixtureRequest
) -> None:
    """SQLite's commit waits for no disk (WAL, ``synchronous=NORMAL``): the drain task writes
    the batch in its own step; PostgreSQL's batches go to the one writer thread. Either way
    the appends of one step share a batch, and each is stored when its append returns."""
    store = Store(request.getfixturevalue("sqlite_url" if dialect == "sqlite" else "pg_url"))
    request.addfinalizer(store.close)
    ids = _two_tables(store)

    async def go() -> None:
        before = set(threading.enumerate())  # other tests' writers may still wait
        commits = GroupCommit(store)
        assert commits.inline is (dialect == "sqlite")
        await asyncio.gather(*(commits.append(_append(t)) for t in ids))
        assert [store.version(t) for t in ids] == [1, 1]
        assert (commits.batches, commits.appends) == (1, 2)
        writers = [t for t in set(threading.enumerate()) - before if t.name == "citadels-writer"]
        assert bool(writers) is (dialect == "postgresql")
        commits.close()
        assert not any(t.is_alive() for t in writers)
        assert commits._thread._conn is None  # its connection let go, in either mode

    asyncio.run(go())


@pytest.mark.parametrize("bot_delay", [0.0, 0.01])
def test_the_bots_moves_after_a_move_are_stored_with_it_and_sent_one_by_one(
    sqlite_url: str, bot_delay: float
) -> None:
    """A person's move and the bots' moves that follow it at once (no pause between bots) are
    one append: one batch, one commit. Each move still reaches the person as an update of its
    own, in order, each version one more than the last, the first one acknowledging the act;
    every one of them is in the database by the time it arrives. Where the bots pause before
    they move (``bot_delay``), each move is a batch of its own."""

    async def go() -> None:
        app_config = config(sqlite_url, bot_delay=bot_delay)
        app = create_app(app_config)
        async with running(app_config, app=app) as base:
            hub = hub_of(app)
            store, commits = hub.store, hub.tables.commits
            body = {"name": "Anna", "edition": "classic", "players": 4, "seed": 11,
                    "bots": {"1": "random", "2": "random", "3": "random"}}  # fmt: skip
            st, made = await http(base, "POST", "/api/tables", body)
            assert st == 201, made
            anna = PlayerClient(base, made["code"], made["token"], seed=5)
            await anna.connect()
            st, _ = await http(base, "POST", f"/api/tables/{made['code']}/start",
                               token=made["token"])  # fmt: skip
            assert st == 200
            table_id = (await hub.by_code(made["code"])).id
            chains = 0
            for _ in range(60):
                while not anna.legal and anna.result is None:
                    await anna.recv(timeout=20)
                if anna.result is not None:
                    break
                batches, appends, before = commits.batches, commits.appends, anna.version
                ref = await anna.act(anna.rng.choice(anna.legal)["action"])
                updates = []
                while not updates or (not anna.legal and anna.result is None):
                    msg = await anna.recv(timeout=20)
                    if msg["type"] == "update":
                        assert store.version(table_id) >= msg["version"]  # stored first
                        updates.append(msg)
                assert updates[0]["ack"] == ref and updates[0]["by"] == 0
                assert [u["version"] for u in updates] == list(
                    range(before + 1, before + 1 + len(updates))
                )
                assert all("ack" not in u and u["by"] != 0 for u in updates[1:])
                # Anna's move and the bots' after it: one batch (a chain longer than CHAIN_MAX
                # goes on in the next one); with a pause, a batch per move.
                per_batch = CHAIN_MAX if bot_delay == 0 else 1
                assert commits.batches == batches + -(-len(updates) // per_batch)
                assert commits.appends == appends + len(updates)
                chains += len(updates) > 1
            assert chains >= 3  # the bots did move after Anna, several times
            await anna.close()

    asyncio.run(go())
