"""Turn-based tables (issue 28): a turn timer of hours or days, run by a clock the test moves
(nothing sleeps); the table's rule when it runs out (a stand-in, or a skip), logged for every
player; the deadline kept across a restart; and the strict checks of the new fields."""

from __future__ import annotations

import asyncio
from typing import Any

from citadels.engine.game import new_game
from citadels.server import replay
from citadels.server.client import PlayerClient, http
from citadels.server.clock import Clock
from citadels.server.limits import Limits
from citadels.server.storage import Store
from citadels.server.turns import skip_action
from tests.server.conftest import config, running

HOUR = 3600 * 1000
DAY = 24 * HOUR
START = 1_800_000_000_000  # epoch ms: a fixed moment


class FakeClock(Clock):
    """A clock that moves only when the test says (:meth:`advance`)."""

    def __init__(self, now: int = START) -> None:
        self.now = now
        self._waiting: list[tuple[int, asyncio.Future[None]]] = []

    def now_ms(self) -> int:
        return self.now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((self.now + round(seconds * 1000), fut))
        try:
            await fut
        finally:
            self._waiting = [(at, f) for at, f in self._waiting if f is not fut]

    def advance(self, ms: int) -> None:
        """Move the time on and wake every sleeper whose time has come."""
        self.now += ms
        for at, fut in self._waiting:
            if at <= self.now and not fut.done():
                fut.set_result(None)


async def _table(base: str, **extra: Any) -> tuple[str, list[str]]:
    """A started two-seat turn-based table (a fixed seed): its code and the seats' tokens."""
    body = {"name": "Anna", "players": 2, "seed": 5, "turn_timer": 86400, **extra}
    status, made = await http(base, "POST", "/api/tables", body)
    assert status == 201, made
    assert made["table"]["turn_timer"] == 86400
    code = made["code"]
    status, joined = await http(base, "POST", f"/api/tables/{code}/join", {"name": "Ben"})
    assert status == 200, joined
    status, started = await http(base, "POST", f"/api/tables/{code}/start", token=made["token"])
    assert status == 200, started
    return code, [made["token"], joined["token"]]


async def _settle() -> None:
    """Let every task that can run now run (no clock moves)."""
    for _ in range(20):
        await asyncio.sleep(0.01)


async def _version(base: str, code: str) -> int:
    status, info = await http(base, "GET", f"/api/tables/{code}")
    assert status == 200
    return int(info["version"])


