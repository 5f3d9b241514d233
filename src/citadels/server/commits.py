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
  queue as one batch, stores it in a worker thread, answers it, then takes what queued
  meanwhile. An append queued while a batch is being stored waits for the next one.
- **One append per table at a time.** Not kept here but by the caller: ``Table.apply``
  holds the table's lock from its version check until its append is answered, so a batch
  never holds two moves of one table, and a table's moves are stored in their order.
- **A waiter that gave up is not written.** An append whose waiter was cancelled before its
  batch was taken is dropped; one cancelled later is written all the same (its table then
  finds the stored version ahead of its own at its next move, and reads the game again).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from citadels.server.storage import Append, Store, WriteConflict

#: Stores a batch in a worker thread and gives each append's outcome (``Store.append_actions``).
Writer = Callable[[list[Append]], list[WriteConflict | None]]


class GroupCommit:
    """Stores the appends of one process's tables in shared transactions."""

    def __init__(self, store: Store, writer: Writer | None = None) -> None:
        self._store = store
        self._writer = writer
        self._queue: list[tuple[Append, asyncio.Future[None]]] = []
        self._drain: asyncio.Task[None] | None = None
        #: How many batches were stored, and how many appends they held (for the benchmark's
        #: and the tests' eyes only).
        self.batches = 0
        self.appends = 0

    async def append(self, item: Append) -> None:
        """Store ``item`` in the next transaction; returns once that transaction committed.
        Raises the ``WriteConflict`` that kept it out, or what made its batch fail."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append((item, future))
        if self._drain is None or self._drain.done():
            self._drain = asyncio.create_task(self._run())
        await future

    def _write(self, batch: list[Append]) -> list[WriteConflict | None]:
        """Store one batch (in a worker thread): the given writer's, or the store's."""
        if self._writer is not None:
            return self._writer(batch)
        return self._store.append_actions(batch)

    async def _run(self) -> None:
        """The drain task: batches until the queue is empty."""
        while self._queue:
            batch = [(a, f) for a, f in self._queue if not f.cancelled()]
            self._queue = []
            if not batch:
                continue
            try:
                outcomes = await asyncio.to_thread(self._write, [a for a, _ in batch])
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
            self.appends += len(batch)
            for (_, f), outcome in zip(batch, outcomes, strict=True):
                if f.done():
                    continue
                if outcome is None:
                    f.set_result(None)
                else:
                    f.set_exception(outcome)
