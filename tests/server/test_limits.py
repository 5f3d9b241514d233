"""Per-client limits (issue 23, item 5): HTTP requests per address in token buckets (``429``
with ``Retry-After`` and the protocol's JSON error), open sockets per address, spectators
per table. Each test turns the limit it checks down so that a handful of requests reach it;
the buckets' clock is fixed where a refill must not happen."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import httpx
import pytest
import websockets

from citadels.server import ServerConfig
from citadels.server.client import PlayerClient, http
from citadels.server.limits import Buckets, Limits, Rate, client_key
from tests.server.conftest import config, running
from tests.server.test_hostile import closed_with

#: A bucket that does not refill while a test runs.
STILL = 1e-6


def limited(db: str, **limits: Any) -> ServerConfig:
    return config(db, limits=Limits(**limits))


async def refused(base: str, code: str) -> tuple[dict[str, Any], int]:
    """Open ``/ws/{code}`` and read what a refused socket gets: an error, then the close."""
    url = base.replace("http://", "ws://") + f"/ws/{code}"
    async with websockets.connect(url) as ws:
        msg = json.loads(await ws.recv())
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.recv()
    assert closed.value.rcvd is not None
    return msg, closed.value.rcvd.code


def test_table_creation_is_throttled_with_429_and_retry_after(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(limited(sqlite_url, create=Rate(STILL, 2))) as base:
            for _ in range(2):
                status, _made = await http(base, "POST", "/api/tables", {"name": "Anna"})
                assert status == 201
            async with httpx.AsyncClient(base_url=base) as client:
                r = await client.post("/api/tables", json={"name": "Anna"})
            assert r.status_code == 429
            assert int(r.headers["retry-after"]) >= 1
            assert r.headers["content-type"] == "application/json"
            assert r.json()["error"]["code"] == "rate_limited" and r.json()["error"]["message"]
            # Nothing was created, and what is not creation still answers.
            status, listing = await http(base, "GET", "/api/tables")
            assert status == 200 and len(listing["tables"]) == 2
            status, info = await http(base, "GET", "/api/info")
            assert status == 200 and info["limits"]["create"] == {
                "per_second": STILL,
                "burst": 2,
            }

    asyncio.run(go())


def test_guessing_table_codes_is_throttled_over_http_and_websocket(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(limited(sqlite_url, tables=Rate(STILL, 5))) as base:
            for i in range(5):
                status, _body = await http(base, "GET", f"/api/tables/QQQQQ{i}")
                assert status == 404
            status, body = await http(base, "GET", "/api/tables/QQQQQQ")
            assert status == 429 and body["error"]["code"] == "rate_limited"
            # The WebSocket names a code too: refused with an error and 4429.
            err, close = await refused(base, "QQQQQQ")
            assert err["type"] == "error" and err["code"] == "rate_limited"
            assert close == 4429
            # Other requests are not counted against the table codes.
            status, _info = await http(base, "GET", "/api/info")
            assert status == 200

    asyncio.run(go())


def test_every_request_counts_against_the_address(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(limited(sqlite_url, requests=Rate(STILL, 3))) as base:
            paths = ("/api/info", "/healthz", "/static/nothing", "/api/info")
            got = [(await http(base, "GET", path))[0] for path in paths]
            assert got == [200, 200, 404, 429]

    asyncio.run(go())


def test_throttle_off_lets_one_address_through(sqlite_url: str) -> None:
    async def go() -> None:
        cfg = limited(sqlite_url, throttle=False, create=Rate(STILL, 1), sockets=1)
        async with running(cfg) as base:
            made = [await http(base, "POST", "/api/tables", {"name": "Anna"}) for _ in range(3)]
            assert [st for st, _ in made] == [201, 201, 201]
            code = made[0][1]["code"]
            watchers = [PlayerClient(base, code) for _ in range(3)]
            for w in watchers:
                assert (await w.connect())["type"] == "snapshot"
            for w in watchers:
                await w.close()

    asyncio.run(go())


def test_sockets_per_address_are_capped(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(limited(sqlite_url, sockets=2)) as base:
            _st, made = await http(base, "POST", "/api/tables", {"name": "Anna"})
            code = made["code"]
            a, b = (PlayerClient(base, code) for _ in range(2))
            assert (await a.connect())["type"] == "snapshot"
            assert (await b.connect())["type"] == "snapshot"
            err, close = await refused(base, code)
            assert err["type"] == "error" and err["code"] == "too_many_connections"
            assert close == 4430
            # One closes: its place is free again.
            await a.close()
            d = PlayerClient(base, code, made["token"])
            first: dict[str, Any] = {}
            for _ in range(200):  # the server sees the close a moment later
                with contextlib.suppress(websockets.ConnectionClosed):
                    first = await d.connect()
                if first.get("type") == "snapshot":
                    break
                await asyncio.sleep(0.05)
            assert first["type"] == "snapshot" and first["you"]["seat"] == 0
            await b.close()
            await d.close()

    asyncio.run(go())


def test_spectators_per_table_are_capped(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(limited(sqlite_url, spectators=2)) as base:
            _st, made = await http(base, "POST", "/api/tables", {"name": "Anna"})
            code = made["code"]
            watchers = [PlayerClient(base, code) for _ in range(3)]
            assert (await watchers[0].connect())["type"] == "snapshot"
            assert (await watchers[1].connect())["type"] == "snapshot"
            err = await watchers[2].connect()
            assert err["type"] == "error" and err["code"] == "spectators_full"
            assert await closed_with(watchers[2]) == 4431
            # Players are not spectators: the host still connects.
            anna = PlayerClient(base, code, made["token"])
            snap = await anna.connect()
            assert snap["type"] == "snapshot" and snap["you"]["seat"] == 0
            # Another table has its own spectators.
            _st, other = await http(base, "POST", "/api/tables", {"name": "Ben"})
            elsewhere = PlayerClient(base, other["code"])
            assert (await elsewhere.connect())["type"] == "snapshot"
            for c in (*watchers[:2], anna, elsewhere):
                await c.close()

    asyncio.run(go())


def test_buckets_refill_at_their_rate_and_take_all_or_nothing() -> None:
    now = [100.0]
    buckets = Buckets(lambda: now[0])
    fast, slow = Rate(10.0, 2.0), Rate(1.0, 1.0)
    assert buckets.take("a", [("x", fast), ("y", slow)]) is None
    # y is empty: refused, and x keeps its token.
    wait = buckets.take("a", [("x", fast), ("y", slow)])
    assert wait == pytest.approx(1.0)
    assert buckets.take("a", [("x", fast)]) is None
    assert buckets.take("a", [("x", fast)]) == pytest.approx(0.1)
    assert buckets.take("b", [("x", fast)]) is None  # another address
    now[0] += 1.0
    assert buckets.take("a", [("x", fast), ("y", slow)]) is None


def test_full_buckets_are_forgotten() -> None:
    now = [0.0]
    buckets = Buckets(lambda: now[0])
    rate = Rate(1.0, 5.0)
    for i in range(5000):
        buckets.take(f"10.0.{i // 256}.{i % 256}", [("r", rate)])
    assert len(buckets) == 5000  # none is full again yet
    now[0] += 10.0
    for i in range(5000):
        buckets.take(f"10.1.{i // 256}.{i % 256}", [("r", rate)])
    assert len(buckets) <= 5000


def test_an_ipv6_subscriber_is_one_address() -> None:
    def key(host: str) -> str:
        return client_key({"client": (host, 1234)})

    assert key("2001:db8:1:2:3:4:5:6") == key("2001:db8:1:2:ffff::1") == "2001:db8:1:2::/64"
    assert key("2001:db8:1:3::1") != key("2001:db8:1:2::1")
    assert key("::ffff:10.0.0.1") == key("10.0.0.1") == "10.0.0.1"
    assert key("10.0.0.1") != key("10.0.0.2")


def test_codes_are_long_grouped_and_unambiguous() -> None:
    from citadels.server import tokens

    codes = {tokens.new_code() for _ in range(200)}
    assert len(codes) == 200
    for code in codes:
        groups = code.split("-")
        assert [len(g) for g in groups] == [4, 4, 4, 4]
        assert set("".join(groups)) <= set(tokens.CODE_ALPHABET)
        assert tokens.normal_code(code.lower().replace("-", "")) == code
    assert not set("01ILO") & set(tokens.CODE_ALPHABET)
    assert len(tokens.CODE_ALPHABET) ** tokens.CODE_LENGTH > 7 * 10**23
    # The six-character codes given before stay valid; other shapes are not codes.
    assert tokens.normal_code("k7qm2x") == "K7QM2X"
    for bad in ("K7QM2", "K7QM-2XPA-9HJC-R4T", "K7QM-2XPA-9HJC-R4TO", "../../etc", ""):
        assert tokens.normal_code(bad) is None


def test_replay_pages_are_built_once_and_one_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A finished game's replay page is built once and then served from the cache, and the
    process builds one page at a time however many are asked for at once."""
    import threading
    import time
    from types import SimpleNamespace

    from citadels.server import replay

    calls: list[int] = []
    running_now = [0, 0]  # now, most at once
    guard = threading.Lock()

    def fake_build(_store: Any, _row: Any, start: int, *_args: Any) -> dict[str, Any]:
        with guard:
            calls.append(start)
            running_now[0] += 1
            running_now[1] = max(running_now[1], running_now[0])
        time.sleep(0.005)  # room for another build to overlap, were it allowed to
        with guard:
            running_now[0] -= 1
        return {"from": start}

    monkeypatch.setattr(replay, "build", fake_build)
    pages = replay.Replays(store=None)  # type: ignore[arg-type]
    row: Any = SimpleNamespace(id=1)

    async def go() -> None:
        first = await pages.page(row, 0, 500, "en", None)
        assert await pages.page(row, 0, 500, "en", None) is first
        assert calls == [0]
        await pages.page(row, 0, 500, "fa", None)
        await pages.page(row, 0, 500, "en", 1)
        assert len(calls) == 3
        got = await asyncio.gather(*(pages.page(row, i, 10, "en", None) for i in range(20)))
        assert [g["from"] for g in got] == list(range(20))
        assert running_now[1] == 1
        # Only the last pages are kept: the first one is built again.
        before = len(calls)
        await pages.page(row, 0, 500, "en", None)
        assert len(calls) == before + 1

    asyncio.run(go())
