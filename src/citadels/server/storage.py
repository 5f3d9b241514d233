"""Persistence through SQLAlchemy 2: tables, seats, the action log, snapshots and chat.

A table is event-sourced: its set-up, seed and the JSON of every action are the whole truth;
snapshots (``Game.to_json()``) only make loading fast. SQLite is the default (a file, nothing
to install); PostgreSQL is chosen by URL. The schema is created and upgraded by Alembic
(:func:`migrate`), which runs at every start.

The methods are synchronous; the server calls them in worker threads.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import logging
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

log = logging.getLogger("citadels.server")

metadata = sa.MetaData()

tables_t = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("code", sa.String(24), nullable=False, unique=True),
    sa.Column("status", sa.String(12), nullable=False, index=True),
    sa.Column("edition", sa.String(20), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("timer", sa.Integer, nullable=True),
    # The host's default delay between the moves a browser shows, in ms (migration 0005).
    sa.Column("pace", sa.Integer, nullable=True),
    sa.Column("public", sa.Boolean, nullable=False),
    sa.Column("spectator_chat", sa.Boolean, nullable=False),
    sa.Column("host_seat", sa.Integer, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("result", sa.JSON, nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    # Whether the host allows hints at a table with friends (migration 0004).
    sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()),
    # A turn-based table's seconds per turn, its rule when they run out (``"stand_in"`` or
    # ``"skip"``) and the current turn's deadline in epoch ms (migration 0007; all null at a
    # live table). The deadline is written with the move that starts the turn.
    sa.Column("turn_timer", sa.Integer, nullable=True),
    sa.Column("on_timeout", sa.String(8), nullable=True),
    sa.Column("deadline", sa.BigInteger, nullable=True),
)

seats_t = sa.Table(
    "seats",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("bot", sa.String(16), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("away", sa.Boolean, nullable=False),
    # Counted up by every write of ``away`` (migration 0002): the order of those writes.
    sa.Column("away_version", sa.Integer, nullable=False, server_default="0"),
    # The account that holds the seat (migration 0006); null: a guest's seat (or a bot's).
    sa.Column("account_id", sa.Integer, nullable=True, index=True),
    # The deadline of the last turn its account was mailed about (migration 0007): one
    # "your turn" e-mail per turn, whichever process claims it first.
    sa.Column("mailed_deadline", sa.BigInteger, nullable=True),
)

actions_t = sa.Table(
    "actions",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.JSON, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

snapshots_t = sa.Table(
    "snapshots",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("game", sa.JSON, nullable=False),
)

chat_t = sa.Table(
    "chat",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), nullable=False, index=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

reviews_t = sa.Table(
    "reviews",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("budget", sa.Integer, nullable=False),
    sa.Column("review", sa.JSON, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

hint_uses_t = sa.Table(
    "hint_uses",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), nullable=False, index=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("event_count", sa.Integer, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

# --- accounts (migration 0006, docs/accounts.md) --------------------------------------------

accounts_t = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(24), nullable=False),
    # The name as compared (NFKC, case-folded): two accounts never differ by case alone.
    sa.Column("name_key", sa.String(96), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(255), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    # Where "your turn" e-mails go (migration 0007); null: none.
    sa.Column("email", sa.String(254), nullable=True),
    # The language its e-mails are written in (the page's when the address was set).
    sa.Column("email_lang", sa.String(8), nullable=True),
)

sessions_t = sa.Table(
    "sessions",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False,
              index=True),
    sa.Column("csrf", sa.String(64), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
)  # fmt: skip

ratings_t = sa.Table(
    "ratings",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("edition", sa.String(20), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)

#: One row per game whose ratings were updated: the proof that it was, once.
rated_games_t = sa.Table(
    "rated_games",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("edition", sa.String(20), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

rating_changes_t = sa.Table(
    "rating_changes",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True,
              index=True),
    sa.Column("edition", sa.String(20), nullable=False),
    sa.Column("mu_before", sa.Float, nullable=False),
    sa.Column("sigma_before", sa.Float, nullable=False),
    sa.Column("mu_after", sa.Float, nullable=False),
    sa.Column("sigma_after", sa.Float, nullable=False),
)  # fmt: skip

#: The turn-based tables' timers that ran out (migration 0007): one row per turn (the seat and
#: the turn's deadline), the log line every player sees.
timeouts_t = sa.Table(
    "timeouts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), nullable=False, index=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("deadline", sa.BigInteger, nullable=False),
    sa.Column("rule", sa.String(8), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("event_count", sa.Integer, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.UniqueConstraint("table_id", "seat", "deadline", name="uq_timeouts_turn"),
)

#: How often a snapshot of the whole game is stored (in actions).
SNAPSHOT_EVERY = 40


# The statements of the hot path, built once (SQLAlchemy then reuses their compiled form).
_ADVANCE = (
    tables_t.update()
    .where(tables_t.c.id == sa.bindparam("b_id"), tables_t.c.version == sa.bindparam("b_prev"))
    .values(
        version=sa.bindparam("b_seq"),
        updated_at=sa.bindparam("b_at"),
        deadline=sa.bindparam("b_deadline"),
    )
)
_FINISH = (
    tables_t.update()
    .where(tables_t.c.id == sa.bindparam("b_id"), tables_t.c.version == sa.bindparam("b_prev"))
    .values(
        version=sa.bindparam("b_seq"),
        updated_at=sa.bindparam("b_at"),
        status="finished",
        result=sa.bindparam("b_result"),
        deadline=None,
    )
)


def _as_json(value: Any) -> str:
    """A move's or a snapshot's JSON as the batch path stores it: orjson (the stdlib's
    ``json.dumps`` when orjson cannot: an integer past 64 bits); it reads back the same."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(value)


def _processor(column: sa.Column[Any]) -> Any:
    """A column's bind processor on a dialect (built once per dialect, then reused)."""
    cache: dict[str, Any] = {}

    def get(dialect: sa.Dialect) -> Any:
        got = cache.get(dialect.name)
        if got is None:
            impl = column.type.dialect_impl(dialect)
            got = cache[dialect.name] = impl.bind_processor(dialect) or (lambda v: v)
        return got

    return get


_SQLITE_TIME = _processor(actions_t.c.created_at)


