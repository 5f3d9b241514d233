"""Hostile clients: each gets a clear error or a close, and the table does not change."""

from __future__ import annotations

import asyncio
import json
import socket
from typing import Any

import pytest
import websockets

import citadels.server.connection as connection
import citadels.server.lobby as lobby
import citadels.server.session as session
from citadels.server.client import PlayerClient, http
from tests.server.conftest import config, running


async def started_table(
    base: str, **setup: Any
) -> tuple[str, list[str], PlayerClient, PlayerClient]:
    """Anna and Ben at a started 2-player table (classic unless ``setup`` says otherwise)."""
    body = {"name": "Anna", "edition": "classic", "players": 2, **setup}
    _st, made = await http(base, "POST", "/api/tables", body)
    code = made["code"]
    _st, joined = await http(base, "POST", f"/api/tables/{code}/join", {"name": "Ben"})
    tokens = [made["token"], joined["token"]]
    a = PlayerClient(base, code, tokens[0])
    b = PlayerClient(base, code, tokens[1])
    await a.connect()
    await b.connect()
    await http(base, "POST", f"/api/tables/{code}/start", token=tokens[0])
    for c in (a, b):
        while c.view is None:
            await c.recv()
    return code, tokens, a, b


async def next_error(c: PlayerClient) -> dict[str, Any]:
    for _ in range(50):
        msg = await c.recv(timeout=10)
        if msg["type"] == "error":
            return msg
    raise AssertionError("no error came")


async def closed_with(c: PlayerClient) -> int:
    try:
        for _ in range(100):
            await c.recv(timeout=10)
    except websockets.ConnectionClosed as exc:
        assert exc.rcvd is not None
        return int(exc.rcvd.code)
    raise AssertionError("the connection stayed open")


async def unchanged(base: str, code: str, token: str, version: int, view: Any) -> None:
    probe = PlayerClient(base, code, token)
    snap = await probe.connect()
    assert snap["version"] == version
    assert snap["view"] == view
    await probe.close()


