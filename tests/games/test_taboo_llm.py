"""Taboo played by a small local model, through the real engine loop and llama.cpp grammars.

The game is not in the built-in registry yet, so this plays a match with ``play_match`` directly. Every ask
is grammar-constrained, so llama.cpp must accept the grammars and no reply may be rejected for its format
(a clue may still be rejected by the rules, for writing the word or for copying the game's instructions).
"""

from __future__ import annotations

import random

import pytest

from playeval.core.events import ActionApplied, MatchEnded, ReplyRejected, SeatAssignment
from playeval.core.game import replay
from playeval.core.match import Action
from playeval.engine import MemoryRecorder, play_match
from playeval.games.taboo import CLUE_GIVER, GUESSER, LIMIT, Taboo
from playeval.models import ModelHub
from playeval.players import LLMPlayer

pytestmark = pytest.mark.llm

MODEL = "local/smollm2-135m"


async def test_small_model_plays_a_whole_game_and_makes_a_final_guess(small_hub: ModelHub) -> None:
    game = Taboo()
    model = small_hub.get(MODEL)
    spec = game.new_spec(3, 2, random.Random(2))
    recorder = MemoryRecorder()
    match_id = recorder.create_match(spec=spec, seats=[SeatAssignment(seat=s, player_kind="llm", model=MODEL)
                                                       for s in (GUESSER, CLUE_GIVER)])
    players = {seat: LLMPlayer(model, seed=2) for seat in (GUESSER, CLUE_GIVER)}
    outcome = await play_match(game, spec, players, recorder, match_id)
    events = recorder.events[match_id]
    assert isinstance(events[-1], MatchEnded)
    assert not [e for e in events if isinstance(e, ReplyRejected) and e.error == "format"]
    actions = [e.action for e in events if isinstance(e, ActionApplied)]
    state = replay(game, spec, actions)
    assert game.outcome(state) == outcome or outcome.status == "forfeit"
    assert 0 <= outcome.rounds <= LIMIT
    clues = [a.text for a in actions if a.kind == "clue"]
    assert all(0 < len(text) <= 140 and "\n" not in text for text in clues)
    if not clues:
        # this 135M model, greedy, answers the opening by repeating it ("The game starts now."), which the rules
        # refuse as a copy of the instructions (issue 21); its re-asks repeat it and it forfeits as clue-giver
        assert outcome.status == "forfeit" and outcome.forfeit_seat == CLUE_GIVER
        refused = [e for e in events if isinstance(e, ReplyRejected)]
        assert refused and all(e.error == "rule" and "instructions" in e.reason for e in refused)

    # the final-guess grammar, which a game between these players may not reach
    said = game.apply(game.initial_state(spec), Action(seat=CLUE_GIVER, kind="clue", text="Yellow and curved"))
    said = game.apply(said, Action(seat=GUESSER, kind="answer", text=f"Is it {spec.hidden('secret')}?"))
    final = game.next_ask(said)
    assert final.kind == "final_guess"
    reply = await players[GUESSER].act(final)
    action = game.parse(said, final, reply.text)
    assert action.kind == "guess" and reply.text.startswith("My guess of the word is: ")
    ended = game.outcome(game.apply(said, action))
    assert ended is not None and ended.status == "finished" and ended.rounds == 1
