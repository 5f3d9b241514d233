"""Tables before their game: creating one, taking a seat, giving seats to bots, the host's
start, and the lobby's lists (the HTTP part of docs/protocol.md).

The lobby's invariant: **a table that is not open has no empty seat, and a seat changes only
while its table is open**; a join without a seat takes an empty seat whenever one is left.
It is kept in two places, one inside the other:

- in this process, every lobby change of a table (``join``, ``set_bot``, ``start``) runs from
  its first read of the table's row to its last write with the table's lock held
  (:attr:`Table.lock`), so two changes of one table never interleave here, and none
  interleaves with an action or a catch-up;
- across processes, the database write of each change is one transaction that first writes
  the table's row (taking its lock, see ``Store._claim``) and then checks, in the same
  transaction, the status and the seats it depends on (``Store.set_seat``,
  ``Store.start``), so a change made meanwhile by another process is seen or waits.

After a write the live table re-reads its row, still under its lock; connections and the
other processes are told once the lock is released.
"""

from __future__ import annotations

import asyncio
import functools
import secrets
from typing import Any

from citadels.editions import get_edition, resolve_setup
from citadels.engine.game import new_game
from citadels.server import messages, tokens
from citadels.server.botpool import BOT_LEVELS
from citadels.server.bus import Bus
from citadels.server.errors import ServerError
from citadels.server.registry import Registry
from citadels.server.storage import SeatRow, Store
from citadels.server.table import Table
from citadels.server.text_input import clean_name
from citadels.server.turns import ON_TIMEOUT, Turns

TIMER_MIN, TIMER_MAX, TIMER_DEFAULT = 10, 600, 90
#: A turn-based table's seconds per turn: one hour to fourteen days (one day by default).
TURN_TIMER_MIN, TURN_TIMER_MAX, TURN_TIMER_DEFAULT = 3600, 14 * 86400, 86400
#: The table's pace: milliseconds between two moves a browser shows (0: at once); the
#: browser's own default when the host sets none.
PACE_MIN, PACE_MAX, PACE_DEFAULT = 0, 10_000, 1000

CREATE_FIELDS = {
    "name", "edition", "players", "preset", "characters", "districts", "complete_at",
    "bots", "timer", "pace", "public", "spectator_chat", "seed", "hints", "turn_timer",
    "on_timeout",
}  # fmt: skip


def _checked_name(body: dict[str, Any], fields: set[str]) -> str:
    """The body's ``name``, cleaned; ``ServerError`` for an unknown field or a bad name."""
    unknown = sorted(set(body) - fields)
    if unknown:
        raise ServerError("malformed", f"unknown fields: {', '.join(unknown)}")
    try:
        return clean_name(body.get("name"))
    except ValueError as exc:
        raise ServerError("bad_name", f"name: {exc}") from None


def _level(level: Any) -> None:
    if not isinstance(level, str) or level not in BOT_LEVELS:
        raise ServerError(
            "bad_level", f"unknown bot level {level!r}; levels: {', '.join(BOT_LEVELS)}"
        )


