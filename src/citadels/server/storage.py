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
import logging
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

log = logging.getLogger("citadels.server")

metadata = sa.MetaData()

tables_t = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("code", sa.String(12), nullable=False, unique=True),
    sa.Column("status", sa.String(12), nullable=False, index=True),
    sa.Column("edition", sa.String(20), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("timer", sa.Integer, nullable=True),
    sa.Column("public", sa.Boolean, nullable=False),
    sa.Column("spectator_chat", sa.Boolean, nullable=False),
    sa.Column("host_seat", sa.Integer, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("result", sa.JSON, nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
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

#: How often a snapshot of the whole game is stored (in actions).
SNAPSHOT_EVERY = 40


# The statements of the hot path, built once (SQLAlchemy then reuses their compiled form).
_ADVANCE = (
    tables_t.update()
    .where(tables_t.c.id == sa.bindparam("b_id"), tables_t.c.version == sa.bindparam("b_prev"))
    .values(version=sa.bindparam("b_seq"), updated_at=sa.bindparam("b_at"))
)
_FINISH = (
    tables_t.update()
    .where(tables_t.c.id == sa.bindparam("b_id"), tables_t.c.version == sa.bindparam("b_prev"))
    .values(
        version=sa.bindparam("b_seq"),
        updated_at=sa.bindparam("b_at"),
        status="finished",
        result=sa.bindparam("b_result"),
    )
)


class WriteConflict(Exception):
    """Another writer changed the table first (its version moved on)."""


@dataclass
class SeatRow:
    """One seat as stored."""

    seat: int
    kind: str  # "human", "bot" or "empty"
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    away: bool = False


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
    return SeatRow(row.seat, row.kind, row.name, row.bot, row.token_hash, row.away)


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
    def _write(self) -> Iterator[sa.Connection]:
        """A write transaction (committed on success), one at a time on SQLite."""
        if self._write_lock is None:
            with self.engine.begin() as conn:
                yield conn
            return
        with self._write_lock, self.engine.begin() as conn:
            yield conn

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
                        public=public,
                        spectator_chat=spectator_chat,
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
                        }
                        for s in seats
                    ],
                )
        except IntegrityError:
            return None
        return int(table_id)

    def _table(self, conn: sa.Connection, row: Any) -> TableRow:
        seats = conn.execute(
            seats_t.select().where(seats_t.c.table_id == row.id).order_by(seats_t.c.seat)
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

    def set_seat(self, table_id: int, seat: SeatRow, *, only_if_kind: tuple[str, ...]) -> bool:
        """Overwrite a seat of an open table if its current kind is one of ``only_if_kind``
        (atomic: two joins racing for a seat cannot both win)."""
        with self._write() as conn:
            opened = conn.execute(
                sa.select(tables_t.c.status).where(tables_t.c.id == table_id)
            ).scalar_one()
            if opened != "open":
                return False
            done = conn.execute(
                seats_t.update()
                .where(
                    seats_t.c.table_id == table_id,
                    seats_t.c.seat == seat.seat,
                    seats_t.c.kind.in_(only_if_kind),
                )
                .values(kind=seat.kind, name=seat.name, bot=seat.bot, token_hash=seat.token_hash)
            ).rowcount
            if done:
                conn.execute(
                    tables_t.update().where(tables_t.c.id == table_id).values(updated_at=now())
                )
            return bool(done)

    def set_away(self, table_id: int, seat: int, away: bool) -> None:
        """Mark a human seat as played by its stand-in bot (or not)."""
        with self._write() as conn:
            conn.execute(
                seats_t.update()
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                .values(away=away)
            )

    def start(self, table_id: int) -> bool:
        """Open → playing, once; ``False`` if it had already started."""
        with self._write() as conn:
            done = conn.execute(
                tables_t.update()
                .where(tables_t.c.id == table_id, tables_t.c.status == "open")
                .values(status="playing", updated_at=now())
            ).rowcount
            return bool(done)

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
        t = now()
        params: dict[str, Any] = {"b_id": table_id, "b_prev": seq - 1, "b_seq": seq, "b_at": t}
        try:
            with self._write() as conn:
                if result is None:
                    done = conn.execute(_ADVANCE, params).rowcount
                else:
                    done = conn.execute(_FINISH, {**params, "b_result": result}).rowcount
                if not done:
                    raise WriteConflict(f"table {table_id} is past version {seq - 1}")
                conn.execute(
                    actions_t.insert(),
                    {"table_id": table_id, "seq": seq, "seat": seat, "action": action,
                     "created_at": t},
                )  # fmt: skip
                if snapshot is not None:
                    conn.execute(
                        snapshots_t.insert(),
                        {"table_id": table_id, "version": seq, "game": snapshot},
                    )
        except IntegrityError as exc:
            raise WriteConflict(f"table {table_id} already has action {seq}") from exc

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
