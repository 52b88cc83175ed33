"""Building the SQLAlchemy engine for a database URL.

SQLite gets, on every connection: WAL journal, foreign keys on, a 5 s busy
timeout, and ``check_same_thread=False`` so worker threads may share the pool.
The driver's own implicit transactions are turned off and the store emits
``BEGIN`` itself: ``BEGIN IMMEDIATE`` for writes (taking the write lock before
reading, so read-then-write transactions such as "next seq" cannot fail with
a stale snapshot), plain ``BEGIN`` for reads.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import URL, Connection, Engine
from sqlalchemy.pool import ConnectionPoolEntry, StaticPool

from playeval.store.location import is_sqlite, is_sqlite_memory, normalize_url

WRITE_OPTION = "playeval_write"
"""Execution option marking a connection whose transactions will write."""

SQLITE_BUSY_TIMEOUT_MS = 5000


def create_store_engine(url: str) -> Engine:
    """An engine for ``url``; any SQLAlchemy URL, ``postgresql://`` means psycopg 3."""
    parsed = normalize_url(url)
    if is_sqlite(parsed):
        return _sqlite_engine(parsed)
    return create_engine(parsed, pool_pre_ping=True)


def writer(engine: Engine) -> Engine:
    """The same engine and pool, with connections marked as writing."""
    return engine.execution_options(**{WRITE_OPTION: True})


def _sqlite_engine(url: URL) -> Engine:
    kwargs: dict[str, Any] = {"connect_args": {"check_same_thread": False}}
    if is_sqlite_memory(url):
        kwargs["poolclass"] = StaticPool
    elif url.database:
        Path(url.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, **kwargs)
    event.listen(engine, "connect", _sqlite_on_connect)
    event.listen(engine, "begin", _sqlite_on_begin)
    return engine


def _sqlite_on_connect(dbapi_connection: Any, connection_record: ConnectionPoolEntry) -> None:
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        # In WAL mode NORMAL keeps every commit across a process crash (kill -9); only a power cut can lose the
        # last commits. FULL would fsync each of the engine's many small event transactions.
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    finally:
        cursor.close()


def _sqlite_on_begin(connection: Connection) -> None:
    immediate = bool(connection.get_execution_options().get(WRITE_OPTION))
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")
