"""Whole guess-the-rule games played by the small local model (player and judge), through the real engine loop.

Every ask of the player and the judge is grammar-constrained, and the move grammar only admits requests for as
many examples as remain, so llama.cpp must accept each grammar and no reply may be rejected: before the move
grammar was bounded, both local models asked for more values than remained and forfeited on rule errors.
"""

from __future__ import annotations

import random

import pytest

from playeval.core.events import MatchEnded, ReplyRejected, SeatAssignment
from playeval.engine import MemoryRecorder, play_match, state_from_events
from playeval.games.functions_picnic import FunctionsPicnic
from playeval.games.math import MathGame
from playeval.games.static_picnic import StaticPicnic
from playeval.guess_rule import JUDGE, PLAYER, GuessRuleGame
from playeval.models import ModelHub
from playeval.players import LLMPlayer

pytestmark = pytest.mark.llm

MODEL = "local/smollm2-135m"


@pytest.mark.parametrize(("game", "level"), [(MathGame(), 3), (StaticPicnic(), 2), (FunctionsPicnic(), 3)],
                         ids=["math", "static_picnic", "functions_picnic"])
async def test_small_model_plays_and_judges_whole_games(small_hub: ModelHub, game: GuessRuleGame, level: int) -> None:
    model = small_hub.get(MODEL)
    for seed in (3, 4):
        spec = game.new_spec(level, seed, random.Random(seed), options={"max_turns": 6})
        recorder = MemoryRecorder()
        match_id = recorder.create_match(spec=spec, seats=[SeatAssignment(seat=PLAYER, player_kind="llm",
                                                                          model=MODEL)])
        players = {PLAYER: LLMPlayer(model, seed=seed), JUDGE: LLMPlayer(model, seed=seed, temperature=0.0)}
        outcome = await play_match(game, spec, players, recorder, match_id)
        events = recorder.events[match_id]
        assert isinstance(events[-1], MatchEnded)
        assert outcome.status == "finished", outcome.reason
        assert not [e for e in events if isinstance(e, ReplyRejected)]  # grammar-constrained: nothing refused
        state = state_from_events(game, spec, events)
        assert game.outcome(state) == outcome and 1 <= state.turns <= 6
        assert state.shown <= state.total
