"""The step-wise game master: ``advance`` plays models until a person must move, ``submit`` takes a person's reply."""

from __future__ import annotations

import random

import pytest

from playeval.core.ask import Ask, Reply
from playeval.core.events import ActionApplied, AskIssued, MatchEnded, ReplyReceived, ReplyRejected, SeatAssignment
from playeval.core.match import MatchSpec
from playeval.engine import MatchOver, MemoryRecorder, NotYourTurn, abandon, advance, play_match, submit
from playeval.games.akinator import ANSWERER, GUESSER, JUDGE, Akinator
from playeval.games.akinator.baselines import ListGuesser, OracleAnswerer
from playeval.games.taboo import Taboo
from playeval.models import ModelHub
from playeval.players import LLMPlayer

game = Akinator()
SPEC = MatchSpec(game="akinator", level=1, seed=3, secret="a lamp", variants={GUESSER: 1, ANSWERER: 0})
SEATS = [SeatAssignment(seat=GUESSER, player_kind="scripted"), SeatAssignment(seat=ANSWERER, player_kind="human")]
GUESSES = ["a chair", "a kettle", "Lamps"]


def _start() -> tuple[MemoryRecorder, str]:
    recorder = MemoryRecorder()
    return recorder, recorder.create_match(spec=SPEC, seats=SEATS)


def _types(recorder: MemoryRecorder, match_id: str) -> list[str]:
    return [event.type for event in recorder.events[match_id]]


async def test_advance_plays_the_model_then_waits_for_the_person_and_asks_once() -> None:
    recorder, match_id = _start()
    players = {GUESSER: ListGuesser(GUESSES), ANSWERER: None, JUDGE: None}
    result = await advance(game, SPEC, recorder.events[match_id], players, recorder, match_id)
    assert result.waiting_for == (JUDGE,) and result.outcome is None and result.moves == 1
    assert _types(recorder, match_id) == ["match_started", "ask", "reply", "action", "ask"]
    assert recorder.events[match_id][-1] == AskIssued(role=JUDGE, kind="confirm", attempt=0)
    again = await advance(game, SPEC, list(recorder.events[match_id]), players, recorder, match_id)
    assert again.waiting_for == (JUDGE,) and again.moves == 0
    assert len(recorder.events[match_id]) == 5  # the person's ask is not recorded twice


async def test_submit_refuses_the_wrong_seat_and_records_nothing() -> None:
    recorder, match_id = _start()
    with pytest.raises(NotYourTurn, match="guesser is to move"):
        submit(game, SPEC, recorder.events[match_id], ANSWERER, "Yes", recorder, match_id)
    with pytest.raises(NotYourTurn, match="guesser is to move"):
        submit(game, SPEC, recorder.events[match_id], JUDGE, "Yes", recorder, match_id)
    assert _types(recorder, match_id) == ["match_started"]


async def test_a_person_is_reasked_with_the_reason_and_never_forfeits() -> None:
    recorder, match_id = _start()
    players = {GUESSER: ListGuesser(GUESSES), ANSWERER: None, JUDGE: None}
    await advance(game, SPEC, recorder.events[match_id], players, recorder, match_id)
    for attempt in range(1, 8):
        result = submit(game, SPEC, list(recorder.events[match_id]), JUDGE, "perhaps", recorder, match_id)
        assert not result.accepted and result.error == "format"
        assert result.reason is not None and "Yes, No" in result.reason
        assert recorder.events[match_id][-1] == AskIssued(role=JUDGE, kind="confirm", attempt=attempt)
    assert match_id not in recorder.outcomes
    rejected = [e for e in recorder.events[match_id] if isinstance(e, ReplyRejected)]
    assert len(rejected) == 7 and all(e.text == "perhaps" for e in rejected)
    accepted = submit(game, SPEC, list(recorder.events[match_id]), JUDGE, "no", recorder, match_id)
    assert accepted.accepted and accepted.action is not None and accepted.action.text == "No"
    assert accepted.action.role == JUDGE and accepted.action.seat is None
    assert isinstance(recorder.events[match_id][-1], ActionApplied)
    # the rejections were of the move now made: the next step starts a fresh ask
    result = await advance(game, SPEC, list(recorder.events[match_id]), players, recorder, match_id)
    assert result.waiting_for == (JUDGE,)
    assert recorder.events[match_id][-1] == AskIssued(role=JUDGE, kind="confirm", attempt=0)


async def test_steps_reach_the_same_outcome_and_actions_as_the_loop() -> None:
    loop_recorder = MemoryRecorder()
    loop_id = loop_recorder.create_match(spec=SPEC, seats=SEATS)
    expected = await play_match(game, SPEC, {GUESSER: ListGuesser(GUESSES), ANSWERER: OracleAnswerer("a lamp"),
                                             JUDGE: OracleAnswerer("a lamp")}, loop_recorder, loop_id)
    recorder, match_id = _start()
    players = {GUESSER: ListGuesser(GUESSES), ANSWERER: None, JUDGE: None}
    oracle = OracleAnswerer("a lamp")
    while True:
        result = await advance(game, SPEC, list(recorder.events[match_id]), players, recorder, match_id)
        if result.outcome is not None:
            break
        ask = game.next_ask(result.state)
        reply = await oracle.act(ask)
        submit(game, SPEC, list(recorder.events[match_id]), ask.party, reply.text, recorder, match_id)
    assert result.outcome == expected
    actions = [e.action for e in recorder.events[match_id] if isinstance(e, ActionApplied)]
    assert actions == [e.action for e in loop_recorder.events[loop_id] if isinstance(e, ActionApplied)]
    assert _types(recorder, match_id).count("match_ended") == 1


