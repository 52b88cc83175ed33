"""Undercover at the arena through its API: a person takes any seat of a table sized by the ``players`` option, a
vote the rules refuse is answered with its reason and can be cast again (never an elimination), and a model-only
table can be watched live and replayed once over. (What each viewer may see: ``test_api_privacy``.)"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
import undercover_pair
from arena_client import client_for, disclosed, invite_token, make_settings, running, wait_view

from playeval.games.undercover import rules
from playeval.web import create_app

pytestmark = pytest.mark.usefixtures("_pair")


@pytest.fixture
def _pair(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYEVAL_MOCK_DELAY", "0.005")
    monkeypatch.setattr(rules, "_load_pairs", undercover_pair.pairs)


def _forms(view: dict[str, Any]) -> list[dict[str, Any]]:
    return list(view["panel"]["forms"]) if view.get("panel") else []


async def test_the_table_s_seats_follow_the_players_option(tmp_path: Path) -> None:
    async with running(make_settings(tmp_path, roles=undercover_pair.ROLES)) as client:
        [info] = [game for game in (await client.get("/api/games")).json() if game["id"] == "undercover"]
        assert [option["name"] for option in info["options"] if option["seat_count"]] == ["players"]
        assert info["person_seat"] == "player1" and len(info["seats"]) == 8
        small = await client.post("/api/matches", json={"game": "undercover", "seat": "player2",
                                                          "seats": {"player6": "person"}, "options": {"players": 5}})
        assert small.status_code == 422 and "has no player6 seat" in small.json()["detail"]
        beyond = await client.post("/api/matches", json={"game": "undercover", "seats": {"player7": "mock/player"}})
        assert beyond.status_code == 422
        assert beyond.json()["detail"] == ("this undercover table seats player1, player2, player3, player4, player5, "
                                           "player6, not player7")
        last = await client.post("/api/matches", json={"game": "undercover", "seat": "player6",
                                                         "seats": {"player2": "person"}})
        assert last.status_code == 201, last.text
        view = last.json()
        assert view["you"] == "player6" and [seat["seat"] for seat in view["seats"]] == [f"player{n}"
                                                                                         for n in range(1, 7)]
        assert [invite["seat"] for invite in view["invites"]] == ["player2"]


async def test_a_refused_vote_says_why_and_the_person_votes_again(tmp_path: Path) -> None:
    async with running(make_settings(tmp_path, roles=undercover_pair.ROLES)) as client:
        created = await client.post("/api/matches", json={"game": "undercover", "options": {"max_rounds": 1}})
        match_id = created.json()["id"]
        url = f"/api/matches/{match_id}/moves"
        view = await wait_view(client, match_id, {"your_turn"})
        assert [form["kind"] for form in _forms(view)] == ["statement"]
        said = await client.post(url, json={"text": "It is often seen in picture books", "seq": view["seq"]})
        assert said.status_code == 200, said.text
        view = await wait_view(client, match_id, {"your_turn"})
        [vote] = _forms(view)
        offered = vote["actions"][0]["fields"][0]["choices"]
        assert vote["kind"] == "vote" and offered == ["player2", "player3", "player4", "player5", "player6"]
        assert view["turn"]["choices"] == offered
        refusals = [("player1", "you cannot vote for yourself."),
                    ("player9", "there is no player 'player9'; vote for one of: " + ", ".join(offered) + "."),
                    ("everyone", "there is no player 'everyone'")]
        for _ in range(3):  # the arena sets no limit on a person's re-asks: a bad vote never puts them out
            for text, reason in refusals:
                refused = await client.post(url, json={"text": text, "seq": view["seq"]})
                assert refused.status_code == 422 and refused.json()["detail"].startswith(reason), refused.text
                view = (await client.get(f"/api/matches/{match_id}")).json()
                assert view["status"] == "your_turn" and view["rejected"].startswith(reason)
                assert [form["kind"] for form in _forms(view)] == ["vote"]
        cast = await client.post(url, json={"text": "player4", "seq": view["seq"]})
        assert cast.status_code == 200, cast.text
        end = await wait_view(client, match_id, {"finished"})
    assert end["outcome"] is not None
    [round_one] = [li["items"] for li in end["panel"]["lists"] if li["key"] == "round-1"]
    assert any(line.startswith("Votes: ") and "player4 " in line and "player1" in line for line in round_one)
    assert not any("abstained" in line for line in round_one)


async def test_a_model_only_table_is_watched_live_and_replayed(tmp_path: Path) -> None:
    async with running(make_settings(tmp_path, roles=undercover_pair.ROLES)) as client:
        created = await client.post("/api/watch", json={"game": "undercover", "options": {"max_rounds": 2,
                                                                                           "players": 5}})
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        live = await wait_view(client, match_id, {"watching", "finished"})
        listed = (await client.get("/api/matches", params={"mode": "watch"})).json()
        assert match_id in {item["id"] for item in listed}
        assert live["panel"] is not None and all(li["key"] != "word" for li in live["panel"]["lists"])
        end = await wait_view(client, match_id, {"finished"})
        replay = await client.get(f"/api/matches/{match_id}/replay")
        page = await client.get(f"/matches/{match_id}")
    assert replay.status_code == 200 and page.status_code == 200
    shown = replay.json()
    assert shown["status"] == "finished" and shown["outcome"] == end["outcome"]
    assert len(shown["seats"]) == 5 and all(seat["model"] == "mock/player" for seat in shown["seats"])
    assert disclosed(shown) == disclosed(end) and len(disclosed(shown)) == 5
    assert set(disclosed(shown).values()) == {undercover_pair.CIVILIAN_WORD, undercover_pair.UNDERCOVER_WORD}
    texts = [line["text"] for line in shown["transcript"]]
    assert any(text.startswith("novelty 1.00") for text in texts) and any("votes:" in text for text in texts)
    words = next(li["items"] for li in end["panel"]["lists"] if li["key"] == "words")
    assert len(words) == 5


async def test_a_vote_sent_again_without_seq_is_refused_not_taken_as_the_next_statement(tmp_path: Path) -> None:
    """A request repeated with ``"seq": null`` (a retry, a second click) once the vote it carried was taken: the
    match then asks for the next round's statement, and the old vote must not become it."""
    async with running(make_settings(tmp_path, roles=undercover_pair.ROLES)) as client:
        # the models vote for the first seat they may (player1): the person, at player2, speaks first in round 2
        created = await client.post("/api/matches", json={"game": "undercover", "seat": "player2",
                                                           "options": {"max_rounds": 3}})
        match_id = created.json()["id"]
        url = f"/api/matches/{match_id}/moves"
        view = await wait_view(client, match_id, {"your_turn"})
        said = await client.post(url, json={"text": "It is often seen in picture books", "seq": None})
        assert said.status_code == 200, said.text
        view = await wait_view(client, match_id, {"your_turn"})
        assert [form["kind"] for form in _forms(view)] == ["vote"]
        target = next(choice for choice in view["turn"]["choices"])
        cast = await client.post(url, json={"text": target, "seq": None})
        assert cast.status_code == 200, cast.text
        view = await wait_view(client, match_id, {"your_turn", "finished"})
        if view["status"] == "finished" or [form["kind"] for form in _forms(view)] != ["statement"]:
            pytest.fail(f"the seeded table did not come to a second statement: {view['outcome']}")
        seen_lines = len(view["transcript"])
        again = await client.post(url, json={"text": target, "seq": None})
        assert again.status_code == 409, again.text
        assert again.json()["detail"].startswith(f"this repeats your last move (vote: {target!r})")
        view = (await client.get(f"/api/matches/{match_id}")).json()
        # nothing of the person's recorded: the view's seq may still grow by the statement's ask, which a background
        # step records after the view that showed the turn (seen: 91 -> 92, an AskIssued only)
        assert [form["kind"] for form in _forms(view)] == ["statement"]
        assert not [line for line in view["transcript"][seen_lines:] if line["seat"] == "player2"]
        said = await client.post(url, json={"text": "Children keep one on a shelf", "seq": None})
        assert said.status_code == 200, said.text  # a move that repeats nothing is taken as ever


