"""Group commit: the actions of concurrent tables stored together, one transaction for many.

Every move is stored before anyone hears of it (docs/deploy.md, "What is stored"). Storing
each in a transaction of its own costs a thread hand-off, a ``BEGIN`` and a ``COMMIT`` per
move (on PostgreSQL a commit also waits for its write-ahead log to reach the disk), and the
writes of different tables queue behind one another. :class:`GroupCommit` instead gathers
the moves that arrive while a transaction is being written and stores them all in the next
one (``Store.append_actions``): under load a transaction holds many tables' moves, and the
commits per second stay few.

Invariants, all kept here:

- **Nothing is answered before it is committed.** A waiter's future is resolved only once
  the transaction that holds its append has returned from its commit (or failed, and then
  nothing of it is stored). :meth:`GroupCommit.append` returns only then, so the table that
  awaits it swaps its game and sends the update (the acknowledgement included) after the
  commit: a process killed at any moment loses no move anyone was told of.
- **One batch at a time, each append in exactly one.** A single drain task takes the whole
  queue as one batch, stores it (in the writer thread or inline, below), answers it, then
  takes what queued meanwhile. An append queued while a batch is being stored waits for
  the next one.
- **Where a batch is written.** On PostgreSQL a commit waits for the database server's disk,
  so batches go to one writer thread (:class:`WriterThread`), started at the first batch
  and living as long as the group commit: it holds a database connection of its own
  (``Store.writer``) and takes the batches from a queue; the event loop awaits one future
  per batch, which the thread resolves through ``call_soon_threadsafe`` (no thread-pool
  hand-off, no pool check-out per batch). On SQLite a commit waits for no disk: in WAL
  mode with ``synchronous=NORMAL`` it writes the log's pages into the operating system's
  cache and returns (the fsyncs are the background checkpointer's, ``storage.Checkpointer``),
  which is what makes a move survive the process being killed. So there the drain task
  writes the batch itself, in the same connection, in one step of the event loop
  (``inline``): a batch of a few moves costs a fraction of a millisecond, less than handing
  it to a thread and back (the thread's wake-up and its turns at the interpreter's lock cost
  the process more CPU than the write, docs/deploy.md, "Load"). The appends that arrive
  before the drain task's step form its batch. The loop may wait there for the store's
  write lock while a lobby or chat write of a worker thread holds it (one short
  transaction; that thread runs meanwhile, as the loop gives up the interpreter's lock).
- **One append per table at a time.** Not kept here but by the caller: ``Table.apply``
  holds the table's lock from its version check until its append is answered, so a batch
  holds at most one waiter's moves of a table, and a table's moves are stored in their
  order. One waiter may hand in several moves of its table (a move and the bots' moves that
  follow it at once): they go into one batch, in their order, and are answered together.
- **No deadlock between the batches of two processes.** A batch holds the moves of many
  tables, and its finishing moves update the ratings of their accounts, which another
  process's batch may finish games of too. On PostgreSQL a batch locks rows in one global
  order (``storage.lock_in_order``: its tables by id, then, if it finishes a game, every
  account seated at one by id, all before its first write), so two batches never wait for
  each other in a cycle. On SQLite a batch's first statement is a write, which takes the
  database's only write lock until its commit: one lock cannot form a cycle.
- **A waiter that gave up is not written.** An append whose waiter was cancelled before its
  batch was taken is dropped; one cancelled later is written all the same (its table then
  finds the stored version ahead of its own at its next move, and reads the game again).
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable

import sqlalchemy as sa

from citadels.server.storage import Append, Store, WriteConflict

#: Stores a batch in the writer thread and gives each append's outcome (``Store.append_actions``).
Writer = Callable[[list[Append]], list[WriteConflict | None]]

Outcomes = list[WriteConflict | None]


def _settle(
    future: asyncio.Future[Outcomes], outcomes: Outcomes | None, exc: BaseException | None
) -> None:
    """In the event loop: a batch's outcome to its waiter (unless it gave up)."""
    if future.cancelled():
        return
    if exc is not None:
        future.set_exception(exc)
    else:
        assert outcomes is not None
        future.set_result(outcomes)


