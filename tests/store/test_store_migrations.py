"""The packaged Alembic migrations, and the SQLite connection settings."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from playeval.store import SchemaTooNew, Store
from playeval.store.migrate import current_revision, head_revision
from playeval.store.schema import metadata

TABLES = {"runs", "matches", "seats", "match_roles", "events", "model_calls", "retro_outputs", "web_matches",
          "web_seats", "surveys", "alembic_version"}


def test_fresh_database_reaches_head(db_url: str) -> None:
    with Store.open(db_url) as store, store.engine.connect() as connection:
        assert current_revision(connection) == head_revision() == "0006"
        assert set(inspect(connection).get_table_names()) == TABLES


def test_orm_metadata_matches_migrated_schema(db_url: str) -> None:
    with Store.open(db_url) as store, store.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, metadata) == []


def test_opening_twice_is_idempotent(db_url: str) -> None:
    with Store.open(db_url) as store:
        run_id = store.create_run("akinator", 1, {"n": 1})
    with Store.open(db_url) as store:
        assert store.get_run(run_id).config == {"n": 1}
        with store.engine.connect() as connection:
            assert current_revision(connection) == head_revision()
            assert connection.execute(text("SELECT count(*) FROM alembic_version")).scalar_one() == 1


def test_newer_schema_is_refused(db_url: str) -> None:
    with Store.open(db_url) as store, store.engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    with pytest.raises(SchemaTooNew, match="9999"):
        Store.open(db_url)


def test_sqlite_connections_use_wal_foreign_keys_and_busy_timeout(tmp_path: Path) -> None:
    with Store.open(f"sqlite:///{tmp_path / 'wal.db'}") as store:
        for _ in range(2):  # a second pooled connection too
            with store.engine.connect() as connection:
                assert connection.execute(text("PRAGMA journal_mode")).scalar_one() == "wal"
                assert connection.execute(text("PRAGMA foreign_keys")).scalar_one() == 1
                assert connection.execute(text("PRAGMA busy_timeout")).scalar_one() == 5000
        assert (tmp_path / "wal.db").exists()


def test_sqlite_enforces_foreign_keys(tmp_path: Path) -> None:
    with (
        Store.open(f"sqlite:///{tmp_path / 'fk.db'}") as store,
        pytest.raises(IntegrityError),
        store.engine.begin() as connection,
    ):
        connection.execute(
            text("INSERT INTO seats (match_id, seat, position, player_kind) VALUES ('missing', 'a', 0, 'llm')")
        )


def test_sqlite_file_directory_is_created(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "x.db"
    with Store.open(f"sqlite:///{path}") as store:
        store.create_run("akinator", 1, {})
    assert path.exists()


def test_in_memory_sqlite_keeps_one_database() -> None:
    with Store.open("sqlite://") as store:
        run_id = store.create_run("akinator", 1, {})
        assert store.latest_run_id() == run_id


def test_0005_upgrade_keeps_matches_and_downgrade_returns_interrupted_to_running(tmp_path: Path) -> None:
    from alembic import command

    from playeval.store.migrate import alembic_config

    url = f"sqlite:///{tmp_path / 'old.db'}"
    with Store.open(url) as store, store.engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0004")
        assert current_revision(connection) == "0004"
        with pytest.raises(IntegrityError):  # 0004 knows no interrupted matches
            with connection.begin_nested():
                connection.execute(text(
                    "INSERT INTO matches (id, game, level, seed, spec, status, created_at) "
                    "VALUES ('m1', 'akinator', 1, 1, '{}', 'interrupted', '2026-11-25 00:00:00')"))
        connection.execute(text(
            "INSERT INTO matches (id, game, level, seed, spec, status, created_at) "
            "VALUES ('m1', 'akinator', 1, 1, '{}', 'running', '2026-11-25 00:00:00')"))
    with Store.open(url) as store, store.engine.begin() as connection:
        assert current_revision(connection) == head_revision()
        connection.execute(text("UPDATE matches SET status = 'interrupted', stop_reason = 'provider down'"))
        assert connection.execute(text("SELECT stop_reason FROM matches")).scalar_one() == "provider down"
        command.downgrade(alembic_config(connection), "0004")
        assert connection.execute(text("SELECT status FROM matches")).scalar_one() == "running"
