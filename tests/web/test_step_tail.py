"""A model step's records are kept off the event loop's path and written in one conditional transaction: before
each model call and at the step's end, with the seqs the recorder promised, and not at all if the log moved. A
person's move is kept the same way and written whole, its end with it."""

from __future__ import annotations

from pathlib import Path

import pytest

from playeval.core.ask import Ask, Reply
from playeval.core.events import ReplyReceived, SeatAssignment
from playeval.core.match import MatchSpec, Outcome
from playeval.store import LogMoved, Store
from playeval.web.tail import MoveTail, StepTail

SPEC = MatchSpec(game="akinator", level=1, seed=1, setup={"secret": "a cat"}, variants={"guesser": 0, "answerer": 0})
SEATS = [SeatAssignment(seat="guesser", player_kind="llm", model="mock/player", prompt_variant=0, evaluated=True),
         SeatAssignment(seat="answerer", player_kind="human", prompt_variant=0, evaluated=False)]
ASK = Ask(seat="guesser", kind="question", messages=(), display="", instructions="")


class SeesTheLog:
    """A player that notes how long the stored log is when it is asked to move."""

    kind = "llm"
    model = "mock/player"
    max_retries = 0

    def __init__(self, store: Store, match_id: str) -> None:
        self.store = store
        self.match_id = match_id
        self.seen: list[int] = []

    async def act(self, ask: Ask) -> Reply:
        self.seen.append(self.store.last_seq(self.match_id))
        return Reply(text="Is it alive?")


def _match(store: Store) -> str:
    return store.create_web_match(spec=SPEC, seats=SEATS, mode="play", people={"answerer": "ab" * 32},
                                  anonymous=True)


async def test_kept_until_flushed_then_written_before_the_next_model_call(tmp_path: Path) -> None:
    with Store.open(f"sqlite:///{tmp_path / 'tail.db'}") as store:
        match_id = _match(store)
        start = store.last_seq(match_id)
        tail = StepTail(store, start)
        assert tail.append_event(match_id, ReplyReceived(seat="answerer", text="No")) == start + 1
        assert tail.append_event(match_id, ReplyReceived(seat="answerer", text="Yes")) == start + 2
        assert store.last_seq(match_id) == start  # nothing written yet
        player = SeesTheLog(store, match_id)
        await tail.flushing(match_id, player).act(ASK)
        assert player.seen == [start + 2]  # the model was asked after the records were stored
        assert tail.seq == start + 2
        tail.finish_match(match_id, Outcome(status="aborted", reason="t", rounds=0))
        await tail.flush(match_id)
        assert store.get_match(match_id).status == "finished"
        assert tail.seq == store.last_seq(match_id) == start + 3
        await tail.flush(match_id)  # nothing kept: nothing written
        assert store.last_seq(match_id) == start + 3


async def test_a_moved_log_refuses_the_whole_tail(tmp_path: Path) -> None:
    with Store.open(f"sqlite:///{tmp_path / 'moved.db'}") as store:
        match_id = _match(store)
        start = store.last_seq(match_id)
        tail = StepTail(store, start)
        tail.append_event(match_id, ReplyReceived(seat="answerer", text="No"))
        tail.append_event(match_id, ReplyReceived(seat="answerer", text="No"))
        store.append_event(match_id, ReplyReceived(seat="answerer", text="Yes"), after_seq=start)  # a person's move
        with pytest.raises(LogMoved):
            await tail.flush(match_id)
        assert store.last_seq(match_id) == start + 1
        with pytest.raises(ValueError, match="finished twice"):
            tail.finish_match(match_id, Outcome(status="aborted", reason="t", rounds=0))
            tail.finish_match(match_id, Outcome(status="aborted", reason="t", rounds=0))


def test_a_person_s_move_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    with Store.open(f"sqlite:///{tmp_path / 'move.db'}") as store:
        match_id = _match(store)
        start = store.last_seq(match_id)
        move = MoveTail(store, start)
        assert move.append_event(match_id, ReplyReceived(seat="answerer", text="Yes")) == start + 1
        move.finish_match(match_id, Outcome(status="aborted", reason="t", rounds=0))
        assert store.last_seq(match_id) == start and store.get_match(match_id).status == "running"
        move.write(match_id)  # the reply and the match's end, in one transaction
        assert move.seq == store.last_seq(match_id) == start + 2 and store.get_match(match_id).status == "finished"

        other = _match(store)
        start = store.last_seq(other)
        late = MoveTail(store, start)
        late.append_event(other, ReplyReceived(seat="answerer", text="No"))
        late.finish_match(other, Outcome(status="aborted", reason="t", rounds=0))
        store.append_event(other, ReplyReceived(seat="answerer", text="Yes"), after_seq=start)  # came first
        with pytest.raises(LogMoved):
            late.write(other)
        assert store.last_seq(other) == start + 1 and store.get_match(other).status == "running"
