"""The batch path's buffered recorder: the same log and model calls as writing each move at once, in few
transactions, and a crash loses only the uncommitted tail, which a resume replays without a duplicate seq.
On SQLite and (marked postgres) PostgreSQL."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import pytest

from playeval.core.ask import Ask, Reply
from playeval.core.errors import NotFoundError
from playeval.core.events import AskIssued, Event, MatchEnded, ReplyReceived, SeatAssignment
from playeval.core.match import MatchSpec
from playeval.engine import BufferedRecorder, Recorder, play_match
from playeval.engine.writer import CommitWriter
from playeval.games.akinator import ANSWERER, GUESSER, JUDGE, Akinator
from playeval.games.akinator.baselines import OracleAnswerer
from playeval.models import ModelHub, ModelRequest
from playeval.players import LLMPlayer, Player
from playeval.store import DuplicateMatch, LogMoved, Store, TailCommit, _direct

game = Akinator()
SECRET = "a lamp"


def walker(request: ModelRequest) -> str:
    """Numbered questions, with a reply that breaks the format every fourth call (a re-ask with its reason)."""
    replies = [message.content for message in request.messages if message.role == "assistant"]
    turn = sum(1 for reply in replies if reply.startswith("Question")) + 1
    return "no idea" if len(replies) % 4 == 3 else f"Question {turn}: Is it thing number {turn}?"


def stored_events(store: Store, match_id: str) -> int:
    """How many events of the match are stored; 0 when the match itself is not stored yet."""
    try:
        return len(store.events(match_id))
    except NotFoundError:
        return 0


def make_spec() -> MatchSpec:
    return MatchSpec(game="akinator", level=1, seed=3, setup={"secret": SECRET}, variants={GUESSER: 1, ANSWERER: 0})


SEATS = (SeatAssignment(seat=GUESSER, player_kind="llm", model="mock/walker"),
         SeatAssignment(seat=ANSWERER, player_kind="scripted"))


class Crash(Exception):
    """The process dying mid-match."""


@dataclass
class CrashingPlayer:
    """Plays as ``inner`` until its ``crash_at``-th move, where it raises (the match is cut mid-way)."""

    inner: LLMPlayer
    crash_at: int
    moves: int = field(default=0)

    @property
    def kind(self) -> str:
        return self.inner.kind

    @property
    def model(self) -> str | None:
        return self.inner.model

    @property
    def max_retries(self) -> int:
        return self.inner.max_retries

    async def act(self, ask: Ask) -> Reply:
        self.moves += 1
        if self.moves == self.crash_at:
            raise Crash(f"crashed at move {self.moves}")
        return await self.inner.act(ask)


@dataclass
class FrozenClock:
    now: float = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def hub() -> Any:
    models = ModelHub(use_cache=False, mock_scripts={"walker": walker})
    yield models
    await models.aclose()


def players(hub: ModelHub, *, crash_at: int | None = None) -> dict[str, Player | None]:
    guesser = LLMPlayer(hub.get("mock/walker"), seed=1, max_retries=2)
    return {GUESSER: guesser if crash_at is None else CrashingPlayer(guesser, crash_at),
            ANSWERER: OracleAnswerer(SECRET), JUDGE: OracleAnswerer(SECRET)}


async def play(recorder: Recorder, hub: ModelHub) -> str:
    spec = make_spec()
    match_id = recorder.create_match(spec=spec, seats=SEATS)
    await play_match(game, spec, players(hub), recorder, match_id)
    return match_id


def log_of(store: Store, match_id: str) -> list[Any]:
    """The log and the model calls with the database's ids and times taken out (they differ between matches)."""
    events: list[Event] = store.events(match_id)
    shown: list[Any] = [event.model_dump(exclude={"call_ids"}) | (
        {"calls": len(event.call_ids)} if isinstance(event, ReplyReceived) else {}) for event in events]
    calls = [row.model_dump(exclude={"id", "match_id", "created_at", "latency_s"}) for row in store.calls(match_id)]
    return [shown, calls]


