"""Building the SQLAlchemy engine for a database URL.

SQLite gets, on every connection: WAL journal, foreign keys on, a 5 s busy
timeout, and ``check_same_thread=False`` so worker threads may share the pool.
The driver's own implicit transactions are turned off and the store emits
``BEGIN`` itself: ``BEGIN IMMEDIATE`` for writes (taking the write lock before
reading, so read-then-write transactions such as "next seq" cannot fail with
a stale snapshot), plain ``BEGIN`` for reads.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError
from sqlalchemy.pool import ConnectionPoolEntry, StaticPool

from playeval.store.errors import StoreDamaged, StoreUnavailable
from playeval.store.location import is_sqlite, is_sqlite_memory, is_sqlite_read_only, normalize_url, sqlite_path

WRITE_OPTION = "playeval_write"
"""Execution option marking a connection whose transactions will write."""

SQLITE_BUSY_TIMEOUT_MS = 5000


PG_CONNECT_TIMEOUT_S = 5
"""Seconds to wait for a PostgreSQL server to answer before giving up (an unreachable host must not hang)."""

_URL_EXAMPLES = "expected sqlite:///path/to/file.db or postgresql://user:password@host/database"


def create_store_engine(url: str) -> Engine:
    """An engine for ``url``; any SQLAlchemy URL, ``postgresql://`` means psycopg 3.

    Raises :class:`StoreUnavailable` for a URL that is malformed, names a driver that is not installed, or is an
    SQLite file that cannot be written.
    """
    try:
        parsed = normalize_url(url)
    except (ArgumentError, ValueError):  # ValueError: a part SQLAlchemy could not read (a port in a broken host)
        reason = "it is a directory, not a database URL" if Path(url).expanduser().is_dir() else "not a database URL"
        raise StoreUnavailable(f"cannot open the database {shown_url(url)}: {reason} ({_URL_EXAMPLES})") from None
    if is_sqlite(parsed):
        return _sqlite_engine(parsed)
    kwargs: dict[str, Any] = {"pool_pre_ping": True}
    if parsed.get_backend_name() == "postgresql" and "connect_timeout" not in parsed.query:
        kwargs["connect_args"] = {"connect_timeout": PG_CONNECT_TIMEOUT_S}
    try:
        return create_engine(parsed, **kwargs)
    except (NoSuchModuleError, ImportError) as exc:
        raise StoreUnavailable(
            f"cannot open the database {_shown(parsed)}: unsupported database driver {parsed.drivername!r} "
            f"({_URL_EXAMPLES})"
        ) from exc


def shown_url(url: str) -> str:
    """``url`` as it may be shown: as given, but with any password hidden."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):  # not parsed: hide what stands where a password would
        return re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", url)
    return url if parsed.password is None else _shown(parsed)


def driver_reason(exc: DBAPIError) -> str:
    """The first line of the driver's own message."""
    lines = [line.strip() for line in str(exc.orig).splitlines() if line.strip()]
    return lines[0] if lines else type(exc.orig).__name__


def unavailable(url: str, exc: DBAPIError) -> StoreUnavailable:
    """The one-line error for a database the driver refused to open or write (``exc`` from the first connection):
    :class:`StoreDamaged` when SQLite found the file damaged or not a database at all."""
    shown = shown_url(url)
    if is_damage(exc):
        return damaged(url, driver_reason(exc), not_a_database=_sqlite_code(exc).startswith("SQLITE_NOTADB"))
    return StoreUnavailable(f"cannot open the database {shown}: {driver_reason(exc)}")


def failure_line(exc: DBAPIError) -> str:
    """One line for a database error met after the store opened (a damaged page beyond what the check at open
    read, a server gone): the driver's reason and, for damage, what to do."""
    if is_damage(exc):
        return (f"the database is damaged ({driver_reason(exc)}): restore a backup, or recover what it holds into "
                "a new file with: sqlite3 FILE .recover | sqlite3 NEW.db")
    return f"database error: {driver_reason(exc)}"


def _sqlite_code(exc: DBAPIError) -> str:
    return str(getattr(exc.orig, "sqlite_errorname", ""))


def is_damage(exc: DBAPIError) -> bool:
    """SQLite's answer for a damaged file (``SQLITE_CORRUPT``) or one that is no SQLite database (``SQLITE_NOTADB``)."""
    return _sqlite_code(exc).startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB"))


def damaged(url: str, problem: str, *, not_a_database: bool = False) -> StoreDamaged:
    """The one line for a damaged SQLite file: what SQLite found, that nothing was written, and how to recover."""
    shown = shown_url(url)
    try:
        path = sqlite_path(normalize_url(url))
    except (ArgumentError, ValueError):
        path = None
    if not_a_database or path is None:
        return StoreDamaged(f"cannot open the database {shown}: it is not an SQLite database, or its header is "
                            f"damaged ({problem}); nothing was written to it: give another database or restore a "
                            "backup")
    rescued = path.with_name(f"{path.stem}-recovered{path.suffix or '.db'}")
    return StoreDamaged(f"cannot open the database {shown}: the file is damaged ({problem}); nothing was written "
                        f"to it: restore a backup, or recover what it holds with: sqlite3 {path} .recover | "
                        f"sqlite3 {rescued}  and use --db sqlite:///{rescued}")


def _shown(url: URL) -> str:
    return url.render_as_string(hide_password=True)


def _writable(path: Path) -> bool:
    """Writable by this process, and not marked read-only for everyone (which even root is taken to mean)."""
    return os.access(path, os.W_OK) and bool(path.stat().st_mode & 0o222)


def _check_sqlite_file(url: URL, path: Path) -> None:
    """Fail now, with the reason, for an SQLite file SQLite could not open for writing (it says only 'unable')."""
    problem = None
    if path.is_dir():
        problem = "it is a directory"
    elif path.exists() and not _writable(path):
        problem = f"the file {path} is read-only"
    elif path.parent.is_dir() and not _writable(path.parent):
        problem = f"its directory {path.parent} is read-only (SQLite writes its journal beside the file)"
    if problem is not None:
        raise StoreUnavailable(f"cannot open the database {_shown(url)}: {problem}")


def writer(engine: Engine) -> Engine:
    """The same engine and pool, with connections marked as writing."""
    return engine.execution_options(**{WRITE_OPTION: True})


def _sqlite_engine(url: URL) -> Engine:
    kwargs: dict[str, Any] = {"connect_args": {"check_same_thread": False}}
    if is_sqlite_memory(url):
        kwargs["poolclass"] = StaticPool
    elif (path := sqlite_path(url)) is not None and not is_sqlite_read_only(url):
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreUnavailable(
                f"cannot open the database {_shown(url)}: cannot create its directory {path.parent}: {exc.strerror}"
            ) from exc
        _check_sqlite_file(url, path)
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
