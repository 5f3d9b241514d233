"""Presence and stand-ins without races (issue 23, item 2): a row read while a return is being
stored never brings the stand-in back, the away flags are stored in the order they were
decided, and a reconnecting mover at a timer table gets its deadline.

Each race is made deterministic by holding the away flag's database write open
(``conftest.Hold``) while the other step runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import threading
from typing import Any

from starlette.applications import Starlette

from citadels.server import create_app
from citadels.server.client import PlayerClient, http
from citadels.server.table import Table
from citadels.server.turns import now_ms
from tests.server.conftest import Hold, config, hub_of, running


async def _two_humans(base: str) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """An open two-seat table: Anna (host) and Ben."""
    body = {"name": "Anna", "edition": "basic", "players": 2, "seed": 11}
    status, made = await http(base, "POST", "/api/tables", body)
    assert status == 201, made
    code = made["code"]
    status, ben = await http(base, "POST", f"/api/tables/{code}/join", {"name": "Ben"})
    assert status == 200, ben
    return code, made, ben


async def _live(app: Starlette, code: str) -> Table:
    return await hub_of(app).by_code(code)


def _stored_away(app: Starlette, t: Table, seat: int) -> bool:
    row = hub_of(app).store.table_by_id(t.id)
    assert row is not None
    return row.seats[seat].away


async def _until_anna_moves_with_ben_away(anna: PlayerClient, t: Table) -> None:
    """Anna plays until the stand-in has played for Ben (who is not connected) and it is
    Anna's turn again."""
    acted = -1
    while not (t.row.seats[1].away and anna.legal and anna.version > 0):
        if anna.legal and anna.version != acted:
            acted = anna.version
            await anna.act(anna.legal[0]["action"])
        await anna.recv()


def test_a_page_load_while_a_return_is_stored_never_brings_the_stand_in_back(
    sqlite_url: str,
) -> None:
    async def go() -> None:
        cfg = config(sqlite_url, grace=0.1)
        app = create_app(cfg)
        async with running(cfg, app=app) as base:
            code, made, joined = await _two_humans(base)
            anna = PlayerClient(base, code, made["token"], seed=1)
            await anna.connect()
            status, _ = await http(base, "POST", f"/api/tables/{code}/start", token=made["token"])
            assert status == 200
            t = await _live(app, code)
            # Ben never connected: the stand-in plays for him and he is away.
            await _until_anna_moves_with_ben_away(anna, t)
            assert _stored_away(app, t, 1) is True

            held = Hold(hub_of(app).store, "set_away")
            ben = PlayerClient(base, code, joined["token"], seed=2)
            hello = asyncio.create_task(ben.connect())
            await held.entered.wait()
            # Ben's return is being stored; the database still says away. A page load, a
            # replay request and a lobby listing read the row meanwhile.
            status, info = await http(base, "GET", f"/api/tables/{code}")
            assert status == 200 and info["seats"][1]["away"] is False
            await http(base, "GET", f"/api/tables/{code}/replay")
            assert t.row.seats[1].away is False and t.row.seats[1].away is False
            held.release()
            snap = await hello
            assert snap["type"] == "snapshot" and snap["table"]["seats"][1]["away"] is False
            await held.done.wait()
            assert _stored_away(app, t, 1) is False and t.row.seats[1].away is False
            status, info = await http(base, "GET", f"/api/tables/{code}")
            assert info["seats"][1]["away"] is False

            # Anna plays on until Ben is to move: nobody plays for him, he plays himself.
            acted = -1
            while not ben.legal:
                if anna.legal and anna.version != acted:
                    acted = anna.version
                    await anna.act(anna.legal[0]["action"])
                await anna.recv()
                while ben.version < anna.version:
                    await ben.recv()
            assert t.game is not None and t.game.to_move == 1
            assert t.turn.task is None and not t.row.seats[1].away
            ref = await ben.act(ben.legal[0]["action"])
            mine = [m for m in ben.received if m["type"] == "update" and m["by"] == 1]
            while not mine or mine[-1].get("ack") != ref:
                msg = await ben.recv()
                if msg["type"] == "update" and msg["by"] == 1:
                    mine.append(msg)
            # Every move of Ben's seat since he came back was his own.
            assert all(m.get("ack") for m in mine if m["version"] > snap["version"])
            for c in (anna, ben):
                await c.close()

    asyncio.run(go())


class _Writes:
    """Records the order in which ``Store.set_away`` runs (the flag of each call as it
    starts), holding the first call open until :meth:`release`."""

    def __init__(self, store: Any) -> None:
        self.order: list[bool] = []
        self.first = asyncio.Event()
        self.second = asyncio.Event()
        self.both = asyncio.Event()  # both calls returned
        self._returned = 0
        loop = asyncio.get_running_loop()
        real = store.set_away
        go = threading.Event()
        self._thread_go = go

        calls = itertools.count()

        def recorded(table_id: int, seat: int, away: bool) -> Any:
            if next(calls) == 0:
                loop.call_soon_threadsafe(self.first.set)
                if not go.wait(timeout=60):
                    raise TimeoutError("the first write was never released")
            else:
                loop.call_soon_threadsafe(self.second.set)
            self.order.append(away)
            try:
                return real(table_id, seat, away)
            finally:
                self._returned += 1
                if self._returned == 2:
                    loop.call_soon_threadsafe(self.both.set)

        store.set_away = recorded

    def release(self) -> None:
        self._thread_go.set()


