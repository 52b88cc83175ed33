"""Where the database lives by default, and URL normalisation."""

from __future__ import annotations

from pathlib import Path

import pytest

from playeval.store import Store, default_db_url
from playeval.store.location import normalize_url


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("PLAYEVAL_DB", "PLAYEVAL_HOME", "XDG_DATA_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def test_playeval_db_wins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PLAYEVAL_HOME", str(tmp_path / "ignored"))
    monkeypatch.setenv("PLAYEVAL_DB", "postgresql://u@db.example/playeval")
    assert default_db_url() == "postgresql://u@db.example/playeval"
    assert not (tmp_path / "ignored").exists()


def test_playeval_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    home = tmp_path / "pe-home"
    monkeypatch.setenv("PLAYEVAL_HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_db_url() == f"sqlite:///{home / 'playeval.db'}"
    assert home.is_dir()


def test_xdg_data_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_db_url() == f"sqlite:///{tmp_path / 'xdg' / 'playeval' / 'playeval.db'}"
    assert (tmp_path / "xdg" / "playeval").is_dir()


def test_home_fallback(tmp_path: Path) -> None:
    expected = tmp_path / "home" / ".local" / "share" / "playeval"
    assert default_db_url() == f"sqlite:///{expected / 'playeval.db'}"
    assert expected.is_dir()


def test_open_without_url_uses_default(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PLAYEVAL_HOME", str(tmp_path / "pe"))
    with Store.open() as store:
        run_id = store.create_run("akinator", 1, {})
    assert (tmp_path / "pe" / "playeval.db").exists()
    with Store.open(None) as store:
        assert store.latest_run_id() == run_id


@pytest.mark.parametrize("given", ["postgresql://u:secret@h:5433/db", "postgres://u:secret@h:5433/db"])
def test_postgres_urls_use_psycopg(given: str) -> None:
    url = normalize_url(given)
    assert url.drivername == "postgresql+psycopg"
    assert (url.host, url.port, url.database, url.username) == ("h", 5433, "db", "u")


def test_other_urls_pass_through() -> None:
    assert normalize_url("postgresql+psycopg://u@h/db").drivername == "postgresql+psycopg"
    assert normalize_url("sqlite:////tmp/x.db").drivername == "sqlite"
