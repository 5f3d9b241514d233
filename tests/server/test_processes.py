"""Real server processes: a restart in the middle of a game, and two processes sharing one
table through PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from pathlib import Path

from citadels.engine.game import new_game
from citadels.server.client import PlayerClient, http
from citadels.server.storage import Store
from tests.server.conftest import ServerProcess


def replayed_result(db: str, code: str) -> dict[str, object]:
    store = Store(db)
    row = store.table_by_code(code)
    assert row is not None and row.status == "finished"
    game = new_game(row.edition, row.players, seed=row.seed, **row.options)
    for _seat, action in store.actions(row.id):
        game.apply_json(action)
    store.close()
    assert game.is_over and game.result().to_json() == row.result
    return game.result().to_json()


def test_kill_the_server_mid_game_start_it_again_and_finish(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'restart.sqlite3'}"
    log = tmp_path / "server.log"
    server = ServerProcess(db, grace=30)
    server.start(log)
    try:

        async def first_half() -> tuple[str, str, PlayerClient]:
            st, made = await http(server.base, "POST", "/api/tables",
                                  {"name": "Anna", "edition": "classic", "players": 3,
                                   "bots": {"1": "random", "2": "easy"}})  # fmt: skip
            assert st == 201
            code, token = made["code"], made["token"]
            me = PlayerClient(server.base, code, token, seed=2)
            await me.connect()
            await http(server.base, "POST", f"/api/tables/{code}/start", token=token)
            acted = -1
            while me.version < 40:
                if me.legal and me.version != acted:
                    acted = me.version
                    await me.act(me.legal[0]["action"])
                await me.recv()
            return code, token, me

        code, token, me = asyncio.run(first_half())
        seen_version, seen_events = me.version, list(me.events)
        server.kill()  # SIGKILL: no chance to tidy up
        server.start(log)

        async def second_half() -> PlayerClient:
            again = PlayerClient(server.base, code, token, seed=3)
            again.events = seen_events
            again.event_count = len(seen_events)
            snap = await again.connect()
            assert snap["type"] == "snapshot" and snap["version"] >= seen_version
            assert [e["n"] for e in again.events] == list(range(len(again.events)))
            assert snap["table"]["status"] == "playing"
            await again.play(timeout=240)
            await again.close()
            return again

        again = asyncio.run(second_half())
        assert again.result is not None
        assert again.result == replayed_result(db, code)
        # What the first process had sent is still the start of the game's log.
        assert again.events[: len(seen_events)] == seen_events
    finally:
        server.stop()


def test_two_processes_share_a_table_through_postgresql_and_redis(
    tmp_path: Path, pg_url: str, redis_url: str
) -> None:
    channel = f"citadels:test:{uuid.uuid4().hex}"
    a = ServerProcess(pg_url, redis=redis_url, channel=channel, grace=30)
    b = ServerProcess(pg_url, redis=redis_url, channel=channel, grace=30)
    a.start(tmp_path / "a.log")
    b.start(tmp_path / "b.log")
    try:

        async def go() -> tuple[str, list[PlayerClient]]:
            st, made = await http(a.base, "POST", "/api/tables",
                                  {"name": "Anna", "edition": "classic", "players": 4,
                                   "preset": "dark_city",
                                   "bots": {"3": "random"}})  # fmt: skip
            assert st == 201
            code = made["code"]
            # Ben and Cy join through the other process.
            st, ben = await http(b.base, "POST", f"/api/tables/{code}/join", {"name": "Ben"})
            assert st == 200 and ben["seat"] == 1
            st, cy = await http(b.base, "POST", f"/api/tables/{code}/join", {"name": "Cy"})
            assert st == 200 and cy["seat"] == 2
            anna = PlayerClient(a.base, code, made["token"], seed=1)
            benc = PlayerClient(b.base, code, ben["token"], seed=2)
            cyc = PlayerClient(a.base, code, cy["token"], seed=3)
            spec = PlayerClient(b.base, code)
            for c in (anna, benc, cyc, spec):
                await c.connect()
            st, _ = await http(b.base, "POST", f"/api/tables/{code}/start", token=made["token"])
            assert st == 200

            async def watch() -> None:
                while spec.result is None:
                    await spec.recv(timeout=60)

            await asyncio.gather(
                anna.play(timeout=300), benc.play(timeout=300), cyc.play(timeout=300), watch()
            )
            for c in (anna, benc, cyc, spec):
                await c.close()
            return code, [anna, benc, cyc, spec]

        try:
            code, clients = asyncio.run(go())
        except Exception as exc:  # name what the servers said, to find a stall's cause
            logs = {n: (tmp_path / f"{n}.log").read_text()[-3000:] for n in ("a", "b")}
            raise AssertionError(f"the shared game stalled: {exc!r}; server logs: {logs}") from exc
        final = clients[0].version
        for c in clients:
            # Each saw every move, once and in order, whichever process it was connected to.
            # (A process that learns of the start late sends a snapshot of the current version
            # in place of the first updates.)
            versions = [
                m["version"]
                for m in c.received
                if m["type"] == "update" or (m["type"] == "snapshot" and m["view"] is not None)
            ]
            assert versions == list(range(versions[0], final + 1)) and versions[0] <= 2
            assert [e["n"] for e in c.events] == list(range(len(c.events)))
            assert c.result == clients[0].result
            assert not [e for e in c.errors if e["code"] != "stale_version"]
        assert clients[0].result == replayed_result(pg_url, code)
        # No stand-in ever played for a connected player.
        for c in clients[:3]:
            assert not any(
                m["type"] == "table" and any(s["away"] for s in m["table"]["seats"])
                for m in c.received
            )
    finally:
        a.stop()
        b.stop()


def test_a_process_that_dies_leaves_its_seats_to_the_stand_in(
    tmp_path: Path, pg_url: str, redis_url: str
) -> None:
    """Ben's only connection is on process A, which is killed mid-game: its heartbeats stop,
    process B forgets A's connections and hands Ben's seat to the stand-in, and Anna (on B)
    plays the game to its end."""
    channel = f"citadels:test:{uuid.uuid4().hex}"
    a = ServerProcess(pg_url, redis=redis_url, channel=channel, grace=0.3, heartbeat=0.5)
    b = ServerProcess(pg_url, redis=redis_url, channel=channel, grace=0.3, heartbeat=0.5)
    a.start(tmp_path / "a.log")
    b.start(tmp_path / "b.log")
    try:

        async def go() -> PlayerClient:
            st, made = await http(b.base, "POST", "/api/tables",
                                  {"name": "Anna", "edition": "basic", "players": 3,
                                   "bots": {"2": "random"}, "seed": 4})  # fmt: skip
            assert st == 201
            code = made["code"]
            st, ben = await http(b.base, "POST", f"/api/tables/{code}/join", {"name": "Ben"})
            assert st == 200 and ben["seat"] == 1
            anna = PlayerClient(b.base, code, made["token"], seed=1)
            benc = PlayerClient(a.base, code, ben["token"], seed=2)
            await anna.connect()
            await benc.connect()
            # B hears of Ben's connection on A before the game starts.
            seen = anna.received[-1]
            while "table" not in seen or not seen["table"]["seats"][1]["connected"]:
                seen = await anna.recv()
            st, _ = await http(b.base, "POST", f"/api/tables/{code}/start", token=made["token"])
            assert st == 200
            playing = asyncio.create_task(benc.play(timeout=120))
            acted = -1
            while anna.version < 15 or anna.view is None:
                if anna.legal and anna.version != acted:
                    acted = anna.version
                    await anna.act(anna.choose(anna.legal, anna.view or {}))
                await anna.recv()
            playing.cancel()
            await asyncio.gather(playing, return_exceptions=True)
            assert not any(
                m["type"] == "table" and m["table"]["seats"][1]["away"] for m in anna.received
            )
            a.kill()  # Ben's connection dies with A, which never says so
            await anna.play(timeout=120)
            away = [m for m in anna.received if m["type"] == "table"]
            assert any(m["table"]["seats"][1]["away"] for m in away)
            assert any(not m["table"]["seats"][1]["connected"] for m in away)
            await anna.close()
            return anna

        try:
            anna = asyncio.run(go())
        except Exception as exc:
            logs = {n: (tmp_path / f"{n}.log").read_text()[-3000:] for n in ("a", "b")}
            raise AssertionError(f"the game stalled: {exc!r}; server logs: {logs}") from exc
        row = Store(pg_url)
        try:
            table = row.list_tables("finished", public_only=False)[0]
        finally:
            row.close()
        assert anna.result == replayed_result(pg_url, table.code)
    finally:
        a.stop()
        b.stop()


def test_kill_under_load_loses_no_acknowledged_move(tmp_path: Path) -> None:
    """Eight tables played as fast as their clients and bots can (their moves sharing group
    commits), the server killed with SIGKILL in the middle: every move any client was told
    of is in the database, and each table's stored actions replay to at least what its
    client saw."""
    db = f"sqlite:///{tmp_path / 'load.sqlite3'}"
    server = ServerProcess(db, grace=30)
    server.start(tmp_path / "server.log")
    try:

        async def table(n: int) -> tuple[str, PlayerClient]:
            st, made = await http(server.base, "POST", "/api/tables",
                                  {"name": "Anna", "edition": "classic", "players": 3,
                                   "bots": {"1": "random", "2": "random"}})  # fmt: skip
            assert st == 201
            me = PlayerClient(server.base, made["code"], made["token"], seed=n)
            await me.connect()
            await http(server.base, "POST", f"/api/tables/{made['code']}/start",
                       token=made["token"])  # fmt: skip
            return made["code"], me

        async def play(me: PlayerClient) -> None:
            acted = -1
            with contextlib.suppress(Exception):  # the connection dies with the server
                while me.result is None:
                    if me.legal and me.version != acted:
                        acted = me.version
                        await me.act(me.legal[0]["action"])
                    await me.recv(timeout=30)

        async def run() -> list[tuple[str, PlayerClient]]:
            tables = [await table(n) for n in range(8)]
            playing = [asyncio.create_task(play(me)) for _, me in tables]
            while sum(me.version for _, me in tables) < 400:
                await asyncio.sleep(0.05)
            await asyncio.to_thread(server.kill)  # mid-play: moves in flight everywhere
            await asyncio.wait(playing, timeout=60)
            return tables

        tables = asyncio.run(run())
        store = Store(db)
        try:
            for code, me in tables:
                row = store.table_by_code(code)
                assert row is not None and row.version >= me.version, (code, me.version)
                game = new_game(row.edition, row.players, seed=row.seed, **row.options)
                for _seat, action in store.actions(row.id):
                    game.apply_json(action)
                assert len(game.actions) == row.version and game.log_size >= me.event_count
        finally:
            store.close()
    finally:
        server.stop()
