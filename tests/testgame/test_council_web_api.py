"""Council in the arena, through the API: a game installed by entry point is listed, presented and playable like a
built-in one, and a table of two people and two models keeps each person's team word and each seat's secret vote
to itself until the game shows them."""

from __future__ import annotations

import asyncio
import re
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from arena_client import MOCK, Seen, client_for, disclosed, invite_token, make_settings, sse_views

from playeval.core.events import ActionApplied, ReplyReceived, ReplyRejected, SeatTakenOver
from playeval.store import Store
from playeval.web import create_app

SEATS = ("north", "east", "south", "west")
CLUES = {"north": "Something you could draw on a postcard", "east": "It might turn up in a picture"}
VOTES = {"north": "west", "east": "north"}
"""The people's votes: with the models' (mock/player votes as Council's scripted seats do: south for west, east and
west in turn, west for north, south and north) every round is a tie, so the game runs its three rounds."""


def _mentions(text: str, word: str) -> bool:
    return re.search(rf"\b{re.escape(word)}\b", text, flags=re.IGNORECASE) is not None


def _votes_in(text: str) -> bool:
    """Whether a body shows how some seat voted ("north for west"), as a closed vote's tally does."""
    return any(f"{seat} for " in text for seat in SEATS)


async def _view(client: httpx.AsyncClient, match_id: str, seen: Seen) -> dict[str, Any]:
    response = seen.keep(await client.get(f"/api/matches/{match_id}"))
    assert response.status_code == 200, response.text
    view: dict[str, Any] = response.json()
    return view


async def test_an_installed_game_is_listed_and_presented(tmp_path: Path, council_installed: dict[str, str]) -> None:
    app = create_app(make_settings(tmp_path))
    async with app.router.lifespan_context(app), client_for(app) as client:
        games = {game["id"]: game for game in (await client.get("/api/games")).json()}
        home = await client.get("/")
        setup = await client.get("/play/council")
    council = games["council"]
    assert council["name"] == "Council" and council["person_seat"] == "north"
    assert council["tagline"] == "Give clues your partner understands; vote out the other team."
    assert [seat["seat"] for seat in council["seats"]] == list(SEATS)
    assert [role["role"] for role in council["roles"]] == ["judge"]
    assert council["options"] == [{"name": "rounds", "description": "rounds before the team with more seats left wins",
                                   "default": 3, "minimum": 1.0, "maximum": 6.0, "choices": None,
                                   "seat_count": False}]
    assert council["person_inputs"] == []
    assert home.status_code == 200 and 'id="game-council"' in home.text and "Play Council" in home.text
    assert 'action="/play/council"' in home.text and "Two teams, two secret words, one judge." in home.text
    assert setup.status_code == 200 and "Play Council" in setup.text
    assert "You see your team&#39;s word; nobody else does." in setup.text


