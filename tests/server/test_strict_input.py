"""Strict input (issue 23, item 4): every message and body is checked against its schema, and
each bad one gets the documented error; nothing is changed by it. One test per case the review
found; each fails on the server before the schemas."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import websockets

from citadels.server.client import PlayerClient, http
from citadels.server.hub import Hub
from tests.server.conftest import config, running
from tests.server.test_hostile import closed_with, next_error, started_table, unchanged

DEEP = "[" * 3000 + "]" * 3000  # under the 8192 bytes of a message


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def raw_post(base: str, path: str, content: bytes | str, token: str | None = None
                   ) -> httpx.Response:  # fmt: skip
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        return await client.post(path, content=content, headers=headers)


async def ping_answered(c: PlayerClient) -> None:
    """The connection still works: a ping is answered by a pong."""
    await c.send({"type": "ping"})
    for _ in range(50):
        if (await c.recv(timeout=10))["type"] == "pong":
            return
    raise AssertionError("no pong")


def test_deeply_nested_json_over_the_websocket_is_malformed(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            code, tokens, a, _b = await started_table(base)
            view, version = a.view, a.version
            action = {
                "type": "act",
                "action": {"type": "pick", "x": json.loads("[" * 30 + "]" * 30)},
            }
            for raw in (DEEP, '{"type": "chat", "text": ' + DEEP + "}",
                        json.dumps(action)[:-1] + ', "deep": ' + DEEP + "}"):  # fmt: skip
                await a.send_raw(raw)
                err = await next_error(a)
                assert err["code"] == "malformed", err
                assert "deeper" in err["message"]
            await ping_answered(a)
            # Before hello too.
            fresh = PlayerClient(base, code, tokens[0])
            fresh._ws = await websockets.connect(fresh.ws_url)
            await fresh.send_raw(DEEP)
            assert (await next_error(fresh))["code"] == "malformed"
            await fresh.close()
            await unchanged(base, code, tokens[0], version, view)

    run(go())


def test_deeply_nested_json_in_an_http_body_is_malformed(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            r = await raw_post(base, "/api/tables", DEEP)
            assert r.status_code == 400, r.text
            assert r.json()["error"]["code"] == "malformed"
            r = await raw_post(base, "/api/tables", '{"name": "Anna", "bots": ' + DEEP + "}")
            assert r.status_code == 400 and r.json()["error"]["code"] == "malformed"
            _, lobby = await http(base, "GET", "/api/tables")
            assert lobby["tables"] == []

    run(go())


def test_a_list_or_an_object_for_a_bot_level_is_bad_level(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            for level in ([], {}, ["easy"], {"easy": 1}):
                body = {"name": "Anna", "players": 3, "bots": {"1": level}}
                st, err = await http(base, "POST", "/api/tables", body)
                assert st == 400 and err["error"]["code"] == "bad_level", err
            _, made = await http(base, "POST", "/api/tables", {"name": "Anna", "players": 3})
            path = f"/api/tables/{made['code']}/seats/1/bot"
            for level in ([], {}, ["easy"], {"level": "easy"}):
                st, err = await http(base, "POST", path, {"level": level}, token=made["token"])
                assert st == 400 and err["error"]["code"] == "bad_level", err
            _, table = await http(base, "GET", f"/api/tables/{made['code']}")
            assert [s["kind"] for s in table["seats"]] == ["human", "empty", "empty"]

    run(go())


def test_static_paths_with_a_nul_byte_or_a_very_long_name_are_no_file(sqlite_url: str) -> None:
    async def go() -> None:
        async with (
            running(config(sqlite_url)) as base,
            httpx.AsyncClient(base_url=base, timeout=30) as client,
        ):
            for path in ("/static/app%00.js", "/static/" + "a" * 5000,
                         "/static/" + "/".join(["b" * 200] * 30), "/" + "c" * 300,
                         "/js/app.js%00"):  # fmt: skip
                r = await client.get(path)
                assert r.status_code == 404, (path[:40], r.status_code, r.text[:80])
                assert r.json()["error"]["code"] == "not_found"
            assert (await client.get("/static/js/app.js")).status_code == 200

    run(go())


def test_wrong_methods_and_unknown_routes_answer_the_json_error(sqlite_url: str) -> None:
    async def go() -> None:
        async with (
            running(config(sqlite_url)) as base,
            httpx.AsyncClient(base_url=base, timeout=30) as client,
        ):
            wrong = [("DELETE", "/api/tables"), ("POST", "/api/info"),
                     ("PUT", "/api/tables/ABCDEF/join"), ("DELETE", "/api/tables/ABCDEF/start"),
                     ("POST", "/healthz"), ("POST", "/nothing/here"), ("PATCH", "/")]  # fmt: skip
            for method, path in wrong:
                r = await client.request(method, path)
                assert r.status_code == 405, (method, path, r.status_code)
                assert r.headers["content-type"] == "application/json"
                assert r.json()["error"]["code"] == "method_not_allowed"
                assert r.headers["allow"]
            for path in ("/api/nothing", "/api/tables/ABCDEF/seats/x/bot", "/nothing"):
                r = await client.get(path)
                assert r.status_code == 404
                assert r.json()["error"]["code"] == "not_found"

    run(go())


def test_unknown_fields_in_ping_sync_chat_and_hello_are_malformed(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            code, tokens, a, _b = await started_table(base)
            for msg in ({"type": "ping", "extra": 1}, {"type": "sync", "since": 0, "all": True},
                        {"type": "chat", "text": "hi", "to": 1},
                        {"type": "hello", "protocol": 1, "x": 1}):  # fmt: skip
                await a.send(msg)
                err = await next_error(a)
                assert err["code"] == "malformed", (msg, err)
                assert "unknown field" in err["message"] or "already" in err["message"]
            # A hello with an unknown field is refused before it opens anything.
            fresh = PlayerClient(base, code, tokens[0])
            fresh._ws = await websockets.connect(fresh.ws_url)
            await fresh.send({"type": "hello", "protocol": 1, "token": tokens[0], "seat": 1})
            err = await next_error(fresh)
            assert err["code"] == "malformed" and "seat" in err["message"]
            await fresh.send({"type": "ping"})
            assert (await next_error(fresh))["code"] == "hello_required"
            await fresh.close()
            # Nothing was said at the table.
            probe = PlayerClient(base, code, tokens[1])
            snap = await probe.connect()
            assert snap["chat"] == []
            await probe.close()

    run(go())


def test_an_act_id_that_is_no_short_string_is_malformed(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            code, tokens, a, b = await started_table(base)
            mover = a if a.legal else b
            token = tokens[0] if mover is a else tokens[1]
            view, version = mover.view, mover.version
            for ref in (7, {"id": "a1"}, "x" * 65, ["a"], True):
                await mover.send({"type": "act", "action": mover.legal[0]["action"],
                                  "version": version, "id": ref})  # fmt: skip
                err = await next_error(mover)
                assert err["code"] == "malformed", (ref, err)
                assert err["ref"] is None
            await unchanged(base, code, token, version, view)

    run(go())


def test_hello_with_protocol_true_is_refused(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            code, tokens, _a, _b = await started_table(base)
            for protocol in (True, 1.0, "1", None, [1]):
                c = PlayerClient(base, code, tokens[0])
                c._ws = await websockets.connect(c.ws_url)
                await c.send({"type": "hello", "protocol": protocol, "token": tokens[0]})
                err = await next_error(c)
                assert err["code"] == "unsupported_protocol", (protocol, err)
                assert await closed_with(c) == 4400

    run(go())


def test_a_spectators_mistyped_version_is_malformed_before_forbidden(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            code, _tokens, a, b = await started_table(base)
            mover = a if a.legal else b
            spectator = PlayerClient(base, code)
            await spectator.connect()
            for version in ("0", None, 1.5, [0]):
                await spectator.send(
                    {"type": "act", "action": mover.legal[0]["action"], "version": version}
                )
                assert (await next_error(spectator))["code"] == "malformed", version
            await spectator.send(
                {"type": "act", "action": mover.legal[0]["action"], "version": mover.version}
            )
            assert (await next_error(spectator))["code"] == "forbidden"

    run(go())


def test_unknown_fields_over_http_are_malformed(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            st, err = await http(base, "POST", "/api/tables", {"name": "Anna", "colour": "red"})
            assert st == 400 and err["error"]["code"] == "malformed", err
            assert "colour" in err["error"]["message"]
            _, made = await http(base, "POST", "/api/tables", {"name": "Anna", "players": 3})
            code = made["code"]
            st, err = await http(base, "POST", f"/api/tables/{code}/join",
                                 {"name": "Ben", "team": "red"})  # fmt: skip
            assert st == 400 and err["error"]["code"] == "malformed", err
            st, err = await http(base, "POST", f"/api/tables/{code}/seats/1/bot",
                                 {"level": "easy", "x": 1}, token=made["token"])  # fmt: skip
            assert st == 400 and err["error"]["code"] == "malformed", err
            _, table = await http(base, "GET", f"/api/tables/{code}")
            assert [s["kind"] for s in table["seats"]] == ["human", "empty", "empty"]

    run(go())


def test_a_handler_that_fails_answers_internal_and_closes_with_1011(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(*_args: Any, **_kw: Any) -> Any:
        raise RuntimeError("broken on purpose")

    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            _code, _tokens, a, _b = await started_table(base)
            monkeypatch.setattr(Hub, "resync", broken)
            monkeypatch.setattr(Hub, "listing", broken)
            await a.send({"type": "sync", "since": 0})
            assert (await next_error(a))["code"] == "internal"
            assert await closed_with(a) == 1011
            async with httpx.AsyncClient(base_url=base, timeout=30) as client:
                r = await client.get("/api/tables")
            assert r.status_code == 500
            assert r.json() == {"error": {"code": "internal", "message": "the server failed"}}

    run(go())
