"""What a connection receives, and in which order (issue 23, item 1): nothing before its
snapshot, then updates starting exactly at its event count, and every chat line once, in the
snapshot's history or after it.

Each race is made deterministic by holding the joining connection's chat read open (the last
``await`` before its snapshot) while a player and a bot move and a chat line is sent. Every
client here is strict (conftest.strict_clients): an update before the snapshot, a gap or a
chat line twice fails the test where it arrives.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from citadels.server import create_app
from citadels.server.client import OutOfStep, PlayerClient, http
from tests.server.conftest import Hold, config, hub_of, running


async def _started(base: str) -> tuple[str, str, PlayerClient]:
    """A started two-seat game (Anna, and a random bot at seat 1) with Anna connected."""
    status, made = await http(base, "POST", "/api/tables",
                              {"name": "Anna", "edition": "basic", "players": 2,
                               "bots": {"1": "random"}, "seed": 7})  # fmt: skip
    assert status == 201, made
    code, token = made["code"], made["token"]
    anna = PlayerClient(base, code, token, seed=1)
    await anna.connect()
    status, _ = await http(base, "POST", f"/api/tables/{code}/start", token=token)
    assert status == 200
    while anna.view is None:
        await anna.recv()
    return code, token, anna


async def _moves_and_a_line(anna: PlayerClient, text: str) -> int:
    """Anna plays until she and the bot have each moved, then says ``text``; returns the
    line's id once her own connection has it (so it is stored and sent out)."""
    movers: set[int] = set()
    acted = -1
    while movers != {0, 1}:
        if anna.legal and anna.version != acted:
            acted = anna.version
            await anna.act(anna.legal[0]["action"])
        msg = await anna.recv()
        if msg["type"] == "update":
            movers.add(msg["by"])
    await anna.send({"type": "chat", "text": text})
    while True:
        msg = await anna.recv()
        if msg["type"] == "chat" and msg["text"] == text:
            return int(msg["id"])


async def _one_more_move_and_line(anna: PlayerClient, other: PlayerClient) -> int:
    """One more move and chat line, received by ``other`` (any duplicate of an earlier line
    or out-of-step update would have reached it first); returns the line's id."""
    version = acted = anna.version
    while anna.version == version:
        if anna.legal and acted is not None:
            acted = None
            await anna.act(anna.legal[0]["action"])
        await anna.recv()
    await anna.send({"type": "chat", "text": "and another"})
    while True:
        msg = await other.recv()
        if msg["type"] == "chat" and msg["text"] == "and another":
            assert other.version >= anna.version
            return int(msg["id"])


def _ids(client: PlayerClient) -> list[int]:
    return [line["id"] for line in client.chat]


@pytest.mark.parametrize("who", ["spectator", "seat"])
@pytest.mark.parametrize("hold", ["before_read", "after_read"])
def test_a_connection_that_joins_during_moves_and_chat_gets_its_snapshot_first(
    sqlite_url: str, who: str, hold: str
) -> None:
    async def go() -> None:
        cfg = config(sqlite_url, grace=30)
        app = create_app(cfg)
        async with running(cfg, app=app) as base:
            code, token, anna = await _started(base)
            store = hub_of(app).store
            held = Hold(store, "chat", after=hold == "after_read")
            joining = PlayerClient(base, code, token if who == "seat" else None)
            hello = asyncio.create_task(joining.connect())
            await held.entered.wait()
            # The joining connection's hello is held at its chat read: a move of Anna's, one
            # of the bot's and a chat line happen now.
            line = await _moves_and_a_line(anna, "while you were joining")
            held.release()
            snap = await hello
            assert snap["type"] == "snapshot"
            assert joining.received[0] is snap
            # The snapshot holds the moves made while it was joining.
            assert snap["version"] == anna.version
            assert snap["event_count"] == anna.event_count
            assert [e["n"] for e in joining.events] == list(range(anna.event_count))
            later = await _one_more_move_and_line(anna, joining)
            # The line sent while joining: once, in the history or after the snapshot.
            assert _ids(joining).count(line) == 1 and _ids(joining).count(later) == 1
            updates = [m for m in joining.received if m["type"] == "update"]
            assert (
                updates
                and updates[0]["event_count"] - len(updates[0]["events"]) == (snap["event_count"])
            )
            for c in (anna, joining):
                await c.close()

    asyncio.run(go())


