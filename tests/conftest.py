"""Test isolation: every test gets its own data and cache directories.

The joined model files are the exception: they stay in the user's model
directory (or $PLAYEVAL_MODEL_DIR) so the 1 GB default model is assembled
once, not once per test.
"""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYEVAL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PLAYEVAL_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PLAYEVAL_DB", raising=False)
    for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "PLAYEVAL_OPENAI_BASE_URL"):
        monkeypatch.delenv(key, raising=False)
