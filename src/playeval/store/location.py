"""Where the database lives: the default URL and the normalisation of given ones."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote, urlsplit

from sqlalchemy.engine import URL, make_url

DB_ENV = "PLAYEVAL_DB"
HOME_ENV = "PLAYEVAL_HOME"
DB_FILENAME = "playeval.db"


def data_dir() -> Path:
    """The directory for playeval's own files, created if missing.

    ``$PLAYEVAL_HOME`` if set, else ``$XDG_DATA_HOME/playeval``, else
    ``~/.local/share/playeval``.
    """
    home = os.environ.get(HOME_ENV)
    if home:
        path = Path(home).expanduser()
    else:
        xdg = os.environ.get("XDG_DATA_HOME")
        base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
        path = base / "playeval"
    path.mkdir(parents=True, exist_ok=True)
    return path


def default_db_url() -> str:
    """``$PLAYEVAL_DB`` if set, else an SQLite file in :func:`data_dir`."""
    url = os.environ.get(DB_ENV)
    if url:
        return url
    return f"sqlite:///{data_dir() / DB_FILENAME}"


def normalize_url(url: str) -> URL:
    """Parse a database URL, sending plain PostgreSQL URLs to the psycopg 3 driver."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def is_sqlite(url: URL) -> bool:
    return url.get_backend_name() == "sqlite"


def is_sqlite_memory(url: URL) -> bool:
    """True for an in-memory SQLite database (no file, or ``:memory:``)."""
    database = url.database
    return is_sqlite(url) and (not database or database == ":memory:" or database.startswith("file::memory:")
                               or url.query.get("mode") == "memory")


def _is_uri(url: URL) -> bool:
    """An SQLite URL whose database is an SQLite URI filename (``sqlite:///file:PATH?mode=ro&uri=true``)."""
    return url.query.get("uri") == "true" and (url.database or "").startswith("file:")


def sqlite_path(url: URL) -> Path | None:
    """The file an SQLite URL names (``None`` in memory): its path, or the path of its ``file:`` URI."""
    if is_sqlite_memory(url) or not url.database:
        return None
    if _is_uri(url):
        return Path(unquote(urlsplit(url.database).path)).expanduser()
    return Path(url.database).expanduser()


def is_sqlite_read_only(url: URL) -> bool:
    """An SQLite URI opened read-only (``mode=ro`` or ``immutable=1``): nothing may be created or written."""
    return _is_uri(url) and (url.query.get("mode") == "ro" or url.query.get("immutable") == "1")
