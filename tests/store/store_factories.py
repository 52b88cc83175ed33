"""Small builders of matches, events and calls for store tests."""

from __future__ import annotations

from playeval.core.ask import CallRecord
from playeval.core.events import SeatAssignment
from playeval.core.match import MatchSpec, Outcome
from playeval.core.messages import assistant, system, user


def spec(seed: int = 7, secret: str | None = "giraffe") -> MatchSpec:
    return MatchSpec(
        game="akinator",
        level=2,
        seed=seed,
        secret=secret,
        variants={"guesser": 1, "answerer": 0},
        params={"max_questions": 20, "strict": True, "temperature": 0.5, "label": "x"},
    )


def seats() -> tuple[SeatAssignment, ...]:
    # Deliberately not in alphabetical order: seat order must survive storage.
    return (
        SeatAssignment(seat="guesser", player_kind="llm", model="mock/echo", prompt_variant=1),
        SeatAssignment(seat="answerer", player_kind="scripted", model=None, prompt_variant=None),
    )


def outcome() -> Outcome:
    return Outcome(status="finished", winner="guesser", reason="guessed the object", rounds=4)


def call(text: str = "Question 1: Is it alive?", *, cached: bool = False) -> CallRecord:
    return CallRecord(
        model="mock/echo",
        messages=(system("You are playing twenty questions."), user("Ask your first question."), assistant("ok")),
        params={"temperature": 0.0, "max_tokens": 96, "stop": ["\n"]},
        raw_output=text,
        prompt_tokens=31,
        completion_tokens=7,
        latency_s=0.25,
        cached=cached,
        attempts=2,
    )