async def test_the_person_ending_the_match_records_the_outcome() -> None:
    taboo = Taboo()
    spec = taboo.new_spec(1, 4, random.Random(4)).model_copy(update={"setup": {"secret": "otter"}})
    recorder = MemoryRecorder()
    match_id = recorder.create_match(spec=spec, seats=[SeatAssignment(seat="guesser", player_kind="scripted"),
                                                       SeatAssignment(seat="clue_giver", player_kind="human")])
    refused = submit(taboo, spec, recorder.events[match_id], "clue_giver", "Otters swim", recorder, match_id)
    assert not refused.accepted and refused.error == "rule" and "secret word" in (refused.reason or "")
    submit(taboo, spec, list(recorder.events[match_id]), "clue_giver", "It swims in rivers.", recorder, match_id)
    result = submit(taboo, spec, list(recorder.events[match_id]), "guesser", "My guess of the word is: otter",
                    recorder, match_id)  # a person may hold the guesser seat too
    assert result.outcome is not None and result.outcome.winner == "guesser"
    assert isinstance(recorder.events[match_id][-1], MatchEnded)
    with pytest.raises(MatchOver):
        submit(taboo, spec, list(recorder.events[match_id]), "clue_giver", "more", recorder, match_id)


async def test_advance_records_an_outcome_the_log_missed() -> None:
    recorder, match_id = _start()
    players = {GUESSER: ListGuesser(["a lamp"]), ANSWERER: None, JUDGE: None}
    await advance(game, SPEC, recorder.events[match_id], players, recorder, match_id)
    # the guess matched the secret, so the rules ended the match; drop the outcome as if the process died there
    recorder.events[match_id] = [e for e in recorder.events[match_id] if not isinstance(e, MatchEnded)]
    del recorder.outcomes[match_id]
    result = await advance(game, SPEC, list(recorder.events[match_id]), players, recorder, match_id)
    assert result.outcome is not None and result.outcome.winner == GUESSER and result.moves == 0
    assert _types(recorder, match_id).count("match_ended") == 1


class _Recording:
    """A scripted guesser that keeps the asks it was given and replies from a list."""

    kind = "scripted"
    model = None
    max_retries = 2

    def __init__(self, replies: list[str]) -> None:
        self.replies = replies
        self.asks: list[Ask] = []

    async def act(self, ask: Ask) -> Reply:
        self.asks.append(ask)
        return Reply(text=self.replies[len(self.asks) - 1])


async def test_a_move_cut_short_leaves_no_half_move() -> None:
    """A model's move is written whole: when the process dies during its third try, the log holds none of it,
    and the resumed match asks again from the first try."""
    recorder, match_id = _start()
    first = _Recording(["not a move", "still not a move"])
    with pytest.raises(IndexError):  # the "process" dies while the model is asked the third time
        await advance(game, SPEC, recorder.events[match_id], {GUESSER: first, ANSWERER: None, JUDGE: None}, recorder,
                      match_id)
    assert _types(recorder, match_id) == ["match_started"]
    second = _Recording(["This is a guess -- are you thinking of a lamp?"])
    result = await advance(game, SPEC, list(recorder.events[match_id]), {GUESSER: second, ANSWERER: None,
                                                                          JUDGE: None}, recorder, match_id)
    assert result.outcome is not None and result.outcome.winner == GUESSER and second.asks[0].attempt == 0


async def test_a_log_that_ends_mid_move_resumes_with_its_reasks() -> None:
    """Logs written before moves were recorded whole (and a person's refused replies) can end inside a move:
    the resumed ask carries the refused replies and is not recorded again."""
    recorder, match_id = _start()
    for attempt, text in enumerate(["not a move", "still not a move"]):
        recorder.append_event(match_id, AskIssued(seat=GUESSER, kind="move", attempt=attempt))
        recorder.append_event(match_id, ReplyReceived(seat=GUESSER, text=text))
        recorder.append_event(match_id, ReplyRejected(seat=GUESSER, error="format", reason="unreadable.", text=text))
    recorder.append_event(match_id, AskIssued(seat=GUESSER, kind="move", attempt=2))
    second = _Recording(["This is a guess -- are you thinking of a lamp?"])
    result = await advance(game, SPEC, list(recorder.events[match_id]), {GUESSER: second, ANSWERER: None,
                                                                          JUDGE: None}, recorder, match_id)
    assert result.outcome is not None and result.outcome.winner == GUESSER
    resumed = second.asks[0]
    assert resumed.attempt == 2 and resumed.messages[-2].content == "still not a move"
    asks = [e for e in recorder.events[match_id] if isinstance(e, AskIssued)]
    assert [a.attempt for a in asks] == [0, 1, 2]  # the pending ask was not recorded again
    assert sum(isinstance(e, ReplyReceived) for e in recorder.events[match_id]) == 3


async def test_a_model_still_forfeits_after_its_reasks() -> None:
    recorder, match_id = _start()
    async with ModelHub(use_cache=False) as hub:
        players = {GUESSER: LLMPlayer(hub.get("mock/garbage"), seed=1, max_retries=1), ANSWERER: None, JUDGE: None}
        result = await advance(game, SPEC, recorder.events[match_id], players, recorder, match_id)
    assert result.outcome is not None and result.outcome.status == "forfeit"
    assert result.outcome.forfeit_seat == GUESSER and result.waiting_for == ()


def test_abandon_records_an_aborted_outcome_once() -> None:
    recorder, match_id = _start()
    outcome = abandon(game, SPEC, recorder.events[match_id], recorder, match_id, "left")
    assert (outcome.status, outcome.winner, outcome.reason, outcome.rounds) == ("aborted", None, "left", 0)
    with pytest.raises(MatchOver):
        abandon(game, SPEC, list(recorder.events[match_id]), recorder, match_id, "left")
