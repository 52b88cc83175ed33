"""Test isolation: every test gets its own data and cache directories; the engine checks the games' contracts.

The joined model files are the exception: they stay in the user's model
directory (or $PLAYEVAL_MODEL_DIR) so the 1 GB default model is assembled
once, not once per test.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import pytest
from pg_server import INSTALL_HINT, PgServer, PgUnavailable, find_pg_bin, start_server


@pytest.fixture(autouse=True)
def _isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYEVAL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PLAYEVAL_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PLAYEVAL_CALIBRATION_DIR", str(tmp_path / "calibrations"))  # never the user's own fits
    monkeypatch.delenv("PLAYEVAL_DB", raising=False)
    monkeypatch.setenv("PLAYEVAL_CHECKS", "1")  # the engine checks the games' contracts (a transcript only grows)
    for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "PLAYEVAL_OPENAI_BASE_URL",
                "PLAYEVAL_OPENAI_CONCURRENCY"):
        monkeypatch.delenv(key, raising=False)


def _unavailable(message: str) -> NoReturn:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{message} (CI=true: PostgreSQL tests must not be skipped)", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PgServer]:
    """A throwaway PostgreSQL server for the session (``pg_server.py``), started on first use.

    When the binaries are missing the tests that use it are skipped with how to install them, except under CI
    (``CI=true``), where they fail instead.
    """
    if importlib.util.find_spec("psycopg") is None:
        _unavailable("psycopg is not installed; pip install 'psycopg[binary]'")
    bin_dir = find_pg_bin()
    if bin_dir is None:
        _unavailable(f"PostgreSQL server binaries (initdb, pg_ctl) not found; {INSTALL_HINT}")
    try:
        server = start_server(bin_dir)
    except PgUnavailable as exc:
        _unavailable(str(exc))
    try:
        yield server
    finally:
        server.stop()
