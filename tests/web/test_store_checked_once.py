"""The arena checks its database once, when it opens the store, not on every request."""

from __future__ import annotations

from pathlib import Path

import pytest
from arena_client import make_settings, running
from sqlalchemy.engine import Engine

import playeval.store.store as store_module
from playeval.store.integrity import check_integrity


async def test_requests_do_not_check_the_database_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    checks: list[str] = []

    def counted(engine: Engine, url: str, budget_s: float) -> bool:
        checks.append(url)
        return check_integrity(engine, url, budget_s)

    monkeypatch.setattr(store_module, "check_integrity", counted)
    async with running(make_settings(tmp_path)) as client:
        assert len(checks) == 1
        for _ in range(3):
            assert (await client.get("/api/leaderboard", params={"game": "akinator"})).status_code == 200
            assert (await client.get("/api/stats")).status_code == 200
            assert (await client.get("/")).status_code == 200
    assert checks == [f"sqlite:///{tmp_path / 'arena.db'}"]
