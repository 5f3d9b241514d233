"""The protocol client keeps its own actions under the server's per-connection rate."""

from __future__ import annotations

import asyncio

import pytest

from citadels.server import session
from citadels.server.client import PLAY_BURST, PLAY_RATE, PlayerClient


def test_the_play_rate_is_below_the_servers_limit() -> None:
    assert PLAY_RATE < session.RATE and PLAY_BURST < session.BURST


def test_pace_spends_the_burst_then_waits_for_the_rate() -> None:
    """On a fake clock: ``PLAY_BURST`` actions go at once, each one after waits
    ``1 / PLAY_RATE`` seconds, so no second ever holds more than the server takes."""
    now = [1000.0]
    slept: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    c = PlayerClient("http://127.0.0.1:1", "ABCDEF")
    c._clock = lambda: now[0]
    c._sleep = fake_sleep
    c._filled_at = now[0]

    async def go() -> None:
        for _ in range(int(PLAY_BURST)):
            await c.pace()
        assert slept == []
        for _ in range(10):
            await c.pace()

    asyncio.run(go())
    assert len(slept) == 10
    assert sum(slept) == pytest.approx(10 / PLAY_RATE)