async def test_buffered_log_and_calls_are_those_of_the_unbuffered_store(store: Store, hub: ModelHub) -> None:
    direct = await play(store, hub)
    buffered = await play(BufferedRecorder(store), hub)

    assert log_of(store, buffered) == log_of(store, direct)
    records = store.event_records(buffered)
    assert [record.seq for record in records] == list(range(1, len(records) + 1))
    assert any(event.type == "rejected" for event in store.events(buffered))  # re-asks were recorded
    # every reply names exactly the calls stored for it, in order
    replied = [call_id for event in store.events(buffered) if isinstance(event, ReplyReceived)
               for call_id in event.call_ids]
    assert replied == [row.id for row in store.calls(buffered)]
    assert store.get_match(buffered).status == "finished"


async def test_a_whole_match_is_committed_at_its_end(store: Store, hub: ModelHub) -> None:
    clock = FrozenClock()
    recorder = BufferedRecorder(store, clock=clock)
    spec = make_spec()
    match_id = recorder.create_match(spec=spec, seats=SEATS)
    cut = players(hub, crash_at=10)
    with pytest.raises(Crash):
        await play_match(game, spec, cut, recorder, match_id)
    assert recorder.pending(match_id) > 0
    assert stored_events(store, match_id) == 0  # nothing committed mid-match: not even the match, stored with it

    recorder.flush()
    assert recorder.pending(match_id) == 0
    flushed = store.events(match_id)
    await play_match(game, spec, players(hub), recorder, match_id, prior_events=flushed)
    assert recorder.pending(match_id) == 0
    assert isinstance(store.events(match_id)[-1], MatchEnded)
    assert store.get_match(match_id).status == "finished"


async def test_a_commit_once_the_age_or_the_size_is_reached(store: Store) -> None:
    clock = FrozenClock()
    recorder = BufferedRecorder(store, max_events=3, max_age_s=1.0, clock=clock)
    match_id = recorder.create_match(spec=make_spec(), seats=SEATS)
    ask = AskIssued(seat=GUESSER, kind="question", attempt=0)
    assert recorder.append_event(match_id, ask) == 2
    assert recorder.append_event(match_id, ask) == 3
    assert stored_events(store, match_id) == 0
    assert recorder.append_event(match_id, ask) == 4  # three buffered: committed, with the match
    assert len(store.events(match_id)) == 4 and recorder.pending(match_id) == 0
    assert recorder.append_event(match_id, ask) == 5
    assert len(store.events(match_id)) == 4
    clock.now = 1.0  # a second since the last commit: the next append commits
    assert recorder.append_event(match_id, ask) == 6
    assert [record.seq for record in store.event_records(match_id)] == [1, 2, 3, 4, 5, 6]


async def test_a_crash_loses_only_the_uncommitted_tail_and_resume_completes_it(store: Store,
                                                                               hub: ModelHub) -> None:
    reference = await play(store, hub)

    clock = FrozenClock()
    recorder = BufferedRecorder(store, max_events=7, clock=clock)
    spec = make_spec()
    match_id = recorder.create_match(spec=spec, seats=SEATS)
    with pytest.raises(Crash):
        await play_match(game, spec, players(hub, crash_at=12), recorder, match_id)
    lost = recorder.pending(match_id)
    assert lost > 0
    committed = store.events(match_id)  # the process dies here: the buffer is gone
    whole = store.events(reference)
    assert 1 < len(committed) < len(whole) - lost
    assert [event.model_dump(exclude={"call_ids"}) for event in committed] == \
        [event.model_dump(exclude={"call_ids"}) for event in whole[:len(committed)]]
    assert store.get_match(match_id).status == "running"

    resumed = BufferedRecorder(store)  # a new process: it reads where the log ends
    await play_match(game, spec, players(hub), resumed, match_id, prior_events=committed)

    assert log_of(store, match_id)[0] == log_of(store, reference)[0]
    seqs = [record.seq for record in store.event_records(match_id)]
    assert seqs == list(range(1, len(seqs) + 1))
    assert store.get_match(match_id).status == "finished"


async def test_a_tail_does_not_land_on_a_log_that_moved(store: Store) -> None:
    recorder = BufferedRecorder(store, clock=FrozenClock())
    match_id = recorder.create_match(spec=make_spec(), seats=SEATS)
    recorder.flush()  # the match is stored
    recorder.append_event(match_id, AskIssued(seat=GUESSER, kind="question", attempt=0))
    store.append_event(match_id, AskIssued(seat=ANSWERER, kind="answer", attempt=0))  # another writer
    with pytest.raises(LogMoved):
        recorder.flush()
    assert [record.seq for record in store.event_records(match_id)] == [1, 2]