@pytest.mark.parametrize("kind", ["sync", "lang"])
@pytest.mark.parametrize("hold", ["before_read", "after_read"])
def test_a_line_said_during_a_sync_or_lang_is_kept_once(
    sqlite_url: str, kind: str, hold: str
) -> None:
    async def go() -> None:
        cfg = config(sqlite_url, grace=30)
        app = create_app(cfg)
        async with running(cfg, app=app) as base:
            code, _token, anna = await _started(base)
            spectator = PlayerClient(base, code)
            await spectator.connect()
            held = Hold(hub_of(app).store, "chat", after=hold == "after_read")
            if kind == "sync":
                await spectator.send({"type": "sync", "since": spectator.event_count})
            else:
                await spectator.send({"type": "lang", "lang": "ru"})
            await held.entered.wait()
            line = await _moves_and_a_line(anna, "while you were syncing")
            held.release()
            while True:
                msg = await spectator.recv()
                if msg["type"] == "snapshot":
                    break
            assert msg["version"] == anna.version
            later = await _one_more_move_and_line(anna, spectator)
            assert _ids(spectator).count(line) == 1 and _ids(spectator).count(later) == 1
            for c in (anna, spectator):
                await c.close()

    asyncio.run(go())


# --- the checker itself ---------------------------------------------------------------------


class _FakeSocket:
    """Hands out queued server messages."""

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        self._raw = [json.dumps(m) for m in messages]

    async def recv(self) -> str:
        return self._raw.pop(0)

    async def send(self, data: str) -> None:
        raise AssertionError(f"a strict client asked the server for something: {data}")


def _update(first: int, count: int, version: int) -> dict[str, Any]:
    events = [{"kind": "x", "seat": None, "n": n, "text": ""} for n in range(first, count)]
    return {"type": "update", "version": version, "event_count": count, "view": {},
            "legal": [], "events": events, "by": 0}  # fmt: skip


def _snapshot(count: int, chat: list[int]) -> dict[str, Any]:
    lines = [{"type": "chat", "id": i, "seat": 0, "name": "A", "text": "", "at": 0} for i in chat]
    return {**_update(0, count, count), "type": "snapshot", "you": {"seat": 0}, "chat": lines}


def _line(chat_id: int) -> dict[str, Any]:
    return {"type": "chat", "id": chat_id, "seat": 0, "name": "A", "text": "", "at": 0}


@pytest.mark.parametrize(
    ("stream", "words"),
    [
        ([_update(0, 2, 1)], "before the connection's snapshot"),
        ([_line(1)], "before the connection's snapshot"),
        ([_snapshot(2, []), _update(3, 4, 3)], "starts at event 3"),
        ([_snapshot(2, []), _update(1, 2, 2)], "starts at event 1"),
        ([_snapshot(2, [4]), _line(4)], "came twice"),
        ([_snapshot(2, []), _line(5), _line(5)], "came twice"),
    ],
)
def test_a_strict_client_fails_on_what_the_protocol_never_sends(
    stream: list[dict[str, Any]], words: str
) -> None:
    client = PlayerClient("http://127.0.0.1:1", "ABCDEF", strict=True)
    client._ws = _FakeSocket(stream)

    async def run() -> None:
        for _ in stream:
            await client.recv()

    with pytest.raises(OutOfStep, match=words):
        asyncio.run(run())


def test_a_strict_client_takes_a_stream_in_step() -> None:
    stream = [_snapshot(2, [1]), _update(2, 3, 3), _line(2), _snapshot(3, [1, 2]), _line(3)]
    client = PlayerClient("http://127.0.0.1:1", "ABCDEF", strict=True)
    client._ws = _FakeSocket(stream)

    async def run() -> None:
        for _ in stream:
            await client.recv()

    asyncio.run(run())
    assert client.event_count == 3 and _ids(client) == [1, 2, 3]