class WriterThread:
    """One thread that stores the batches handed to it, one after another, in its own
    database connection; :meth:`write` awaits a batch's outcomes from the event loop."""

    def __init__(self, store: Store, writer: Writer | None = None) -> None:
        self._store = store
        self._writer = writer
        self._jobs: queue.SimpleQueue[
            tuple[list[Append], asyncio.AbstractEventLoop, asyncio.Future[Outcomes]] | None
        ] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._conn: sa.Connection | None = None

    async def write(self, batch: list[Append]) -> Outcomes:
        """Store ``batch`` in the writer thread; its outcomes once it committed (or what
        made it fail, with nothing of it stored)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Outcomes] = loop.create_future()
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="citadels-writer", daemon=True)
            self._thread.start()
        self._jobs.put((batch, loop, future))
        return await future

    def close(self) -> None:
        """Stop the thread once the batches queued before are stored; release its
        connection."""
        if self._thread is not None:
            self._jobs.put(None)
            self._thread.join(timeout=30)
            self._thread = None
        elif self._conn is not None:  # the batches were written inline, in the caller's thread
            with contextlib.suppress(Exception):
                self._conn.close()
            self._conn = None

    def store_batch(self, batch: list[Append]) -> Outcomes:
        """Store ``batch`` now, in the caller's thread (the writer thread's, or the event
        loop's when the group commit writes inline), in this writer's own connection."""
        if self._writer is not None:
            return self._writer(batch)
        if self._conn is None:
            self._conn = self._store.writer()
        try:
            return self._store.append_actions(batch, self._conn)
        except Exception:
            # The connection may be broken (a database restart): the next batch takes a new one.
            conn, self._conn = self._conn, None
            with contextlib.suppress(Exception):
                conn.invalidate()
                conn.close()
            raise

    def _run(self) -> None:
        try:
            while (job := self._jobs.get()) is not None:
                batch, loop, future = job
                outcomes: Outcomes | None = None
                failure: BaseException | None = None
                try:
                    outcomes = self.store_batch(batch)
                except Exception as exc:
                    failure = exc
                # A closed loop (RuntimeError): nobody waits any more.
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(_settle, future, outcomes, failure)
        finally:
            if self._conn is not None:
                with contextlib.suppress(Exception):
                    self._conn.close()
                self._conn = None


class GroupCommit:
    """Stores the appends of one process's tables in shared transactions."""

    def __init__(
        self, store: Store, writer: Writer | None = None, *, inline: bool | None = None
    ) -> None:
        self._thread = WriterThread(store, writer)
        #: Whether a batch is written in the event loop's own step (no thread); by default on
        #: SQLite with the store's own writer (see the module's docstring).
        self.inline = (store.dialect == "sqlite" and writer is None) if inline is None else inline
        self._queue: list[tuple[tuple[Append, ...], asyncio.Future[None]]] = []
        self._drain: asyncio.Task[None] | None = None
        #: How many batches were stored, and how many appends they held (for the benchmark's
        #: and the tests' eyes only).
        self.batches = 0
        self.appends = 0

    async def append(self, *items: Append) -> None:
        """Store ``items`` (one table's next moves, in order) in the next transaction; returns
        once that transaction committed. Raises the first ``WriteConflict`` that kept one of
        them out, or what made their batch fail."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append((items, future))
        if self._drain is None or self._drain.done():
            self._drain = asyncio.create_task(self._run())
        await future

    def close(self) -> None:
        """Stop the writer thread (after the batches handed to it)."""
        self._thread.close()

    async def _run(self) -> None:
        """The drain task: batches until the queue is empty."""
        while self._queue:
            batch = [(a, f) for a, f in self._queue if not f.cancelled()]
            self._queue = []
            if not batch:
                continue
            try:
                appends = [a for items, _ in batch for a in items]
                if self.inline:
                    outcomes = self._thread.store_batch(appends)
                else:
                    outcomes = await self._thread.write(appends)
            except asyncio.CancelledError:
                # The process is stopping: nobody waits for an answer that will not come.
                for _, f in batch + self._queue:
                    f.cancel()
                raise
            except Exception as exc:
                for _, f in batch:
                    if not f.done():
                        f.set_exception(exc)
                continue
            self.batches += 1
            self.appends += len(appends)
            answers = iter(outcomes)
            for items, f in batch:
                mine = [next(answers) for _ in items]
                conflict = next((o for o in mine if o is not None), None)
                if f.done():
                    continue
                if conflict is None:
                    f.set_result(None)
                else:
                    f.set_exception(conflict)
