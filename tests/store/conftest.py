"""Fixtures for store tests: SQLite files, and a throwaway PostgreSQL server.

``db_url`` runs a test on SQLite and, marked ``postgres``, on PostgreSQL. When
the PostgreSQL binaries are missing the postgres cases are skipped with how to
install them -- except under CI (``CI=true``), where they fail instead.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from pg_server import PgServer

from playeval.store import Store


@pytest.fixture(scope="session")
def postgres_url(postgres_server: PgServer) -> str:
    """A database on the session's server, shared by the tests that use it."""
    return postgres_server.create_database("playeval")


@pytest.fixture
def fresh_postgres_url(postgres_server: PgServer) -> str:
    """A new, empty database for one test."""
    return postgres_server.create_database(f"t_{secrets.token_hex(6)}")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database: an SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.db'}"
    url: str = request.getfixturevalue("fresh_postgres_url")
    return url


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    with Store.open(db_url) as opened:
        yield opened
