"""A match survives its server: closing the app mid-game and starting a new one on the same database finishes the
game from the log, with no move lost or made twice; a dead process's lease expires and another takes over."""

from __future__ import annotations

import asyncio
import itertools
import time
from pathlib import Path

import pytest
from arena_client import make_settings, running, wait_view

from playeval.core.events import ActionApplied, AskIssued, Event, MatchEnded, MatchStarted, ReplyReceived
from playeval.store import Store


def _check_log(events: list[Event], records: list[int]) -> None:
    """Contiguous seqs; one start, one end; every reply judged once; no ask recorded twice; seats alternate."""
    assert records == list(range(1, len(records) + 1))
    assert sum(isinstance(e, MatchStarted) for e in events) == 1
    assert sum(isinstance(e, MatchEnded) for e in events) == 1 and isinstance(events[-1], MatchEnded)
    for before, after in itertools.pairwise(events):
        if isinstance(before, ReplyReceived):
            assert after.type in ("action", "rejected"), (before, after)
        if isinstance(before, AskIssued):
            assert isinstance(after, (ReplyReceived, MatchEnded)), (before, after)
    seats = [e.action.seat for e in events if isinstance(e, ActionApplied)]
    assert all(a != b for a, b in itertools.pairwise(seats)), seats


async def test_a_game_survives_two_restarts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYEVAL_MOCK_DELAY", "0.4")
    settings = make_settings(tmp_path)
    async with running(settings) as client:
        start = (await client.post("/api/matches", json={"game": "akinator", "inputs": {"secret": "a cat"}})).json()
        match_id, token = start["id"], start["token"]
        view = await wait_view(client, match_id, {"your_turn"})
        moved = await client.post(f"/api/matches/{match_id}/moves", json={"text": "No", "seq": view["seq"]})
        assert moved.status_code == 200 and moved.json()["status"] == "thinking"
        await asyncio.sleep(0.1)  # the model is now thinking about its second question: stop the server
    headers = {"X-Match-Token": token}
    with Store.open(settings.db) as store:
        cut = store.events(match_id)
    # stopped mid-move: a model's move is written whole or not at all, so the log ends with the person's answer
    assert isinstance(cut[-1], ActionApplied) and cut[-1].action.seat == "answerer"

    async with running(settings) as client:  # start-up resumes the model's move
        view = await wait_view(client, match_id, {"your_turn"}, headers=headers)
        assert view["turn"]["display"].startswith("Question 2: ")
        moved = await client.post(f"/api/matches/{match_id}/moves", json={"text": "No", "seq": view["seq"]},
                                  headers=headers)
        assert moved.status_code == 200
        view = await wait_view(client, match_id, {"your_turn"}, headers=headers)
    async with running(settings) as client:  # stopped while the person was to move
        assert (await client.get(f"/api/matches/{match_id}", headers=headers)).json()["seq"] == view["seq"]
        for _ in range(2):
            view = await wait_view(client, match_id, {"your_turn", "finished"}, headers=headers)
            if view["status"] == "finished":
                break
            await client.post(f"/api/matches/{match_id}/moves", json={"text": "No", "seq": view["seq"]},
                              headers=headers)
        end = await wait_view(client, match_id, {"finished"}, headers=headers)
    assert end["outcome"]["winner"] == "guesser" and end["outcome"]["rounds"] == 4
    with Store.open(settings.db) as store:
        records = store.event_records(match_id)
    events = [record.event for record in records]
    _check_log(events, [record.seq for record in records])
    actions = [e.action for e in events if isinstance(e, ActionApplied)]
    assert [a.text for a in actions if a.seat == "answerer"] == ["No", "No", "No"]
    assert [a.kind for a in actions if a.seat == "guesser"] == ["question", "question", "question", "guess"]


async def test_a_dead_process_lease_expires_and_another_process_moves(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYEVAL_MOCK_DELAY", "0.4")
    settings = make_settings(tmp_path)
    async with running(settings) as client:
        start = (await client.post("/api/matches", json={"game": "akinator", "inputs": {"secret": "a cat"}})).json()
        match_id, headers = start["id"], {"X-Match-Token": start["token"]}
        view = await wait_view(client, match_id, {"your_turn"})
        await client.post(f"/api/matches/{match_id}/moves", json={"text": "No", "seq": view["seq"]})
        await asyncio.sleep(0.1)
    with Store.open(settings.db) as store:  # as if the process had died holding the lease
        assert store.take_lease(match_id, "a process that died", 1.5)
        taken = time.monotonic()
        before = store.last_seq(match_id)
    monkeypatch.setenv("PLAYEVAL_MOCK_DELAY", "0")
    async with running(settings) as client:
        assert (await client.get(f"/api/matches/{match_id}", headers=headers)).json()["status"] == "thinking"
        with Store.open(settings.db) as store:
            assert store.last_seq(match_id) == before  # nobody may move it yet
        view = await wait_view(client, match_id, {"your_turn"}, headers=headers)  # the reads nudge it on expiry
        assert time.monotonic() - taken >= 1.4  # not before the dead process's lease ran out (1.5 s)
        assert view["turn"]["display"].startswith("Question 2: ")
    with Store.open(settings.db) as store:
        records = store.event_records(match_id)
        assert store.get_web_match(match_id).lease_owner is None
    events = [record.event for record in records]
    assert sum(isinstance(e, ActionApplied) and e.action.seat == "guesser" for e in events) == 2
    assert sum(isinstance(e, AskIssued) and e.seat == "guesser" for e in events) == 2
