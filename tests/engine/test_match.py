"""The game-master loop on scripted players and mock models."""

from __future__ import annotations

import random

from playeval.core.ask import Ask, Reply
from playeval.core.events import ActionApplied, MatchEnded, ReplyRejected, SeatAssignment
from playeval.core.match import MatchSpec
from playeval.engine import MemoryRecorder, play_match, state_from_events
from playeval.games.akinator import ANSWERER, GUESSER, JUDGE, Akinator
from playeval.games.akinator.baselines import ListGuesser, OracleAnswerer
from playeval.models import ModelHub
from playeval.players import LLMPlayer

game = Akinator()


def make_spec(secret: str = "a lamp") -> MatchSpec:
    return MatchSpec(game="akinator", level=1, seed=3, secret=secret, variants={GUESSER: 1, ANSWERER: 0})


def seats() -> list[SeatAssignment]:
    return [SeatAssignment(seat=GUESSER, player_kind="scripted"), SeatAssignment(seat=ANSWERER, player_kind="scripted")]


async def test_scripted_match_wins_on_the_third_guess() -> None:
    recorder = MemoryRecorder()
    spec = make_spec()
    match_id = recorder.create_match(spec=spec, seats=seats())
    players = {GUESSER: ListGuesser(["a chair", "a kettle", "Lamps"]), ANSWERER: OracleAnswerer("a lamp"),
               JUDGE: OracleAnswerer("a lamp")}
    outcome = await play_match(game, spec, players, recorder, match_id)
    assert outcome.winner == GUESSER and outcome.rounds == 3 and outcome.status == "finished"
    assert isinstance(recorder.events[match_id][-1], MatchEnded)


async def test_garbage_is_reasked_then_forfeits_with_the_reason() -> None:
    recorder = MemoryRecorder()
    spec = make_spec()
    match_id = recorder.create_match(spec=spec, seats=seats())
    hub = ModelHub(use_cache=False)
    try:
        players = {GUESSER: LLMPlayer(hub.get("mock/garbage"), seed=1, max_retries=2),
                   ANSWERER: OracleAnswerer("a lamp")}
        outcome = await play_match(game, spec, players, recorder, match_id)
    finally:
        await hub.aclose()
    rejections = [e for e in recorder.events[match_id] if isinstance(e, ReplyRejected)]
    assert len(rejections) == 3  # the first ask and two re-asks
    assert all(r.error == "format" and r.text == "~~ not a move ~~" for r in rejections)
    assert outcome.status == "forfeit" and outcome.forfeit_seat == GUESSER and outcome.winner is None
    assert "Question 1" in outcome.reason and "forfeits" in outcome.reason
    # each re-ask showed the model its rejected reply and the reason
    last_call = recorder.calls[-1]
    assert last_call.messages[-2].content == "~~ not a move ~~"
    assert "not accepted" in last_call.messages[-1].content


class _FlakyGuesser:
    """Answers badly once, then well: the re-ask must recover without a forfeit."""

    kind = "scripted"
    model = None
    max_retries = 2

    async def act(self, ask: Ask) -> Reply:
        if ask.attempt == 0:
            return Reply(text="I think it might be a lamp")
        return Reply(text="This is a guess -- are you thinking of a lamp?")


async def test_reask_recovers() -> None:
    recorder = MemoryRecorder()
    spec = make_spec()
    match_id = recorder.create_match(spec=spec, seats=seats())
    outcome = await play_match(game, spec, {GUESSER: _FlakyGuesser(), ANSWERER: OracleAnswerer("a lamp"),
                                            JUDGE: OracleAnswerer("a lamp")}, recorder, match_id)
    assert outcome.winner == GUESSER and outcome.rounds == 1
    kinds = [e.type for e in recorder.events[match_id]]
    assert kinds.count("rejected") == 1 and kinds.count("action") == 1


async def test_match_continues_from_recorded_events() -> None:
    recorder = MemoryRecorder()
    spec = make_spec("a kettle")
    match_id = recorder.create_match(spec=spec, seats=seats())
    guesses = ["a chair", "a spoon", "a cup", "a kettle"]
    first = MemoryRecorder()
    first_id = first.create_match(spec=spec, seats=seats())
    await play_match(game, spec, {GUESSER: ListGuesser(guesses), ANSWERER: OracleAnswerer("a kettle"),
                                       JUDGE: OracleAnswerer("a kettle")}, first, first_id)
    # keep only the log up to the second applied guess, as if the process had died there
    log = first.events[first_id]
    cut = [i for i, e in enumerate(log) if isinstance(e, ActionApplied)][3]
    partial = log[: cut + 1]
    state = state_from_events(game, spec, partial)
    assert len(state.turns) == 2
    recorder.events[match_id] = list(partial)
    outcome = await play_match(game, spec, {GUESSER: ListGuesser(guesses), ANSWERER: OracleAnswerer("a kettle"),
                                       JUDGE: OracleAnswerer("a kettle")},
                               recorder, match_id, prior_events=partial)
    assert outcome.winner == GUESSER and outcome.rounds == 4


def test_rng_is_per_match() -> None:
    state = random.getstate()
    game.new_spec(1, 11, random.Random(11))
    assert random.getstate() == state
