"""Hostile clients: each gets a clear error or a close, and the table does not change."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import websockets

from citadels.server.client import PlayerClient, http
from tests.server.conftest import config, running


async def started_table(base: str) -> tuple[str, list[str], PlayerClient, PlayerClient]:
    _st, made = await http(base, "POST", "/api/tables",
                          {"name": "Anna", "edition": "classic", "players": 2})  # fmt: skip
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