def test_malformed_messages_get_errors_and_change_nothing(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            code, tokens, a, b = await started_table(base)
            mover = a if a.legal else b
            token = tokens[0] if mover is a else tokens[1]
            view, version = mover.view, mover.version
            bad: list[Any] = [
                "not json",
                "[1, 2, 3]",
                json.dumps({"no": "type"}),
                json.dumps({"type": "dance"}),
                json.dumps({"type": "act", "action": "pick king", "version": 0}),
                json.dumps({"type": "act", "action": {"type": "pick"}, "version": 0}),
                json.dumps(
                    {"type": "act", "action": {"type": "pick", "character": 3}, "version": 0}
                ),
                json.dumps({"type": "act", "action": mover.legal[0]["action"], "version": "0"}),
                json.dumps(
                    {"type": "act", "action": mover.legal[0]["action"], "version": 0, "extra": 1}
                ),
                json.dumps({"type": "hello", "protocol": 1}),
                json.dumps({"type": "sync", "since": -1}),
            ]
            for raw in bad:
                await mover.send_raw(raw)
                err = await next_error(mover)
                assert err["code"] == "malformed", (raw, err)
                assert err["message"]
            await mover.send_raw(b"\x00\x01binary")
            assert (await next_error(mover))["code"] == "malformed"
            await mover.send({"type": "chat", "text": ""})
            assert (await next_error(mover))["code"] == "bad_chat"
            await mover.send({"type": "chat", "text": "x" * 301})
            assert (await next_error(mover))["code"] == "bad_chat"
            await unchanged(base, code, token, version, view)
            # Twenty malformed messages in a row close the connection.
            for _ in range(20):
                await mover.send_raw("{")
            assert await closed_with(mover) == 1003
            await unchanged(base, code, token, version, view)

    asyncio.run(go())


def test_oversized_message_closes_the_connection(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            code, tokens, a, _b = await started_table(base)
            view, version = a.view, a.version
            await a.send({"type": "chat", "text": "y" * 9000})
            err = await next_error(a)
            assert err["code"] == "too_large"
            assert await closed_with(a) == 1009
            await unchanged(base, code, tokens[0], version, view)

    asyncio.run(go())


def test_tokens_wrong_missing_and_another_seats(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            code, tokens, a, b = await started_table(base)
            view_a, version = a.view, a.version

            wrong = PlayerClient(base, code, "not-a-token")
            err = await wrong.connect()
            assert err["type"] == "error" and err["code"] == "unauthorized"
            assert await closed_with(wrong) == 4401

            # A token of another table opens nothing here.
            st, other = await http(base, "POST", "/api/tables", {"name": "Zed"})
            stranger = PlayerClient(base, code, other["token"])
            assert (await stranger.connect())["code"] == "unauthorized"

            # Without a token: a spectator, who sees no hand and cannot act.
            spec = PlayerClient(base, code)
            snap = await spec.connect()
            assert snap["you"]["spectator"] and snap["legal"] == []
            assert all("hand" not in p for p in snap["view"]["players"])
            mover = a if a.legal else b
            await spec.act(mover.legal[0]["action"], version)
            assert (await next_error(spec))["code"] == "forbidden"

            # Another seat's token is that seat: it cannot act or see for the first one.
            b2 = PlayerClient(base, code, tokens[1])
            snap = await b2.connect()
            assert snap["you"]["seat"] == 1 and "hand" not in snap["view"]["players"][0]
            if a.legal:
                await b2.act(a.legal[0]["action"], version)
                assert (await next_error(b2))["code"] == "not_your_turn"

            # Not a table at all.
            ghost = PlayerClient(base, "QQQQQQ", tokens[0])
            assert (await ghost.connect())["code"] == "not_found"
            assert await closed_with(ghost) == 4404
            # An unknown protocol.
            old = PlayerClient(base, code, tokens[0])
            old._ws = await websockets.connect(old.ws_url)
            await old.send({"type": "hello", "protocol": 99, "token": tokens[0]})
            assert (await next_error(old))["code"] == "unsupported_protocol"
            assert await closed_with(old) == 4400
            # Acting before hello.
            early = PlayerClient(base, code, tokens[0])
            early._ws = await websockets.connect(early.ws_url)
            await early.send({"type": "act", "action": {"type": "gather_gold"}, "version": 0})
            assert (await next_error(early))["code"] == "hello_required"
            await unchanged(base, code, tokens[0], version, view_a)

            # HTTP: the host's powers need the host's token.
            st, err = await http(base, "POST", f"/api/tables/{other['code']}/seats/1/bot",
                                 {"level": "easy"}, token=tokens[0])  # fmt: skip
            assert st == 401 and err["error"]["code"] == "unauthorized"
            st, err = await http(base, "POST", "/api/tables", None)
            assert st == 400 and err["error"]["code"] == "bad_name"
            for c in (a, b, spec, b2, stranger, early):
                await c.close()

    asyncio.run(go())


def test_out_of_turn_and_old_version_actions(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            code, tokens, a, b = await started_table(base)
            mover, waiting = (a, b) if a.legal else (b, a)
            first = mover.legal[0]["action"]
            await waiting.act(first)
            assert (await next_error(waiting))["code"] == "not_your_turn"
            await mover.act(first)
            while mover.version == 0:
                await mover.recv()
            # The same action again, on the old version: stale, nothing happens.
            view, version = mover.view, mover.version
            await mover.act(first, 0)
            err = await next_error(mover)
            assert err["code"] == "stale_version" and err["version"] == 1
            token = tokens[0] if mover is a else tokens[1]
            await unchanged(base, code, token, version, view)

    asyncio.run(go())


def test_floods_are_refused_then_closed(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            code, tokens, a, b = await started_table(base)
            view, version = a.view, a.version
            for _ in range(200):
                await a.send({"type": "ping"})
            codes = []
            try:
                while True:
                    msg = await a.recv(timeout=10)
                    if msg["type"] == "error":
                        codes.append(msg["code"])
            except websockets.ConnectionClosed as exc:
                assert exc.rcvd is not None and exc.rcvd.code == 4429
            assert set(codes) == {"rate_limited"} and len(codes) >= 100
            # Chat has its own, slower limit.
            for i in range(6):
                await b.send({"type": "chat", "text": f"spam {i}"})
            err = await next_error(b)
            assert err["code"] == "rate_limited"
            said = [m for m in b.received if m["type"] == "chat"]
            assert len(said) <= 5
            await unchanged(base, code, tokens[0], version, view)

    asyncio.run(go())


def test_a_client_that_does_not_read_is_closed_and_its_seat_let_go(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A connection whose outbox overflows is closed with 4413 and dropped: its seat no longer
    counts as connected (issue 23, item 3). The kernel's buffers on both sides are fixed and
    small, so the server's writer waits on the socket after a few dozen messages."""
    monkeypatch.setattr(connection, "OUTBOX_MAX", 20)
    monkeypatch.setattr(lobby, "TIMER_MIN", 1)

    async def go() -> None:
        async with running(config(sqlite_url, grace=30), sndbuf=4096) as base:
            st, made = await http(base, "POST", "/api/tables",
                                  {"name": "Ben", "edition": "basic", "players": 4, "timer": 1,
                                   "bots": {"1": "random", "2": "random", "3": "random"},
                                   "seed": 3})  # fmt: skip
            assert st == 201, made
            code, token = made["code"], made["token"]
            spectator = PlayerClient(base, code)
            await spectator.connect()
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.connect(("127.0.0.1", int(base.rsplit(":", 1)[1])))
            sock.setblocking(False)
            ben = await websockets.connect(
                f"{base.replace('http', 'ws')}/ws/{code}", sock=sock, max_queue=1
            )
            await ben.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
            while not (spectator.received[-1]["type"] == "table"
                       and spectator.received[-1]["table"]["seats"][0]["connected"]):  # fmt: skip
                await spectator.recv()
            st, _ = await http(base, "POST", f"/api/tables/{code}/start", token=token)
            assert st == 200
            # Ben never reads: his first decision goes to the stand-in when the timer runs
            # out, and the game runs on while his messages pile up.
            let_go = False
            while not let_go and spectator.result is None:
                msg = await spectator.recv(timeout=30)
                if msg["type"] == "table":
                    let_go = msg["table"]["seats"][0]["connected"] is False
            assert let_go, "the seat of a client that does not read still counts as connected"
            st, table = await http(base, "GET", f"/api/tables/{code}")
            assert table["seats"][0]["connected"] is False
            # Reading again, Ben gets what was on its way, then the close with its code.
            with pytest.raises(websockets.ConnectionClosed) as closed:
                for _ in range(10_000):
                    await asyncio.wait_for(ben.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4413
            await spectator.close()

    asyncio.run(go())


def test_every_frame_counts_against_the_rate_garbage_and_pings_included(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rate limit counts frames, not messages that parse: once a connection's bucket is
    empty, a frame of garbage is refused as ``rate_limited`` like a ping, and garbage mixed
    with pings is closed with 4429 (issue 23, item 5). The bucket does not refill here."""
    monkeypatch.setattr(session, "RATE", 1e-9)
    monkeypatch.setattr(session, "BURST", 5.0)
    monkeypatch.setattr(session, "MALFORMED_CLOSE", 10_000)

    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            _st, made = await http(base, "POST", "/api/tables", {"name": "Anna"})
            c = PlayerClient(base, made["code"], made["token"])
            await c.connect()  # the hello took one token
            for _ in range(4):
                await c.send({"type": "ping"})
            await c.send_raw("garbage, not JSON")
            await c.send_raw(b"\x00bytes")
            seen = []
            while len(seen) < 6:
                msg = await c.recv(timeout=10)
                if msg["type"] in ("pong", "error"):
                    seen.append(msg.get("code", msg["type"]))
            assert seen == ["pong"] * 4 + ["rate_limited"] * 2
            # 500 frames of garbage and pings: closed once 100 frames were refused.
            with pytest.raises(websockets.ConnectionClosed) as closed:
                for i in range(500):
                    await c.send_raw("{" if i % 20 else json.dumps({"type": "ping"}))
                for _ in range(1000):
                    await c.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
            pongs = [m for m in c.received if m["type"] == "pong"]
            assert len(pongs) == 4

    asyncio.run(go())


def test_malformed_messages_close_even_with_valid_ones_between(sqlite_url: str) -> None:
    """Twenty malformed messages close the connection with 1003 however many valid ones
    come between them: a ping does not reset the count (issue 23, item 5)."""

    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            _st, made = await http(base, "POST", "/api/tables", {"name": "Anna"})
            c = PlayerClient(base, made["code"], made["token"])
            await c.connect()
            with pytest.raises(websockets.ConnectionClosed) as closed:
                for _ in range(25):
                    await c.send_raw("not json")
                    await c.send({"type": "ping"})
                for _ in range(1000):
                    await c.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1003
            errors = [m for m in c.received if m["type"] == "error"]
            assert [m["code"] for m in errors] == ["malformed"] * 20

    asyncio.run(go())
