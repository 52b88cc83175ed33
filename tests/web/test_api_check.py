"""The dry run: ``POST /api/matches/{id}/check`` judges a reply to the viewer's open ask by the game's own rules and
records nothing, so a page can warn before sending; it answers only a seat's own person, and only on their turn."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from arena_client import client_for, disclosed, make_settings, running, wait_view

from playeval.games.taboo.words import word_forms
from playeval.store import Store
from playeval.web import create_app


def _last_seq(db: str, match_id: str) -> int:
    with Store.open(db) as store:
        return store.last_seq(match_id)


async def test_a_reply_is_judged_without_being_recorded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYEVAL_MOCK_DELAY", "0.5")
    settings = make_settings(tmp_path)
    async with running(settings) as client:
        start = (await client.post("/api/matches", json={"game": "taboo"})).json()
        match_id, word = start["id"], disclosed(start)["secret"]
        check = f"/api/matches/{match_id}/check"
        for _ in range(200):  # the person's ask is recorded by the model step, in the background
            if _last_seq(settings.db or "", match_id) == 2:
                break
            await asyncio.sleep(0.01)
        before = _last_seq(settings.db or "", match_id)
        assert before == 2
        plural = max(sorted(word_forms(word)), key=len)
        said = (await client.post(check, json={"text": f"Two {plural.upper()} walk in"})).json()
        assert said["ok"] is False and said["error"] == "rule" and "contains the secret word" in said["reason"]
        long = (await client.post(check, json={"text": "a" * 141})).json()
        assert long == {"ok": False, "error": "rule", "reason": "the clue has 141 characters; at most 140 are allowed."}
        empty = (await client.post(check, json={"text": "   "})).json()
        assert empty == {"ok": False, "error": "format", "reason": "the clue was empty."}
        fine = (await client.post(check, json={"text": "It is often seen near people."})).json()
        assert fine == {"ok": True, "error": None, "reason": None}
        assert (await client.post(check, json={"text": "x", "party": "clue_giver"})).json()["ok"] is True
        mine_not = await client.post(check, json={"text": "x", "party": "guesser"})
        assert mine_not.status_code == 409 and "not yours to play" in mine_not.json()["detail"]
        assert _last_seq(settings.db or "", match_id) == before  # nothing of the dry runs was recorded
        view = (await client.get(f"/api/matches/{match_id}")).json()
        assert view["rejected"] is None and view["transcript"] == []

        # the same verdict as a move would get
        moved = await client.post(f"/api/matches/{match_id}/moves", json={"text": "a" * 141})
        assert moved.status_code == 422 and moved.json()["detail"] == long["reason"]
        sent = await client.post(f"/api/matches/{match_id}/moves", json={"text": "It is often seen near people."})
        assert sent.status_code == 200
        assert sent.json()["status"] == "thinking"  # the model is answering: the person has no open ask
        waiting = await client.post(check, json={"text": "Another clue"})
        assert waiting.status_code == 409 and "not your turn: wait for the model's move" in waiting.json()["detail"]
        await client.post(f"/api/matches/{match_id}/abandon")
        over = await client.post(check, json={"text": "Another clue"})
        assert over.status_code == 409 and "over" in over.json()["detail"]


async def test_choices_are_checked_too(tmp_path: Path) -> None:
    async with running(make_settings(tmp_path)) as client:
        start = (await client.post("/api/matches", json={"game": "akinator", "inputs": {"secret": "a kettle"}})).json()
        await wait_view(client, start["id"], {"your_turn"})
        check = f"/api/matches/{start['id']}/check"
        maybe = (await client.post(check, json={"text": "Maybe"})).json()
        assert maybe == {"ok": False, "error": "format",
                         "reason": "the answer must be exactly one of: Yes, No, Probably yes, Probably no, Don't know."}
        assert (await client.post(check, json={"text": "probably no"})).json()["ok"] is True


async def test_only_a_seat_s_own_person_may_check(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    app = create_app(settings)
    async with app.router.lifespan_context(app), client_for(app) as owner, client_for(app) as other:
        start = (await owner.post("/api/matches", json={"game": "taboo"})).json()
        check = f"/api/matches/{start['id']}/check"
        assert (await other.post(check, json={"text": "x"})).status_code == 404
        wrong = await other.post(check, json={"text": "x"}, headers={"X-Match-Token": "y" * 43})
        assert wrong.status_code == 403
        scripted = await other.post(check, json={"text": "x"}, headers={"X-Match-Token": start["token"]})
        assert scripted.status_code == 200 and scripted.json()["ok"] is True
        assert (await owner.post(check, json={"text": "x" * 1001})).status_code == 422
        assert (await owner.post(check, json={"text": "x", "extra": 1})).status_code == 422
        watched = (await owner.post("/api/watch", json={"game": "taboo"})).json()
        assert (await owner.post(f"/api/matches/{watched['id']}/check", json={"text": "x"})).status_code == 403
        assert (await owner.post("/api/matches/0123456789abcdef/check", json={"text": "x"})).status_code == 404
