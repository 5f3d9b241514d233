"""The bot levels' ratings measured against people (docs/accounts.md, "The bots' ratings"):
read from the stored rated games in which accounts played bots, fitted with the rating model
(:func:`citadels.server.ratings.measure_bots`), and shown beside the levels' fixed ratings
once a level has :data:`~citadels.server.ratings.MEASURED_MIN` games. The fixed ratings stay
what rates a game: the measure only says how far they hold against people."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from citadels.server.ratings import BOT_RATINGS, MEASURED_MIN, display, measure_bots
from citadels.server.storage import Store

#: Seconds a leaderboard's measure is reused before it is read again.
TTL = 300.0


def measure(store: Store, edition: str) -> dict[str, Any]:
    """Each bot level's fixed rating and its measure against people in ``edition``:
    ``{level: {"anchor", "games", "rating", "mu", "sigma"}}`` (``rating``, ``mu`` and
    ``sigma`` ``None`` below :data:`MEASURED_MIN` games)."""
    got = measure_bots(store.bot_games(edition))
    out: dict[str, Any] = {}
    for level, (anchor_mu, _s) in BOT_RATINGS.items():
        mu, sigma, games = got.get(level, (None, None, 0))
        enough = games >= MEASURED_MIN and mu is not None
        out[level] = {
            "anchor": display(anchor_mu),
            "games": games,
            "rating": display(mu) if enough and mu is not None else None,
            "mu": mu if enough else None,
            "sigma": sigma if enough else None,
        }
    return out


class BotMeasures:
    """The measures of one server process, per edition, read again at most every ``ttl``
    seconds (in a worker thread: the fit of the last 2,000 games takes about half a second)."""

    def __init__(
        self, store: Store, ttl: float = TTL, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.store = store
        self.ttl = ttl
        self.clock = clock
        self._cache: dict[str, tuple[float, dict[str, Any]]] = {}

    async def of(self, edition: str) -> dict[str, Any]:
        """The edition's measures (:func:`measure`), at most ``ttl`` seconds old."""
        got = self._cache.get(edition)
        if got is not None and self.clock() - got[0] < self.ttl:
            return got[1]
        fresh = await asyncio.to_thread(measure, self.store, edition)
        self._cache[edition] = (self.clock(), fresh)
        return fresh