class Lobby:
    """The operations on tables before (and around) their game."""

    def __init__(self, store: Store, bus: Bus, tables: Registry, turns: Turns) -> None:
        self.store = store
        self.bus = bus
        self.tables = tables
        self.turns = turns

    async def create(self, body: dict[str, Any], account_id: int | None = None) -> dict[str, Any]:
        """Create a table (``POST /api/tables``); ``account_id``: the signed-in creator's
        account, which holds seat 0."""
        name = _checked_name(body, CREATE_FIELDS)
        edition_id = body.get("edition", "classic")
        players = body.get("players", 4)
        if not isinstance(edition_id, str):
            raise ServerError("bad_setup", "edition must be an edition id")
        if type(players) is not int:
            raise ServerError("bad_setup", "players must be an integer")
        options = {
            k: body[k]
            for k in ("preset", "characters", "districts", "complete_at")
            if body.get(k) is not None
        }
        try:
            edition = get_edition(edition_id)
            resolve_setup(edition, players, options)
        except (ValueError, KeyError) as exc:
            raise ServerError("bad_setup", str(exc).strip("'\"")) from None
        timer = body.get("timer")
        if timer is not None and (type(timer) is not int or not TIMER_MIN <= timer <= TIMER_MAX):
            raise ServerError(
                "bad_request", f"timer must be null or {TIMER_MIN} to {TIMER_MAX} seconds"
            )
        turn_timer = body.get("turn_timer")
        if turn_timer is not None and (
            type(turn_timer) is not int or not TURN_TIMER_MIN <= turn_timer <= TURN_TIMER_MAX
        ):
            raise ServerError(
                "bad_request",
                f"turn_timer must be null or {TURN_TIMER_MIN} to {TURN_TIMER_MAX} seconds "
                "(1 hour to 14 days)",
            )
        if timer is not None and turn_timer is not None:
            raise ServerError(
                "bad_request",
                "a table has a timer (a live table) or a turn_timer (a turn-based one), not both",
            )
        on_timeout = body.get("on_timeout")
        if on_timeout is not None and on_timeout not in ON_TIMEOUT:
            raise ServerError("bad_request", 'on_timeout must be null, "stand_in" or "skip"')
        if on_timeout is not None and turn_timer is None:
            raise ServerError("bad_request", "on_timeout needs a turn_timer (a turn-based table)")
        if turn_timer is not None and on_timeout is None:
            on_timeout = "stand_in"
        pace = body.get("pace")
        if pace is not None and (type(pace) is not int or not PACE_MIN <= pace <= PACE_MAX):
            raise ServerError(
                "bad_request", f"pace must be null or {PACE_MIN} to {PACE_MAX} milliseconds"
            )
        public = body.get("public")
        spectator_chat = body.get("spectator_chat", False)
        if public is not None and type(public) is not bool:
            raise ServerError("bad_request", "public must be true, false or null")
        if type(spectator_chat) is not bool:
            raise ServerError("bad_request", "spectator_chat must be true or false")
        hints = body.get("hints", False)
        if type(hints) is not bool:
            raise ServerError("bad_request", "hints must be true or false")
        bots = body.get("bots") or {}
        if not isinstance(bots, dict):
            raise ServerError("bad_request", "bots must map seats to levels")
        token = tokens.new_token()
        seats = [SeatRow(0, "human", name, None, tokens.hash_token(token), account_id=account_id)]
        seats += [SeatRow(i, "empty") for i in range(1, players)]
        for key, level in bots.items():
            if not (isinstance(key, str) and key.isdigit() and 1 <= int(key) < players):
                raise ServerError(
                    "bad_request", f"bots: no seat {key!r} (seats 1 to {players - 1})"
                )
            _level(level)
            seats[int(key)] = SeatRow(int(key), "bot", None, level)
        if public is None:
            # A solo game against bots (no seat left for another person) is nobody else's
            # business: listed only when the host asks; a table with free seats is listed.
            public = any(s.kind == "empty" for s in seats)
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbits(62)
        elif type(seed) is not int or not 0 <= seed < 2**62:
            raise ServerError("bad_setup", "seed must be null or an integer from 0 to 2^62 - 1")
        for _ in range(20):
            table_id = await asyncio.to_thread(
                functools.partial(
                    self.store.create_table,
                    code=tokens.new_code(),
                    edition=edition.id,
                    players=players,
                    options=options,
                    seed=seed,
                    timer=timer,
                    pace=pace,
                    turn_timer=turn_timer,
                    on_timeout=on_timeout,
                    public=public,
                    spectator_chat=spectator_chat,
                    seats=seats,
                    hints=hints,
                )
            )
            if table_id is not None:
                break
        else:  # pragma: no cover - 31^16 codes
            raise ServerError("internal", "no free table code", 500)
        t = await self.tables.load(table_id)
        assert t is not None
        return {"code": t.row.code, "seat": 0, "token": token, "table": t.json()}

    async def join(
        self, code: str, body: dict[str, Any], account_id: int | None = None
    ) -> dict[str, Any]:
        """Take a seat (``POST /api/tables/{code}/join``), for the signed-in account if
        ``account_id``."""
        name = _checked_name(body, {"name", "seat"})
        seat = body.get("seat")
        t = await self.tables.by_code(code)
        async with t.lock:
            await t.refresh_locked()
            if t.row.status != "open":
                raise ServerError("already_started", "the game has already started", 409)
            if seat is not None and (type(seat) is not int or not 0 <= seat < t.row.players):
                raise ServerError("bad_request", f"seat must be 0 to {t.row.players - 1}")
            token = tokens.new_token()
            row = SeatRow(
                seat or 0, "human", name, None, tokens.hash_token(token), account_id=account_id
            )
            taken = await asyncio.to_thread(
                functools.partial(
                    self.store.set_seat, t.id, row, only_if_kind=("empty",),
                    any_empty=seat is None,
                )
            )  # fmt: skip
            await t.refresh_locked()
            if taken is None:
                if t.row.status != "open":
                    raise ServerError("already_started", "the game has already started", 409)
                if seat is None:
                    raise ServerError("table_full", "every seat is taken", 409)
                raise ServerError("seat_taken", f"seat {seat} is taken", 409)
            out = {"seat": taken, "token": token, "table": t.json()}
        await t.announce()
        return out

    def _host(self, t: Table, token: str | None) -> None:
        seat = tokens.seat_of(t.row, token)
        if seat is None:
            raise ServerError("unauthorized", "a seat's token is needed", 401)
        if seat != t.row.host_seat:
            raise ServerError("not_host", "only the host may do this", 403)

    async def set_bot(
        self, code: str, seat: int, token: str | None, body: dict[str, Any]
    ) -> dict[str, Any]:
        """Give an empty seat to a bot, or empty a bot's seat (host only, before the start)."""
        t = await self.tables.by_code(code)
        async with t.lock:
            await t.refresh_locked()
            self._host(t, token)
            if set(body) != {"level"}:
                raise ServerError("bad_request", 'the body is {"level": level or null}')
            level = body["level"]
            if level is not None:
                _level(level)
            if not 0 <= seat < t.row.players:
                raise ServerError("bad_request", f"seat must be 0 to {t.row.players - 1}")
            if t.row.status != "open":
                raise ServerError("already_started", "the game has already started", 409)
            row = SeatRow(seat, "bot", None, level) if level else SeatRow(seat, "empty")
            taken = await asyncio.to_thread(
                functools.partial(self.store.set_seat, t.id, row, only_if_kind=("empty", "bot"))
            )
            await t.refresh_locked()
            if taken is None:
                if t.row.status != "open":
                    raise ServerError("already_started", "the game has already started", 409)
                raise ServerError("seat_taken", f"a player sits at seat {seat}", 409)
            out = t.json()
        await t.announce()
        return out

    async def start(self, code: str, token: str | None) -> dict[str, Any]:
        """The host starts the game (every seat taken)."""
        t = await self.tables.by_code(code)
        async with t.lock:
            await t.refresh_locked()
            self._host(t, token)
            if t.row.status != "open":
                raise ServerError("already_started", "the game has already started", 409)
            # A turn-based table stores its first turn's deadline with the start.
            first = new_game(t.row.edition, t.row.players, seed=t.row.seed, **t.row.options)
            deadline = t.turn.next_deadline(t, first, None)
            outcome = await asyncio.to_thread(self.store.start, t.id, deadline)
            if outcome != "started":
                await t.refresh_locked()
            if outcome == "seats_empty":
                empty = [s.seat for s in t.row.seats if s.kind == "empty"]
                raise ServerError(
                    "seats_empty",
                    "seats without a player or a bot: " + ", ".join(map(str, empty)),
                    409,
                )
            if outcome != "started":
                raise ServerError("already_started", "the game has already started", 409)
            t.row.deadline = deadline
            await t.begin_locked()
            out = t.json()
        await self.bus.publish({"kind": "table", "table": t.id})
        self.turns.schedule(t)
        return out

    async def listing(self, status: str) -> list[dict[str, Any]]:
        """Public tables with this status (``open`` ones with a free seat)."""
        if status not in ("open", "playing", "finished"):
            raise ServerError("bad_request", "status is open, playing or finished")
        rows = await asyncio.to_thread(self.store.list_tables, status)
        out = []
        for row in rows:
            if status == "open" and not any(s.kind == "empty" for s in row.seats):
                continue
            live = self.tables.get(row.id)
            if live is not None:
                out.append(live.json())
            else:
                out.append(messages.table_json(row, lambda _seat: False))
        return out

    async def info(self, code: str) -> dict[str, Any]:
        """The table object (``GET /api/tables/{code}``)."""
        t = await self.tables.by_code(code)
        await t.refresh()
        return t.json()
