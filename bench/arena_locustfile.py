"""Locust users for ``bench/arena_load.py``: people playing Akinator, answering, against ``mock/player``.

Each simulated person does what the match page (``web/static/match.js``) does for a person playing: starts a
match (``POST /api/matches``: Akinator, level 1, the person answers, the secret is "a cat"), loads it once
(``GET /api/matches/{id}``), then follows it on its server-sent event stream (``GET /api/matches/{id}/stream``,
one ``state`` event per change, read as it comes) until it is their turn, thinks ``PLAYEVAL_LOAD_THINK_S``
seconds (a range, default ``2-5``: reading a question and clicking an answer), answers "No"
(``POST /api/matches/{id}/moves`` with the view's ``seq``), and so on until the match is over; then thinks again
and starts the next one. The stream's request is timed to its headers (``stream``); the page makes no other
request while it plays. ``mock/player`` answers instantly, so the latencies are the server's (no model time).
A person sends ``X-Forwarded-For`` with an address of its own, so the arena's per-client rate limits apply per
person as they would to people on their own machines; it proves its seat with the ``X-Match-Token`` header (the
token of the start's response).

Each person counts what the server confirmed: the matches it started (201), the moves it made (200) per match,
and the matches it saw finish. When the test stops (users finish their game first: run with
``--stop-timeout``) the counts are written as JSON to ``PLAYEVAL_LOAD_RESULTS``, for the runner to compare
with the database.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from locust import FastHttpUser, events, task
from locust.env import Environment

THINK_ENV = "PLAYEVAL_LOAD_THINK_S"
RESULTS_ENV = "PLAYEVAL_LOAD_RESULTS"
MAX_MOVES = 40
START = {"game": "akinator", "level": 1, "model": "mock/player", "inputs": {"secret": "a cat"}}


@dataclass
class Played:
    """What the server confirmed to every simulated person of this run."""

    moves: dict[str, int] = field(default_factory=dict)
    """Per match started: the moves the server accepted."""
    finished: set[str] = field(default_factory=set)
    refused: int = 0
    timings: list[tuple[float, str, float]] = field(default_factory=list)
    """Every request: when it ended (Unix time), its name, its latency in ms."""

    def dump(self) -> dict[str, Any]:
        return {"starts": len(self.moves), "moves": sum(self.moves.values()), "finishes": len(self.finished),
                "refused": self.refused, "matches": {match_id: {"moves": count, "finished": match_id in self.finished}
                                                     for match_id, count in self.moves.items()},
                "timings": self.timings}


def _think_range() -> tuple[float, float]:
    low, _, high = os.environ.get(THINK_ENV, "2-5").partition("-")
    return float(low), float(high or low)


@events.init.add_listener
def _on_init(environment: Environment, **_: Any) -> None:
    played = environment.playeval_played = Played()  # type: ignore[attr-defined]

    def timed(name: str, response_time: float, **_: Any) -> None:
        played.timings.append((time.time(), name, response_time))

    environment.events.request.add_listener(timed)


@events.test_stop.add_listener
def _on_stop(environment: Environment, **_: Any) -> None:
    path = os.environ.get(RESULTS_ENV)
    if path:
        played: Played = environment.playeval_played  # type: ignore[attr-defined]
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(played.dump(), handle)


class Person(FastHttpUser):
    """One person playing Akinator (answering) match after match."""

    think = _think_range()

    def wait_time(self) -> float:
        return random.uniform(*self.think)

    def on_start(self) -> None:
        self.address = f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"
        self.played: Played = self.environment.playeval_played  # type: ignore[attr-defined]
        time.sleep(random.uniform(*self.think))  # arriving: reading the games' page before choosing, as later

    @task
    def play_one_match(self) -> None:
        headers = {"X-Forwarded-For": self.address}
        with self.client.post("/api/matches", json=START, headers=headers, name="start",
                              catch_response=True) as started:
            if started.status_code != 201:
                started.failure(f"start answered {started.status_code}")
                return
            body = started.json()
        match_id = body["id"]
        self.played.moves[match_id] = 0
        headers = {**headers, "X-Match-Token": body["token"]}
        with self.client.get(f"/api/matches/{match_id}", headers=headers, name="view",
                             catch_response=True) as seen:
            if seen.status_code != 200:
                seen.failure(f"view answered {seen.status_code}")
                return
            view: dict[str, Any] = seen.json()
        with self.client.get(f"/api/matches/{match_id}/stream", headers=headers, name="stream", stream=True,
                             catch_response=True) as streamed:
            if streamed.status_code != 200:
                streamed.failure(f"stream answered {streamed.status_code}")
                return
            states = _states(streamed)
            for _ in range(MAX_MOVES):
                view = _await_turn(view, states)
                if view["status"] == "finished":
                    self.played.finished.add(match_id)
                    return
                if view["status"] != "your_turn":
                    streamed.failure("the stream ended before the match did")
                    return
                time.sleep(random.uniform(*self.think))
                with self.client.post(f"/api/matches/{match_id}/moves", json={"text": "No", "seq": view["seq"]},
                                      headers=headers, name="move", catch_response=True) as moved:
                    if moved.status_code == 200:
                        self.played.moves[match_id] += 1
                        view = moved.json()
                    elif moved.status_code == 422:  # the rules refused it (recorded as a rejected reply)
                        self.played.refused += 1
                        moved.success()
                    else:
                        moved.failure(f"move answered {moved.status_code}")
                        return


def _states(response: Any) -> Iterator[dict[str, Any]]:
    """The match views of an open event stream, as they come; ends with the stream."""
    data = ""
    while line := response.stream.readline(b"\n"):
        text = line.decode("utf-8").rstrip("\r\n")
        if text.startswith("data:"):
            data = text.removeprefix("data:").strip()
        elif not text and data:
            yield json.loads(data)
            data = ""


def _await_turn(view: dict[str, Any], states: Iterator[dict[str, Any]]) -> dict[str, Any]:
    """The first view from ``view`` on that is the person's turn or the end; the last one if the stream ends."""
    while view["status"] not in ("your_turn", "finished"):
        later = next(states, None)
        if later is None:
            return view
        if later["seq"] >= view["seq"]:
            view = later
    return view
