"""The arena reads matches recorded before Core v2 (``tests/fixtures/v1``) as the old arena showed them: the same
transcripts, seats, outcomes and secrets (now a disclosure with the game's labels); and starting up on that
database writes nothing into its live match, whose person is still at the table."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from arena_client import disclosed, make_settings, running

from playeval.store import Store

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "v1"
GOLDEN: dict[str, list[Any]] = json.loads((FIXTURE / "golden" / "web.json").read_text("utf-8"))
REPLAYS = [path for path in GOLDEN if path.endswith("/replay")]
LIVE = "a692ec44403b9c9a"


@pytest.fixture
def v1_db(tmp_path: Path) -> str:
    shutil.copyfile(FIXTURE / "playeval-v1.db", tmp_path / "arena.db")
    return f"sqlite:///{tmp_path / 'arena.db'}"


@pytest.mark.parametrize("path", REPLAYS)
async def test_old_replays_read_the_same(tmp_path: Path, v1_db: str, path: str) -> None:
    status, old = GOLDEN[path]
    async with running(make_settings(tmp_path, db=v1_db)) as client:
        response = await client.get(path)
    assert response.status_code == status == 200
    new = response.json()
    for key in ("id", "game", "title", "level", "mode", "seq", "status", "transcript", "retro"):
        assert new[key] == old[key], key
    assert [(s["seat"], s["label"], s["is_you"], s["model"]) for s in new["seats"]] == [
        (s["seat"], s["label"], s["is_you"], s["model"]) for s in old["seats"]]
    for key in ("status", "winner", "reason", "rounds", "you_won"):
        assert new["outcome"][key] == old["outcome"][key], key
    assert new["outcome"]["winners"] == ([old["outcome"]["winner"]] if old["outcome"]["winner"] else [])
    assert disclosed(new) == {"secret": old["secret"]}


async def test_the_old_match_list_reads_the_same(tmp_path: Path, v1_db: str) -> None:
    path = "/api/matches?status=finished"
    async with running(make_settings(tmp_path, db=v1_db)) as client:
        new = (await client.get(path)).json()
    old = GOLDEN[path][1]
    assert [(m["id"], m["status"], m["mode"]) for m in new] == [(m["id"], m["status"], m["mode"]) for m in old]
    assert [[s["label"] for s in m["seats"]] for m in new] == [[s["label"] for s in m["seats"]] for m in old]
    assert [m["outcome"]["reason"] for m in new] == [m["outcome"]["reason"] for m in old]


async def test_starting_on_an_old_database_leaves_its_live_match_alone(tmp_path: Path, v1_db: str) -> None:
    with Store.open(v1_db) as store:
        before = store.last_seq(LIVE)
        [person] = store.get_web_match(LIVE).people
    assert person.seat == "bluffer" and person.joined_at is not None  # migrated from the old arena row
    async with running(make_settings(tmp_path, db=v1_db, sweep_s=0.05)) as client:
        await asyncio.sleep(0.5)  # start-up and a few sweeps
        assert (await client.get(f"/api/matches/{LIVE}")).status_code == 404  # still its person's only
    with Store.open(v1_db) as store:
        assert store.last_seq(LIVE) == before
        assert store.get_match(LIVE).status == "running"
