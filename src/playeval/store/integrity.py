"""The checks :meth:`Store.open <playeval.store.Store.open>` makes once per open: that an SQLite file is whole,
and that a store opened for writing can be written.

The integrity check is SQLite's ``PRAGMA quick_check`` (every page and b-tree, without the indexes' contents),
stopped by a progress handler when it has run ``budget_s`` seconds: a file too large to check in that time is
opened unchecked beyond what was read (a damaged page met later still fails in one line, by
:func:`~playeval.store.engine.unavailable`). PostgreSQL keeps its own checks and gets none here.
"""

from __future__ import annotations

import sqlite3
import time
from typing import Any

from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError

from playeval.store.engine import damaged, shown_url, writer
from playeval.store.errors import StoreUnavailable

INTEGRITY_BUDGET_S = 2.0
"""Seconds the integrity check may take at open (a few hundred MB of database on a laptop); then it stops."""

_PROGRESS_STEPS = 2000
"""SQLite virtual-machine steps between two looks at the clock."""


def check_integrity(engine: Engine, url: str, budget_s: float = INTEGRITY_BUDGET_S) -> bool:
    """Run ``PRAGMA quick_check`` on an SQLite database for at most ``budget_s`` seconds; raise
    :class:`StoreDamaged` for the problems it finds. Returns whether the check finished (always ``True``
    off SQLite, where there is nothing to do). A file SQLite cannot read at all raises the driver's error."""
    if engine.dialect.name != "sqlite":
        return True
    with engine.connect() as connection:
        driver: Any = connection.connection.driver_connection
        deadline = time.monotonic() + budget_s
        driver.set_progress_handler(lambda: int(time.monotonic() > deadline), _PROGRESS_STEPS)
        try:
            problems = [str(row[0]) for row in driver.execute("PRAGMA quick_check").fetchall()]
        except sqlite3.DatabaseError as exc:
            code = str(getattr(exc, "sqlite_errorname", ""))
            if code == "SQLITE_INTERRUPT":
                return False
            if code.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
                raise damaged(url, str(exc), not_a_database=code.startswith("SQLITE_NOTADB")) from exc
            raise
        finally:
            driver.set_progress_handler(None, 0)
    if problems != ["ok"]:
        more = f", and {len(problems) - 1} more problems" if len(problems) > 1 else ""
        raise damaged(url, f"quick_check: {problems[0]}{more}")
    return True


def check_writable(engine: Engine, url: str) -> None:
    """Raise :class:`StoreUnavailable` for an SQLite database opened read-only (a ``mode=ro`` URI), before the
    first write would fail half-way through a command. The probe is a write that changes nothing."""
    if engine.dialect.name != "sqlite":
        return
    try:
        with writer(engine).begin() as connection:
            connection.exec_driver_sql("DELETE FROM alembic_version WHERE 0")
    except DBAPIError as exc:
        if getattr(exc.orig, "sqlite_errorname", "") != "SQLITE_READONLY":
            raise
        raise StoreUnavailable(f"cannot write to the database {shown_url(url)}: it is opened read-only; this "
                               "command records into it, so give a writable database") from exc
