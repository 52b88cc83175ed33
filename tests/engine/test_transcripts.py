"""The transcript contract: a game's transcript only grows, and the engine checks it (with ``$PLAYEVAL_CHECKS``,
which the test suite sets) as it records each step and each person's move."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

import pytest

from playeval.core import (
    Action,
    Ask,
    GameBase,
    LevelInfo,
    MatchSpec,
    Outcome,
    Presentation,
    SeatAssignment,
    SeatInfo,
)
from playeval.core.events import ActionApplied
from playeval.core.messages import user
from playeval.engine import MemoryRecorder, advance, play_match, submit
from playeval.engine.transcripts import CHECKS_VARIABLE, TranscriptRewritten, TranscriptWatch, checks_enabled
from playeval.models import ModelHub
from playeval.players import LLMPlayer

WORDS = ("amber", "birch", "cedar", "delta")


class _Relay(GameBase):
    """Two seats say the words of a list in turn (``mock/echo``, which says back the last message, plays both);
    ``newest_first`` shows the transcript backwards (broken: each move rewrites the first line)."""

    id: ClassVar[str] = "relay"
    title: ClassVar[str] = "Relay"
    seats: ClassVar[tuple[SeatInfo, ...]] = (SeatInfo(name="a", role="says a word", evaluated=True),
                                            SeatInfo(name="b", role="says a word", evaluated=True))
    levels: ClassVar[tuple[LevelInfo, ...]] = (LevelInfo(level=1, description="four words"),)
    presentation: ClassVar[Presentation] = Presentation(name="Relay", tagline="", pitch="", how=())

    def __init__(self, *, newest_first: bool = False) -> None:
        self._newest_first = newest_first

    def new_spec(self, level: int, seed: int, rng: random.Random, **_: Any) -> MatchSpec:
        return MatchSpec(game=self.id, level=level, seed=seed)

    def initial_state(self, spec: MatchSpec) -> tuple[str, ...]:
        return ()

    def next_ask(self, state: tuple[str, ...]) -> Ask:
        word = WORDS[len(state)]
        return Ask(seat="ab"[len(state) % 2], kind="say", display=word, instructions="Say it.",
                   messages=(user(word),))

    def parse(self, state: tuple[str, ...], ask: Ask, text: str) -> Action:
        return Action(seat=ask.seat, kind="say", text=text)

    def apply(self, state: tuple[str, ...], action: Action) -> tuple[str, ...]:
        return (*state, action.text)

    def outcome(self, state: tuple[str, ...]) -> Outcome | None:
        return Outcome(status="finished", reason="every word said", rounds=len(state)) if len(state) == 4 else None

    def rounds(self, state: tuple[str, ...]) -> int:
        return len(state)

    def transcript(self, state: tuple[str, ...]) -> Sequence[tuple[str, str]]:
        lines = [("ab"[index % 2], word) for index, word in enumerate(state)]
        return lines[::-1] if self._newest_first else lines


def _table(game: _Relay, people: Sequence[str] = ()) -> tuple[MemoryRecorder, str, dict[str, Any]]:
    recorder = MemoryRecorder()
    spec = game.new_spec(1, 0, random.Random(0))
    match_id = recorder.create_match(spec=spec, seats=[SeatAssignment(seat=seat, player_kind="llm", model="mock/echo")
                                                       for seat in ("a", "b")])
    echo = LLMPlayer(ModelHub(use_cache=False).get("mock/echo"), seed=0, max_retries=0)
    players = {seat: None if seat in people else echo for seat in ("a", "b")}
    return recorder, match_id, players


def test_the_suite_checks_every_game_it_plays() -> None:
    assert checks_enabled()  # tests/conftest.py turns the checks on for every test


async def test_a_game_whose_transcript_rewrites_a_line_fails_naming_the_game_and_the_line() -> None:
    game = _Relay(newest_first=True)
    recorder, match_id, players = _table(game)
    spec = game.new_spec(1, 0, random.Random(0))
    with pytest.raises(TranscriptRewritten) as raised:
        await play_match(game, spec, players, recorder, match_id)
    assert str(raised.value) == ("relay: transcript line 1 was a: 'amber' and is now b: 'birch'; a transcript only "
                                 "grows (earlier lines never change)")
    said = [event.action.text for event in recorder.events[match_id] if isinstance(event, ActionApplied)]
    assert said == ["amber", "birch"]  # it stopped at the first move that rewrote a line


async def test_a_person_s_move_that_rewrites_a_line_is_refused_before_it_is_recorded() -> None:
    game = _Relay(newest_first=True)
    recorder, match_id, players = _table(game, people=("b",))
    spec = game.new_spec(1, 0, random.Random(0))
    result = await advance(game, spec, [], players, recorder, match_id)
    assert result.waiting_for == ("b",)
    before = list(recorder.events[match_id])
    with pytest.raises(TranscriptRewritten, match="relay: transcript line 1 was a: 'amber'"):
        submit(game, spec, before, "b", "birch", recorder, match_id)
    assert recorder.events[match_id] == before


async def test_a_growing_transcript_passes_and_the_check_is_off_without_the_variable(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = _Relay()
    recorder, match_id, players = _table(game)
    outcome = await play_match(game, game.new_spec(1, 0, random.Random(0)), players, recorder, match_id)
    assert outcome.status == "finished"
    monkeypatch.delenv(CHECKS_VARIABLE)
    assert not checks_enabled()
    broken = _Relay(newest_first=True)
    recorder, match_id, players = _table(broken)
    outcome = await play_match(broken, broken.new_spec(1, 0, random.Random(0)), players, recorder, match_id)
    assert outcome.status == "finished"  # unchecked: the batch runs of a finished game pay nothing for it


def test_a_line_taken_away_is_a_rewrite_too() -> None:
    game = _Relay()
    watch = TranscriptWatch(game, ("amber", "birch"))
    watch.check(("amber", "birch", "cedar"))
    with pytest.raises(TranscriptRewritten, match=r"relay: transcript line 3 \(a: 'cedar'\) is gone"):
        watch.check(("amber", "birch"))