async def test_two_people_and_two_models_at_one_table(tmp_path: Path, council_installed: dict[str, str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYEVAL_MOCK_DELAY", "0.02")
    settings = make_settings(tmp_path)
    app = create_app(settings)
    seen = {"north": Seen(), "east": Seen()}
    async with app.router.lifespan_context(app), client_for(app) as north, client_for(app) as east:
        created = seen["north"].keep(await north.post("/api/matches", json={
            "game": "council", "seat": "north", "model": MOCK, "seats": {"east": "person", "south": MOCK,
                                                                          "west": "random"}}))
        assert created.status_code == 201, created.text
        start = created.json()
        match_id = start["id"]
        [invite] = start["invites"]
        assert invite["seat"] == "east" and invite["url"].startswith(f"/matches/{match_id}/join#token=")
        assert [seat["seat"] for seat in start["seats"]] == list(SEATS)  # the judge is a role, not a player
        red = disclosed(start)["red_word"]
        assert set(disclosed(start)) == {"red_word"} and start["disclosures"][0]["label"] == "Your team's word"

        joined = seen["east"].keep(await east.post(f"/api/matches/{match_id}/join",
                                                   json={"token": invite_token(invite["url"])}))
        assert joined.status_code == 200, joined.text
        assert joined.json()["you"] == "east" and f"pe_{match_id}=" in joined.headers["set-cookie"]
        blue = disclosed(joined.json())["blue_word"]
        assert set(disclosed(joined.json())) == {"blue_word"} and red != blue

        streams = {name: asyncio.create_task(client.get(f"/api/matches/{match_id}/stream"))
                   for name, client in (("north", north), ("east", east))}
        clients = {"north": north, "east": east}
        checked = False
        votes_sent: dict[int, list[str]] = {}
        boundary: dict[str, int] = {}
        views: dict[str, dict[str, Any]] = {}
        for _ in range(2000):
            views = {name: await _view(client, match_id, seen[name]) for name, client in clients.items()}
            if all(view["status"] == "finished" for view in views.values()):
                break
            acted = False
            for name in ("north", "east"):
                view = views[name]
                if view["status"] != "your_turn":
                    continue
                turn = view["turn"]
                assert turn["seat"] == name and turn["role"] is None
                if turn["kind"] == "clue":
                    assert turn["max_chars"] == 80 and turn["one_line"] is True and turn["choices"] is None
                    if name == "north" and not checked:  # the dry run refuses a clue that says the word
                        before = view["seq"]
                        said = (await north.post(f"/api/matches/{match_id}/check",
                                                 json={"text": f"A {red} at dawn"})).json()
                        assert said == {"ok": False, "error": "rule", "reason": "the clue says the word itself."}
                        fine = (await north.post(f"/api/matches/{match_id}/check",
                                                 json={"text": CLUES[name]})).json()
                        assert fine == {"ok": True, "error": None, "reason": None}
                        with Store.open(settings.db) as store:  # no reply of north's was recorded (the game
                            since = store.events(match_id)[before:]  # master may be recording asks meanwhile)
                        assert not [e for e in since if (isinstance(e, (ReplyReceived, ReplyRejected))
                                    and e.seat == "north")
                                    or (isinstance(e, ActionApplied) and e.action.seat == "north")], since
                        checked = True
                    text = CLUES[name]
                else:
                    round_ = int(turn["display"].split()[1].rstrip(":"))
                    assert turn["choices"] == (["east", "west"] if name == "north" else ["north", "south"])
                    if name == "east" and "north" not in votes_sent.get(round_, []):
                        continue  # north votes first, so the test can look at the open phase in between
                    if name == "east" and round_ == 1:  # the phase is open: nobody sees north's vote
                        for _ in range(3):
                            for other, client in clients.items():
                                body = await _view(client, match_id, seen[other])
                                assert not _votes_in(str(body["transcript"])), body["transcript"]
                                allowed = ("your_turn",) if other == "east" else ("waiting", "thinking")
                                assert body["status"] in allowed
                            await asyncio.sleep(0.03)
                        boundary = {other: len(seen[other].bodies) for other in clients}
                    text = VOTES[name]
                    votes_sent.setdefault(round_, []).append(name)
                moved = seen[name].keep(await clients[name].post(f"/api/matches/{match_id}/moves",
                                                                 json={"text": text, "seq": view["seq"]}))
                assert moved.status_code == 200, moved.text
                acted = True
            if not acted:
                await asyncio.sleep(0.01)
        streamed = {name: await asyncio.wait_for(task, timeout=60) for name, task in streams.items()}

    # the game was played to its end, three rounds of clues and votes, by both people
    assert sorted(votes_sent) == [1, 2, 3] and all(voters == ["north", "east"] for voters in votes_sent.values())
    for name, view in views.items():
        assert view["you"] == name and view["status"] == "finished"
        outcome = view["outcome"]
        assert outcome["status"] == "finished" and outcome["winners"] == [] and outcome["winning_team"] is None
        assert outcome["reason"] == "a draw: 2 red and 2 blue seats left after 3 rounds" and outcome["rounds"] == 3
        assert [(r["seat"], r["team"], r["won"]) for r in outcome["results"]] == [
            ("north", "red", False), ("east", "blue", False), ("south", "red", False), ("west", "blue", False)]
        assert outcome["you_won"] is False
        assert {item["key"]: (item["value"], item["revealed_label"]) for item in view["disclosures"]} == {
            "red_word": (red, "The red team's word"), "blue_word": (blue, "The blue team's word")}
        tallies = [line for line in view["transcript"] if line["seat"] == "game"]
        assert [line["label"] for line in tallies] == ["Game"] * 3
        assert tallies[0]["text"] == ("Round 1 votes: east for north, north for west, south for west, west for north;"
                                      " a tie, nobody is out.")
        assert [seat["seat"] for seat in view["seats"]] == list(SEATS)
        assert [seat["model"] for seat in view["seats"]] == [None, None, MOCK, MOCK]  # named at the end

    # each person saw only their own team's word, and no vote before the phase closed
    for name, word in (("north", blue), ("east", red)):
        events = streamed[name].text.split("event: state")[1:]
        live = [body for body in [*seen[name].bodies, *events] if '"status":"finished"' not in body]
        assert len(live) > 20
        assert not any(_mentions(body, word) for body in live), f"{name} saw the other team's word"
        assert not any(_votes_in(body) for body in seen[name].bodies[:boundary[name]])
        first_tally = next(i for i, view in enumerate(sse_views(streamed[name].text))
                           if any(line["seat"] == "game" for line in view["transcript"]))
        assert not any(_votes_in(body) for body in events[:first_tally])
        assert _votes_in(events[first_tally])

    # the judge is a role played by a model, recorded as such; nobody's seat was taken over
    with Store.open(settings.db) as store:
        match = store.get_match(match_id)
        calls = store.calls(match_id)
        events_log = store.events(match_id)
    assert [(role.role, role.player_kind, role.model, role.seat) for role in match.roles] == [
        ("judge", "llm", MOCK, None)]
    assert [seat.player_kind for seat in match.seats] == ["human", "human", "llm", "llm"]
    assert {call.role for call in calls if call.role is not None} == {"judge"}
    verdicts = [e.action for e in events_log if isinstance(e, ActionApplied) and e.action.role == "judge"]
    assert len(verdicts) == 12 and {verdict.text for verdict in verdicts} == {"fits"}
    assert not any(isinstance(e, SeatTakenOver) for e in events_log)


async def test_a_vote_does_not_wait_for_the_models_thinking(tmp_path: Path, council_installed: dict[str, str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The person's vote is appended while the model step holds the lease and its models think about theirs; the
    step finds the log moved, reads it again and records the models' votes after the person's."""
    settings = make_settings(tmp_path)
    db = settings.db or ""
    app = create_app(settings)
    async with app.router.lifespan_context(app), client_for(app) as client:
        created = await client.post("/api/matches", json={"game": "council", "seat": "west", "model": MOCK,
                                                            "options": {"rounds": 1}})
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        view = created.json()
        for _ in range(500):  # the three models give their clues, judged; then it is west's turn
            view = (await client.get(f"/api/matches/{match_id}")).json()
            if view["status"] == "your_turn":
                break
            await asyncio.sleep(0.01)
        assert view["turn"]["kind"] == "clue"
        monkeypatch.setenv("PLAYEVAL_MOCK_DELAY", "1.5")  # from now on every model thinks for 1.5 s
        moved = await client.post(f"/api/matches/{match_id}/moves", json={"text": CLUES["north"]})
        assert moved.status_code == 200 and moved.json()["status"] == "thinking"  # the judge
        for _ in range(500):
            view = (await client.get(f"/api/matches/{match_id}")).json()
            if view["status"] == "your_turn":
                break
            await asyncio.sleep(0.02)
        assert view["turn"]["kind"] == "vote" and view["turn"]["choices"] == ["north", "south"]
        with Store.open(db) as store:
            web = store.get_web_match(match_id)
            assert web.lease_owner is not None  # the models are voting, under the lease
            log = store.events(match_id)
        assert not any(isinstance(e, ActionApplied) and e.action.kind == "vote" for e in log)
        started = time.monotonic()
        vote = await client.post(f"/api/matches/{match_id}/moves", json={"text": "north", "seq": view["seq"]})
        took = time.monotonic() - started
        assert vote.status_code == 200, vote.text
        assert took < 0.75, f"the vote waited {took:.2f} s"
        assert vote.json()["status"] == "thinking" and not _votes_in(str(vote.json()["transcript"]))
        with Store.open(db) as store:
            early = [e.action.seat for e in store.events(match_id)
                     if isinstance(e, ActionApplied) and e.action.kind == "vote"]
        assert early == ["west"]  # in the log, before any model's
        for _ in range(600):
            end = (await client.get(f"/api/matches/{match_id}")).json()
            if end["status"] == "finished":
                break
            await asyncio.sleep(0.02)
    assert end["status"] == "finished" and end["outcome"]["rounds"] == 1
    assert end["transcript"][-1]["text"].startswith("Round 1 votes: east for south, north for west, south for west, "
                                                     "west for north")
    with Store.open(db) as store:
        log = store.events(match_id)
    votes = [str(e.action.seat) for e in log if isinstance(e, ActionApplied) and e.action.kind == "vote"]
    assert votes[0] == "west" and sorted(votes) == sorted(SEATS)  # one vote each, the person's first
