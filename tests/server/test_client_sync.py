"""The protocol client asks for the state once when it falls out of step, not once for every
update already on its way (which spent the connection's message budget: the server's rate
limit refused the rest, seen under load in test_processes)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from citadels.server import client as client_module
from citadels.server.client import PlayerClient


class FakeSocket:
    """Serves queued messages and records what the client sends."""

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        self.queue = [json.dumps(m) for m in messages]
        self.sent: list[dict[str, Any]] = []

    async def recv(self) -> str:
        return self.queue.pop(0)

    async def send(self, raw: str) -> None:
        self.sent.append(json.loads(raw))


def update(version: int, first: int, count: int = 1) -> dict[str, Any]:
    events = [{"n": first + k, "kind": "x"} for k in range(count)]
    return {
        "type": "update",
        "version": version,
        "event_count": first + count,
        "events": events,
        "view": {},
        "legal": [],
    }


def snapshot(version: int, count: int) -> dict[str, Any]:
    return {
        "type": "snapshot",
        "version": version,
        "event_count": count,
        "events": [{"n": k, "kind": "x"} for k in range(count)],
        "view": {},
        "legal": [],
        "you": {"seat": 0},
    }


def run(c: PlayerClient, times: int) -> None:
    async def go() -> None:
        for _ in range(times):
            await c.recv()

    asyncio.run(go())


def test_one_sync_for_a_run_of_out_of_step_updates() -> None:
    c = PlayerClient("http://127.0.0.1:1", "ABCD")
    # The client holds 2 events; the next update it gets starts at event 5 (it missed some),
    # and 40 more follow before the snapshot it asked for arrives.
    msgs = [snapshot(1, 2)] + [update(2 + k, 5 + k) for k in range(40)] + [snapshot(42, 45)]
    c._ws = FakeSocket(msgs)
    run(c, len(msgs))
    syncs = [m for m in c._ws.sent if m["type"] == "sync"]
    assert syncs == [{"type": "sync", "since": 2}]
    assert c.version == 42 and c.event_count == 45
    assert [e["n"] for e in c.events] == list(range(45))
    # In step again: the next gap asks again at once.
    c._ws.queue = [json.dumps(update(43, 50))]
    run(c, 1)
    assert [m for m in c._ws.sent if m["type"] == "sync"][-1] == {"type": "sync", "since": 45}


def test_an_unanswered_sync_is_asked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    c = PlayerClient("http://127.0.0.1:1", "ABCD")
    readings = iter([100.0, 101.0, 100.0 + client_module.SYNC_RETRY + 0.5])

    class Clock:
        """The client's ``time`` module: each reading is the next of ``readings``."""

        @staticmethod
        def perf_counter() -> float:
            return next(readings)

    monkeypatch.setattr("citadels.server.client.time", Clock)
    c._ws = FakeSocket([update(2, 5), update(3, 6), update(4, 7)])
    run(c, 3)
    assert [m["since"] for m in c._ws.sent if m["type"] == "sync"] == [0, 0]