async def test_after_a_vote_the_view_says_it_is_recorded_and_who_is_still_awaited(tmp_path: Path) -> None:
    """Two people (player1 and an invited player2) and four models: the one who votes first is told their vote is
    recorded and whom the table still waits for (player2 among them, never themselves); the other still has
    their turn, and nothing tells them what was voted."""
    app = create_app(make_settings(tmp_path, roles=undercover_pair.ROLES))
    async with app.router.lifespan_context(app), client_for(app) as client, client_for(app) as other:
        created = (await client.post("/api/matches", json={"game": "undercover", "seats": {"player2": "person"},
                                                            "options": {"max_rounds": 1}})).json()
        match_id = created["id"]
        token = invite_token(created["invites"][0]["url"])
        joined = await other.post(f"/api/matches/{match_id}/join", json={"token": token})
        assert joined.status_code == 200, joined.text
        url = f"/api/matches/{match_id}/moves"
        sentences = {"player1": "It is often seen in picture books", "player2": "Children like to draw one"}
        deadline = time.monotonic() + 30
        while True:  # each person says their sentence when asked, until the vote is open
            assert time.monotonic() < deadline, "the table never came to the vote"
            asked = False
            for who, person in (("player1", client), ("player2", other)):
                view = (await person.get(f"/api/matches/{match_id}")).json()
                if view["status"] == "your_turn" and view["turn"]["kind"] == "statement":
                    said = await person.post(url, json={"text": sentences[who], "seq": view["seq"]})
                    assert said.status_code == 200, said.text
                elif view["status"] == "your_turn" and who == "player1":
                    asked = True
            if asked:
                break
            await asyncio.sleep(0.02)
        first = await wait_view(client, match_id, {"your_turn"})
        assert first["turn"]["kind"] == "vote" and first["recorded"] is None
        before = (await other.get(f"/api/matches/{match_id}")).json()  # what player2 saw before player1 voted
        cast = await client.post(url, json={"text": "player3", "seq": first["seq"]})
        assert cast.status_code == 200, cast.text
        mine = (await client.get(f"/api/matches/{match_id}")).json()
        assert mine["status"] in {"thinking", "waiting"} and mine["recorded"] == "vote"
        assert "player2" in mine["awaited"] and "player1" not in mine["awaited"]
        assert mine["awaited"] == [seat for seat in mine["awaited"] if seat.startswith("player")]  # seats, in order
        theirs = await wait_view(other, match_id, {"your_turn"})
        assert theirs["turn"]["kind"] == "vote" and theirs["recorded"] is None and "player2" not in theirs["awaited"]
        assert theirs["transcript"] == before["transcript"]  # player1's vote (and the models') adds nothing yet
        assert not [line for line in theirs["transcript"] if "player3" in line["text"] and "vot" in line["text"]]
        cast = await other.post(url, json={"text": "player3", "seq": theirs["seq"]})
        assert cast.status_code == 200, cast.text
        end = await wait_view(client, match_id, {"finished"})
    assert end["recorded"] is None and end["awaited"] == []
