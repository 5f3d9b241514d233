"""The tables a server process serves: their games, seats, connections, bots and timers.

The hub is the thin authority between connections and the engine: it checks a seat's token
and the state version, calls ``Game.apply``, stores the action, and sends every connection
its own view and the new events. It holds no rule logic. With a shared database and a bus,
several processes run a hub each: the database's version check makes one write win, and the
bus tells the others to catch up.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import logging
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from citadels.editions import get_edition, resolve_setup
from citadels.engine.actions import action_from_json
from citadels.engine.game import Game, game_from_json, new_game
from citadels.errors import CitadelsError, GameOver, IllegalAction, MalformedAction, NotYourTurn
from citadels.server import texts
from citadels.server.botpool import BOT_LEVELS, STAND_IN, BotPool, needs_full_view
from citadels.server.bus import Bus
from citadels.server.storage import SNAPSHOT_EVERY, SeatRow, Store, TableRow, WriteConflict
from citadels.server.text_input import clean_chat, clean_name

log = logging.getLogger("citadels.server")

PROTOCOL = 1
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
TIMER_MIN, TIMER_MAX, TIMER_DEFAULT = 10, 600, 90
CHAT_HISTORY = 50
CHAT_RATE = (5, 10.0)  # messages per seconds


class ServerError(Exception):
    """An error a client is told about: a stable ``code``, a message, maybe a rule."""

    def __init__(self, code: str, message: str, status: int = 400, rule: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.rule = rule

    def to_json(self) -> dict[str, Any]:
        """The error as the ``error`` message's fields."""
        return {"code": self.code, "message": self.message, "rule": self.rule}


def hash_token(token: str) -> str:
    """What the database keeps of a seat's token."""
    return hashlib.sha256(token.encode()).hexdigest()


def now_ms() -> int:
    """The time in epoch milliseconds."""
    return int(time.time() * 1000)


Sender = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass(eq=False)
class Conn:
    """One WebSocket connection: its seat (``None``: a spectator), its language, its outbox."""

    seat: int | None
    lang: str
    send: Sender
    chat_times: deque[float] = field(default_factory=deque)


@dataclass(eq=False)
class LiveTable:
    """A table loaded in this process."""

    row: TableRow
    game: Game | None = None
    conns: set[Conn] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    deadline: int | None = None
    task: asyncio.Task[None] | None = None
    remote: dict[str, dict[int, int]] = field(default_factory=dict)
    chat_times: dict[int, deque[float]] = field(default_factory=dict)

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def version(self) -> int:
        return self.row.version

    def names(self, lang: str = "en") -> list[str]:
        """Display names per seat (bots and unnamed seats named in ``lang``)."""
        out = []
        for s in self.row.seats:
            if s.kind == "bot":
                out.append(s.name or texts.bot_name(s.seat, s.bot or "bot", lang))
            else:
                out.append(s.name or texts.seat_name(s.seat, lang))
        return out

    def local_count(self, seat: int) -> int:
        return sum(1 for c in self.conns if c.seat == seat)

    def connected(self, seat: int) -> bool:
        """Whether a human seat has a live connection in any process."""
        if self.local_count(seat):
            return True
        return any(counts.get(seat, 0) > 0 for counts in self.remote.values())