async def _until(client: PlayerClient, test: Any, timeout: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not test():
        await client.recv(timeout=max(0.1, end - loop.time()))


async def _run_out(rule: str, sqlite_url: str) -> None:
    clock = FakeClock()
    async with running(config(sqlite_url, clock=clock)) as base:
        code, tokens = await _table(base, on_timeout=rule)
        first = new_game("classic", 2, seed=5)
        mover = first.to_move
        assert mover is not None
        other = 1 - mover
        # The player to move opens the table once, sees the deadline and leaves.
        gone = PlayerClient(base, code, tokens[mover])
        snap = await gone.connect()
        assert snap["deadline"] == START + DAY
        await gone.close()
        watcher = PlayerClient(base, code, tokens[other])
        snap = await watcher.connect()
        assert snap["deadline"] == START + DAY and snap["timeouts"] == []
        # 23 hours: nobody plays for the absent player, and nobody marks them away.
        clock.advance(23 * HOUR)
        await _settle()
        assert await _version(base, code) == 0
        _status, info = await http(base, "GET", f"/api/tables/{code}")
        assert not any(s["away"] for s in info["seats"])
        # 24 hours: the rule plays their whole turn, and every player is told.
        clock.advance(HOUR)
        await _until(watcher, lambda: watcher.timeouts and watcher.legal)
        [out] = watcher.timeouts
        assert (out["seat"], out["rule"], out["deadline"]) == (mover, rule, START + DAY)
        assert out["version"] == 0 and out["event_count"] == len(first.state.log)
        # The next player's turn has a deadline of its own, a day from now.
        assert watcher.view is not None and watcher.view["to_move"] == other
        assert watcher.deadline == START + DAY + DAY
        store = Store(sqlite_url)
        try:
            row = store.table_by_code(code)
            assert row is not None
            played = store.actions(row.id)
            # A replay of the game shows the timeout in its log too.
            page = replay.build(store, row, 0, 5, "en", None)
            assert [u["id"] for u in page["timeouts"]] == [out["id"]]
        finally:
            store.close()
        assert played and all(seat == mover for seat, _ in played)
        if rule == "skip":
            # The skip is the engine's own smallest legal step (turns.skip_action).
            assert played[0][1] == skip_action(first).to_json()
        # A newcomer's snapshot holds the timeout too.
        late = PlayerClient(base, code)
        snap = await late.connect()
        assert [u["id"] for u in snap["timeouts"]] == [out["id"]]
        await late.close()
        # The other player, not connected now, is waited for a day as well.
        await watcher.close()
        version = await _version(base, code)
        clock.advance(DAY - 1)
        await _settle()
        assert await _version(base, code) == version
        clock.advance(1)
        for _ in range(200):
            if await _version(base, code) > version:
                break
            await asyncio.sleep(0.02)
        assert await _version(base, code) > version


def test_a_day_long_turn_runs_out_and_a_stand_in_plays_it(sqlite_url: str) -> None:
    asyncio.run(_run_out("stand_in", sqlite_url))


def test_a_day_long_turn_runs_out_and_is_skipped(sqlite_url: str) -> None:
    asyncio.run(_run_out("skip", sqlite_url))


def test_the_deadline_survives_a_restart(sqlite_url: str) -> None:
    async def go() -> None:
        clock = FakeClock()
        async with running(config(sqlite_url, clock=clock)) as base:
            code, _tokens = await _table(base, on_timeout="skip")
            clock.advance(20 * HOUR)
            await _settle()
        # Another server on the same database, three hours later.
        clock = FakeClock(START + 23 * HOUR)
        async with running(config(sqlite_url, clock=clock)) as base:
            spectator = PlayerClient(base, code)
            snap = await spectator.connect()
            assert snap["deadline"] == START + DAY and snap["version"] == 0
            clock.advance(HOUR - 1)
            await _settle()
            assert await _version(base, code) == 0
            clock.advance(1)
            await _until(spectator, lambda: spectator.timeouts and spectator.version > 0)
            assert spectator.timeouts[0]["deadline"] == START + DAY
            await spectator.close()

    asyncio.run(go())


BAD_CREATES: list[tuple[dict[str, Any], str]] = [
    ({"turn_timer": "86400"}, "bad_request"),
    ({"turn_timer": 86400.0}, "bad_request"),
    ({"turn_timer": True}, "bad_request"),
    ({"turn_timer": 3599}, "bad_request"),
    ({"turn_timer": 14 * 86400 + 1}, "bad_request"),
    ({"turn_timer": -1}, "bad_request"),
    ({"turn_timer": 86400, "timer": 60}, "bad_request"),
    ({"turn_timer": 86400, "on_timeout": "pass"}, "bad_request"),
    ({"turn_timer": 86400, "on_timeout": 1}, "bad_request"),
    ({"on_timeout": "skip"}, "bad_request"),
    ({"turn_timer": 86400, "turn_timers": 1}, "malformed"),
    ({"turn_timer": 86400, "on_timeout": "skip", "deadline": 5}, "malformed"),
]


def test_strict_input_on_the_turn_based_fields(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(config(sqlite_url, limits=Limits(throttle=False))) as base:
            status, info = await http(base, "GET", "/api/info")
            assert info["turn_timer"] == {"min": 3600, "max": 14 * 86400, "default": 86400}
            assert info["on_timeout"] == ["stand_in", "skip"]
            for extra, code in BAD_CREATES:
                status, got = await http(base, "POST", "/api/tables", {"name": "A", **extra})
                assert status == 400 and got["error"]["code"] == code, (extra, got)
            status, listed = await http(base, "GET", "/api/tables?status=open")
            assert listed["tables"] == []  # nothing was made
            for turn_timer in (3600, 14 * 86400):
                status, made = await http(
                    base, "POST", "/api/tables", {"name": "A", "turn_timer": turn_timer}
                )
                assert status == 201, made
                assert made["table"]["turn_timer"] == turn_timer
                assert made["table"]["on_timeout"] == "stand_in"
                assert made["table"]["timer"] is None

    asyncio.run(go())


def test_a_live_table_still_hands_an_absent_seat_to_the_stand_in(sqlite_url: str) -> None:
    """The turn-based rules change nothing at a live table (``turn_timer`` null)."""

    async def go() -> None:
        async with running(config(sqlite_url, grace=0.05)) as base:
            _status, made = await http(base, "POST", "/api/tables", {"name": "A", "players": 2})
            assert made["table"]["turn_timer"] is None and made["table"]["on_timeout"] is None
            code = made["code"]
            await http(base, "POST", f"/api/tables/{code}/join", {"name": "B"})
            await http(base, "POST", f"/api/tables/{code}/start", token=made["token"])
            for _ in range(300):
                if await _version(base, code) > 4:
                    break
                await asyncio.sleep(0.02)
            assert await _version(base, code) > 4

    asyncio.run(go())