def test_bad_limits_are_refused(store: Store) -> None:
    with pytest.raises(ValueError, match="max_events"):
        BufferedRecorder(store, max_events=0)
    with pytest.raises(ValueError, match="max_age_s"):
        BufferedRecorder(store, max_age_s=-1)


async def test_other_drivers_get_the_same_log_through_core(store: Store, hub: ModelHub,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    direct = await play(BufferedRecorder(store), hub)  # SQLite's and psycopg's drivers called directly
    monkeypatch.setattr(_direct, "_DRIVER_MARKERS", {})  # as for a driver the fast path does not know
    through_core = await play(BufferedRecorder(store), hub)

    assert log_of(store, through_core) == log_of(store, direct)
    assert store.get_match(through_core).outcome == store.get_match(direct).outcome
    assert store.get_match(through_core).status == "finished"
    for match_id in (direct, through_core):  # the times written directly read back as those written through Core
        record = store.get_match(match_id)
        assert record.ended_at is not None and record.ended_at.utcoffset() is not None
        assert record.created_at <= record.ended_at
        assert all(event.created_at.utcoffset() is not None for event in store.event_records(match_id))


async def test_moves_waiting_behind_a_slow_call_are_committed_when_their_time_is_up(store: Store) -> None:
    recorder = BufferedRecorder(store, max_age_s=0.05)
    match_id = recorder.create_match(spec=make_spec(), seats=SEATS)
    recorder.append_event(match_id, AskIssued(seat=GUESSER, kind="question", attempt=0))
    assert stored_events(store, match_id) == 0 and recorder.pending(match_id) == 1
    await asyncio.sleep(0.3)  # the next move's model call is slow: nothing else comes
    assert len(store.events(match_id)) == 2 and recorder.pending(match_id) == 0
    recorder.append_event(match_id, AskIssued(seat=GUESSER, kind="question", attempt=1))
    recorder.flush()  # committed at once: the timer it had set is cancelled and does not commit twice
    await asyncio.sleep(0.1)
    assert [record.seq for record in store.event_records(match_id)] == [1, 2, 3]


async def test_a_match_is_stored_with_its_first_commit_and_its_run_index_stays_unique(store: Store,
                                                                                     hub: ModelHub) -> None:
    run_id = store.create_run("akinator", 1, {})
    recorder = BufferedRecorder(store, clock=FrozenClock())
    spec = make_spec()
    match_id = recorder.create_match(spec=spec, seats=SEATS, run_id=run_id, match_index=0)
    assert store.run_matches(run_id) == []  # nothing stored before its first commit
    await play_match(game, spec, players(hub), recorder, match_id)
    (match,) = store.run_matches(run_id)
    assert match.id == match_id and match.status == "finished" and match.match_index == 0
    seqs = [record.seq for record in store.event_records(match_id)]
    assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) > 10

    again = BufferedRecorder(store, clock=FrozenClock())
    other = again.create_match(spec=spec, seats=SEATS, run_id=run_id, match_index=0)
    again.append_event(other, AskIssued(seat=GUESSER, kind="question", attempt=0))
    with pytest.raises(DuplicateMatch):
        again.flush()
    assert [m.id for m in store.run_matches(run_id)] == [match_id]


async def test_a_writer_thread_commits_the_same_log_in_order(store: Store, hub: ModelHub) -> None:
    inline = await play(BufferedRecorder(store, max_events=5), hub)
    with CommitWriter(store) as writer:
        recorder = BufferedRecorder(store, max_events=5, writer=writer)
        threaded = await play(recorder, hub)
        await recorder.settled()
    assert log_of(store, threaded) == log_of(store, inline)
    assert store.get_match(threaded).status == "finished"


async def test_a_failed_write_of_the_writer_is_raised_at_the_next_commit(store: Store) -> None:
    with CommitWriter(store) as writer:
        recorder = BufferedRecorder(store, max_events=1, clock=FrozenClock(), writer=writer)
        match_id = recorder.create_match(spec=make_spec(), seats=SEATS)
        recorder.append_event(match_id, AskIssued(seat=GUESSER, kind="question", attempt=0))  # stores the match
        await recorder.settled()
        store.append_event(match_id, AskIssued(seat=ANSWERER, kind="answer", attempt=0))  # another writer
        recorder.append_event(match_id, AskIssued(seat=GUESSER, kind="question", attempt=1))  # will not land
        with pytest.raises(LogMoved):
            await recorder.settled()
        with pytest.raises(LogMoved):  # the recorder's log is not the store's: every later commit is refused
            recorder.append_event(match_id, AskIssued(seat=GUESSER, kind="question", attempt=2))
        recorder.drain()  # nothing left in flight
    assert [record.seq for record in store.event_records(match_id)] == [1, 2, 3]


