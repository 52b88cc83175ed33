"""Input checking: bad bodies get a 4xx with a message (never a 5xx), people's inputs are checked by the game's
declarations (``core.inputs.check_inputs``), moves follow the turn order and the rules, clients are rate limited,
and a survey is given once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from arena_client import disclosed, make_settings, play, running, wait_view

from playeval.web import RateLimit
from playeval.web.ratelimit import RateLimiter


def _detail(response: httpx.Response) -> str:
    assert response.headers["content-type"].startswith("application/json"), response.text
    body: dict[str, Any] = response.json()
    assert isinstance(body["detail"], str) and body["detail"], body
    return body["detail"]


BAD_STARTS: list[tuple[Any, int, str]] = [
    ({"game": "chess"}, 422, "unknown game 'chess'"),
    ({"game": "akinator", "level": 7, "inputs": {"secret": "a cat"}}, 422, "akinator has levels 1, 2, 3, not 7"),
    ({"game": "akinator", "inputs": {"secret": "x" * 101}}, 422, "inputs.secret is too long: at most 100 characters"),
    ({"game": "akinator", "inputs": {"secret": "x" * 301}}, 422, "inputs.secret: is too long: at most 300"),
    ({"game": "akinator", "inputs": {"secret": "a cat", "colour": "red"}}, 422, "unknown input(s) for akinator"),
    ({"game": "akinator", "seat": "guesser", "inputs": {"secret": "a cat"}}, 422,
     "unknown input(s) for akinator: secret; expected: none"),
    ({"game": "akinator", "seat": "referee", "inputs": {"secret": "a cat"}}, 422, "not 'referee'"),
    ({"game": "akinator", "model": "openai/gpt-9", "inputs": {"secret": "a cat"}}, 422, "unknown model"),
    ({"game": "akinator", "seats": {"referee": "person"}}, 422,
     "akinator has the seats guesser, answerer; unknown: referee"),
    ({"game": "akinator", "seats": {"answerer": "person"}}, 422, "you take the answerer seat yourself"),
    ({"game": "akinator", "seats": {"guesser": "robot/x"}}, 422, "unknown model 'robot/x'"),
    ({"game": "akinator", "seats": {"guesser": "judge"}}, 422, "unknown model 'judge'"),
    ({"game": "bluffing", "seat": "questioner", "seats": {"bluffer": "person"}}, 422,
     "the bluffer provides statement before the match starts"),
    ({"game": "taboo", "options": {"rounds": 3}}, 422, "unknown option(s) for taboo: rounds; known: scoring"),
    ({"game": "dynamic_picnic", "options": {"bank": "/etc/passwd"}}, 422,
     "dynamic_picnic: the option bank can only be set on the command line"),
    ({"game": "taboo", "seat": "judge"}, 422, "taboo has the seats guesser, clue_giver for a person, not 'judge'"),
    ({"game": "akinator", "inputs": {"secret": "a cat"}, "cheat": True}, 422, "cheat: is not a known field"),
    ({"game": "bluffing", "inputs": {"statement": "I can juggle.", "secret": "maybe"}}, 422,
     "inputs.secret must be one of: true, false"),
    ({"game": "bluffing", "inputs": {"secret": "true"}}, 422, "inputs.statement is required"),
    ({"game": "taboo", "inputs": {"secret": "x"}}, 422, "unknown input(s) for taboo"),
    ({"game": "akinator", "inputs": {"secret": "a c\u0000at"}}, 422, "control characters"),
    ({"game": "akinator", "inputs": {"secret": "two\nlines"}}, 422, "one line"),
    ({"game": 12}, 422, "game: "),
    ({"game": "akinator", "level": "high"}, 422, "level: "),
    ({"game": "akinator", "level": True}, 422, "level: input should be a valid integer, not a boolean"),
    ({"game": "akinator", "level": "1"}, 422, "level: input should be a valid integer, not a string"),
    ({"game": "akinator", "level": 1.0}, 422, "level: input should be a valid integer, not a number"),
    ({"game": "akinator", "model": 7}, 422, "model: input should be a valid string, not a number"),
    ([1, 2, 3], 422, "body: "),
    ("just text", 422, "body: "),
    (None, 422, "body: "),
]


@pytest.mark.parametrize(("body", "status", "message"), BAD_STARTS)
async def test_bad_starts_are_refused_with_a_message(tmp_path: Path, body: Any, status: int, message: str) -> None:
    async with running(make_settings(tmp_path)) as client:
        response = await client.post("/api/matches", json=body)
        assert response.status_code == status
        assert message in _detail(response)


async def test_malformed_and_oversized_requests_get_4xx(tmp_path: Path) -> None:
    async with running(make_settings(tmp_path)) as client:
        broken = await client.post("/api/matches", content=b'{"game": "akinator",',
                                   headers={"content-type": "application/json"})
        assert broken.status_code == 422 and "not valid JSON" in _detail(broken)
        huge = await client.post("/api/matches", content=b"x" * (17 * 1024),
                                 headers={"content-type": "application/json"})
        assert huge.status_code == 413 and "at most 16384 bytes" in _detail(huge)

        async def chunks() -> Any:  # no Content-Length: counted as it arrives
            for _ in range(40):
                yield b" " * 1024

        streamed = await client.post("/api/matches", content=chunks(), headers={"content-type": "application/json"})
        assert streamed.status_code == 413
        unreadable = await client.post("/api/matches", content=b"\xff\xfe\x00",
                                       headers={"content-type": "application/json"})
        assert unreadable.status_code == 400 and "could not be read as JSON" in _detail(unreadable)
        assert (await client.post("/api/matches", content=b'{"game": "\\ud800"}',
                                  headers={"content-type": "application/json"})).status_code == 422
        unknown = await client.get("/api/no/such/thing")
        assert unknown.status_code == 404 and "no such page or endpoint" in _detail(unknown)
        assert (await client.get("/definitely-not-a-page")).status_code == 404
        wrong_method = await client.delete("/api/games")
        assert wrong_method.status_code == 405 and "DELETE is not allowed" in _detail(wrong_method)
        assert wrong_method.headers["allow"] == "GET"
        assert (await client.get("/api/matches/" + "f" * 200)).status_code == 422
        assert (await client.get("/api/matches/..%2F..%2Fetc")).status_code == 404
        assert (await client.get("/api/matches", params={"limit": 0})).status_code == 422
        assert (await client.get("/api/matches", params={"status": "sleeping"})).status_code == 422
        assert (await client.get("/api/leaderboard", params={"game": "chess"})).status_code == 422
        assert (await client.get("/api/leaderboard", params={"source": "dreams"})).status_code == 422
        assert (await client.post("/api/watch", json={"game": "taboo", "models": {"judge": "mock/player"}})
                ).status_code == 422
        assert "x-content-type-options" in unknown.headers and unknown.headers["cache-control"] == "no-store"


async def test_moves_follow_the_turn_order_and_the_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYEVAL_MOCK_DELAY", "0.3")
    async with running(make_settings(tmp_path)) as client:
        start = (await client.post("/api/matches", json={"game": "akinator", "inputs": {"secret": "a cat"}})).json()
        match_id = start["id"]
        moves = f"/api/matches/{match_id}/moves"
        assert start["status"] == "thinking"
        early = await client.post(moves, json={"text": "Yes", "seq": start["seq"]})
        assert early.status_code == 409 and "not your turn" in _detail(early)

        view = await wait_view(client, match_id, {"your_turn"})
        refused = await client.post(moves, json={"text": "Maybe", "seq": view["seq"]})
        assert refused.status_code == 422
        assert refused.json()["detail"] == ("the answer must be exactly one of: Yes, No, Probably yes, Probably no, "
                                            "Don't know.")
        assert refused.json()["seq"] > view["seq"]
        after = (await client.get(f"/api/matches/{match_id}")).json()
        assert after["status"] == "your_turn" and after["rejected"] == refused.json()["detail"]
        assert after["seq"] == refused.json()["seq"]
        stale = await client.post(moves, json={"text": "Yes", "seq": view["seq"]})
        assert stale.status_code == 409 and "moved on" in _detail(stale)
        ahead = await client.post(moves, json={"text": "Yes", "seq": after["seq"] + 5})
        assert ahead.status_code == 409 and "ahead" in _detail(ahead)
        for text, expected in [("", "text: "), ("y" * 1001, "at most 1000 characters"), ("a\u0007b", "control")]:
            bad = await client.post(moves, json={"text": text, "seq": after["seq"]})
            assert bad.status_code == 422 and expected in _detail(bad)
        assert (await client.post(moves, json={"text": "Yes", "seq": -1})).status_code == 422
        assert (await client.post(moves, json={"words": "Yes"})).status_code == 422
        accepted = await client.post(moves, json={"text": "yes", "seq": after["seq"]})
        assert accepted.status_code == 200 and accepted.json()["status"] == "thinking"
        assert accepted.json()["rejected"] is None
        assert accepted.json()["transcript"][-1]["text"] == "Yes"
        twice = await client.post(moves, json={"text": "No", "seq": after["seq"]})
        assert twice.status_code == 409

        abandoned = await client.post(f"/api/matches/{match_id}/abandon")
        assert abandoned.status_code == 200
        assert abandoned.json()["outcome"]["status"] == "aborted" and disclosed(abandoned.json()) == {"secret": "a cat"}
        assert abandoned.json()["status"] == "finished"
        assert (await client.post(f"/api/matches/{match_id}/abandon")).status_code == 409
        over = await client.post(moves, json={"text": "No"})
        assert over.status_code == 409 and "over" in _detail(over)


async def test_taboo_clues_are_checked_against_the_word_and_the_length(tmp_path: Path) -> None:
    async with running(make_settings(tmp_path)) as client:
        start = (await client.post("/api/matches", json={"game": "taboo"})).json()
        word = disclosed(start)["secret"]
        moves = f"/api/matches/{start['id']}/moves"
        said = await client.post(moves, json={"text": f"Think of {word.upper()} at dawn."})
        assert said.status_code == 422 and "contains the secret word" in _detail(said)
        long = await client.post(moves, json={"text": "a" * 141})
        assert long.status_code == 422 and _detail(long) == "the clue has 141 characters; at most 140 are allowed."
        assert (await client.post(moves, json={"text": "It is quite common."})).status_code == 200


async def test_surveys_are_given_once_for_a_finished_match(tmp_path: Path) -> None:
    answers = {"enjoyment": 5, "satisfaction": 4, "frequency": 3}
    async with running(make_settings(tmp_path)) as client:
        start = (await client.post("/api/matches", json={"game": "akinator", "inputs": {"secret": "a cat"}})).json()
        survey = f"/api/matches/{start['id']}/survey"
        early = await client.post(survey, json=answers)
        assert early.status_code == 409 and "when the match is over" in _detail(early)
        await play(client, start["id"], lambda view: "No")
        for bad in ({**answers, "enjoyment": 6}, {**answers, "frequency": 0}, {"enjoyment": 5},
                    {**answers, "comment": "fun"}, {**answers, "satisfaction": "high"}):
            assert (await client.post(survey, json=bad)).status_code == 422
        assert (await client.post(survey, json=answers)).status_code == 201
        again = await client.post(survey, json=answers)
        assert again.status_code == 409 and "already answered" in _detail(again)
        stats = (await client.get("/api/stats")).json()
        assert stats["surveys"] == 1
        assert stats["survey_distributions"]["enjoyment"] == {"1": 0, "2": 0, "3": 0, "4": 0, "5": 1}
        watch = (await client.post("/api/watch", json={"game": "bluffing"})).json()
        assert (await client.post(f"/api/matches/{watch['id']}/survey", json=answers)).status_code == 403


async def test_clients_are_rate_limited(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, writes=RateLimit(per_minute=1, burst=3), reads=RateLimit(per_minute=1, burst=5))
    async with running(settings) as client:
        statuses = [(await client.post("/api/matches", json={"game": "nope"})).status_code for _ in range(4)]
        assert statuses == [422, 422, 422, 429]
        limited = await client.post("/api/matches", json={"game": "taboo"})
        assert limited.status_code == 429 and "too many requests" in _detail(limited)
        assert int(limited.headers["retry-after"]) >= 1
        reads = [(await client.get("/api/games")).status_code for _ in range(6)]
        assert reads == [200] * 5 + [429]


def test_token_buckets_refill_over_time() -> None:
    now = [0.0]
    limiter = RateLimiter(RateLimit(per_minute=60, burst=2), clock=lambda: now[0])
    assert [limiter.take("a"), limiter.take("a")] == [0.0, 0.0]
    assert limiter.take("a") == pytest.approx(1.0)
    assert limiter.take("b") == 0.0  # clients have their own buckets
    now[0] = 1.0
    assert limiter.take("a") == 0.0
    assert limiter.take("a") > 0


async def test_an_option_naming_a_server_file_is_not_offered(tmp_path: Path) -> None:
    async with running(make_settings(tmp_path)) as client:
        games = {game["id"]: game for game in (await client.get("/api/games")).json()}
        offered = {option["name"] for option in games["dynamic_picnic"]["options"]}
        assert "rules" in offered and "bank" not in offered  # a path on the server: command line only


async def test_a_wrong_method_gets_405_naming_the_allowed_ones(tmp_path: Path) -> None:
    async with running(make_settings(tmp_path)) as client:
        response = await client.get("/api/matches/" + "a" * 32 + "/moves")
        assert response.status_code == 405
        assert response.headers["allow"] == "POST"
        assert _detail(response) == "method GET is not allowed here; allowed: POST"
        watch = await client.put("/api/watch", json={"game": "taboo"})
        assert watch.status_code == 405 and "method PUT is not allowed here; allowed: " in _detail(watch)
        assert "POST" in watch.headers["allow"].split(", ")
        static = await client.post("/static/arena.css")
        assert static.status_code == 405 and static.headers["allow"] == "GET, HEAD"
        assert _detail(static) == "method POST is not allowed here; allowed: GET, HEAD"


async def test_body_scalars_must_come_as_their_json_type(tmp_path: Path) -> None:
    async with running(make_settings(tmp_path)) as client:
        watch = await client.post("/api/watch", json={"game": "taboo", "level": True})
        assert watch.status_code == 422 and "level: input should be a valid integer, not a boolean" in _detail(watch)
        moved = await client.post("/api/matches/" + "a" * 32 + "/moves", json={"text": "Yes", "seq": "3"})
        assert moved.status_code == 422 and "seq: input should be a valid integer, not a string" in _detail(moved)
        survey = {"enjoyment": "5", "satisfaction": 5, "frequency": True}
        answered = await client.post("/api/matches/" + "a" * 32 + "/survey", json=survey)
        assert answered.status_code == 422
        assert "enjoyment: input should be a valid integer, not a string" in _detail(answered)
        assert "frequency: input should be a valid integer, not a boolean" in _detail(answered)
