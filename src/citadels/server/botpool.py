"""Bots' decisions: search bots think in worker processes, the light bots on the spot.

A decision is sent to the pool as plain data: the seat's view and the legal actions in JSON.
Search bots, which sample the hidden cards consistently with what the seat knows, get the view
with its whole log and the table's setup options, and sample from those alone
(``InformationSet.from_view``): nothing of the game the seat may not see leaves the server's
process. The worker returns the action's JSON.

The light bots (random and rule-based) decide in tens of microseconds, less than a hand-off
to a thread or a process costs, so they decide in the caller's step (:meth:`BotPool.decide`),
from the seat's view without its log and the legal actions as they are.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import math
import multiprocessing
import signal
import time
from collections.abc import Callable
from typing import Any

from citadels.bots import ISMCTSBot, make_bot
from citadels.engine.actions import Action, action_from_json
from citadels.engine.game import replay

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


def review_job(record: dict[str, Any], seat: int, budget: int, seed: int) -> dict[str, Any]:
    """A seat's review of a game (runs in a worker): ``{"review": Review.to_json(),
    "cpu": seconds}``. Each estimate is made from a view of the seat that moved, and from
    nothing else (:func:`citadels.review.review_game`)."""
    from citadels.review import review_game

    started = time.process_time()
    review = review_game(replay(record), seat, budget=budget, seed=seed)
    return {"review": review.to_json(), "cpu": time.process_time() - started}


def hint_job(
    view: dict[str, Any], options: dict[str, Any], budget: int, seed: int
) -> dict[str, Any]:
    """The best few actions now from a seat's whole view (runs in a worker): ``{"best":
    [Estimate.to_json()…], "cpu": seconds}``; a chance is ``None`` where there was no choice
    to compare (a single legal action)."""
    from citadels.review import hint

    started = time.process_time()
    best = []
    for e in hint(view, view["seat"], budget, seed=seed, options=options):
        out = e.to_json()
        if math.isnan(out["chance"]):
            out["chance"] = None
        best.append(out)
    return {"best": best, "cpu": time.process_time() - started}


def needs_full_view(level: str) -> bool:
    """Whether a bot of this level searches, and so needs the seat's view with its whole
    log and the setup options (the others decide from the view without its log)."""
    return level == "hard"


def reads_view(level: str) -> bool:
    """Whether a light bot of this level looks at the seat's view (the random bot chooses
    from the legal actions alone, so none is built for it)."""
    return level != "random"


class BotPool:
    """Runs bot decisions: search bots (``hard``) in worker processes, so a long search never
    holds the server's interpreter; the light bots at once (:meth:`decide`). ``kind``
    ``"thread"`` puts the search bots in threads instead (tests that want no extra
    processes)."""

    def __init__(self, workers: int = 2, *, kind: str = "process") -> None:
        self.kind = kind
        self._pool: concurrent.futures.Executor
        if kind == "process":
            ctx = multiprocessing.get_context("spawn")
            self._pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=max(1, workers), mp_context=ctx, initializer=_worker_setup
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
        """The bot's action as JSON: a search bot's computed in a worker, a light bot's at
        once."""
        if not needs_full_view(level):
            return think(level, seed, seat, view, legal, options)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._pool, think, level, seed, seat, view, legal, options
        )

    @staticmethod
    def decide(level: str, seed: int, view: dict[str, Any], legal: list[Action]) -> Action:
        """A light bot's action (not a search bot's: ``ValueError``), chosen now from the
        seat's view without its log and the legal actions; no ``await``, no hand-off."""
        if needs_full_view(level):
            raise ValueError(f"the {level} bot searches: ask choose()")
        choice: Action = _bot(level, seed).choose(view, legal)
        return choice

    async def run(self, job: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
        """A review's or a hint's job (:func:`review_job`, :func:`hint_job`) in the search
        bots' workers, off the event loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, job, *args)

    def warm_up(self) -> None:
        """Start the workers now rather than at the first decision."""
        if self.kind == "process":
            futures = [self._pool.submit(_noop) for _ in range(4)]
            for f in futures:
                f.result()

    def close(self) -> None:
        """Stop the workers."""
        self._pool.shutdown(wait=True, cancel_futures=True)


def _noop() -> None:
    return None


def _worker_setup() -> None:
    """A worker ignores Ctrl+C: the terminal sends SIGINT to the whole process group, and the
    server, which stops its workers itself, must be the only one to hear it (else each worker
    prints a KeyboardInterrupt traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
