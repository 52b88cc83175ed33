"""Store.open's checks: a damaged SQLite file is refused and left as it was, the check is bounded in time, and a
store opened for writing must be writable (a read-only URI still serves readers)."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path

import pytest
from bad_stores import DAMAGES, damaged_copy, played_store
from sqlalchemy.exc import DatabaseError

from playeval.store import Store, StoreDamaged, StoreUnavailable
from playeval.store.engine import create_store_engine, failure_line
from playeval.store.integrity import check_integrity


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("integrity")
    saved = os.environ.get("PLAYEVAL_CACHE_DIR")
    os.environ["PLAYEVAL_CACHE_DIR"] = str(folder / "cache")
    try:
        path = folder / "good.db"
        played_store(path)
        return path
    finally:
        if saved is None:
            os.environ.pop("PLAYEVAL_CACHE_DIR", None)
        else:
            os.environ["PLAYEVAL_CACHE_DIR"] = saved


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("damage", sorted(DAMAGES))
@pytest.mark.parametrize("write", [True, False])
def test_a_damaged_file_is_refused_and_left_alone(good: Path, tmp_path: Path, damage: str, write: bool) -> None:
    bad = damaged_copy(good, tmp_path, damage)
    before = _digest(bad)
    with pytest.raises(StoreDamaged) as caught:
        Store.open(f"sqlite:///{bad}", write=write)
    message = str(caught.value)
    assert "\n" not in message and "nothing was written" in message
    if damage in ("damaged-page", "truncated"):
        assert f"sqlite3 {bad} .recover | sqlite3 {tmp_path / f'{damage}-recovered.db'}" in message
    else:
        assert "not an SQLite database" in message
    assert _digest(bad) == before


def test_the_damaged_page_is_one_a_new_run_would_not_read(good: Path, tmp_path: Path) -> None:
    """Without the check at open (an engine wrapped as it was before), the damaged file takes a new run and reads
    it back without noticing; only the check sees the damage."""
    bad = damaged_copy(good, tmp_path, "damaged-page")
    unchecked = Store(create_store_engine(f"sqlite:///{bad}"))
    try:
        run_id = unchecked.create_run("akinator", 1, {})
        assert unchecked.get_run(run_id).game == "akinator"
    finally:
        unchecked.close()
    with sqlite3.connect(bad) as connection, pytest.raises(sqlite3.DatabaseError, match="malformed"):
        connection.execute("PRAGMA quick_check").fetchall()


def test_the_check_stops_at_its_budget(good: Path) -> None:
    store = Store.open(f"sqlite:///{good}", integrity_budget_s=0.0)  # stopped at once: opens, unchecked
    try:
        assert check_integrity(store.engine, f"sqlite:///{good}", 0.0) is False
        assert check_integrity(store.engine, f"sqlite:///{good}", 30.0) is True
    finally:
        store.close()


def test_a_damaged_page_met_after_open_is_one_line(good: Path, tmp_path: Path) -> None:
    """A page the check did not reach (a file larger than its budget) fails when read, and ``playeval``'s main
    says so in one line (``failure_line``)."""
    bad = damaged_copy(good, tmp_path, "damaged-page")
    unchecked = Store(create_store_engine(f"sqlite:///{bad}"))
    try:
        with pytest.raises(DatabaseError) as caught:
            for run in unchecked.list_runs():
                for match in unchecked.run_matches(run.id):
                    unchecked.events(match.id)
    finally:
        unchecked.close()
    line = failure_line(caught.value)
    assert line == ("the database is damaged (database disk image is malformed): restore a backup, or recover what "
                    "it holds into a new file with: sqlite3 FILE .recover | sqlite3 NEW.db")


def test_a_read_only_uri_serves_readers_and_refuses_writers(good: Path, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    url = f"sqlite:///file:{good}?mode=ro&uri=true"
    before = _digest(good)
    with Store.open(url, write=False) as store:
        runs = store.list_runs()
        assert len(runs) == 1 and store.run_matches(runs[0].id)
    with pytest.raises(StoreUnavailable, match="it is opened read-only"):
        Store.open(url)
    assert _digest(good) == before
    assert list(tmp_path.iterdir()) == []  # the file: URI made no 'file:' directory here


def test_a_missing_file_under_a_read_only_uri_is_not_created(tmp_path: Path) -> None:
    missing = tmp_path / "none" / "x.db"
    with pytest.raises(StoreUnavailable, match="unable to open database file"):
        Store.open(f"sqlite:///file:{missing}?mode=ro&uri=true", write=False)
    assert not missing.parent.exists()


def test_a_writable_uri_is_written(tmp_path: Path) -> None:
    path = tmp_path / "rw.db"
    with Store.open(f"sqlite:///file:{path}?mode=rwc&uri=true") as store:
        store.create_run("akinator", 1, {})
    with Store.open(f"sqlite:///{path}", write=False) as store:
        assert len(store.list_runs()) == 1


def test_a_malformed_postgresql_url_is_one_line_without_its_password() -> None:
    with pytest.raises(StoreUnavailable) as caught:
        Store.open("postgresql://u:secret@[::1")
    assert str(caught.value).startswith("cannot open the database postgresql://u:***@[::1: not a database URL")
