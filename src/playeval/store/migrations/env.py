"""Alembic environment for playeval's store.

Migrations run from :func:`playeval.store.migrate.upgrade_schema`, which
passes an open connection in ``config.attributes["connection"]``; there is no
alembic.ini and no URL here. To write a new revision, number it after the
last one (``0002_...py`` with ``revision = "0002"``), mirror the change made
in ``schema.py``, and let ``tests/store/test_migrations.py`` check that the
two agree.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from playeval.store.schema import metadata


def run_migrations(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def main() -> None:
    connection = context.config.attributes.get("connection")
    if not isinstance(connection, Connection):
        raise TypeError(
            "playeval's migrations need a connection in config.attributes['connection']; "
            "open the database with playeval.store.Store.open()"
        )
    run_migrations(connection)


main()
