"""``mock/player`` holds every seat of the three games and plays each match to a rules-made end."""

from __future__ import annotations

import time

import pytest

from playeval.core.ask import OutputConstraint
from playeval.core.events import ReplyRejected, SeatAssignment
from playeval.core.messages import system, user
from playeval.core.registry import default_registry
from playeval.core.rng import match_rng
from playeval.engine import MemoryRecorder, play_match
from playeval.games.akinator.rules import _guess_grammar
from playeval.games.bluffing.parsing import move_grammar
from playeval.models import ModelHub, ModelRequest
from playeval.models.providers.mock_player import player_reply
from playeval.players import LLMPlayer, Player

CASES = [("akinator", 1), ("akinator", 3), ("taboo", 1), ("taboo", 2), ("taboo", 3), ("bluffing", 1)]


@pytest.mark.parametrize(("game_id", "level"), CASES)
async def test_mock_player_finishes_a_match_in_every_seat(game_id: str, level: int) -> None:
    game = default_registry().get(game_id)
    for seed in range(4):
        spec = game.new_spec(level, seed, match_rng(seed))
        recorder = MemoryRecorder()
        async with ModelHub(use_cache=False) as hub:
            parties = [seat.name for seat in game.seats] + [role.name for role in game.roles]
            players: dict[str, Player | None] = {party: LLMPlayer(hub.get("mock/player"), seed=seed, max_retries=0)
                                                 for party in parties}
            match_id = recorder.create_match(spec=spec, seats=[
                SeatAssignment(seat=seat.name, player_kind="llm", model="mock/player") for seat in game.seats])
            outcome = await play_match(game, spec, players, recorder, match_id)
        # max_retries=0: a single refused reply would have forfeited the match
        assert outcome.status == "finished", outcome.reason
        assert outcome.winner in {seat.name for seat in game.seats}
        assert not [e for e in recorder.events[match_id] if isinstance(e, ReplyRejected)]


def test_mock_player_is_deterministic_and_follows_the_protocol() -> None:
    from playeval.core.messages import user

    guesser = ModelRequest(messages=(system("s"), user("go")),
                           constraint=OutputConstraint(grammar=_guess_grammar(4)))
    assert player_reply(guesser) == "This is a guess -- are you thinking of cat?"
    assert player_reply(guesser) == player_reply(guesser)
    first = ModelRequest(messages=(system("s"),), constraint=OutputConstraint(grammar=_guess_grammar(1)))
    assert player_reply(first).startswith("Question 1: ")
    verdict = ModelRequest(messages=(system("s"),), constraint=OutputConstraint(grammar=move_grammar(3)))
    assert player_reply(verdict) == "I believe your statement is: True"


async def test_mock_player_waits_for_the_configured_delay(monkeypatch: pytest.MonkeyPatch) -> None:
    request = ModelRequest(messages=(user("Question 1: Is it alive?"),))
    async with ModelHub(use_cache=False) as hub:
        model = hub.get("mock/player")
        started = time.monotonic()
        await model.generate(request)
        assert time.monotonic() - started < 0.2
        monkeypatch.setenv("PLAYEVAL_MOCK_DELAY", "0.3")
        started = time.monotonic()
        await model.generate(request)
        assert time.monotonic() - started >= 0.3
