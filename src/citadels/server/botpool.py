"""Bots think in worker processes, never on the server's event loop.

A decision is sent to the pool as plain data: the seat's view and the legal actions in JSON.
Search bots, which sample the hidden cards consistently with what the seat knows, get the view
with its whole log and the table's setup options, and sample from those alone
(``InformationSet.from_view``): nothing of the game the seat may not see leaves the server's
process. The worker returns the action's JSON.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
from typing import Any

from citadels.bots import ISMCTSBot, make_bot
from citadels.engine.actions import action_from_json

#: The levels a table offers for its bots (``make_bot`` kinds), with their descriptions.
BOT_LEVELS: dict[str, str] = {
    "random": "plays any legal move",
    "easy": "a rule-based player that often plays at random",
    "medium": "a rule-based player",
    "hard": "a search bot (information-set Monte Carlo tree search)",
}

#: Search iterations of the ``hard`` level on the server: ``make_bot("hard")`` (heuristic
#: rollouts, the draft model) with a shorter budget, about 0.05 s of one core per decision,
#: since a server's workers serve many tables and a turn is interactive.
HARD_ITERATIONS = 200

#: The level of the stand-in that plays for an absent human.
STAND_IN = "medium"


def _bot(level: str, seed: int) -> Any:
    if level == "hard":
        return make_bot("hard", seed=seed, iterations=HARD_ITERATIONS)
    return make_bot(level, seed=seed)


def think(
    level: str,
    seed: int,
    seat: int,
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    options: dict[str, Any] | None,
) -> dict[str, Any]:
    """One bot decision (runs in a worker): the chosen action's JSON. A search bot needs
    ``view`` with its whole log and the game's setup ``options``."""
    bot = _bot(level, seed)
    actions = [action_from_json(a) for a in legal]
    if isinstance(bot, ISMCTSBot):
        if options is None or not view.get("log"):
            raise ValueError(f"the {level} bot needs the whole view and the setup options")
        bot.options = dict(options)
    choice = bot.choose(view, actions)
    return choice.to_json()  # type: ignore[no-any-return]


def needs_full_view(level: str) -> bool:
    """Whether a bot of this level searches, and so needs the seat's view with its whole
    log and the setup options (the others decide from the view without its log)."""
    return level == "hard"


class BotPool:
    """Runs bot decisions off the event loop.

    Search bots (``hard``) think in worker processes, so a long search never holds the
    server's interpreter; the rule-based and random bots decide in tens of microseconds,
    less than sending them to a process would cost, so they run in a worker thread. ``kind``
    ``"thread"`` puts the search bots in threads too (tests that want no extra processes).
    """

    def __init__(self, workers: int = 2, *, kind: str = "process") -> None:
        self.kind = kind
        self._light = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="citadels-bot"
        )
        self._pool: concurrent.futures.Executor
        if kind == "process":
            ctx = multiprocessing.get_context("spawn")
            self._pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=max(1, workers), mp_context=ctx
            )
        elif kind == "thread":
            self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, workers))
        else:
            raise ValueError(f"bot pool kind must be 'process' or 'thread', not {kind!r}")

    async def choose(
        self,
        level: str,
        seed: int,
        seat: int,
        view: dict[str, Any],
        legal: list[dict[str, Any]],
        options: dict[str, Any] | None,
    ) -> dict[str, Any]:
        """The bot's action, computed off the event loop."""
        loop = asyncio.get_running_loop()
        pool = self._pool if needs_full_view(level) else self._light
        return await loop.run_in_executor(pool, think, level, seed, seat, view, legal, options)

    def warm_up(self) -> None:
        """Start the workers now rather than at the first decision."""
        if self.kind == "process":
            futures = [self._pool.submit(_noop) for _ in range(4)]
            for f in futures:
                f.result()

    def close(self) -> None:
        """Stop the workers."""
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._light.shutdown(wait=False, cancel_futures=True)


def _noop() -> None:
    return None
