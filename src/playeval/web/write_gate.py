"""One writer at a time inside a server process on SQLite, queued in the process instead of in SQLite's busy wait.

The store begins every write with ``BEGIN IMMEDIATE``. When two threads of one process (the event loop's model
steps, the worker threads of requests) write at once, the second waits in SQLite's busy handler, which sleeps
1, 2, 5, 10, 15, 20, 25, 25, 50, 50, 100 ms between tries: a write that would wait a millisecond for the other
one's commit often waits tens, and the event loop with it when the waiting write is a model step's. The gate
makes the process's writers take a lock before ``BEGIN IMMEDIATE`` and give it back when the connection returns
to the pool (after its commit or rollback), so they wait exactly as long as the write before them; another
process (a batch run on the same file) is still waited for by SQLite as before. PostgreSQL needs no gate.
"""

from __future__ import annotations

import threading
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import ConnectionPoolEntry

from playeval.store.engine import WRITE_OPTION

HELD = "playeval_write_gate_held"


class WriteGate:
    """The writers' lock of one SQLite engine; ``install`` it once, ``remove`` it when the app stops."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._lock = threading.RLock()

    @staticmethod
    def needed(engine: Engine) -> bool:
        return engine.dialect.name == "sqlite"

    def install(self) -> None:
        event.listen(self.engine, "begin", self._before_begin, insert=True)
        event.listen(self.engine.pool, "checkin", self._on_checkin)

    def remove(self) -> None:
        event.remove(self.engine, "begin", self._before_begin)
        event.remove(self.engine.pool, "checkin", self._on_checkin)

    def free(self) -> bool:
        """Whether no writer holds the gate now (asked from a thread that holds none)."""
        if not self._lock.acquire(blocking=False):
            return False
        self._lock.release()
        return True

    def _before_begin(self, connection: Connection) -> None:
        if connection.get_execution_options().get(WRITE_OPTION) and not connection.info.get(HELD):
            self._lock.acquire()
            connection.info[HELD] = True

    def _on_checkin(self, dbapi_connection: Any, record: ConnectionPoolEntry) -> None:
        if record.info.pop(HELD, False):
            self._lock.release()
