"""Whole games through the API against ``mock/player``: one of each game, a watched match, and the live stream.
Every view says what its game declares: the ask's choices and limits, the hidden information the viewer's seat
may see (with the game's own labels), and at the end the outcome with every seat's result."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from arena_client import MOCK, disclosed, make_settings, play, running, sse_views, wait_view


def _answer_no(view: dict[str, Any]) -> str:
    choices = view["turn"]["choices"]
    assert choices is not None and "Yes" in choices
    return "No" if "No" in choices else choices[0]


async def test_akinator_as_the_answerer(tmp_path: Path) -> None:
    async with running(make_settings(tmp_path)) as client:
        created = await client.post("/api/matches", json={"game": "akinator", "level": 1, "model": None,
                                                          "inputs": {"secret": "a cat"}})
        assert created.status_code == 201, created.text
        start = created.json()
        assert start["token"] and start["you"] == "answerer" and start["mode"] == "play"
        assert start["disclosures"] == [{"key": "secret", "value": "a cat", "label": "Your secret object"}]
        assert start["invites"] == [] and start["waiting_for"] == []
        guesser, answerer = start["seats"]
        assert guesser == {"seat": "guesser", "label": "Model (hidden until the end)", "is_you": False, "model": None,
                           "person": False, "joined": None, "taken_over": False}
        assert answerer == {"seat": "answerer", "label": "You", "is_you": True, "model": None, "person": True,
                            "joined": True, "taken_over": False}
        assert f"pe_{start['id']}" in created.headers["set-cookie"]
        assert "httponly" in created.headers["set-cookie"].lower()
        assert "samesite=strict" in created.headers["set-cookie"].lower()

        turn = await wait_view(client, start["id"], {"your_turn"})
        assert turn["turn"]["choices"] == ["Yes", "No", "Probably yes", "Probably no", "Don't know"]
        assert turn["turn"]["max_chars"] is None and turn["turns"] == [turn["turn"]]
        assert (turn["turn"]["seat"], turn["turn"]["party"], turn["turn"]["role"]) == ("answerer", "answerer", None)
        assert turn["turn"]["display"].startswith("Question 1: ")
        assert turn["transcript"][0]["label"] == "Model (hidden until the end)"

        end = await play(client, start["id"], _answer_no)
        assert end["status"] == "finished" and end["turn"] is None
        outcome = end["outcome"]
        assert (outcome["status"], outcome["winners"], outcome["winner"], outcome["rounds"], outcome["you_won"]) == (
            "finished", ["guesser"], "guesser", 4, False)
        assert outcome["reason"] == "guessed 'cat' in turn 4 (confirmed by the rules)"
        assert [(r["seat"], r["label"], r["won"]) for r in outcome["results"]] == [("guesser", MOCK, True),
                                                                                   ("answerer", "You", False)]
        assert end["transcript"][-2]["text"] == "This is a guess -- are you thinking of cat?"
        assert [seat["model"] for seat in end["seats"]] == [MOCK, None]  # named once the game is over
        assert end["survey_open"] is True

        survey = await client.post(f"/api/matches/{start['id']}/survey",
                                   json={"enjoyment": 4, "satisfaction": 3, "frequency": 5})
        assert survey.status_code == 201
        assert survey.json() == {"match_id": start["id"], "enjoyment": 4, "satisfaction": 3, "frequency": 5}
        again = (await client.get(f"/api/matches/{start['id']}")).json()
        assert again["survey_open"] is False and again["token"] is None


async def test_taboo_as_the_clue_giver(tmp_path: Path) -> None:
    async with running(make_settings(tmp_path)) as client:
        created = await client.post("/api/matches", json={"game": "taboo", "level": 1, "model": MOCK})
        assert created.status_code == 201, created.text
        start = created.json()
        word = disclosed(start)["secret"]
        assert word and start["you"] == "clue_giver" and start["status"] == "your_turn"
        assert start["disclosures"][0]["label"] == "Your word"
        assert start["seats"][0]["model"] == MOCK  # picked by the person: not hidden
        assert start["turn"]["max_chars"] == 140 and start["turn"]["choices"] is None and start["turn"]["one_line"]
        assert start["turn"]["kind"] == "clue"
        assert word in start["turn"]["display"]  # the clue-giver is shown its own word
        clues = iter(["It lives on a farm or in the wild.", "Children like it.", "You may see one in a zoo."])
        end = await play(client, start["id"], lambda view: next(clues))
        assert end["outcome"]["rounds"] == 3
        won = word.lower() == "dog"
        assert end["outcome"]["winner"] == ("guesser" if won else "clue_giver")
        assert end["disclosures"][0]["revealed_label"] == "The word" and disclosed(end) == {"secret": word}
        assert end["outcome"]["you_won"] is (not won)
        assert end["transcript"][-1] == {"seat": "guesser", "label": MOCK, "text": "My guess of the word is: dog"}


async def test_bluffing_as_the_bluffer(tmp_path: Path) -> None:
    async with running(make_settings(tmp_path)) as client:
        created = await client.post("/api/matches", json={
            "game": "bluffing", "inputs": {"statement": "I once rode a camel across a desert.", "secret": "False"}})
        assert created.status_code == 201, created.text
        start = created.json()
        assert disclosed(start) == {"secret": "false"}
        assert start["transcript"][0]["text"] == "I once rode a camel across a desert."
        answers = iter(["Two summers ago, in Morocco.", "My cousin came along."])
        turns: list[dict[str, Any]] = []

        def answer(view: dict[str, Any]) -> str:
            turns.append(view["turn"])
            return next(answers)

        end = await play(client, start["id"], answer)
        assert end["outcome"]["winner"] == "bluffer" and end["outcome"]["you_won"] is True
        assert end["outcome"]["rounds"] == 3
        assert end["transcript"][-1]["text"] == "I believe your statement is: True"
        assert [(turn["kind"], turn["max_chars"], turn["one_line"]) for turn in turns] == [("answer", 500, False)] * 2


async def test_a_watched_match_streams_to_its_end(tmp_path: Path) -> None:
    async with running(make_settings(tmp_path)) as client:
        created = await client.post("/api/watch", json={"game": "bluffing", "level": 1,
                                                        "models": {"questioner": MOCK}})
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        assert created.json()["mode"] == "watch" and created.json()["token"] is None
        assert created.json()["disclosures"] == [] and created.json()["you"] is None
        response = await asyncio.wait_for(client.get(f"/api/matches/{match_id}/stream"), timeout=60)
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        views = sse_views(response.text)
        assert views[-1]["status"] == "finished" and views[-1]["outcome"]["rounds"] == 3
        assert all(view["status"] == "watching" for view in views[:-1])
        seqs = [view["seq"] for view in views]
        assert seqs == sorted(set(seqs))  # every view is new, in order
        listed = (await client.get("/api/matches", params={"mode": "watch"})).json()
        assert [item["id"] for item in listed] == [match_id] and listed[0]["status"] == "finished"
        replay = (await client.get(f"/api/matches/{match_id}/replay")).json()
        assert replay["mode"] == "watch" and replay["transcript"] == views[-1]["transcript"]
        assert replay["disclosures"] == views[-1]["disclosures"] and len(replay["disclosures"]) == 1


async def test_the_stream_of_a_played_match_shows_each_turn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYEVAL_MOCK_DELAY", "0.05")
    async with running(make_settings(tmp_path)) as client:
        created = await client.post("/api/matches", json={"game": "bluffing", "inputs": {
            "statement": "I have climbed a volcano.", "secret": "true"}})
        match_id = created.json()["id"]
        stream = asyncio.create_task(client.get(f"/api/matches/{match_id}/stream"))
        answers = iter(["Yes, Etna, in 2019.", "Two friends from school."])
        # the person thinks 0.5 s (25 stream polls) per turn, so the stream cannot miss their turn
        await play(client, match_id, lambda view: next(answers), pause_s=0.5)
        response = await asyncio.wait_for(stream, timeout=60)
    views = sse_views(response.text)
    statuses = [view["status"] for view in views]
    assert statuses[0] == "thinking" and statuses[-1] == "finished" and "your_turn" in statuses
    assert views[-1]["outcome"]["you_won"] is False  # the statement was true and the model said True
    assert all(view["you"] == "bluffer" for view in views)


async def test_akinator_with_the_object_kept_in_mind(tmp_path: Path) -> None:
    """Inputs given but empty: the person keeps the object in their head, and judges the model's guess as the
    game's judge role, which the game binds to their seat."""
    async with running(make_settings(tmp_path)) as client:
        created = await client.post("/api/matches", json={"game": "akinator", "model": MOCK, "inputs": {}})
        assert created.status_code == 201, created.text
        start = created.json()
        assert start["disclosures"] == []  # nothing was typed, nothing was drawn
        asked: list[dict[str, Any]] = []

        def answer(view: dict[str, Any]) -> str:
            asked.append(view["turn"])
            return "Yes" if view["turn"]["role"] == "judge" else "No"

        end = await play(client, start["id"], answer)
    assert [(turn["party"], turn["kind"]) for turn in asked] == [("answerer", "answer")] * 3 + [("judge", "confirm")]
    confirm = asked[-1]
    assert confirm["seat"] == "answerer" and confirm["choices"] == ["Yes", "No"]
    assert confirm["display"] == "This is a guess -- are you thinking of cat?"
    assert [seat["seat"] for seat in end["seats"]] == ["guesser", "answerer"]  # the judge is no player
    assert end["outcome"]["winners"] == ["guesser"] and end["outcome"]["you_won"] is False
    assert end["disclosures"] == []
