"""Whole Bluffing games played by a small local model in both seats, through the real engine loop.

The game is not in the built-in registry yet, so this plays matches with ``play_match`` directly.
Every ask is grammar-constrained, so llama.cpp must accept the grammars and no reply is rejected.
"""

from __future__ import annotations

import random

import pytest

from playeval.core.events import ActionApplied, MatchEnded, ReplyRejected, SeatAssignment
from playeval.core.game import replay
from playeval.core.match import Action
from playeval.engine import MemoryRecorder, play_match, state_from_events
from playeval.games.bluffing import BLUFFER, LIMIT, QUESTIONER, Bluffing
from playeval.games.bluffing.baselines import CANNED_ANSWERS, GENERIC_QUESTIONS
from playeval.models import ModelHub
from playeval.players import LLMPlayer

pytestmark = pytest.mark.llm

MODEL = "local/smollm2-135m"


async def test_small_model_plays_whole_games_in_both_seats(small_hub: ModelHub) -> None:
    game = Bluffing()
    model = small_hub.get(MODEL)
    for seed in (1, 2):  # the tiny model often gives its verdict at once: two quick games
        spec = game.new_spec(1, seed, random.Random(seed))
        recorder = MemoryRecorder()
        match_id = recorder.create_match(spec=spec, seats=[SeatAssignment(seat=s, player_kind="llm", model=MODEL)
                                                           for s in (QUESTIONER, BLUFFER)])
        players = {seat: LLMPlayer(model, seed=seed) for seat in (QUESTIONER, BLUFFER)}
        outcome = await play_match(game, spec, players, recorder, match_id)
        events = recorder.events[match_id]
        assert isinstance(events[-1], MatchEnded)
        assert outcome.status == "finished", outcome.reason
        assert 1 <= outcome.rounds <= LIMIT + 1
        assert not [e for e in events if isinstance(e, ReplyRejected)]  # grammar-constrained: no format errors
        actions = [e.action for e in events if isinstance(e, ActionApplied)]
        assert actions[-1].kind == "verdict" and actions[-1].text in ("True", "False")
        assert all(a.text.strip() for a in actions if a.kind == "answer")
        assert recorder.calls and all(c.prompt_tokens > 0 and c.completion_tokens > 0 for c in recorder.calls)
        state = state_from_events(game, spec, events)
        assert game.outcome(state) == outcome
        for seat, line in game.transcript(state):
            print(f"{seat}: {line}")


async def test_every_grammar_is_accepted_and_every_reply_parses(small_hub: ModelHub) -> None:
    """The model answers one ask of each kind (first move, last move, verdict, bluffer's answer) under its grammar."""
    game = Bluffing()
    spec = game.new_spec(1, 3, random.Random(3))
    script = [Action(seat=QUESTIONER, kind="question", text=f"Question {n}: {GENERIC_QUESTIONS[n - 1]}") if seat == 0
              else Action(seat=BLUFFER, kind="answer", text=CANNED_ANSWERS[n - 1])
              for n in range(1, LIMIT + 1) for seat in (0, 1)]
    player = LLMPlayer(small_hub.get(MODEL), seed=3)
    seen: dict[str, str] = {}
    for played in (0, 2 * LIMIT - 2, 2 * LIMIT, 2 * LIMIT - 1):
        state = replay(game, spec, script[:played])
        ask = game.next_ask(state)
        assert ask.constraint is not None and ask.constraint.grammar is not None
        reply = await player.act(ask)
        assert reply.calls and reply.calls[0].completion_tokens > 0
        parsed = game.parse(state, ask, reply.text)  # raises FormatError if the grammar let a bad reply through
        game.apply(state, parsed)
        seen[ask.kind] = parsed.kind
    assert seen["verdict"] == "verdict" and seen["answer"] == "answer" and seen["move"] in ("question", "verdict")