def _lock_accounts(where: sa.ColumnElement[bool]) -> sa.Select[tuple[int]]:
    """The statement that locks the accounts' rows ``where`` selects, in the order of their
    ids (PostgreSQL locks the rows as the sorted scan returns them), against every other
    writer of them (``FOR NO KEY UPDATE``: a session's insert, which only needs the row to
    stay, is not held up)."""
    return (
        sa.select(accounts_t.c.id)
        .where(where)
        .order_by(accounts_t.c.id)
        .with_for_update(key_share=True)
    )


def lock_in_order(conn: sa.Connection, table_ids: list[int], finishing: list[int]) -> None:
    """Take, in ``conn``'s transaction (PostgreSQL), every row lock a batch that finishes the
    games ``finishing`` will need, before it writes anything: the rows of its tables
    (``table_ids``), by id, then the rows of every account seated at a finishing table, by id.

    This is the lock order of every write of the ratings, whatever the batch holds: tables
    before accounts, each by id. A batch that finishes games of several accounts (the group
    commit writes many tables' moves in one transaction) would otherwise lock them game by
    game, in the batch's order, and two processes finishing two games each of the same two
    accounts in crossed order would each hold one account and wait for the other's: a
    deadlock, which PostgreSQL breaks by failing one batch (every move in it). Locked in one
    order, the second waits for the first and goes on. Once these locks are held the batch
    waits for no row lock any more: the ratings' own rows are written only by a transaction
    that holds their account's lock."""
    conn.execute(
        sa.select(tables_t.c.id)
        .where(tables_t.c.id.in_(sorted(set(table_ids))))
        .order_by(tables_t.c.id)
        .with_for_update(key_share=True)
    ).all()
    seated = sa.select(seats_t.c.account_id).where(
        seats_t.c.table_id.in_(finishing), seats_t.c.account_id.is_not(None)
    )
    conn.execute(_lock_accounts(accounts_t.c.id.in_(seated))).all()


def record_ratings(conn: sa.Connection, table_id: int, result: dict[str, Any]) -> bool:
    """Update the ratings of a finished game's accounts in ``conn``'s transaction, if the
    game is rated (every human seat held by an account, each by another one) and was not
    rated already; whether it was rated now. Idempotent: a game is rated once, however
    often its finish is processed (``rated_games`` holds one row per rated game)."""
    from citadels.server import ratings

    done = conn.execute(
        sa.select(rated_games_t.c.table_id).where(rated_games_t.c.table_id == table_id)
    ).first()
    if done is not None:
        return False
    edition = conn.execute(
        sa.select(tables_t.c.edition).where(tables_t.c.id == table_id)
    ).scalar_one()
    seats = conn.execute(
        sa.select(seats_t.c.seat, seats_t.c.kind, seats_t.c.bot, seats_t.c.account_id)
        .where(seats_t.c.table_id == table_id)
        .order_by(seats_t.c.seat)
    ).all()
    humans = [s.account_id for s in seats if s.kind == "human"]
    if not humans or None in humans or len(set(humans)) != len(humans):
        return False
    try:
        ranks = ratings.ranks_of(result)
    except (KeyError, TypeError, ValueError):
        log.error("table %s: a result without ranks is not rated", table_id)
        return False
    if sorted(ranks) != [s.seat for s in seats]:
        return False
    accounts = sorted(int(a) for a in humans)
    # Two games of one account that finish at once update its rating one after the other
    # (PostgreSQL): the accounts' rows are locked first, by id (see ``lock_in_order``; in a
    # batch they are held already).
    conn.execute(_lock_accounts(accounts_t.c.id.in_(accounts))).all()
    stored = {
        int(r.account_id): r
        for r in conn.execute(
            ratings_t.select().where(
                ratings_t.c.account_id.in_(accounts), ratings_t.c.edition == edition
            )
        ).all()
    }
    before: list[tuple[float, float]] = []
    for s in seats:
        if s.kind == "human":
            r = stored.get(int(s.account_id))
            before.append((ratings.MU, ratings.SIGMA) if r is None else (r.mu, r.sigma))
        else:
            before.append(ratings.BOT_RATINGS.get(s.bot or "", (ratings.MU, ratings.SIGMA)))
    try:
        after = ratings.rate(before, [ranks[s.seat] for s in seats])
    except (ArithmeticError, TypeError, ValueError):  # never the reason a game's end is lost
        log.exception("table %s: the rating update failed; the game stays unrated", table_id)
        return False
    t = now()
    conn.execute(rated_games_t.insert().values(table_id=table_id, edition=edition, created_at=t))
    for s, (mu0, sg0), (mu1, sg1) in zip(seats, before, after, strict=True):
        if s.kind != "human":
            continue
        account = int(s.account_id)
        if account in stored:
            conn.execute(
                ratings_t.update()
                .where(ratings_t.c.account_id == account, ratings_t.c.edition == edition)
                .values(mu=mu1, sigma=sg1, games=ratings_t.c.games + 1, updated_at=t)
            )
        else:
            conn.execute(
                ratings_t.insert().values(
                    account_id=account, edition=edition, mu=mu1, sigma=sg1, games=1,
                    updated_at=t,
                )
            )  # fmt: skip
        conn.execute(
            rating_changes_t.insert().values(
                table_id=table_id, account_id=account, edition=edition, mu_before=mu0,
                sigma_before=sg0, mu_after=mu1, sigma_after=sg1,
            )
        )  # fmt: skip
    return True


class WriteConflict(Exception):
    """Another writer changed the table first (its version moved on)."""


class _Behind(Exception):
    """A batch's version checks together moved fewer tables than it holds (rolls it back)."""


@dataclass
class Append:
    """One action to store (:meth:`Store.append_actions`): action number ``seq`` of a table,
    played by ``seat``, with a snapshot of the game after it and the result, if any."""

    table_id: int
    seq: int
    seat: int
    action: dict[str, Any]
    snapshot: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    #: The deadline (epoch ms) of the turn the move leads to, at a turn-based table.
    deadline: int | None = None


def _action_row(a: Append, t: dt.datetime) -> dict[str, Any]:
    return {
        "table_id": a.table_id,
        "seq": a.seq,
        "seat": a.seat,
        "action": a.action,
        "created_at": t,
    }


def _snapshot_row(a: Append) -> dict[str, Any]:
    return {"table_id": a.table_id, "version": a.seq, "game": a.snapshot}


@dataclass
class SeatRow:
    """One seat as stored."""

    seat: int
    kind: str  # "human", "bot" or "empty"
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    away: bool = False
    #: How many times ``away`` was written (:meth:`Store.set_away`): a newer write has a
    #: higher number, in every process.
    away_version: int = 0
    #: The account holding the seat (``None``: a guest or a bot) and its name.
    account_id: int | None = None
    account: str | None = None


