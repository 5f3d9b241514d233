"""Game reviews and hints on the server (issue 27; docs/review.md, "Online"; docs/protocol.md).

A review (``GET /api/tables/{code}/review``) and a hint (the WebSocket's ``hint``) run the
``hard`` bot's search from one seat's view (:mod:`citadels.review`) in the bot pool's
workers, never on the event loop, at the server's budget per position
(:attr:`Coach.review_budget`, :attr:`Coach.hint_budget`); the client cannot ask for more.

Fairness and cost:

- **One queue per server process.** At most :attr:`Coach.queue_max` jobs wait or run at
  once; one more answers ``busy`` (503). At most :attr:`Coach.table_max` of them come from
  one table; one more answers ``table_busy`` (429). Reviews run one at a time and hints one
  at a time, so the other workers of the pool stay free for the bots' moves.
- **A finished game's review of a seat is computed once**: stored with the table
  (``reviews``, migration 0004) and read back for every later request, in any language;
  requests that arrive while it is being computed wait for that one computation.

Who may ask (:func:`check_review`, :func:`check_hint`): a seat's player for their own seat;
once the game has ended, anyone for any seat; a spectator of a live game never. While the
game is played, a hint, or a review of one's game so far, is available at a solo table (one
person, every other seat a bot) always, and at a table with friends only if its host allowed
hints when creating it (``hints: true``); there, each use is stored and shown to everyone
(``hint_used``). A live review holds only the asking seat's own curve: another seat's
estimate is made from that seat's hidden hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from citadels.engine.actions import action_from_json
from citadels.engine.game import Game, replay
from citadels.present.review import chance_text, key_moment_lines, label_text, loss_text
from citadels.review import LABELS, review_from_json
from citadels.server import messages, texts
from citadels.server.botpool import BotPool, hint_job, review_job
from citadels.server.errors import ServerError
from citadels.server.messages import hints_allowed, solo
from citadels.server.storage import Store, TableRow

if TYPE_CHECKING:
    from citadels.server.table import Table

log = logging.getLogger("citadels.server")

#: Search iterations per position of a review on the server (a 4-player classic game's
#: review: about 4 s of one core; docs/review.md).
REVIEW_BUDGET = 200
#: Search iterations of a hint on the server (about 0.1 s of one core).
HINT_BUDGET = 500
#: Jobs (reviews and hints) one server process takes at once, waiting or running.
QUEUE_MAX = 8
#: Jobs one table may have in that queue at once.
TABLE_MAX = 2
#: The seed of every review and hint: the same position always gets the same answer, so
#: asking again tells nothing new.
SEED = 0
#: Worded reviews of finished games kept in memory (one per table, seat and language).
CACHE = 32


def check_review(row: TableRow, seat: int, asker: int | None) -> None:
    """``ServerError`` unless ``asker`` (the seat of the request's token, ``None`` without
    one) may see the review of ``seat`` now."""
    if row.status == "open":
        raise ServerError("not_started", "the game has not started", 409)
    if not 0 <= seat < row.players:
        raise ServerError("bad_request", f"seat must be 0 to {row.players - 1}")
    if row.status == "finished":
        return
    if asker is None:
        raise ServerError("forbidden", "a spectator cannot review a game being played", 403)
    if asker != seat:
        raise ServerError("forbidden", "a player reviews only their own seat before the end", 403)
    if not hints_allowed(row):
        raise ServerError("hints_off", "the host did not allow hints at this table", 403)


def check_hint(row: TableRow, game: Game | None, seat: int | None, version: int) -> None:
    """``ServerError`` unless ``seat`` may have a hint on ``version`` now."""
    if seat is None:
        raise ServerError("forbidden", "spectators cannot ask for hints", 403)
    if row.status == "open" or game is None:
        raise ServerError("not_started", "the game has not started", 409)
    if game.is_over:
        raise ServerError("game_over", "the game is over", 409)
    if not hints_allowed(row):
        raise ServerError("hints_off", "the host did not allow hints at this table", 403)
    if version != row.version:
        raise ServerError(
            "stale_version",
            f"the hint was asked on version {version}; the table is at {row.version}",
        )
    if game.to_move != seat:
        raise ServerError("not_your_turn", "a hint is for the seat to move")


def worded(row: TableRow, game: Game, data: dict[str, Any], lang: str) -> dict[str, Any]:
    """A review (``Review.to_json()``) with its words in ``lang``: each compared action's
    ``text``, each decision's ``label_text`` and ``loss_text``, the ``key_moment_texts`` and
    the ``labels`` (runs in a worker thread: it replays the game)."""
    names = messages.seat_names(row, lang)
    review = review_from_json(data, game)
    out = dict(data)
    decisions = []
    for d, raw in zip(review.decisions, data["decisions"], strict=True):
        entry = dict(raw)
        view = d.view
        entry["chosen"] = {
            **raw["chosen"],
            "text": texts.describe_action(d.chosen.action, view, lang, names),
        }
        entry["best"] = [
            {**e, "text": texts.describe_action(action_from_json(e["action"]), view, lang, names)}
            for e in raw["best"]
        ]
        entry["label_text"] = label_text(d.label, lang)
        entry["loss_text"] = loss_text(d.loss, lang)
        entry["chance_text"] = chance_text(d.chosen.chance, lang)
        decisions.append(entry)
    out["decisions"] = decisions
    out["key_moment_texts"] = key_moment_lines(review, lang, names)
    out["labels"] = {name: label_text(name, lang) for name in LABELS}
    return {
        "code": row.code,
        "seat": review.seat,
        "lang": lang,
        "names": names,
        "steps": len(game.actions),
        "review": out,
    }


class Coach:
    """The reviews and hints of one server process: its queue, its lanes, its stored reviews."""

    def __init__(
        self,
        store: Store,
        pool: BotPool,
        *,
        review_budget: int = REVIEW_BUDGET,
        hint_budget: int = HINT_BUDGET,
        queue_max: int = QUEUE_MAX,
        table_max: int = TABLE_MAX,
    ) -> None:
        self.store = store
        self.pool = pool
        self.review_budget = review_budget
        self.hint_budget = hint_budget
        self.queue_max = queue_max
        self.table_max = table_max
        self._queued = 0
        self._per_table: Counter[int] = Counter()
        self._reviewing = asyncio.Semaphore(1)
        self._hinting = asyncio.Semaphore(1)
        #: Finished games' reviews being computed, by (table, seat): later askers wait for it.
        self._computing: dict[tuple[int, int], asyncio.Task[dict[str, Any]]] = {}
        self._worded: OrderedDict[tuple[int, int, str], dict[str, Any]] = OrderedDict()

    def describe(self) -> dict[str, int]:
        """The budgets and limits (``GET /api/info``'s ``review``)."""
        return {
            "review_budget": self.review_budget,
            "hint_budget": self.hint_budget,
            "queue": self.queue_max,
            "per_table": self.table_max,
        }

    @contextlib.asynccontextmanager
    async def _slot(self, table_id: int, lane: asyncio.Semaphore) -> AsyncIterator[None]:
        """A place in the queue (or ``busy`` / ``table_busy``), then the lane's turn."""
        if self._queued >= self.queue_max:
            raise ServerError("busy", "the server is busy with reviews and hints; try again", 503)
        if self._per_table[table_id] >= self.table_max:
            raise ServerError(
                "table_busy", "this table already waits for reviews or hints; try again", 429
            )
        self._queued += 1
        self._per_table[table_id] += 1
        try:
            async with lane:
                yield
        finally:
            self._queued -= 1
            self._per_table[table_id] -= 1
            if not self._per_table[table_id]:
                del self._per_table[table_id]

    # --- reviews ------------------------------------------------------------------------------

    async def review(self, t: Table, seat: int, lang: str, asker: int | None) -> dict[str, Any]:
        """The review of ``seat`` at ``t`` in ``lang`` for ``asker`` (see the module)."""
        row = t.row
        check_review(row, seat, asker)
        game = t.game
        assert game is not None
        if row.status == "finished":
            key = (t.id, seat, lang)
            got = self._worded.get(key)
            stored = got is not None  # worded from what was stored, or computed and stored
            if got is None:
                data, stored = await self._finished(t, seat)
                got = await asyncio.to_thread(worded, row, game, data, lang)
                self._worded[key] = got
                while len(self._worded) > CACHE:
                    self._worded.popitem(last=False)
            self._worded.move_to_end(key)
            return {**got, "stored": stored}
        # A game being played: the seat's decisions so far, its own curve only, not stored.
        record = game.record()
        version, event_count = row.version, len(game.state.log)
        async with self._slot(t.id, self._reviewing):
            done = await self.pool.run(review_job, record, seat, self.review_budget, SEED)
        log.info("review of table %s seat %s (live) in %.2f s CPU", t.id, seat, done["cpu"])
        data = done["review"]
        data["curve"] = [p for p in data["curve"] if p["seat"] == seat]
        await self.used(t, seat, "review", version, event_count)
        out = await asyncio.to_thread(worded, row, replay(record), data, lang)
        out["stored"] = False
        return out

    async def _finished(self, t: Table, seat: int) -> tuple[dict[str, Any], bool]:
        """A finished game's review of ``seat``: the stored one (``True``), else computed
        now, once however many ask, and stored."""
        stored = await asyncio.to_thread(self.store.review, t.id, seat)
        if stored is not None:
            return stored, True
        key = (t.id, seat)
        task = self._computing.get(key)
        if task is None:
            task = asyncio.ensure_future(self._compute(t, seat))
            self._computing[key] = task
            task.add_done_callback(lambda _t: self._computing.pop(key, None))
        # Shielded: a client that goes away does not cancel what the others wait for.
        return await asyncio.shield(task), False

    async def _compute(self, t: Table, seat: int) -> dict[str, Any]:
        game = t.game
        assert game is not None
        async with self._slot(t.id, self._reviewing):
            done = await self.pool.run(review_job, game.record(), seat, self.review_budget, SEED)
        log.info("review of table %s seat %s in %.2f s CPU", t.id, seat, done["cpu"])
        data: dict[str, Any] = done["review"]
        if not await asyncio.to_thread(
            self.store.save_review, t.id, seat, self.review_budget, data
        ):
            # Another process stored it first: every asker gets that one.
            again = await asyncio.to_thread(self.store.review, t.id, seat)
            if again is not None:
                return again
        return data

    # --- hints --------------------------------------------------------------------------------

    async def hint(self, t: Table, seat: int | None, version: int, lang: str) -> dict[str, Any]:
        """The ``hint`` message for ``seat`` on ``version`` (see the module)."""
        check_hint(t.row, t.game, seat, version)
        assert seat is not None and t.game is not None
        game = t.game
        view = game.view(seat)
        options = game.record()["options"]
        event_count = len(game.state.log)
        async with self._slot(t.id, self._hinting):
            done = await self.pool.run(hint_job, view, options, self.hint_budget, SEED)
        log.info("hint at table %s seat %s in %.3f s CPU", t.id, seat, done["cpu"])
        await self.used(t, seat, "hint", version, event_count)
        names = t.names(lang)
        best = []
        for e in done["best"]:
            action = action_from_json(e["action"])
            chance = e["chance"]
            best.append(
                {
                    **e,
                    "label": texts.describe_action(action, view, lang, names),
                    "chance_text": chance_text(chance, lang) if chance is not None else None,
                }
            )
        return {
            "type": "hint",
            "version": version,
            "seat": seat,
            "budget": self.hint_budget,
            "best": best,
        }

    async def used(self, t: Table, seat: int, kind: str, version: int, event_count: int) -> None:
        """At a table with friends, note the use for everyone (stored, then fanned out here
        and on the bus); nothing at a solo table."""
        if solo(t.row):
            return
        entry = await asyncio.to_thread(
            self.store.add_hint_use, t.id, seat, kind, version, event_count
        )
        t.hint_used(entry)
        await t.bus.publish({"kind": "hint", "table": t.id, "use": entry})
