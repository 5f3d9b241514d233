"""The server's clock: the time in epoch milliseconds, and waiting.

Deadlines (a live table's timer, a turn-based table's turn) are read from and waited on
through a :class:`Clock`, so a test can run a day-long turn by moving a clock of its own
(tests/server/test_turn_based.py) instead of sleeping.
"""

from __future__ import annotations

import asyncio
import time


class Clock:
    """The system's clock: ``time.time`` and ``asyncio.sleep``."""

    def now_ms(self) -> int:
        """The time in epoch milliseconds."""
        return int(time.time() * 1000)

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` (nothing for zero or less)."""
        if seconds > 0:
            await asyncio.sleep(seconds)


#: The clock a server uses unless it is given another.
SYSTEM = Clock()