@dataclass
class TableRow:
    """One table as stored (without its actions)."""

    id: int
    code: str
    status: str
    edition: str
    players: int
    options: dict[str, Any]
    seed: int
    timer: int | None
    public: bool
    spectator_chat: bool
    host_seat: int
    version: int
    result: dict[str, Any] | None
    created_at: dt.datetime
    seats: list[SeatRow]
    #: Whether the host allows hints at a table with friends (a solo game always has them).
    hints: bool = False
    #: The host's default delay in milliseconds between the moves a browser shows one by one;
    #: ``None``: no table default (each browser its own).
    pace: int | None = None
    #: A turn-based table's seconds per turn (``None``: a live table), its rule when they
    #: run out (``"stand_in"`` or ``"skip"``) and the current turn's stored deadline.
    turn_timer: int | None = None
    on_timeout: str | None = None
    deadline: int | None = None


def now() -> dt.datetime:
    """The current time, in UTC."""
    return dt.datetime.now(dt.UTC)


def normalise_url(url: str) -> str:
    """Accept ``postgres://`` and ``postgresql://`` (psycopg 3) and SQLite URLs or paths."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    if url.startswith("postgresql://"):
        return "postgresql+psycopg://" + url[len("postgresql://") :]
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser().resolve()}"
    return url


#: Seconds between two background checkpoints of a SQLite store's write-ahead log.
CHECKPOINT_EVERY = 1.0


def make_engine(url: str, *, checkpoint_in_background: bool = False) -> Engine:
    """An SQLAlchemy engine for ``url``, with SQLite set up for concurrent readers.

    ``checkpoint_in_background``: SQLite's writers never copy the write-ahead log back into the
    database themselves (a checkpoint's two fsyncs cost a move tens of milliseconds); the
    caller runs :class:`Checkpointer` instead.
    """
    url = normalise_url(url)
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            if checkpoint_in_background:
                cur.execute("PRAGMA wal_autocheckpoint=0")
            cur.close()

        return engine
    return sa.create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """Create or upgrade the schema to the newest Alembic revision."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            # Two processes starting together: one migrates, the other waits.
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(727274)"))
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


class Checkpointer(threading.Thread):
    """Copies a SQLite database's write-ahead log back into it, every ``CHECKPOINT_EVERY``
    seconds, in a thread of its own.

    The checkpoints are PASSIVE: they never wait for a writer nor make one wait, so the fsyncs
    they need are paid here and not by a player's move. ``stop()`` ends with a last, full
    checkpoint that empties the log.
    """

    def __init__(self, engine: Engine, every: float = CHECKPOINT_EVERY) -> None:
        super().__init__(name="citadels-checkpoint", daemon=True)
        self._engine = engine
        self._every = every
        self._stopping = threading.Event()

    def checkpoint(self, mode: str = "PASSIVE") -> None:
        """One checkpoint now (``PASSIVE`` or ``TRUNCATE``)."""
        with self._engine.connect() as conn:
            conn.exec_driver_sql(f"PRAGMA wal_checkpoint({mode})")

    def run(self) -> None:
        while not self._stopping.wait(self._every):
            try:
                self.checkpoint()
            except Exception:  # the next one tries again; the log only grows meanwhile
                log.warning("a background checkpoint failed", exc_info=True)

    def stop(self) -> None:
        """Stop, after a last checkpoint that empties the write-ahead log."""
        self._stopping.set()
        if self.is_alive():
            self.join()
        with contextlib.suppress(Exception):
            self.checkpoint("TRUNCATE")


def _seat(row: Any) -> SeatRow:
    return SeatRow(
        row.seat, row.kind, row.name, row.bot, row.token_hash, row.away, row.away_version,
        row.account_id, row.account,
    )  # fmt: skip


def _utc(at: dt.datetime) -> dt.datetime:
    """A stored time as an aware UTC time (SQLite gives it back naive)."""
    return at.replace(tzinfo=dt.UTC) if at.tzinfo is None else at


@dataclass
class AccountRow:
    """One account as stored."""

    id: int
    name: str
    password_hash: str
    created_at: dt.datetime


@dataclass
class SessionRow:
    """A signed-in browser's session."""

    account_id: int
    name: str
    csrf: str


def _hint_use(
    use_id: int, seat: int, kind: str, version: int, event_count: int, at: dt.datetime
) -> dict[str, Any]:
    if at.tzinfo is None:
        at = at.replace(tzinfo=dt.UTC)
    return {
        "id": use_id,
        "seat": seat,
        "kind": kind,
        "version": version,
        "event_count": event_count,
        "at": int(at.timestamp() * 1000),
    }


def _timeout(
    timeout_id: int, seat: int, deadline: int, rule: str, version: int, event_count: int
) -> dict[str, Any]:
    return {
        "id": timeout_id,
        "seat": seat,
        "rule": rule,
        "deadline": deadline,
        "version": version,
        "event_count": event_count,
    }


class Store:
    """The server's storage: one SQLAlchemy engine and the queries the server needs."""

    def __init__(self, url: str) -> None:
        self.url = normalise_url(url)
        database = sa.engine.make_url(self.url).database
        on_disk = self.url.startswith("sqlite") and database not in (None, "", ":memory:")
        self.engine = make_engine(url, checkpoint_in_background=on_disk)
        self._checkpointer: Checkpointer | None = None
        if on_disk:
            self._checkpointer = Checkpointer(self.engine)
            self._checkpointer.start()
        # SQLite lets one writer in at a time; writers that collide wait in its busy handler,
        # which sleeps in growing steps (up to 100 ms) and made the latency tail. Writers of
        # this process queue on a lock instead and never meet in SQLite.
        self._write_lock = threading.Lock() if self.engine.dialect.name == "sqlite" else None

    @contextlib.contextmanager
    def _write(self, conn: sa.Connection | None = None) -> Iterator[sa.Connection]:
        """A write transaction (committed on success), one at a time on SQLite; in ``conn``
        (a connection its caller holds, see :meth:`writer`) or in one from the pool."""
        with self._write_lock or contextlib.nullcontext():
            if conn is None:
                with self.engine.begin() as pooled:
                    yield pooled
            else:
                with conn.begin():
                    yield conn

    def writer(self) -> sa.Connection:
        """A connection of its own for a caller that writes often from one thread (the group
        commit's writer): :meth:`append_actions` in it skips the pool's check-out and reset.
        The caller closes it."""
        return self.engine.connect()

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self.engine.dialect.name

    def migrate(self) -> None:
        """Bring the schema up to date (Alembic)."""
        migrate(self.engine)

    def close(self) -> None:
        """Release the connections (after a last checkpoint, on SQLite)."""
        if self._checkpointer is not None:
            self._checkpointer.stop()
            self._checkpointer = None
        self.engine.dispose()

    # --- tables -----------------------------------------------------------------------------

    def create_table(
        self,
        *,
        code: str,
        edition: str,
        players: int,
        options: dict[str, Any],
        seed: int,
        timer: int | None,
        public: bool,
        spectator_chat: bool,
        seats: list[SeatRow],
        hints: bool = False,
        pace: int | None = None,
        turn_timer: int | None = None,
        on_timeout: str | None = None,
    ) -> int | None:
        """Store a new open table; ``None`` if its code is already taken."""
        t = now()
        try:
            with self._write() as conn:
                table_id = conn.execute(
                    tables_t.insert().values(
                        code=code,
                        status="open",
                        edition=edition,
                        players=players,
                        options=options,
                        seed=seed,
                        timer=timer,
                        pace=pace,
                        turn_timer=turn_timer,
                        on_timeout=on_timeout,
                        public=public,
                        spectator_chat=spectator_chat,
                        hints=hints,
                        host_seat=0,
                        version=0,
                        created_at=t,
                        updated_at=t,
                    )
                ).inserted_primary_key[0]  # type: ignore[index]
                conn.execute(
                    seats_t.insert(),
                    [
                        {
                            "table_id": table_id,
                            "seat": s.seat,
                            "kind": s.kind,
                            "name": s.name,
                            "bot": s.bot,
                            "token_hash": s.token_hash,
                            "away": s.away,
                            "account_id": s.account_id,
                        }
                        for s in seats
                    ],
                )
        except IntegrityError:
            return None
        return int(table_id)

    def _table(self, conn: sa.Connection, row: Any) -> TableRow:
        seats = conn.execute(
            sa.select(seats_t, accounts_t.c.name.label("account"))
            .select_from(seats_t.outerjoin(accounts_t, accounts_t.c.id == seats_t.c.account_id))
            .where(seats_t.c.table_id == row.id)
            .order_by(seats_t.c.seat)
        ).all()
        return TableRow(
            id=row.id,
            code=row.code,
            status=row.status,
            edition=row.edition,
            players=row.players,
            options=dict(row.options),
            seed=int(row.seed),
            timer=row.timer,
            public=row.public,
            spectator_chat=row.spectator_chat,
            host_seat=row.host_seat,
            version=row.version,
            result=row.result,
            created_at=row.created_at,
            seats=[_seat(s) for s in seats],
            hints=bool(row.hints),
            pace=row.pace,
            turn_timer=row.turn_timer,
            on_timeout=row.on_timeout,
            deadline=None if row.deadline is None else int(row.deadline),
        )

    def table_by_code(self, code: str) -> TableRow | None:
        """The table with this code, or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(tables_t.select().where(tables_t.c.code == code)).first()
            return None if row is None else self._table(conn, row)

    def table_by_id(self, table_id: int) -> TableRow | None:
        """The table with this id, or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(tables_t.select().where(tables_t.c.id == table_id)).first()
            return None if row is None else self._table(conn, row)

    def list_tables(
        self, status: str, public_only: bool = True, limit: int = 100
    ) -> list[TableRow]:
        """Tables with this status, newest first."""
        q = tables_t.select().where(tables_t.c.status == status)
        if public_only:
            q = q.where(tables_t.c.public.is_(True))
        q = q.order_by(tables_t.c.id.desc()).limit(limit)
        with self.engine.connect() as conn:
            return [self._table(conn, row) for row in conn.execute(q).all()]

    def table_ids(self, status: str) -> list[int]:
        """The ids of every table with this status."""
        with self.engine.connect() as conn:
            q = sa.select(tables_t.c.id).where(tables_t.c.status == status)
            return [int(r[0]) for r in conn.execute(q).all()]

    # --- seats ------------------------------------------------------------------------------

    # The lobby's invariant, kept here across processes: a table that is not open has no
    # empty seat, and a seat changes only while its table is open. Every change of a table's
    # seats or status before its game (set_seat, start) is one transaction that begins by
    # writing the table's row (_claim): on PostgreSQL that takes the row's lock, on SQLite the
    # database's write lock, so these transactions of one table run one after another in every
    # process; each then reads, in the same transaction, the status and seats it checks.

    def _claim(self, conn: sa.Connection, table_id: int) -> str | None:
        """Begin a lobby change of ``table_id`` in ``conn``'s transaction: write its row (so
        no other lobby change of it runs until this transaction ends), then read its status;
        ``None`` if there is no such table."""
        done = conn.execute(
            tables_t.update().where(tables_t.c.id == table_id).values(updated_at=now())
        ).rowcount
        if not done:
            return None
        return str(
            conn.execute(sa.select(tables_t.c.status).where(tables_t.c.id == table_id)).scalar_one()
        )

    def set_seat(
        self,
        table_id: int,
        seat: SeatRow,
        *,
        only_if_kind: tuple[str, ...],
        any_empty: bool = False,
    ) -> int | None:
        """Overwrite a seat of an open table if its current kind is one of ``only_if_kind``;
        with ``any_empty``, the lowest empty seat instead of ``seat.seat``. The seat written,
        or ``None`` when nothing was (the table is not open, the seat's kind is another, no
        seat is empty). Two writers racing, in any processes, cannot both take one seat, and
        a writer that finds every seat it may take gone takes none."""
        with self._write() as conn:
            if self._claim(conn, table_id) != "open":
                return None
            number: int | None = seat.seat
            if any_empty:
                number = conn.execute(
                    sa.select(sa.func.min(seats_t.c.seat)).where(
                        seats_t.c.table_id == table_id, seats_t.c.kind == "empty"
                    )
                ).scalar_one()
                if number is None:
                    return None
            done = conn.execute(
                seats_t.update()
                .where(
                    seats_t.c.table_id == table_id,
                    seats_t.c.seat == number,
                    seats_t.c.kind.in_(only_if_kind),
                )
                .values(
                    kind=seat.kind,
                    name=seat.name,
                    bot=seat.bot,
                    token_hash=seat.token_hash,
                    account_id=seat.account_id,
                )
            ).rowcount
            return number if done else None

    def set_away(self, table_id: int, seat: int, away: bool) -> int:
        """Mark a human seat as played by its stand-in bot (or not); returns the write's
        ``away_version``. The version is counted up in the same statement, so of two writes
        (from any processes) the one the database applied last has the higher number."""
        with self._write() as conn:
            conn.execute(
                seats_t.update()
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                .values(away=away, away_version=seats_t.c.away_version + 1)
            )
            version = conn.execute(
                sa.select(seats_t.c.away_version).where(
                    seats_t.c.table_id == table_id, seats_t.c.seat == seat
                )
            ).scalar_one()
        return int(version)

    def start(self, table_id: int, deadline: int | None = None) -> str:
        """Open → playing, once, and only with every seat taken: ``"started"``, or why not
        (``"already_started"``, ``"seats_empty"``); checked in the same transaction as the
        change (see ``_claim``). ``deadline``: the first turn's, at a turn-based table."""
        with self._write() as conn:
            if self._claim(conn, table_id) != "open":
                return "already_started"
            empty = conn.execute(
                sa.select(sa.func.count())
                .select_from(seats_t)
                .where(seats_t.c.table_id == table_id, seats_t.c.kind == "empty")
            ).scalar_one()
            if empty:
                return "seats_empty"
            conn.execute(
                tables_t.update()
                .where(tables_t.c.id == table_id)
                .values(status="playing", deadline=deadline)
            )
            return "started"

    # --- the game ---------------------------------------------------------------------------

    def append_action(
        self,
        table_id: int,
        seq: int,
        seat: int,
        action: dict[str, Any],
        *,
        snapshot: dict[str, Any] | None = None,
        result: dict[str, Any] | None = None,
    ) -> None:
        """Store action number ``seq`` (the table's version becomes ``seq``).

        Raises :class:`WriteConflict` if the table's version is not ``seq - 1`` any more:
        another process wrote first, and nothing is stored.
        """
        outcome = self.append_actions([Append(table_id, seq, seat, action, snapshot, result)])[0]
        if outcome is not None:
            raise outcome

    def append_actions(
        self, batch: list[Append], conn: sa.Connection | None = None
    ) -> list[WriteConflict | None]:
        """Store a batch of appends, each as :meth:`append_action` would, in one transaction
        (one commit for all: a group commit); the outcome of each, in order (``None``: stored,
        else the :class:`WriteConflict` that kept it out; the others are stored all the same).
        ``conn``: a connection of the caller's own (:meth:`writer`), else one from the pool.

        Every append is checked against its table's version in the transaction that stores it,
        so what another process stored first wins here as it does one at a time. The batch is
        written with one statement per kind (the version checks of every table together, then
        the actions, then the snapshots): when the version checks together moved fewer tables
        than the batch holds (another process wrote one of them first) or an action is
        already there (an ``IntegrityError``), the transaction is rolled back and every append
        is stored again in a transaction of its own, so that one append's conflict is never
        another's. Any other failure raises, and nothing of the batch is stored.
        """
        if not batch:
            return []
        try:
            return self._append_together(batch, conn)
        except (IntegrityError, _Behind):
            return [self._append_alone(a, conn) for a in batch]

    def _append_together(
        self, batch: list[Append], conn: sa.Connection | None
    ) -> list[WriteConflict | None]:
        t = now()
        with self._write(conn) as c:
            if c.dialect.name in ("sqlite", "postgresql") and all(a.result is None for a in batch):
                self._append_direct(c, batch, t)
                return [None] * len(batch)
            finishing = [a.table_id for a in batch if a.result is not None]
            if finishing and c.dialect.name == "postgresql":
                # Every row lock the ratings need, in one global order, before any write.
                # (SQLite has one lock, the database's, taken by the first write below.)
                lock_in_order(c, [a.table_id for a in batch], finishing)
            # By table id: the rows of a batch without a finish are locked in the same order.
            advances = [
                {
                    "b_id": a.table_id,
                    "b_prev": a.seq - 1,
                    "b_seq": a.seq,
                    "b_at": t,
                    "b_deadline": a.deadline,
                }
                for a in sorted(batch, key=lambda a: a.table_id)
                if a.result is None
            ]
            # One statement for every table's version check (an executemany: its row count is
            # the sum over the batch, SQLAlchemy's "sane multi rowcount" on both dialects).
            if advances and c.execute(_ADVANCE, advances).rowcount != len(advances):
                raise _Behind  # rolls the transaction back
            for a in batch:
                if a.result is not None and not self._advance(c, a, t):
                    raise _Behind
            c.execute(actions_t.insert(), [_action_row(a, t) for a in batch])
            snapshots = [_snapshot_row(a) for a in batch if a.snapshot is not None]
            if snapshots:
                c.execute(snapshots_t.insert(), snapshots)
        return [None] * len(batch)

    @staticmethod
    def _append_direct(c: sa.Connection, batch: list[Append], t: dt.datetime) -> None:
        """:meth:`_append_together`'s statements straight on the driver's cursor (sqlite3's or
        psycopg's), in the transaction ``c`` holds: the version checks in table-id order (on
        PostgreSQL the rows are locked in the order every batch locks them), then the actions,
        then the snapshots, one ``executemany`` each (its ``rowcount`` is the sum over the rows
        with both drivers; psycopg sends the rows in one pipeline). The time goes through
        SQLAlchemy's own bind processor on SQLite and the JSON through orjson, so the rows read
        back as the others do. Through SQLAlchemy's execution a batch cost about twice the CPU
        (more than SQLite's own work). ``_Behind`` when a version check moved fewer tables or
        an action is already there (the caller's transaction is then rolled back)."""
        if c.dialect.name == "sqlite":
            at: Any = _SQLITE_TIME(c.dialect)(t)
            integrity: type[Exception] = sqlite3.IntegrityError
            mark, as_json = "?", "?"
        else:
            import psycopg

            at, mark, as_json, integrity = t, "%s", "%s::json", psycopg.IntegrityError
        dbapi = c.connection.driver_connection
        assert dbapi is not None
        cur = dbapi.cursor()
        try:
            cur.executemany(
                f"UPDATE tables SET version = {mark}, updated_at = {mark}, deadline = {mark}"
                f" WHERE id = {mark} AND version = {mark}",
                [
                    (a.seq, at, a.deadline, a.table_id, a.seq - 1)
                    for a in sorted(batch, key=lambda a: a.table_id)
                ],
            )
            if cur.rowcount != len(batch):
                raise _Behind
            cur.executemany(
                "INSERT INTO actions (table_id, seq, seat, action, created_at)"
                f" VALUES ({mark}, {mark}, {mark}, {as_json}, {mark})",
                [(a.table_id, a.seq, a.seat, _as_json(a.action), at) for a in batch],
            )
            snapshots = [
                (a.table_id, a.seq, _as_json(a.snapshot)) for a in batch if a.snapshot is not None
            ]
            if snapshots:
                cur.executemany(
                    "INSERT INTO snapshots (table_id, version, game)"
                    f" VALUES ({mark}, {mark}, {as_json})",
                    snapshots,
                )
        except integrity:
            raise _Behind from None
        finally:
            cur.close()

    def _append_alone(self, a: Append, conn: sa.Connection | None = None) -> WriteConflict | None:
        t = now()
        try:
            with self._write(conn) as c:
                if not self._advance(c, a, t):
                    return WriteConflict(f"table {a.table_id} is past version {a.seq - 1}")
                c.execute(actions_t.insert(), _action_row(a, t))
                if a.snapshot is not None:
                    c.execute(snapshots_t.insert(), _snapshot_row(a))
        except IntegrityError:
            return WriteConflict(f"table {a.table_id} already has action {a.seq}")
        return None

    @staticmethod
    def _advance(conn: sa.Connection, a: Append, t: dt.datetime) -> bool:
        """Move ``a``'s table from version ``seq - 1`` to ``seq`` (and to finished with its
        result); ``False`` when its version is another (nothing is written)."""
        params: dict[str, Any] = {
            "b_id": a.table_id,
            "b_prev": a.seq - 1,
            "b_seq": a.seq,
            "b_at": t,
        }
        if a.result is None:
            params["b_deadline"] = a.deadline
            return bool(conn.execute(_ADVANCE, params).rowcount)
        if not conn.execute(_FINISH, {**params, "b_result": a.result}).rowcount:
            return False
        # The ratings move in the transaction that records the result: both or neither.
        record_ratings(conn, a.table_id, a.result)
        return True

    def actions(self, table_id: int, after: int = 0) -> list[tuple[int, dict[str, Any]]]:
        """The actions with ``seq > after``, in order, as ``(seat, action json)``."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(actions_t.c.seat, actions_t.c.action)
                .where(actions_t.c.table_id == table_id, actions_t.c.seq > after)
                .order_by(actions_t.c.seq)
            ).all()
            return [(int(r[0]), dict(r[1])) for r in rows]

    def version(self, table_id: int) -> int:
        """The table's current version."""
        with self.engine.connect() as conn:
            return int(
                conn.execute(
                    sa.select(tables_t.c.version).where(tables_t.c.id == table_id)
                ).scalar_one()
            )

    # --- turn-based tables -------------------------------------------------------------

    def deadline(self, table_id: int) -> tuple[int, int | None]:
        """The table's version and the stored deadline of its current turn (read together)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(tables_t.c.version, tables_t.c.deadline).where(tables_t.c.id == table_id)
            ).one()
        return int(row.version), None if row.deadline is None else int(row.deadline)

    def add_timeout(
        self, table_id: int, seat: int, deadline: int, rule: str, version: int, event_count: int
    ) -> dict[str, Any] | None:
        """Record that ``seat``'s turn with this deadline ran out (its protocol entry); ``None``
        if it was recorded already (by this process or another)."""
        t = now()
        try:
            with self._write() as conn:
                got = conn.execute(
                    timeouts_t.insert().values(
                        table_id=table_id,
                        seat=seat,
                        deadline=deadline,
                        rule=rule,
                        version=version,
                        event_count=event_count,
                        created_at=t,
                    )
                ).inserted_primary_key[0]  # type: ignore[index]
        except IntegrityError:
            return None
        return _timeout(int(got), seat, deadline, rule, version, event_count)

    def timeouts(self, table_id: int) -> list[dict[str, Any]]:
        """Every timer that ran out at the table, oldest first, as the protocol sends them."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                timeouts_t.select()
                .where(timeouts_t.c.table_id == table_id)
                .order_by(timeouts_t.c.id)
            ).all()
        return [
            _timeout(int(r.id), r.seat, int(r.deadline), r.rule, r.version, r.event_count)
            for r in rows
        ]

    def claim_turn_mail(
        self, table_id: int, seat: int, deadline: int
    ) -> tuple[str, str, str] | None:
        """Claim the "your turn" e-mail of ``seat``'s turn with this deadline: the address,
        the account's name and its mails' language if this call is the one to send it (the
        seat's account has an address and nobody claimed this turn before, in any process),
        else ``None``.

        The claim is one conditional update of the seat's ``mailed_deadline``: of two
        processes (or two calls) only one sees its row change."""
        with self._write() as conn:
            row = conn.execute(
                sa.select(accounts_t.c.email, accounts_t.c.name, accounts_t.c.email_lang)
                .select_from(seats_t.join(accounts_t, accounts_t.c.id == seats_t.c.account_id))
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
            ).first()
            if row is None or not row.email:
                return None
            done = conn.execute(
                seats_t.update()
                .where(
                    seats_t.c.table_id == table_id,
                    seats_t.c.seat == seat,
                    sa.or_(
                        seats_t.c.mailed_deadline.is_(None),
                        seats_t.c.mailed_deadline != deadline,
                    ),
                )
                .values(mailed_deadline=deadline)
            ).rowcount
        return (str(row.email), str(row.name), row.email_lang or "en") if done else None

    def latest_snapshot(self, table_id: int) -> tuple[int, dict[str, Any]] | None:
        """The newest stored snapshot as ``(version, game json)``."""
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(snapshots_t.c.version, snapshots_t.c.game)
                .where(snapshots_t.c.table_id == table_id)
                .order_by(snapshots_t.c.version.desc())
                .limit(1)
            ).first()
            return None if row is None else (int(row[0]), dict(row[1]))

    # --- reviews and hints -----------------------------------------------------------------

    def review(self, table_id: int, seat: int) -> dict[str, Any] | None:
        """The stored review of a finished game's seat (``Review.to_json()``), or ``None``."""
        with self.engine.connect() as conn:
            got = conn.execute(
                sa.select(reviews_t.c.review).where(
                    reviews_t.c.table_id == table_id, reviews_t.c.seat == seat
                )
            ).scalar_one_or_none()
        return None if got is None else dict(got)

    def save_review(self, table_id: int, seat: int, budget: int, review: dict[str, Any]) -> bool:
        """Store a finished game's review of a seat, once: ``False`` (and nothing written) if
        one is stored already (another process computed it first)."""
        try:
            with self._write() as conn:
                conn.execute(
                    reviews_t.insert().values(
                        table_id=table_id, seat=seat, budget=budget, review=review,
                        created_at=now(),
                    )
                )  # fmt: skip
        except IntegrityError:
            return False
        return True

    def add_hint_use(
        self, table_id: int, seat: int, kind: str, version: int, event_count: int
    ) -> dict[str, Any]:
        """Note that ``seat`` used a hint (``kind`` ``"hint"``) or a review of its game so far
        (``"review"``) at ``version``; the entry as the protocol sends it."""
        t = now()
        with self._write() as conn:
            use_id = conn.execute(
                hint_uses_t.insert().values(
                    table_id=table_id,
                    seat=seat,
                    kind=kind,
                    version=version,
                    event_count=event_count,
                    created_at=t,
                )
            ).inserted_primary_key[0]  # type: ignore[index]
        return _hint_use(int(use_id), seat, kind, version, event_count, t)

    def hint_uses(self, table_id: int) -> list[dict[str, Any]]:
        """Every hint used at the table, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                hint_uses_t.select()
                .where(hint_uses_t.c.table_id == table_id)
                .order_by(hint_uses_t.c.id)
            ).all()
        return [
            _hint_use(r.id, r.seat, r.kind, r.version, r.event_count, r.created_at) for r in rows
        ]

    # --- chat -------------------------------------------------------------------------------

    def add_chat(self, table_id: int, seat: int | None, name: str, text: str) -> tuple[int, int]:
        """Store a chat message; returns its id and time (epoch ms)."""
        t = now()
        with self._write() as conn:
            chat_id = conn.execute(
                chat_t.insert().values(
                    table_id=table_id, seat=seat, name=name, text=text, created_at=t
                )
            ).inserted_primary_key[0]  # type: ignore[index]
        return int(chat_id), int(t.timestamp() * 1000)

    def chat(self, table_id: int, limit: int = 50) -> list[dict[str, Any]]:
        """The last ``limit`` chat messages, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                chat_t.select()
                .where(chat_t.c.table_id == table_id)
                .order_by(chat_t.c.id.desc())
                .limit(limit)
            ).all()
        out = []
        for r in reversed(rows):
            at = r.created_at
            if at.tzinfo is None:
                at = at.replace(tzinfo=dt.UTC)
            out.append(
                {
                    "id": r.id,
                    "seat": r.seat,
                    "name": r.name,
                    "text": r.text,
                    "at": int(at.timestamp() * 1000),
                }
            )
        return out

    # --- accounts (docs/accounts.md) ----------------------------------------------------

    def create_account(self, name: str, key: str, password_hash: str) -> int | None:
        """A new account; ``None`` if its name (compared by ``key``) is taken."""
        try:
            with self._write() as conn:
                got = conn.execute(
                    accounts_t.insert().values(
                        name=name, name_key=key, password_hash=password_hash, created_at=now()
                    )
                ).inserted_primary_key[0]  # type: ignore[index]
        except IntegrityError:
            return None
        return int(got)

    @staticmethod
    def _account(row: Any) -> AccountRow:
        return AccountRow(int(row.id), row.name, row.password_hash, _utc(row.created_at))

    def account_by_key(self, key: str) -> AccountRow | None:
        """The account whose name compares as ``key``, or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(accounts_t.select().where(accounts_t.c.name_key == key)).first()
        return None if row is None else self._account(row)

    def accounts(self) -> list[AccountRow]:
        """Every account, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(accounts_t.select().order_by(accounts_t.c.id)).all()
        return [self._account(r) for r in rows]

    def set_password(
        self,
        account_id: int,
        password_hash: str,
        *,
        sign_out: bool,
        keep: str | None = None,
        expected: str | None = None,
    ) -> int | None:
        """Store a new password hash; ``sign_out``: end every session of the account but the
        one whose token hashes to ``keep``. With ``expected``, only if the stored hash is
        still that one (a password checked against it was not changed since): ``None``
        when it is not (nothing is written). How many sessions ended."""
        with self._write() as conn:
            q = accounts_t.update().where(accounts_t.c.id == account_id)
            if expected is not None:
                q = q.where(accounts_t.c.password_hash == expected)
            if not conn.execute(q.values(password_hash=password_hash)).rowcount:
                return None
            if not sign_out:
                return 0
            ended = sessions_t.delete().where(sessions_t.c.account_id == account_id)
            if keep is not None:
                ended = ended.where(sessions_t.c.token_hash != keep)
            return int(conn.execute(ended).rowcount)

    def email(self, account_id: int) -> tuple[str | None, str | None]:
        """The account's e-mail address and its mails' language (``None``: none)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(accounts_t.c.email, accounts_t.c.email_lang).where(
                    accounts_t.c.id == account_id
                )
            ).first()
        return (None, None) if row is None else (row.email, row.email_lang)

    def set_email(self, account_id: int, email: str | None, lang: str | None) -> None:
        """Store (or, with ``None``, remove) the account's e-mail address and the language
        its mails are written in."""
        with self._write() as conn:
            conn.execute(
                accounts_t.update()
                .where(accounts_t.c.id == account_id)
                .values(email=email, email_lang=lang if email else None)
            )

    def create_session(
        self,
        account_id: int,
        token_hash: str,
        csrf: str,
        expires: dt.datetime,
        password_hash: str | None = None,
    ) -> bool:
        """Store a new session (by its token's hash); with ``password_hash``, only if the
        account's password hash is still that one (whether it was stored).

        The check writes the account's row (its hash, unchanged), so it holds the row's lock
        (PostgreSQL), or the database's (SQLite: the transaction's first statement is a
        write), until the session is stored: a change of the password either commits before
        the check (which then refuses) or waits for this session, and ends it with the
        others. The account's row is locked before any session's, as a change does."""
        t = now()
        with self._write() as conn:
            if password_hash is not None:
                same = conn.execute(
                    accounts_t.update()
                    .where(accounts_t.c.id == account_id,
                           accounts_t.c.password_hash == password_hash)
                    .values(password_hash=accounts_t.c.password_hash)
                ).rowcount  # fmt: skip
                if not same:
                    return False
            conn.execute(sessions_t.delete().where(sessions_t.c.expires_at < t))
            conn.execute(
                sessions_t.insert().values(
                    token_hash=token_hash, account_id=account_id, csrf=csrf, created_at=t,
                    expires_at=expires,
                )
            )  # fmt: skip
        return True

    def session(self, token_hash: str) -> SessionRow | None:
        """The live session with this token's hash, or ``None`` (none, or expired)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(sessions_t.c.account_id, sessions_t.c.csrf, sessions_t.c.expires_at,
                          accounts_t.c.name)
                .select_from(sessions_t.join(accounts_t))
                .where(sessions_t.c.token_hash == token_hash)
            ).first()  # fmt: skip
        if row is None or _utc(row.expires_at) <= now():
            return None
        return SessionRow(int(row.account_id), row.name, row.csrf)

    def delete_session(self, token_hash: str) -> None:
        """End a session."""
        with self._write() as conn:
            conn.execute(sessions_t.delete().where(sessions_t.c.token_hash == token_hash))

    def claim_seat(self, table_id: int, seat: int, token_hash: str, account_id: int) -> bool:
        """Give a guest's seat (the seat whose token hashes to ``token_hash``) to an account;
        whether the seat is the account's now. A seat another account holds stays its."""
        with self._write() as conn:
            conn.execute(
                seats_t.update()
                .where(
                    seats_t.c.table_id == table_id,
                    seats_t.c.seat == seat,
                    seats_t.c.token_hash == token_hash,
                    seats_t.c.account_id.is_(None),
                )
                .values(account_id=account_id)
            )
            holder = conn.execute(
                sa.select(seats_t.c.account_id).where(
                    seats_t.c.table_id == table_id, seats_t.c.seat == seat
                )
            ).scalar_one_or_none()
        return holder == account_id

    def account_seats(
        self, account_id: int, statuses: tuple[str, ...], limit: int = 200
    ) -> list[tuple[TableRow, int]]:
        """The tables with these statuses where the account holds a seat, newest change
        first, each with the account's seat."""
        q = (
            sa.select(tables_t, seats_t.c.seat.label("my_seat"))
            .select_from(tables_t.join(seats_t, seats_t.c.table_id == tables_t.c.id))
            .where(seats_t.c.account_id == account_id, tables_t.c.status.in_(statuses))
            .order_by(tables_t.c.updated_at.desc(), tables_t.c.id.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [(self._table(conn, r), int(r.my_seat)) for r in conn.execute(q).all()]

    def ratings_of(self, account_id: int) -> dict[str, tuple[float, float, int]]:
        """The account's ratings by edition: ``(mu, sigma, rated games)``."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                ratings_t.select().where(ratings_t.c.account_id == account_id)
            ).all()
        return {r.edition: (float(r.mu), float(r.sigma), int(r.games)) for r in rows}

    def rating_changes(
        self, account_id: int, table_ids: list[int]
    ) -> dict[int, tuple[float, float]]:
        """The account's rating change (mu before, mu after) at each of these tables."""
        if not table_ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(rating_changes_t.c.table_id, rating_changes_t.c.mu_before,
                          rating_changes_t.c.mu_after)
                .where(rating_changes_t.c.account_id == account_id,
                       rating_changes_t.c.table_id.in_(table_ids))
            ).all()  # fmt: skip
        return {int(r.table_id): (float(r.mu_before), float(r.mu_after)) for r in rows}

    def bot_games(self, edition: str, limit: int = 2_000) -> list[list[tuple[Any, ...]]]:
        """The edition's last ``limit`` rated games with a bot seat, in the order they were
        rated; each game's seats as ``(rank, bot level or None, (mu, sigma) before or
        None)`` (``ratings.BotGame``)."""
        with self.engine.connect() as conn:
            has_bot = sa.exists().where(seats_t.c.table_id == rated_games_t.c.table_id,
                                        seats_t.c.kind == "bot")  # fmt: skip
            ids = [
                int(r[0])
                for r in conn.execute(
                    sa.select(rated_games_t.c.table_id)
                    .where(rated_games_t.c.edition == edition, has_bot)
                    .order_by(rated_games_t.c.created_at.desc(), rated_games_t.c.table_id.desc())
                    .limit(limit)
                ).all()
            ][::-1]
            if not ids:
                return []
            results = dict(
                conn.execute(
                    sa.select(tables_t.c.id, tables_t.c.result).where(tables_t.c.id.in_(ids))
                ).all()
            )
            seats = conn.execute(
                sa.select(seats_t.c.table_id, seats_t.c.seat, seats_t.c.kind, seats_t.c.bot,
                          seats_t.c.account_id)
                .where(seats_t.c.table_id.in_(ids))
                .order_by(seats_t.c.table_id, seats_t.c.seat)
            ).all()  # fmt: skip
            before = {
                (int(r.table_id), int(r.account_id)): (float(r.mu_before), float(r.sigma_before))
                for r in conn.execute(
                    sa.select(rating_changes_t.c.table_id, rating_changes_t.c.account_id,
                              rating_changes_t.c.mu_before, rating_changes_t.c.sigma_before)
                    .where(rating_changes_t.c.table_id.in_(ids))
                ).all()
            }  # fmt: skip
        by_table: dict[int, list[tuple[Any, ...]]] = {i: [] for i in ids}
        for s in seats:
            ranks = {int(x["seat"]): int(x["rank"]) for x in (results[s.table_id] or {})["seats"]}
            if s.kind == "bot":
                by_table[int(s.table_id)].append((ranks[s.seat], s.bot, None))
            else:
                key = (int(s.table_id), int(s.account_id))
                by_table[int(s.table_id)].append((ranks[s.seat], None, before.get(key)))
        return [by_table[i] for i in ids]

    def leaderboard(self, edition: str, limit: int = 100) -> list[tuple[str, float, float, int]]:
        """The edition's rated accounts, best first: ``(name, mu, sigma, games)``."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(accounts_t.c.name, ratings_t.c.mu, ratings_t.c.sigma,
                          ratings_t.c.games)
                .select_from(ratings_t.join(accounts_t))
                .where(ratings_t.c.edition == edition)
                .order_by(ratings_t.c.mu.desc(), accounts_t.c.id)
                .limit(limit)
            ).all()  # fmt: skip
        return [(r.name, float(r.mu), float(r.sigma), int(r.games)) for r in rows]