class Hub:
    """Every table of this process and the operations of the protocol on them."""

    def __init__(
        self,
        store: Store,
        bus: Bus,
        pool: BotPool,
        *,
        grace: float = 5.0,
        bot_delay: float = 0.0,
    ) -> None:
        self.store = store
        self.bus = bus
        self.pool = pool
        self.grace = grace
        self.bot_delay = bot_delay
        self.live: dict[int, LiveTable] = {}
        self._loading: dict[int, asyncio.Lock] = {}
        self._closing = False

    # --- start and stop ---------------------------------------------------------------------

    async def start(self) -> None:
        """Listen to the bus and resume the games that were being played."""
        await self.bus.start(self.on_bus)
        for table_id in await asyncio.to_thread(self.store.table_ids, "playing"):
            try:
                t = await self.load(table_id)
            except Exception:
                log.exception("table %s could not be resumed", table_id)
                continue
            if t is not None:
                self.schedule(t, fallback=self.bus.shared)

    async def close(self) -> None:
        """Cancel timers and bot turns; stop listening."""
        self._closing = True
        for t in self.live.values():
            if t.task is not None:
                t.task.cancel()
        await self.bus.close()

    # --- loading ----------------------------------------------------------------------------

    def _load_game(self, row: TableRow) -> Game:
        """The table's game at its stored version: the newest snapshot plus the later actions."""
        snap = self.store.latest_snapshot(row.id)
        if snap is not None and snap[0] <= row.version:
            game = game_from_json(snap[1])
            after = snap[0]
        else:
            game = new_game(row.edition, row.players, seed=row.seed, **row.options)
            after = 0
        for _seat, action in self.store.actions(row.id, after):
            game.apply_json(action)
        return game

    def _read(self, table_id: int) -> tuple[TableRow, Game | None] | None:
        row = self.store.table_by_id(table_id)
        if row is None:
            return None
        game = self._load_game(row) if row.status != "open" else None
        if game is not None and len(game.actions) != row.version:
            # The row moved on while the actions were read: read once more.
            row = self.store.table_by_id(table_id)
            assert row is not None
            game = self._load_game(row)
        return row, game

    async def load(self, table_id: int) -> LiveTable | None:
        """The live table, loaded from storage on first use."""
        t = self.live.get(table_id)
        if t is not None:
            return t
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            t = self.live.get(table_id)
            if t is not None:
                return t
            got = await asyncio.to_thread(self._read, table_id)
            if got is None:
                return None
            t = LiveTable(row=got[0], game=got[1])
            self.live[table_id] = t
        if self.bus.shared:
            # Ask the other processes who is connected to this table there.
            await self.bus.publish({"kind": "who", "table": table_id})
        return t

    async def by_code(self, code: str) -> LiveTable:
        """The live table with this code, or ``ServerError(not_found)``."""
        code = code.strip().upper()
        if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
            raise ServerError("not_found", f"no table with the code {code[:12]!r}", 404)
        for t in self.live.values():
            if t.row.code == code:
                return t
        row = await asyncio.to_thread(self.store.table_by_code, code)
        if row is None:
            raise ServerError("not_found", f"no table with the code {code!r}", 404)
        loaded = await self.load(row.id)
        if loaded is None:
            raise ServerError("not_found", f"no table with the code {code!r}", 404)
        return loaded

    async def refresh_row(self, t: LiveTable) -> None:
        """Re-read the table's row (seats, status) after another process changed it."""
        async with t.lock:  # never beside a catch-up, which moves the version
            await self._refresh_row(t)

    async def _refresh_row(self, t: LiveTable) -> None:
        """``refresh_row`` with the table's lock held."""
        row = await asyncio.to_thread(self.store.table_by_id, t.id)
        if row is None:
            return
        started = t.row.status == "open" and row.status != "open"
        version = t.row.version
        row.version = version  # the game's version moves only by catching up
        t.row = row
        if started and t.game is None:
            got = await asyncio.to_thread(self._read, t.id)
            if got is not None:
                t.row, t.game = got[0], got[1]
            for c in list(t.conns):
                await self.send_snapshot(t, c, 0)

    # --- the table object -------------------------------------------------------------------

    def table_json(self, t: LiveTable) -> dict[str, Any]:
        """The public table object of the protocol."""
        row = t.row
        seats = []
        for s in row.seats:
            seats.append(
                {
                    "seat": s.seat,
                    "name": (t.names()[s.seat] if s.kind != "empty" else None),
                    "kind": s.kind,
                    "bot": s.bot if s.kind == "bot" else None,
                    "connected": s.kind == "bot" or (s.kind == "human" and t.connected(s.seat)),
                    "away": s.away,
                }
            )
        return {
            "code": row.code,
            "status": row.status,
            "edition": row.edition,
            "edition_title": texts.edition_title(row.edition),
            "players": row.players,
            "options": row.options,
            "timer": row.timer,
            "public": row.public,
            "spectator_chat": row.spectator_chat,
            "host": row.host_seat,
            "version": t.version,
            "seats": seats,
            "created": row.created_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
        }

    # --- HTTP operations --------------------------------------------------------------------

    async def create(self, body: dict[str, Any]) -> dict[str, Any]:
        """Create a table (``POST /api/tables``)."""
        allowed = {
            "name", "edition", "players", "preset", "characters", "districts", "complete_at",
            "bots", "timer", "public", "spectator_chat", "seed",
        }  # fmt: skip
        unknown = sorted(set(body) - allowed)
        if unknown:
            raise ServerError("bad_request", f"unknown fields: {', '.join(unknown)}")
        try:
            name = clean_name(body.get("name"))
        except ValueError as exc:
            raise ServerError("bad_name", f"name: {exc}") from None
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
        public = body.get("public", True)
        spectator_chat = body.get("spectator_chat", False)
        if type(public) is not bool or type(spectator_chat) is not bool:
            raise ServerError("bad_request", "public and spectator_chat must be true or false")
        bots = body.get("bots") or {}
        if not isinstance(bots, dict):
            raise ServerError("bad_request", "bots must map seats to levels")
        token = secrets.token_urlsafe(24)
        seats = [SeatRow(0, "human", name, None, hash_token(token))]
        seats += [SeatRow(i, "empty") for i in range(1, players)]
        for key, level in bots.items():
            if not (isinstance(key, str) and key.isdigit() and 1 <= int(key) < players):
                raise ServerError(
                    "bad_request", f"bots: no seat {key!r} (seats 1 to {players - 1})"
                )
            if level not in BOT_LEVELS:
                raise ServerError(
                    "bad_level", f"unknown bot level {level!r}; levels: {', '.join(BOT_LEVELS)}"
                )
            seats[int(key)] = SeatRow(int(key), "bot", None, level)
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbits(62)
        elif type(seed) is not int or not 0 <= seed < 2**62:
            raise ServerError("bad_setup", "seed must be null or an integer from 0 to 2^62 - 1")
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            table_id = await asyncio.to_thread(
                functools.partial(
                    self.store.create_table,
                    code=code,
                    edition=edition.id,
                    players=players,
                    options=options,
                    seed=seed,
                    timer=timer,
                    public=public,
                    spectator_chat=spectator_chat,
                    seats=seats,
                )
            )
            if table_id is not None:
                break
        else:  # pragma: no cover - 31^6 codes
            raise ServerError("internal", "no free table code", 500)
        t = await self.load(table_id)
        assert t is not None
        return {"code": t.row.code, "seat": 0, "token": token, "table": self.table_json(t)}

    def seat_of(self, t: LiveTable, token: str | None) -> int | None:
        """The seat whose token this is, or ``None``."""
        if not token or not isinstance(token, str) or len(token) > 200:
            return None
        digest = hash_token(token)
        for s in t.row.seats:
            if s.token_hash and hmac.compare_digest(s.token_hash, digest):
                return s.seat
        return None

    async def join(self, code: str, body: dict[str, Any]) -> dict[str, Any]:
        """Take a seat (``POST /api/tables/{code}/join``)."""
        unknown = sorted(set(body) - {"name", "seat"})
        if unknown:
            raise ServerError("bad_request", f"unknown fields: {', '.join(unknown)}")
        try:
            name = clean_name(body.get("name"))
        except ValueError as exc:
            raise ServerError("bad_name", f"name: {exc}") from None
        t = await self.by_code(code)
        await self.refresh_row(t)
        if t.row.status != "open":
            raise ServerError("already_started", "the game has already started", 409)
        seat = body.get("seat")
        if seat is None:
            empty = [s.seat for s in t.row.seats if s.kind == "empty"]
            if not empty:
                raise ServerError("table_full", "every seat is taken", 409)
            seat = empty[0]
        if type(seat) is not int or not 0 <= seat < t.row.players:
            raise ServerError("bad_request", f"seat must be 0 to {t.row.players - 1}")
        token = secrets.token_urlsafe(24)
        row = SeatRow(seat, "human", name, None, hash_token(token))
        ok = await asyncio.to_thread(self.store.set_seat, t.id, row, only_if_kind=("empty",))
        if not ok:
            await self.refresh_row(t)
            if t.row.status != "open":
                raise ServerError("already_started", "the game has already started", 409)
            raise ServerError("seat_taken", f"seat {seat} is taken", 409)
        await self.seats_changed(t)
        return {"seat": seat, "token": token, "table": self.table_json(t)}

    def _host(self, t: LiveTable, token: str | None) -> None:
        seat = self.seat_of(t, token)
        if seat is None:
            raise ServerError("unauthorized", "a seat's token is needed", 401)
        if seat != t.row.host_seat:
            raise ServerError("not_host", "only the host may do this", 403)

    async def set_bot(self, code: str, seat: int, token: str | None, body: dict[str, Any]) -> Any:
        """Give an empty seat to a bot, or empty a bot's seat (host only, before the start)."""
        t = await self.by_code(code)
        await self.refresh_row(t)
        self._host(t, token)
        if set(body) != {"level"}:
            raise ServerError("bad_request", 'the body is {"level": level or null}')
        level = body["level"]
        if level is not None and level not in BOT_LEVELS:
            raise ServerError(
                "bad_level", f"unknown bot level {level!r}; levels: {', '.join(BOT_LEVELS)}"
            )
        if not 0 <= seat < t.row.players:
            raise ServerError("bad_request", f"seat must be 0 to {t.row.players - 1}")
        if t.row.status != "open":
            raise ServerError("already_started", "the game has already started", 409)
        row = SeatRow(seat, "bot", None, level) if level else SeatRow(seat, "empty")
        ok = await asyncio.to_thread(self.store.set_seat, t.id, row, only_if_kind=("empty", "bot"))
        if not ok:
            await self.refresh_row(t)
            if t.row.status != "open":
                raise ServerError("already_started", "the game has already started", 409)
            raise ServerError("seat_taken", f"a player sits at seat {seat}", 409)
        await self.seats_changed(t)
        return self.table_json(t)

    async def start_game(self, code: str, token: str | None) -> dict[str, Any]:
        """The host starts the game (every seat taken)."""
        t = await self.by_code(code)
        await self.refresh_row(t)
        self._host(t, token)
        if t.row.status != "open":
            raise ServerError("already_started", "the game has already started", 409)
        empty = [s.seat for s in t.row.seats if s.kind == "empty"]
        if empty:
            raise ServerError(
                "seats_empty",
                "seats without a player or a bot: " + ", ".join(map(str, empty)),
                409,
            )
        if not await asyncio.to_thread(self.store.start, t.id):
            raise ServerError("already_started", "the game has already started", 409)
        async with t.lock:
            t.row.status = "playing"
            t.game = new_game(t.row.edition, t.row.players, seed=t.row.seed, **t.row.options)
            self._set_deadline(t)
            for c in list(t.conns):
                await self.send_snapshot(t, c, 0)
        await self.bus.publish({"kind": "table", "table": t.id})
        self.schedule(t)
        return self.table_json(t)

    async def seats_changed(self, t: LiveTable) -> None:
        """Re-read the seats, tell local connections and the other processes."""
        await self.refresh_row(t)
        await self.broadcast_table(t)
        await self.bus.publish({"kind": "table", "table": t.id})

    async def broadcast_table(self, t: LiveTable) -> None:
        msg = {"type": "table", "table": self.table_json(t)}
        for c in list(t.conns):
            await c.send(msg)

    async def lobby(self, status: str) -> list[dict[str, Any]]:
        """Public tables with this status (``open`` ones with a free seat)."""
        if status not in ("open", "playing", "finished"):
            raise ServerError("bad_request", "status is open, playing or finished")
        rows = await asyncio.to_thread(self.store.list_tables, status)
        out = []
        for row in rows:
            if status == "open" and not any(s.kind == "empty" for s in row.seats):
                continue
            live = self.live.get(row.id)
            t = live if live is not None else LiveTable(row=row)
            out.append(self.table_json(t))
        return out

    async def info(self, code: str) -> dict[str, Any]:
        t = await self.by_code(code)
        await self.refresh_row(t)
        return self.table_json(t)

    async def replay(self, code: str, start: int, count: int, lang: str) -> dict[str, Any]:
        """A finished game, step by step, as a spectator saw it."""
        t = await self.by_code(code)
        await self.refresh_row(t)
        if t.row.status != "finished":
            raise ServerError("not_finished", "a game can be replayed once it is over", 409)
        if not start >= 0 or not 1 <= count <= 500:
            raise ServerError("bad_request", "from must be 0 or more and count 1 to 500")

        def build() -> dict[str, Any]:
            actions = [a for _s, a in self.store.actions(t.id)]
            game = new_game(t.row.edition, t.row.players, seed=t.row.seed, **t.row.options)
            names = t.names(lang)
            frames = []
            seen = 0
            for version in range(len(actions) + 1):
                if version > 0:
                    game.apply_json(actions[version - 1])
                if start <= version < start + count:
                    view = game.view(None, log_from=seen)
                    events = view.pop("log")
                    frames.append(
                        {
                            "version": version,
                            "view": view,
                            "events": self._events(t.row.edition, events, seen, lang, names),
                        }
                    )
                seen = len(game.state.log)
                if version >= start + count:
                    break
            result = t.row.result or (game.result().to_json() if game.is_over else None)
            return {
                "code": t.row.code,
                "edition": t.row.edition,
                "players": t.row.players,
                "options": t.row.options,
                "names": names,
                "steps": len(actions),
                "from": start,
                "frames": frames,
                "result": result,
                "scores": texts.score_rows(t.row.edition, result, lang, names) if result else None,
            }

        return await asyncio.to_thread(build)

    # --- messages for a viewer --------------------------------------------------------------

    @staticmethod
    def _events(
        edition: str, events: list[dict[str, Any]], first: int, lang: str, names: list[str]
    ) -> list[dict[str, Any]]:
        out = []
        for i, ev in enumerate(events):
            entry = {k: v for k, v in ev.items() if k != "text"}
            entry["n"] = first + i
            entry["text"] = texts.render_event(edition, ev, lang, names)
            out.append(entry)
        return out

    def _game_part(self, t: LiveTable, seat: int | None, lang: str, since: int) -> dict[str, Any]:
        """``view``, ``legal``, ``events`` and the rest, for one viewer."""
        game = t.game
        names = t.names(lang)
        if game is None:
            return {
                "version": 0, "event_count": 0, "view": None, "legal": [], "events": [],
                "deadline": None, "result": None, "scores": None, "score_headers": None,
            }  # fmt: skip
        count = len(game.state.log)
        since = max(0, min(since, count))
        view = game.view(seat, log_from=since)
        events = view.pop("log")
        legal = []
        if seat is not None and seat == game.to_move:
            for action in game.legal_actions():
                legal.append(
                    {
                        "action": action.to_json(),
                        "label": texts.describe_action(action, view, lang, names),
                    }
                )
        result = view.get("result")
        return {
            "version": t.version,
            "event_count": count,
            "view": view,
            "legal": legal,
            "events": self._events(t.row.edition, events, since, lang, names),
            "deadline": t.deadline,
            "result": result,
            "scores": texts.score_rows(t.row.edition, result, lang, names) if result else None,
            "score_headers": texts.score_columns(lang) if result else None,
        }

    async def send_snapshot(self, t: LiveTable, c: Conn, since: int) -> None:
        """A whole snapshot to one connection."""
        chat = await asyncio.to_thread(self.store.chat, t.id, CHAT_HISTORY)
        you = {
            "seat": c.seat,
            "host": c.seat is not None and c.seat == t.row.host_seat,
            "spectator": c.seat is None,
            "name": t.names(c.lang)[c.seat] if c.seat is not None else None,
        }
        msg = {
            "type": "snapshot",
            "protocol": PROTOCOL,
            "you": you,
            "table": self.table_json(t),
            **self._game_part(t, c.seat, c.lang, since),
            "chat": chat,
        }
        await c.send(msg)

    async def broadcast_update(
        self, t: LiveTable, since: int, by: int, ack: tuple[Conn, str] | None = None
    ) -> None:
        """The update after one action, built for each connection's seat and language."""
        cache: dict[tuple[int | None, str], dict[str, Any]] = {}
        for c in list(t.conns):
            key = (c.seat, c.lang)
            part = cache.get(key)
            if part is None:
                part = cache[key] = self._game_part(t, c.seat, c.lang, since)
            msg: dict[str, Any] = {"type": "update", **part, "by": by}
            if ack is not None and ack[0] is c:
                msg["ack"] = ack[1]
            await c.send(msg)
            if part["result"] is not None:
                await c.send(
                    {
                        "type": "game_over",
                        "version": part["version"],
                        "result": part["result"],
                        "scores": part["scores"],
                        "score_headers": part["score_headers"],
                    }
                )

    # --- connections ------------------------------------------------------------------------

    async def connect(self, t: LiveTable, c: Conn, since: int) -> None:
        """A connection said hello: register it, send its snapshot, tell the others."""
        t.conns.add(c)
        if c.seat is not None:
            await self.returned(t, c.seat, announce=False)
            await self._presence(t, c.seat)
        await self.send_snapshot(t, c, since)
        if c.seat is not None:
            await self.broadcast_table(t)
            self.schedule(t)

    async def disconnect(self, t: LiveTable, c: Conn) -> None:
        """A connection closed."""
        t.conns.discard(c)
        if c.seat is not None and not self._closing:
            await self._presence(t, c.seat)
            await self.broadcast_table(t)
            self.schedule(t)

    async def _presence(self, t: LiveTable, seat: int) -> None:
        await self.bus.publish(
            {"kind": "presence", "table": t.id, "seat": seat, "count": t.local_count(seat)}
        )

    async def returned(self, t: LiveTable, seat: int, *, announce: bool = True) -> None:
        """A seat's player is back (a message or a new connection): no more stand-in."""
        s = t.row.seats[seat]
        if not s.away:
            return
        s.away = False
        await asyncio.to_thread(self.store.set_away, t.id, seat, False)
        self.schedule(t)
        if announce:
            await self.broadcast_table(t)
        await self.bus.publish({"kind": "table", "table": t.id})

    # --- acting -----------------------------------------------------------------------------

    async def act(
        self, t: LiveTable, seat: int | None, action_json: Any, version: Any, conn: Conn | None,
        ref: str | None,
    ) -> None:  # fmt: skip
        """Play an action for ``seat`` on ``version``; raises ``ServerError`` and changes
        nothing when it cannot be played."""
        if seat is None:
            raise ServerError("forbidden", "spectators cannot play")
        if type(version) is not int:
            raise ServerError("malformed", "act needs an integer version")
        try:
            action = action_from_json(action_json)
        except MalformedAction as exc:
            raise ServerError("malformed", f"action: {exc}") from None
        async with t.lock:
            if self.bus.shared:
                await self._catch_up(t)
            game = t.game
            if t.row.status == "open" or game is None:
                raise ServerError("not_started", "the game has not started")
            if game.is_over:
                raise ServerError("game_over", "the game is over")
            if version != t.version:
                raise ServerError(
                    "stale_version",
                    f"the action was made on version {version}; the table is at {t.version}",
                )
            since = len(game.state.log)
            # Play on a copy: if storing fails or is cancelled, the live game is untouched.
            game = game.copy()
            try:
                game.apply(action, seat)
            except NotYourTurn as exc:
                raise ServerError("not_your_turn", str(exc), rule=exc.rule) from None
            except GameOver as exc:  # pragma: no cover - checked above
                raise ServerError("game_over", str(exc)) from None
            except IllegalAction as exc:
                raise ServerError("illegal_action", str(exc), rule=exc.rule) from None
            except CitadelsError as exc:  # pragma: no cover - defensive
                raise ServerError("illegal_action", str(exc)) from None
            seq = t.version + 1
            over = game.is_over
            snapshot = game.to_json() if over or seq % SNAPSHOT_EVERY == 0 else None
            result = game.result().to_json() if over else None
            try:
                await asyncio.to_thread(
                    self.store.append_action,
                    t.id, seq, seat, action.to_json(), snapshot=snapshot, result=result,
                )  # fmt: skip
            except WriteConflict:
                await self._reload(t)
                raise ServerError(
                    "stale_version", f"another move was made first; the table is at {t.version}"
                ) from None
            except Exception as exc:
                log.exception("storing an action failed")
                await self._reload(t)
                raise ServerError(
                    "internal", "the move could not be stored; try again", 500
                ) from exc
            t.game = game
            t.row.version = seq
            if over:
                t.row.status = "finished"
                t.row.result = result
            self._set_deadline(t)
            await self.broadcast_update(t, since, seat, (conn, ref) if conn and ref else None)
        await self.bus.publish({"kind": "action", "table": t.id, "version": seq})
        self.schedule(t)

    async def _reload(self, t: LiveTable) -> None:
        got = await asyncio.to_thread(self._read, t.id)
        if got is not None:
            old = len(t.game.state.log) if t.game is not None else 0
            t.row, t.game = got
            for c in list(t.conns):
                await self.send_snapshot(t, c, min(old, len(t.game.state.log) if t.game else 0))

    async def _catch_up(self, t: LiveTable) -> None:
        """Apply the actions other processes stored (the lock is held)."""
        version = await asyncio.to_thread(self.store.version, t.id)
        if version <= t.version:
            return
        if t.game is None:
            await self._refresh_row(t)
            if t.game is None:
                return
        actions = await asyncio.to_thread(self.store.actions, t.id, t.version)
        game = t.game
        for seat, action in actions:
            since = len(game.state.log)
            game.apply_json(action)
            t.row.version = len(game.actions)
            if game.is_over:
                t.row.status = "finished"
                t.row.result = game.result().to_json()
            self._set_deadline(t)
            await self.broadcast_update(t, since, seat)

    # --- chat -------------------------------------------------------------------------------

    async def chat(self, t: LiveTable, c: Conn, text: Any) -> None:
        """A chat message from a connection."""
        if c.seat is None and not t.row.spectator_chat:
            raise ServerError("forbidden", "spectators may read the chat, not write in it")
        try:
            clean = clean_chat(text)
        except ValueError as exc:
            raise ServerError("bad_chat", f"chat: {exc}") from None
        key = -1 if c.seat is None else c.seat
        times = c.chat_times if c.seat is None else t.chat_times.setdefault(key, deque())
        now = time.monotonic()
        while times and now - times[0] > CHAT_RATE[1]:
            times.popleft()
        if len(times) >= CHAT_RATE[0]:
            raise ServerError(
                "rate_limited", f"at most {CHAT_RATE[0]} chat messages in {CHAT_RATE[1]:.0f} s"
            )
        times.append(now)
        name = t.names()[c.seat] if c.seat is not None else "Spectator"
        chat_id, at = await asyncio.to_thread(self.store.add_chat, t.id, c.seat, name, clean)
        msg = {"type": "chat", "id": chat_id, "seat": c.seat, "name": name, "text": clean, "at": at}
        for other in list(t.conns):
            await other.send(msg)
        await self.bus.publish({"kind": "chat", "table": t.id, "message": msg})

    # --- the bus ----------------------------------------------------------------------------

    async def on_bus(self, msg: dict[str, Any]) -> None:
        """Another process changed a table this process may serve."""
        t = self.live.get(msg.get("table", -1))
        if t is None:
            return
        kind = msg.get("kind")
        if kind == "action":
            async with t.lock:
                await self._catch_up(t)
            self.schedule(t, fallback=True)
        elif kind == "table":
            await self.refresh_row(t)
            await self.broadcast_table(t)
            self.schedule(t, fallback=True)
        elif kind == "chat":
            for c in list(t.conns):
                await c.send(msg["message"])
        elif kind == "who":
            for seat in {c.seat for c in t.conns if c.seat is not None}:
                await self._presence(t, seat)
        elif kind == "presence":
            t.remote.setdefault(msg["origin"], {})[int(msg["seat"])] = int(msg["count"])
            await self.broadcast_table(t)
            self.schedule(t, fallback=True)

    # --- bots, stand-ins and timers ---------------------------------------------------------

    def _set_deadline(self, t: LiveTable) -> None:
        game = t.game
        t.deadline = None
        if game is None or game.is_over or t.row.timer is None:
            return
        seat = t.row.seats[game.to_move]  # type: ignore[index]
        if seat.kind == "human" and not seat.away and t.connected(seat.seat):
            t.deadline = now_ms() + t.row.timer * 1000

    def schedule(self, t: LiveTable, *, fallback: bool = False) -> None:
        """Arrange whoever plays next: a bot, a stand-in, or a timer for a human.

        ``fallback``: another process is expected to play it; this one waits a little longer
        in case that process went away.
        """
        if self._closing:
            return
        if t.task is not None and not t.task.done():
            t.task.cancel()
        t.task = None
        game = t.game
        if game is None or game.is_over or t.row.status != "playing":
            return
        mover = game.to_move
        assert mover is not None
        seat = t.row.seats[mover]
        extra = 5.0 if fallback else 0.0
        if seat.kind == "bot":
            delay, level, away = self.bot_delay + extra, seat.bot or STAND_IN, False
        elif seat.away:
            delay, level, away = self.bot_delay + extra, STAND_IN, False
        elif not t.connected(mover):
            # Shared: give the other processes' presence replies time to arrive.
            grace = max(self.grace, 2.0) if self.bus.shared else self.grace
            delay, level, away = grace + extra, STAND_IN, True
        elif t.row.timer is not None:
            if t.deadline is None:
                t.deadline = now_ms() + t.row.timer * 1000
            delay = max(0.0, (t.deadline - now_ms()) / 1000) + extra
            level, away = STAND_IN, True
        else:
            return
        t.task = asyncio.create_task(self._play_for(t, t.version, mover, level, away, delay))

    async def _play_for(
        self, t: LiveTable, version: int, seat: int, level: str, away: bool, delay: float
    ) -> None:
        try:
            if delay > 0:
                await asyncio.sleep(delay)
            game = t.game
            if game is None or t.version != version or game.is_over:
                return
            if away:
                t.row.seats[seat].away = True
                await asyncio.to_thread(self.store.set_away, t.id, seat, True)
                await self.broadcast_table(t)
                await self.bus.publish({"kind": "table", "table": t.id})
            full = needs_full_view(level)
            view = game.view(seat, log_from=0 if full else game.log_size)
            if not full:
                view.pop("log", None)
            legal = [a.to_json() for a in game.legal_actions()]
            options = dict(t.row.options) if full else None
            bot_seed = (t.row.seed * 31 + version * 8 + seat) % (2**62)
            choice = await self.pool.choose(level, bot_seed, seat, view, legal, options)
            if t.version != version:
                return
            t.task = None
            await self.act(t, seat, choice, version, None, None)
        except asyncio.CancelledError:
            raise
        except ServerError as exc:
            if exc.code not in ("stale_version", "game_over", "not_your_turn"):
                log.warning("bot move at table %s failed: %s", t.row.code, exc.message)
        except Exception:
            if not self._closing:
                log.exception("bot move at table %s failed", t.row.code)
