"""Running the Alembic migrations shipped in ``migrations/``, from code."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine

from playeval.store.engine import writer
from playeval.store.errors import SchemaTooNew

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"

PG_MIGRATION_LOCK = 0x706C6179
"""Advisory lock key held on PostgreSQL while migrating, so concurrent openers wait."""


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic config for the packaged migrations, with ``connection`` attached."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:
        raise RuntimeError(f"no migrations found in {MIGRATIONS_DIR}")
    return head


def current_revision(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


def upgrade_schema(engine: Engine) -> None:
    """Create the schema in a fresh database, or bring an older one up to head.

    Runs in one transaction (SQLite's write lock, or an advisory lock on
    PostgreSQL), so two processes opening the same new database do not race.
    """
    script = ScriptDirectory.from_config(alembic_config())
    with writer(engine).connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            # A revision that changes a referenced table (matches) rebuilds it on SQLite: copy, drop, rename.
            # The drop would trip the foreign keys of its children, so they are off during the migration (the
            # pragma is ignored inside a transaction, hence the raw connection before BEGIN) and checked after.
            _sqlite_pragma(connection, "PRAGMA foreign_keys=OFF")
        try:
            with connection.begin():
                if connection.dialect.name == "postgresql":
                    connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": PG_MIGRATION_LOCK})
                current = current_revision(connection)
                if current is not None and current not in {rev.revision for rev in script.walk_revisions()}:
                    raise SchemaTooNew(
                        f"the database schema is at revision {current}, newer than this playeval knows "
                        f"(head {script.get_current_head()}); upgrade playeval to use it"
                    )
                if current != script.get_current_head():
                    command.upgrade(alembic_config(connection), "head")
                    if sqlite and _sqlite_pragma(connection, "PRAGMA foreign_key_check"):
                        raise RuntimeError("the migration left rows whose foreign keys point nowhere")
        finally:
            if sqlite:
                _sqlite_pragma(connection, "PRAGMA foreign_keys=ON")


def _sqlite_pragma(connection: Connection, pragma: str) -> list[tuple[object, ...]]:
    """Run a pragma on the driver's connection, outside SQLAlchemy's transaction bookkeeping."""
    cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
    try:
        return list(cursor.execute(pragma).fetchall())
    finally:
        cursor.close()