@dataclass
class GatedStore:
    """A store whose writer is held at its first lone commit until ``gate`` opens, so the commits handed over
    meanwhile wait together; records the size of each transaction written."""

    store: Store
    gate: threading.Event = field(default_factory=threading.Event)
    held: threading.Event = field(default_factory=threading.Event)
    transactions: list[int] = field(default_factory=list)

    def commit_tail(self, commit: TailCommit) -> None:
        self._wait()
        self.transactions.append(1)
        self.store.commit_tail(commit)

    def commit_tails(self, commits: Sequence[TailCommit]) -> None:
        self._wait()
        self.transactions.append(len(commits))
        self.store.commit_tails(commits)

    def _wait(self) -> None:
        self.held.set()
        assert self.gate.wait(10)

    async def holding(self) -> None:
        """Once the writer waits at the gate."""
        assert await asyncio.to_thread(self.held.wait, 10)


async def test_commits_waiting_together_land_in_one_transaction_with_the_same_logs(store: Store,
                                                                                  hub: ModelHub) -> None:
    inline = await play(BufferedRecorder(store), hub)
    gated = GatedStore(store)
    with CommitWriter(cast(Store, gated)) as writer:
        # a frozen clock: no commit is due by time, so a slow machine cannot add one to the group (CI did, once)
        recorders = [BufferedRecorder(store, clock=FrozenClock(), writer=writer) for _ in range(4)]
        first = await play(recorders[0], hub)
        await gated.holding()
        waiting = [await play(recorder, hub) for recorder in recorders[1:]]
        assert stored_events(store, waiting[-1]) == 0
        gated.gate.set()
        for recorder in recorders:
            await recorder.settled()
    assert gated.transactions == [1, 3]
    for match_id in (first, *waiting):
        assert log_of(store, match_id) == log_of(store, inline)
        assert store.get_match(match_id).status == "finished"


async def test_a_failing_commit_of_a_group_fails_alone(store: Store, hub: ModelHub) -> None:
    run_id = store.create_run("akinator", 1, {})
    taken = BufferedRecorder(store)
    taken_id = taken.create_match(spec=make_spec(), seats=SEATS, run_id=run_id, match_index=0)
    await play_match(game, make_spec(), players(hub), taken, taken_id)
    gated = GatedStore(store)
    with CommitWriter(cast(Store, gated)) as writer:
        held = await play(BufferedRecorder(store, clock=FrozenClock(), writer=writer), hub)  # no commit by time
        await gated.holding()
        before = await play(BufferedRecorder(store, clock=FrozenClock(), writer=writer), hub)
        duplicate = BufferedRecorder(store, max_events=2, clock=FrozenClock(), writer=writer)
        duplicate_id = duplicate.create_match(spec=make_spec(), seats=SEATS, run_id=run_id, match_index=0)
        duplicate.append_event(duplicate_id, AskIssued(seat=GUESSER, kind="question", attempt=0))
        duplicate.append_event(duplicate_id, AskIssued(seat=GUESSER, kind="question", attempt=1))  # a commit
        duplicate.append_event(duplicate_id, AskIssued(seat=GUESSER, kind="question", attempt=2))
        duplicate.append_event(duplicate_id, AskIssued(seat=GUESSER, kind="question", attempt=3))  # built on it
        after = await play(BufferedRecorder(store, clock=FrozenClock(), writer=writer), hub)
        gated.gate.set()
        with pytest.raises(DuplicateMatch):
            await duplicate.settled()
    assert gated.transactions[:2] == [1, 4]  # the group failed, then each commit was written alone
    assert all(store.get_match(match_id).status == "finished" for match_id in (held, before, after))
    assert log_of(store, before) == log_of(store, after) == log_of(store, held)
    assert [m.id for m in store.run_matches(run_id)] == [taken_id]
    assert stored_events(store, duplicate_id) == 0
