"""Trust: only the people at a table read or move its match while it is live, and no response before the end
carries hidden information the client's seat may not see -- checked on every response of whole games."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from arena_client import Seen, client_for, disclosed, make_settings, play, running, sse_views, wait_view

from playeval.core.normalize import normalize_name
from playeval.store import MatchRecord, Store
from playeval.web import create_app


def _stored(tmp_path: Path, match_id: str) -> MatchRecord:
    with Store.open(f"sqlite:///{tmp_path / 'arena.db'}") as store:
        return store.get_match(match_id)


def _mentions(text: str, secret: str) -> bool:
    """Whether ``text`` names the secret: its core words, whole and in any case (``a toaster`` -> ``toaster``)."""
    core = normalize_name(secret) or secret.lower()
    return re.search(rf"\b{re.escape(core)}\b", text.lower()) is not None


def _before_the_end(bodies: list[str]) -> list[str]:
    return [body for body in bodies if '"status":"finished"' not in body.replace(" ", "")]


async def test_another_client_can_neither_read_nor_move_a_live_match(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    app = create_app(settings)
    async with app.router.lifespan_context(app), client_for(app) as owner, client_for(app) as other:
        created = (await owner.post("/api/matches", json={"game": "akinator", "inputs": {"secret": "a cat"}})).json()
        match_id, token = created["id"], created["token"]
        await wait_view(owner, match_id, {"your_turn"})
        base = f"/api/matches/{match_id}"
        calls = [("GET", base, None), ("GET", f"{base}/stream", None), ("POST", f"{base}/moves", {"text": "Yes"}),
                 ("POST", f"{base}/check", {"text": "Yes"}),
                 ("POST", f"{base}/abandon", None),
                 ("POST", f"{base}/survey", {"enjoyment": 1, "satisfaction": 1, "frequency": 1}),
                 ("GET", f"{base}/replay", None)]
        for method, url, body in calls:
            missing = await other.request(method, url, json=body)
            assert missing.status_code == 404 and missing.json() == {"detail": "no such match"}, (url, missing.text)
            if url.endswith("/replay"):
                continue
            wrong = await other.request(method, url, json=body, headers={"X-Match-Token": "x" + token[1:]})
            assert wrong.status_code == 403, (url, wrong.text)
            assert "being played by other people" in wrong.json()["detail"]
            assert "a cat" not in missing.text + wrong.text
        unknown = await other.get("/api/matches/0123456789abcdef")
        assert unknown.status_code == 404 and unknown.json() == {"detail": "no such match"}
        assert match_id not in (await other.get("/api/matches")).text
        # the token in a header is enough for a script without the cookie
        scripted = await other.get(base, headers={"X-Match-Token": token})
        assert scripted.status_code == 200 and scripted.json()["you"] == "answerer"
        assert (await owner.get(base)).json()["status"] == "your_turn"  # nothing the others did counted

        await play(owner, match_id, lambda view: "No")
        public = (await other.get(base)).json()  # once over, a match is public to read, never to move
        assert public["you"] is None and disclosed(public) == {"secret": "a cat"} and public["survey_open"] is False
        assert public["disclosures"][0]["yours"] is False
        assert (await other.post(f"{base}/moves", json={"text": "Yes"})).status_code == 404
        assert (await other.post(f"{base}/survey", json={"enjoyment": 1, "satisfaction": 1,
                                                          "frequency": 1})).status_code == 404


@pytest.mark.parametrize("seat_game", ["akinator", "taboo", "bluffing"])
async def test_a_person_in_the_seat_without_the_secret_never_receives_it(tmp_path: Path, seat_game: str,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYEVAL_MOCK_DELAY", "0.02")
    seat = {"akinator": "guesser", "taboo": "guesser", "bluffing": "questioner"}[seat_game]
    move = {
        "akinator": lambda view: "Is it something you could carry?",
        "taboo": lambda view: "Hmm, I am not sure yet; tell me more.",
        "bluffing": lambda view: (
            "I believe your statement is: True" if view["turn"]["kind"] == "verdict" else "Where did it happen?"),
    }[seat_game]
    seen = Seen()
    async with running(make_settings(tmp_path)) as client:
        created = seen.keep(await client.post("/api/matches", json={"game": seat_game, "seat": seat}))
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        record = _stored(tmp_path, match_id)
        secret = record.spec.hidden("secret")
        assert secret
        stream = asyncio.create_task(client.get(f"/api/matches/{match_id}/stream"))
        end = await play(client, match_id, move, seen)
        streamed = await asyncio.wait_for(stream, timeout=60)
    views = sse_views(streamed.text)
    assert views[-1]["status"] == "finished" and len(views) > 2
    bodies = seen.bodies + [streamed.text.split("event: state")[i] for i in range(1, len(views))]
    live = _before_the_end(bodies)
    assert len(live) > 5
    for body in live:
        assert '"disclosures":[]' in body.replace(" ", "") or '"detail"' in body
        if seat_game == "bluffing":  # the truth is 'true'/'false': check what would give it away instead
            persona = str(record.spec.params["persona"])
            name = persona.split(",")[0]
            assert persona not in body and re.search(rf"\b{re.escape(name)}\b", body) is None
        else:
            assert not _mentions(body, secret), body
    assert disclosed(end) == {"secret": secret}  # revealed at the end
    assert end["you"] == seat and end["outcome"] is not None


async def test_a_watcher_never_receives_the_secret_before_the_end(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYEVAL_MOCK_DELAY", "0.01")
    seen = Seen()
    async with running(make_settings(tmp_path)) as client:
        created = seen.keep(await client.post("/api/watch", json={"game": "akinator", "level": 1}))
        match_id = created.json()["id"]
        secret = _stored(tmp_path, match_id).spec.hidden("secret")
        assert secret
        stream = asyncio.create_task(client.get(f"/api/matches/{match_id}/stream"))
        while True:
            view = seen.keep(await client.get(f"/api/matches/{match_id}"))
            seen.keep(await client.get(f"/api/matches/{match_id}/replay"))
            seen.keep(await client.get("/api/matches", params={"mode": "watch", "status": "live"}))
            if view.json()["status"] == "finished":
                break
            await asyncio.sleep(0.03)
        streamed = await asyncio.wait_for(stream, timeout=60)
    events = streamed.text.split("event: state")[1:]
    live = _before_the_end(seen.bodies + events)
    assert len(live) > 5
    guessed = {"cat", "dog", "chair", "lamp", "apple"}  # mock/player's guesses are public moves
    for body in live:
        if normalize_name(secret) not in guessed:
            assert not _mentions(body, secret), body
        assert '"disclosures":[{' not in body.replace(" ", "")


async def test_nothing_secret_reaches_the_logs(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("DEBUG")
    async with running(make_settings(tmp_path)) as client:
        inputs = {"statement": "I keep seventeen tortoises at home.", "secret": "true"}
        created = (await client.post("/api/matches", json={"game": "bluffing", "inputs": inputs})).json()
        await play(client, created["id"], lambda view: "Since I was a child, zzsecretanswerzz.")
    text = caplog.text
    assert created["id"] in text  # the arena does log what happens, by match id
    for secret in ("seventeen tortoises", "zzsecretanswerzz", created["token"]):
        assert secret not in text