def test_the_stand_in_and_a_return_are_stored_in_the_order_they_were_decided(
    sqlite_url: str,
) -> None:
    async def go() -> None:
        cfg = config(sqlite_url, grace=0.1)
        app = create_app(cfg)
        async with running(cfg, app=app) as base:
            code, made, joined = await _two_humans(base)
            anna = PlayerClient(base, code, made["token"], seed=1)
            ben = PlayerClient(base, code, joined["token"], seed=2)
            await anna.connect()
            await ben.connect()
            status, _ = await http(base, "POST", f"/api/tables/{code}/start", token=made["token"])
            assert status == 200
            t = await _live(app, code)
            acted = -1
            while not ben.legal:  # Anna plays until Ben is to move
                if anna.legal and anna.version != acted:
                    acted = anna.version
                    await anna.act(anna.legal[0]["action"])
                await anna.recv()
                while ben.version < anna.version:
                    await ben.recv()
            writes = _Writes(hub_of(app).store)
            since = ben.event_count
            await ben.close()
            # Ben left on his turn: after the grace the stand-in marks him away; that write
            # is held while Ben comes back.
            await writes.first.wait()
            assert t.row.seats[1].away is True
            again = PlayerClient(base, code, joined["token"], seed=3)
            again.event_count = since
            again.events = list(ben.events)
            hello = asyncio.create_task(again.connect())
            # The return's write may not overtake the stand-in's: it must wait for it.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(writes.second.wait(), 1.0)
            assert t.row.seats[1].away is False  # in memory at once
            writes.release()
            snap = await hello
            await writes.both.wait()
            assert writes.order == [True, False]
            assert _stored_away(app, t, 1) is False and t.row.seats[1].away is False
            assert snap["table"]["seats"][1]["away"] is False
            # His decision is still his: the stand-in did not play it.
            assert snap["legal"] and snap["version"] == ben.version
            assert t.turn.task is None
            for c in (anna, again):
                await c.close()

    asyncio.run(go())


def test_a_mover_who_connects_at_a_timer_table_gets_the_deadline(sqlite_url: str) -> None:
    async def go() -> None:
        cfg = config(sqlite_url, grace=30)
        app = create_app(cfg)
        async with running(cfg, app=app) as base:
            body = {"name": "Anna", "edition": "basic", "players": 2, "bots": {"1": "random"},
                    "timer": 600, "seed": 5}  # fmt: skip
            status, made = await http(base, "POST", "/api/tables", body)
            assert status == 201
            code, token = made["code"], made["token"]
            spec = PlayerClient(base, code)
            await spec.connect()
            # The game starts with Anna not connected: her first decision has no deadline.
            status, _ = await http(base, "POST", f"/api/tables/{code}/start", token=token)
            assert status == 200
            while spec.view is None or spec.view["to_move"] != 0:
                await spec.recv()
            assert spec.received[-1].get("deadline") is None
            before = now_ms()
            anna = PlayerClient(base, code, token, seed=1)
            snap = await anna.connect()
            assert snap["legal"]
            assert snap["deadline"] is not None
            assert before + 590_000 <= snap["deadline"] <= now_ms() + 600_000
            # The others are told the deadline as soon as it is set.
            msg = await spec.recv()
            while msg["type"] != "table":
                msg = await spec.recv()
            assert msg["deadline"] == snap["deadline"]
            # Leaving and coming back does not start the countdown again.
            await anna.close()
            again = PlayerClient(base, code, token, seed=2)
            snap2 = await again.connect()
            assert snap2["deadline"] == snap["deadline"] and snap2["legal"]
            # Playing ends it; the next decision of hers has its own.
            await again.act(again.legal[0]["action"])
            while not any(m["type"] == "update" and m.get("ack") for m in again.received):
                await again.recv()
            update = next(m for m in again.received if m["type"] == "update" and m.get("ack"))
            if update["legal"]:
                assert update["deadline"] is not None and update["deadline"] >= snap["deadline"]
            else:
                assert update["deadline"] is None
            for c in (spec, again):
                await c.close()

    asyncio.run(go())


def test_presence_news_keeps_a_bots_move_under_way(sqlite_url: str) -> None:
    """A presence message from another process, a second schedule and a page load leave the
    task that will play a bot's move alone: it is not cancelled, nor made to wait longer."""

    async def go() -> None:
        cfg = config(sqlite_url, grace=30, bot_delay=600)  # the bot's move waits
        app = create_app(cfg)
        async with running(cfg, app=app) as base:
            body = {"name": "Anna", "edition": "basic", "players": 2, "bots": {"1": "random"},
                    "seed": 3}  # fmt: skip
            status, made = await http(base, "POST", "/api/tables", body)
            code, token = made["code"], made["token"]
            anna = PlayerClient(base, code, token, seed=1)
            await anna.connect()
            status, _ = await http(base, "POST", f"/api/tables/{code}/start", token=token)
            assert status == 200
            t = await _live(app, code)
            hub = hub_of(app)
            acted = -1
            while t.game is None or t.game.to_move != 1:
                if anna.legal and anna.version != acted:
                    acted = anna.version
                    await anna.act(anna.legal[0]["action"])
                await anna.recv()
            task = t.turn.task
            assert task is not None and not task.done()
            # (seat and count: the message as protocol 1's first servers sent it.)
            news = {"kind": "presence", "table": t.id, "origin": "elsewhere", "seq": 1,
                    "counts": {"0": 1}, "seat": 0, "count": 1}  # fmt: skip
            await hub.on_bus(news)
            hub.turns.schedule(t)
            await http(base, "GET", f"/api/tables/{code}")
            spec = PlayerClient(base, code)
            await spec.connect()
            assert t.turn.task is task and not task.cancelled()
            await anna.close()
            await spec.close()

    asyncio.run(go())
